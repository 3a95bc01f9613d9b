#include <limits>

#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/kernels/gemm.h"
#include "interpreter/tensor_limit.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::OneNode;

TEST(LinalgTest, MatMulBatchedBroadcast) {
  OneNode g("MatMul", 2);
  // [2,1,2] x [2,1] -> [2,1,1]
  auto r = g.Run({F({2, 1, 2}, {1, 2, 3, 4}), F({2, 1}, {10, 1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 1, 1}));
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{12, 34}));
}

TEST(LinalgTest, GemmTransposeAlphaBeta) {
  OneNode g("Gemm", 3);
  g.node->SetAttribute(ir::Attribute::Int("transA", 1));
  g.node->SetAttribute(ir::Attribute::Float("alpha", 2));
  g.node->SetAttribute(ir::Attribute::Float("beta", 0.5));
  auto r = g.Run({F({2, 1}, {1, 2}), F({2, 1}, {3, 4}), F({1}, {10})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{2 * 11 + 5}));
}

// Decode-step shapes (few rows, a weight of 2^16 elements or more) take the skinny GEMM: B as K x N
// and as N x K (transB), with a bias scaled by beta, against double sums.
TEST(LinalgTest, GemmOfFewRowsAndLargeWeight) {
  const int64_t M = 3, K = 301, N = 263;
  const std::vector<float> a = testing::RandomFloats(M * K, -1, 1, 1),
                           b = testing::RandomFloats(K * N, -1, 1, 2),
                           c = testing::RandomFloats(N, -1, 1, 3);
  for (bool trans_b : {false, true}) {
    OneNode g("Gemm", 3);
    g.node->SetAttribute(ir::Attribute::Int("transB", trans_b ? 1 : 0));
    g.node->SetAttribute(ir::Attribute::Float("beta", 0.5));
    auto r =
        g.Run({F({M, K}, a),
               F(trans_b ? std::vector<int64_t>{N, K} : std::vector<int64_t>{K, N}, b), F({N}, c)});
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<float> y = (*r)[0].tensor().ToVector<float>();
    ASSERT_EQ(y.size(), static_cast<size_t>(M * N));
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        double want = 0.5 * c[j];
        for (int64_t p = 0; p < K; ++p)
          want += static_cast<double>(a[i * K + p]) * (trans_b ? b[j * K + p] : b[p * N + j]);
        ASSERT_NEAR(y[i * N + j], want, 1e-4) << "transB " << trans_b << " at " << i << "," << j;
      }
    }
  }
}

// Weights are packed for products of many rows only, on the ISAs with a packed GEMM: decode steps
// (the skinny kernel's rows) read B in place, and packing a decoder's weights for them would only
// double its memory. A packed product has the bits of Gemm, also for a column count that is not a
// whole number of AVX-512's 64-column strips.
TEST(LinalgTest, WeightsArePackedForProductsOfManyRowsOnly) {
  for (Isa isa : SupportedIsas()) {
    ASSERT_TRUE(SetActiveIsa(isa).ok());
    const bool packs = isa != Isa::kBaseline;
    EXPECT_EQ(GemmReadsPackedB(128, 768, 768), packs) << IsaName(isa);
    EXPECT_FALSE(GemmReadsPackedB(4, 4096, 4096)) << IsaName(isa);
    const int64_t M = 40, K = 200, N = 400;
    const std::vector<float> a = testing::RandomFloats(M * K, -1, 1, 1),
                             b = testing::RandomFloats(K * N, -1, 1, 2);
    const PackedGemmB packed = PackGemmB(K, N, b.data());
    EXPECT_EQ(packed.data != nullptr, packs) << IsaName(isa);
    std::vector<float> got(M * N), want(M * N);
    EXPECT_EQ(GemmPackedB(M, a.data(), packed, got.data()), packs) << IsaName(isa);
    if (!packs) continue;
    SetNumThreads(2);  // column tiles (of 64 columns on AVX-512: 400 is 6 strips and a part)
    Gemm<float>(false, false, M, N, K, 1.0f, a.data(), b.data(), 0.0f, want.data());
    EXPECT_EQ(got, want) << IsaName(isa);
    SetNumThreads(1);
  }
  ASSERT_TRUE(SetActiveIsa(DetectedIsa()).ok());
}

