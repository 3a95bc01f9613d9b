// Broadcasting before opset 7, end to end: each hand-made opset-6 (or opset-1) model of an operator
// whose broadcast rule changed at 7 is run on the interpreter and its output compared with values
// computed by hand; shape inference must give the output's shape; the model converted to opset 21
// must pass the checker and compute the same values, and so must that model converted back down
// (with inferred shapes, as onnx-convert does) to the original opset.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "converter/convert.h"
#include "converter/testing/test_util.h"
#include "gtest/gtest.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "ir/text/printer.h"
#include "schema/checker/checker.h"
#include "schema/inference/inference.h"

namespace onnx_opt::converter::testing {
namespace {

using interpreter::Tensor;
using ir::DataType;

Tensor F(std::vector<int64_t> dims, std::vector<float> v) {
  return Tensor::FromVector<float>(DataType::kFloat, std::move(dims), v);
}
Tensor I32(std::vector<int64_t> dims, std::vector<int32_t> v) {
  return Tensor::FromVector<int32_t>(DataType::kInt32, std::move(dims), v);
}
Tensor B(std::vector<int64_t> dims, std::vector<bool> v) {
  return Tensor::FromVector<bool>(DataType::kBool, std::move(dims), v);
}

struct Case {
  std::string name;
  std::string model;  // output Y is declared without a type, for inference to find it
  std::vector<Tensor> inputs;
  Tensor want;  // hand-computed (every value exact in its type)
};

const std::vector<float> kNchw = {0, 1, 2, 3, 4, 5, 6, 7};  // [1, 2, 2, 2]
const Tensor kBools = B({2, 2, 2}, {true, false, true, true, true, true, false, true});

std::vector<Case> Cases() {
  return {
      {"PRelu-6 per-channel slope",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[1,2,2,3] X, float[2] S) => (Y) { Y = PRelu(X, S) })",
       {F({1, 2, 2, 3}, {-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12}), F({2}, {0.25, 0.5})},
       F({1, 2, 2, 3}, {-0.25, 2, -0.75, 4, -1.25, 6, -3.5, 8, -4.5, 10, -5.5, 12})},
      // C == W: the per-channel reading and numpy's differ.
      {"PRelu-1 per-channel slope, C == W",
       R"(
        <ir_version: 4, opset_import: ["" : 1]>
        g (float[1,2,1,2] X) => (Y) <float[2] S = {0.25, 0.5}> { Y = PRelu<consumed_inputs = [0, 0]>(X, S) })",
       {F({1, 2, 1, 2}, {-4, -4, -4, -4})},
       F({1, 2, 1, 2}, {-1, -1, -2, -2})},
      {"PRelu-6 shared slope",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[1,2,1,1] X, float[1] S) => (Y) { Y = PRelu(X, S) })",
       {F({1, 2, 1, 1}, {-4, 4}), F({1}, {0.5})},
       F({1, 2, 1, 1}, {-2, 4})},
      {"Add-6 axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[1,2,2,2] A, float[2] B) => (Y) { Y = Add<broadcast = 1, axis = 1>(A, B) })",
       {F({1, 2, 2, 2}, kNchw), F({2}, {10, 20})},
       F({1, 2, 2, 2}, {10, 11, 12, 13, 24, 25, 26, 27})},
      {"Sub-6 axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[1,2,2,2] A, float[2] B) => (Y) { Y = Sub<broadcast = 1, axis = 1>(A, B) })",
       {F({1, 2, 2, 2}, kNchw), F({2}, {1, 2})},
       F({1, 2, 2, 2}, {-1, 0, 1, 2, 2, 3, 4, 5})},
      {"Mul-6 axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[1,2,2,2] A, float[2] B) => (Y) { Y = Mul<broadcast = 1, axis = 1>(A, B) })",
       {F({1, 2, 2, 2}, kNchw), F({2}, {2, 3})},
       F({1, 2, 2, 2}, {0, 2, 4, 6, 12, 15, 18, 21})},
      {"Div-6 axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[1,2,2,2] A, float[2] B) => (Y) { Y = Div<broadcast = 1, axis = 1>(A, B) })",
       {F({1, 2, 2, 2}, kNchw), F({2}, {2, 4})},
       F({1, 2, 2, 2}, {0, 0.5, 1, 1.5, 1, 1.25, 1.5, 1.75})},
      {"Add-6 [C,H] at axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[1,2,2,2] A, float[2,2] B) => (Y) { Y = Add<broadcast = 1, axis = 1>(A, B) })",
       {F({1, 2, 2, 2}, kNchw), F({2, 2}, {100, 200, 300, 400})},
       F({1, 2, 2, 2}, {100, 101, 202, 203, 304, 305, 406, 407})},
      {"Add-6 suffix",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[2,3] A, float[3] B) => (Y) { Y = Add<broadcast = 1>(A, B) })",
       {F({2, 3}, {0, 1, 2, 3, 4, 5}), F({3}, {10, 20, 30})},
       F({2, 3}, {10, 21, 32, 13, 24, 35})},
      // Size-1 dims of B ("1-dim expansion doesn't work yet" in the opset-6 text) read as numpy
      // does.
      {"Add-6 B [2,1]",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[2,3] A, float[2,1] B) => (Y) { Y = Add<broadcast = 1>(A, B) })",
       {F({2, 3}, {0, 1, 2, 3, 4, 5}), F({2, 1}, {10, 20})},
       F({2, 3}, {10, 11, 12, 23, 24, 25})},
      {"Mul-6 B [1,3]",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[2,3] A, float[1,3] B) => (Y) { Y = Mul<broadcast = 1>(A, B) })",
       {F({2, 3}, {0, 1, 2, 3, 4, 5}), F({1, 3}, {1, 10, 100})},
       F({2, 3}, {0, 10, 200, 3, 40, 500})},
      {"Div-6 B [3,1] at axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[2,3,2] A, float[3,1] B) => (Y) { Y = Div<broadcast = 1, axis = 1>(A, B) })",
       {F({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), F({3, 1}, {1, 2, 4})},
       F({2, 3, 2}, {0, 1, 1, 1.5, 1, 1.25, 6, 7, 4, 4.5, 2.5, 2.75})},
      {"Sub-6 B [2,1,1] at axis=0",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[2,2,2] A, float[2,1,1] B) => (Y) { Y = Sub<broadcast = 1, axis = 0>(A, B) })",
       {F({2, 2, 2}, kNchw), F({2, 1, 1}, {1, 2})},
       F({2, 2, 2}, {-1, 0, 1, 2, 2, 3, 4, 5})},
      {"Equal-1 B [1,3]",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (int32[2,3] A, int32[1,3] B) => (Y) { Y = Equal<broadcast = 1>(A, B) })",
       {I32({2, 3}, {1, 2, 3, 4, 5, 6}), I32({1, 3}, {1, 5, 7})},
       B({2, 3}, {true, false, false, false, true, false})},
      {"Add-1 scalar",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (float[2,2] A, float B) => (Y) { Y = Add<broadcast = 1>(A, B) })",
       {F({2, 2}, {1, 2, 3, 4}), F({}, {5})},
       F({2, 2}, {6, 7, 8, 9})},
      {"Mul-1 axis=0",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (float[2,2] A, float[2] B) => (Y) { Y = Mul<broadcast = 1, axis = 0>(A, B) })",
       {F({2, 2}, {1, 2, 3, 4}), F({2}, {10, 100})},
       F({2, 2}, {10, 20, 300, 400})},
      {"Pow-1 axis=0",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (float[2,2] A, float[2] B) => (Y) { Y = Pow<broadcast = 1, axis = 0>(A, B) })",
       {F({2, 2}, {1, 2, 3, 4}), F({2}, {2, 3})},
       F({2, 2}, {1, 4, 27, 64})},
      {"Gemm-6 C of shape [N]",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[2,2] A, float[2,3] B, float[3] C) => (Y) { Y = Gemm<broadcast = 1>(A, B, C) })",
       {F({2, 2}, {1, 2, 3, 4}), F({2, 3}, {1, 0, 1, 0, 1, 1}), F({3}, {10, 20, 30})},
       F({2, 3}, {11, 22, 33, 13, 24, 37})},
      {"Gemm-6 scalar C",
       R"(
        <ir_version: 3, opset_import: ["" : 6]>
        g (float[2,2] A, float[2,3] B, float C) => (Y) { Y = Gemm<broadcast = 1, alpha = 2.0>(A, B, C) })",
       {F({2, 2}, {1, 2, 3, 4}), F({2, 3}, {1, 0, 1, 0, 1, 1}), F({}, {0.5})},
       F({2, 3}, {2.5, 4.5, 6.5, 6.5, 8.5, 14.5})},
      {"Gemm-1 C of shape [1,N]",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (float[2,2] A, float[2,3] B, float[1,3] C) => (Y) { Y = Gemm<broadcast = 1, beta = 2.0>(A, B, C) })",
       {F({2, 2}, {1, 2, 3, 4}), F({2, 3}, {1, 0, 1, 0, 1, 1}), F({1, 3}, {1, 2, 3})},
       F({2, 3}, {3, 6, 9, 5, 8, 13})},
      {"Equal-1 axis=0",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (int32[2,3] A, int32[2] B) => (Y) { Y = Equal<broadcast = 1, axis = 0>(A, B) })",
       {I32({2, 3}, {1, 2, 3, 4, 5, 6}), I32({2}, {2, 5})},
       B({2, 3}, {false, true, false, false, true, false})},
      {"Greater-1 axis=0",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (float[2,3] A, float[2] B) => (Y) { Y = Greater<broadcast = 1, axis = 0>(A, B) })",
       {F({2, 3}, {1, 2, 3, 4, 5, 6}), F({2}, {2, 5})},
       B({2, 3}, {false, false, true, false, false, true})},
      {"Less-1 suffix",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (float[2,3] A, float[3] B) => (Y) { Y = Less<broadcast = 1>(A, B) })",
       {F({2, 3}, {1, 2, 3, 4, 5, 6}), F({3}, {2, 2, 5})},
       B({2, 3}, {true, false, true, false, false, false})},
      {"And-1 axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (bool[2,2,2] A, bool[2] B) => (Y) { Y = And<broadcast = 1, axis = 1>(A, B) })",
       {kBools, B({2}, {true, false})},
       B({2, 2, 2}, {true, false, false, false, true, true, false, false})},
      {"Or-1 axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (bool[2,2,2] A, bool[2] B) => (Y) { Y = Or<broadcast = 1, axis = 1>(A, B) })",
       {kBools, B({2}, {true, false})},
       B({2, 2, 2}, {true, true, true, true, true, true, false, true})},
      {"Xor-1 axis=1",
       R"(
        <ir_version: 3, opset_import: ["" : 1]>
        g (bool[2,2,2] A, bool[2] B) => (Y) { Y = Xor<broadcast = 1, axis = 1>(A, B) })",
       {kBools, B({2}, {true, false})},
       B({2, 2, 2}, {false, true, true, true, false, false, false, true})},
  };
}

