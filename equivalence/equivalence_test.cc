// Random inputs from declared shapes, the sizes free dims are run at, and whole-model checks (the
// comparison rules themselves are in compare_test.cc).
#include "equivalence/equivalence.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/tensor.h"
#include "interpreter/value.h"
#include "ir/text/parser.h"

namespace onnx_opt::equivalence {
namespace {

using interpreter::RuntimeValue;
using interpreter::Tensor;

std::unique_ptr<ir::Model> Parse(const std::string& text) {
  auto m = ir::text::ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status() << "\n" << text;
  return m.ok() ? *std::move(m) : nullptr;
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
  EXPECT_TRUE(CompareOutputs({"x"}, *a, *b, options.tolerances)[0].equal);
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

// A rewrite that is right only at batch 1: Squeeze of the batch axis then Unsqueeze back is the
// identity at N=1 and an error otherwise; ReduceSum over a broadcast batch is the identity at N=1.
TEST(CheckEquivalent, ARewriteRightOnlyAtBatchOneIsCaught) {
  std::unique_ptr<ir::Model> original = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 3] x, float[1, 3] b) => (float[1, 3] y) {
  s = Add(x, b)
  y = ReduceSum<keepdims = 1>(s, axes)
  axes = Constant<value = int64[1] {0}>()
})");
  std::unique_ptr<ir::Model> batch_one = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 3] x, float[1, 3] b) => (float[1, 3] y) {
  y = Add(x, b)
})");
  ASSERT_NE(original, nullptr);
  ASSERT_NE(batch_one, nullptr);
  // Fixed at 1 by the user, they agree.
  EquivalenceOptions at_one;
  at_one.dims["N"] = 1;
  EXPECT_TRUE(CheckEquivalent(*original, *batch_one, at_one).ok());
  // Left free, N is run at 2 (and 3): they differ.
  absl::Status s = CheckEquivalent(*original, *batch_one);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("N=2"), std::string::npos) << s;
}