// A product of few columns and a long K, which the GEMM cuts into column tiles so that threads
// share it (gemm.cc, ChooseTiling): the same bits on 1 and 3 threads, and right against double sums
// on a sample of elements.
TEST(LinalgTest, MatMulOfFewColumnsAndLongKIsSharedByThreads) {
  const int64_t M = 96, K = 2304, N = 196;
  const std::vector<float> a = testing::RandomFloats(M * K, -1, 1, 1),
                           b = testing::RandomFloats(K * N, -1, 1, 2);
  std::vector<float> first;
  for (int threads : {1, 3}) {
    SetNumThreads(threads);
    OneNode g("MatMul", 2);
    auto r = g.Run({F({M, K}, a), F({K, N}, b)});
    SetNumThreads(1);
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<float> y = (*r)[0].tensor().ToVector<float>();
    if (threads == 1) {
      first = y;
      for (int64_t i = 0; i < M; i += 7) {
        for (int64_t j = 0; j < N; j += 5) {
          double want = 0;
          for (int64_t p = 0; p < K; ++p) want += static_cast<double>(a[i * K + p]) * b[p * N + j];
          ASSERT_NEAR(y[i * N + j], want, 1e-3) << i << "," << j;
        }
      }
    } else {
      EXPECT_EQ(y, first) << "threads " << threads;
    }
  }
}

TEST(ConvPoolTest, Conv2DPaddedAndStrided) {
  OneNode g("Conv", 2);
  g.node->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
  g.node->SetAttribute(ir::Attribute::Ints("strides", {2, 2}));
  std::vector<float> x(9);
  for (int i = 0; i < 9; ++i) x[i] = i;
  auto r = g.Run({F({1, 1, 3, 3}, x), F({1, 1, 3, 3}, std::vector<float>(9, 1))});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 1, 2, 2}));
  // Windows centred on (0,0), (0,2), (2,0), (2,2).
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{8, 12, 20, 24}));
}

