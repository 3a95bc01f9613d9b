// Tests for standardize on the attention family (Attention, MultiHeadAttention,
// GroupQueryAttention): contrib models (com.microsoft) become Attention-23 and friends with the
// outputs the contrib kernels compute, checked by the checker and by running both models on the
// same inputs.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/standardize.h"
#include "passes/testing/standardize_test_util.h"

namespace onnx_opt::passes {
namespace {

using ::onnx_opt::passes::testing::ExpectStandardized;
using ::onnx_opt::passes::testing::Header;
using ::onnx_opt::passes::testing::ReportOf;
using ::onnx_opt::passes::testing::Values;
using ::testing::HasSubstr;

TEST(StandardizeAttentionTest, Attention) {
  // Packed projection [8, 24] for 2 heads of 4, with bias; a [B, T] key mask; causal; a bias input.
  const std::string weights =
      "<float[8,24] w = {" + Values(192, 1.8) + "}, float[24] bias = {" + Values(24, 1.9) + "}>";
  ExpectStandardized(Header() + R"(
    g (float[2,5,8] x, int32[2,5] mask, float[2,2,5,5] ab) => (float[2,5,8] y, float[2,5,8] z, float[2,5,8] u) )" +
                         weights + R"( {
      y = com.microsoft.Attention<num_heads = 2>(x, w, bias, mask)
      z = com.microsoft.Attention<num_heads = 2, unidirectional = 1, scale = 0.3>(x, w)
      u = com.microsoft.Attention<num_heads = 2>(x, w, bias, , , ab)
    })",
                     {"MatMul", "Split", "Attention"});
  // Key lengths [B], as EmbedLayerNormalization's mask_index gives them.
  ExpectStandardized(Header() + R"(
    g (float[N,5,8] x, int32[N] lengths) => (float[N,5,8] y) )" +
                         weights + R"( {
      y = com.microsoft.Attention<num_heads = 2>(x, w, bias, lengths)
    })",
                     {"MatMul", "Split", "Attention"});
}

// contrib Attention as onnxruntime's transformer optimizer writes it for GPT-2 decoders: packed
// QKV weights [8, 24] (2 heads of 4), unidirectional, past [2, B, 2, P, 4] and present
// [2, B, 2, P + S, 4], an attention mask [B, P + S] over the past and new tokens.
std::string Gpt2Attention(int64_t B, int64_t S, int64_t P, const std::string& mask,
                          const std::string& attrs = "") {
  const int64_t T = P + S;
  std::string sig =
      absl::StrCat("(float[", B, ",", S, ",8] x, float[2,", B, ",2,", P, ",4] past) => (float[", B,
                   ",", S, ",8] y, float[2,", B, ",2,", T, ",4] present)");
  std::string inits =
      "<float[8,24] w = {" + Values(192, 2.3) + "}, float[24] bias = {" + Values(24, 2.4) + "}";
  if (!mask.empty()) absl::StrAppend(&inits, ", int32[", B, ",", T, "] m = {", mask, "}");
  return Header() + "g " + sig + "\n" + inits +
         ">\n{\n  y, present = " + "com.microsoft.Attention<num_heads = 2, unidirectional = 1" +
         attrs + ">(x, w, bias, " + (mask.empty() ? "" : "m") + ", past)\n}";
}

TEST(StandardizeAttentionTest, AttentionWithPastDecodeStep) {
  // One new token after 4: entry 1 left-padded (its first two keys masked).
  ExpectStandardized(Gpt2Attention(2, 1, 4, "1, 1, 1, 1, 1, 0, 0, 1, 1, 1"),
                     {"MatMul", "Split", "Squeeze", "Attention", "Unsqueeze", "Concat"});
  // Without a mask; a scale.
  ExpectStandardized(Gpt2Attention(2, 1, 4, "", ", scale = 0.3"),
                     {"MatMul", "Split", "Squeeze", "Attention", "Concat"});
}

