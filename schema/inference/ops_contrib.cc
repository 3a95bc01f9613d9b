// onnxruntime's contrib operators (com.microsoft): output shapes of the ones with schemas
// (schema/defs/contrib_*.cc). Element types come from the schemas' type constraints.
#include <optional>
#include <utility>
#include <vector>

#include "schema/domains.h"
#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

constexpr std::string_view kMs = kMicrosoftDomain;

// Output `out` has input `in`'s shape with its dims from `from` on set to 1.
void StatShape(InferenceContext& ctx, size_t in, size_t out, std::optional<int64_t> from) {
  const Shape* s = ctx.input_shape(in);
  if (s == nullptr || !ctx.has_output(out) || s->rank() == 0) return;
  Shape r = *s;
  int64_t first = from.value_or(static_cast<int64_t>(r.rank()) - 1);
  if (first < 0) first += static_cast<int64_t>(r.rank());
  if (first < 0 || first >= static_cast<int64_t>(r.rank())) return;
  for (size_t d = first; d < r.rank(); ++d) r.mutable_dim(d) = Dim::Known(1);
  ctx.SetOutputShape(out, r);
}

absl::Status SkipNorm(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShape(ctx, 0, 0));
  StatShape(ctx, 0, 1, std::nullopt);
  StatShape(ctx, 0, 2, std::nullopt);
  if (ctx.has_output(3)) RETURN_IF_ERROR(SameShape(ctx, 0, 3));
  return absl::OkStatus();
}

absl::Status SimplifiedNorm(InferenceContext& ctx) {
  RETURN_IF_ERROR(SameShape(ctx, 0, 0));
  StatShape(ctx, 0, 1, ctx.GetInt("axis", -1));
  // U is bound by no input: stash_type says it (1: float).
  if (ctx.has_output(1)) {
    ctx.SetOutputElemType(
        1, ctx.GetInt("stash_type", 1) == 1 ? ir::DataType::kFloat : ir::DataType::kDouble);
  }
  return absl::OkStatus();
}

// Input 0's shape with its last dim replaced by `last`.
void LastDim(InferenceContext& ctx, size_t in, size_t out, Dim last) {
  const Shape* s = ctx.input_shape(in);
  if (s == nullptr || s->rank() == 0) return;
  Shape r = *s;
  r.mutable_dim(r.rank() - 1) = std::move(last);
  ctx.SetOutputShape(out, r);
}

absl::Status MatMulNBits(InferenceContext& ctx) {
  LastDim(ctx, 0, 0, Dim::Known(ctx.GetInt("N", 0)));
  return absl::OkStatus();
}

// [B, S] ids -> [B, S, hidden]; mask_index [B]; embedding_sum like the output.
absl::Status EmbedLayerNorm(InferenceContext& ctx) {
  const Shape* ids = ctx.input_shape(0);
  const Shape* word = ctx.input_shape(2);
  if (ids == nullptr || ids->rank() != 2) return absl::OkStatus();
  const Dim hidden = word != nullptr && word->rank() == 2 ? word->dim(1) : Dim::Unknown();
  const Shape out({ids->dim(0), ids->dim(1), hidden});
  ctx.SetOutputShape(0, out);
  if (ctx.has_output(1)) ctx.SetOutputShape(1, Shape({ids->dim(0)}));
  if (ctx.has_output(2)) ctx.SetOutputShape(2, out);
  return absl::OkStatus();
}

Dim Times(const Dim& d, int64_t k) {
  return d.is_known() ? Dim::Known(d.value() * k) : Dim::Unknown();
}

