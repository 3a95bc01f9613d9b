// Gather(DequantizeLinear(constant table), indices) dequantizing only the rows it takes: the same
// bits as the two nodes run apart (forced by making the float table a graph output, which the
// evaluator never fuses), for every table type, with and without zero points, per tensor, per row,
// per column, in blocks along the row (the last one short) and in blocks along the gathered axis
// (declined: the nodes run apart), indices of rank 0, 1 and 2 with negative ones; an index out of
// range is still Gather's error.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/evaluator.h"
#include "interpreter/testing/test_util.h"
#include "ir/graph.h"

namespace onnx_opt::interpreter {
namespace {

enum class Layout { kPerTensor, kPerRow, kPerColumn, kBlockedAlongRow, kBlockedAlongAxis0 };

constexpr int64_t kRows = 11, kCols = 38, kBlock = 16;

std::string Describe(DataType type, bool zero, Layout layout) {
  return ir::DataTypeName(type) + (zero ? " zp" : "") + " layout " +
         std::to_string(static_cast<int>(layout));
}

ir::Value* Quantized(ir::Graph& g, DataType type, std::vector<int64_t> dims, uint32_t seed,
                     const std::string& name) {
  ir::Tensor t = testing::RandomQuantized(type, std::move(dims), seed).ToIr();
  t.set_name(name);
  return g.AddInitializer(std::move(t));
}

// y = Gather(DequantizeLinear(q, s[, z]), ids); with `expose_table` the float table is an output.
struct Model {
  ir::Graph g{"quantized_gather"};
  Model(DataType type, bool zero_points, Layout layout, bool expose_table) {
    std::vector<int64_t> scale_dims;
    switch (layout) {
      case Layout::kPerTensor:
        break;
      case Layout::kPerRow:
        scale_dims = {kRows};
        break;
      case Layout::kPerColumn:
        scale_dims = {kCols};
        break;
      case Layout::kBlockedAlongRow:
        scale_dims = {kRows, (kCols + kBlock - 1) / kBlock};
        break;
      case Layout::kBlockedAlongAxis0:
        scale_dims = {(kRows + 3) / 4, kCols};
        break;
    }
    int64_t scales = 1;
    for (int64_t d : scale_dims) scales *= d;
    ir::Tensor s = ir::Tensor::FromVector<float>(ir::DataType::kFloat, scale_dims,
                                                 testing::RandomFloats(scales, 0.001f, 0.05f, 2));
    s.set_name("s");
    std::vector<ir::Value*> dq_inputs = {Quantized(g, type, {kRows, kCols}, 1, "q"),
                                         g.AddInitializer(std::move(s))};
    if (zero_points) dq_inputs.push_back(Quantized(g, type, scale_dims, 3, "z"));
    ir::Node* dq = g.AddNode("DequantizeLinear", dq_inputs, {"table"});
    if (layout == Layout::kPerRow) dq->SetAttribute(ir::Attribute::Int("axis", 0));
    if (layout == Layout::kPerColumn) dq->SetAttribute(ir::Attribute::Int("axis", 1));
    if (layout == Layout::kBlockedAlongRow) {
      dq->SetAttribute(ir::Attribute::Int("axis", 1));
      dq->SetAttribute(ir::Attribute::Int("block_size", kBlock));
    }
    if (layout == Layout::kBlockedAlongAxis0) {
      dq->SetAttribute(ir::Attribute::Int("axis", 0));
      dq->SetAttribute(ir::Attribute::Int("block_size", 4));
    }
    ir::Node* gather = g.AddNode("Gather", {dq->output(0), g.AddInput("ids")}, {"y"});
    g.AddOutput(gather->output(0));
    if (expose_table) g.AddOutput(dq->output(0));
  }
};

struct Result {
  absl::Status status;
  Tensor y;
  int64_t dequantize_calls = 0;
};

Result RunModel(DataType type, bool zero_points, Layout layout, bool expose_table,
                const Tensor& ids) {
  Model m(type, zero_points, layout, expose_table);
  Evaluator ev(m.g, {{"", 21}});
  std::map<std::string, Evaluator::OpProfile> profile;
  ev.EnableProfiling(&profile);
  absl::StatusOr<std::vector<RuntimeValue>> out = ev.Run({ids});
  Result r;
  r.status = out.status();
  if (out.ok()) r.y = (*out)[0].tensor();
  r.dequantize_calls = profile["DequantizeLinear"].calls;
  return r;
}

TEST(QuantizedGatherTest, MatchesDequantizeThenGather) {
  const std::vector<Tensor> all_ids = {
      Tensor::Scalar<int64_t>(DataType::kInt64, -2),
      Tensor::FromVector<int64_t>(DataType::kInt64, {4}, {0, 10, 3, 3}),
      Tensor::FromVector<int32_t>(DataType::kInt32, {2, 3}, {1, -1, 7, 2, 0, 5})};
  for (DataType type : {DataType::kInt8, DataType::kUint8, DataType::kInt4, DataType::kUint4}) {
    for (bool zero_points : {false, true}) {
      for (Layout layout : {Layout::kPerTensor, Layout::kPerRow, Layout::kPerColumn,
                            Layout::kBlockedAlongRow, Layout::kBlockedAlongAxis0}) {
        for (const Tensor& ids : all_ids) {
          const std::string what =
              Describe(type, zero_points, layout) + " ids " + std::to_string(ids.rank()) + "-D";
          const Result fused = RunModel(type, zero_points, layout, false, ids);
          const Result apart = RunModel(type, zero_points, layout, true, ids);
          ASSERT_TRUE(fused.status.ok()) << what << ": " << fused.status;
          ASSERT_TRUE(apart.status.ok()) << what << ": " << apart.status;
          ASSERT_EQ(fused.y.dims(), apart.y.dims()) << what;
          std::vector<int64_t> want_dims = ids.dims();
          want_dims.push_back(kCols);
          EXPECT_EQ(fused.y.dims(), want_dims) << what;
          for (int64_t i = 0; i < fused.y.size(); ++i) {
            ASSERT_EQ(fused.y.data<float>()[i], apart.y.data<float>()[i]) << what << " at " << i;
          }
          // Rows taken without the whole table in float, except where the layout is declined.
          EXPECT_EQ(fused.dequantize_calls, layout == Layout::kBlockedAlongAxis0 ? 1 : 0) << what;
          EXPECT_EQ(apart.dequantize_calls, 1) << what;
        }
      }
    }
  }
}

TEST(QuantizedGatherTest, IndexOutOfRangeIsGathersError) {
  const Tensor ids = Tensor::FromVector<int64_t>(DataType::kInt64, {2}, {1, kRows});
  const Result r = RunModel(DataType::kInt4, false, Layout::kBlockedAlongRow, false, ids);
  ASSERT_FALSE(r.status.ok());
  EXPECT_NE(r.status.message().find("index out of range"), std::string::npos) << r.status;
}

}  // namespace
}  // namespace onnx_opt::interpreter
