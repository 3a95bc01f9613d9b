#include "ir/io/payload_splice.h"

#include <deque>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ir/io/limits.h"

namespace onnx_opt::ir::io {
namespace {

// The messages on the way to a TensorProto (field numbers from onnx.proto).
enum class Kind { kOther, kModel, kGraph, kNode, kAttribute, kFunction, kTensor, kSparseTensor };

constexpr uint32_t kRawDataField = 9;  // TensorProto.raw_data

Kind ChildKind(Kind parent, uint32_t field) {
  switch (parent) {
    case Kind::kModel:  // graph, functions (training_info is kept serialized, never imported)
      return field == 7 ? Kind::kGraph : field == 25 ? Kind::kFunction : Kind::kOther;
    case Kind::kGraph:  // node, initializer, sparse_initializer
      return field == 1    ? Kind::kNode
             : field == 5  ? Kind::kTensor
             : field == 15 ? Kind::kSparseTensor
                           : Kind::kOther;
    case Kind::kNode:  // attribute
      return field == 5 ? Kind::kAttribute : Kind::kOther;
    case Kind::kAttribute:  // t, g, tensors, graphs, sparse_tensor, sparse_tensors
      switch (field) {
        case 5:
        case 10:
          return Kind::kTensor;
        case 6:
        case 11:
          return Kind::kGraph;
        case 22:
        case 23:
          return Kind::kSparseTensor;
        default:
          return Kind::kOther;
      }
    case Kind::kFunction:  // node, attribute_proto
      return field == 7 ? Kind::kNode : field == 11 ? Kind::kAttribute : Kind::kOther;
    case Kind::kSparseTensor:  // values, indices
      return field == 1 || field == 2 ? Kind::kTensor : Kind::kOther;
    default:
      return Kind::kOther;
  }
}

// The singular fields that hold a TensorProto (AttributeProto.t and .sparse_tensor,
// SparseTensorProto.values and .indices). Protobuf merges a repeated occurrence into one message
// whose last raw_data wins; cut separately, a large first raw_data (now a marker) and a small
// second one (still inline) would both reach the importer, which would take the marker's bytes.
// Such files give up (StripPayloads) rather than guess: protobuf's semantics stay.
bool SingularTensorField(Kind parent, uint32_t field) {
  return (parent == Kind::kAttribute && (field == 5 || field == 22)) ||
         (parent == Kind::kSparseTensor && (field == 1 || field == 2));
}

inline bool ReadVarint(const char*& p, const char* end, uint64_t* value) {
  // Tags and lengths of a model's small fields fit one byte: most varints end here.
  if (p < end && static_cast<uint8_t>(*p) < 0x80) {
    *value = static_cast<uint8_t>(*p++);
    return true;
  }
  uint64_t v = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    const uint8_t b = static_cast<uint8_t>(*p++);
    v |= uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0) {
      *value = v;
      return true;
    }
  }
  return false;
}

std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

// One field of a message on the wire.
struct Field {
  uint32_t number = 0;
  uint32_t wire_type = 0;
  const char* begin = nullptr;  // the tag
  const char* after_tag = nullptr;
  const char* end = nullptr;   // one past the field
  const char* data = nullptr;  // length-delimited: the contents; varint: unused
  uint64_t length = 0;         // length-delimited: size of the contents
  uint64_t varint = 0;         // varint: the value
};

// Reads the field at p (advancing p); false on anything protobuf would reject or that we do not
// rewrite (groups).
[[gnu::always_inline]] inline bool NextField(const char*& p, const char* end, Field* f) {
  f->begin = p;
  uint64_t tag;
  if (!ReadVarint(p, end, &tag) || tag > UINT32_MAX) return false;
  f->after_tag = p;
  f->number = static_cast<uint32_t>(tag >> 3);
  f->wire_type = static_cast<uint32_t>(tag & 7);
  if (f->number == 0) return false;
  switch (f->wire_type) {
    case 0:
      if (!ReadVarint(p, end, &f->varint)) return false;
      break;
    case 1:
      if (end - p < 8) return false;
      p += 8;
      break;
    case 2:
      if (!ReadVarint(p, end, &f->length) || f->length > static_cast<uint64_t>(end - p))
        return false;
      f->data = p;
      p += f->length;
      break;
    case 5:
      if (end - p < 4) return false;
      p += 4;
      break;
    default:
      return false;  // groups (3, 4) and invalid types
  }
  f->end = p;
  return true;
}