// Convolutions through the GEMM on their column matrix: filled from the input as the product goes
// where the vector kernels can (16 channels a group or more: gemm.cc, ConvGemm, cut into strips
// and, on several threads, row tiles), else stored a panel of output positions at a time
// (conv_pool.cc, PanelColumns: panels of 256-384 positions end inside output rows) or whole.
// Asymmetric pads, strides 1 to 3, dilations, groups, a bias and two images, against a direct loop
// in double; and the same bits on 1 and 3 threads.
TEST(ConvPoolTest, LargePlanesInPanelsMatchADirectLoop) {
  struct Geometry {
    int64_t n, c, h, w, m, group;
    std::vector<int64_t> pads, strides, dilations;
  };
  const std::vector<Geometry> cases = {
      {1, 64, 24, 24, 8, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}},
      {1, 64, 40, 30, 5, 1, {0, 2, 1, 0}, {2, 1}, {1, 2}},
      {2, 128, 20, 20, 6, 2, {1, 1, 1, 1}, {1, 1}, {1, 1}},
      // Output rows as wide as the input's at stride 1 (Im2Col2dRange's flat copies): a plane
      // small enough for one column matrix, and asymmetric pads with a row dilation in panels.
      {1, 64, 14, 14, 8, 1, {1, 1, 1, 1}, {1, 1}, {1, 1}},
      {1, 64, 24, 24, 8, 1, {2, 2, 0, 0}, {1, 1}, {2, 1}},
      {1, 16, 9, 7, 4, 1, {0, 0, 3, 2}, {1, 1}, {2, 1}},
      // Strided: runs of every other column (2), gathers (3); a 7x7 output of one strip.
      {1, 32, 30, 30, 12, 1, {1, 1, 1, 1}, {2, 2}, {1, 1}},
      {1, 16, 20, 23, 6, 1, {0, 1, 2, 1}, {3, 2}, {1, 1}},
      {2, 48, 15, 15, 40, 1, {1, 1, 1, 1}, {2, 2}, {1, 1}},
      // Fewer channels a group than the implicit GEMM takes: the stored matrix.
      {1, 24, 12, 12, 6, 2, {1, 1, 1, 1}, {1, 1}, {1, 1}},
  };
  for (const Geometry& c : cases) {
    const int64_t cg = c.c / c.group, mg = c.m / c.group;
    const int64_t oh = (c.h + c.pads[0] + c.pads[2] - c.dilations[0] * 2 - 1) / c.strides[0] + 1;
    const int64_t ow = (c.w + c.pads[1] + c.pads[3] - c.dilations[1] * 2 - 1) / c.strides[1] + 1;
    const std::vector<float> x = testing::RandomFloats(c.n * c.c * c.h * c.w, -1, 1, 1),
                             w = testing::RandomFloats(c.m * cg * 9, -1, 1, 2),
                             b = testing::RandomFloats(c.m, -1, 1, 3);
    std::vector<float> first;
    for (int threads : {1, 3}) {
      SetNumThreads(threads);
      OneNode g("Conv", 3);
      g.node->SetAttribute(ir::Attribute::Ints("pads", c.pads));
      g.node->SetAttribute(ir::Attribute::Ints("strides", c.strides));
      g.node->SetAttribute(ir::Attribute::Ints("dilations", c.dilations));
      g.node->SetAttribute(ir::Attribute::Int("group", c.group));
      auto r = g.Run({F({c.n, c.c, c.h, c.w}, x), F({c.m, cg, 3, 3}, w), F({c.m}, b)});
      SetNumThreads(1);
      ASSERT_TRUE(r.ok()) << r.status();
      ASSERT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{c.n, c.m, oh, ow}));
      const std::vector<float> y = (*r)[0].tensor().ToVector<float>();
      if (threads > 1) {
        EXPECT_EQ(y, first) << "threads " << threads;
        continue;
      }
      first = y;
      for (int64_t n = 0; n < c.n; ++n) {
        for (int64_t m = 0; m < c.m; ++m) {
          for (int64_t i = 0; i < oh; ++i) {
            for (int64_t j = 0; j < ow; ++j) {
              double want = b[m];
              for (int64_t ci = 0; ci < cg; ++ci) {
                for (int64_t ki = 0; ki < 3; ++ki) {
                  for (int64_t kj = 0; kj < 3; ++kj) {
                    const int64_t ih = i * c.strides[0] - c.pads[0] + ki * c.dilations[0];
                    const int64_t iw = j * c.strides[1] - c.pads[1] + kj * c.dilations[1];
                    if (ih < 0 || ih >= c.h || iw < 0 || iw >= c.w) continue;
                    const int64_t channel = m / mg * cg + ci;
                    want += static_cast<double>(x[((n * c.c + channel) * c.h + ih) * c.w + iw]) *
                            w[((m * cg + ci) * 3 + ki) * 3 + kj];
                  }
                }
              }
              ASSERT_NEAR(y[((n * c.m + m) * oh + i) * ow + j], want, 1e-4)
                  << "image " << n << " channel " << m << " at " << i << "," << j;
            }
          }
        }
      }
    }
  }
}

TEST(ConvPoolTest, MaxPoolCeilModeAndAveragePoolPads) {
  OneNode m("MaxPool", 1);
  m.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {2}));
  m.node->SetAttribute(ir::Attribute::Ints("strides", {2}));
  m.node->SetAttribute(ir::Attribute::Int("ceil_mode", 1));
  auto r = m.Run({F({1, 1, 5}, {1, 5, 2, 4, 3})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{5, 4, 3}));
  OneNode a("AveragePool", 1);
  a.node->SetAttribute(ir::Attribute::Ints("kernel_shape", {2}));
  a.node->SetAttribute(ir::Attribute::Ints("pads", {1, 0}));
  r = a.Run({F({1, 1, 2}, {2, 4})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{2, 3}));  // pads not counted
}

TEST(NormalizationTest, LayerNormalizationLastAxis) {
  OneNode g("LayerNormalization", 2);
  auto r = g.Run({F({1, 2}, {1, 3}), F({2}, {1, 1})}, 17);
  ASSERT_TRUE(r.ok()) << r.status();
  auto v = (*r)[0].tensor().ToVector<float>();
  EXPECT_NEAR(v[0], -1, 1e-4);
  EXPECT_NEAR(v[1], 1, 1e-4);
}

