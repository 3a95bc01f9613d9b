// A value of ONNX test data (test_data_set_*/input_*.pb, output_*.pb): a tensor, a sparse tensor, a
// sequence, a map or an optional, as TensorProto / SparseTensorProto / SequenceProto / MapProto /
// OptionalProto (onnx-data.proto) hold them. The interpreter reads inputs and expected outputs as
// DataValues.
#ifndef ONNX_OPT_IR_IO_DATA_VALUE_H_
#define ONNX_OPT_IR_IO_DATA_VALUE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/explicit_defaults.h"
#include "ir/tensor.h"
#include "ir/type.h"

namespace onnx_opt::ir::io {

struct DataValue {
  // Numbered as SequenceProto.DataType / OptionalProto.DataType.
  enum class Kind : int32_t {
    kUndefined = 0,
    kTensor = 1,
    kSparseTensor = 2,
    kSequence = 3,
    kMap = 4,
    kOptional = 5,
  };

  Kind kind = Kind::kUndefined;
  // Sequences, maps and optionals (a tensor's name is tensor.name()).
  std::string name;
  Tensor tensor;               // kTensor
  SparseTensor sparse_tensor;  // kSparseTensor
  // kSequence: the elements. kOptional: none (an empty optional) or one. kMap: the values, one per
  // key. elem_kind is what the proto declares; it may be set while there are no elements.
  Kind elem_kind = Kind::kUndefined;
  std::vector<DataValue> elements;
  // kMap: integer keys (keys) or string keys (string_keys), as key_type says.
  DataType key_type = DataType::kUndefined;
  std::vector<int64_t> keys;
  std::vector<std::string> string_keys;
  // name / elem_type (or key_type) written with their default value.
  ExplicitDefaults explicit_defaults;

  static DataValue FromTensor(Tensor t) {
    DataValue v;
    v.kind = Kind::kTensor;
    v.tensor = std::move(t);
    return v;
  }
  bool has_value() const { return kind != Kind::kOptional || !elements.empty(); }
};

// "tensor", "sequence", ... for messages.
const char* DataValueKindName(DataValue::Kind kind);

// The kind of file that holds a value of `type` (tensor -> TensorProto, seq -> SequenceProto, ...).
DataValue::Kind DataValueKindOf(const Type& type);

// Parses bytes holding the message for `kind` (TensorProto for kTensor, ...). `source` names the
// bytes in errors. `external_data_dir`: where external tensor data would be found ("" = nowhere).
absl::StatusOr<DataValue> ParseDataValue(std::string_view bytes, DataValue::Kind kind,
                                         const std::string& source = "<memory>",
                                         const std::string& external_data_dir = "");
// The message for value.kind, serialized. Tensors read from external data are written inline.
absl::StatusOr<std::string> SerializeDataValue(const DataValue& value);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_DATA_VALUE_H_
