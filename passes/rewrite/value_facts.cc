#include "passes/rewrite/value_facts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ir/constant_value.h"
#include "ir/graph.h"

namespace onnx_opt::passes::rewrite {

ir::Node* ProducerOf(const ir::Value* v, std::string_view op, const ir::Graph* user_graph) {
  if (v == nullptr) return nullptr;
  ir::Node* n = v->producer();
  if (n == nullptr || n->graph() != user_graph || !n->is_onnx_domain() || n->op_type() != op)
    return nullptr;
  for (size_t i = 1; i < n->num_outputs(); ++i) {
    if (n->output(i)->has_uses()) return nullptr;
  }
  return n;
}

bool HasSingleUse(const ir::Value* v) {
  return v != nullptr && v->uses().size() == 1 && !v->uses()[0].is_graph_output();
}

std::optional<double> ScalarConstant(const ir::Value* v) {
  const ir::Tensor* t = ir::GetConstantTensor(v);
  if (t == nullptr) return std::nullopt;
  std::optional<std::vector<double>> d = ir::ConstantAsDoubles(*t);
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
  const ir::Tensor* t = ir::GetConstantTensor(n.input(1));
  if (t == nullptr) return std::nullopt;
  return ir::ConstantAsInts(*t);
}

std::optional<int64_t> RankOf(const ir::Value* v) {
  if (v == nullptr || !v->type().is_tensor() || !v->type().shape().has_value()) return std::nullopt;
  return static_cast<int64_t>(v->type().shape()->rank());
}

const ir::Shape* ShapeOf(const ir::Value* v) {
  if (v == nullptr || !v->type().is_tensor() || !v->type().shape().has_value()) return nullptr;
  return &*v->type().shape();
}

bool SameDim(const ir::Dim& a, const ir::Dim& b) {
  if (a.is_known() && b.is_known()) return a.value() == b.value();
  return a.is_symbolic() && b.is_symbolic() && a.symbol() == b.symbol();
}

std::optional<ir::DataType> FloatElemType(const ir::Value* v) {
  if (v == nullptr || !v->type().is_tensor()) return std::nullopt;
  const ir::DataType t = v->type().elem_type();
  if (t == ir::DataType::kFloat || t == ir::DataType::kDouble || t == ir::DataType::kFloat16 ||
      t == ir::DataType::kBfloat16) {
    return t;
  }
  return std::nullopt;
}

std::optional<std::pair<double, double>> ClipBounds(const ir::Node& clip, int64_t opset) {
  const double inf = std::numeric_limits<double>::infinity();
  if (opset < 11)
    return std::pair<double, double>{clip.GetFloat("min", -inf), clip.GetFloat("max", inf)};
  std::pair<double, double> bounds{-inf, inf};
  for (size_t i : {1, 2}) {
    if (!clip.has_input(i)) continue;
    std::optional<double> b = ScalarConstant(clip.input(i));
    if (!b) return std::nullopt;
    (i == 1 ? bounds.first : bounds.second) = *b;
  }
  return bounds;
}

}  // namespace onnx_opt::passes::rewrite
