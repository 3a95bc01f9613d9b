#include "ir/io/type_proto.h"

namespace onnx_opt::ir::io {
namespace {

Shape ImportShape(const onnx::TensorShapeProto& proto) {
  std::vector<Dim> dims;
  dims.reserve(proto.dim_size());
  for (const auto& d : proto.dim()) {
    Dim dim = d.has_dim_value()   ? Dim::Known(d.dim_value())
              : d.has_dim_param() ? Dim::Symbolic(d.dim_param())
                                  : Dim::Unknown();
    dim.set_denotation(d.denotation());
    dims.push_back(std::move(dim));
  }
  return Shape(std::move(dims));
}

void ExportShape(const Shape& shape, onnx::TensorShapeProto* out) {
  for (const Dim& d : shape.dims()) {
    auto* dim = out->add_dim();
    if (d.is_known()) dim->set_dim_value(d.value());
    if (d.is_symbolic()) dim->set_dim_param(d.symbol());
    if (!d.denotation().empty()) dim->set_denotation(d.denotation());
  }
}

Type InnerOrUnknown(bool has, const onnx::TypeProto& proto) {
  return has ? ImportType(proto) : Type();
}

}  // namespace

Type ImportType(const onnx::TypeProto& proto) {
  Type t;
  switch (proto.value_case()) {
    case onnx::TypeProto::kTensorType: {
      const auto& tt = proto.tensor_type();
      std::optional<Shape> shape;
      if (tt.has_shape()) shape = ImportShape(tt.shape());
      t = Type::Tensor(static_cast<DataType>(tt.elem_type()), std::move(shape));
      break;
    }
    case onnx::TypeProto::kSparseTensorType: {
      const auto& st = proto.sparse_tensor_type();
      std::optional<Shape> shape;
      if (st.has_shape()) shape = ImportShape(st.shape());
      t = Type::SparseTensor(static_cast<DataType>(st.elem_type()), std::move(shape));
      break;
    }
    case onnx::TypeProto::kSequenceType:
      t = Type::Sequence(
          InnerOrUnknown(proto.sequence_type().has_elem_type(), proto.sequence_type().elem_type()));
      break;
    case onnx::TypeProto::kMapType:
      t = Type::Map(
          static_cast<DataType>(proto.map_type().key_type()),
          InnerOrUnknown(proto.map_type().has_value_type(), proto.map_type().value_type()));
      break;
    case onnx::TypeProto::kOptionalType:
      t = Type::Optional(
          InnerOrUnknown(proto.optional_type().has_elem_type(), proto.optional_type().elem_type()));
      break;
    case onnx::TypeProto::VALUE_NOT_SET:
      break;
  }
  t.set_denotation(proto.denotation());
  return t;
}

void ExportType(const Type& type, onnx::TypeProto* out) {
  switch (type.kind()) {
    case Type::Kind::kTensor: {
      auto* tt = out->mutable_tensor_type();
      tt->set_elem_type(static_cast<int32_t>(type.elem_type()));
      if (type.shape().has_value()) ExportShape(*type.shape(), tt->mutable_shape());
      break;
    }
    case Type::Kind::kSparseTensor: {
      auto* st = out->mutable_sparse_tensor_type();
      st->set_elem_type(static_cast<int32_t>(type.elem_type()));
      if (type.shape().has_value()) ExportShape(*type.shape(), st->mutable_shape());
      break;
    }
    case Type::Kind::kSequence: {
      auto* seq = out->mutable_sequence_type();
      if (type.has_inner()) ExportType(type.inner(), seq->mutable_elem_type());
      break;
    }
    case Type::Kind::kMap: {
      auto* map = out->mutable_map_type();
      map->set_key_type(static_cast<int32_t>(type.elem_type()));
      if (type.has_inner()) ExportType(type.inner(), map->mutable_value_type());
      break;
    }
    case Type::Kind::kOptional: {
      auto* opt = out->mutable_optional_type();
      if (type.has_inner()) ExportType(type.inner(), opt->mutable_elem_type());
      break;
    }
    case Type::Kind::kOpaque:  // not in onnx.proto (onnx-ml only): nothing to write
    case Type::Kind::kNone:
      break;
  }
  if (!type.denotation().empty()) out->set_denotation(type.denotation());
}

}  // namespace onnx_opt::ir::io
