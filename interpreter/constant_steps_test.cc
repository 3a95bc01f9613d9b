#include "interpreter/constant_steps.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "interpreter/evaluator.h"
#include "interpreter/execution_plan.h"
#include "interpreter/testing/test_util.h"
#include "ir/model.h"
#include "ir/text/parser.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;

std::unique_ptr<ir::Model> Parse(const char* text) {
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::text::ParseModel(text);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? std::move(*model) : nullptr;
}

// Same kinds, dims and bytes.
void ExpectSameBits(const std::vector<RuntimeValue>& got, const std::vector<RuntimeValue>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(got[i].is_tensor() && want[i].is_tensor()) << "output " << i;
    const Tensor& a = got[i].tensor();
    const Tensor& b = want[i].tensor();
    ASSERT_EQ(a.dtype(), b.dtype()) << "output " << i;
    ASSERT_EQ(a.dims(), b.dims()) << "output " << i;
    EXPECT_EQ(std::memcmp(a.raw(), b.raw(), a.size() * a.element_size()), 0) << "output " << i;
  }
}

// Weights built at run time as exporters write them; `bias` is a graph input with an initializer
// (the caller may give it), so what reads it is not constant, and an If whose branch captures a
// constant value.
constexpr char kWeightsModel[] = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x, bool c, float[3] bias = {1.0, 2.0, 3.0})
  => (float[2,3] y, float[2,3] w_copy, float[2,3] z)
<int64[2] shape = {2, 3}>
{
  fill = ConstantOfShape<value = float[1] {0.5}>(shape)
  two = Constant<value = float {2.0}>()
  half_w = Mul(fill, two)
  w = Sqrt(half_w)
  w_copy = Identity(w)
  xw = Mul(x, w)
  neg_bias = Neg(bias)
  y = Add(xw, neg_bias)
  z = If(c) <then_branch = t () => (float[2,3] a) { a = Max(x, w) },
             else_branch = e () => (float[2,3] b) { b = Min(x, w) }>
}
)";

TEST(ConstantStepsTest, MarksNodesOfConstantsOnlyAndKeepsWhatTheRestReads) {
  std::unique_ptr<ir::Model> m = Parse(kWeightsModel);
  ASSERT_NE(m, nullptr);
  absl::StatusOr<std::unique_ptr<ExecutionPlan>> plan = MakeExecutionPlan(m->graph());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const ConstantSteps steps = PlanConstantSteps(m->graph(), m.get(), **plan);
  std::map<std::string, bool> constant;
  for (size_t k = 0; k < (*plan)->order.size(); ++k) {
    constant[(*plan)->order[k]->output(0)->name()] = steps.constant[k] != 0;
  }
  EXPECT_EQ(constant, (std::map<std::string, bool>{{"fill", true},
                                                   {"two", true},
                                                   {"half_w", true},
                                                   {"w", true},
                                                   {"w_copy", true},
                                                   {"xw", false},
                                                   {"neg_bias", false},
                                                   {"y", false},
                                                   {"z", false}}));
  EXPECT_EQ(steps.num_constant, 5u);
  std::vector<std::string> kept;
  for (const auto& [value, slot] : (*plan)->slot_of) {
    if (steps.kept[slot]) kept.push_back(value->name());
  }
  std::sort(kept.begin(), kept.end());
  // w: read by Mul and captured by the If; w_copy: a graph output. The intermediates go.
  EXPECT_EQ(kept, (std::vector<std::string>{"w", "w_copy"}));
}

