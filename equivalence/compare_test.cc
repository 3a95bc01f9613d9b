// The one comparator's rules: floats within atol + rtol * max(|expected|, scale), NaN only for NaN,
// an infinity only for the same infinity, integers bit for bit, kinds, shapes and counts must
// agree.
#include "equivalence/compare.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/tensor.h"
#include "interpreter/value.h"

namespace onnx_opt::equivalence {
namespace {

using interpreter::RuntimeValue;
using interpreter::Tensor;

RuntimeValue Floats(std::vector<float> v) {
  return RuntimeValue(
      Tensor::FromVector<float>(ir::DataType::kFloat, {static_cast<int64_t>(v.size())}, v));
}

OutputDifference CompareOne(const RuntimeValue& expected, const RuntimeValue& actual,
                            const Tolerances& tolerances = {}) {
  return CompareValue("y", expected, actual, tolerances);
}

TEST(Compare, FloatsWithinTheToleranceAreEqualAndNanMatchesNan) {
  // float32 default: rtol 1e-4, atol 1e-5.
  OutputDifference d = CompareOne(Floats({1.0f, 100.0f, NAN}), Floats({1.000005f, 100.005f, NAN}));
  EXPECT_TRUE(d.equal) << d.detail;
  EXPECT_GT(d.max_abs_error, 0);
}

TEST(Compare, AFloatOutsideTheToleranceNamesTheWorstElement) {
  OutputDifference d = CompareOne(Floats({1.0f, 2.0f, 3.0f}), Floats({1.0f, 2.1f, 3.001f}));
  EXPECT_FALSE(d.equal);
  EXPECT_EQ(d.output, "y");
  EXPECT_NE(d.detail.find("element 1 is"), std::string::npos) << d.detail;
}

TEST(Compare, ANearZeroElementIsJudgedAtTheTensorsScale) {
  // Output of scale ~1 (rms 1.6): 2e-5 off on an element near 0 is rounding at that scale, not a
  // change.
  OutputDifference d =
      CompareOne(Floats({-0.0006f, 2.0f, -2.0f}), Floats({-0.00062f, 2.00002f, -1.99999f}));
  EXPECT_TRUE(d.equal) << d.detail;
  EXPECT_GT(d.max_rel_error, 1e-2);
  // A change at the tensor's scale on that element is still one.
  d = CompareOne(Floats({-0.0006f, 2.0f, -2.0f}), Floats({-0.0009f, 2.0f, -2.0f}));
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("element 0 is"), std::string::npos) << d.detail;
  // Without the output's scale (ONNX's node tests), the same near-zero element is judged alone.
  d = CompareOne(Floats({-0.0006f, 2.0f, -2.0f}), Floats({-0.00062f, 2.0f, -2.0f}),
                 Tolerances::Conformance());
  EXPECT_FALSE(d.equal);
}

TEST(Compare, InfinitiesMatchOnlyTheSameInfinity) {
  EXPECT_TRUE(CompareOne(Floats({INFINITY, -INFINITY, 1}), Floats({INFINITY, -INFINITY, 1})).equal);
  OutputDifference d = CompareOne(Floats({INFINITY}), Floats({-INFINITY}));
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("element 0 is -inf, expected inf"), std::string::npos) << d.detail;
  // An expected infinity is not matched by a finite value, however large, nor by NaN.
  EXPECT_FALSE(CompareOne(Floats({INFINITY}), Floats({3.4e38f})).equal);
  EXPECT_FALSE(CompareOne(Floats({-INFINITY}), Floats({0})).equal);
  EXPECT_FALSE(CompareOne(Floats({INFINITY}), Floats({NAN})).equal);
}

TEST(Compare, AFiniteExpectedValueIsNotMatchedByInfinityOrNan) {
  EXPECT_FALSE(CompareOne(Floats({1}), Floats({INFINITY})).equal);
  EXPECT_FALSE(CompareOne(Floats({1}), Floats({-INFINITY})).equal);
  OutputDifference d = CompareOne(Floats({1, 2}), Floats({1, NAN}));
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("element 1 is nan"), std::string::npos) << d.detail;
  // And NaN expected is not matched by a number.
  EXPECT_FALSE(CompareOne(Floats({NAN}), Floats({0})).equal);
}

TEST(Compare, AnInfinityInTheOutputDoesNotWidenTheToleranceOfTheOthers) {
  // The scale is taken over finite elements: with an inf beside it, 1 vs 2 is still a difference.
  OutputDifference d = CompareOne(Floats({INFINITY, 1, 1}), Floats({INFINITY, 2, 1}));
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("element 1 is 2, expected 1"), std::string::npos) << d.detail;
  d = CompareOne(Floats({NAN, 1e-3f, 0}), Floats({NAN, 2e-3f, 0}));
  EXPECT_FALSE(d.equal);
  // Huge finite doubles do not overflow the scale (an infinite scale would let anything pass).
  const RuntimeValue big = Tensor::FromVector<double>(ir::DataType::kDouble, {2}, {1e300, 1e300});
  EXPECT_TRUE(CompareOne(big, big).equal);
  EXPECT_FALSE(
      CompareOne(big, Tensor::FromVector<double>(ir::DataType::kDouble, {2}, {1e300, 1.1e300}))
          .equal);
}

