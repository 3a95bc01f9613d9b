// unused-functions: removes model-local functions that no node calls, directly or through other
// functions.
#include <set>
#include <tuple>

#include "ir/captures.h"
#include "optimizer/pass_registry.h"

namespace onnx_opt::passes {
namespace {

using FunctionId = std::tuple<std::string, std::string, std::string>;

class EliminateUnusedFunctions final : public optimizer::Pass {
 public:
  static constexpr char kName[] = "unused-functions";
  std::string_view name() const override { return kName; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    if (model.functions().empty()) return false;
    std::set<const ir::Function*> reached;
    std::vector<const ir::Function*> work;
    auto visit = [&](ir::Node* n) {
      const ir::Function* f = model.FindFunction(n->domain(), n->op_type(), n->overload());
      if (f != nullptr && reached.insert(f).second) work.push_back(f);
    };
    ir::ForEachNodeRecursive(model.graph(), visit);
    while (!work.empty()) {
      const ir::Function* f = work.back();
      work.pop_back();
      ir::ForEachNodeRecursive(f->body(), visit);
    }
    auto& functions = model.mutable_functions();
    const size_t before = functions.size();
    std::erase_if(functions, [&](const auto& f) { return !reached.count(f.get()); });
    ctx.CountRewrite(static_cast<int64_t>(before - functions.size()));
    return functions.size() != before;
  }
};

}  // namespace

REGISTER_PASS(EliminateUnusedFunctions, EliminateUnusedFunctions::kName,
              "remove model-local functions nothing calls");

}  // namespace onnx_opt::passes
