// TensorProto <-> ir::Tensor. Import keeps the data without copying where it can (raw_data is moved
// out of the message; external data is an mmap view) and records how the file stored it, so export
// writes it back the same way. Sizes are checked against dims before anything is allocated.
#ifndef ONNX_OPT_IR_IO_TENSOR_PROTO_H_
#define ONNX_OPT_IR_IO_TENSOR_PROTO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/tensor.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {

class ExternalDataReader;
class ExternalDataWriter;

// Bytes the raw layout needs for `dims` of `type`; nullopt for a negative dim, an overflow, or a
// type without a fixed size (string, unknown numbers).
std::optional<uint64_t> ExpectedByteSize(DataType type, const std::vector<int64_t>& dims);

// `what` names the tensor in errors ("initializer 'w' of graph 'main'"); it is only called for an
// error (spelling it for each of a model's thousand tensors showed in load times). Raw data is
// moved out of `proto`. `external` resolves external data; null means external tensors are an
// error.
absl::StatusOr<Tensor> ImportTensor(onnx::TensorProto& proto, ExternalDataReader* external,
                                    absl::FunctionRef<std::string()> what);
absl::StatusOr<SparseTensor> ImportSparseTensor(onnx::SparseTensorProto& proto,
                                                ExternalDataReader* external,
                                                absl::FunctionRef<std::string()> what);

struct TensorExportOptions {
  // Write inline data as raw_data even where the file used typed fields.
  bool force_raw_data = false;
  // Where external data goes. Null: tensors read from external data keep their references.
  ExternalDataWriter* external_writer = nullptr;
  // With a writer: inline tensors with at least this many bytes of data move to external data.
  uint64_t external_threshold = UINT64_MAX;
  // Without a writer: write tensors read from external data inline (raw_data) instead of keeping
  // their references.
  bool inline_external_data = false;
};

absl::Status ExportTensor(const Tensor& tensor, const TensorExportOptions& options,
                          onnx::TensorProto* out);
absl::Status ExportSparseTensor(const SparseTensor& tensor, const TensorExportOptions& options,
                                onnx::SparseTensorProto* out);

// Upper bound of the bytes `tensor` adds to a serialized proto when written inline (typed fields
// may be larger than the raw layout: varints).
uint64_t EstimatedInlineBytes(const Tensor& tensor);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_TENSOR_PROTO_H_
