// The kernels that route float tensors to the vector kernels (cpu/) against their own generic path:
// each case runs once on float inputs (vector path, on every ISA this CPU has) and once on the same
// values as double (the generic loops), and the results must agree to float precision.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::OneNode;

struct Input {
  std::vector<int64_t> dims;
  float lo = -2, hi = 2;
};

struct Case {
  std::string name;
  std::string op;
  std::vector<Input> inputs;
  std::function<void(ir::Node&)> attrs = [](ir::Node&) {};
  int64_t opset = 21;
  double rtol = 1e-5, atol = 1e-6;
  size_t outputs = 1;
};

std::vector<Case> Cases() {
  auto ints = [](std::string name, std::vector<int64_t> v) {
    return [name, v](ir::Node& n) { n.SetAttribute(ir::Attribute::Ints(name, v)); };
  };
  std::vector<Case> cases;
  // Binary arithmetic over the broadcast forms the coalescing has to get right.
  for (std::string op : {"Add", "Sub", "Mul", "Div"}) {
    const float lo = op == "Div" ? 0.5f : -2;
    cases.push_back({op + "_same", op, {{{2, 3, 17}}, {{2, 3, 17}, lo, 2}}});
    cases.push_back({op + "_scalar_right", op, {{{4, 33}}, {{}, lo, 2}}});
    cases.push_back({op + "_scalar_left", op, {{{1}}, {{4, 33}, lo, 2}}});
    cases.push_back({op + "_channel", op, {{{2, 8, 5, 7}}, {{8, 1, 1}, lo, 2}}});
    cases.push_back({op + "_trailing", op, {{{3, 4, 768}}, {{768}, lo, 2}}});
    cases.push_back({op + "_outer", op, {{{5, 1}}, {{5, 9}, lo, 2}}});
    cases.push_back({op + "_both_broadcast", op, {{{3, 1, 5}}, {{1, 4, 1}, lo, 2}}});
    cases.push_back({op + "_middle", op, {{{2, 3, 4, 5}}, {{3, 1, 5}, lo, 2}}});
  }
  // Activations.
  for (std::string op : {"Relu", "Sigmoid", "Tanh", "Exp", "Erf", "Neg", "Abs", "HardSwish"}) {
    cases.push_back({op, op, {{{3, 101}, -9, 9}}});
  }
  cases.push_back({"Sqrt", "Sqrt", {{{3, 101}, 0, 9}}});
  cases.push_back({"Reciprocal", "Reciprocal", {{{3, 101}, 0.1f, 9}}});
  cases.push_back({"LeakyRelu", "LeakyRelu", {{{3, 101}, -9, 9}}, [](ir::Node& n) {
                     n.SetAttribute(ir::Attribute::Float("alpha", 0.2f));
                   }});
  cases.push_back({"HardSigmoid", "HardSigmoid", {{{3, 101}, -9, 9}}, [](ir::Node& n) {
                     n.SetAttribute(ir::Attribute::Float("alpha", 0.3f));
                     n.SetAttribute(ir::Attribute::Float("beta", 0.4f));
                   }});
  cases.push_back({"Clip_attributes",
                   "Clip",
                   {{{3, 101}, -9, 9}},
                   [](ir::Node& n) {
                     n.SetAttribute(ir::Attribute::Float("min", -1));
                     n.SetAttribute(ir::Attribute::Float("max", 6));
                   },
                   6});
  cases.push_back({"Clip_inputs", "Clip", {{{3, 101}, -9, 9}, {{}, -1, -1}, {{}, 6, 6}}});
  // Softmax family along the last axis, and before opset 13 (rows are the flattened trailing dims).
  cases.push_back({"Softmax", "Softmax", {{{4, 3, 129}, -20, 20}}});
  cases.push_back({"LogSoftmax", "LogSoftmax", {{{4, 3, 129}, -20, 20}}});
  cases.push_back({"Softmax_legacy",
                   "Softmax",
                   {{{4, 3, 9}, -20, 20}},
                   [](ir::Node& n) { n.SetAttribute(ir::Attribute::Int("axis", 1)); },
                   11});
  // Reductions over trailing axes (the vector row sums) and one that is not trailing (generic), and
  // Pow by 2 (x * x), as exported LayerNorms are written before opset 17.
  cases.push_back({"ReduceMean_last", "ReduceMean", {{{4, 3, 100}}}, ints("axes", {-1}), 13});
  cases.push_back({"ReduceSum_last_two",
                   "ReduceSum",
                   {{{4, 3, 100}}},
                   [&](ir::Node& n) {
                     ints("axes", {1, 2})(n);
                     n.SetAttribute(ir::Attribute::Int("keepdims", 0));
                   },
                   11});
  cases.push_back({"ReduceMean_middle", "ReduceMean", {{{4, 3, 10}}}, ints("axes", {1}), 13});
  cases.push_back({"Pow_2", "Pow", {{{3, 101}, -9, 9}, {{}, 2, 2}}});
  cases.push_back({"Pow_3", "Pow", {{{3, 101}, -3, 3}, {{}, 3, 3}}});
  // Normalization.
  cases.push_back({"LayerNorm",
                   "LayerNormalization",
                   {{{2, 5, 96}}, {{96}}, {{96}}},
                   [](ir::Node&) {},
                   17,
                   1e-5,
                   1e-5,
                   3});
  cases.push_back({"LayerNorm_axis",
                   "LayerNormalization",
                   {{{2, 5, 6, 8}}, {{6, 8}}},
                   [](ir::Node& n) { n.SetAttribute(ir::Attribute::Int("axis", 2)); },
                   17,
                   1e-5,
                   1e-5});
  cases.push_back({"BatchNorm",
                   "BatchNormalization",
                   {{{2, 6, 5, 7}}, {{6}}, {{6}}, {{6}}, {{6}, 0.5f, 2}},
                   [](ir::Node&) {},
                   15,
                   1e-5,
                   1e-5});
  cases.push_back({"BatchNorm_2d",
                   "BatchNormalization",
                   {{{3, 6}}, {{6}}, {{6}}, {{6}}, {{6}, 0.5f, 2}},
                   [](ir::Node&) {},
                   9,
                   1e-5,
                   1e-5});
  // Convolution: depthwise (with stride, padding, dilation), pointwise and grouped.
  cases.push_back({"Conv_depthwise",
                   "Conv",
                   {{{2, 6, 11, 13}}, {{6, 1, 3, 3}}, {{6}}},
                   [&](ir::Node& n) {
                     ints("pads", {1, 1, 1, 1})(n);
                     n.SetAttribute(ir::Attribute::Int("group", 6));
                   },
                   17,
                   1e-5,
                   1e-5});
  cases.push_back({"Conv_depthwise_strided",
                   "Conv",
                   {{{1, 4, 12, 9}}, {{4, 1, 5, 3}}},
                   [&](ir::Node& n) {
                     ints("pads", {2, 0, 1, 2})(n);
                     ints("strides", {2, 3})(n);
                     ints("dilations", {1, 2})(n);
                     n.SetAttribute(ir::Attribute::Int("group", 4));
                   },
                   17,
                   1e-5,
                   1e-5});
  cases.push_back({"Conv_pointwise",
                   "Conv",
                   {{{2, 16, 7, 5}}, {{8, 16, 1, 1}}, {{8}}},
                   [](ir::Node&) {},
                   17,
                   1e-5,
                   1e-5});
  cases.push_back({"Conv_grouped_3x3",
                   "Conv",
                   {{{1, 8, 9, 9}}, {{6, 4, 3, 3}}, {{6}}},
                   [&](ir::Node& n) {
                     ints("pads", {1, 1, 1, 1})(n);
                     n.SetAttribute(ir::Attribute::Int("group", 2));
                   },
                   17,
                   1e-5,
                   1e-5});
  // 3x3 at stride 1 with 32 channels or more: Winograd's F(2x2, 3x3), other sums than the direct
  // convolution's (their rounding scales with the 4x4 input tiles: atol), over a batch of two,
  // uneven pads and odd planes (tiles cut by the edges).
  cases.push_back({"Conv_winograd_3x3",
                   "Conv",
                   {{{2, 40, 13, 11}}, {{36, 40, 3, 3}}, {{36}}},
                   [&](ir::Node& n) {
                     ints("pads", {1, 0, 2, 1})(n);
                   },
                   17,
                   1e-5,
                   1e-4});
  // Pooling (2-D, with ceil_mode and count_include_pad).
  // Plane sums in vectors of doubles (row_sums_f32), planes of 63 elements and of one.
  cases.push_back({"GlobalAveragePool", "GlobalAveragePool", {{{2, 5, 7, 9}}}});
  cases.push_back({"GlobalAveragePool_small", "GlobalAveragePool", {{{3, 4, 1, 1}}}});
  cases.push_back({"MaxPool", "MaxPool", {{{2, 3, 11, 10}}}, [&](ir::Node& n) {
                     ints("kernel_shape", {3, 3})(n);
                     ints("strides", {2, 2})(n);
                     ints("pads", {1, 1, 1, 1})(n);
                   }});
  cases.push_back({"MaxPool_ceil_dilated", "MaxPool", {{{1, 2, 10, 11}}}, [&](ir::Node& n) {
                     ints("kernel_shape", {2, 3})(n);
                     ints("strides", {3, 2})(n);
                     ints("dilations", {2, 1})(n);
                     n.SetAttribute(ir::Attribute::Int("ceil_mode", 1));
                   }});
  cases.push_back({"AveragePool", "AveragePool", {{{2, 3, 11, 10}}}, [&](ir::Node& n) {
                     ints("kernel_shape", {3, 3})(n);
                     ints("strides", {2, 2})(n);
                     ints("pads", {1, 0, 1, 2})(n);
                   }});
  cases.push_back(
      {"AveragePool_count_pad_ceil", "AveragePool", {{{2, 3, 11, 10}}}, [&](ir::Node& n) {
         ints("kernel_shape", {3, 2})(n);
         ints("strides", {2, 2})(n);
         ints("pads", {1, 1, 1, 1})(n);
         n.SetAttribute(ir::Attribute::Int("count_include_pad", 1));
         n.SetAttribute(ir::Attribute::Int("ceil_mode", 1));
       }});
  // Windows wider than the input, mostly padding (only the cells inside the input are visited).
  cases.push_back(
      {"MaxPool_window_wider_than_input", "MaxPool", {{{1, 2, 3, 5}}}, [&](ir::Node& n) {
         ints("kernel_shape", {5, 9})(n);
         ints("dilations", {1, 2})(n);
         ints("pads", {3, 8, 2, 9})(n);
         ints("strides", {1, 3})(n);
       }});
  cases.push_back(
      {"AveragePool_window_wider_than_input", "AveragePool", {{{1, 2, 3, 5}}}, [&](ir::Node& n) {
         ints("kernel_shape", {5, 9})(n);
         ints("pads", {3, 8, 2, 9})(n);
         ints("strides", {2, 3})(n);
         n.SetAttribute(ir::Attribute::Int("count_include_pad", 1));
       }});
  return cases;
}

