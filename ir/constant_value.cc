#include "ir/constant_value.h"

#include <utility>

#include "ir/node.h"
#include "ir/numeric/tensor_to_doubles.h"

namespace onnx_opt::ir {

const Tensor* GetConstantTensor(const Value* v) {
  if (v == nullptr) return nullptr;
  if (v->is_constant_initializer()) return v->initializer();
  const Node* n = v->producer();
  // The op type first: it sits in the node's first cache line, the domain does not.
  if (n == nullptr || n->op_type() != "Constant" || !n->is_onnx_domain() || n->num_outputs() != 1) {
    return nullptr;
  }
  const Attribute* a = n->FindAttribute("value");
  if (a != nullptr && a->kind() == AttributeKind::kTensor && !a->is_reference()) return &a->t.get();
  return nullptr;
}

std::optional<std::vector<double>> ConstantAsDoubles(const Tensor& t) {
  if (t.data_type() == DataType::kBool) return std::nullopt;
  return TensorToDoubles(t);
}

std::optional<std::vector<int64_t>> ConstantAsInts(const Tensor& t) {
  std::optional<uint64_t> n = t.num_elements();
  if (!n.has_value()) return std::nullopt;
  if (t.data_type() == DataType::kInt64 && t.raw_size() == *n * 8) return t.ToVector<int64_t>();
  if (t.data_type() == DataType::kInt32 && t.raw_size() == *n * 4) {
    std::vector<int64_t> out(*n);
    for (size_t i = 0; i < *n; ++i) out[i] = t.at<int32_t>(i);
    return out;
  }
  return std::nullopt;
}

Tensor MakeFloatTensor(DataType type, std::vector<int64_t> dims,
                       const std::vector<double>& values) {
  if (type == DataType::kDouble) return Tensor::FromVector<double>(type, std::move(dims), values);
  std::vector<float> f(values.begin(), values.end());
  return Tensor::FromVector<float>(DataType::kFloat, std::move(dims), f);
}

}  // namespace onnx_opt::ir
