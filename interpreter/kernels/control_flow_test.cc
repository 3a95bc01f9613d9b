#include <optional>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;

// Loop: sum = sum + i for M iterations, scan output i*1.0.
TEST(ControlFlowTest, LoopCarriesStateAndStacksScanOutputs) {
  ir::Graph g("g");
  ir::Value* m = g.AddInput("M");
  ir::Value* s0 = g.AddInput("s0");
  auto body = std::make_unique<ir::Graph>("body");
  ir::Value* it = body->AddInput("i");
  ir::Value* cond = body->AddInput("cond");
  ir::Value* s = body->AddInput("s");
  ir::Node* add = body->AddNode("Add", {s, it}, {"s_next"});
  ir::Node* c = body->AddNode("Identity", {cond}, {"cond_out"});
  ir::Node* sc = body->AddNode("Identity", {it}, {"scan"});
  body->AddOutput(c->output(0));
  body->AddOutput(add->output(0));
  body->AddOutput(sc->output(0));
  ir::Node* loop = g.AddNode("Loop", {m, nullptr, s0}, {"s_final", "scans"});
  loop->SetAttribute(ir::Attribute::FromGraph("body", std::move(body)));
  g.AddOutput(loop->output(0));
  g.AddOutput(loop->output(1));
  Evaluator ev(g, {{"", 17}});
  auto out = ev.Run({Tensor::Scalar<int64_t>(DataType::kInt64, 4),
                     Tensor::Scalar<int64_t>(DataType::kInt64, 10)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].tensor().ToVector<int64_t>()[0], 16);
  EXPECT_EQ((*out)[1].tensor().ToVector<int64_t>(), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(SequenceTest, ConstructInsertAt) {
  ir::Graph g("g");
  ir::Value* a = g.AddInput("a");
  ir::Value* b = g.AddInput("b");
  ir::Node* c = g.AddNode("SequenceConstruct", {a}, {"s"});
  ir::Node* ins = g.AddNode("SequenceInsert", {c->output(0), b}, {"s2"});
  ir::Node* len = g.AddNode("SequenceLength", {ins->output(0)}, {"n"});
  g.AddOutput(ins->output(0));
  g.AddOutput(len->output(0));
  Evaluator ev(g, {{"", 17}});
  auto out = ev.Run({F({1}, {1}), F({2}, {2, 3})});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_TRUE((*out)[0].is_sequence());
  EXPECT_EQ((*out)[0].sequence()[1].ToVector<float>(), (std::vector<float>{2, 3}));
  EXPECT_EQ((*out)[1].tensor().ToVector<int64_t>()[0], 2);
}

// A Scan whose body adds its state and the scan element: s = s + x[i], scan output s.
std::unique_ptr<ir::Graph> ScanSumBody() {
  auto body = std::make_unique<ir::Graph>("body");
  ir::Value* s = body->AddInput("s");
  ir::Value* x = body->AddInput("x");
  ir::Node* add = body->AddNode("Add", {s, x}, {"s_next"});
  ir::Node* out = body->AddNode("Identity", {add->output(0)}, {"scan_out"});
  body->AddOutput(add->output(0));
  body->AddOutput(out->output(0));
  return body;
}

// Scan attributes with one entry per scan input/output were indexed without checking their length,
// and num_scan_inputs past the input count made the state count wrap around.
TEST(ControlFlowTest, ScanAttributesMustFitTheInputs) {
  auto run = [](int64_t m, std::vector<int64_t> axes) {
    ir::Graph g("g");
    ir::Value* s0 = g.AddInput("s0");
    ir::Value* xs = g.AddInput("xs");
    ir::Node* scan = g.AddNode("Scan", {s0, xs}, {"s_final", "scans"});
    scan->SetAttribute(ir::Attribute::FromGraph("body", ScanSumBody()));
    scan->SetAttribute(ir::Attribute::Int("num_scan_inputs", m));
    if (!axes.empty()) scan->SetAttribute(ir::Attribute::Ints("scan_input_axes", axes));
    g.AddOutput(scan->output(0));
    g.AddOutput(scan->output(1));
    Evaluator ev(g, {{"", 16}});
    return ev.Run({F({1}, {0}), F({3, 1}, {1, 2, 3})});
  };
  auto ok = run(1, {0});
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().ToVector<float>(), (std::vector<float>{6}));
  EXPECT_EQ((*ok)[1].tensor().ToVector<float>(), (std::vector<float>{1, 3, 6}));
  auto long_axes = run(1, {0, 0, 0});
  ASSERT_FALSE(long_axes.ok());
  EXPECT_NE(long_axes.status().message().find("scan_input_axes has 3 entries"), std::string::npos)
      << long_axes.status();
  auto too_many = run(5, {});
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.status().message().find("num_scan_inputs 5"), std::string::npos)
      << too_many.status();
}