TEST(StandardizeAttentionTest, AttentionWithPastChunk) {
  // Three new tokens after 2, causal from the past's end. Entry 1's first three keys are masked:
  // its first new token sees only masked keys (they share its softmax, the keys after it stay out,
  // as onnxruntime computes it); a mask value of 2 keeps a key, -1 masks it.
  ExpectStandardized(Gpt2Attention(2, 3, 2, "1, 1, 2, 1, 1, 0, 0, -1, 1, 1"),
                     {"MatMul", "Split", "Squeeze", "Attention", "Concat", "LessOrEqual"});
  ExpectStandardized(Gpt2Attention(2, 3, 2, ""), {"Split", "Squeeze", "Attention", "Concat"});
  // A first prompt on an empty past.
  ExpectStandardized(Gpt2Attention(2, 3, 0, "1, 1, 1, 0, 1, 1"), {"Attention", "Concat"});
}

TEST(StandardizeAttentionTest, AttentionWithPastOtherMasks) {
  // Key lengths [B] over the past and the new keys, attention_bias [B, 1, S, P + S], not causal;
  // a present without a past.
  ExpectStandardized(Header() + R"(
    g (float[2,3,8] x, float[2,2,2,2,4] past, int32[2] lengths, float[2,1,3,5] ab)
      => (float[2,3,8] y, float[2,2,2,5,4] present, float[2,3,8] z, float[2,2,2,3,4] present2)
    <float[8,24] w = {)" +
                         Values(192, 2.5) +
                         R"(}> {
      y, present = com.microsoft.Attention<num_heads = 2>(x, w, , lengths, past, ab)
      z, present2 = com.microsoft.Attention<num_heads = 2, unidirectional = 1>(x, w)
    })",
                     {"Attention", "Range", "GreaterOrEqual", "Concat"});
  // [2B] ends then starts over the past and the new keys (entry 1 keeps keys 2..3), causal.
  ExpectStandardized(Header() + R"(
    g (float[2,3,8] x, float[2,2,2,2,4] past) => (float[2,3,8] y, float[2,2,2,5,4] present)
    <float[8,24] w = {)" +
                         Values(192, 2.7) +
                         R"(}, int32[4] m = {5, 4, 0, 2}> {
      y, present = com.microsoft.Attention<num_heads = 2, unidirectional = 1>(x, w, , m, past)
    })",
                     {"Attention", "Split", "Or", "Less"});
  // A mask per query [B, S, P + S], causal.
  ExpectStandardized(Header() + R"(
    g (float[2,3,8] x, float[2,2,2,2,4] past) => (float[2,3,8] y, float[2,2,2,5,4] present)
    <float[8,24] w = {)" +
                         Values(192, 2.6) +
                         R"(}, int32[2,3,5] m = {1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1,
                                                0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0}> {
      y, present = com.microsoft.Attention<num_heads = 2, unidirectional = 1>(x, w, , m, past)
    })",
                     {"Attention", "LessOrEqual", "Unsqueeze", "Concat"});
  // What stays, and why.
  StandardizeReport report = ReportOf(Header() + R"(
    g (float[2,1,8] x, float[8,24] w, float[2,2,2,4,4] past, int32 plen) => (float[2,1,8] y, float[2,2,2,4,4] present) {
      y, present = com.microsoft.Attention<num_heads = 2, past_present_share_buffer = 1>(x, w, , , past, , plen)
    })");
  ASSERT_EQ(report.kept.size(), 1u);
  EXPECT_THAT(report.kept[0], HasSubstr("past_present_share_buffer"));
  report = ReportOf(Header() + R"(
    g (float[2,3,8] x, float[8,20] w, float[2,2,2,2,4] past) => (float[2,3,8] y, float[2,2,2,5,4] present) {
      y, present = com.microsoft.Attention<num_heads = 2, qkv_hidden_sizes = [8, 8, 4]>(x, w, , , past)
    })");
  ASSERT_EQ(report.kept.size(), 1u);
  EXPECT_THAT(report.kept[0], HasSubstr("V's head size"));
}

