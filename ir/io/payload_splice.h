// Large tensor payloads travel around protobuf instead of through it. Protobuf copies every bytes
// field it parses into a string of its own and every one it serializes into its output buffer, so a
// 5 MB model cost two extra copies of its weights each way (and the page faults of fresh memory for
// them, the larger part of the time). Here the serialized ModelProto is rewritten at the wire level
// instead, using only where TensorProtos can sit (ModelProto.graph and .functions, GraphProto.node,
// .initializer and .sparse_initializer, NodeProto.attribute, AttributeProto.t/.g/.tensors/.graphs/
// .sparse_tensor/.sparse_tensors, FunctionProto.node/.attribute_proto, SparseTensorProto.values/
// .indices):
//
//  - Loading (StripPayloads): each TensorProto.raw_data of at least `min_bytes` is cut out of the
//    file's bytes and replaced by a marker, a varint field numbered kPayloadMarkerField holding the
//    payload's index, which protobuf parses as an unknown field. The importer gives the tensor a
//    view of the payload in the mapped file: the weights are never copied.
//  - SplicePayloads is the way back: each marker replaced by the raw_data field (its bytes a piece
//    pointing at the payload), in the place protobuf would have written it. The load fuzzer checks
//    that it gives the file's bytes back. (Saving writes the wire bytes itself: wire_export.h.)
//
// Enclosing messages get their length prefixes recomputed; messages without a payload inside are
// passed through as they are. Anything the rewrite does not expect (bad wire data, groups, the
// marker number already in use, nesting deeper than protobuf's own limit) makes StripPayloads give
// up, and the caller parses the bytes as they are, so errors are protobuf's and the importer's as
// before.
#ifndef ONNX_OPT_IR_IO_PAYLOAD_SPLICE_H_
#define ONNX_OPT_IR_IO_PAYLOAD_SPLICE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace onnx_opt::ir::io {

// The largest field number protobuf allows; no ONNX message comes near it.
inline constexpr uint32_t kPayloadMarkerField = (uint32_t{1} << 29) - 1;

// Payloads smaller than this stay inside the message. Above it a view is cheaper than a copy even
// for a BatchNormalization's 256-byte scale: the copy is fresh memory, paid in page faults
// (cnn-700: 1024 -> 64 took 120 of ~1100 page faults off a conversion), while a marker and its
// pieces take a few dozen bytes.
inline constexpr size_t kMinSplicedPayload = 64;

// Returns the ModelProto bytes without the large raw_data payloads (see above), each payload's
// place in `bytes` appended to `payloads` (index = marker value); nullopt when the bytes hold
// nothing to cut out or cannot be rewritten (parse them as they are).
std::optional<std::string> StripPayloads(std::string_view bytes, size_t min_bytes,
                                         std::vector<std::string_view>* payloads);

// A serialized ModelProto as consecutive pieces: pieces of `serialized`, rewritten length prefixes
// and tags, and the payloads themselves.
struct SplicedModel {
  std::vector<std::string_view> pieces;
  uint64_t size = 0;
  std::deque<std::string> owned;  // the rewritten tags and lengths (a deque: they never move)
  std::vector<std::unique_ptr<char[]>>
      blocks;  // other memory the pieces point into (wire_export.h)
  std::string Concatenate() const;
};

// StripPayloads as pieces of `bytes` and of memory the result owns: the loader parses them where
// they lie (joining them was a fifth of the cut's time).
std::optional<SplicedModel> StripPayloadsToPieces(std::string_view bytes, size_t min_bytes,
                                                  std::vector<std::string_view>* payloads);

// Replaces each marker in `serialized` (a ModelProto with markers, as StripPayloads leaves it) by
// the raw_data field holding payloads[marker]. The pieces point into `serialized`, the payloads'
// bytes and memory the result owns, so those must outlive it. Fails on a marker without a payload.
absl::StatusOr<SplicedModel> SplicePayloads(std::string_view serialized,
                                            const std::vector<std::string_view>& payloads);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_PAYLOAD_SPLICE_H_
