// fuse-transpose-gemm: a 2-D Transpose (perm [1, 0]) feeding Gemm's A or B is absorbed by flipping
// transA or transB.
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

RewritePattern TransposeIntoGemmPattern() {
  return {.name = "transpose-into-gemm",
          .root_ops = {"Gemm"},
          .needs = {{{"Gemm"}}, {{"Transpose"}}},
          .match_and_rewrite = [](ir::Node& gemm, Rewriter& rw) -> absl::StatusOr<int64_t> {
            if (gemm.num_inputs() < 2) return 0;
            int64_t rewrites = 0;
            for (size_t i : {0, 1}) {
              ir::Value* x = nullptr;
              ir::Node* transpose = nullptr;
              const ValuePattern transposed = Op("Transpose", {Capture(&x)}).CaptureNode(&transpose).WhereNode(
                  [](const ir::Node& t) { return t.GetInts("perm") == std::vector<int64_t>{1, 0}; });
              if (!rw.Match(transposed, gemm.input(i))) continue;
              const char* attr = i == 0 ? "transA" : "transB";
              gemm.SetAttribute(ir::Attribute::Int(attr, gemm.GetInt(attr, 0) == 0 ? 1 : 0));
              rw.ReplaceInput(gemm, i, x);
              RETURN_IF_ERROR(rw.EraseIfDead(*transpose).status());
              ++rewrites;
            }
            return rewrites;
          }};
}

class FuseTransposeIntoGemm final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-transpose-gemm";
  FuseTransposeIntoGemm() : PatternPass(kName, {TransposeIntoGemmPattern()}) {}
};

}  // namespace

REGISTER_PASS(FuseTransposeIntoGemm, FuseTransposeIntoGemm::kName, "absorb a 2-D Transpose into Gemm's transA/transB");

}  // namespace onnx_opt::passes