TEST(ConstantStepsTest, LaterRunsSkipConstantNodesAndGiveTheSameBits) {
  std::unique_ptr<ir::Model> m = Parse(kWeightsModel);
  ASSERT_NE(m, nullptr);
  Evaluator cached(*m, {.cache_constants = true});
  Evaluator uncached(*m);
  std::map<std::string, Evaluator::OpProfile> profile;
  cached.EnableProfiling(&profile);
  constexpr int kRuns = 4;
  for (int run = 0; run < kRuns; ++run) {
    SCOPED_TRACE(::testing::Message() << "run " << run);
    const Tensor x = F({2, 3}, {1.0f * run, -2, 3, -4, 5, 0.25f});
    const Tensor c = Tensor::Scalar<bool>(DataType::kBool, run % 2 == 0);
    absl::StatusOr<std::vector<RuntimeValue>> got = cached.Run({x, c});
    absl::StatusOr<std::vector<RuntimeValue>> want = uncached.Run({x, c});
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_TRUE(want.ok()) << want.status();
    ExpectSameBits(*got, *want);
  }
  // The constant nodes ran on the first run only; the others on every run.
  for (const char* op : {"ConstantOfShape", "Constant", "Sqrt", "Identity"}) {
    EXPECT_EQ(profile[op].calls, 1) << op;
  }
  EXPECT_EQ(profile["Mul"].calls, kRuns + 1) << "Mul";  // half_w once, xw every run
  for (const char* op : {"Neg", "Add", "If"}) EXPECT_EQ(profile[op].calls, kRuns) << op;
}

// Constants inside subgraphs: an If branch and a Loop body build a value from constants only, which
// a kept evaluator computes once (not on every run, nor on every iteration); a model-local function
// whose Constant reads the caller's attribute is called from two sites with different values, and
// each call keeps its own (function bodies are never cached).
constexpr char kSubgraphModel[] = R"(
<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
g (float[2] x, bool c, int64 n) => (float[2] z, float[2] v, float[2] p, float[2] q)
<float[2] v0 = {0.0, 0.0}>
{
  z = If(c) <then_branch = t () => (float[2] a) {
                 k = Constant<value = float[2] {1.0, 2.0}>()
                 k2 = Mul(k, k)
                 a = Add(x, k2)
               },
             else_branch = e () => (float[2] b) { b = Neg(x) }>
  v = Loop(n, , v0) <body = body (int64 i, bool cond, float[2] acc) => (bool cond_out, float[2] acc_out) {
                       cond_out = Identity(cond)
                       quarter = Constant<value = float[2] {0.25, 0.25}>()
                       root = Sqrt(quarter)
                       s = Shape(acc)
                       ones = ConstantOfShape<value = float[1] {1.0}>(s)
                       step = Div(root, ones)
                       acc_out = Add(acc, step)
                     }>
  p = local.addc<c = 3.0>(x)
  q = local.addc<c = -1.0>(x)
}
<domain: "local", opset_import: ["" : 17]>
addc <c> (x) => (y) {
  t = Constant<value_float: float = @c>()
  y = Add(x, t)
}
)";

TEST(ConstantStepsTest, SubgraphConstantsAreComputedOnceAndFunctionBodiesPerCall) {
  std::unique_ptr<ir::Model> m = Parse(kSubgraphModel);
  ASSERT_NE(m, nullptr);
  Evaluator cached(*m, {.cache_constants = true});
  Evaluator uncached(*m);
  std::map<std::string, Evaluator::OpProfile> profile;
  cached.EnableProfiling(&profile);
  constexpr int kRuns = 3;
  constexpr int64_t kIterations = 4;
  for (int run = 0; run < kRuns; ++run) {
    SCOPED_TRACE(::testing::Message() << "run " << run);
    const std::vector<RuntimeValue> inputs = {
        F({2}, {1.0f * run, -2}), Tensor::Scalar<bool>(DataType::kBool, true),
        Tensor::Scalar<int64_t>(DataType::kInt64, kIterations)};
    absl::StatusOr<std::vector<RuntimeValue>> got = cached.Run(inputs);
    absl::StatusOr<std::vector<RuntimeValue>> want = uncached.Run(inputs);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_TRUE(want.ok()) << want.status();
    ExpectSameBits(*got, *want);
    EXPECT_EQ((*got)[0].tensor().ToVector<float>(), (std::vector<float>{1.0f * run + 1, 2}));
    EXPECT_EQ((*got)[1].tensor().ToVector<float>(), (std::vector<float>{2, 2}));
    EXPECT_EQ((*got)[2].tensor().ToVector<float>(), (std::vector<float>{3.0f + run, 1}));
    EXPECT_EQ((*got)[3].tensor().ToVector<float>(), (std::vector<float>{run - 1.0f, -3}));
  }
  // The branch's k and k2 once, the body's quarter and root once for every run and iteration; the
  // body's Shape, ConstantOfShape and Div on every iteration (Shape reads a body input).
  EXPECT_EQ(profile["Mul"].calls, 1);
  EXPECT_EQ(profile["Sqrt"].calls, 1);
  EXPECT_EQ(profile["If"].calls, kRuns);
  EXPECT_EQ(profile["Shape"].calls, kRuns * kIterations);
  EXPECT_EQ(profile["ConstantOfShape"].calls, kRuns * kIterations);
  EXPECT_EQ(profile["Div"].calls, kRuns * kIterations);
  // Two Constants per run in the function bodies (one per call site), the subgraphs' once each.
  EXPECT_EQ(profile["Constant"].calls, 2 * kRuns + 2);
}