TEST(StandardizeAttentionTest, MultiHeadAttention) {
  ExpectStandardized(Header() + R"(
    g (float[2,3,8] q, float[2,5,8] k, float[2,5,8] v, int32[2,5] mask, float[2,2,2,4] pk, float[2,2,2,4] pv,
       float[2,3,8] k3, float[2,3,8] v3)
      => (float[2,3,8] y, float[2,3,8] z, float[2,2,7,4] zk, float[2,2,7,4] zv, float[2,3,8] c)
    <float[24] bias = {)" +
                         Values(24, 2.0) + R"(}> {
      y = com.microsoft.MultiHeadAttention<num_heads = 2>(q, k, v, bias, mask)
      z, zk, zv = com.microsoft.MultiHeadAttention<num_heads = 2>(q, k, v, , , , pk, pv)
      c = com.microsoft.MultiHeadAttention<num_heads = 2, unidirectional = 1>(q, k3, v3)
    })",
                     {"Attention", "Add", "Expand"});
  // Unidirectional with a past (causal from the past's end, as Attention-23's is_causal) and a key
  // mask [B, P + S]; key lengths [B] over the past and the new keys.
  ExpectStandardized(Header() + R"(
    g (float[2,3,8] q, float[2,3,8] k, float[2,3,8] v, float[2,2,2,4] pk, float[2,2,2,4] pv, int32[2] lens)
      => (float[2,3,8] y, float[2,2,5,4] yk, float[2,2,5,4] yv, float[2,3,8] z)
    <int32[2,5] mask = {1, 1, 1, 1, 1, 0, 0, 0, 1, 1}> {
      y, yk, yv = com.microsoft.MultiHeadAttention<num_heads = 2, unidirectional = 1>(q, k, v, , mask, , pk, pv)
      z, , = com.microsoft.MultiHeadAttention<num_heads = 2, unidirectional = 1>(q, k, v, , lens, , pk, pv)
    })",
                     {"Attention", "Expand", "Range"});
}

TEST(StandardizeAttentionTest, GroupQueryAttention) {
  // 4 query heads over 2 KV heads of 4, prompt of 5 without a cache; rotary from caches; seqlens_k
  // pads sequences on the right. Packed and separate Q, K, V.
  const std::string consts = "<float[16,2] cosc = {" + Values(32, 2.1, 1.0) +
                             "}, float[16,2] sinc = {" + Values(32, 2.2, 1.0) +
                             "}, int32 total = {5}>";
  ExpectStandardized(Header() + R"(
    g (float[2,5,16] q, float[2,5,8] k, float[2,5,8] v, int32[2] lens, float[2,5,32] qkv)
      => (float[2,5,16] y, float[2,2,5,4] pk, float[2,2,5,4] pv, float[2,5,16] z) )" +
                         consts + R"( {
      y, pk, pv = com.microsoft.GroupQueryAttention<num_heads = 4, kv_num_heads = 2>(q, k, v, , , lens, total)
      z, , = com.microsoft.GroupQueryAttention<num_heads = 4, kv_num_heads = 2, do_rotary = 1>(qkv, , , , , lens, total, cosc, sinc)
    })",
                     {"Attention", "RotaryEmbedding", "Split"});
  // With a cache of 4 whose sequences are all full (seqlens_k the constant 4 + S - 1): a decode
  // step (S = 1) and a chunk of 3 with rotary (positions 4..6), causal from the cache's end;
  // presents.
  ExpectStandardized(Header() + R"(
    g (float[2,1,16] q, float[2,1,8] k, float[2,1,8] v, float[2,2,4,4] pk, float[2,2,4,4] pv,
       float[2,3,16] q3, float[2,3,8] k3, float[2,3,8] v3)
      => (float[2,1,16] y, float[2,2,5,4] ok, float[2,2,5,4] ov, float[2,3,16] z, float[2,2,7,4] ok3) )" +
                         consts.substr(0, consts.size() - 1) +
                         R"(, int32[2] lens1 = {4, 4}, int32[2] lens3 = {6, 6},
                         int32 total3 = {7}> {
      y, ok, ov = com.microsoft.GroupQueryAttention<num_heads = 4, kv_num_heads = 2>(q, k, v, pk, pv, lens1, total)
      z, ok3, = com.microsoft.GroupQueryAttention<num_heads = 4, kv_num_heads = 2, do_rotary = 1>(q3, k3, v3, pk, pv, lens3, total3, cosc, sinc)
    })",
                     {"Attention", "RotaryEmbedding"});
  // What has no standard form is left, and said why.
  StandardizeReport report = ReportOf(Header() + R"(
    g (float[2,1,16] q, float[2,1,8] k, float[2,1,8] v, float[2,2,4,4] pk, float[2,2,4,4] pv, int32[2] lens, int32 total)
      => (float[2,1,16] y) {
      y, , = com.microsoft.GroupQueryAttention<num_heads = 4, kv_num_heads = 2, smooth_softmax = 1>(q, k, v, pk, pv, lens, total)
    })");
  ASSERT_EQ(report.kept.size(), 1u);
  EXPECT_THAT(report.kept[0], HasSubstr("smooth_softmax"));
}

