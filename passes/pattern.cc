#include "passes/pattern.h"

#include "ir/graph.h"
#include "passes/constant.h"

namespace onnx_opt::passes {

ir::Node* ProducerOf(const ir::Value* v, std::string_view op, const ir::Graph* user_graph) {
  if (v == nullptr) return nullptr;
  ir::Node* n = v->producer();
  if (n == nullptr || n->graph() != user_graph || !n->is_onnx_domain() || n->op_type() != op) return nullptr;
  for (size_t i = 1; i < n->num_outputs(); ++i) {
    if (n->output(i)->has_uses()) return nullptr;
  }
  return n;
}

bool HasSingleUse(const ir::Value* v) {
  return v != nullptr && v->uses().size() == 1 && !v->uses()[0].is_graph_output();
}

std::optional<double> ScalarConstant(const ir::Value* v) {
  const ir::Tensor* t = GetConstantTensor(v);
  if (t == nullptr) return std::nullopt;
  std::optional<std::vector<double>> d = ConstantAsDoubles(*t);
  if (!d.has_value() || d->size() != 1) return std::nullopt;
  return (*d)[0];
}

ir::Value* OtherInput(const ir::Node& n, const ir::Value* known) {
  if (n.num_inputs() != 2) return nullptr;
  if (n.input(0) == known) return n.input(1);
  if (n.input(1) == known) return n.input(0);
  return nullptr;
}

std::optional<std::vector<int64_t>> AxesOf(const ir::Node& n, int64_t opset) {
  const std::string& op = n.op_type();
  const int64_t input_since = op == "Squeeze" || op == "Unsqueeze" || op == "ReduceSum" ? 13 : 18;
  if (opset < input_since) {
    const ir::Attribute* a = n.FindAttribute("axes");
    if (a == nullptr || a->kind() != ir::AttributeKind::kInts) return std::nullopt;
    return a->ints;
  }
  if (n.num_inputs() < 2 || !n.has_input(1)) return std::nullopt;
  const ir::Tensor* t = GetConstantTensor(n.input(1));
  if (t == nullptr) return std::nullopt;
  return ConstantAsInts(*t);
}

}  // namespace onnx_opt::passes
