// The pre-opset-7 broadcasting rules (legacy_broadcast.h) and the shapes inference gives the
// operators that follow them.
#include "schema/inference/legacy_broadcast.h"

#include <optional>
#include <string>

#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;
using testing::TypeOf;
using testing::WarningsOf;

Shape S(std::vector<int64_t> dims) { return Shape::FromSizes(dims); }

std::string Aligned(const Shape& a, const Shape& b, bool broadcast, std::optional<int64_t> axis) {
  absl::StatusOr<Shape> s = LegacyBroadcastShape(a, b, broadcast, axis);
  return s.ok() ? ir::ShapeToString(*s)
                : std::string("error: ") + std::string(s.status().message());
}

TEST(LegacyBroadcastShapeTest, AlignsBAtTheAxisOrAtTheEnd) {
  EXPECT_EQ(Aligned(S({2, 3, 4, 5}), S({3}), true, 1), "[1,3,1,1]");
  EXPECT_EQ(Aligned(S({2, 3, 4, 5}), S({3, 4}), true, 1), "[1,3,4,1]");
  EXPECT_EQ(Aligned(S({2, 3, 4, 5}), S({2}), true, 0), "[2,1,1,1]");
  EXPECT_EQ(Aligned(S({2, 3, 4, 5}), S({4, 5}), true, std::nullopt), "[1,1,4,5]");
  EXPECT_EQ(Aligned(S({2, 3, 4, 5}), S({3}), true, -3), "[1,3,1,1]");
  EXPECT_EQ(Aligned(S({2, 3, 4, 5}), S({}), true, std::nullopt), "[1,1,1,1]");
  EXPECT_EQ(Aligned(S({2, 3}), S({1, 1}), true, 1), "[1,1]");  // one element: any axis
  // Unknown dims are taken to match; symbols are kept.
  const Shape a({Dim::Symbolic("N"), Dim::Unknown(), Dim::Known(4)});
  const Shape b({Dim::Symbolic("C")});
  EXPECT_EQ(Aligned(a, b, true, 1), "[1,C,1]");
}

TEST(LegacyBroadcastShapeTest, RefusesWhatTheRuleDoesNotAllow) {
  EXPECT_EQ(Aligned(S({2, 3}), S({3}), false, std::nullopt),
            "error: without broadcast=1 the inputs must have the same shape before opset 7; A is "
            "[2,3] and B is [3]");
  EXPECT_EQ(Aligned(S({2, 3}), S({2, 3}), false, std::nullopt), "[2,3]");
  EXPECT_NE(Aligned(S({2, 3}), S({3}), true, 0).find("does not match"), std::string::npos);
  EXPECT_NE(Aligned(S({2, 3, 4}), S({3, 2}), true, 1).find("does not match"), std::string::npos);
  EXPECT_NE(Aligned(S({1, 3}), S({2, 3}), true, std::nullopt).find("does not match"),
            std::string::npos);  // only B broadcasts
  EXPECT_NE(Aligned(S({2, 3}), S({3}), true, 2).find("leaves no room"), std::string::npos);
  EXPECT_NE(Aligned(S({3}), S({2, 3}), true, std::nullopt).find("higher rank"), std::string::npos);
}

// "1-dim expansion doesn't work yet", said the opset-6 text; exporters wrote such models anyway and
// ONNX's stored outputs for them are numpy's, so a size-1 dim of B expands, and the caller learns
// where.
std::string Expanded(const Shape& a, const Shape& b, std::optional<int64_t> axis) {
  std::vector<int64_t> axes = {-1};  // overwritten
  absl::StatusOr<Shape> s = LegacyBroadcastShape(a, b, true, axis, &axes);
  if (!s.ok()) return std::string("error: ") + std::string(s.status().message());
  std::string out = ir::ShapeToString(*s) + " expanded at";
  for (int64_t x : axes) out += " " + std::to_string(x);
  return out;
}