// An initializer that is also a graph input is a default the caller may override on any run: the
// nodes reading it are not cached.
TEST(ConstantStepsTest, AnInitializerTheCallerOverridesIsHonouredOnLaterRuns) {
  std::unique_ptr<ir::Model> m = Parse(kWeightsModel);
  ASSERT_NE(m, nullptr);
  Evaluator ev(*m, {.cache_constants = true});
  const Tensor x = F({2, 3}, {0, 0, 0, 0, 0, 0});
  const Tensor c = Tensor::Scalar<bool>(DataType::kBool, true);
  absl::StatusOr<std::vector<RuntimeValue>> first = ev.Run({x, c});
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ((*first)[0].tensor().ToVector<float>(), (std::vector<float>{-1, -2, -3, -1, -2, -3}));
  absl::StatusOr<std::vector<RuntimeValue>> second = ev.Run({x, c, F({3}, {10, 20, 30})});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ((*second)[0].tensor().ToVector<float>(),
            (std::vector<float>{-10, -20, -30, -10, -20, -30}));
  absl::StatusOr<std::vector<RuntimeValue>> third = ev.Run({x, c});  // the default again
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_EQ((*third)[0].tensor().ToVector<float>(), (std::vector<float>{-1, -2, -3, -1, -2, -3}));
  // The constant weight itself: sqrt(0.5 * 2) = 1 everywhere.
  EXPECT_EQ((*third)[1].tensor().ToVector<float>(), (std::vector<float>(6, 1.0f)));
}

// Random operators draw on every run, and what reads them is computed again too; a model-local
// function holding one counts as random.
TEST(ConstantStepsTest, RandomOperatorsAreNotCached) {
  std::unique_ptr<ir::Model> m = Parse(R"(
<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
g (float[3] x) => (float[3] y, float[3] u, float[3] d)
{
  r = RandomUniform<shape = [3], seed = 1.0>()
  k = Constant<value = float[3] {1.0, 2.0, 3.0}>()
  rk = Mul(r, k)
  y = Add(x, rk)
  u = local.Draw(k)
  d = Dropout<seed = 3>(k)
}
<domain: "local", opset_import: ["" : 17]>
Draw (a) => (b) {
  n = RandomNormalLike<seed = 2.0>(a)
  b = Add(a, n)
}
)");
  ASSERT_NE(m, nullptr);
  absl::StatusOr<std::unique_ptr<ExecutionPlan>> plan = MakeExecutionPlan(m->graph());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const ConstantSteps steps = PlanConstantSteps(m->graph(), m.get(), **plan);
  std::map<std::string, bool> constant;
  for (size_t k = 0; k < (*plan)->order.size(); ++k) {
    constant[(*plan)->order[k]->output(0)->name()] = steps.constant[k] != 0;
  }
  // Dropout counts as random (its training_mode may be a run-time input), as in every pass.
  EXPECT_EQ(
      constant,
      (std::map<std::string, bool>{
          {"r", false}, {"k", true}, {"rk", false}, {"y", false}, {"u", false}, {"d", false}}));

  Evaluator cached(*m, {.cache_constants = true});
  Evaluator uncached(*m);
  std::map<std::string, Evaluator::OpProfile> profile;
  cached.EnableProfiling(&profile);
  for (int run = 0; run < 3; ++run) {
    const Tensor x = F({3}, {1, 2, 1.0f * run});
    absl::StatusOr<std::vector<RuntimeValue>> got = cached.Run({x});
    absl::StatusOr<std::vector<RuntimeValue>> want = uncached.Run({x});
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_TRUE(want.ok()) << want.status();
    ExpectSameBits(*got, *want);
  }
  EXPECT_EQ(profile["RandomUniform"].calls, 3);
  EXPECT_EQ(profile["RandomNormalLike"].calls, 3);
  EXPECT_EQ(profile["local::Draw"].calls, 3);
  EXPECT_EQ(profile["Mul"].calls, 3);
  EXPECT_EQ(profile["Constant"].calls, 1);
  EXPECT_EQ(profile["Dropout"].calls, 3);
}