// Integer GEMMs wrap (signed overflow was undefined); an alpha past int32 saturates instead of an
// undefined conversion.
TEST(LinalgTest, IntegerProductsWrap) {
  OneNode mm("MatMul", 2);
  auto r = mm.Run({testing::I64({1, 2}, {int64_t{1} << 62, 3}), testing::I64({2, 1}, {4, 5})}, 13);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>(), (std::vector<int64_t>{15}));
  OneNode gemm("Gemm", 2);
  gemm.node->SetAttribute(ir::Attribute::Float("alpha", 1e30f));
  auto g = gemm.Run({Tensor::FromVector<int32_t>(ir::DataType::kInt32, {1, 1}, {1}),
                     Tensor::FromVector<int32_t>(ir::DataType::kInt32, {1, 1}, {1})},
                    13);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)[0].tensor().ToVector<int32_t>(),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::max()}));
}

// Det of 0 x 0 matrices is 1 (numpy's); an empty batch of huge matrices ([0, 2^32, 2^32])
// overflowed n * n and allocated it.
TEST(LinalgTest, DetOfEmptyInputs) {
  OneNode g("Det", 1);
  auto r = g.Run({F({2, 0, 0}, {})}, 11);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{1, 1}));
  OneNode h("Det", 1);
  auto e = h.Run({Tensor(ir::DataType::kFloat, {0, int64_t{1} << 32, int64_t{1} << 32})}, 11);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ((*e)[0].tensor().dims(), (std::vector<int64_t>{0}));
}

Tensor Iota(std::vector<int64_t> dims) {
  std::vector<float> v(NumElements(dims));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i + 1);
  return F(std::move(dims), v);
}

absl::StatusOr<std::vector<RuntimeValue>> Einsum(const std::string& eq,
                                                 std::vector<RuntimeValue> ins) {
  OneNode g("Einsum", ins.size());
  g.node->SetAttribute(ir::Attribute::String("equation", eq));
  return g.Run(std::move(ins), 12);
}

// An output letter of no input had size 0 (an empty result), a repeated one was accepted; the
// ellipsis dims were named 'A', 'B', ... (colliding with those letters) and aligned by the inputs
// seen so far rather than all of them.
TEST(LinalgTest, EinsumSubscriptsAreChecked) {
  auto missing = Einsum("ij->ik", {Iota({2, 3})});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("'k' appears in no input"), std::string::npos)
      << missing.status();
  auto twice = Einsum("ij->ii", {Iota({2, 2})});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("more than once"), std::string::npos) << twice.status();
  EXPECT_FALSE(Einsum("i.j->i", {Iota({2, 2})}).ok());
  // x [2, 3] times y [4, 3]^T with the ellipsis beside a letter 'A'.
  auto upper = Einsum("...j,Aj->...A", {Iota({2, 3}), Iota({4, 3})});
  ASSERT_TRUE(upper.ok()) << upper.status();
  EXPECT_EQ((*upper)[0].tensor().dims(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ((*upper)[0].tensor().ToVector<float>(),
            (std::vector<float>{14, 32, 50, 68, 32, 77, 122, 167}));
  // Ellipses of 1 and 2 dims broadcast right-aligned: [2, 3] (.) [2, 2, 3].
  auto aligned = Einsum("...i,...i->...i", {Iota({2, 3}), Iota({2, 2, 3})});
  ASSERT_TRUE(aligned.ok()) << aligned.status();
  EXPECT_EQ((*aligned)[0].tensor().dims(), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ((*aligned)[0].tensor().ToVector<float>()[7],
            2.0f * 8.0f);  // [1, 0, 1]: x[0, 1] * y[1, 0, 1]
}

// Many letters multiply into more steps than any tensor has elements: refused, not run for hours.
TEST(LinalgTest, EinsumWorkIsCapped) {
  std::vector<RuntimeValue> ins;
  for (int k = 0; k < 4; ++k) ins.push_back(Iota({8, 8}));
  const uint64_t saved = MaxTensorBytes();
  SetMaxTensorBytes(4096);
  auto r = Einsum("ab,cd,ef,gh->", ins);
  SetMaxTensorBytes(saved);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted) << r.status();
  auto small = Einsum("ab,cd->", {Iota({2, 2}), Iota({2, 2})});
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_EQ((*small)[0].tensor().ToVector<float>(), (std::vector<float>{100}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
