#include "passes/constant.h"

#include <cmath>
#include <cstring>

#include "interpreter/tensor.h"
#include "ir/node.h"

namespace onnx_opt::passes {

const ir::Tensor* GetConstantTensor(const ir::Value* v) {
  if (v == nullptr) return nullptr;
  if (v->is_constant_initializer()) return v->initializer();
  const ir::Node* n = v->producer();
  // The op type first: it sits in the node's first cache line, the domain does not.
  if (n == nullptr || n->op_type() != "Constant" || !n->is_onnx_domain() || n->num_outputs() != 1) {
    return nullptr;
  }
  const ir::Attribute* a = n->FindAttribute("value");
  if (a != nullptr && a->kind() == ir::AttributeKind::kTensor && !a->is_reference()) return &a->t;
  return nullptr;
}

std::optional<std::vector<double>> ConstantAsDoubles(const ir::Tensor& t) {
  std::optional<uint64_t> n = t.num_elements();
  if (!n.has_value()) return std::nullopt;
  const size_t width = static_cast<size_t>(ir::ElementBitWidth(t.data_type()) / 8);
  if (width == 0 || t.raw_size() != *n * width) return std::nullopt;
  std::vector<double> out(*n);
  for (size_t i = 0; i < *n; ++i) {
    switch (t.data_type()) {
      case ir::DataType::kFloat: out[i] = t.at<float>(i); break;
      case ir::DataType::kDouble: out[i] = t.at<double>(i); break;
      case ir::DataType::kFloat16: out[i] = interpreter::HalfToFloat(t.at<uint16_t>(i)); break;
      case ir::DataType::kBfloat16: out[i] = interpreter::Bfloat16ToFloat(t.at<uint16_t>(i)); break;
      case ir::DataType::kInt8: out[i] = t.at<int8_t>(i); break;
      case ir::DataType::kUint8: out[i] = t.at<uint8_t>(i); break;
      case ir::DataType::kInt16: out[i] = t.at<int16_t>(i); break;
      case ir::DataType::kUint16: out[i] = t.at<uint16_t>(i); break;
      case ir::DataType::kInt32: out[i] = t.at<int32_t>(i); break;
      case ir::DataType::kUint32: out[i] = t.at<uint32_t>(i); break;
      case ir::DataType::kInt64: out[i] = static_cast<double>(t.at<int64_t>(i)); break;
      case ir::DataType::kUint64: out[i] = static_cast<double>(t.at<uint64_t>(i)); break;
      default: return std::nullopt;
    }
  }
  return out;
}

std::optional<std::vector<int64_t>> ConstantAsInts(const ir::Tensor& t) {
  std::optional<uint64_t> n = t.num_elements();
  if (!n.has_value()) return std::nullopt;
  if (t.data_type() == ir::DataType::kInt64 && t.raw_size() == *n * 8) return t.ToVector<int64_t>();
  if (t.data_type() == ir::DataType::kInt32 && t.raw_size() == *n * 4) {
    std::vector<int64_t> out(*n);
    for (size_t i = 0; i < *n; ++i) out[i] = t.at<int32_t>(i);
    return out;
  }
  return std::nullopt;
}

ir::Tensor MakeFloatTensor(ir::DataType type, std::vector<int64_t> dims, const std::vector<double>& values) {
  if (type == ir::DataType::kDouble) return ir::Tensor::FromVector<double>(type, std::move(dims), values);
  std::vector<float> f(values.begin(), values.end());
  return ir::Tensor::FromVector<float>(ir::DataType::kFloat, std::move(dims), f);
}

}  // namespace onnx_opt::passes