// GroupQueryAttention as onnxruntime's model builder writes it: seqlens_k and total_sequence_length
// computed at run time from the attention mask (ReduceSum - 1, and its length), entries of the
// batch of different lengths. The new rows go into each entry's present at its own length, which
// Attention-23's past does not do: the presents are scattered (ScatterND) and Attention-23 takes
// them with a bool mask. `mask` is the attention mask [B, T] as a constant (the pass does not fold
// the lengths computed from it); `signature` the graph's; `attrs` and `inputs` the node's.
std::string RuntimeLengthsModel(const std::string& signature, const std::string& mask,
                                const std::string& attrs, const std::string& inputs) {
  return Header() + "g " + signature + "\n    <" + mask + ", float[16,2] cosc = {" +
         Values(32, 2.1, 1.0) + "}, float[16,2] sinc = {" + Values(32, 2.2, 1.0) +
         R"(}, int64[1] axis1 = {1}, int64 one = {1}> {
      sum = ReduceSum<keepdims = 0>(mask, axis1)
      last = Sub(sum, one)
      lens = Cast<to = 6>(last)
      shape = Shape(mask)
      length = Gather<axis = 0>(shape, one)
      total = Cast<to = 6>(length)
      cosc16 = Cast<to = 10>(cosc)
      sinc16 = Cast<to = 10>(sinc)
      y, pk_out, pv_out = com.microsoft.GroupQueryAttention<num_heads = 4, kv_num_heads = 2)" +
         attrs + ">(" + inputs + R"()
    })";
}

TEST(StandardizeAttentionTest, GroupQueryAttentionDecodeStepsOfDifferentLengths) {
  // A decode step over a cache of 4: entry 0 holds 4 tokens (its new one at row 4), entry 1 only
  // 2 (its new one at row 2, rows 3..4 of its present zeros); rotary at positions 4 and 2.
  ExpectStandardized(
      RuntimeLengthsModel(
          "(float[2,1,16] q, float[2,1,8] k, float[2,1,8] v, float[2,2,4,4] pk, float[2,2,4,4] pv) "
          "=> (float[2,1,16] y, float[2,2,5,4] pk_out, float[2,2,5,4] pv_out)",
          "int64[2,5] mask = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0}", ", do_rotary = 1",
          "q, k, v, pk, pv, lens, total, cosc, sinc"),
      {"Attention", "RotaryEmbedding", "ScatterND", "Pad", "Where"});
  // The same without rotary, packed Q, K, V, and a cache longer than the total (a buffer of 6 for
  // 5 tokens: the presents keep its length, zeros after each entry's tokens).
  ExpectStandardized(
      RuntimeLengthsModel("(float[2,1,32] qkv, float[2,2,6,4] pk, float[2,2,6,4] pv) "
                          "=> (float[2,1,16] y, float[2,2,6,4] pk_out, float[2,2,6,4] pv_out)",
                          "int64[2,5] mask = {1, 1, 1, 1, 1, 1, 1, 0, 0, 0}", "",
                          "qkv, , , pk, pv, lens, total"),
      {"Attention", "Split", "ScatterND"});
  // Float16 through float32 (the kernel's computation, rounded once at the end).
  ExpectStandardized(
      RuntimeLengthsModel(
          "(float16[2,1,16] q, float16[2,1,8] k, float16[2,1,8] v, float16[2,2,4,4] pk, "
          "float16[2,2,4,4] pv) => (float16[2,1,16] y, float16[2,2,5,4] pk_out, "
          "float16[2,2,5,4] pv_out)",
          "int64[2,5] mask = {1, 1, 1, 0, 0, 1, 1, 1, 1, 1}", ", do_rotary = 1",
          "q, k, v, pk, pv, lens, total, cosc16, sinc16"),
      {"Attention", "RotaryEmbedding", "ScatterND", "Cast"});
  // Not causal (the interpreter's causal = 0: every key of the entry): the mask goes to the query
  // rows by an Expand.
  ExpectStandardized(
      RuntimeLengthsModel("(float[2,2,32] qkv, float[2,2,4,4] pk, float[2,2,4,4] pv) "
                          "=> (float[2,2,16] y, float[2,2,6,4] pk_out, float[2,2,6,4] pv_out)",
                          "int64[2,6] mask = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0}", ", causal = 0",
                          "qkv, , , pk, pv, lens, total"),
      {"Attention", "ScatterND", "Expand"});
}

TEST(StandardizeAttentionTest, GroupQueryAttentionFirstPromptWithPadding) {
  // The model builder's first run: an empty cache [B, 2, 0, 4], a prompt of 4 (total 4 = S: the
  // first prompt, positions from 0) where entry 1 has 2 tokens and 2 of padding.
  ExpectStandardized(
      RuntimeLengthsModel(
          "(float[2,4,16] q, float[2,4,8] k, float[2,4,8] v, float[2,2,0,4] pk, float[2,2,0,4] pv) "
          "=> (float[2,4,16] y, float[2,2,4,4] pk_out, float[2,2,4,4] pv_out)",
          "int64[2,4] mask = {1, 1, 1, 1, 1, 1, 0, 0}", ", do_rotary = 1",
          "q, k, v, pk, pv, lens, total, cosc, sinc"),
      {"Attention", "RotaryEmbedding", "ScatterND"});
  // Without a cache input, packed, total_sequence_length computed at run time.
  ExpectStandardized(
      RuntimeLengthsModel("(float[2,4,32] qkv) "
                          "=> (float[2,4,16] y, float[2,2,4,4] pk_out, float[2,2,4,4] pv_out)",
                          "int64[2,4] mask = {1, 1, 1, 0, 1, 0, 0, 0}", ", do_rotary = 1",
                          "qkv, , , , , lens, total, cosc, sinc"),
      {"Attention", "RotaryEmbedding", "ScatterND", "ConstantOfShape"});
  // A window of 2 keys with softcap: the padding queries' windows end at their sequence's last
  // token (onnxruntime's rule with softcap, the kernel's too).
  ExpectStandardized(
      RuntimeLengthsModel("(float[2,6,32] qkv, float[2,2,0,4] pk, float[2,2,0,4] pv) "
                          "=> (float[2,6,16] y, float[2,2,6,4] pk_out, float[2,2,6,4] pv_out)",
                          "int64[2,6] mask = {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0}",
                          ", local_window_size = 2, softcap = 2.0", "qkv, , , pk, pv, lens, total"),
      {"Attention", "ScatterND", "Min"});
}

TEST(StandardizeAttentionTest, GroupQueryAttentionChunksWindowAndSoftcap) {
  // A chunk of S new tokens (S symbolic: verification runs 2, 3 and 4) after a cache of 4, total
  // 6: entry 0 holds 6 tokens, entry 1 holds 4, so the chunk starts at 6 - S and 4 - S; a local
  // window of 2 keys and softcap.
  ExpectStandardized(
      RuntimeLengthsModel(
          "(float[2,S,16] q, float[2,S,8] k, float[2,S,8] v, float[2,2,4,4] pk, float[2,2,4,4] pv) "
          "=> (float[2,S,16] y, float[2,2,6,4] pk_out, float[2,2,6,4] pv_out)",
          "int64[2,6] mask = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}",
          ", do_rotary = 1, local_window_size = 2, softcap = 1.5, scale = 0.4",
          "q, k, v, pk, pv, lens, total, cosc, sinc"),
      {"Attention", "RotaryEmbedding", "ScatterND"});
  // One sequence, a chunk of 3 after 2 of its 4 cached rows (onnxruntime takes a chunk after a
  // past for one sequence only).
  ExpectStandardized(
      RuntimeLengthsModel(
          "(float[1,3,16] q, float[1,3,8] k, float[1,3,8] v, float[1,2,4,4] pk, float[1,2,4,4] pv) "
          "=> (float[1,3,16] y, float[1,2,6,4] pk_out, float[1,2,6,4] pv_out)",
          "int64[1,6] mask = {1, 1, 1, 1, 1, 0}", ", do_rotary = 1, rotary_interleaved = 1",
          "q, k, v, pk, pv, lens, total, cosc, sinc"),
      {"Attention", "RotaryEmbedding", "ScatterND"});
}

}  // namespace
}  // namespace onnx_opt::passes
