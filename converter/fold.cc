#include "converter/fold.h"

#include <algorithm>
#include <string>
#include <vector>

#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "interpreter/value.h"
#include "ir/graph.h"
#include "passes/constant.h"

namespace onnx_opt::converter {
namespace {

constexpr int kMaxDepth = 24;

bool IsRandomOp(const ir::Node& n) {
  const std::string& op = n.op_type();
  return op == "RandomNormal" || op == "RandomNormalLike" || op == "RandomUniform" ||
         op == "RandomUniformLike" || op == "Bernoulli" || op == "Multinomial" || op == "Dropout";
}

}  // namespace

std::optional<ir::Tensor> Folder::Fold(const ir::Value* v, int64_t max_elements) {
  memo_.clear();  // the graph changes between calls
  return FoldImpl(v, 0, max_elements);
}

std::optional<ir::Tensor> Folder::FoldImpl(const ir::Value* v, int depth, int64_t max_elements) {
  if (v == nullptr) return std::nullopt;
  if (const ir::Tensor* t = passes::GetConstantTensor(v)) return *t;
  auto memo = memo_.find(v);
  if (memo != memo_.end()) return memo->second;
  memo_[v] = std::nullopt;  // also guards against cycles
  const ir::Node* p = v->producer();
  if (p == nullptr || depth > kMaxDepth || !p->is_onnx_domain() || IsRandomOp(*p) ||
      !p->subgraphs().empty()) {
    return std::nullopt;
  }
  std::optional<ir::Tensor> result;
  const ir::Type* in_type = p->num_inputs() == 1 && p->input(0) != nullptr ? &type_of_(p->input(0)) : nullptr;
  const bool static_input = in_type != nullptr && in_type->is_tensor() && in_type->shape().has_value() &&
                            in_type->shape()->is_static();
  if (p->op_type() == "Size" && static_input) {
    int64_t count = 1;
    for (const ir::Dim& d : in_type->shape()->dims()) count *= d.value();
    result = ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {}, {count});
  } else if (p->op_type() == "Shape" && static_input) {
    // The shape of a statically shaped value (start/end as in Shape-15).
    std::vector<int64_t> dims;
    for (const ir::Dim& d : in_type->shape()->dims()) dims.push_back(d.value());
    const int64_t r = static_cast<int64_t>(dims.size());
    int64_t start = p->GetInt("start", 0), end = p->GetInt("end", r);
    if (start < 0) start += r;
    if (end < 0) end += r;
    start = std::clamp<int64_t>(start, 0, r);
    end = std::clamp<int64_t>(end, 0, r);
    std::vector<int64_t> out;
    for (int64_t i = start; i < end; ++i) out.push_back(dims[i]);
    result = ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {static_cast<int64_t>(out.size())}, out);
  } else {
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