TEST(Compare, IntegersAreExactBitForBitAndShapesMustAgree) {
  const RuntimeValue a = Tensor::FromVector<int64_t>(ir::DataType::kInt64, {2}, {1, 2});
  EXPECT_TRUE(CompareOne(a, a).equal);
  EXPECT_FALSE(CompareOne(a, Tensor::FromVector<int64_t>(ir::DataType::kInt64, {2}, {1, 3})).equal);
  OutputDifference d =
      CompareOne(a, Tensor::FromVector<int64_t>(ir::DataType::kInt64, {1, 2}, {1, 2}));
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("shape"), std::string::npos) << d.detail;
  // 2^53 and 2^53 + 1 are one double: they must still differ.
  const int64_t big = int64_t{1} << 53;
  d = CompareOne(Tensor::FromVector<int64_t>(ir::DataType::kInt64, {1}, {big}),
                 Tensor::FromVector<int64_t>(ir::DataType::kInt64, {1}, {big + 1}));
  EXPECT_FALSE(d.equal);
}

TEST(Compare, ComplexComparesEveryPart) {
  const Tensor want = Tensor::FromVector<float>(ir::DataType::kFloat, {4}, {1, 2, 3, 4})
                          .ReusedAs(ir::DataType::kComplex64, {2});
  Tensor got = want.Clone();
  EXPECT_TRUE(CompareOne(want, got).equal);
  got.mutable_data<float>()[3] = 4.5f;
  OutputDifference d = CompareOne(want, got);
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("part 3"), std::string::npos) << d.detail;
}

TEST(Compare, MissingAndExtraOutputsDiffer) {
  std::vector<OutputDifference> missing = CompareOutputs({"y"}, {Floats({1})}, {}, Tolerances{});
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_FALSE(missing[0].equal);
  std::vector<OutputDifference> extra =
      CompareOutputs({"y"}, {Floats({1})}, {Floats({1}), Floats({2})}, Tolerances{});
  ASSERT_EQ(extra.size(), 2u);
  EXPECT_TRUE(extra[0].equal);
  EXPECT_FALSE(extra[1].equal);
  EXPECT_FALSE(FirstDifference(extra).ok());
  EXPECT_TRUE(FirstDifference({extra[0]}).ok());
}

TEST(Compare, ALossyOutputIsJudgedByItsWholeErrorFigures) {
  Tolerances lossy;
  lossy.lossy = LossyTolerance{};  // relative L2 <= 1e-2, cosine >= 0.9999
  // Every element 0.1% off: element by element at rtol 1e-4 it differs; as a whole it is close.
  const RuntimeValue expected = Floats({1, -2, 3, -4});
  const RuntimeValue close = Floats({1.001f, -2.002f, 3.003f, -4.004f});
  EXPECT_FALSE(CompareOne(expected, close).equal);
  OutputDifference d = CompareOne(expected, close, lossy);
  EXPECT_TRUE(d.equal) << d.detail;
  EXPECT_NEAR(d.rel_l2_error, 1e-3, 1e-6);
  EXPECT_NEAR(d.cosine, 1.0, 1e-9);
  EXPECT_NEAR(d.max_abs_error, 4e-3, 1e-6);
  // 10% off on one element: relative L2 ~0.073 and cosine ~0.9973 fail the default.
  d = CompareOne(expected, Floats({1, -2, 3, -4.4f}), lossy);
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("relative L2 error"), std::string::npos) << d.detail;
  EXPECT_NE(d.detail.find("cosine similarity"), std::string::npos) << d.detail;
  // A bound on the max abs error is kept when given.
  lossy.lossy->max_abs = 1e-3;
  d = CompareOne(expected, close, lossy);
  EXPECT_FALSE(d.equal);
  EXPECT_NE(d.detail.find("max abs error"), std::string::npos) << d.detail;
  // Infinities still match only themselves.
  EXPECT_FALSE(CompareOne(Floats({INFINITY, 1}), Floats({-INFINITY, 1}), lossy).equal);
  // All zeros against all zeros is no error.
  d = CompareOne(Floats({0, 0}), Floats({0, 0}), lossy);
  EXPECT_TRUE(d.equal) << d.detail;
  EXPECT_EQ(d.rel_l2_error, 0);
  EXPECT_EQ(d.cosine, 1);
}

}  // namespace
}  // namespace onnx_opt::equivalence
