#include "ir/io/streamed_load.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "ir/io/limits.h"
#include "ir/io/payload_splice.h"
#include "ir/io/proto_parse.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

constexpr uint32_t kModelGraphField = 7;        // ModelProto.graph
constexpr uint32_t kGraphNodeField = 1;         // GraphProto.node
constexpr uint32_t kGraphInitializerField = 5;  // GraphProto.initializer
constexpr uint32_t kLengthDelimited = 2;
constexpr char kWhat[] = "an ONNX model";

// Reads wire fields from consecutive pieces of memory (a field may straddle two).
class PieceCursor {
 public:
  PieceCursor(const std::vector<std::string_view>& pieces, PieceSpan start)
      : pieces_(pieces), index_(start.index), offset_(start.offset), left_(start.size) {}

  bool done() const { return left_ == 0; }
  PieceSpan here() const { return PieceSpan{index_, offset_, left_}; }

  // One field: its number and wire type, and where its contents lie (length-delimited fields).
  // False on anything protobuf would reject, and on groups.
  bool Next(uint32_t* number, uint32_t* wire_type, PieceSpan* contents) {
    uint64_t tag;
    if (!Varint(&tag) || tag > UINT32_MAX || (tag >> 3) == 0) return false;
    *number = static_cast<uint32_t>(tag >> 3);
    *wire_type = static_cast<uint32_t>(tag & 7);
    uint64_t length;
    switch (*wire_type) {
      case 0:
        return Varint(&length);
      case 1:
        return Skip(8);
      case 2:
        if (!Varint(&length) || length > left_) return false;
        Settle();
        *contents = PieceSpan{index_, offset_, length};
        return Skip(length);
      case 5:
        return Skip(4);
      default:
        return false;
    }
  }

 private:
  // Moves past exhausted pieces, so that a span starting here names the piece its bytes are in.
  void Settle() {
    while (index_ < pieces_.size() && offset_ == pieces_[index_].size()) {
      ++index_;
      offset_ = 0;
    }
  }
  bool Byte(uint8_t* b) {
    if (left_ == 0) return false;
    Settle();
    if (index_ >= pieces_.size()) return false;
    *b = static_cast<uint8_t>(pieces_[index_][offset_++]);
    --left_;
    return true;
  }
  bool Varint(uint64_t* value) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t b;
      if (!Byte(&b)) return false;
      v |= uint64_t{b & 0x7fu} << shift;
      if ((b & 0x80) == 0) {
        *value = v;
        return true;
      }
    }
    return false;
  }
  bool Skip(uint64_t n) {
    if (n > left_) return false;
    left_ -= n;
    while (n > 0) {
      Settle();
      if (index_ >= pieces_.size()) return false;
      const uint64_t step = std::min<uint64_t>(n, pieces_[index_].size() - offset_);
      offset_ += step;
      n -= step;
    }
    return true;
  }

  const std::vector<std::string_view>& pieces_;
  size_t index_;
  size_t offset_;
  uint64_t left_;
};

// Walks the fields of the message in `span`: each length-delimited field `take` accepts (by number,
// with where its contents lie) is its caller's; every other field is appended to `rest`, runs of
// neighbours joined into one span. False on wire data the cursor does not follow.
template <typename Take>
bool SortFields(const std::vector<std::string_view>& pieces, PieceSpan span, Take take,
                std::vector<PieceSpan>* rest) {
  PieceCursor cursor(pieces, span);
  bool last_in_rest = false;
  while (!cursor.done()) {
    const PieceSpan start = cursor.here();
    uint32_t number, wire_type;
    PieceSpan contents;
    if (!cursor.Next(&number, &wire_type, &contents)) return false;
    if (wire_type == kLengthDelimited && take(number, contents)) {
      last_in_rest = false;
      continue;
    }
    const uint64_t size = start.size - cursor.here().size;
    if (last_in_rest) {
      rest->back().size += size;
    } else {
      rest->push_back(PieceSpan{start.index, start.offset, size});
    }
    last_in_rest = true;
  }
  return true;
}

class WireGraph final : public StreamedGraph {
 public:
  WireGraph(const std::vector<std::string_view>& pieces, const std::string& source)
      : pieces_(pieces), source_(source) {}

