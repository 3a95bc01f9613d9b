// fuse-transpose-gemm: a 2-D Transpose (perm [1, 0]) feeding Gemm's A or B is absorbed by flipping
// transA or transB.
#include <array>
#include <memory>
#include <vector>

#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// A 2-D transpose feeding Gemm's input 0 or 1, built once per input (the two are matched one after
// the other, so each binds its own x and node).
struct TransposedOperandMatcher {
  ValueSlot x;
  NodeSlot transpose;
  const ValuePattern transposed =
      Op("Transpose", {Capture(x)}).CaptureNode(transpose).WhereNode([](const ir::Node& t) {
        return t.GetInts("perm") == std::vector<int64_t>{1, 0};
      });
};

RewritePattern TransposeIntoGemmPattern() {
  auto operands = std::make_shared<const std::array<TransposedOperandMatcher, 2>>();
  return {.name = "transpose-into-gemm",
          .root_ops = {"Gemm"},
          .needs = {{{"Gemm"}}, {{"Transpose"}}},
          .match_and_rewrite = [operands](ir::Node& gemm, Rewriter& rw) -> absl::StatusOr<int64_t> {
            if (gemm.num_inputs() < 2) return 0;
            int64_t rewrites = 0;
            for (size_t i : {0, 1}) {
              const TransposedOperandMatcher& operand = (*operands)[i];
              const Captures* m = rw.Match(operand.transposed, gemm.input(i));
              if (m == nullptr) continue;
              ir::Value* x = (*m)[operand.x];
              ir::Node* transpose = (*m)[operand.transpose];
              const char* attr = i == 0 ? "transA" : "transB";
              rw.SetAttribute(gemm, ir::Attribute::Int(attr, gemm.GetInt(attr, 0) == 0 ? 1 : 0));
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
  FuseTransposeIntoGemm()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{TransposeIntoGemmPattern()}; }) {
  }
};

}  // namespace

REGISTER_PASS(FuseTransposeIntoGemm, FuseTransposeIntoGemm::kName,
              "absorb a 2-D Transpose into Gemm's transA/transB");

}  // namespace onnx_opt::passes
