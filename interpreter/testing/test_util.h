// Helpers for kernel unit tests: build a one-node graph, run it, read results.
#ifndef ONNX_OPT_INTERPRETER_TESTING_TEST_UTIL_H_
#define ONNX_OPT_INTERPRETER_TESTING_TEST_UTIL_H_

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/evaluator.h"
#include "ir/graph.h"

namespace onnx_opt::interpreter::testing {

// A graph with one node `op` (domain ""), inputs named in0..inN-1, `num_outputs` outputs.
struct OneNode {
  std::unique_ptr<ir::Graph> graph = std::make_unique<ir::Graph>("test");
  ir::Node* node = nullptr;

  OneNode(const std::string& op, size_t num_inputs, size_t num_outputs = 1) {
    std::vector<ir::Value*> ins;
    for (size_t i = 0; i < num_inputs; ++i)
      ins.push_back(graph->AddInput("in" + std::to_string(i)));
    std::vector<std::string> outs;
    for (size_t i = 0; i < num_outputs; ++i) outs.push_back("out" + std::to_string(i));
    node = graph->AddNode(op, ins, outs);
    for (size_t i = 0; i < num_outputs; ++i) graph->AddOutput(node->output(i));
  }
  absl::StatusOr<std::vector<RuntimeValue>> Run(std::vector<RuntimeValue> inputs,
                                                int64_t opset = 21) {
    Evaluator ev(*graph, {{"", opset}});
    return ev.Run(std::move(inputs));
  }
};

inline Tensor F(std::vector<int64_t> dims, std::vector<float> v) {
  return Tensor::FromVector<float>(ir::DataType::kFloat, std::move(dims), v);
}
inline Tensor I64(std::vector<int64_t> dims, std::vector<int64_t> v) {
  return Tensor::FromVector<int64_t>(ir::DataType::kInt64, std::move(dims), v);
}

// n floats uniform in [lo, hi), the same for the same seed.
inline std::vector<float> RandomFloats(int64_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

// A tensor of `type` (int8, uint8, int4 or uint4; a byte per element, as the interpreter holds
// them) with values spread over the type's whole range, the same for the same seed.
inline Tensor RandomQuantized(ir::DataType type, std::vector<int64_t> dims, uint32_t seed) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  const bool is_signed = type == ir::DataType::kInt8 || type == ir::DataType::kInt4;
  const bool four_bits = type == ir::DataType::kInt4 || type == ir::DataType::kUint4;
  const float lo = is_signed ? (four_bits ? -8 : -128) : 0,
              hi = four_bits ? (is_signed ? 7.99f : 15.99f) : (is_signed ? 127.99f : 255.99f);
  const std::vector<float> r = RandomFloats(n, lo, hi, seed);
  std::vector<int8_t> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<int8_t>(static_cast<int>(std::floor(r[i])));
  return Tensor::FromVector<int8_t>(type, std::move(dims), v);
}

// A test run once per ISA this CPU supports, with the vector kernels of that ISA:
//   INSTANTIATE_TEST_SUITE_P(EveryIsa, MyTest, ::testing::ValuesIn(SupportedIsas()), IsaTestName);
class PerIsaTest : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override { ASSERT_TRUE(SetActiveIsa(GetParam()).ok()); }
  void TearDown() override { ASSERT_TRUE(SetActiveIsa(DetectedIsa()).ok()); }
};
inline std::string IsaTestName(const ::testing::TestParamInfo<Isa>& info) {
  return std::string(IsaName(info.param));
}

// The outputs of a run on float inputs against a run of the same values as double (the generic
// loops): same count and dims, float results, each element within atol + rtol * |want|. Outputs the
// double run also gives as float (statistics with a stash type) compare as they are.
inline void ExpectFloatMatchesDouble(const std::vector<RuntimeValue>& f,
                                     const std::vector<RuntimeValue>& d, double rtol, double atol) {
  ASSERT_EQ(f.size(), d.size());
  for (size_t k = 0; k < f.size(); ++k) {
    const Tensor& got = f[k].tensor();
    const Tensor& want = d[k].tensor();
    ASSERT_EQ(got.dtype(), ir::DataType::kFloat) << "output " << k;
    ASSERT_EQ(got.dims(), want.dims()) << "output " << k;
    for (int64_t i = 0; i < got.size(); ++i) {
      const double g = got.data<float>()[i];
      const double w =
          want.dtype() == ir::DataType::kDouble ? want.data<double>()[i] : want.data<float>()[i];
      ASSERT_LE(std::abs(g - w), atol + rtol * std::abs(w)) << "output " << k << " element " << i;
    }
  }
}

}  // namespace onnx_opt::interpreter::testing

#endif  // ONNX_OPT_INTERPRETER_TESTING_TEST_UTIL_H_
