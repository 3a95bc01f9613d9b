// Attention, MultiHeadAttention and GroupQueryAttention (com.microsoft) against decompositions into
// MatMul/Add/Split, RotaryEmbedding-23 and Attention-23 run by the same interpreter. The masks of
// the decompositions are constants written here from the documented rules: Attention and
// MultiHeadAttention add mask_filter_value (-10000) to masked scores, GroupQueryAttention leaves
// masked keys out of the softmax.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "interpreter/testing/contrib_test_util.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using testing::ExpectError;
using testing::ExpectSameOutputs;
using testing::I32;
using testing::I64;
using testing::Model;
using testing::RandomF;
using testing::RunModel;

// A [B, 1, S, T] initializer named `name`: additive (0 or -10000) or bool (keep) from masked(b, i,
// j).
std::string MaskInit(const std::string& name, int64_t B, int64_t S, int64_t T, bool as_bool,
                     const std::function<bool(int64_t, int64_t, int64_t)>& masked) {
  std::vector<std::string> v;
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t i = 0; i < S; ++i) {
      for (int64_t j = 0; j < T; ++j) {
        const bool m = masked(b, i, j);
        v.push_back(as_bool ? (m ? "0" : "1") : (m ? "-10000.0" : "0.0"));
      }
    }
  }
  return absl::StrCat(as_bool ? "bool" : "float", "[", B, ",1,", S, ",", T, "] ", name, " = {",
                      absl::StrJoin(v, ", "), "}");
}

TEST(ContribAttention, PackedWeightsRawMaskPastUnidirectional) {
  // B 2, S 3, input 8, 2 heads of 4, past 2: T = 5. Raw mask [B, T].
  const std::vector<int32_t> raw = {1, 1, 1, 1, 1, 1, 0, 1, 1, 0};
  const auto masked = [&](int64_t b, int64_t i, int64_t j) {
    return raw[b * 5 + j] == 0 || j > 2 + i;
  };
  const std::string sig =
      "(float[2,3,8] x, float[8,24] w, float[24] bias, int32[2,5] m, float[2,2,2,2,4] past) => "
      "(float[2,3,8] y, float[2,2,2,5,4] present)";
  ExpectSameOutputs(Model(absl::StrCat("g ", sig,
                                       " { y, present = com.microsoft.Attention<num_heads = 2, "
                                       "unidirectional = 1>(x, w, bias, m, past) }")),
                    Model(absl::StrCat("g ", sig, " <", MaskInit("am", 2, 3, 5, false, masked),
                                       R"(, int64[1] z = {0}> {
          p = MatMul(x, w) qkv = Add(p, bias) q, k, v = Split<axis = 2, num_outputs = 3>(qkv)
          pk1, pv1 = Split<axis = 0, num_outputs = 2>(past) pk = Squeeze(pk1, z) pv = Squeeze(pv1, z)
          y, prk, prv = Attention<q_num_heads = 2, kv_num_heads = 2>(q, k, v, am, pk, pv)
          a = Unsqueeze(prk, z) b = Unsqueeze(prv, z) present = Concat<axis = 0>(a, b) })")),
                    {RandomF({2, 3, 8}, 1), RandomF({8, 24}, 2), RandomF({24}, 3), I32({2, 5}, raw),
                     RandomF({2, 2, 2, 2, 4}, 4)});
}

TEST(ContribAttention, LeftPaddingUnidirectionalPastAsOnnxruntime) {
  // onnxruntime 1.30's rules, measured in tools/ort_interop: the mask adds -10000 where it holds 0
  // or less (a 2 keeps a key, a -1 masks it); unidirectional leaves keys after the query out of
  // the softmax altogether. Entry 1's first new token (at 2, after a past of 2) sees only masked
  // keys: its softmax is over keys 0..2, never 3..4. Against Attention-23 with is_causal (offset by
  // the past) and the additive mask.
  const std::vector<int32_t> raw = {1, 2, 1, 1, 1, 0, 0, -1, 1, 1};
  const auto masked = [&](int64_t b, int64_t, int64_t j) { return raw[b * 5 + j] <= 0; };
  const std::string sig =
      "(float[2,3,8] x, float[8,24] w, int32[2,5] m, float[2,2,2,2,4] past) => "
      "(float[2,3,8] y, float[2,2,2,5,4] present)";
  ExpectSameOutputs(Model(absl::StrCat("g ", sig,
                                       " { y, present = com.microsoft.Attention<num_heads = 2, "
                                       "unidirectional = 1>(x, w, , m, past) }")),
                    Model(absl::StrCat("g ", sig, " <", MaskInit("am", 2, 3, 5, false, masked),
                                       R"(, int64[1] z = {0}> {
          qkv = MatMul(x, w) q, k, v = Split<axis = 2, num_outputs = 3>(qkv)
          pk1, pv1 = Split<axis = 0, num_outputs = 2>(past) pk = Squeeze(pk1, z) pv = Squeeze(pv1, z)
          y, prk, prv = Attention<q_num_heads = 2, kv_num_heads = 2, is_causal = 1>(q, k, v, am, pk, pv)
          a = Unsqueeze(prk, z) b = Unsqueeze(prv, z) present = Concat<axis = 0>(a, b) })")),
                    {RandomF({2, 3, 8}, 21), RandomF({8, 24}, 22), I32({2, 5}, raw),
                     RandomF({2, 2, 2, 2, 4}, 23)});
}