// Runs `m` on the case's inputs and expects the hand-computed output.
void ExpectComputes(const ir::Model& m, const Case& c, const std::string& stage) {
  SCOPED_TRACE(stage);
  interpreter::Evaluator ev(m);
  std::vector<interpreter::RuntimeValue> inputs(c.inputs.begin(), c.inputs.end());
  auto r = ev.Run(std::move(inputs));
  ASSERT_TRUE(r.ok()) << r.status() << "\n" << Print(m);
  const Tensor& got = (*r)[0].tensor();
  ASSERT_EQ(got.dtype(), c.want.dtype());
  ASSERT_EQ(got.dims(), c.want.dims());
  switch (got.dtype()) {
    case DataType::kFloat:
      EXPECT_EQ(got.ToVector<float>(), c.want.ToVector<float>()) << Print(m);
      break;
    case DataType::kBool:
      EXPECT_EQ(got.ToVector<bool>(), c.want.ToVector<bool>()) << Print(m);
      break;
    default:
      FAIL() << "no comparison for this output type";
  }
}

// Infers `m`'s shapes (in place) and expects Y to have the wanted type and shape, without warnings.
void ExpectInferred(ir::Model& m, const Case& c, const std::string& stage) {
  SCOPED_TRACE(stage);
  std::vector<std::string> warnings;
  ASSERT_TRUE(schema::inference::InferShapes(m, {.warnings = &warnings}).ok());
  EXPECT_TRUE(warnings.empty()) << absl::StrJoin(warnings, "\n");
  const ir::Type& y = m.graph().outputs()[0]->type();
  EXPECT_EQ(y.ToString(),
            ir::Type::Tensor(c.want.dtype(), ir::Shape::FromSizes(c.want.dims())).ToString());
}

