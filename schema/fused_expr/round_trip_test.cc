// The shared definitions seen from both sides: converting a model with a fused op below the opset
// that introduced it writes the definition's nodes, and the fusion pass, run once the model is back
// at its opset, turns them into the fused op again; every stage computes what the original does.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "passes/testing/pass_test_util.h"

namespace onnx_opt::fused_expr {
namespace {

using ::onnx_opt::passes::testing::ExpectSameOutputs;
using ::onnx_opt::passes::testing::OpTypes;
using ::onnx_opt::passes::testing::RunPipelineOnText;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

struct Case {
  std::string op;
  int opset;         // the model's opset, where `op` exists
  int older;         // an opset without it
  std::string fuse;  // the pass that puts it back
  std::string graph;
};

class RoundTripTest : public ::testing::TestWithParam<Case> {};

TEST_P(RoundTripTest, ExpandedBelowItsOpsetAndFusedBack) {
  const Case& c = GetParam();
  const std::string model =
      "<ir_version: 8, opset_import: [\"\" : " + std::to_string(c.opset) + "]>\n" + c.graph;
  const std::string down = "convert(" + std::to_string(c.older) + ")";

  auto expanded = RunPipelineOnText(model, down);
  ASSERT_TRUE(expanded.ok()) << expanded.status();
  EXPECT_THAT(OpTypes(expanded->after->graph()), Not(Contains(c.op)));
  EXPECT_OK(ExpectSameOutputs(*expanded->before, *expanded->after));

  auto fused =
      RunPipelineOnText(model, down + ",convert(" + std::to_string(c.opset) + ")," + c.fuse);
  ASSERT_TRUE(fused.ok()) << fused.status();
  EXPECT_THAT(OpTypes(fused->after->graph()), ElementsAre(c.op));
  EXPECT_OK(ExpectSameOutputs(*fused->before, *fused->after));
}

INSTANTIATE_TEST_SUITE_P(
    FusedOps, RoundTripTest,
    ::testing::Values(
        Case{"Gelu", 20, 19, "fuse-gelu", "g (float[2,8] X) => (float[2,8] Y) { Y = Gelu(X) }"},
        Case{"Mish", 18, 17, "fuse-mish", "g (float[2,8] X) => (float[2,8] Y) { Y = Mish(X) }"},
        Case{"HardSwish", 14, 13, "fuse-hard-swish",
             "g (float[2,8] X) => (float[2,8] Y) { Y = HardSwish(X) }"},
        Case{"LayerNormalization", 17, 16, "fuse-layernorm", R"(
          g (float[2,3,4] X) => (float[2,3,4] Y)
          <float[4] gamma = {1.0, 0.5, 2.0, -1.0}, float[4] beta = {0.1, 0.2, 0.3, 0.4}> {
            Y = LayerNormalization<epsilon = 0.001>(X, gamma, beta)
          })"},
        // ReduceMean's axes are an input from opset 18 on.
        Case{"LayerNormalization", 18, 16, "fuse-layernorm", R"(
          g (float[2,4] X) => (float[2,4] Y) <float[4] gamma = {1.0, 0.5, 2.0, -1.0}> {
            Y = LayerNormalization<axis = -1>(X, gamma)
          })"},
        Case{"RMSNormalization", 23, 22, "fuse-rmsnorm", R"(
          g (float[2,3,4] X) => (float[2,3,4] Y) <float[4] gamma = {1.0, 0.5, 2.0, -1.0}> {
            Y = RMSNormalization<epsilon = 0.001>(X, gamma)
          })"}),
    [](const ::testing::TestParamInfo<Case>& info) {
      return info.param.op + std::to_string(info.param.opset);
    });

}  // namespace
}  // namespace onnx_opt::fused_expr
