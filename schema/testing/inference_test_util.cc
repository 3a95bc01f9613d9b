#include "schema/testing/inference_test_util.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "ir/captures.h"
#include "ir/text/parser.h"

namespace onnx_opt::schema::inference::testing {
namespace {

const ir::Value* FindIn(const ir::Graph& g, std::string_view name) {
  for (const ir::Value* v : g.inputs()) {
    if (v->name() == name) return v;
  }
  for (const ir::Value* v : g.initializers()) {
    if (v->name() == name) return v;
  }
  for (const ir::Node* n : g.nodes()) {
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      if (n->output(i)->name() == name) return n->output(i);
    }
  }
  for (const ir::Node* n : g.nodes()) {
    for (const ir::Graph* sub : n->subgraphs()) {
      if (const ir::Value* v = FindIn(*sub, name)) return v;
    }
  }
  return nullptr;
}

}  // namespace

const ir::Value* Inferred::Find(std::string_view name) const {
  if (model == nullptr) return nullptr;
  return FindIn(model->graph(), name);
}

std::string Inferred::Type(std::string_view name) const {
  const ir::Value* v = Find(name);
  return v == nullptr ? "<no value>" : v->type().ToString();
}

Inferred InferModel(std::string_view text, InferOptions options) {
  Inferred r;
  auto m = ir::text::ParseModel(text);
  if (!m.ok()) {
    ADD_FAILURE() << "cannot parse the test model: " << m.status();
    r.status = m.status();
    return r;
  }
  r.model = *std::move(m);
  if (options.warnings == nullptr) options.warnings = &r.warnings;
  r.status = InferShapes(*r.model, options);
  return r;
}

Inferred InferGraph(std::string_view graph, int opset, InferOptions options) {
  return InferModel(
      absl::StrCat("<ir_version: 10, opset_import: [\"\" : ", opset, "]>\n", std::string(graph)),
      options);
}

std::string TypeOf(std::string_view graph, std::string_view value, int opset) {
  Inferred r = InferGraph(graph, opset);
  if (!r.status.ok()) return absl::StrCat("ERROR: ", r.status.message());
  if (!r.warnings.empty()) return absl::StrCat("WARNING: ", absl::StrJoin(r.warnings, "; "));
  return r.Type(value);
}

std::string WarningsOf(std::string_view graph, int opset) {
  Inferred r = InferGraph(graph, opset);
  return absl::StrJoin(r.warnings, "; ");
}

}  // namespace onnx_opt::schema::inference::testing
