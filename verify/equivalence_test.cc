// The comparison rules (floats within atol + rtol * |expected|, NaN equal to NaN, everything else
// exact, shapes and counts must agree), random inputs from declared shapes, and whole-model checks.
#include "verify/equivalence.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/tensor.h"
#include "interpreter/value.h"
#include "ir/text/parser.h"

namespace onnx_opt::verify {
namespace {

using interpreter::RuntimeValue;
using interpreter::Tensor;

std::unique_ptr<ir::Model> Parse(const std::string& text) {
  auto m = ir::text::ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status() << "\n" << text;
  return m.ok() ? *std::move(m) : nullptr;
}

RuntimeValue Floats(std::vector<float> v) {
  return RuntimeValue(Tensor::FromVector<float>(ir::DataType::kFloat, {static_cast<int64_t>(v.size())}, v));
}

OutputDifference CompareOne(const RuntimeValue& expected, const RuntimeValue& actual) {
  std::vector<OutputDifference> diffs = CompareOutputs({"y"}, {expected}, {actual}, EquivalenceOptions{});
  EXPECT_EQ(diffs.size(), 1u);
  return diffs.empty() ? OutputDifference{} : diffs[0];
}

TEST(CompareOutputs, FloatsWithinTheToleranceAreEqualAndNanMatchesNan) {
  // float32 default: rtol 1e-4, atol 1e-5.
  OutputDifference d = CompareOne(Floats({1.0f, 100.0f, NAN}), Floats({1.000005f, 100.005f, NAN}));
  EXPECT_TRUE(d.equal) << d.detail;
  EXPECT_GT(d.max_abs_error, 0);
}

TEST(CompareOutputs, AFloatOutsideTheToleranceNamesTheWorstElement) {
  OutputDifference d = CompareOne(Floats({1.0f, 2.0f, 3.0f}), Floats({1.0f, 2.1f, 3.001f}));
  EXPECT_FALSE(d.equal);
  EXPECT_EQ(d.output, "y");
  EXPECT_NE(d.detail.find("element 1 is"), std::string::npos) << d.detail;
}

TEST(CompareOutputs, ANearZeroElementIsJudgedAtTheTensorsScale) {
  // Output of scale ~1 (rms 1.6): 2e-5 off on an element near 0 is rounding at that scale, not a change.
  OutputDifference d = CompareOne(Floats({-0.0006f, 2.0f, -2.0f}), Floats({-0.00062f, 2.00002f, -1.99999f}));
  EXPECT_TRUE(d.equal) << d.detail;
  EXPECT_GT(d.max_rel_error, 1e-2);
  // A change at the tensor's scale on that element is still one.
  d = CompareOne(Floats({-0.0006f, 2.0f, -2.0f}), Floats({-0.0009f, 2.0f, -2.0f}));
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("element 0 is"), std::string::npos) << d.detail;
  // Infinities and NaNs do not make the scale infinite.
  d = CompareOne(Floats({INFINITY, 1e-3f, NAN}), Floats({INFINITY, 2e-3f, NAN}));
  EXPECT_FALSE(d.equal);
}

TEST(CompareOutputs, IntegersAreExactAndShapesMustAgree) {
  const RuntimeValue a = Tensor::FromVector<int64_t>(ir::DataType::kInt64, {2}, {1, 2});
  EXPECT_TRUE(CompareOne(a, a).equal);
  EXPECT_FALSE(CompareOne(a, Tensor::FromVector<int64_t>(ir::DataType::kInt64, {2}, {1, 3})).equal);
  OutputDifference d = CompareOne(a, Tensor::FromVector<int64_t>(ir::DataType::kInt64, {1, 2}, {1, 2}));
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("shape"), std::string::npos) << d.detail;
}

TEST(CompareOutputs, MissingAndExtraOutputsDiffer) {
  std::vector<OutputDifference> missing = CompareOutputs({"y"}, {Floats({1})}, {}, EquivalenceOptions{});
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_FALSE(missing[0].equal);
  std::vector<OutputDifference> extra =
      CompareOutputs({"y"}, {Floats({1})}, {Floats({1}), Floats({2})}, EquivalenceOptions{});
  ASSERT_EQ(extra.size(), 2u);
  EXPECT_TRUE(extra[0].equal);
  EXPECT_FALSE(extra[1].equal);
}

constexpr char kDouble[] = R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 3] x) => (float[N, 3] y) {
  y = Add(x, x)
})";

TEST(MakeRandomInputs, SeededAndShapedByTheBoundDims) {
  std::unique_ptr<ir::Model> m = Parse(kDouble);
  ASSERT_NE(m, nullptr);
  EquivalenceOptions options;
  options.dims["N"] = 4;
  absl::StatusOr<std::vector<RuntimeValue>> a = MakeRandomInputs(*m, options);
  absl::StatusOr<std::vector<RuntimeValue>> b = MakeRandomInputs(*m, options);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(a->size(), 1u);
  EXPECT_EQ((*a)[0].tensor().dims(), (std::vector<int64_t>{4, 3}));
  EXPECT_TRUE(CompareOutputs({"x"}, *a, *b, options)[0].equal);
}

TEST(MakeRandomInputs, AnInputWithoutAShapeAsksForOne) {
  std::unique_ptr<ir::Model> m = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[] x) => (float[] y) {
  y = Identity(x)
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<std::vector<RuntimeValue>> inputs = MakeRandomInputs(*m, EquivalenceOptions{});
  EXPECT_TRUE(absl::IsInvalidArgument(inputs.status())) << inputs.status();
  EXPECT_NE(inputs.status().message().find("--shape x="), std::string::npos) << inputs.status();
}

TEST(CheckEquivalent, SameComputationPassesAndADifferentOneNamesTheOutput) {
  std::unique_ptr<ir::Model> twice = Parse(kDouble);
  std::unique_ptr<ir::Model> scaled = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 3] x) => (float[N, 3] y) {
  two = Constant<value = float {2.0}>()
  y = Mul(x, two)
})");
  std::unique_ptr<ir::Model> squared = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 3] x) => (float[N, 3] y) {
  y = Mul(x, x)
})");
  ASSERT_NE(twice, nullptr);
  ASSERT_NE(scaled, nullptr);
  ASSERT_NE(squared, nullptr);
  std::vector<OutputDifference> report;
  EXPECT_TRUE(CheckEquivalent(*twice, *scaled, EquivalenceOptions{}, &report).ok());
  ASSERT_EQ(report.size(), 1u);
  EXPECT_TRUE(report[0].equal);
  absl::Status s = CheckEquivalent(*twice, *squared, EquivalenceOptions{}, &report);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_NE(s.message().find("output 'y' differs"), std::string::npos) << s;
}

}  // namespace
}  // namespace onnx_opt::verify
