#include "converter/fold.h"

#include <string>
#include <vector>

#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "interpreter/value.h"
#include "ir/constant_value.h"
#include "ir/graph.h"
#include "ir/opset_import.h"
#include "schema/nondeterministic.h"
#include "schema/shape_fold.h"

namespace onnx_opt::converter {
namespace {

constexpr int kMaxDepth = 24;

}  // namespace

std::optional<ir::Tensor> Folder::Fold(const ir::Value* v, int64_t max_elements) {
  memo_.clear();  // the graph changes between calls
  return FoldImpl(v, 0, max_elements);
}

std::optional<ir::Tensor> Folder::FoldImpl(const ir::Value* v, int depth, int64_t max_elements) {
  if (v == nullptr) return std::nullopt;
  if (const ir::Tensor* t = ir::GetConstantTensor(v)) return *t;
  auto memo = memo_.find(v);
  if (memo != memo_.end()) return memo->second;
  memo_[v] = std::nullopt;  // also guards against cycles
  const ir::Node* p = v->producer();
  if (p == nullptr || depth > kMaxDepth || !p->is_onnx_domain() || schema::IsNondeterministic(*p) ||
      !p->subgraphs().empty()) {
    return std::nullopt;
  }
  std::optional<ir::Tensor> result;
  if ((p->op_type() == "Shape" || p->op_type() == "Size") && p->num_inputs() == 1 &&
      p->input(0) != nullptr) {
    // Shape/Size of a value whose (inferred) shape is static, at the node's own ai.onnx opset.
    const int64_t opset = ir::FindOpsetVersion(opsets_for_(*p), "").value_or(0);
    result = schema::FoldShapeOrSize(*p, type_of_(p->input(0)), opset);
  }
  if (!result.has_value()) {
    std::vector<interpreter::RuntimeValue> values;
    values.reserve(p->num_inputs());
    std::vector<bool> present;
    for (const ir::Value* in : p->inputs()) {
      if (in == nullptr) {
        values.emplace_back();
        present.push_back(false);
        continue;
      }
      std::optional<ir::Tensor> t = FoldImpl(in, depth + 1, max_elements);
      if (!t.has_value()) return std::nullopt;
      absl::StatusOr<interpreter::Tensor> rt = interpreter::Tensor::FromIr(*t);
      if (!rt.ok()) return std::nullopt;
      values.emplace_back(*std::move(rt));
      present.push_back(true);
    }
    std::vector<const interpreter::RuntimeValue*> ptrs;
    for (size_t i = 0; i < values.size(); ++i) ptrs.push_back(present[i] ? &values[i] : nullptr);
    ir::Graph scratch("fold");
    interpreter::Evaluator ev(scratch, opsets_for_(*p));
    absl::StatusOr<std::vector<interpreter::RuntimeValue>> outs = ev.RunNode(*p, ptrs);
    if (!outs.ok()) return std::nullopt;
    const size_t index = v->output_index();
    if (index >= outs->size() || !(*outs)[index].is_tensor()) return std::nullopt;
    const interpreter::Tensor& t = (*outs)[index].tensor();
    if (t.size() > max_elements) return std::nullopt;
    result = t.ToIr();
  }
  if (result.has_value()) {
    std::optional<uint64_t> n = result->num_elements();
    if (!n.has_value() || static_cast<int64_t>(*n) > max_elements) result = std::nullopt;
  }
  memo_[v] = result;
  return result;
}

}  // namespace onnx_opt::converter