// The output: consecutive pieces of memory; bytes made here (tags, lengths) are owned.
class Pieces {
 public:
  void Append(std::string_view s) {
    if (s.empty()) return;
    if (!pieces_.empty() && pieces_.back().data() + pieces_.back().size() == s.data()) {
      pieces_.back() = std::string_view(pieces_.back().data(), pieces_.back().size() + s.size());
    } else {
      pieces_.push_back(s);
    }
    size_ += s.size();
  }
  void AppendOwned(std::string s) {
    owned_.push_back(std::move(s));
    Append(owned_.back());
  }
  // A place for bytes known later (a length prefix); Fill sets them.
  size_t Reserve() {
    pieces_.emplace_back();
    return pieces_.size() - 1;
  }
  void Fill(size_t index, std::string s) {
    owned_.push_back(std::move(s));
    pieces_[index] = owned_.back();
    size_ += pieces_[index].size();
  }
  uint64_t size() const { return size_; }
  // Where the output is now; Rewind goes back there (an appended piece may have grown the last
  // one).
  struct Mark {
    size_t count;
    std::string_view last;
    uint64_t size;
  };
  Mark Here() const {
    return {pieces_.size(), pieces_.empty() ? std::string_view() : pieces_.back(), size_};
  }
  void Rewind(const Mark& m) {
    pieces_.resize(m.count);
    if (m.count > 0) pieces_.back() = m.last;
    size_ = m.size;
  }
  SplicedModel Take() && {
    SplicedModel m;
    m.pieces = std::move(pieces_);
    m.size = size_;
    m.owned = std::move(owned_);
    return m;
  }

 private:
  std::vector<std::string_view> pieces_;
  std::deque<std::string> owned_;  // a deque: its strings never move
  uint64_t size_ = 0;
};

class Rewriter {
 public:
  enum class Mode { kStrip, kSplice };
  Rewriter(Mode mode, size_t min_bytes, std::vector<std::string_view>* payloads)
      : mode_(mode), min_bytes_(min_bytes), payloads_(payloads) {}

  // Appends the rewritten contents of the message [b, e) of kind `kind`.
  bool Message(const char* b, const char* e, Kind kind, int depth) {
    if (depth > kProtoRecursionLimit) return false;
    if (kind == Kind::kTensor)
      return mode_ == Mode::kStrip ? StripTensor(b, e) : SpliceTensor(b, e);
    uint32_t singular_seen = 0;  // bit (number & 31) per field of SingularTensorField: 1, 2, 5, 22
    for (const char* p = b; p < e;) {
      Field f;
      if (!NextField(p, e, &f) || f.number == kPayloadMarkerField) return false;
      const Kind child = f.wire_type == 2 ? ChildKind(kind, f.number) : Kind::kOther;
      if (child == Kind::kOther) {
        out_.Append(std::string_view(f.begin, f.end - f.begin));
        continue;
      }
      if (SingularTensorField(kind, f.number)) {  // a second occurrence would be merged: see there
        const uint32_t bit = uint32_t{1} << (f.number & 31);
        if (singular_seen & bit) return false;
        singular_seen |= bit;
      }
      const Pieces::Mark mark = out_.Here();
      const int changes = changes_;
      out_.Append(std::string_view(f.begin, f.after_tag - f.begin));
      const size_t length = out_.Reserve();
      const uint64_t contents_start = out_.size();
      if (!Message(f.data, f.data + f.length, child, depth + 1)) return false;
      if (changes_ == changes) {  // nothing inside changed: pass the field through whole
        out_.Rewind(mark);
        out_.Append(std::string_view(f.begin, f.end - f.begin));
      } else {
        out_.Fill(length, Varint(out_.size() - contents_start));
      }
    }
    return true;
  }

