// MatMul(A, DequantizeLinear(constant weight)) computed from the quantized bytes: the same results
// as the two nodes run apart (forced by making the float weight a graph output, which the evaluator
// never fuses), for every weight type, with and without zero points, per tensor, per column and in
// blocks along K (the last block short), odd K and N, and 1, 4 and 17 rows (17: more than the fused
// path takes, so the nodes run apart and must still be right).
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/evaluator.h"
#include "interpreter/testing/test_util.h"
#include "ir/graph.h"

namespace onnx_opt::interpreter {
namespace {

enum class Layout { kPerTensor, kPerColumn, kBlocked };

struct Case {
  DataType type;
  bool zero_points;
  Layout layout;
  int64_t M, K, N;
};

std::string Describe(const Case& c) {
  return ir::DataTypeName(c.type) + (c.zero_points ? " zp" : "") + " layout " +
         std::to_string(static_cast<int>(c.layout)) + " M" + std::to_string(c.M) + " K" +
         std::to_string(c.K) + " N" + std::to_string(c.N);
}

// A weight tensor of `type` (sub-byte types are packed when written to the IR).
ir::Tensor Quantized(DataType type, std::vector<int64_t> dims, uint32_t seed,
                     const std::string& name) {
  ir::Tensor t = testing::RandomQuantized(type, std::move(dims), seed).ToIr();
  t.set_name(name);
  return t;
}

ir::Value* FloatInit(ir::Graph& g, const std::string& name, std::vector<int64_t> dims, float lo,
                     float hi, uint32_t seed) {
  const int64_t n = dims.empty() ? 1 : dims.size() == 1 ? dims[0] : dims[0] * dims[1];
  ir::Tensor t = ir::Tensor::FromVector<float>(ir::DataType::kFloat, std::move(dims),
                                               testing::RandomFloats(n, lo, hi, seed));
  t.set_name(name);
  return g.AddInitializer(std::move(t));
}

// y = MatMul(a, DequantizeLinear(q, s[, z])); with `expose_weight` the float weight is also an
// output.
struct Model {
  ir::Graph g{"quantized_matmul"};
  Model(const Case& c, bool expose_weight) {
    const int64_t blocks = (c.K + 15) / 16;
    std::vector<int64_t> scale_dims = c.layout == Layout::kPerTensor ? std::vector<int64_t>{}
                                      : c.layout == Layout::kPerColumn
                                          ? std::vector<int64_t>{c.N}
                                          : std::vector<int64_t>{blocks, c.N};
    std::vector<ir::Value*> dq_inputs = {g.AddInitializer(Quantized(c.type, {c.K, c.N}, 1, "q")),
                                         FloatInit(g, "s", scale_dims, 0.001f, 0.05f, 2)};
    if (c.zero_points) dq_inputs.push_back(g.AddInitializer(Quantized(c.type, scale_dims, 3, "z")));
    ir::Node* dq = g.AddNode("DequantizeLinear", dq_inputs, {"w"});
    if (c.layout == Layout::kPerColumn) dq->SetAttribute(ir::Attribute::Int("axis", 1));
    if (c.layout == Layout::kBlocked) {
      dq->SetAttribute(ir::Attribute::Int("axis", 0));
      dq->SetAttribute(ir::Attribute::Int("block_size", 16));
    }
    ir::Node* mm = g.AddNode("MatMul", {g.AddInput("a"), dq->output(0)}, {"y"});
    g.AddOutput(mm->output(0));
    if (expose_weight) g.AddOutput(dq->output(0));
  }
};

struct Result {
  std::vector<float> y;
  int64_t dequantize_calls = 0;
};

Result RunModel(const Case& c, bool expose_weight) {
  Model m(c, expose_weight);
  Evaluator ev(m.g, {{"", 21}});
  std::map<std::string, Evaluator::OpProfile> profile;
  ev.EnableProfiling(&profile);
  absl::StatusOr<std::vector<RuntimeValue>> out =
      ev.Run({testing::F({c.M, c.K}, testing::RandomFloats(c.M * c.K, -1, 1, 4))});
  EXPECT_TRUE(out.ok()) << Describe(c) << ": " << out.status();
  Result r;
  if (!out.ok()) return r;
  const Tensor& y = (*out)[0].tensor();
  r.y.assign(y.data<float>(), y.data<float>() + y.size());
  r.dequantize_calls = profile["DequantizeLinear"].calls;
  return r;
}

TEST(QuantizedMatMulTest, MatchesDequantizeThenMatMul) {
  for (DataType type : {DataType::kInt8, DataType::kUint8, DataType::kInt4, DataType::kUint4}) {
    for (bool zero_points : {false, true}) {
      for (Layout layout : {Layout::kPerTensor, Layout::kPerColumn, Layout::kBlocked}) {
        for (int64_t M : {1, 4, 17}) {
          // Small and odd, and one large enough for the float path's skinny GEMM (same bits then,
          // but for packed 4-bit weights); an even N lets 4-bit weights be read packed from the IR
          // (an odd one is unpacked).
          for (auto [K, N] :
               {std::pair<int64_t, int64_t>{37, 29}, {131, 1027}, {37, 30}, {131, 1026}}) {
            const Case c{type, zero_points, layout, M, K, N};
            const Result fused = RunModel(c, false), apart = RunModel(c, true);
            ASSERT_EQ(fused.y.size(), static_cast<size_t>(M * N)) << Describe(c);
            ASSERT_EQ(apart.y.size(), fused.y.size()) << Describe(c);
            EXPECT_EQ(fused.dequantize_calls, M <= kSkinnyMaxRows ? 0 : 1) << Describe(c);
            EXPECT_EQ(apart.dequantize_calls, 1) << Describe(c);
            // Packed 4-bit weights (an even N) are summed a chunk of rows before scaling on
            // AVX-512: within float roundings then.
            const bool packed = (type == DataType::kInt4 || type == DataType::kUint4) && N % 2 == 0;
            const bool same_kernel = M > kSkinnyMaxRows || (K * N >= (int64_t{1} << 16) && !packed);
            for (size_t i = 0; i < fused.y.size(); ++i) {
              if (same_kernel) {
                ASSERT_EQ(fused.y[i], apart.y[i]) << Describe(c) << " at " << i;
              } else {
                ASSERT_NEAR(fused.y[i], apart.y[i], 1e-5 * (1 + std::abs(apart.y[i])))
                    << Describe(c) << " at " << i;
              }
            }
          }
        }
      }
    }
  }
}

// A packed 4-bit weight whose MatMul declines it (17 rows: more than the fused path takes) is
// loaded for that step only (unless the evaluator keeps weights for many runs): every run of one
// evaluator loads it again and gets the same bits.
TEST(QuantizedMatMulTest, ADeclinedPackedWeightIsLoadedForEachRun) {
  const Case c{DataType::kInt4, true, Layout::kBlocked, 17, 131, 1026};
  const Result apart = RunModel(c, true);
  for (bool keep : {false, true}) {
    Model m(c, false);
    EvaluatorOptions options;
    options.keep_weight_pages = keep;
    Evaluator ev(m.g, {{"", 21}}, options);
    std::map<std::string, Evaluator::OpProfile> profile;
    ev.EnableProfiling(&profile);
    for (int run = 0; run < 3; ++run) {
      absl::StatusOr<std::vector<RuntimeValue>> out =
          ev.Run({testing::F({c.M, c.K}, testing::RandomFloats(c.M * c.K, -1, 1, 4))});
      ASSERT_TRUE(out.ok()) << out.status();
      const Tensor& y = (*out)[0].tensor();
      ASSERT_EQ(static_cast<size_t>(y.size()), apart.y.size());
      for (size_t i = 0; i < apart.y.size(); ++i)
        ASSERT_EQ(y.data<float>()[i], apart.y[i])
            << "keep " << keep << " run " << run << " at " << i;
    }
    EXPECT_EQ(profile["DequantizeLinear"].calls, 3) << "keep " << keep;
  }
}

// A batch of rows ([2, 3, K]: 6 rows) and a rank-1 A ([K]: output [N]) take the fused path too.
TEST(QuantizedMatMulTest, BatchedAndVectorA) {
  const Case c{DataType::kInt8, true, Layout::kBlocked, 1, 64, 1031};
  for (std::vector<int64_t> dims : {std::vector<int64_t>{2, 3, 64}, std::vector<int64_t>{64}}) {
    const int64_t rows = dims.size() == 1 ? 1 : 6;
    std::vector<int64_t> want = dims;
    want.back() = c.N;
    std::vector<std::vector<float>> ys;
    for (bool expose : {false, true}) {
      Model m(c, expose);
      Evaluator ev(m.g, {{"", 21}});
      absl::StatusOr<std::vector<RuntimeValue>> out =
          ev.Run({testing::F(dims, testing::RandomFloats(rows * 64, -1, 1, 5))});
      ASSERT_TRUE(out.ok()) << out.status();
      const Tensor& y = (*out)[0].tensor();
      EXPECT_EQ(y.dims(), want);
      ys.emplace_back(y.data<float>(), y.data<float>() + y.size());
    }
    EXPECT_EQ(ys[0], ys[1]);
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter
