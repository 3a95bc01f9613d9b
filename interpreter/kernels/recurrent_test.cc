// RNN, GRU and LSTM: the float path (vector kernels, one input-projection GEMM, one GEMM per step)
// against the generic double path on the same values, on every ISA this CPU has, across directions,
// optional inputs (B, sequence_lens, initial_h, initial_c, P), layout, clip, activations,
// linear_before_reset and input_forget.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/evaluator.h"
#include "interpreter/testing/test_util.h"
#include "ir/graph.h"

namespace onnx_opt::interpreter {
namespace {

enum class Op { kRnn, kGru, kLstm };

struct Case {
  std::string name;
  Op op = Op::kLstm;
  std::string direction = "forward";
  int64_t S = 5, B = 3, I = 4, H = 6;
  bool bias = false, initial_h = false, initial_c = false, peepholes = false;
  std::vector<int32_t> lens;  // sequence_lens when not empty
  int64_t layout = 0;
  int64_t linear_before_reset = -1;  // attribute set when >= 0
  bool input_forget = false;
  float clip = 0;  // attribute set when > 0
  std::vector<std::string> activations;
  std::vector<float> alphas, betas;
  bool hidden_size_attr = true;
};

int Gates(Op op) { return op == Op::kRnn ? 1 : (op == Op::kGru ? 3 : 4); }
const char* OpName(Op op) { return op == Op::kRnn ? "RNN" : (op == Op::kGru ? "GRU" : "LSTM"); }

// Runs the case with float tensors or the same values as double.
absl::StatusOr<std::vector<RuntimeValue>> RunCase(const Case& c, ir::DataType type) {
  const int64_t D = c.direction == "bidirectional" ? 2 : 1, G = Gates(c.op);
  auto graph = std::make_unique<ir::Graph>("test");
  std::vector<ir::Value*> ins(c.op == Op::kLstm ? 8 : 6, nullptr);
  std::vector<RuntimeValue> feeds;
  uint32_t seed = 1;
  auto add = [&](size_t slot, std::vector<int64_t> dims, float lo, float hi) {
    ins[slot] = graph->AddInput("in" + std::to_string(slot));
    const std::vector<float> v = testing::RandomFloats(NumElements(dims), lo, hi, seed++);
    if (type == ir::DataType::kFloat) {
      feeds.push_back(RuntimeValue(Tensor::FromVector<float>(type, dims, v)));
    } else {
      feeds.push_back(RuntimeValue(
          Tensor::FromVector<double>(type, dims, std::vector<double>(v.begin(), v.end()))));
    }
  };
  const bool bm = c.layout == 1;
  add(0, bm ? std::vector<int64_t>{c.B, c.S, c.I} : std::vector<int64_t>{c.S, c.B, c.I}, -1, 1);
  add(1, {D, G * c.H, c.I}, -0.5f, 0.5f);
  add(2, {D, G * c.H, c.H}, -0.5f, 0.5f);
  if (c.bias) add(3, {D, 2 * G * c.H}, -0.5f, 0.5f);
  if (!c.lens.empty()) {
    ins[4] = graph->AddInput("in4");
    feeds.push_back(RuntimeValue(Tensor::FromVector<int32_t>(
        ir::DataType::kInt32, {static_cast<int64_t>(c.lens.size())}, c.lens)));
  }
  const std::vector<int64_t> state =
      bm ? std::vector<int64_t>{c.B, D, c.H} : std::vector<int64_t>{D, c.B, c.H};
  if (c.initial_h) add(5, state, -1, 1);
  if (c.initial_c) add(6, state, -1, 1);
  if (c.peepholes) add(7, {D, 3 * c.H}, -0.5f, 0.5f);
  while (!ins.empty() && ins.back() == nullptr) ins.pop_back();
  const size_t num_outputs = c.op == Op::kLstm ? 3 : 2;
  std::vector<std::string> outs;
  for (size_t i = 0; i < num_outputs; ++i) outs.push_back("out" + std::to_string(i));
  ir::Node* node = graph->AddNode(OpName(c.op), ins, outs);
  for (size_t i = 0; i < num_outputs; ++i) graph->AddOutput(node->output(i));
  if (c.hidden_size_attr) node->SetAttribute(ir::Attribute::Int("hidden_size", c.H));
  node->SetAttribute(ir::Attribute::String("direction", c.direction));
  if (c.layout != 0) node->SetAttribute(ir::Attribute::Int("layout", c.layout));
  if (c.linear_before_reset >= 0)
    node->SetAttribute(ir::Attribute::Int("linear_before_reset", c.linear_before_reset));
  if (c.input_forget) node->SetAttribute(ir::Attribute::Int("input_forget", 1));
  if (c.clip > 0) node->SetAttribute(ir::Attribute::Float("clip", c.clip));
  if (!c.activations.empty())
    node->SetAttribute(ir::Attribute::Strings("activations", c.activations));
  if (!c.alphas.empty()) node->SetAttribute(ir::Attribute::Floats("activation_alpha", c.alphas));
  if (!c.betas.empty()) node->SetAttribute(ir::Attribute::Floats("activation_beta", c.betas));
  Evaluator ev(*graph, {{"", c.layout != 0 ? 14 : 7}});
  return ev.Run(std::move(feeds));
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const std::vector<std::pair<std::string, std::pair<Op, int64_t>>> ops = {
      {"RNN", {Op::kRnn, -1}},
      {"GRU", {Op::kGru, -1}},
      {"GRU_lbr", {Op::kGru, 1}},
      {"LSTM", {Op::kLstm, -1}}};
  for (const auto& entry : ops) {
    const std::string& op_name = entry.first;
    const std::pair<Op, int64_t> op = entry.second;
    for (std::string dir : {"forward", "reverse", "bidirectional"}) {
      const std::string prefix = op_name + "_" + dir;
      auto base = [&](std::string what) {
        Case c;
        c.name = prefix + "_" + what;
        c.op = op.first;
        c.linear_before_reset = op.second;
        c.direction = dir;
        return c;
      };
      cases.push_back(base("plain"));
      Case all = base("bias_states_lens");
      all.bias = all.initial_h = true;
      all.initial_c = op.first == Op::kLstm;
      all.lens = {5, 3, 1};
      cases.push_back(all);
      Case no_bias = base("states_lens_no_bias");
      no_bias.initial_h = true;
      no_bias.lens = {2, 5, 0};
      no_bias.hidden_size_attr = false;
      cases.push_back(no_bias);
      Case bm = all;
      bm.name = prefix + "_layout1";
      bm.layout = 1;
      bm.B = 4;
      bm.lens = {4, 5, 2, 5};
      cases.push_back(bm);
      Case one = base("batch1_odd_sizes");
      one.S = 9;
      one.B = 1;
      one.I = 7;
      one.H = 37;
      one.bias = true;
      cases.push_back(one);
      Case clip = all;
      clip.name = prefix + "_clip";
      clip.clip = 0.7f;
      cases.push_back(clip);
      if (op.first == Op::kLstm) {
        Case p = all;
        p.name = prefix + "_peepholes";
        p.peepholes = true;
        cases.push_back(p);
        Case pc = p;
        pc.name = prefix + "_peepholes_clip_layout1";
        pc.clip = 0.5f;
        pc.layout = 1;
        cases.push_back(pc);
        Case fi = p;
        fi.name = prefix + "_input_forget";
        fi.input_forget = true;
        cases.push_back(fi);
      }
    }
  }
  // Other activations (vector and scalar ones, with and without alpha/beta).
  auto twice = [](std::vector<std::string> v) {
    std::vector<std::string> w = v;
    w.insert(w.end(), v.begin(), v.end());
    return w;
  };
  Case lstm_acts;
  lstm_acts.name = "LSTM_activations";
  lstm_acts.direction = "bidirectional";
  lstm_acts.bias = lstm_acts.initial_h = lstm_acts.initial_c = lstm_acts.peepholes = true;
  lstm_acts.activations = {"HardSigmoid", "LeakyRelu", "ScaledTanh",
                           "Sigmoid",     "Affine",    "Softsign"};
  lstm_acts.alphas = {0.3f, 0.2f, 0.8f, 0, 0.5f};
  lstm_acts.betas = {0.4f, 0, 1.2f, 0, 0.1f};
  cases.push_back(lstm_acts);
  Case lstm_defaults = lstm_acts;
  lstm_defaults.name = "LSTM_activation_defaults";
  lstm_defaults.direction = "forward";
  lstm_defaults.activations = {"HardSigmoid", "Elu", "Softplus"};
  lstm_defaults.alphas.clear();
  lstm_defaults.betas.clear();
  cases.push_back(lstm_defaults);
  for (int64_t lbr : {0, 1}) {
    Case gru_acts;
    gru_acts.name = "GRU_activations_lbr" + std::to_string(lbr);
    gru_acts.op = Op::kGru;
    gru_acts.linear_before_reset = lbr;
    gru_acts.direction = "bidirectional";
    gru_acts.bias = gru_acts.initial_h = true;
    gru_acts.lens = {5, 4, 2};
    gru_acts.activations = {"Sigmoid", "Relu", "HardSigmoid", "ThresholdedRelu"};
    gru_acts.alphas = {0, 0, 0.25f, 0.1f};
    gru_acts.betas = {0, 0, 0.5f};
    cases.push_back(gru_acts);
  }
  Case rnn_acts;
  rnn_acts.name = "RNN_activations";
  rnn_acts.op = Op::kRnn;
  rnn_acts.direction = "bidirectional";
  rnn_acts.bias = rnn_acts.initial_h = true;
  rnn_acts.activations = twice({"Relu"});
  cases.push_back(rnn_acts);
  // A longer sequence with a wider hidden state (the per-step GEMM is a real GEMV).
  Case big;
  big.name = "LSTM_long";
  big.S = 40;
  big.B = 2;
  big.I = 24;
  big.H = 64;
  big.bias = big.initial_h = big.initial_c = true;
  big.direction = "bidirectional";
  big.lens = {40, 31};
  cases.push_back(big);
  Case big_gru = big;
  big_gru.name = "GRU_long";
  big_gru.op = Op::kGru;
  big_gru.initial_c = false;
  cases.push_back(big_gru);
  return cases;
}

using RecurrentTest = testing::PerIsaTest;

TEST_P(RecurrentTest, FloatMatchesTheGenericDoublePath) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    auto f = RunCase(c, ir::DataType::kFloat);
    auto d = RunCase(c, ir::DataType::kDouble);
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE(d.ok()) << d.status();
    testing::ExpectFloatMatchesDouble(*f, *d, 1e-4, 2e-5);
  }
}

