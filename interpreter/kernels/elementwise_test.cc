#include <cmath>
#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;
using testing::OneNode;

TEST(ElementwiseTest, AddBroadcastsNumpyStyle) {
  OneNode g("Add", 2);
  auto r = g.Run({F({2, 1}, {1, 2}), F({3}, {10, 20, 30})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{11, 21, 31, 12, 22, 32}));
}

TEST(ElementwiseTest, LegacyBroadcastUsesAxis) {
  OneNode g("Mul", 2);
  g.node->SetAttribute(ir::Attribute::Int("broadcast", 1));
  g.node->SetAttribute(ir::Attribute::Int("axis", 0));
  auto r = g.Run({F({2, 2}, {1, 2, 3, 4}), F({2}, {10, 100})}, 6);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{10, 20, 300, 400}));
}

TEST(ElementwiseTest, IntegerModFollowsDivisorSign) {
  OneNode g("Mod", 2);
  auto r = g.Run({I64({2}, {-7, 7}), I64({2}, {3, -3})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>(), (std::vector<int64_t>{2, -2}));
}

TEST(ElementwiseTest, IntegerDivisionByZeroIsAnErrorFreeZero) {
  OneNode g("Div", 2);
  auto r = g.Run({I64({1}, {5}), I64({1}, {0})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>()[0], 0);
}

TEST(ElementwiseTest, ReluAndSigmoid) {
  OneNode relu("Relu", 1);
  auto r = relu.Run({F({3}, {-1, 0, 2})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{0, 0, 2}));
  OneNode sig("Sigmoid", 1);
  r = sig.Run({F({1}, {0})});
  ASSERT_TRUE(r.ok());
  EXPECT_FLOAT_EQ((*r)[0].tensor().ToVector<float>()[0], 0.5f);
}

TEST(ElementwiseTest, UnsupportedTypeIsAnError) {
  OneNode g("Sqrt", 1);
  auto r = g.Run({I64({1}, {4})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("int64"), std::string::npos) << r.status();
}

TEST(ElementwiseTest, WhereBroadcastsThreeWays) {
  OneNode g("Where", 3);
  Tensor c = Tensor::FromVector<bool>(DataType::kBool, {2, 1}, {true, false});
  auto r = g.Run({c, F({2}, {1, 2}), F({1}, {9})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{1, 2, 9, 9}));
}

// Found by auditing the kernels: an integer power without an int64 value (0 ^ -1 is inf, 2 ^ 70 too
// large) was an undefined conversion; it saturates.
TEST(ElementwiseTest, IntegerPowOutOfRangeSaturates) {
  OneNode g("Pow", 2);
  auto r = g.Run({I64({3}, {0, 2, 2}), I64({3}, {-1, 70, 3})}, 15);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<int64_t>(), (std::vector<int64_t>{INT64_MAX, INT64_MAX, 8}));
}

// ---- integer overflow and division (found by auditing the kernels under UBSan)
// -------------------

template <typename T>
Tensor Ints(ir::DataType type, std::vector<int64_t> dims, std::vector<T> v) {
  return Tensor::FromVector<T>(type, std::move(dims), v);
}

template <typename T>
std::vector<T> RunInts(const std::string& op, std::vector<RuntimeValue> inputs,
                       int64_t opset = 21) {
  OneNode g(op, inputs.size());
  auto r = g.Run(std::move(inputs), opset);
  EXPECT_TRUE(r.ok()) << op << ": " << r.status();
  return r.ok() ? (*r)[0].tensor().ToVector<T>() : std::vector<T>{};
}

// Signed overflow was undefined; integers wrap (two's complement) as in onnxruntime and numpy.
TEST(ElementwiseTest, IntegerArithmeticWraps) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(),
                    kMin = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(RunInts<int64_t>("Add", {I64({2}, {kMax, 5}), I64({2}, {1, 6})}),
            (std::vector<int64_t>{kMin, 11}));
  EXPECT_EQ(RunInts<int64_t>("Sub", {I64({2}, {kMin, 5}), I64({2}, {1, 6})}),
            (std::vector<int64_t>{kMax, -1}));
  EXPECT_EQ(RunInts<int32_t>("Mul", {Ints<int32_t>(ir::DataType::kInt32, {2}, {65536, -7}),
                                     Ints<int32_t>(ir::DataType::kInt32, {2}, {65536, 3})}),
            (std::vector<int32_t>{0, -21}));
  // uint16 * uint16 is computed in int after promotion: 65535 * 65535 overflowed it.
  EXPECT_EQ(RunInts<uint16_t>("Mul", {Ints<uint16_t>(ir::DataType::kUint16, {1}, {65535}),
                                      Ints<uint16_t>(ir::DataType::kUint16, {1}, {65535})}),
            (std::vector<uint16_t>{1}));
  EXPECT_EQ(RunInts<int64_t>("Sum", {I64({1}, {kMax}), I64({1}, {kMax}), I64({1}, {2})}),
            (std::vector<int64_t>{0}));
  const int32_t kMin32 = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(RunInts<int32_t>("Neg", {Ints<int32_t>(ir::DataType::kInt32, {2}, {kMin32, 5})}),
            (std::vector<int32_t>{kMin32, -5}));
  EXPECT_EQ(RunInts<int32_t>("Abs", {Ints<int32_t>(ir::DataType::kInt32, {2}, {kMin32, -5})}),
            (std::vector<int32_t>{kMin32, 5}));
  OneNode prelu("PRelu", 2);
  auto p = prelu.Run({I64({2}, {kMin, -3}), I64({1}, {-1})}, 16);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ((*p)[0].tensor().ToVector<int64_t>(), (std::vector<int64_t>{kMin, 3}));
}

// Integer division by zero has no value (it was 0 here, and onnxruntime fails); INT_MIN / -1 wraps.
TEST(ElementwiseTest, IntegerDivisionEdgesAreDefined) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  // INT_MIN / -1 wraps; a zero divisor gives 0 (Div and Mod).
  EXPECT_EQ(RunInts<int64_t>("Div", {I64({4}, {kMin, 7, -7, 7}), I64({4}, {-1, -2, 2, 0})}, 13),
            (std::vector<int64_t>{kMin, -3, -3, 0}));
  EXPECT_EQ(RunInts<int64_t>("Mod", {I64({3}, {kMin, -7, 7}), I64({3}, {-1, 3, 0})}, 13),
            (std::vector<int64_t>{0, 2, 0}));
  // Float division by zero is IEEE's.
  OneNode f("Div", 2);
  auto r = f.Run({F({1}, {1.0f}), F({1}, {0.0f})}, 13);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>()[0], INFINITY);
}