absl::StatusOr<std::vector<RuntimeValue>> RunCase(const Case& c, ir::DataType type) {
  OneNode g(c.op, c.inputs.size(), c.outputs);
  c.attrs(*g.node);
  std::vector<RuntimeValue> inputs;
  uint32_t seed = 1;
  for (const Input& in : c.inputs) {
    const std::vector<float> v = testing::RandomFloats(NumElements(in.dims), in.lo, in.hi, seed++);
    if (type == ir::DataType::kFloat) {
      inputs.push_back(RuntimeValue(Tensor::FromVector<float>(type, in.dims, v)));
    } else {
      inputs.push_back(RuntimeValue(
          Tensor::FromVector<double>(type, in.dims, std::vector<double>(v.begin(), v.end()))));
    }
  }
  return g.Run(std::move(inputs), c.opset);
}

using VectorPathsTest = testing::PerIsaTest;

TEST_P(VectorPathsTest, FloatMatchesTheGenericDoublePath) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    auto f = RunCase(c, ir::DataType::kFloat);
    auto d = RunCase(c, ir::DataType::kDouble);
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE(d.ok()) << d.status();
    testing::ExpectFloatMatchesDouble(*f, *d, c.rtol, c.atol);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, VectorPathsTest, ::testing::ValuesIn(SupportedIsas()),
                         testing::IsaTestName);

}  // namespace
}  // namespace onnx_opt::interpreter