// Opset 8: states and scan inputs are batched on axis 0; sequence_lens (input 0) limits the steps
// of each batch entry, its scan outputs zero-padded to the full length; `directions` reverses
// inputs.
TEST(ControlFlowTest, ScanOpset8HonoursSequenceLengthsAndDirections) {
  auto run = [](std::optional<std::vector<int64_t>> lens, std::vector<int64_t> directions,
                std::vector<int64_t> output_axes = {}) {
    ir::Graph g("g");
    ir::Value* l = lens.has_value() ? g.AddInput("lens") : nullptr;
    ir::Value* s0 = g.AddInput("s0");
    ir::Value* xs = g.AddInput("xs");
    ir::Node* scan = g.AddNode("Scan", {l, s0, xs}, {"s_final", "scans"});
    scan->SetAttribute(ir::Attribute::FromGraph("body", ScanSumBody()));
    scan->SetAttribute(ir::Attribute::Int("num_scan_inputs", 1));
    if (!directions.empty()) scan->SetAttribute(ir::Attribute::Ints("directions", directions));
    if (!output_axes.empty())
      scan->SetAttribute(ir::Attribute::Ints("scan_output_axes", output_axes));
    g.AddOutput(scan->output(0));
    g.AddOutput(scan->output(1));
    Evaluator ev(g, {{"", 8}});
    std::vector<RuntimeValue> inputs;
    if (lens.has_value()) inputs.push_back(I64({2}, *lens));
    inputs.push_back(F({2, 1}, {0, 10}));
    inputs.push_back(F({2, 3, 1}, {1, 2, 3, 4, 5, 6}));
    return ev.Run(inputs);
  };
  auto full = run(std::nullopt, {});
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ((*full)[0].tensor().ToVector<float>(), (std::vector<float>{6, 25}));
  EXPECT_EQ((*full)[1].tensor().ToVector<float>(), (std::vector<float>{1, 3, 6, 14, 19, 25}));

  auto short_second = run(std::vector<int64_t>{3, 1}, {});
  ASSERT_TRUE(short_second.ok()) << short_second.status();
  EXPECT_EQ((*short_second)[0].tensor().ToVector<float>(), (std::vector<float>{6, 14}));
  EXPECT_EQ((*short_second)[1].tensor().dims(), (std::vector<int64_t>{2, 3, 1}));
  EXPECT_EQ((*short_second)[1].tensor().ToVector<float>(), (std::vector<float>{1, 3, 6, 14, 0, 0}));

  // Reversed: the real steps are taken last to first.
  auto reversed = run(std::vector<int64_t>{3, 2}, {1});
  ASSERT_TRUE(reversed.ok()) << reversed.status();
  EXPECT_EQ((*reversed)[0].tensor().ToVector<float>(), (std::vector<float>{6, 19}));
  EXPECT_EQ((*reversed)[1].tensor().ToVector<float>(), (std::vector<float>{3, 5, 6, 15, 19, 0}));

  // No steps at all: the initial state, and zeros shaped like the other entry's outputs.
  auto empty = run(std::vector<int64_t>{3, 0}, {});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ((*empty)[0].tensor().ToVector<float>(), (std::vector<float>{6, 10}));
  EXPECT_EQ((*empty)[1].tensor().ToVector<float>(), (std::vector<float>{1, 3, 6, 0, 0, 0}));

  auto too_long = run(std::vector<int64_t>{4, 1}, {});
  ASSERT_FALSE(too_long.ok());
  EXPECT_NE(too_long.status().message().find("sequence length 4 is outside 0..3"),
            std::string::npos)
      << too_long.status();

  // An opset-9 attribute on an opset-8 node must not move the steps off axis 0 (padding would then
  // write past the output).
  auto moved = run(std::vector<int64_t>{3, 1}, {}, {1});
  ASSERT_FALSE(moved.ok());
  EXPECT_NE(moved.status().message().find("steps on axis 0"), std::string::npos) << moved.status();
}

}  // namespace
}  // namespace onnx_opt::interpreter