// A shift by the bit width or more was undefined, and so was uint16 << 15 (in the promoted int).
TEST(ElementwiseTest, BitShiftPastTheWidthAndIntoTheSignBit) {
  auto shift = [](const char* dir, Tensor x, Tensor y) {
    OneNode g("BitShift", 2);
    g.node->SetAttribute(ir::Attribute::String("direction", dir));
    auto r = g.Run({std::move(x), std::move(y)}, 11);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? (*r)[0].tensor() : Tensor();
  };
  EXPECT_EQ(shift("LEFT", Ints<uint16_t>(ir::DataType::kUint16, {3}, {65535, 1, 3}),
                  Ints<uint16_t>(ir::DataType::kUint16, {3}, {15, 16, 1}))
                .ToVector<uint16_t>(),
            (std::vector<uint16_t>{32768, 0, 6}));
  EXPECT_EQ(shift("RIGHT", Ints<uint64_t>(ir::DataType::kUint64, {2}, {~uint64_t{0}, 8}),
                  Ints<uint64_t>(ir::DataType::kUint64, {2}, {64, 2}))
                .ToVector<uint64_t>(),
            (std::vector<uint64_t>{0, 2}));
}

// Integer Clip bounds: INT64_MAX read through a double became 2^63 (its conversion back undefined);
// a uint8 bound past 255 saturates.
TEST(ElementwiseTest, IntegerClipBoundsAreExactOrSaturated) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(
      RunInts<int64_t>(
          "Clip", {I64({3}, {kMax, 5, (int64_t{1} << 53) + 1}), I64({}, {6}), I64({}, {kMax})}, 13),
      (std::vector<int64_t>{kMax, 6, (int64_t{1} << 53) + 1}));
  OneNode g("Clip", 3);
  auto r = g.Run({Ints<uint8_t>(ir::DataType::kUint8, {2}, {200, 3}),
                  Ints<uint8_t>(ir::DataType::kUint8, {}, {5}),
                  Ints<uint8_t>(ir::DataType::kUint8, {}, {250})},
                 13);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<uint8_t>(), (std::vector<uint8_t>{200, 5}));
}

// Shrink of an integer tensor with a bias past its range, and Mean of one int64 input (INT64_MAX /
// 1 through a double is 2^63): saturated instead of undefined conversions.
TEST(ElementwiseTest, IntegerShrinkAndMeanSaturate) {
  OneNode shrink("Shrink", 1);
  shrink.node->SetAttribute(ir::Attribute::Float("bias", 1e10f));
  auto r = shrink.Run({Ints<int8_t>(ir::DataType::kInt8, {3}, {-100, 0, 100})}, 9);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<int8_t>(), (std::vector<int8_t>{127, 0, -128}));
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(RunInts<int64_t>("Mean", {I64({2}, {kMax, 7})}, 13), (std::vector<int64_t>{kMax, 7}));
}

// Cast of NaN, infinities and out-of-range floats to integers has no defined value in the spec;
// converting them directly is undefined in C++. They saturate (NaN gives 0).
TEST(ElementwiseTest, CastOfNonFiniteFloatsToIntegersIsDefined) {
  OneNode g("Cast", 1);
  g.node->SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(ir::DataType::kInt32)));
  auto r = g.Run({F({5}, {NAN, INFINITY, -INFINITY, 3e9f, -2.7f})}, 13);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(),
            (std::vector<int32_t>{0, std::numeric_limits<int32_t>::max(),
                                  std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max(), -2}));
  OneNode u("Cast", 1);
  u.node->SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(ir::DataType::kUint64)));
  auto ru = u.Run({F({3}, {-1.0f, 1e30f, 5.5f})}, 13);
  ASSERT_TRUE(ru.ok()) << ru.status();
  EXPECT_EQ((*ru)[0].tensor().ToVector<uint64_t>(),
            (std::vector<uint64_t>{0, std::numeric_limits<uint64_t>::max(), 5}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
