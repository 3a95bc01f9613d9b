// strip-doc-strings: empties every doc_string (model, functions, graphs, nodes, attributes, values,
// tensors). Doc strings are free text for people; exporters often put stack traces in them, which
// can be a large share of a small model's bytes. Not in any group: onnx-opt runs it when asked.
#include "optimizer/pass_registry.h"
#include "passes/annotations.h"

namespace onnx_opt::passes {
namespace {

class StripDocStrings final : public optimizer::Pass {
 public:
  static constexpr char kName[] = "strip-doc-strings";
  std::string_view name() const override { return kName; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    int64_t stripped = 0;
    ForEachAnnotation(model, [&](std::string& doc, ir::StringPairs*) {
      if (doc.empty()) return;
      doc.clear();
      ++stripped;
    });
    ctx.CountRewrite(stripped);
    return stripped > 0;
  }
};

}  // namespace

REGISTER_PASS(StripDocStrings, StripDocStrings::kName,
              "empty every doc_string (free text that never affects results)");

}  // namespace onnx_opt::passes
