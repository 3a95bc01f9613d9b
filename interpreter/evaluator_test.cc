#include "interpreter/evaluator.h"

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/testing/test_util.h"
#include "ir/function.h"
#include "ir/model.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;

TEST(EvaluatorTest, RunsNodesInTopologicalOrderEvenIfListedOutOfOrder) {
  ir::Graph g("g");
  ir::Value* x = g.AddInput("x");
  // Append the consumer first, then its producer.
  std::unique_ptr<ir::Node> relu = ir::Node::Create("", "Relu", {}, {"y"});
  ir::Node* neg = g.AddNode("Neg", {x}, {"n"});
  ir::Node* r = g.InsertBefore(neg, std::move(relu));
  r->AddInput(neg->output(0));
  g.AddOutput(r->output(0));
  Evaluator ev(g, {{"", 17}});
  auto out = ev.Run({F({2}, {1, -2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].tensor().ToVector<float>(), (std::vector<float>{0, 2}));
}

TEST(EvaluatorTest, UnsupportedOpIsAClearError) {
  ir::Graph g("g");
  ir::Node* n = g.AddNode("NoSuchOp", {g.AddInput("x")}, {"y"});
  g.AddOutput(n->output(0));
  Evaluator ev(g, {{"", 17}});
  auto out = ev.Run({F({1}, {1})});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("NoSuchOp"), std::string::npos);
}

// IR < 4 lists weights among the graph inputs, often before the data: an empty value for such an
// input keeps its initializer, a tensor overrides it.
TEST(EvaluatorTest, AnEmptyValueForAnInputWithAnInitializerKeepsIt) {
  ir::Graph g("g");
  ir::Value* w = g.AddInput("w");
  g.SetInitializer(w, ir::Tensor::FromVector<float>(DataType::kFloat, {2}, {10, 20}));
  ir::Value* x = g.AddInput("x");
  ir::Node* add = g.AddNode("Add", {w, x}, {"y"});
  g.AddOutput(add->output(0));
  Evaluator ev(g, {{"", 17}});
  auto out = ev.Run({RuntimeValue(), F({2}, {1, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].tensor().ToVector<float>(), (std::vector<float>{11, 22}));
  out = ev.Run({F({2}, {0, 0}), F({2}, {1, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].tensor().ToVector<float>(), (std::vector<float>{1, 2}));
  // An input without an initializer needs a value.
  out = ev.Run({RuntimeValue()});
  EXPECT_FALSE(out.ok());
}

TEST(EvaluatorTest, IfCapturesOuterValues) {
  ir::Graph g("g");
  ir::Value* c = g.AddInput("c");
  ir::Value* x = g.AddInput("x");
  auto then_g = std::make_unique<ir::Graph>("then");
  ir::Node* neg = then_g->AddNode("Neg", {x}, {"t"});
  then_g->AddOutput(neg->output(0));
  auto else_g = std::make_unique<ir::Graph>("else");
  ir::Node* id = else_g->AddNode("Identity", {x}, {"e"});
  else_g->AddOutput(id->output(0));
  ir::Node* iff = g.AddNode("If", {c}, {"y"});
  iff->SetAttribute(ir::Attribute::FromGraph("then_branch", std::move(then_g)));
  iff->SetAttribute(ir::Attribute::FromGraph("else_branch", std::move(else_g)));
  g.AddOutput(iff->output(0));
  Evaluator ev(g, {{"", 17}});
  auto out = ev.Run({Tensor::Scalar<bool>(DataType::kBool, true), F({1}, {3})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].tensor().ToVector<float>()[0], -3);
}

TEST(EvaluatorTest, ExpandsModelLocalFunctionsWithAttributeReferences) {
  ir::Model m;
  m.set_graph(std::make_unique<ir::Graph>("main"));
  m.mutable_opset_imports() = {{"", 17}, {"local", 1}};
  auto fn = std::make_unique<ir::Function>("local", "Scale");
  fn->mutable_opset_imports() = {{"", 17}};
  ir::Value* fx = fn->body().AddInput("x");
  ir::Node* k = fn->body().AddNode("Constant", {}, {"k"});
  k->SetAttribute(ir::Attribute::Reference("value_float", ir::AttributeKind::kFloat, "factor"));
  ir::Node* mul = fn->body().AddNode("Mul", {fx, k->output(0)}, {"y"});
  fn->body().AddOutput(mul->output(0));
  m.mutable_functions().push_back(std::move(fn));
  ir::Node* call = m.graph().AddNode("Scale", {m.graph().AddInput("x")}, {"out"}, "local");
  call->SetAttribute(ir::Attribute::Float("factor", 3));
  m.graph().AddOutput(call->output(0));
  Evaluator ev(m);
  auto out = ev.Run({F({2}, {1, 2})});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].tensor().ToVector<float>(), (std::vector<float>{3, 6}));
}

// Outputs are written in place over inputs that die at their node; a value with another use later,
// a graph output, a view shared with another value, or a tensor the caller still holds must
// survive.
TEST(EvaluatorTest, InPlaceOutputsNeverClobberLiveValues) {
  ir::Graph g("g");
  ir::Value* x = g.AddInput("x");
  ir::Node* relu = g.AddNode("Relu", {x}, {"r"});                  // x is the caller's: kept
  ir::Node* sig = g.AddNode("Sigmoid", {relu->output(0)}, {"s"});  // r used again below
  ir::Node* add = g.AddNode("Add", {relu->output(0), sig->output(0)}, {"a"});  // r and s die here
  ir::Node* resh = g.AddNode("Flatten", {add->output(0)}, {"v"});              // v is a view of a
  ir::Node* neg = g.AddNode("Neg", {add->output(0)}, {"n"});    // a dies, but v shares it
  ir::Node* tanh = g.AddNode("Tanh", {neg->output(0)}, {"t"});  // n dies here: in place
  g.AddOutput(tanh->output(0));
  g.AddOutput(resh->output(0));
  g.AddOutput(relu->output(0));
  Evaluator ev(g, {{"", 17}});
  const Tensor input = F({4}, {-1, 0.5f, 2, -3});
  auto out = ev.Run({input});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(input.ToVector<float>(), (std::vector<float>{-1, 0.5f, 2, -3}));
  std::vector<float> r, a, t;
  for (float v : input.ToVector<float>()) {
    const float rv = v > 0 ? v : 0;
    r.push_back(rv);
    a.push_back(rv + 1 / (1 + std::exp(-rv)));
    t.push_back(std::tanh(-a.back()));
  }
  const std::vector<float> got_t = (*out)[0].tensor().ToVector<float>();
  const std::vector<float> got_a = (*out)[1].tensor().ToVector<float>();
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_NEAR(got_t[i], t[i], 1e-6);
    EXPECT_NEAR(got_a[i], a[i], 1e-6);
  }
  EXPECT_EQ((*out)[2].tensor().ToVector<float>(), r);
}

// Conv -> BatchNormalization -> activation chains are run as one Conv with an epilogue (on AVX-512
// applied by the GEMM as it stores its output, Relu and Clip included); the result must have the
// same bits as the separate nodes (forced here by making the links graph outputs, which the
// evaluator never folds).
// A graph built node by node: its last value, the links between its nodes (made graph outputs to
// keep the nodes apart), and initializers of values in [lo, hi] with full mantissas, so that
// products round (a multiply-add rounded once or twice gives other bits).
struct ChainGraph {
  ir::Graph g;
  ir::Value* last = nullptr;
  std::vector<ir::Value*> links;

  explicit ChainGraph(const std::string& name) : g(name) {}
  ir::Value* Init(const std::string& name, std::vector<int64_t> dims, float lo, float hi) {
    std::vector<float> v(NumElements(dims));
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = lo + (hi - lo) * (0.5f + 0.5f * std::sin(static_cast<float>(i) * 1.3f + 0.1f));
    ir::Tensor t = ir::Tensor::FromVector<float>(ir::DataType::kFloat, std::move(dims), v);
    t.set_name(name);
    return g.AddInitializer(std::move(t));
  }
};

struct ConvChain : ChainGraph {
  ConvChain(int64_t group, bool bn, const std::string& act, int64_t C = 4, int64_t k = 3)
      : ChainGraph("chain") {
    ir::Node* conv = g.AddNode(
        "Conv", {g.AddInput("x"), Init("w", {C, C / group, k, k}, -1, 1), Init("b", {C}, -1, 1)},
        {"c"});
    conv->SetAttribute(ir::Attribute::Ints("pads", {k / 2, k / 2, k / 2, k / 2}));
    conv->SetAttribute(ir::Attribute::Int("group", group));
    last = conv->output(0);
    if (bn) {
      ir::Node* n = g.AddNode("BatchNormalization",
                              {last, Init("s", {C}, 0.5f, 2), Init("bb", {C}, -1, 1),
                               Init("m", {C}, -0.5f, 0.5f), Init("v", {C}, 0.1f, 2)},
                              {"n"});
      links.push_back(last);
      last = n->output(0);
    }
    if (act == "Clip") {
      ir::Node* n = g.AddNode(
          "Clip", {last, Init("lo", {}, -0.5f, -0.5f), Init("hi", {}, 1.5f, 1.5f)}, {"a"});
      links.push_back(last);
      last = n->output(0);
    } else if (!act.empty()) {
      ir::Node* n = g.AddNode(act, {last}, {"a"});
      links.push_back(last);
      last = n->output(0);
    }
    g.AddOutput(last);
  }
};

// Runs the chain folded and as separate nodes on x; the two must have the same bits.
void ExpectFoldedChainMatchesSeparateNodes(const Tensor& x, int64_t group, bool bn,
                                           const std::string& act, int64_t k) {
  SCOPED_TRACE(::testing::Message()
               << "channels " << x.dim(1) << " kernel " << k << " plane " << x.dim(2) << "x"
               << x.dim(3) << " group " << group << " bn " << bn << " act " << act);
  ConvChain folded(group, bn, act, x.dim(1), k), separate(group, bn, act, x.dim(1), k);
  for (ir::Value* v : separate.links) separate.g.AddOutput(v);
  Evaluator folded_ev(folded.g, {{"", 17}});
  std::map<std::string, Evaluator::OpProfile> profile;
  folded_ev.EnableProfiling(&profile);
  auto b = Evaluator(separate.g, {{"", 17}}).Run({x});
  ASSERT_TRUE(b.ok()) << b.status();
  const Tensor& fb = (*b)[0].tensor();
  // Twice: the second run takes the epilogue the first one kept.
  for (int run = 0; run < 2; ++run) {
    auto a = folded_ev.Run({x});
    ASSERT_TRUE(a.ok()) << a.status();
    const Tensor& fa = (*a)[0].tensor();
    ASSERT_EQ(fa.dims(), fb.dims());
    EXPECT_EQ(std::memcmp(fa.raw(), fb.raw(), fa.size() * sizeof(float)), 0) << "run " << run;
  }
  // Only the Conv ran: the rest was its epilogue.
  EXPECT_EQ(profile.size(), 1u);
  EXPECT_TRUE(profile.contains("Conv"));
}

Tensor ChainInput(std::vector<int64_t> dims) {
  Tensor x(DataType::kFloat, std::move(dims));
  for (int64_t i = 0; i < x.size(); ++i)
    x.mutable_data<float>()[i] = 1.5f * std::sin(static_cast<float>(i) * 0.7f);
  return x;
}

TEST(EvaluatorTest, FoldedConvEpiloguesMatchSeparateNodesBitForBit) {
  const Tensor x = ChainInput({2, 4, 7, 6});
  for (int64_t group : {1, 4}) {
    for (bool bn : {false, true}) {
      for (std::string act : {"", "Relu", "Clip", "HardSwish", "Sigmoid"}) {
        if (!bn && act.empty()) continue;
        ExpectFoldedChainMatchesSeparateNodes(x, group, bn, act, 3);
      }
    }
  }
}

// A folded BatchNormalization whose statistics are graph inputs: its epilogue is worked out on
// every run (only one built from constants is kept), so each run follows the mean it is given.
TEST(EvaluatorTest, AFoldedEpilogueFromGraphInputsFollowsEachRun) {
  auto make = [](bool separate) {
    auto chain = std::make_unique<ChainGraph>("bn_inputs");
    ir::Graph& g = chain->g;
    ir::Node* conv = g.AddNode(
        "Conv",
        {g.AddInput("x"), chain->Init("w", {4, 4, 1, 1}, -1, 1), chain->Init("b", {4}, -1, 1)},
        {"c"});
    ir::Node* bn =
        g.AddNode("BatchNormalization",
                  {conv->output(0), chain->Init("s", {4}, 0.5f, 2), chain->Init("bb", {4}, -1, 1),
                   g.AddInput("mean"), chain->Init("v", {4}, 0.1f, 2)},
                  {"n"});
    g.AddOutput(bn->output(0));
    if (separate) g.AddOutput(conv->output(0));
    return chain;
  };
  auto folded = make(false), separate = make(true);
  Evaluator folded_ev(folded->g, {{"", 17}});
  Evaluator separate_ev(separate->g, {{"", 17}});
  const Tensor x = ChainInput({1, 4, 5, 5});
  std::vector<std::vector<float>> results;
  for (float m : {0.0f, 0.75f, 0.0f}) {
    const Tensor mean = Tensor::FromVector<float>(DataType::kFloat, {4}, {m, -m, 2 * m, 0.5f});
    auto a = folded_ev.Run({x, mean});
    auto b = separate_ev.Run({x, mean});
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ((*a)[0].tensor().ToVector<float>(), (*b)[0].tensor().ToVector<float>()) << m;
    results.push_back((*a)[0].tensor().ToVector<float>());
  }
  EXPECT_NE(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

// An evaluator that packs weights (EvaluatorOptions::pack_weights: a MatMul's constant B copied
// once into the GEMM's strips, on AVX2 and AVX-512) computes the bits of one that reads them in
// place, run after run, untiled and in tiles, over a batch of matrices; a B given as a graph input
// is not kept from one run to the next.
TEST(EvaluatorTest, PackedWeightsGiveTheBitsOfWeightsInPlaceOnEveryRun) {
  if (DetectedIsa() < Isa::kAvx2) GTEST_SKIP() << "the packed GEMM needs AVX2; this CPU lacks it";
  struct Shape {
    int64_t batch, M, K, N;
  };
  for (Isa isa : SupportedIsas()) {
    if (isa == Isa::kBaseline) continue;
    ASSERT_TRUE(SetActiveIsa(isa).ok());
    for (const Shape& sh : {Shape{1, 20, 40, 45}, Shape{2, 64, 300, 200}}) {
      SCOPED_TRACE(
          absl::StrCat(std::string(IsaName(isa)), " ", sh.batch, "x", sh.M, "x", sh.K, "x", sh.N));
      for (bool weight_is_input : {false, true}) {
        ChainGraph chain("matmul");
        ir::Value* w =
            weight_is_input ? chain.g.AddInput("w") : chain.Init("w", {sh.K, sh.N}, -1, 1);
        chain.g.AddOutput(chain.g.AddNode("MatMul", {chain.g.AddInput("x"), w}, {"y"})->output(0));
        Evaluator packing(chain.g, {{"", 17}}, {.cache_constants = true, .pack_weights = true});
        Evaluator in_place(chain.g, {{"", 17}});
        std::vector<std::vector<float>> results;
        for (int run = 0; run < 3; ++run) {
          std::vector<RuntimeValue> inputs;
          const Tensor x = Tensor::FromVector<float>(
              DataType::kFloat, {sh.batch, sh.M, sh.K},
              testing::RandomFloats(sh.batch * sh.M * sh.K, -1, 1, 10 + run));
          if (weight_is_input) {
            inputs.push_back(Tensor::FromVector<float>(
                DataType::kFloat, {sh.K, sh.N},
                testing::RandomFloats(sh.K * sh.N, -1, 1, run == 2 ? 20 : 21 + run)));
          }
          inputs.push_back(x);
          auto got = packing.Run(inputs);
          auto want = in_place.Run(inputs);
          ASSERT_TRUE(got.ok()) << got.status();
          ASSERT_TRUE(want.ok()) << want.status();
          const std::vector<float> g = (*got)[0].tensor().ToVector<float>();
          ASSERT_EQ(g.size(), static_cast<size_t>(sh.batch * sh.M * sh.N));
          EXPECT_EQ(std::memcmp(g.data(), (*want)[0].tensor().data<float>(), g.size() * 4), 0)
              << run;
          results.push_back(g);
        }
        EXPECT_NE(results[0], results[1]);
      }
    }
  }
  ASSERT_TRUE(SetActiveIsa(DetectedIsa()).ok());
}

// The same on the GEMM's larger paths: a 3x3 convolution whose plane is cut into panels, and 1x1
// ones whose GEMM is cut into tiles (conv_pool.cc, gemm.cc), with 2 groups too.
TEST(EvaluatorTest, FoldedEpiloguesOfLargeConvolutionsMatchSeparateNodesBitForBit) {
  const Tensor panels = ChainInput({1, 64, 24, 24}), tiles = ChainInput({1, 64, 40, 40});
  for (std::string act : {"", "Relu", "Clip", "Sigmoid"}) {
    ExpectFoldedChainMatchesSeparateNodes(panels, 1, true, act, 3);
    ExpectFoldedChainMatchesSeparateNodes(tiles, 1, true, act, 1);
    ExpectFoldedChainMatchesSeparateNodes(tiles, 2, act != "Relu", act, 1);
  }
}

// Depthwise convolutions run a vector of channels at a time (simd/depthwise_blocked.cc) with Relu
// and Clip finished in registers, other activations after: 20 channels are whole blocks and a part
// at 8 and 16 lanes.
TEST(EvaluatorTest, FoldedEpiloguesOfBlockedDepthwiseConvolutionsMatchSeparateNodesBitForBit) {
  const Tensor x = ChainInput({2, 20, 15, 13});
  for (std::string act : {"", "Relu", "Clip", "HardSwish"}) {
    for (int64_t k : {3, 5}) ExpectFoldedChainMatchesSeparateNodes(x, 20, true, act, k);
    ExpectFoldedChainMatchesSeparateNodes(x, 20, false, act.empty() ? "Relu" : act, 3);
  }
}

// An inverted residual block's expansion (1x1 Conv, BatchNormalization, Clip) and depthwise Conv
// (with its own BatchNormalization and `act`) run as one kernel when the plane is large
// (ComputePointwiseDepthwise): the same values as the nodes one by one, to a few float roundings
// (the expansion's sums are the GEMM's, in the same order; its stores differ).
struct InvertedResidual : ChainGraph {
  InvertedResidual(int64_t channels_in, int64_t channels, int64_t stride, const std::string& act)
      : ChainGraph("inverted_residual") {
    auto bn = [&](ir::Value* in, const std::string& p, int64_t c) {
      return g
          .AddNode("BatchNormalization",
                   {in, Init(p + "s", {c}, 0.5f, 2), Init(p + "b", {c}, -1, 1),
                    Init(p + "m", {c}, -0.5f, 0.5f), Init(p + "v", {c}, 0.1f, 2)},
                   {p + "n"})
          ->output(0);
    };
    ir::Node* expand = g.AddNode("Conv",
                                 {g.AddInput("x"), Init("w1", {channels, channels_in, 1, 1}, -1, 1),
                                  Init("b1", {channels}, -1, 1)},
                                 {"e"});
    ir::Value* e = bn(expand->output(0), "e", channels);
    ir::Value* relu6 =
        g.AddNode("Clip", {e, Init("lo", {}, 0, 0), Init("hi", {}, 6, 6)}, {"e6"})->output(0);
    ir::Node* dw = g.AddNode(
        "Conv", {relu6, Init("w2", {channels, 1, 3, 3}, -1, 1), Init("b2", {channels}, -1, 1)},
        {"d"});
    dw->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
    dw->SetAttribute(ir::Attribute::Ints("strides", {stride, stride}));
    dw->SetAttribute(ir::Attribute::Int("group", channels));
    ir::Value* d = bn(dw->output(0), "d", channels);
    last = act.empty() ? d : g.AddNode(act, {d}, {"a"})->output(0);
    links = {expand->output(0), relu6, dw->output(0)};
    g.AddOutput(last);
  }
};

TEST(EvaluatorTest, AnExpansionRunsInsideTheDepthwiseConvolutionReadingIt) {
  for (int64_t stride : {1, 2}) {
    for (int64_t side : {30, 7}) {  // fused on large planes only (not 7x7)
      for (std::string act : {"Relu", "Sigmoid", ""}) {
        SCOPED_TRACE(::testing::Message()
                     << "stride " << stride << " side " << side << " act " << act);
        const Tensor x = ChainInput({2, 24, side, side});
        InvertedResidual fused(24, 40, stride, act), separate(24, 40, stride, act);
        for (ir::Value* v : separate.links) separate.g.AddOutput(v);
        Evaluator fused_ev(fused.g, {{"", 17}});
        std::map<std::string, Evaluator::OpProfile> profile;
        fused_ev.EnableProfiling(&profile);
        auto a = fused_ev.Run({x});
        auto b = Evaluator(separate.g, {{"", 17}}).Run({x});
        ASSERT_TRUE(a.ok()) << a.status();
        ASSERT_TRUE(b.ok()) << b.status();
        // One Conv call for both when fused (not on the baseline ISA, which lacks the blocked
        // depthwise kernel); a Sigmoid after the depthwise Conv is not an epilogue the kernels
        // apply in registers: then each Conv runs on its own. The chains are their epilogues
        // either way.
        const bool fuses =
            side == 30 && act != "Sigmoid" && Vec().depthwise_conv2d_block_f32 != nullptr;
        EXPECT_EQ(profile["Conv"].calls, fuses ? 1 : 2);
        EXPECT_EQ(profile.size(), 1u);
        const Tensor& fa = (*a)[0].tensor();
        const Tensor& fb = (*b)[0].tensor();
        ASSERT_EQ(fa.dims(), fb.dims());
        for (int64_t i = 0; i < fa.size(); ++i) {
          const float want = fb.data<float>()[i];
          ASSERT_NEAR(fa.data<float>()[i], want, 1e-5f * (1 + std::abs(want))) << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter
