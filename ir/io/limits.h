// Limits that keep hostile or broken files from exhausting the stack or memory.
#ifndef ONNX_OPT_IR_IO_LIMITS_H_
#define ONNX_OPT_IR_IO_LIMITS_H_

#include <climits>
#include <cstdint>

namespace onnx_opt::ir::io {

// Subgraphs (If/Loop/Scan bodies) nested deeper than this are refused. Real models nest a handful.
inline constexpr int kMaxGraphDepth = 256;

// Protobuf's own recursion limit while parsing. Each graph level costs three message levels
// (GraphProto -> NodeProto -> AttributeProto); the rest leaves room for nested types. Deeper data
// fails to parse with a clear error instead of overflowing the stack.
inline constexpr int kProtoRecursionLimit = 3 * kMaxGraphDepth + 64;

// Protobuf cannot parse or serialize a message of 2 GiB or more.
inline constexpr uint64_t kMaxProtoBytes = INT_MAX;

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_LIMITS_H_