void ExpectChecked(const ir::Model& m) {
  schema::checker::CheckOptions options;
  options.require_main_graph_shapes = false;
  absl::Status s = schema::checker::CheckModel(m, options);
  EXPECT_TRUE(s.ok()) << s << "\n" << Print(m);
}

TEST(LegacyBroadcast, EachOperatorComputesTheSameAtEveryStage) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<ir::Model> old_model = ParseText(c.model);
    ASSERT_NE(old_model, nullptr);
    const int64_t old_opset = *OnnxOpsetOf(*old_model);
    absl::StatusOr<std::unique_ptr<ir::Model>> up = ConvertTo(*old_model, 21);
    ASSERT_TRUE(up.ok()) << up.status();

    // Inference types Y, which the checker then requires of a main graph output.
    ExpectInferred(*old_model, c, "original");
    ExpectChecked(*old_model);
    ExpectComputes(*old_model, c, "original");

    ExpectInferred(**up, c, "converted to 21");
    ExpectChecked(**up);
    ExpectComputes(**up, c, "converted to 21");

    absl::StatusOr<std::unique_ptr<ir::Model>> down = ConvertTo(**up, old_opset, /*infer=*/true);
    ASSERT_TRUE(down.ok()) << down.status() << "\n" << Print(**up);
    ExpectChecked(**down);
    ExpectComputes(**down, c, "converted back down");
  }
}

