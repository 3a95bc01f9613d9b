// unused-opsets: removes opset imports of domains that no node of the model (or of a function body,
// for the function's own imports) uses. The default ONNX domain always stays.
#include <algorithm>
#include <set>
#include <string>

#include "ir/captures.h"
#include "optimizer/pass_registry.h"

namespace onnx_opt::passes {
namespace {

std::set<std::string> UsedDomains(const ir::Graph& g) {
  std::set<std::string> used;
  ir::ForEachNodeRecursive(
      g, [&](ir::Node* n) { used.insert(n->is_onnx_domain() ? "" : n->domain()); });
  return used;
}

int64_t Prune(std::vector<ir::OpsetImport>& imports, const std::set<std::string>& used) {
  const size_t before = imports.size();
  auto unused = [&](const ir::OpsetImport& imp) {
    return !ir::IsOnnxDomain(imp.domain) && !used.count(imp.domain);
  };
  // A model must import some operator set (IR >= 3, as ONNX's checker requires): when every node is
  // gone and only unused imports are left, the first one stays.
  if (std::all_of(imports.begin(), imports.end(), unused)) {
    if (before <= 1) return 0;
    imports.erase(imports.begin() + 1, imports.end());
    return static_cast<int64_t>(before - 1);
  }
  std::erase_if(imports, unused);
  return static_cast<int64_t>(before - imports.size());
}

class EliminateUnusedOpsetImports final : public optimizer::Pass {
 public:
  static constexpr char kName[] = "unused-opsets";
  std::string_view name() const override { return kName; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    // Only imports of other domains than ai.onnx can go: without any, there is no need to walk.
    auto has_other_domain = [](const std::vector<ir::OpsetImport>& imports) {
      return std::any_of(imports.begin(), imports.end(),
                         [](const ir::OpsetImport& imp) { return !ir::IsOnnxDomain(imp.domain); });
    };
    bool any_other = has_other_domain(model.opset_imports());
    for (const auto& f : model.functions()) any_other |= has_other_domain(f->opset_imports());
    if (!any_other) return false;
    std::set<std::string> used = UsedDomains(model.graph());
    int64_t removed = 0;
    for (auto& f : model.functions()) {
      // A function's domain must stay imported while the function exists; its body's domains too.
      std::set<std::string> body_used = UsedDomains(f->body());
      used.insert(f->domain());
      used.insert(body_used.begin(), body_used.end());
      removed += Prune(f->mutable_opset_imports(), body_used);
    }
    removed += Prune(model.mutable_opset_imports(), used);
    ctx.CountRewrite(removed);
    return removed > 0;
  }
};

}  // namespace

REGISTER_PASS(EliminateUnusedOpsetImports, EliminateUnusedOpsetImports::kName,
              "remove opset imports no node uses");

}  // namespace onnx_opt::passes