// Attention: [B, S, v_hidden]; present [2, B, N, ?, head_size].
absl::Status Attention(InferenceContext& ctx) {
  const Shape* x = ctx.input_shape(0);
  const Shape* w = ctx.input_shape(1);
  if (x == nullptr || x->rank() != 3) return absl::OkStatus();
  Dim v_hidden = Dim::Unknown();
  const std::vector<int64_t> sizes = ctx.GetInts("qkv_hidden_sizes");
  if (sizes.size() == 3) {
    v_hidden = Dim::Known(sizes[2]);
  } else if (w != nullptr && w->rank() == 2 && w->dim(1).is_known() && w->dim(1).value() % 3 == 0) {
    v_hidden = Dim::Known(w->dim(1).value() / 3);
  }
  ctx.SetOutputShape(0, Shape({x->dim(0), x->dim(1), v_hidden}));
  if (ctx.has_output(1)) ctx.SetOutputRank(1, 5);
  return absl::OkStatus();
}

// MultiHeadAttention: [B, S, v_hidden] (v_hidden from a 3-D value, else the query's hidden size).
absl::Status MultiHeadAttention(InferenceContext& ctx) {
  const Shape* q = ctx.input_shape(0);
  if (q == nullptr) return absl::OkStatus();
  const Shape* v = ctx.has_input(2) ? ctx.input_shape(2) : nullptr;
  const int64_t heads = ctx.GetInt("num_heads", 0);
  if (q->rank() == 3) {
    Dim v_hidden = q->dim(2);
    if (v != nullptr && v->rank() == 3) v_hidden = v->dim(2);
    if (v != nullptr && v->rank() == 4) v_hidden = Times(v->dim(3), heads);
    ctx.SetOutputShape(0, Shape({q->dim(0), q->dim(1), v_hidden}));
  } else if (q->rank() == 5) {  // packed QKV [B, S, N, 3, H]
    ctx.SetOutputShape(0, Shape({q->dim(0), q->dim(1), Times(q->dim(4), heads)}));
  }
  for (size_t i : {1, 2}) {
    if (ctx.has_output(i)) ctx.SetOutputRank(i, 4);
  }
  if (ctx.has_output(3)) ctx.SetOutputRank(3, 4);
  return absl::OkStatus();
}

// GroupQueryAttention: [B, S, num_heads * head_size].
absl::Status GroupQueryAttention(InferenceContext& ctx) {
  const Shape* q = ctx.input_shape(0);
  if (q == nullptr || q->rank() != 3) return absl::OkStatus();
  Dim hidden = q->dim(2);
  if (!ctx.has_input(1) && hidden.is_known()) {  // packed QKV: N*H + 2*kvN*H
    const int64_t n = ctx.GetInt("num_heads", 0), kv = ctx.GetInt("kv_num_heads", 0);
    hidden = n + 2 * kv > 0 && hidden.value() % (n + 2 * kv) == 0
                 ? Dim::Known(hidden.value() / (n + 2 * kv) * n)
                 : Dim::Unknown();
  }
  ctx.SetOutputShape(0, Shape({q->dim(0), q->dim(1), hidden}));
  for (size_t i : {1, 2, 3}) {
    if (ctx.has_output(i)) ctx.SetOutputRank(i, 4);
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterContribOps(InferenceRegistry& r) {
  for (const char* op :
       {"Gelu", "FastGelu", "BiasGelu", "QuickGelu", "BiasAdd", "RotaryEmbedding"}) {
    r.Register(kMs, op, 1, kLatest, SameShapeAsInput0);
  }
  r.Register(kMs, "SkipLayerNormalization", 1, kLatest, SkipNorm);
  r.Register(kMs, "SkipSimplifiedLayerNormalization", 1, kLatest, SkipNorm);
  r.Register(kMs, "SimplifiedLayerNormalization", 1, kLatest, SimplifiedNorm);
  r.Register(kMs, "MatMulNBits", 1, kLatest, MatMulNBits);
  r.Register(kMs, "EmbedLayerNormalization", 1, kLatest, EmbedLayerNorm);
  r.Register(kMs, "Attention", 1, kLatest, Attention);
  r.Register(kMs, "MultiHeadAttention", 1, kLatest, MultiHeadAttention);
  r.Register(kMs, "GroupQueryAttention", 1, kLatest, GroupQueryAttention);
}

}  // namespace onnx_opt::schema::inference