  Pieces& out() { return out_; }
  int changes() const { return changes_; }

 private:
  bool StripTensor(const char* b, const char* e) {
    int raw_fields = 0;
    for (const char* p = b; p < e;) {
      Field f;
      if (!NextField(p, e, &f) || f.number == kPayloadMarkerField) return false;
      if (f.number == kRawDataField && ++raw_fields > 1)
        return false;  // protobuf keeps the last: rare, not ours
      if (f.number == kRawDataField && f.wire_type == 2 && f.length >= min_bytes_) {
        out_.AppendOwned(Varint(uint64_t{kPayloadMarkerField} << 3) + Varint(payloads_->size()));
        payloads_->push_back(std::string_view(f.data, f.length));
        ++changes_;
      } else {
        out_.Append(std::string_view(f.begin, f.end - f.begin));
      }
    }
    return true;
  }

  // Puts the raw_data field where protobuf writes it: after the fields numbered below it, before
  // those above (the marker, an unknown field, was written after all of them).
  bool SpliceTensor(const char* b, const char* e) {
    std::optional<uint64_t> index;
    for (const char* p = b; p < e;) {
      Field f;
      if (!NextField(p, e, &f)) return false;
      if (f.number == kPayloadMarkerField && f.wire_type == 0) index = f.varint;
    }
    if (!index.has_value()) {
      out_.Append(std::string_view(b, e - b));
      return true;
    }
    if (*index >= payloads_->size()) return false;
    const std::string_view payload = (*payloads_)[*index];
    bool written = false;
    auto write_payload = [&] {
      out_.AppendOwned(Varint(uint64_t{kRawDataField} << 3 | 2) + Varint(payload.size()));
      out_.Append(payload);
      written = true;
    };
    for (const char* p = b; p < e;) {
      Field f;
      NextField(p, e, &f);  // read once above
      if (f.number == kPayloadMarkerField) continue;
      if (!written && f.number > kRawDataField) write_payload();
      out_.Append(std::string_view(f.begin, f.end - f.begin));
    }
    if (!written) write_payload();
    ++changes_;
    return true;
  }

  Mode mode_;
  size_t min_bytes_;
  std::vector<std::string_view>* payloads_;
  Pieces out_;
  int changes_ = 0;
};

}  // namespace

std::string SplicedModel::Concatenate() const {
  std::string out;
  out.reserve(size);
  for (std::string_view p : pieces) out.append(p);
  return out;
}

std::optional<SplicedModel> StripPayloadsToPieces(std::string_view bytes, size_t min_bytes,
                                                  std::vector<std::string_view>* payloads) {
  const size_t first = payloads->size();
  Rewriter r(Rewriter::Mode::kStrip, min_bytes, payloads);
  if (!r.Message(bytes.data(), bytes.data() + bytes.size(), Kind::kModel, 0) || r.changes() == 0) {
    payloads->resize(first);
    return std::nullopt;
  }
  return std::move(r.out()).Take();
}

std::optional<std::string> StripPayloads(std::string_view bytes, size_t min_bytes,
                                         std::vector<std::string_view>* payloads) {
  std::optional<SplicedModel> pieces = StripPayloadsToPieces(bytes, min_bytes, payloads);
  if (!pieces.has_value()) return std::nullopt;
  return pieces->Concatenate();
}

absl::StatusOr<SplicedModel> SplicePayloads(std::string_view serialized,
                                            const std::vector<std::string_view>& payloads) {
  std::vector<std::string_view> table = payloads;
  Rewriter r(Rewriter::Mode::kSplice, 0, &table);
  if (!r.Message(serialized.data(), serialized.data() + serialized.size(), Kind::kModel, 0)) {
    return absl::InternalError(
        "cannot place tensor data in the serialized model (a marker without data)");
  }
  if (static_cast<size_t>(r.changes()) != payloads.size()) {
    return absl::InternalError(absl::StrCat("placed ", r.changes(), " of ", payloads.size(),
                                            " tensors' data in the serialized model"));
  }
  return std::move(r.out()).Take();
}

}  // namespace onnx_opt::ir::io