TEST(ContribAttention, ScoresSumWithTheMaskInFloat32) {
  // A query whose keys are all masked: onnxruntime sums each score with the mask in float32, so
  // next to a filter of -1e6 only multiples of 1/16 are left of the scores, and its softmax is over
  // those. The contrib kernel and Attention-23 (with a float32 mask) do the same, as the float32
  // primitives below. One head of 4 (scale 0.5).
  const std::string sig = "(float[1,3,4] x, float[4,12] w) => (float[1,3,4] y)";
  const std::string primitives = R"(
          s1 = MatMul(q, kt) s2 = Mul(s1, half) s3 = Add(s2, am) p = Softmax<axis = -1>(s3)
          y = MatMul(p, v) })";
  const std::string split = R"(
          qkv = MatMul(x, w) q, k, v = Split<axis = 2, num_outputs = 3>(qkv)
          kt = Transpose<perm = [0, 2, 1]>(k))";
  const std::string consts = "<float half = {0.5}, float[3,3] am = {" +
                             absl::StrJoin(std::vector<std::string>(9, "-1000000.0"), ", ") + "}";
  const std::vector<RuntimeValue> inputs = {RandomF({1, 3, 4}, 31, 2.0f), RandomF({4, 12}, 32)};
  ExpectSameOutputs(
      Model(absl::StrCat("g ", sig, " <int32[1,3] m = {0, 0, 0}> { y = com.microsoft.Attention<",
                         "num_heads = 1, mask_filter_value = -1000000.0>(x, w, , m) }")),
      Model(absl::StrCat("g ", sig, " ", consts, "> {", split, primitives)), inputs);
  ExpectSameOutputs(Model(absl::StrCat("g ", sig, " ", consts, "> {", split, R"(
          y = Attention<q_num_heads = 1, kv_num_heads = 1>(q, k, v, am) })")),
                    Model(absl::StrCat("g ", sig, " ", consts, "> {", split, primitives)), inputs);
}

TEST(ContribAttention, LengthsMaskAndSmallerValues) {
  // 1-D mask_index of key lengths; V of 2 x 2 while Q and K are 2 x 4; custom scale.
  const std::vector<int32_t> lengths = {3, 1};
  const auto masked = [&](int64_t b, int64_t, int64_t j) { return j >= lengths[b]; };
  const std::string sig = "(float[2,3,8] x, float[8,20] w, int32[2] m) => (float[2,3,4] y)";
  ExpectSameOutputs(Model(absl::StrCat("g ", sig,
                                       " { y = com.microsoft.Attention<num_heads = 2, "
                                       "qkv_hidden_sizes = [8, 8, 4], scale = 0.3>(x, w, , m) }")),
                    Model(absl::StrCat("g ", sig, " <", MaskInit("am", 2, 3, 3, false, masked),
                                       R"(, int64[3] sizes = {8, 8, 4}> {
          qkv = MatMul(x, w) q, k, v = Split<axis = 2>(qkv, sizes)
          y = Attention<q_num_heads = 2, kv_num_heads = 2, scale = 0.3>(q, k, v, am) })")),
                    {RandomF({2, 3, 8}, 5), RandomF({8, 20}, 6), I32({2}, lengths)});
  ExpectError(Model("g (float[2,3,8] x, float[8,24] w, int32[8] m) => (float[2,3,8] y) { y = "
                    "com.microsoft.Attention<num_heads = 2>(x, w, , m) }"),
              {RandomF({2, 3, 8}, 5), RandomF({8, 24}, 6), I32({8}, std::vector<int32_t>(8, 1))},
              "input 'mask_index' of shape [8] is none of");
}

