// ir::Model -> ONNX wire bytes, written straight from the IR: the bytes protobuf would write for
// the ModelProto that ExportModel (proto_export.h) builds, byte for byte (fields in number order,
// as protobuf's serializer writes them), without building that message first. Building it cost a
// message object per node, attribute, value_info and tensor, a copy of every name, and the page
// faults of that memory: most of a save besides the kernel's write. The large messages (graph,
// node, attribute, value_info, type, tensor with raw data) are written here; rare ones (functions,
// sparse tensors, tensors kept in typed fields or external data, training info, device
// configurations) go through their ExportX function and protobuf, so their rules live in one place.
//
// Large raw_data payloads are not copied: the result is a list of pieces, some pointing at the
// tensors' own bytes, for writev.
#ifndef ONNX_OPT_IR_IO_WIRE_EXPORT_H_
#define ONNX_OPT_IR_IO_WIRE_EXPORT_H_

#include "absl/status/statusor.h"
#include "ir/io/payload_splice.h"
#include "ir/io/proto_export.h"
#include "ir/model.h"

namespace onnx_opt::ir::io {

// Every raw_data of kMinSplicedPayload bytes or more becomes a piece of its own.
absl::StatusOr<SplicedModel> WriteModelWire(const Model& model, const ExportOptions& options);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_WIRE_EXPORT_H_
