// Loading a model without holding all of it as protobuf messages at once. Parsing a whole
// ModelProto builds a message for every node, attribute and initializer before the importer reads
// any of them, about as much memory again as the imported model; fresh memory is paid in page
// faults, the larger part of a load. Here the file's top-level fields are scanned on the wire
// instead: the main graph's nodes and initializers are parsed one at a time into messages that are
// reused, and everything else (the model's other fields, the graph's inputs, outputs and
// value_info) is parsed as before. Large raw_data is cut out first (payload_splice.h), so tensors
// stay views of the file.
#ifndef ONNX_OPT_IR_IO_STREAMED_LOAD_H_
#define ONNX_OPT_IR_IO_STREAMED_LOAD_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "ir/buffer.h"
#include "ir/io/proto_import.h"
#include "ir/model.h"

namespace onnx_opt::ir::io {

// The model in `bytes` (`source` names it in errors), or nullopt when its top-level fields cannot
// be streamed: wire data the scan does not follow (truncated, groups), no graph, or the graph field
// given more than once (protobuf would merge the copies). The caller then parses the bytes whole,
// which gives protobuf's own verdict. Errors are those of a whole parse and ImportModel, except
// that of two faults in different nodes the first one met is reported.
std::optional<absl::StatusOr<std::unique_ptr<Model>>> LoadStreamed(
    std::shared_ptr<const Buffer> bytes, const std::string& source, ImportOptions import);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_STREAMED_LOAD_H_