TEST(ContribMultiHeadAttention, SeparateQkvBiasPaddingMaskPast) {
  const std::vector<int32_t> raw = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
  const auto masked = [&](int64_t b, int64_t i, int64_t j) {
    return raw[b * 5 + j] == 0 || j > 2 + i;
  };
  const std::string sig =
      "(float[2,3,8] q, float[2,3,8] k, float[2,3,8] v, float[24] bias, int32[2,5] m, "
      "float[2,2,2,4] pk, float[2,2,2,4] pv) => (float[2,3,8] y, float[2,2,5,4] prk, "
      "float[2,2,5,4] prv)";
  ExpectSameOutputs(
      Model(absl::StrCat("g ", sig,
                         " { y, prk, prv = com.microsoft.MultiHeadAttention<num_heads = 2, "
                         "unidirectional = 1>(q, k, v, bias, m, , pk, pv) }")),
      Model(absl::StrCat("g ", sig, " <", MaskInit("am", 2, 3, 5, false, masked), R"(> {
          bq, bk, bv = Split<axis = 0, num_outputs = 3>(bias) q2 = Add(q, bq) k2 = Add(k, bk) v2 = Add(v, bv)
          y, prk, prv = Attention<q_num_heads = 2, kv_num_heads = 2>(q2, k2, v2, am, pk, pv) })")),
      {RandomF({2, 3, 8}, 7), RandomF({2, 3, 8}, 8), RandomF({2, 3, 8}, 9), RandomF({24}, 10),
       I32({2, 5}, raw), RandomF({2, 2, 2, 4}, 11), RandomF({2, 2, 2, 4}, 12)});
}

TEST(ContribMultiHeadAttention, QkOutputOfUnidirectional) {
  // Keys after the query (j > P + i, past 1) come out as float's lowest, as onnxruntime 1.30's.
  auto r = RunModel(
      Model("g (float[1,2,4] q, float[1,2,4] k, float[1,2,4] v, float[1,1,1,4] pk, float[1,1,1,4] "
            "pv) => (float[1,2,4] y, float[1,1,3,4] ok, float[1,1,3,4] ov, float[1,1,2,3] qk) { "
            "y, ok, ov, qk = com.microsoft.MultiHeadAttention<num_heads = 1, unidirectional = 1>("
            "q, k, v, , , , pk, pv) }"),
      {RandomF({1, 2, 4}, 41), RandomF({1, 2, 4}, 42), RandomF({1, 2, 4}, 43),
       RandomF({1, 1, 1, 4}, 44), RandomF({1, 1, 1, 4}, 45)});
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<float> qk = (*r)[3].tensor().ToVector<float>();
  ASSERT_EQ(qk.size(), 6u);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      const float x = qk[i * 3 + j];
      if (j > 1 + i) {
        EXPECT_EQ(x, std::numeric_limits<float>::lowest()) << i << "," << j;
      } else {
        EXPECT_TRUE(std::isfinite(x) && x > -100) << i << "," << j << ": " << x;
      }
    }
  }
}

TEST(ContribMultiHeadAttention, PackedQkv) {
  // [B, S, N, 3, H] against the same values split into three [B, S, N * H] inputs.
  const std::string sig = "(float[2,3,2,3,4] qkv) => (float[2,3,8] y)";
  ExpectSameOutputs(
      Model(
          absl::StrCat("g ", sig, " { y = com.microsoft.MultiHeadAttention<num_heads = 2>(qkv) }")),
      Model(absl::StrCat("g ", sig, R"( <int64[1] ax = {3}, int64[3] shape = {2, 3, 8}> {
          a, b, c = Split<axis = 3, num_outputs = 3>(qkv) a1 = Squeeze(a, ax) b1 = Squeeze(b, ax) c1 = Squeeze(c, ax)
          q = Reshape(a1, shape) k = Reshape(b1, shape) v = Reshape(c1, shape)
          y = Attention<q_num_heads = 2, kv_num_heads = 2>(q, k, v) })")),
      {RandomF({2, 3, 2, 3, 4}, 13)});
}