TEST(MakeReferences, FreeDimsRunAtTwoThenAtThreeAndFourInTurn) {
  std::unique_ptr<ir::Model> m = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N, S] x, float[S, M] w) => (float[N, M] y) {
  y = MatMul(x, w)
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<References> refs = MakeReferences(*m, EquivalenceOptions{});
  ASSERT_TRUE(refs.ok()) << refs.status();
  ASSERT_EQ(refs->runs.size(), 2u);
  EXPECT_EQ(refs->runs[0].sizes, "N=2, S=2, M=2");
  EXPECT_EQ(refs->runs[0].inputs[0].tensor().dims(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(refs->runs[1].sizes, "N=3, S=4, M=3");
  EXPECT_EQ(refs->runs[1].inputs[1].tensor().dims(), (std::vector<int64_t>{4, 3}));
  EXPECT_TRUE(refs->notes.empty());
  // A dim the user fixes stays fixed; an explicit default_dim makes one run.
  EquivalenceOptions fixed;
  fixed.dims["S"] = 5;
  fixed.default_dim = 7;
  refs = MakeReferences(*m, fixed);
  ASSERT_TRUE(refs.ok()) << refs.status();
  ASSERT_EQ(refs->runs.size(), 1u);
  EXPECT_EQ(refs->runs[0].inputs[0].tensor().dims(), (std::vector<int64_t>{7, 5}));
}

TEST(MakeReferences, AModelThatNeedsItsSymbolsEqualRunsThemEqual) {
  // A and B must be equal (Add without broadcasting): 3 and 4 fail, so the second run has both
  // at 3.
  std::unique_ptr<ir::Model> m = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[A] x, float[B] z) => (float[A] y) {
  y = Add(x, z)
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<References> refs = MakeReferences(*m, EquivalenceOptions{});
  ASSERT_TRUE(refs.ok()) << refs.status();
  ASSERT_EQ(refs->runs.size(), 2u);
  EXPECT_EQ(refs->runs[1].sizes, "A=3, B=3");
}

TEST(MakeReferences, ADimThatMustBeOneFallsBackToOneWithANote) {
  // Reshape to [3] only works when N is 1.
  std::unique_ptr<ir::Model> m = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 3] x) => (float[3] y) {
  shape = Constant<value = int64[1] {3}>()
  y = Reshape(x, shape)
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<References> refs = MakeReferences(*m, EquivalenceOptions{});
  ASSERT_TRUE(refs.ok()) << refs.status();
  ASSERT_EQ(refs->runs.size(), 1u);
  EXPECT_EQ(refs->runs[0].sizes, "N=1");
  ASSERT_EQ(refs->notes.size(), 1u);
  EXPECT_NE(refs->notes[0].find("run at 1"), std::string::npos) << refs->notes[0];
}

// IR < 4: weights are graph inputs too, and often come first; random inputs leave them empty so the
// initializers are used, and the data input after them gets a value.
TEST(MakeRandomInputs, InputsWithInitializersBeforeTheDataKeepTheirValues) {
  std::unique_ptr<ir::Model> m = Parse(R"(<ir_version: 3, opset_import: ["" : 9]>
g (float[2] w, float[N, 2] data) => (float[N, 2] y)
  <float[2] w = {10, 20}> {
  y = Add(data, w)
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<std::vector<RuntimeValue>> inputs = MakeRandomInputs(*m, EquivalenceOptions{});
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  ASSERT_EQ(inputs->size(), 2u);
  EXPECT_EQ((*inputs)[0].kind(), RuntimeValue::Kind::kNone);
  EXPECT_EQ((*inputs)[1].tensor().dims(), (std::vector<int64_t>{1, 2}));
  absl::StatusOr<std::vector<RuntimeValue>> out = RunModel(*m, *inputs);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_GT((*out)[0].tensor().data<float>()[1], 18.0f);
  EXPECT_TRUE(CheckEquivalent(*m, *m).ok());
}

// Another tool's rewrite may list the inputs and outputs in another order: inputs are fed by name
// and outputs that carry the same names are compared by name.
TEST(CheckEquivalent, InputsAndOutputsInAnotherOrderAreMatchedByName) {
  std::unique_ptr<ir::Model> a = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N] x, float[N] z) => (float[N] s, float[N] d) {
  s = Add(x, z)
  d = Sub(x, z)
})");
  std::unique_ptr<ir::Model> b = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N] z, float[N] x) => (float[N] d, float[N] s) {
  d = Sub(x, z)
  s = Add(z, x)
})");
  std::unique_ptr<ir::Model> c = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N] z, float[N] x) => (float[N] d, float[N] s) {
  d = Sub(z, x)
  s = Add(z, x)
})");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(c, nullptr);
  std::vector<OutputDifference> report;
  EXPECT_TRUE(CheckEquivalent(*a, *b, EquivalenceOptions{}, &report).ok());
  ASSERT_EQ(report.size(), 2u);
  EXPECT_EQ(report[0].output, "s");
  absl::Status s = CheckEquivalent(*a, *c);
  EXPECT_NE(s.message().find("output 'd' differs"), std::string::npos) << s;
}

// A KV cache: the mask covers past + new positions (T = P + S). Every free dim at 2 does not run,
// and at 1 the output contradicts its declared total length: the check asks for --dim instead of
// proving anything at sizes the model's own declarations rule out.
TEST(MakeReferences, SizesThatBreakTheDeclaredShapesAreNotUsed) {
  std::unique_ptr<ir::Model> m = Parse(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[P, 4] past, float[S, 4] x, float[T] mask) => (float[T, 4] present) {
  present = Concat<axis = 0>(past, x)
  m2 = Unsqueeze(mask, axes)
  axes = Constant<value = int64[1] {1}>()
  checked = Mul(present, m2)
})");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<References> refs = MakeReferences(*m, EquivalenceOptions{});
  EXPECT_FALSE(refs.ok());
  EXPECT_NE(refs.status().message().find("--dim"), std::string::npos) << refs.status();
  EquivalenceOptions consistent;
  consistent.dims = {{"P", 3}, {"S", 2}, {"T", 5}};
  refs = MakeReferences(*m, consistent);
  EXPECT_TRUE(refs.ok()) << refs.status();
}

}  // namespace
}  // namespace onnx_opt::equivalence
