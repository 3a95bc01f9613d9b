#include "interpreter/data_value.h"

#include "absl/strings/str_cat.h"
#include "ir/status_macros.h"

namespace onnx_opt::interpreter {

using ir::io::DataValue;

absl::StatusOr<RuntimeValue> FromDataValue(const DataValue& v) {
  switch (v.kind) {
    case DataValue::Kind::kTensor: {
      ASSIGN_OR_RETURN(Tensor t, Tensor::FromIr(v.tensor));
      return RuntimeValue(std::move(t));
    }
    case DataValue::Kind::kOptional:
      if (v.elements.empty()) return RuntimeValue::None();
      return FromDataValue(v.elements[0]);
    case DataValue::Kind::kSequence: {
      std::vector<Tensor> elems;
      DataType elem_type = DataType::kUndefined;
      for (const DataValue& e : v.elements) {
        ASSIGN_OR_RETURN(RuntimeValue r, FromDataValue(e));
        if (!r.is_tensor())
          return absl::UnimplementedError("sequences of non-tensors are not supported");
        elem_type = r.tensor().dtype();
        elems.push_back(r.tensor());
      }
      return RuntimeValue::Sequence(std::move(elems), elem_type);
    }
    case DataValue::Kind::kMap: {
      Tensor keys;
      if (v.key_type == DataType::kString) {
        keys = Tensor::FromVector<std::string>(
            DataType::kString, {static_cast<int64_t>(v.string_keys.size())}, v.string_keys);
      } else {
        ASSIGN_OR_RETURN(
            keys, CastTensor(Tensor::FromVector<int64_t>(
                                 DataType::kInt64, {static_cast<int64_t>(v.keys.size())}, v.keys),
                             v.key_type));
      }
      if (v.elements.size() != 1 || v.elements[0].kind != DataValue::Kind::kTensor) {
        return absl::UnimplementedError("maps must hold their values as one tensor");
      }
      ASSIGN_OR_RETURN(Tensor values, Tensor::FromIr(v.elements[0].tensor));
      return RuntimeValue::Map(std::move(keys), std::move(values));
    }
    default:
      return absl::UnimplementedError(
          absl::StrCat("unsupported data value kind ", ir::io::DataValueKindName(v.kind)));
  }
}

absl::StatusOr<DataValue> ToDataValue(const RuntimeValue& v) {
  DataValue out;
  switch (v.kind()) {
    case RuntimeValue::Kind::kTensor:
      return DataValue::FromTensor(v.tensor().ToIr());
    case RuntimeValue::Kind::kNone:
      out.kind = DataValue::Kind::kOptional;
      return out;
    case RuntimeValue::Kind::kSequence:
      out.kind = DataValue::Kind::kSequence;
      out.elem_kind = DataValue::Kind::kTensor;
      for (const Tensor& t : v.sequence()) out.elements.push_back(DataValue::FromTensor(t.ToIr()));
      return out;
    case RuntimeValue::Kind::kMap:
      return absl::UnimplementedError("writing maps is not supported");
  }
  return out;
}

absl::StatusOr<DataValue> ToDataValue(const RuntimeValue& v, const ir::Type& type) {
  if (type.kind() != ir::Type::Kind::kOptional) return ToDataValue(v);
  const ir::Type none;
  const ir::Type& inner = type.has_inner() ? type.inner() : none;
  DataValue out;
  out.kind = DataValue::Kind::kOptional;
  if (v.is_none()) {
    // An empty optional still declares what it would hold.
    out.elem_kind = ir::io::DataValueKindOf(inner);
    return out;
  }
  ASSIGN_OR_RETURN(DataValue held, ToDataValue(v, inner));
  // The kind of what is held, not of the declaration, so a mismatch shows in what is written.
  out.elem_kind = held.kind;
  out.elements.push_back(std::move(held));
  return out;
}

}  // namespace onnx_opt::interpreter
