// Parses protobuf messages from files or bytes with our limits (2 GiB, deep nesting allowed up to
// kProtoRecursionLimit), turning every failure into one clear error line.
#ifndef ONNX_OPT_IR_IO_PROTO_PARSE_H_
#define ONNX_OPT_IR_IO_PROTO_PARSE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "google/protobuf/message.h"

namespace onnx_opt::ir::io {

// `what` names the expected content in messages, e.g. "an ONNX model" or "a TensorProto":
// "cannot parse 'x.onnx' as an ONNX model: ...".
absl::Status ParseProtoFile(const std::string& path, const std::string& what,
                            google::protobuf::Message* message);

// Names in a file may hold any byte: errors that quote them are made printable and one line long
// (bytes outside printable ASCII become \n or \xNN escapes).
absl::Status OneLine(const absl::Status& status);

// `source` names the bytes in messages (a path, or "<memory>").
absl::Status ParseProtoBytes(std::string_view bytes, const std::string& source,
                             const std::string& what, google::protobuf::Message* message);

// The same for bytes given as consecutive pieces (a stripped model, payload_splice.h), parsed where
// they lie instead of joined first.
absl::Status ParseProtoPieces(const std::vector<std::string_view>& pieces, uint64_t size,
                              const std::string& source, const std::string& what,
                              google::protobuf::Message* message);

// A run of `size` bytes of consecutive pieces, starting in pieces[index] at `offset`.
struct PieceSpan {
  size_t index = 0;
  size_t offset = 0;
  uint64_t size = 0;
};

// Parses the bytes of `spans`, one after the other, as one message: some fields of a message that
// lies in `pieces` (streamed_load.h). `depth` is how deep that message sits in the file, so that
// the nesting limit counts as it would in a parse of the whole file.
absl::Status ParseProtoSpans(const std::vector<std::string_view>& pieces,
                             absl::Span<const PieceSpan> spans, int depth,
                             const std::string& source, const std::string& what,
                             google::protobuf::Message* message);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_PROTO_PARSE_H_