TEST(ContribGroupQueryAttention, PromptWithRightPadding) {
  // B 2, S 3, 4 query heads and 2 kv heads of 4; entry 1 has 2 tokens (seqlens_k 1).
  const std::vector<int64_t> len = {3, 2};
  const auto masked = [&](int64_t b, int64_t i, int64_t j) { return j > i || j >= len[b]; };
  const std::string sig =
      "(float[2,3,16] q, float[2,3,8] k, float[2,3,8] v, int32[2] sk, int32 t) => "
      "(float[2,3,16] y, float[2,2,3,4] prk, float[2,2,3,4] prv)";
  ExpectSameOutputs(
      Model(absl::StrCat("g ", sig,
                         " { y, prk, prv = com.microsoft.GroupQueryAttention<num_heads = 4, "
                         "kv_num_heads = 2>(q, k, v, , , sk, t) }")),
      Model(absl::StrCat("g ", sig, " <", MaskInit("am", 2, 3, 3, true, masked), R"(> {
          y, prk, prv = Attention<q_num_heads = 4, kv_num_heads = 2>(q, k, v, am) })")),
      {RandomF({2, 3, 16}, 14), RandomF({2, 3, 8}, 15), RandomF({2, 3, 8}, 16), I32({2}, {2, 1}),
       Tensor::Scalar<int32_t>(DataType::kInt32, 3)});
}

TEST(ContribGroupQueryAttention, PromptWithPaddingWindowAndSoftcap) {
  // B 2, S 5, entry 1 has 2 tokens; a window of 2 keys. Without softcap the window of padding
  // query i ends at i (keys i - 1..i, those below 2 only), with softcap at the entry's last token
  // (keys 0..1), as onnxruntime 1.30 computes them.
  const std::vector<int64_t> len = {5, 2};
  for (const bool softcap : {false, true}) {
    const auto masked = [&](int64_t b, int64_t i, int64_t j) {
      const int64_t end = softcap ? std::min(i, len[b] - 1) : i;
      return j > i || j >= len[b] || j <= end - 2;
    };
    const std::string sig =
        "(float[2,5,16] q, float[2,5,8] k, float[2,5,8] v, int32[2] sk, int32 t) => "
        "(float[2,5,16] y)";
    const std::string cap = softcap ? ", softcap = 2.0" : "";
    ExpectSameOutputs(
        Model(absl::StrCat("g ", sig,
                           " { y, , = com.microsoft.GroupQueryAttention<num_heads = 4, "
                           "kv_num_heads = 2, local_window_size = 2",
                           cap, ">(q, k, v, , , sk, t) }")),
        Model(absl::StrCat("g ", sig, " <", MaskInit("am", 2, 5, 5, true, masked),
                           "> { y = Attention<q_num_heads = 4, kv_num_heads = 2", cap,
                           ">(q, k, v, am) }")),
        {RandomF({2, 5, 16}, 27), RandomF({2, 5, 8}, 28), RandomF({2, 5, 8}, 29), I32({2}, {4, 1}),
         Tensor::Scalar<int32_t>(DataType::kInt32, 5)});
  }
}