// A constant Conv whose folded activation reads a graph input applies no epilogue: its own output
// is what later runs need.
TEST(ConstantStepsTest, AConstantConvKeepsItsOutputWhenItsActivationIsNot) {
  std::unique_ptr<ir::Model> m = Parse(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float lo, float hi) => (float[1,2,3,3] y)
<int64[4] shape = {1, 1, 3, 3}, float[2,1,1,1] w = {2.0, -3.0}, float[2] b = {0.5, -0.5}>
{
  image = ConstantOfShape<value = float[1] {1.5}>(shape)
  c = Conv(image, w, b)
  y = Clip(c, lo, hi)
}
)");
  ASSERT_NE(m, nullptr);
  Evaluator cached(*m, {.cache_constants = true});
  std::map<std::string, Evaluator::OpProfile> profile;
  cached.EnableProfiling(&profile);
  for (float lo : {-10.0f, 0.0f, -4.0f}) {
    const std::vector<RuntimeValue> inputs = {Tensor::Scalar<float>(DataType::kFloat, lo),
                                              Tensor::Scalar<float>(DataType::kFloat, 3.0f)};
    absl::StatusOr<std::vector<RuntimeValue>> got = cached.Run(inputs);
    absl::StatusOr<std::vector<RuntimeValue>> want = Evaluator(*m).Run(inputs);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_TRUE(want.ok()) << want.status();
    ExpectSameBits(*got, *want);
    EXPECT_EQ((*got)[0].tensor().ToVector<float>()[0], 3.0f);  // 1.5 * 2 + 0.5, clipped
    EXPECT_EQ((*got)[0].tensor().ToVector<float>()[9], std::max(lo, -5.0f));  // 1.5 * -3 - 0.5
  }
  EXPECT_EQ(profile["Conv"].calls, 1);
  EXPECT_EQ(profile["Clip"].calls, 3);
}

// A run that fails leaves nothing half-kept: the next one fills the cache again.
TEST(ConstantStepsTest, AFailedRunFillsTheCacheOnTheNextOne) {
  std::unique_ptr<ir::Model> m = Parse(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x, int64[1] s) => (float[2] y)
<int64[1] shape = {2}>
{
  w = ConstantOfShape<value = float[1] {4.0}>(shape)
  xs = Reshape(x, s)
  y = Add(xs, w)
}
)");
  ASSERT_NE(m, nullptr);
  Evaluator ev(*m, {.cache_constants = true});
  const Tensor x = F({2}, {1, 2});
  EXPECT_FALSE(ev.Run({x, testing::I64({1}, {3})}).ok());
  for (int run = 0; run < 2; ++run) {
    absl::StatusOr<std::vector<RuntimeValue>> out = ev.Run({x, testing::I64({1}, {2})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].tensor().ToVector<float>(), (std::vector<float>{5, 6}));
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter
