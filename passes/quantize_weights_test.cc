// quantize-weights: each layout (int8 per channel, int4/uint4 blocked, with and without zero
// points, a reduction size the blocks do not divide), the weights it leaves alone, and numbers:
// every dequantized weight within half a step of the float one, and the model's outputs within the
// pass's lossy tolerance when the interpreter runs the DequantizeLinear it wrote.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "interpreter/tensor.h"
#include "ir/model.h"
#include "ir/text/parser.h"
#include "optimizer/pass_manager.h"
#include "optimizer/pass_registry.h"
#include "optimizer/pipeline.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::passes {
namespace {

using testing::ExpectSameOutputs;
using testing::OpTypes;
using testing::RunPipelineOnText;

std::string Weights(int64_t n, double phase) {
  std::vector<std::string> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(absl::StrCat(0.5 * std::sin(0.37 * i + phase) + 0.1 * std::cos(1.3 * i)));
  return absl::StrJoin(v, ", ");
}

// tokens -> Gather(table [64, 40]) -> MatMul W1 [40, 48] -> Relu -> MatMul W2 [48, 20] ->
// Gemm(W3 [12, 20], transB) : K = 40 is not a multiple of 32.
// `type`: float, or float16 for a half-precision model.
std::string Model(int opset = 21, const std::string& type = "float") {
  return absl::StrCat(R"(<ir_version: 10, opset_import: ["" : )", opset, R"(]>
g (int64[N, 3] tokens) => ()",
                      type, R"([N, 3, 12] y)
  <)",
                      type, R"([64, 40] table = {)", Weights(64 * 40, 0.0), R"(},
   )",
                      type, R"([40, 48] W1 = {)", Weights(40 * 48, 1.0), R"(},
   )",
                      type, R"([48, 20] W2 = {)", Weights(48 * 20, 2.0), R"(},
   )",
                      type, R"([12, 20] W3 = {)", Weights(12 * 20, 3.0), R"(}> {
  e = Gather(table, tokens)
  h = MatMul(e, W1)
  r = Relu(h)
  z = MatMul(r, W2)
  shape = Constant<value = int64[2] {-1, 20}>()
  flat = Reshape(z, shape)
  g3 = Gemm<transB = 1>(flat, W3)
  out_shape = Constant<value = int64[3] {-1, 3, 12}>()
  y = Reshape(g3, out_shape)
})");
}

// The float weight a DequantizeLinear node of the rewritten graph computes, dequantized here by the
// spec's formula (not by the interpreter), with its scales' largest step.
struct Dequantized {
  std::vector<float> values;
  double largest_step = 0;
};

Dequantized Dequantize(const ir::Node& dq) {
  auto q = interpreter::Tensor::FromIr(*dq.input(0)->initializer());
  auto s0 = interpreter::Tensor::FromIr(*dq.input(1)->initializer());
  EXPECT_TRUE(q.ok() && s0.ok());
  auto s = interpreter::CastTensor(*s0, ir::DataType::kFloat);  // float16 scales too
  std::optional<interpreter::Tensor> z;
  if (dq.num_inputs() > 2) z = *interpreter::Tensor::FromIr(*dq.input(2)->initializer());
  auto qi = *interpreter::CastTensor(*q, ir::DataType::kInt64);
  std::optional<interpreter::Tensor> zi;
  if (z) zi = *interpreter::CastTensor(*z, ir::DataType::kInt64);
  const int64_t axis = dq.GetInt("axis", 1), block = dq.GetInt("block_size", 0);
  const int64_t cols = q->dim(1);
  Dequantized out;
  for (int64_t i = 0; i < q->size(); ++i) {
    const int64_t idx[2] = {i / cols, i % cols};
    int64_t si;
    if (block == 0) {
      si = idx[axis];
    } else {
      int64_t sidx[2] = {idx[0], idx[1]};
      sidx[axis] /= block;
      si = sidx[0] * s->dim(1) + sidx[1];
    }
    const float scale = s->data<float>()[si];
    const int64_t zero = zi ? zi->data<int64_t>()[si] : 0;
    out.values.push_back(static_cast<float>(qi.data<int64_t>()[i] - zero) * scale);
    out.largest_step = std::max<double>(out.largest_step, scale);
  }
  return out;
}

// Every DequantizeLinear's output is within half a step of the weight it replaced.
void ExpectWithinHalfAStep(const ir::Model& before, const ir::Model& after) {
  for (const ir::Node* n : after.graph().nodes()) {
    if (n->op_type() != "DequantizeLinear") continue;
    const std::string& name = n->output(0)->name();
    const ir::Value* original = nullptr;
    for (const ir::Value* v : before.graph().initializers()) {
      if (v->name() == name) original = v;
    }
    ASSERT_NE(original, nullptr) << name;
    const Dequantized d = Dequantize(*n);
    auto w = interpreter::Tensor::FromIr(*original->initializer());
    ASSERT_TRUE(w.ok());
    auto wf = interpreter::CastTensor(*w, ir::DataType::kFloat);  // a float16 weight too
    ASSERT_TRUE(wf.ok());
    ASSERT_EQ(static_cast<int64_t>(d.values.size()), wf->size()) << name;
    double worst = 0;
    for (size_t i = 0; i < d.values.size(); ++i)
      worst = std::max<double>(worst, std::fabs(d.values[i] - wf->data<float>()[i]));
    EXPECT_LE(worst, d.largest_step * 0.5 * (1 + 1e-5)) << name;
    EXPECT_GT(worst, 0) << name << ": nothing was lost: was it quantized at all?";
  }
}

int Count(const std::vector<std::string>& ops, const std::string& op) {
  return static_cast<int>(std::count(ops.begin(), ops.end(), op));
}

// The outputs within the pass's own lossy tolerance, at free dims 2 and 3.
void ExpectWithinItsTolerance(const testing::PassTestRun& run, const std::string& pipeline) {
  equivalence::EquivalenceOptions options;
  auto lossy = optimizer::LossyToleranceOf(pipeline, optimizer::PassRegistry::Global());
  ASSERT_TRUE(lossy.ok() && lossy->has_value());
  options.tolerances.lossy = **lossy;
  std::vector<equivalence::OutputDifference> report;
  EXPECT_OK(equivalence::CheckEquivalent(*run.before, *run.after, options, &report));
  ASSERT_EQ(report.size(), 1u);
  EXPECT_GT(report[0].rel_l2_error, 0);
}

TEST(QuantizeWeightsTest, Int8PerChannelEveryWeight) {
  const std::string pipeline = "quantize-weights(bits=8,min_elements=0,keep_ends=0)";
  auto run = RunPipelineOnText(Model(), pipeline);
  ASSERT_TRUE(run.ok()) << run.status();
  const std::vector<std::string> ops = OpTypes(run->after->graph());
  EXPECT_EQ(Count(ops, "DequantizeLinear"), 4);
  for (const ir::Node* n : run->after->graph().nodes()) {
    if (n->op_type() != "DequantizeLinear") continue;
    EXPECT_EQ(n->input(0)->initializer()->data_type(), ir::DataType::kInt8);
    EXPECT_EQ(n->num_inputs(), 2u);  // symmetric: no zero point
    EXPECT_EQ(n->FindAttribute("block_size"), nullptr);
    const std::string& w = n->output(0)->name();
    // Per output channel: MatMul's B [K, N] by column (axis 1), Gemm's transposed B [N, K] by row
    // (axis 0), the Gather table by row (axis 0).
    EXPECT_EQ(n->GetInt("axis", -1), w == "W1" || w == "W2" ? 1 : 0) << w;
  }
  ExpectWithinHalfAStep(*run->before, *run->after);
  ExpectWithinItsTolerance(*run, pipeline);
  EXPECT_LT(run->result.after.initializer_bytes * 3, run->result.before.initializer_bytes);
}

TEST(QuantizeWeightsTest, Int4BlockedWithAShortLastBlock) {
  const std::string pipeline = "quantize-weights(bits=4,block=32,min_elements=0,keep_ends=0)";
  auto run = RunPipelineOnText(Model(), pipeline);
  ASSERT_TRUE(run.ok()) << run.status();
  for (const ir::Node* n : run->after->graph().nodes()) {
    if (n->op_type() != "DequantizeLinear") continue;
    EXPECT_EQ(n->input(0)->initializer()->data_type(), ir::DataType::kInt4);
    EXPECT_EQ(n->GetInt("block_size", 0), 32);
    if (n->output(0)->name() == "W1") {
      // K = 40 along axis 0: two blocks, the second of 8.
      EXPECT_EQ(n->GetInt("axis", -1), 0);
      EXPECT_EQ(n->input(1)->initializer()->dims(), (std::vector<int64_t>{2, 48}));
      // Packed two to a byte.
      EXPECT_EQ(n->input(0)->initializer()->raw_size(), 40u * 48 / 2);
    }
  }
  ExpectWithinHalfAStep(*run->before, *run->after);
  ExpectWithinItsTolerance(*run, pipeline);
}

// A float16 model's weights get float16 scales: DequantizeLinear computes float16, as the weight
// did, and the dequantized values land within half a step (of the float16 scale) of the weights.
TEST(QuantizeWeightsTest, Float16WeightsGetFloat16Scales) {
  for (const std::string pipeline :
       {"quantize-weights(bits=4,block=32,min_elements=0,keep_ends=0)",
        "quantize-weights(bits=8,min_elements=0,keep_ends=0)",
        "quantize-weights(bits=4,block=16,symmetric=0,min_elements=0,keep_ends=0)"}) {
    auto run = RunPipelineOnText(Model(21, "float16"), pipeline);
    ASSERT_TRUE(run.ok()) << run.status();
    int seen = 0;
    for (const ir::Node* n : run->after->graph().nodes()) {
      if (n->op_type() != "DequantizeLinear") continue;
      ++seen;
      EXPECT_EQ(n->input(1)->initializer()->data_type(), ir::DataType::kFloat16) << pipeline;
      EXPECT_EQ(n->output(0)->type().elem_type(), ir::DataType::kFloat16) << pipeline;
    }
    EXPECT_EQ(seen, 4) << pipeline;
    ExpectWithinHalfAStep(*run->before, *run->after);
    ExpectWithinItsTolerance(*run, pipeline);
  }
}

TEST(QuantizeWeightsTest, UnsignedWithZeroPoints) {
  for (const std::string pipeline :
       {"quantize-weights(bits=4,block=16,symmetric=0,min_elements=0,keep_ends=0)",
        "quantize-weights(bits=8,symmetric=0,min_elements=0,keep_ends=0)"}) {
    auto run = RunPipelineOnText(Model(), pipeline);
    ASSERT_TRUE(run.ok()) << run.status();
    int seen = 0;
    for (const ir::Node* n : run->after->graph().nodes()) {
      if (n->op_type() != "DequantizeLinear") continue;
      ++seen;
      const ir::DataType want = pipeline.find("bits=4") != std::string::npos ? ir::DataType::kUint4
                                                                             : ir::DataType::kUint8;
      EXPECT_EQ(n->input(0)->initializer()->data_type(), want) << pipeline;
      ASSERT_EQ(n->num_inputs(), 3u) << pipeline;
      EXPECT_EQ(n->input(2)->initializer()->data_type(), want);
      EXPECT_EQ(n->input(2)->initializer()->dims(), n->input(1)->initializer()->dims());
    }
    EXPECT_EQ(seen, 4) << pipeline;
    ExpectWithinHalfAStep(*run->before, *run->after);
    ExpectWithinItsTolerance(*run, pipeline);
  }
}

TEST(QuantizeWeightsTest, LeavesTheEndsSmallAndExcludedWeightsAlone) {
  // By default the first (the table) and last (W3) quantizable weights stay, and weights under 4096
  // elements: here all of them.
  auto run = RunPipelineOnText(Model(), "quantize-weights");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(Count(OpTypes(run->after->graph()), "DequantizeLinear"), 0);
  run = RunPipelineOnText(Model(), "quantize-weights(min_elements=0)");
  ASSERT_TRUE(run.ok()) << run.status();
  std::vector<std::string> quantized;
  for (const ir::Node* n : run->after->graph().nodes()) {
    if (n->op_type() == "DequantizeLinear") quantized.push_back(n->output(0)->name());
  }
  std::sort(quantized.begin(), quantized.end());
  EXPECT_EQ(quantized, (std::vector<std::string>{"W1", "W2"}));
  run = RunPipelineOnText(Model(), "quantize-weights(min_elements=0,keep_ends=0,exclude=W*:tab?e)");
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(Count(OpTypes(run->after->graph()), "DequantizeLinear"), 0);
}

TEST(QuantizeWeightsTest, BadArgumentsAndOldOpsetsAreRefused) {
  for (const char* bad : {"quantize-weights(bits=3)", "quantize-weights(block=24)",
                          "quantize-weights(x=1)", "quantize-weights(bits)"}) {
    auto run = RunPipelineOnText(Model(), bad);
    EXPECT_TRUE(absl::IsInvalidArgument(run.status())) << bad << ": " << run.status();
  }
  auto run = RunPipelineOnText(Model(17), "quantize-weights(min_elements=0)");
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("convert(21)"), std::string::npos) << run.status();
}

// A weight read from external data stays external: the saver puts the quantized one in the side
// file.
TEST(QuantizeWeightsTest, ExternalWeightsStayExternal) {
  auto model = ir::text::ParseModel(Model());
  ASSERT_TRUE(model.ok()) << model.status();
  for (ir::Value* v : (*model)->graph().initializers()) {
    if (v->name() != "W1") continue;
    ir::Tensor& external = *v->mutable_initializer();
    external.set_storage(ir::Tensor::Storage::kExternal);
    external.mutable_external_data() = {
        {"location", "weights.bin"}, {"offset", "0"}, {"length", "7680"}};
  }
  optimizer::PassManager manager;
  auto result =
      manager.Run(**model, "quantize-weights(bits=4,block=16,min_elements=0,keep_ends=0)");
  ASSERT_TRUE(result.ok()) << result.status();
  int external = 0;
  for (const ir::Node* n : (*model)->graph().nodes()) {
    if (n->op_type() != "DequantizeLinear") continue;
    const ir::Tensor& q = *n->input(0)->initializer();
    const bool is_w1 = n->output(0)->name() == "W1";
    EXPECT_EQ(q.storage() == ir::Tensor::Storage::kExternal, is_w1) << n->output(0)->name();
    if (is_w1) {
      ++external;
      EXPECT_EQ(q.external_data(), (ir::StringPairs{{"location", "weights.bin"}}));
    }
  }
  EXPECT_EQ(external, 1);
}

// With a spill folder (onnx-opt gives the output's), the quantized bytes of a weight read from
// external data wait for the save in a temporary file there instead of in memory: the same bytes as
// kept in memory, a buffer of another kind, and nothing left in the folder. A weight that was
// inline stays in memory.
TEST(QuantizeWeightsTest, ExternalWeightsSpillToTheFolderGiven) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(tmp != nullptr ? tmp : "/tmp") + "/quantize_spill";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  const std::string pipeline =
      "quantize-weights(bits=4,block=16,symmetric=0,min_elements=0,keep_ends=0)";
  std::unique_ptr<ir::Model> models[2];
  for (int spill = 0; spill < 2; ++spill) {
    auto model = ir::text::ParseModel(Model(21, "float16"));
    ASSERT_TRUE(model.ok()) << model.status();
    for (ir::Value* v : (*model)->graph().initializers()) {
      if (v->name() != "W1") continue;
      ir::Tensor& external = *v->mutable_initializer();
      external.set_storage(ir::Tensor::Storage::kExternal);
      external.mutable_external_data() = {
          {"location", "weights.bin"}, {"offset", "0"}, {"length", "3840"}};
    }
    optimizer::PassManagerOptions options;
    if (spill) options.pass_options.spill_directory = dir;
    optimizer::PassManager manager(options);
    auto result = manager.Run(**model, pipeline);
    ASSERT_TRUE(result.ok()) << result.status();
    models[spill] = *std::move(model);
  }
  int spilled = 0;
  for (const ir::Node* n : models[1]->graph().nodes()) {
    if (n->op_type() != "DequantizeLinear") continue;
    const ir::Node* kept = nullptr;
    for (const ir::Node* m : models[0]->graph().nodes()) {
      if (m->op_type() == "DequantizeLinear" && m->output(0)->name() == n->output(0)->name())
        kept = m;
    }
    ASSERT_NE(kept, nullptr);
    ASSERT_EQ(n->num_inputs(), 3u);
    for (size_t i = 0; i < 3; ++i) {
      const ir::Tensor& a = *kept->input(i)->initializer();
      const ir::Tensor& b = *n->input(i)->initializer();
      EXPECT_EQ(a.raw_view(), b.raw_view()) << n->output(0)->name() << " input " << i;
      const bool other_kind = typeid(*a.buffer()) != typeid(*b.buffer());
      EXPECT_EQ(other_kind, n->output(0)->name() == "W1") << n->output(0)->name() << " input " << i;
      spilled += other_kind;
    }
  }
  EXPECT_EQ(spilled, 3);  // W1's values, scales and zero points
  EXPECT_EQ(::rmdir(dir.c_str()), 0) << "a spill file was left in the folder";
}

}  // namespace
}  // namespace onnx_opt::passes