TEST(ContribGroupQueryAttention, DecodeWithPastRotaryWindowAndSoftcap) {
  // One new token after 3 cached ones (total 4), packed QKV, rotary at position 3, a window of 2
  // (the last 2 keys, 2..3, as onnxruntime 1.30 counts it), softcap 2.
  const auto masked = [&](int64_t, int64_t, int64_t j) { return j < 2; };
  const std::string sig =
      "(float[2,1,32] qkv, float[2,2,3,4] pk, float[2,2,3,4] pv, int32[2] sk, int32 t, float[8,2] "
      "c, "
      "float[8,2] s) => (float[2,1,16] y, float[2,2,4,4] prk, float[2,2,4,4] prv)";
  ExpectSameOutputs(
      Model(absl::StrCat(
          "g ", sig,
          R"( { y, prk, prv = com.microsoft.GroupQueryAttention<num_heads = 4, kv_num_heads = 2,
          do_rotary = 1, local_window_size = 2, softcap = 2.0>(qkv, , , pk, pv, sk, t, c, s) })")),
      Model(absl::StrCat("g ", sig, " <", MaskInit("am", 2, 1, 4, true, masked),
                         R"(, int64[2,1] pos = {3, 3},
          int64[3] sizes = {16, 8, 8}> {
          q0, k0, v = Split<axis = 2>(qkv, sizes)
          q = RotaryEmbedding<num_heads = 4>(q0, c, s, pos) k = RotaryEmbedding<num_heads = 2>(k0, c, s, pos)
          y, prk, prv = Attention<q_num_heads = 4, kv_num_heads = 2, softcap = 2.0>(q, k, v, am, pk, pv) })")),
      {RandomF({2, 1, 32}, 17), RandomF({2, 2, 3, 4}, 18), RandomF({2, 2, 3, 4}, 19),
       I32({2}, {3, 3}), Tensor::Scalar<int32_t>(DataType::kInt32, 4), RandomF({8, 2}, 20),
       RandomF({8, 2}, 21)});
}

TEST(ContribGroupQueryAttention, DecodeRowsOfDifferentLengths) {
  // A decode step (S 1) over a cache of 3 rows in which entry 0 holds 3 tokens (seqlens_k 3: the
  // new one goes at row 3) and entry 1 only 1 (seqlens_k 1: the new one at row 1, the cache's rows
  // 1..2 dropped, rows 2..3 of the present zeros), as onnxruntime writes them; total 4. Query 0 of
  // entry b sees keys 0..seqlens_k[b]. The expected presents are put together by hand per entry.
  const std::vector<int64_t> len = {4, 2};
  const auto masked = [&](int64_t b, int64_t i, int64_t j) { return j > len[b] - 1 + i; };
  const std::string sig =
      "(float[2,1,16] q, float[2,1,8] k, float[2,1,8] v, float[2,2,3,4] pk, float[2,2,3,4] pv, "
      "int32[2] sk, int32 t) => (float[2,1,16] y, float[2,2,4,4] prk, float[2,2,4,4] prv)";
  ExpectSameOutputs(
      Model(absl::StrCat("g ", sig,
                         " { y, prk, prv = com.microsoft.GroupQueryAttention<num_heads = 4, "
                         "kv_num_heads = 2>(q, k, v, pk, pv, sk, t) }")),
      Model(absl::StrCat("g ", sig, " <", MaskInit("am", 2, 1, 4, true, masked),
                         R"(, int64[4] hq = {0, 0, 4, 4}, int64[4] hkv = {0, 0, 2, 4},
          int64[3] flat = {0, 0, 16}, float[1,2,2,4] zeros = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
          int64[1] b0 = {0}, int64[1] b1 = {1}, int64[1] b2 = {2}, int64[1] ax0 = {0}, int64[1] ax2 = {2},
          int64[2] start0 = {0, 0}, int64[2] end0 = {1, 3}, int64[2] start1 = {1, 0}, int64[2] end1 = {2, 1},
          int64[2] axes = {0, 2}> {
          q3 = Reshape(q, hq) q4 = Transpose<perm = [0, 2, 1, 3]>(q3)
          k3 = Reshape(k, hkv) k4 = Transpose<perm = [0, 2, 1, 3]>(k3)
          v3 = Reshape(v, hkv) v4 = Transpose<perm = [0, 2, 1, 3]>(v3)
          k0 = Slice(k4, b0, b1, ax0) k1 = Slice(k4, b1, b2, ax0)
          v0 = Slice(v4, b0, b1, ax0) v1 = Slice(v4, b1, b2, ax0)
          pk0 = Slice(pk, start0, end0, axes) pk1 = Slice(pk, start1, end1, axes)
          pv0 = Slice(pv, start0, end0, axes) pv1 = Slice(pv, start1, end1, axes)
          rk0 = Concat<axis = 2>(pk0, k0) rk1 = Concat<axis = 2>(pk1, k1, zeros)
          rv0 = Concat<axis = 2>(pv0, v0) rv1 = Concat<axis = 2>(pv1, v1, zeros)
          prk = Concat<axis = 0>(rk0, rk1) prv = Concat<axis = 0>(rv0, rv1)
          y4 = Attention(q4, prk, prv, am)
          y5 = Transpose<perm = [0, 2, 1, 3]>(y4) y = Reshape(y5, flat) })")),
      {RandomF({2, 1, 16}, 22), RandomF({2, 1, 8}, 23), RandomF({2, 1, 8}, 24),
       RandomF({2, 2, 3, 4}, 25), RandomF({2, 2, 3, 4}, 26), I32({2}, {3, 1}),
       Tensor::Scalar<int32_t>(DataType::kInt32, 4)});
}

TEST(ContribGroupQueryAttention, Errors) {
  ExpectError(
      Model(
          R"(g (float[1,1,16] q, float[1,1,8] k, float[1,1,8] v, int32[1] sk, int32 t) => (float[1,1,16] y) {
                         y = com.microsoft.GroupQueryAttention<num_heads = 4, kv_num_heads = 2>(q, k, v, , , sk, t) })"),
      {RandomF({1, 1, 16}, 1), RandomF({1, 1, 8}, 2), RandomF({1, 1, 8}, 3), I32({1}, {5}),
       Tensor::Scalar<int32_t>(DataType::kInt32, 1)},
      "seqlens_k[0] = 5 does not fit");
}

}  // namespace
}  // namespace onnx_opt::interpreter::contrib