  // Sorts the graph's fields: nodes, initializers and the rest (the shell).
  bool Scan(PieceSpan graph) {
    return SortFields(
        pieces_, graph,
        [this](uint32_t number, PieceSpan contents) {
          if (number == kGraphNodeField) nodes_.push_back(contents);
          if (number == kGraphInitializerField) initializers_.push_back(contents);
          return number == kGraphNodeField || number == kGraphInitializerField;
        },
        &shell_spans_);
  }

  absl::Status ParseShell() { return Parse(shell_spans_, 1, &shell_); }

  onnx::GraphProto& shell() override { return shell_; }
  size_t num_nodes() const override { return nodes_.size(); }
  absl::Status ParseNode(size_t i, onnx::NodeProto* node) override {
    return Parse(absl::MakeConstSpan(&nodes_[i], 1), 2, node);
  }
  size_t num_initializers() const override { return initializers_.size(); }
  absl::Status ParseInitializer(size_t i, onnx::TensorProto* tensor) override {
    return Parse(absl::MakeConstSpan(&initializers_[i], 1), 2, tensor);
  }

  // The first parse failure, which is the load's error whatever the importer made of it.
  const absl::Status& parse_error() const { return parse_error_; }

 private:
  absl::Status Parse(absl::Span<const PieceSpan> spans, int depth,
                     google::protobuf::Message* message) {
    absl::Status s = ParseProtoSpans(pieces_, spans, depth, source_, kWhat, message);
    if (!s.ok() && parse_error_.ok()) parse_error_ = s;
    return s;
  }

  const std::vector<std::string_view>& pieces_;
  const std::string& source_;
  std::vector<PieceSpan> nodes_;
  std::vector<PieceSpan> initializers_;
  std::vector<PieceSpan> shell_spans_;
  onnx::GraphProto shell_;
  absl::Status parse_error_;
};

}  // namespace

std::optional<absl::StatusOr<std::unique_ptr<Model>>> LoadStreamed(
    std::shared_ptr<const Buffer> bytes, const std::string& source, ImportOptions import) {
  const std::string_view view(bytes->data(), bytes->size());
  if (view.empty() || view.size() > kMaxProtoBytes) return std::nullopt;
  std::optional<SplicedModel> stripped =
      StripPayloadsToPieces(view, kMinSplicedPayload, &import.spliced_payloads);
  const std::vector<std::string_view> whole = {view};
  const std::vector<std::string_view>& pieces = stripped.has_value() ? stripped->pieces : whole;
  const uint64_t size = stripped.has_value() ? stripped->size : view.size();
  if (stripped.has_value()) import.spliced_file = std::move(bytes);

  // The model's fields: the graph apart, the rest parsed as a ModelProto without it. A second graph
  // field is left to a whole parse, which merges the two.
  std::vector<PieceSpan> rest;
  std::optional<PieceSpan> graph_span;
  bool graph_twice = false;
  const bool scanned = SortFields(
      pieces, PieceSpan{0, 0, size},
      [&](uint32_t number, PieceSpan contents) {
        if (number != kModelGraphField) return false;
        graph_twice |= graph_span.has_value();
        graph_span = contents;
        return true;
      },
      &rest);
  if (!scanned || graph_twice) return std::nullopt;
  if (!graph_span.has_value()) return std::nullopt;
  WireGraph graph(pieces, source);
  if (!graph.Scan(*graph_span)) return std::nullopt;

  onnx::ModelProto model;
  if (absl::Status s = ParseProtoSpans(pieces, rest, 0, source, kWhat, &model); !s.ok())
    return OneLine(s);
  if (absl::Status s = graph.ParseShell(); !s.ok()) return OneLine(s);
  absl::StatusOr<std::unique_ptr<Model>> imported = ImportModel(model, graph, import);
  if (!graph.parse_error().ok()) return OneLine(graph.parse_error());
  if (!imported.ok()) {
    return OneLine(absl::Status(imported.status().code(),
                                absl::StrCat("'", source, "': ", imported.status().message())));
  }
  return imported;
}

}  // namespace onnx_opt::ir::io
