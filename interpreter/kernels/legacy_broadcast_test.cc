// Broadcasting before opset 7 in the kernels: the `broadcast`/`axis` attributes of the binary
// operators, PRelu's per-channel slope, and Gemm's `broadcast` for C, checked against values
// computed by hand (the models' full round trip through the converter is in
// converter/legacy_broadcast_test.cc).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::OneNode;

Tensor D(std::vector<int64_t> dims, std::vector<double> v) {
  return Tensor::FromVector<double>(DataType::kDouble, std::move(dims), v);
}
Tensor I32(std::vector<int64_t> dims, std::vector<int32_t> v) {
  return Tensor::FromVector<int32_t>(DataType::kInt32, std::move(dims), v);
}
Tensor B(std::vector<int64_t> dims, std::vector<bool> v) {
  return Tensor::FromVector<bool>(DataType::kBool, std::move(dims), v);
}

// A binary node with broadcast=1 and, when given, axis.
OneNode Legacy(const std::string& op, std::optional<int64_t> axis) {
  OneNode g(op, 2);
  g.node->SetAttribute(ir::Attribute::Int("broadcast", 1));
  if (axis.has_value()) g.node->SetAttribute(ir::Attribute::Int("axis", *axis));
  return g;
}

Tensor RunOk(OneNode& g, std::vector<RuntimeValue> inputs, int64_t opset) {
  auto r = g.Run(std::move(inputs), opset);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return Tensor();
  return (*r)[0].tensor();
}

void ExpectError(OneNode& g, std::vector<RuntimeValue> inputs, int64_t opset,
                 const std::string& part) {
  auto r = g.Run(std::move(inputs), opset);
  ASSERT_FALSE(r.ok()) << "expected an error mentioning '" << part << "'";
  EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status();
}

const std::vector<float> kNchw = {0, 1, 2, 3, 4, 5, 6, 7};  // [1, 2, 2, 2]

TEST(LegacyBroadcastTest, ArithmeticAlignsBAtTheChannelAxis) {
  // B [C] at axis 1 of [N,C,H,W]; C == W, so numpy's suffix alignment would differ.
  auto add = Legacy("Add", 1);
  Tensor y = RunOk(add, {F({1, 2, 2, 2}, kNchw), F({2}, {10, 20})}, 6);
  EXPECT_EQ(y.dims(), (std::vector<int64_t>{1, 2, 2, 2}));
  EXPECT_EQ(y.ToVector<float>(), (std::vector<float>{10, 11, 12, 13, 24, 25, 26, 27}));
  auto sub = Legacy("Sub", 1);
  EXPECT_EQ(RunOk(sub, {F({1, 2, 2, 2}, kNchw), F({2}, {1, 2})}, 6).ToVector<float>(),
            (std::vector<float>{-1, 0, 1, 2, 2, 3, 4, 5}));
  auto mul = Legacy("Mul", -3);  // a negative axis counts from A's end: 1
  EXPECT_EQ(RunOk(mul, {F({1, 2, 2, 2}, kNchw), F({2}, {2, 3})}, 6).ToVector<float>(),
            (std::vector<float>{0, 2, 4, 6, 12, 15, 18, 21}));
  auto div = Legacy("Div", 1);
  EXPECT_EQ(RunOk(div, {F({1, 2, 2, 2}, kNchw), F({2}, {2, 4})}, 6).ToVector<float>(),
            (std::vector<float>{0, 0.5, 1, 1.5, 1, 1.25, 1.5, 1.75}));
}

TEST(LegacyBroadcastTest, ArithmeticOnTheGenericLoops) {
  // double takes the generic loop rather than the float vector kernels; [C,H] at axis 1.
  auto add = Legacy("Add", 1);
  Tensor y =
      RunOk(add, {D({1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), D({2, 2}, {100, 200, 300, 400})}, 6);
  EXPECT_EQ(y.ToVector<double>(), (std::vector<double>{100, 101, 202, 203, 304, 305, 406, 407}));
  // Integers (added at opset 6) too.
  auto mul = Legacy("Mul", 0);
  EXPECT_EQ(RunOk(mul, {I32({2, 2}, {1, 2, 3, 4}), I32({2}, {10, 100})}, 6).ToVector<int32_t>(),
            (std::vector<int32_t>{10, 20, 300, 400}));
}

TEST(LegacyBroadcastTest, SuffixAndOneElement) {
  auto suffix = Legacy("Add", std::nullopt);
  EXPECT_EQ(
      RunOk(suffix, {F({2, 3}, {0, 1, 2, 3, 4, 5}), F({3}, {10, 20, 30})}, 6).ToVector<float>(),
      (std::vector<float>{10, 21, 32, 13, 24, 35}));
  auto scalar = Legacy("Sub", std::nullopt);
  EXPECT_EQ(RunOk(scalar, {F({2, 2}, {1, 2, 3, 4}), F({}, {1})}, 6).ToVector<float>(),
            (std::vector<float>{0, 1, 2, 3}));
  // One element of any rank up to A's, whatever the axis.
  auto single = Legacy("Mul", 1);
  EXPECT_EQ(RunOk(single, {F({2, 2}, {1, 2, 3, 4}), F({1, 1}, {3})}, 6).ToVector<float>(),
            (std::vector<float>{3, 6, 9, 12}));
}

TEST(LegacyBroadcastTest, PowOne) {
  auto pow = Legacy("Pow", 0);
  EXPECT_EQ(RunOk(pow, {F({2, 2}, {1, 2, 3, 4}), F({2}, {2, 3})}, 1).ToVector<float>(),
            (std::vector<float>{1, 4, 27, 64}));
  // The x^2 shortcut sees B aligned too.
  auto square = Legacy("Pow", std::nullopt);
  EXPECT_EQ(RunOk(square, {F({3}, {1, -2, 3}), F({1}, {2})}, 1).ToVector<float>(),
            (std::vector<float>{1, 4, 9}));
}

TEST(LegacyBroadcastTest, ComparisonsAndLogic) {
  auto eq = Legacy("Equal", 0);
  Tensor y = RunOk(eq, {I32({2, 3}, {1, 2, 3, 4, 5, 6}), I32({2}, {2, 5})}, 1);
  EXPECT_EQ(y.dtype(), DataType::kBool);
  EXPECT_EQ(y.ToVector<bool>(), (std::vector<bool>{false, true, false, false, true, false}));
  auto gt = Legacy("Greater", 0);
  EXPECT_EQ(RunOk(gt, {F({2, 3}, {1, 2, 3, 4, 5, 6}), F({2}, {2, 5})}, 1).ToVector<bool>(),
            (std::vector<bool>{false, false, true, false, false, true}));
  auto lt = Legacy("Less", std::nullopt);
  EXPECT_EQ(RunOk(lt, {F({2, 3}, {1, 2, 3, 4, 5, 6}), F({3}, {2, 2, 5})}, 1).ToVector<bool>(),
            (std::vector<bool>{true, false, true, false, false, false}));
  // B [2] at axis 1 of [2,2,2] (numpy would align it with the last axis instead).
  const Tensor a = B({2, 2, 2}, {true, false, true, true, true, true, false, true});
  const Tensor b = B({2}, {true, false});
  auto and_op = Legacy("And", 1);
  EXPECT_EQ(RunOk(and_op, {a, b}, 1).ToVector<bool>(),
            (std::vector<bool>{true, false, false, false, true, true, false, false}));
  auto or_op = Legacy("Or", 1);
  EXPECT_EQ(RunOk(or_op, {a, b}, 1).ToVector<bool>(),
            (std::vector<bool>{true, true, true, true, true, true, false, true}));
  auto xor_op = Legacy("Xor", 1);
  EXPECT_EQ(RunOk(xor_op, {a, b}, 1).ToVector<bool>(),
            (std::vector<bool>{false, true, true, true, false, false, false, true}));
}

TEST(LegacyBroadcastTest, PReluSlopeIsPerChannelBefore7) {
  // X [1,2,2,3], slope [C=2]: channel 0 gets 0.25, channel 1 gets 0.5.
  const Tensor x = F({1, 2, 2, 3}, {-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12});
  OneNode g("PRelu", 2);
  EXPECT_EQ(RunOk(g, {x, F({2}, {0.25, 0.5})}, 6).ToVector<float>(),
            (std::vector<float>{-0.25, 2, -0.75, 4, -1.25, 6, -3.5, 8, -4.5, 10, -5.5, 12}));
  // C == W: per channel at opset 6, along the last axis (numpy) from opset 7.
  const Tensor square = F({1, 2, 1, 2}, {-4, -4, -4, -4});
  OneNode h("PRelu", 2);
  EXPECT_EQ(RunOk(h, {square, F({2}, {0.25, 0.5})}, 6).ToVector<float>(),
            (std::vector<float>{-1, -1, -2, -2}));
  EXPECT_EQ(RunOk(h, {square, F({2}, {0.25, 0.5})}, 7).ToVector<float>(),
            (std::vector<float>{-1, -2, -1, -2}));
  // One value shared by every channel.
  OneNode s("PRelu", 2);
  EXPECT_EQ(RunOk(s, {F({1, 2, 1, 1}, {-4, 4}), F({1}, {0.5})}, 1).ToVector<float>(),
            (std::vector<float>{-2, 4}));
}

TEST(LegacyBroadcastTest, GemmBroadcastsCOnlyWhenAsked) {
  const Tensor a = F({2, 2}, {1, 2, 3, 4});
  const Tensor b = F({2, 3}, {1, 0, 1, 0, 1, 1});  // A * B = [[1, 2, 3], [3, 4, 7]]
  OneNode row("Gemm", 3);
  row.node->SetAttribute(ir::Attribute::Int("broadcast", 1));
  EXPECT_EQ(RunOk(row, {a, b, F({3}, {10, 20, 30})}, 6).ToVector<float>(),
            (std::vector<float>{11, 22, 33, 13, 24, 37}));
  OneNode scalar("Gemm", 3);
  scalar.node->SetAttribute(ir::Attribute::Int("broadcast", 1));
  scalar.node->SetAttribute(ir::Attribute::Float("alpha", 2));
  EXPECT_EQ(RunOk(scalar, {a, b, F({}, {0.5})}, 6).ToVector<float>(),
            (std::vector<float>{2.5, 4.5, 6.5, 6.5, 8.5, 14.5}));
  OneNode full("Gemm", 3);  // broadcast=0 (the default) with C of A * B's shape
  EXPECT_EQ(RunOk(full, {a, b, F({2, 3}, {1, 1, 1, 2, 2, 2})}, 1).ToVector<float>(),
            (std::vector<float>{2, 3, 4, 5, 6, 9}));
  OneNode refused("Gemm", 3);
  ExpectError(refused, {a, b, F({3}, {10, 20, 30})}, 6,
              "without broadcast=1, C must have the shape of A * B");
  // From opset 7 C broadcasts without being asked.
  EXPECT_EQ(RunOk(refused, {a, b, F({3}, {10, 20, 30})}, 7).ToVector<float>(),
            (std::vector<float>{11, 22, 33, 13, 24, 37}));
}

// "1-dim expansion doesn't work yet", said the opset-6 text, but exporters wrote B with size-1 dims
// and ONNX's stored outputs for such models are numpy's: B's 1s expand over A's dims.
TEST(LegacyBroadcastTest, SizeOneDimsOfBExpandAsInNumpy) {
  const Tensor a = F({2, 3}, {0, 1, 2, 3, 4, 5});
  auto column = Legacy("Add", std::nullopt);
  EXPECT_EQ(RunOk(column, {a, F({2, 1}, {10, 20})}, 6).ToVector<float>(),
            (std::vector<float>{10, 11, 12, 23, 24, 25}));
  auto row = Legacy("Mul", std::nullopt);
  EXPECT_EQ(RunOk(row, {a, F({1, 3}, {1, 10, 100})}, 6).ToVector<float>(),
            (std::vector<float>{0, 10, 200, 3, 40, 500}));
  auto sub = Legacy("Sub", 0);  // axis 0: the same place as the suffix here
  EXPECT_EQ(RunOk(sub, {a, F({2, 1}, {1, 2})}, 6).ToVector<float>(),
            (std::vector<float>{-1, 0, 1, 1, 2, 3}));
  // At an axis: B [3,1] from axis 1 of A [2,3,2] expands over A's last dim.
  auto at_axis = Legacy("Div", 1);
  EXPECT_EQ(RunOk(at_axis,
                  {F({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), F({3, 1}, {1, 2, 4})}, 6)
                .ToVector<float>(),
            (std::vector<float>{0, 1, 1, 1.5, 1, 1.25, 6, 7, 4, 4.5, 2.5, 2.75}));
  // On the generic loops (double, int32) and for comparisons and logic too.
  auto add_double = Legacy("Add", std::nullopt);
  EXPECT_EQ(
      RunOk(add_double, {D({2, 3}, {0, 1, 2, 3, 4, 5}), D({2, 1}, {10, 20})}, 6).ToVector<double>(),
      (std::vector<double>{10, 11, 12, 23, 24, 25}));
  auto mul_int = Legacy("Mul", std::nullopt);
  EXPECT_EQ(RunOk(mul_int, {I32({2, 3}, {0, 1, 2, 3, 4, 5}), I32({1, 3}, {1, 10, 100})}, 6)
                .ToVector<int32_t>(),
            (std::vector<int32_t>{0, 10, 200, 3, 40, 500}));
  auto greater = Legacy("Greater", std::nullopt);
  EXPECT_EQ(RunOk(greater, {a, F({2, 1}, {1, 4})}, 1).ToVector<bool>(),
            (std::vector<bool>{false, false, true, false, false, true}));
  auto logic = Legacy("And", std::nullopt);
  EXPECT_EQ(RunOk(logic, {B({2, 2}, {true, true, false, true}), B({1, 2}, {true, false})}, 1)
                .ToVector<bool>(),
            (std::vector<bool>{true, false, false, false}));
}

TEST(LegacyBroadcastTest, ShapesTheLegacyRuleRefuses) {
  // Without broadcast=1 the shapes must be equal, even where numpy would broadcast.
  OneNode plain("Add", 2);
  ExpectError(plain, {F({2, 3}, {0, 1, 2, 3, 4, 5}), F({3}, {1, 2, 3})}, 6,
              "without broadcast=1 the inputs must have the same shape before opset 7; A is [2,3] "
              "and B is [3]");
  OneNode pow("Pow", 2);  // not even a one-element exponent
  ExpectError(pow, {F({3}, {1, 2, 3}), F({1}, {2})}, 1, "without broadcast=1");
  OneNode logic("And", 2);
  ExpectError(logic, {B({2}, {true, false}), B({1}, {true})}, 1, "without broadcast=1");
  // B's dims other than 1 must equal A's, and only B broadcasts.
  auto other = Legacy("Add", 1);
  ExpectError(other, {F({2, 3, 2}, std::vector<float>(12, 0)), F({3, 3}, std::vector<float>(9, 1))},
              6, "B of shape [3,3] does not match the dims of A of shape [2,3,2] from axis 1");
  auto a_broadcast = Legacy("Add", std::nullopt);
  ExpectError(a_broadcast, {F({1, 3}, {0, 1, 2}), F({2, 3}, {0, 1, 2, 3, 4, 5})}, 6,
              "does not match");
  auto wrong_axis = Legacy("Mul", 0);
  ExpectError(wrong_axis, {F({2, 3}, {0, 1, 2, 3, 4, 5}), F({3}, {1, 2, 3})}, 6, "does not match");
  auto no_room = Legacy("Sub", 2);
  ExpectError(no_room, {F({2, 3}, {0, 1, 2, 3, 4, 5}), F({3}, {1, 2, 3})}, 6, "leaves no room");
  auto higher = Legacy("Div", std::nullopt);
  ExpectError(higher, {F({3}, {1, 2, 3}), F({2, 3}, {0, 1, 2, 3, 4, 5})}, 6, "higher rank than A");
  // The same shapes broadcast by numpy from opset 7.
  OneNode numpy("Add", 2);
  EXPECT_EQ(RunOk(numpy, {F({2, 3}, {0, 1, 2, 3, 4, 5}), F({3}, {1, 2, 3})}, 7).ToVector<float>(),
            (std::vector<float>{1, 3, 5, 4, 6, 8}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