TEST(LegacyBroadcastShapeTest, SizeOneDimsOfBExpandAsInNumpy) {
  EXPECT_EQ(Expanded(S({2, 3}), S({2, 1}), std::nullopt), "[2,1] expanded at 1");
  EXPECT_EQ(Expanded(S({2, 3}), S({1, 3}), std::nullopt), "[1,3] expanded at 0");
  EXPECT_EQ(Expanded(S({2, 3, 4}), S({3, 1}), 1), "[1,3,1] expanded at 2");
  EXPECT_EQ(Expanded(S({2, 3, 4, 5}), S({1, 4, 1}), -3), "[1,1,4,1] expanded at 1 3");
  // Nothing expands where A's dim is 1 too, or where B follows the rule.
  EXPECT_EQ(Expanded(S({2, 1}), S({2, 1}), std::nullopt), "[2,1] expanded at");
  EXPECT_EQ(Expanded(S({2, 3}), S({3}), std::nullopt), "[1,3] expanded at");
  EXPECT_EQ(Expanded(S({2, 3}), S({1, 1}), std::nullopt), "[1,1] expanded at");  // one element
  // A's unknown and symbolic dims may be other than 1: they count.
  EXPECT_EQ(Expanded(Shape({Dim::Symbolic("N"), Dim::Known(3)}), S({1, 3}), std::nullopt),
            "[1,3] expanded at 0");
  EXPECT_EQ(DescribeLegacyExpansion(S({2, 3}), S({2, 1}), {1}),
            "B of shape [2,1] has size 1 where A of shape [2,3] does not (axis 1): read as numpy "
            "broadcasting "
            "reads it, as the exporters meant (the legacy rule says \"1-dim expansion doesn't work "
            "yet\")");
}

TEST(LegacyBroadcastShapeTest, OperatorsThatUseIt) {
  EXPECT_TRUE(UsesLegacyBroadcast("Add", 6));
  EXPECT_TRUE(UsesLegacyBroadcast("Xor", 1));
  EXPECT_FALSE(UsesLegacyBroadcast("Add", 7));
  EXPECT_FALSE(UsesLegacyBroadcast("PRelu", 6));  // a rule of its own
  EXPECT_FALSE(UsesLegacyBroadcast("Gemm", 6));
  EXPECT_FALSE(UsesLegacyBroadcast("Sum", 6));
}

TEST(LegacyPReluSlopeShapeTest, OneValuePerChannel) {
  auto slope = [](const Shape& x, const Shape& s) {
    std::optional<Shape> r = LegacyPReluSlopeShape(x, s);
    return r.has_value() ? ir::ShapeToString(*r) : "unknown";
  };
  EXPECT_EQ(slope(S({1, 3, 4, 4}), S({3})), "[3,1,1]");
  EXPECT_EQ(slope(S({1, 4, 4, 4}), S({4})),
            "[4,1,1]");  // channel count first, even where W is equal
  EXPECT_EQ(slope(S({2, 3, 5}), S({3})), "[3,1]");
  EXPECT_EQ(slope(S({2, 3}), S({3})), "[3]");        // the last axis is the channel axis
  EXPECT_EQ(slope(S({1, 3, 4, 4}), S({1})), "[1]");  // shared
  EXPECT_EQ(slope(S({1, 3, 4, 4}), S({3, 1, 1})), "[3,1,1]");
  EXPECT_EQ(slope(S({1, 3, 4, 5}), S({5})), "[5]");  // not a channel count: numpy's reading
  EXPECT_EQ(slope(Shape({Dim::Unknown(), Dim::Symbolic("C"), Dim::Known(4)}),
                  Shape({Dim::Symbolic("C")})),
            "[C,1]");
  EXPECT_EQ(slope(Shape({Dim::Known(1), Dim::Unknown(), Dim::Known(4)}), S({3})), "unknown");
}

