// fuse-matmul-add: Add(MatMul(A, B), C) with A and B of rank 2 becomes Gemm(A, B, C) when C
// broadcasts one way to the [M, N] result (a scalar, [N], [1, N], [M, 1] or [M, N]) and the element
// type is one Gemm takes. Ranks come from the values' types (run infer-shapes first).
#include <memory>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

bool GemmType(ir::DataType t, int64_t opset) {
  return t == ir::DataType::kFloat || t == ir::DataType::kDouble || t == ir::DataType::kFloat16 ||
         (opset >= 13 && t == ir::DataType::kBfloat16);
}

// Whether c's shape broadcasts one way to [m, n] (dims may be symbolic: then they must be equal).
bool BroadcastsTo(const ir::Shape& c, const ir::Dim& m, const ir::Dim& n) {
  if (c.rank() > 2) return false;
  const ir::Dim* target[2] = {&m, &n};
  for (size_t i = 0; i < c.rank(); ++i) {
    const ir::Dim& d = c.dim(c.rank() - 1 - i);
    const ir::Dim& t = *target[1 - i];
    if (d.is_known() && d.value() == 1) continue;
    if (!(d == t) || d.is_unknown()) return false;
  }
  return true;
}

// Whether Gemm(a, b, c) computes MatMul(a, b) + c: 2-D a and b, one element type Gemm takes.
bool FitsGemm(const ir::Value* a, const ir::Value* b, const ir::Value& c, int64_t opset) {
  const ir::Shape* as = ShapeOf(a);
  const ir::Shape* bs = ShapeOf(b);
  const ir::Shape* cs = ShapeOf(&c);
  if (as == nullptr || bs == nullptr || cs == nullptr || as->rank() != 2 || bs->rank() != 2)
    return false;
  const ir::DataType type = a->type().elem_type();
  return GemmType(type, opset) && c.type().elem_type() == type &&
         BroadcastsTo(*cs, as->dim(0), bs->dim(1));
}

// MatMul(a, b) + c where c fits Gemm's bias, built once; a, b and c are bound in the captures.
struct MatMulAddMatcher {
  ValueSlot a, b, c;
  const ValuePattern bias = Capture(c).Where([this](const ir::Value& v, const MatchState& state) {
    return FitsGemm(state.captures()[a], state.captures()[b], v, state.opset());
  });
  const ValuePattern root = Op("Add", {Op("MatMul", {Capture(a), Capture(b)}).OneUse(), bias});
};

RewritePattern MatMulAddPattern() {
  auto matmul_add = std::make_shared<const MatMulAddMatcher>();
  return {
      .name = "matmul-add",
      .root_ops = {"Add"},
      .needs = {{{"MatMul"}}, {{"Add"}}},
      .min_opset = 7,  // Gemm-6 and older broadcast C only with an attribute
      .match_and_rewrite = [matmul_add](ir::Node& add, Rewriter& rw) -> absl::StatusOr<int64_t> {
        const Captures* m = rw.Match(matmul_add->root, add.output(0));
        if (m == nullptr) return 0;
        const MatMulAddMatcher& p = *matmul_add;
        return OneIfReplaced(
            rw.ReplaceWithNode(add, "Gemm", {(*m)[p.a], (*m)[p.b], (*m)[p.c]}, "_gemm"));
      }};
}

class FuseMatMulAddIntoGemm final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-matmul-add";
  FuseMatMulAddIntoGemm()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{MatMulAddPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseMatMulAddIntoGemm, FuseMatMulAddIntoGemm::kName,
              "turn a 2-D MatMul followed by Add into Gemm");

}  // namespace onnx_opt::passes