// B's size-1 dims expanding is said once, naming the node: by the checker where the declared shapes
// show it (every tool prints the checker's warnings on its input), else by the conversion's report.
TEST(LegacyBroadcast, SizeOneExpansionIsAWarning) {
  std::unique_ptr<ir::Model> declared = ParseText(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] A, float[2,1] B) => (float[2,3] Y) { Y = Add<broadcast = 1>(A, B) })");
  ASSERT_NE(declared, nullptr);
  schema::checker::CheckResult check = schema::checker::Check(*declared);
  EXPECT_TRUE(check.ok()) << absl::StrJoin(check.errors, "\n");
  EXPECT_EQ(
      absl::StrJoin(check.warnings, "\n"),
      "graph 'g', node 0 (Add): B of shape [2,1] has size 1 where A of shape [2,3] does not (axis "
      "1): "
      "read as numpy broadcasting reads it, as the exporters meant (the legacy rule says \"1-dim "
      "expansion doesn't work yet\")");
  ConvertOptions options;
  options.onnx_opset = 21;
  ConvertReport report;
  ASSERT_TRUE(ConvertModel(*declared, options, &report).ok());
  EXPECT_TRUE(report.warnings.empty()) << absl::StrJoin(report.warnings, "\n");

  // A computed: only inference knows its shape.
  std::unique_ptr<ir::Model> inferred = ParseText(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] X, float[1,3] B) => (float[2,3] Y) {
      A = Relu(X)
      Y = Mul<broadcast = 1>(A, B)
    })");
  ASSERT_NE(inferred, nullptr);
  check = schema::checker::Check(*inferred);
  EXPECT_TRUE(check.ok()) << absl::StrJoin(check.errors, "\n");
  EXPECT_TRUE(check.warnings.empty()) << absl::StrJoin(check.warnings, "\n");
  report = ConvertReport();
  absl::StatusOr<std::unique_ptr<ir::Model>> up = ConvertModel(*inferred, options, &report);
  ASSERT_TRUE(up.ok()) << up.status();
  EXPECT_EQ(absl::StrJoin(report.warnings, "\n"),
            "node producing 'Y' (Mul), Mul-6 -> Mul-7: B of shape [1,3] has size 1 where A of "
            "shape [2,3] does "
            "not (axis 0): read as numpy broadcasting reads it, as the exporters meant (the legacy "
            "rule says "
            "\"1-dim expansion doesn't work yet\")");
  // Nothing is said where B follows the rule, or where A's dim is 1 too.
  for (const char* text : {R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] A, float[3] B) => (float[2,3] Y) { Y = Add<broadcast = 1>(A, B) })",
                           R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,1] A, float[2,1] B) => (float[2,1] Y) { Y = Add<broadcast = 1>(A, B) })"}) {
    std::unique_ptr<ir::Model> m = ParseText(text);
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(schema::checker::Check(*m).warnings.empty()) << text;
    report = ConvertReport();
    ASSERT_TRUE(ConvertModel(*m, options, &report).ok()) << text;
    EXPECT_TRUE(report.warnings.empty()) << text << absl::StrJoin(report.warnings, "\n");
  }
}

// What the legacy rule refuses fails in the interpreter and is not converted into a model that
// runs.
TEST(LegacyBroadcast, BroadcastZeroNeedsEqualShapes) {
  const char* text = R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] A, float[3] B) => (Y) { Y = Add(A, B) })";
  std::unique_ptr<ir::Model> m = ParseText(text);
  ASSERT_NE(m, nullptr);
  interpreter::Evaluator ev(*m);
  auto r = ev.Run({F({2, 3}, {0, 1, 2, 3, 4, 5}), F({3}, {1, 2, 3})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("without broadcast=1 the inputs must have the same shape "
                                      "before opset 7; A is [2,3] and B is [3]"),
            std::string::npos)
      << r.status();
  ExpectRefusal(text, 7, "without broadcast=1 the inputs must have the same shape");
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,2] A, float[2,3] B, float[3] C) => (Y) { Y = Gemm(A, B, C) })",
                7,
                "without broadcast=1, C must have the shape of A * B before opset 7; C is [3], A * "
                "B is [2,3]");
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 1]>
    g (float[2,3] A, float[3] B) => (Y) { Y = Mul<broadcast = 1, axis = 0>(A, B) })",
                7, "does not match the dims of A");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
