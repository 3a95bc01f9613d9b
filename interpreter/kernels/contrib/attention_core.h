// The scaled dot-product attention shared by the contrib Attention, MultiHeadAttention and
// GroupQueryAttention kernels: each prepares Q, K and V in [batch, heads, length, head_size] and
// says, per score, what is added to it and whether it takes part at all.
#ifndef ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_ATTENTION_CORE_H_
#define ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_ATTENTION_CORE_H_

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "interpreter/kernel.h"
#include "interpreter/tensor.h"

namespace onnx_opt::interpreter::contrib {

struct AttentionProblem {
  int64_t batch = 0, q_heads = 0, kv_heads = 0;  // q_heads a multiple of kv_heads
  int64_t q_len = 0, kv_len = 0, head_size = 0, v_head_size = 0;
  const float* q = nullptr;  // [batch, q_heads, q_len, head_size]
  const float* k = nullptr;  // [batch, kv_heads, kv_len, head_size]
  const float* v = nullptr;  // [batch, kv_heads, kv_len, v_head_size]
  float scale = 1;
  float softcap = 0;  // > 0: scores become softcap * tanh(score / softcap) (after scaling)
  // Whether key j takes part in query i's softmax (null: all do). Excluded keys get weight 0; a
  // query with no key left gets zeros.
  std::function<bool(int64_t b, int64_t h, int64_t i, int64_t j)> allowed;
  // Added to score (b, h, i, j) after scaling and softcap (null: nothing).
  std::function<float(int64_t b, int64_t h, int64_t i, int64_t j)> bias;
  // Per head, one more logit in the softmax's denominator only (attention sinks; null: none).
  const float* sink = nullptr;
};

// Y [batch, q_len, q_heads * v_head_size]. With `scores` (when not null, [batch, q_heads, q_len,
// kv_len]): the scores before the softmax (after bias; -inf where excluded) when `probabilities` is
// false, else the softmax's output (0 where excluded).
Tensor RunAttention(const AttentionProblem& p, Tensor* scores = nullptr,
                    bool probabilities = false);

// The key masks of onnxruntime's Attention (mask_index) and MultiHeadAttention (key_padding_mask),
// int32, as masked(b, i, j) for query i and key j of `total` keys, `past` of them from the cache:
// [B] key lengths (right padding), [2B] exclusive ends then inclusive starts, [B, T] or [B, S, T]
// masking where they hold 0 or less (as onnxruntime 1.30: only values > 0 keep a key), [B, 1, M, M]
// with the rows of queries from `past` on. Null when the input is
// absent; [3B + 2] and other shapes are errors naming the input.
using KeyMaskFn = std::function<bool(int64_t b, int64_t i, int64_t j)>;
absl::StatusOr<KeyMaskFn> KeyMask(const KernelContext& ctx, size_t input, std::string_view name,
                                  int64_t batch, int64_t q_len, int64_t total, int64_t past);

// An attention_bias input [B or 1, N or 1, S, T] as a function; null when absent.
using BiasFn = std::function<float(int64_t b, int64_t h, int64_t i, int64_t j)>;
absl::StatusOr<BiasFn> AttentionBias(const KernelContext& ctx, size_t input, int64_t batch,
                                     int64_t heads, int64_t q_len, int64_t total);

// Attention's and MultiHeadAttention's additive scores: the attention_bias (when given), plus
// `filter` for a key the mask hides.
BiasFn MaskedScores(BiasFn attention_bias, KeyMaskFn mask, float filter);

// Their unidirectional rule: query i (after `past` cached keys) sees keys j <= past + i; the
// others are out of its softmax, whatever the mask adds to the rest (onnxruntime 1.30: a padding
// query whose keys are all masked weighs the keys up to it, never those after it). Null when not
// `causal`.
std::function<bool(int64_t b, int64_t h, int64_t i, int64_t j)> CausalKeys(bool causal,
                                                                           int64_t past);

// [b, s, heads * size] (rows of `row_stride` floats starting at `offset`) -> [b, heads, s, size].
std::vector<float> ToHeads(const float* x, int64_t batch, int64_t len, int64_t heads, int64_t size,
                           int64_t row_stride, int64_t offset);

// Concatenates [b, h, p, d] and [b, h, s, d] along the length.
std::vector<float> ConcatLength(const float* past, int64_t past_len, const float* now,
                                int64_t now_len, int64_t bh, int64_t d);

}  // namespace onnx_opt::interpreter::contrib

#endif  // ONNX_OPT_INTERPRETER_KERNELS_CONTRIB_ATTENTION_CORE_H_