// Steps past a batch entry's sequence length leave zeros in Y; Y_h and Y_c hold the state after its
// last step (the initial state for a length of 0).
TEST_P(RecurrentTest, SequenceLensPadsWithZerosAndKeepsTheLastState) {
  Case c;
  c.op = Op::kLstm;
  c.direction = "bidirectional";
  c.bias = c.initial_h = c.initial_c = true;
  c.lens = {5, 2, 0};
  auto out = RunCase(c, ir::DataType::kFloat);
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor& y = (*out)[0].tensor();
  const Tensor& yh = (*out)[1].tensor();
  ASSERT_EQ(y.dims(), (std::vector<int64_t>{5, 2, 3, 6}));
  const float* py = y.data<float>();
  auto at = [&](int64_t t, int64_t d, int64_t b, int64_t j) {
    return py[((t * 2 + d) * 3 + b) * 6 + j];
  };
  for (int64_t d = 0; d < 2; ++d) {
    for (int64_t j = 0; j < 6; ++j) {
      for (int64_t t = 2; t < 5; ++t) EXPECT_EQ(at(t, d, 1, j), 0.0f);
      for (int64_t t = 0; t < 5; ++t) EXPECT_EQ(at(t, d, 2, j), 0.0f);
      EXPECT_NE(at(1, d, 1, j), 0.0f);
    }
    // Forward ends at t = len - 1, reverse at t = 0.
    for (int64_t j = 0; j < 6; ++j) {
      EXPECT_EQ(yh.data<float>()[(d * 3 + 1) * 6 + j], at(d == 0 ? 1 : 0, d, 1, j));
      EXPECT_EQ(yh.data<float>()[(d * 3 + 0) * 6 + j], at(d == 0 ? 4 : 0, d, 0, j));
    }
  }
  // Length 0: Y_h is initial_h (the third input fed, seeds 1.. in order X, W, R, B, initial_h).
  const std::vector<float> h0 = testing::RandomFloats(2 * 3 * 6, -1, 1, 5);
  for (int64_t d = 0; d < 2; ++d) {
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_EQ(yh.data<float>()[(d * 3 + 2) * 6 + j], h0[(d * 3 + 2) * 6 + j]);
  }
}