TEST(LegacyBroadcastInferenceTest, OutputHasAsShape) {
  EXPECT_EQ(
      TypeOf("g (float[N,3,H,W] A, float[3] B) => (Y) { Y = Add<broadcast = 1, axis = 1>(A, B) }",
             "Y", 6),
      "tensor(float)[N,3,H,W]");
  EXPECT_EQ(
      TypeOf("g (float[2,3,4] A, float[3,4] B) => (Y) { Y = Mul<broadcast = 1>(A, B) }", "Y", 6),
      "tensor(float)[2,3,4]");
  EXPECT_EQ(TypeOf("g (float[2,3] A, float B) => (Y) { Y = Sub<broadcast = 1>(A, B) }", "Y", 6),
            "tensor(float)[2,3]");
  EXPECT_EQ(
      TypeOf("g (double[4,2] A, double[4] B) => (Y) { Y = Div<broadcast = 1, axis = 0>(A, B) }",
             "Y", 6),
      "tensor(double)[4,2]");
  EXPECT_EQ(TypeOf("g (float[2,3] A, float[2] B) => (Y) { Y = Pow<broadcast = 1, axis = 0>(A, B) }",
                   "Y", 1),
            "tensor(float)[2,3]");
  EXPECT_EQ(
      TypeOf("g (int32[2,3] A, int32[2] B) => (Y) { Y = Equal<broadcast = 1, axis = 0>(A, B) }",
             "Y", 1),
      "tensor(bool)[2,3]");
  EXPECT_EQ(
      TypeOf("g (float[2,3] A, float[3] B) => (Y) { Y = Greater<broadcast = 1>(A, B) }", "Y", 1),
      "tensor(bool)[2,3]");
  EXPECT_EQ(
      TypeOf("g (float[2,3] A, float[2] B) => (Y) { Y = Less<broadcast = 1, axis = 0>(A, B) }", "Y",
             1),
      "tensor(bool)[2,3]");
  for (const char* op : {"And", "Or", "Xor"}) {
    EXPECT_EQ(TypeOf(std::string("g (bool[2,2,2] A, bool[2] B) => (Y) { Y = ") + op +
                         "<broadcast = 1, axis = 1>(A, B) }",
                     "Y", 1),
              "tensor(bool)[2,2,2]")
        << op;
  }
  // B's size-1 dims expand over A's (numpy's reading): Y still has A's shape.
  EXPECT_EQ(
      TypeOf("g (float[2,3] A, float[2,1] B) => (Y) { Y = Add<broadcast = 1>(A, B) }", "Y", 6),
      "tensor(float)[2,3]");
  EXPECT_EQ(
      TypeOf("g (float[N,3,4] A, float[3,1] B) => (Y) { Y = Mul<broadcast = 1, axis = 1>(A, B) }",
             "Y", 6),
      "tensor(float)[N,3,4]");
  EXPECT_EQ(WarningsOf("g (float[2,3] A, float[1,3] B) => (Y) { Y = Sub<broadcast = 1>(A, B) }", 6),
            "");
  // Without broadcast the shapes are equal, so B tells A's unknown dims.
  EXPECT_EQ(TypeOf("g (float[N,?] A, float[N,3] B) => (Y) { Y = Add(A, B) }", "Y", 6),
            "tensor(float)[N,3]");
}

TEST(LegacyBroadcastInferenceTest, PReluAndGemm) {
  EXPECT_EQ(TypeOf("g (float[N,3,H,W] X, float[3] S) => (Y) { Y = PRelu(X, S) }", "Y", 6),
            "tensor(float)[N,3,H,W]");
  EXPECT_EQ(TypeOf("g (float[N,3,4,4] X, float[1] S) => (Y) { Y = PRelu(X, S) }", "Y", 1),
            "tensor(float)[N,3,4,4]");
  EXPECT_EQ(
      TypeOf(
          "g (float[2,4] A, float[4,3] B, float[3] C) => (Y) { Y = Gemm<broadcast = 1>(A, B, C) }",
          "Y", 6),
      "tensor(float)[2,3]");
  EXPECT_EQ(
      TypeOf("g (float[2,4] A, float[4,3] B, float C) => (Y) { Y = Gemm<broadcast = 1>(A, B, C) }",
             "Y", 6),
      "tensor(float)[2,3]");
}

TEST(LegacyBroadcastInferenceTest, ShapesTheRuleRefusesWarn) {
  EXPECT_NE(WarningsOf("g (float[2,3] A, float[3] B) => (Y) { Y = Add(A, B) }", 6)
                .find("without broadcast=1 the inputs must have the same shape"),
            std::string::npos);
  EXPECT_NE(WarningsOf(
                "g (float[2,3] A, float[3] B) => (Y) { Y = Mul<broadcast = 1, axis = 0>(A, B) }", 6)
                .find("does not match"),
            std::string::npos);
  EXPECT_NE(WarningsOf("g (float[1,3,4,5] X, float[4] S) => (Y) { Y = PRelu(X, S) }", 6)
                .find("slope of shape [4]"),
            std::string::npos);
  EXPECT_NE(WarningsOf("g (float[2,4] A, float[4,3] B, float[3] C) => (Y) { Y = Gemm(A, B, C) }", 6)
                .find("without broadcast=1, C must have the shape of A * B"),
            std::string::npos);
  // Numpy broadcasting from opset 7 accepts them.
  EXPECT_EQ(WarningsOf("g (float[2,3] A, float[3] B) => (Y) { Y = Add(A, B) }", 7), "");
  EXPECT_EQ(
      WarningsOf("g (float[2,4] A, float[4,3] B, float[3] C) => (Y) { Y = Gemm(A, B, C) }", 7), "");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
