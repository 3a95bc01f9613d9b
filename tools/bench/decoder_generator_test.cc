// The generated decoders load, pass the checker, and fuse as issue 35 asks (in float16 only the
// norms so far): per layer one Attention with kv_num_heads and the KV cache through it,
// RotaryEmbedding for Q and K, no K/V repeat left; the result computes what the original does, in
// float32 and in float16.
#include "tools/bench/decoder_generator.h"

#include <cstdlib>
#include <map>
#include <string>

#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "optimizer/pass_manager.h"
#include "schema/checker/checker.h"

namespace onnx_opt::bench {
namespace {

std::string TempFolder() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

std::map<std::string, int64_t> CountOps(const ir::Graph& g) {
  std::map<std::string, int64_t> counts;
  for (const ir::Node* n : g.nodes()) ++counts[n->op_type()];
  return counts;
}

class DecoderGeneratorTest : public ::testing::TestWithParam<bool> {};

TEST_P(DecoderGeneratorTest, FusesToOneAttentionPerLayerAndStaysEqual) {
  const bool float16 = GetParam();
  DecoderShape shape;  // 2 layers, hidden 64, 8 query and 2 key/value heads, KV cache
  shape.float16 = float16;
  const std::string name = float16 ? "decoder16" : "decoder32";
  absl::StatusOr<WrittenDecoder> written = WriteDecoder(shape, TempFolder(), name);
  ASSERT_TRUE(written.ok()) << written.status();
  const int64_t element = float16 ? 2 : 4;
  EXPECT_GE(written->weight_bytes, shape.parameters() * element);

  absl::StatusOr<std::unique_ptr<ir::Model>> before = ir::io::LoadModel(written->model_path);
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_TRUE(schema::checker::CheckModel(**before).ok());
  absl::StatusOr<std::unique_ptr<ir::Model>> after = ir::io::LoadModel(written->model_path);
  ASSERT_TRUE(after.ok()) << after.status();
  optimizer::PassManager manager;
  absl::StatusOr<optimizer::PipelineResult> result = manager.Run(**after, "convert(23),default");
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(schema::checker::CheckModel(**after).ok());

  std::map<std::string, int64_t> ops = CountOps((*after)->graph());
  EXPECT_EQ(ops["RMSNormalization"], 2 * shape.layers + 1);
  // No Expand left: the K/V repeats go into Attention, and inv_freq's to the batch for the rotary
  // tables (MatMul broadcasts it itself) goes with the shape arithmetic that made its target.
  EXPECT_EQ(ops["Expand"], 0);
  EXPECT_EQ(ops["Shape"], 0);
  if (!float16) {
    EXPECT_EQ(ops["Attention"], shape.layers);
    EXPECT_EQ(ops["RotaryEmbedding"], 2 * shape.layers);
    for (const ir::Node* n : (*after)->graph().nodes()) {
      if (n->op_type() != "Attention") continue;
      EXPECT_TRUE(n->num_inputs() >= 6 && n->input(4) != nullptr)
          << "past_key not taken by Attention";
      EXPECT_GE(n->num_outputs(), 3u) << "present_key not given by Attention";
    }
    // 72 nodes a layer as exported, 17 once fused, plus 9 all layers share: the embedding, the
    // rotary tables (Unsqueeze, Cast, MatMul, Transpose, Cos, Sin), the final norm and lm_head.
    const int64_t before_nodes = (*before)->graph().num_nodes();
    const int64_t after_nodes = (*after)->graph().num_nodes();
    EXPECT_LE(after_nodes, 17 * shape.layers + 9) << before_nodes << " -> " << after_nodes;
  }
  // In half precision the norms fuse (float32 between Casts is RMSNormalization's own arithmetic);
  // the attention, with its softmax in float32 between Casts, does not yet.
  equivalence::EquivalenceOptions options;
  options.dims = {{"batch", 2}, {"seq", 3}, {"past", 4}, {"total", 7}};
  const absl::Status equal = equivalence::CheckEquivalent(**before, **after, options);
  EXPECT_TRUE(equal.ok()) << equal;
}

INSTANTIATE_TEST_SUITE_P(Float32AndFloat16, DecoderGeneratorTest, ::testing::Bool());

TEST(DecoderGenerator, RefusesShapesThatMakeNoModel) {
  DecoderShape shape;
  shape.kv_heads = 3;
  EXPECT_FALSE(WriteDecoder(shape, TempFolder(), "bad").ok());
  shape = {};
  shape.hidden = 60;  // 8 heads of 7.5
  EXPECT_FALSE(WriteDecoder(shape, TempFolder(), "bad").ok());
}

}  // namespace
}  // namespace onnx_opt::bench
