#include "schema/shape_fold.h"

#include <algorithm>
#include <vector>

namespace onnx_opt::schema {

std::pair<int64_t, int64_t> ShapeOpRange(const ir::Node& n, int64_t rank, int64_t opset) {
  constexpr int64_t kStartEndSince = 15;  // Shape-15 added start and end
  int64_t start = opset >= kStartEndSince ? n.GetInt("start", 0) : 0;
  int64_t end = opset >= kStartEndSince ? n.GetInt("end", rank) : rank;
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, 0, rank);
  return {start, std::max(start, end)};
}

std::optional<ir::Tensor> FoldShapeOrSize(const ir::Node& n, const ir::Type& input_type,
                                          int64_t opset) {
  if (!n.is_onnx_domain() || (n.op_type() != "Shape" && n.op_type() != "Size")) return std::nullopt;
  if (!input_type.is_tensor() || !input_type.shape().has_value() ||
      !input_type.shape()->is_static()) {
    return std::nullopt;
  }
  std::vector<int64_t> dims;
  for (const ir::Dim& d : input_type.shape()->dims()) dims.push_back(d.value());
  if (n.op_type() == "Size") {
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    return ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {}, {count});
  }
  const auto [start, end] = ShapeOpRange(n, static_cast<int64_t>(dims.size()), opset);
  std::vector<int64_t> values(dims.begin() + start, dims.begin() + end);
  const int64_t count = static_cast<int64_t>(values.size());
  return ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {count}, values);
}

}  // namespace onnx_opt::schema