TEST_P(RecurrentTest, RejectsInputsOfTheWrongShape) {
  Case c;
  c.bias = true;
  c.lens = {5, 3};  // B is 3
  EXPECT_FALSE(RunCase(c, ir::DataType::kFloat).ok());
}

// The LSTM keeps R packed from run to run when it is the same on every run. An IR 3 style model
// lists R among the inputs with an initializer: runs that leave it out reuse what was packed, a
// run that gives another R computes with that one (and later runs with the initializer again).
TEST_P(RecurrentTest, WeightsKeptBetweenRunsFollowTheTensorGiven) {
  const int64_t S = 4, I = 3, H = 20;
  ir::Graph g("test");
  ir::Value* x = g.AddInput("x");
  ir::Value* w = g.AddInput("w");
  ir::Value* r = g.AddInput("r");
  const std::vector<float> w0 = testing::RandomFloats(4 * H * I, -0.5f, 0.5f, 1),
                           r0 = testing::RandomFloats(4 * H * H, -0.5f, 0.5f, 2),
                           r1 = testing::RandomFloats(4 * H * H, -0.5f, 0.5f, 3),
                           xs = testing::RandomFloats(S * I, -1, 1, 4);
  g.SetInitializer(w, ir::Tensor::FromVector<float>(ir::DataType::kFloat, {1, 4 * H, I}, w0));
  g.SetInitializer(r, ir::Tensor::FromVector<float>(ir::DataType::kFloat, {1, 4 * H, H}, r0));
  ir::Node* node = g.AddNode("LSTM", {x, w, r}, {"y", "y_h"});
  node->SetAttribute(ir::Attribute::Int("hidden_size", H));
  g.AddOutput(node->output(1));
  auto feed = [&](const std::vector<float>* given_r) {
    std::vector<RuntimeValue> in;
    in.push_back(RuntimeValue(Tensor::FromVector<float>(ir::DataType::kFloat, {S, 1, I}, xs)));
    in.push_back(RuntimeValue());
    if (given_r != nullptr) {
      in.push_back(
          RuntimeValue(Tensor::FromVector<float>(ir::DataType::kFloat, {1, 4 * H, H}, *given_r)));
    }
    return in;
  };
  auto fresh = [&](const std::vector<float>* given_r) {
    Evaluator once(g, {{"", 7}});
    auto out = once.Run(feed(given_r));
    EXPECT_TRUE(out.ok()) << out.status();
    return out.ok() ? (*out)[0].tensor().ToVector<float>() : std::vector<float>();
  };
  const std::vector<float> with_r0 = fresh(nullptr), with_r1 = fresh(&r1);
  ASSERT_NE(with_r0, with_r1);
  Evaluator kept(g, {{"", 7}});
  for (const std::vector<float>* given : {static_cast<const std::vector<float>*>(nullptr),
                                          static_cast<const std::vector<float>*>(nullptr), &r1, &r1,
                                          static_cast<const std::vector<float>*>(nullptr)}) {
    auto out = kept.Run(feed(given));
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].tensor().ToVector<float>(), given == nullptr ? with_r0 : with_r1);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, RecurrentTest, ::testing::ValuesIn(SupportedIsas()),
                         testing::IsaTestName);

}  // namespace
}  // namespace onnx_opt::interpreter
