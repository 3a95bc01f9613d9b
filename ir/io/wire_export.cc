#include "ir/io/wire_export.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/io/limits.h"
#include "ir/io/proto_parse.h"
#include "ir/io/tensor_proto.h"
#include "ir/status_macros.h"

namespace onnx_opt::ir::io {
namespace {

// Field numbers of onnx.proto, by message.
namespace model {
constexpr int kIrVersion = 1, kProducerName = 2, kProducerVersion = 3, kDomain = 4,
              kModelVersion = 5, kDocString = 6, kGraph = 7, kOpsetImport = 8, kMetadataProps = 14,
              kTrainingInfo = 20, kFunctions = 25, kConfiguration = 26;
}
namespace opset {
constexpr int kDomain = 1, kVersion = 2;
}
namespace graph {
constexpr int kNode = 1, kName = 2, kInitializer = 5, kDocString = 10, kInput = 11, kOutput = 12,
              kValueInfo = 13, kQuantizationAnnotation = 14, kSparseInitializer = 15,
              kMetadataProps = 16;
}
namespace node {
constexpr int kInput = 1, kOutput = 2, kName = 3, kOpType = 4, kAttribute = 5, kDocString = 6,
              kDomain = 7, kOverload = 8, kMetadataProps = 9, kDeviceConfigurations = 10;
}
namespace attribute {
constexpr int kName = 1, kF = 2, kI = 3, kS = 4, kT = 5, kG = 6, kFloats = 7, kInts = 8,
              kStrings = 9, kTensors = 10, kGraphs = 11, kDocString = 13, kTp = 14,
              kTypeProtos = 15, kType = 20, kRefAttrName = 21, kSparseTensor = 22,
              kSparseTensors = 23;
}
namespace value_info {
constexpr int kName = 1, kType = 2, kDocString = 3, kMetadataProps = 4;
}
namespace type {
constexpr int kTensorType = 1, kSequenceType = 4, kMapType = 5, kDenotation = 6,
              kSparseTensorType = 8, kOptionalType = 9;
constexpr int kElemType = 1, kShape = 2;  // Tensor and SparseTensor
constexpr int kSequenceElem = 1, kMapKey = 1, kMapValue = 2, kOptionalElem = 1;
constexpr int kDim = 1, kDimValue = 1, kDimParam = 2, kDimDenotation = 3;
}  // namespace type
namespace tensor {
constexpr int kDims = 1, kDataType = 2, kName = 8, kRawData = 9, kDocString = 12,
              kDataLocation = 14, kMetadataProps = 16;
}
namespace entry {
constexpr int kKey = 1, kValue = 2;
}
namespace annotation {
constexpr int kTensorName = 1, kQuantParameterTensorNames = 2;
}

enum WireType : uint32_t { kVarint = 0, kLengthDelimited = 2, kFixed32 = 5 };

// A message being written, as pieces: its own bytes, in blocks that never move (appending never
// copies what was written), and views of large payloads between them. A sub-message's own bytes are
// copied into its parent when they are few and handed over, blocks and all, when many (the graph,
// most of a model, is not copied at all); views stay views either way.
class Out {
 public:
  static constexpr size_t kBlockBytes = 64 << 10;
  static constexpr uint64_t kCopiedChildBytes = 4 << 10;

  void Clear() {
    // Keeps an own block for the next message at this depth.
    if (!blocks_.empty() && own_first_block_) {
      blocks_.resize(1);
    } else {
      blocks_.clear();
    }
    open_ = blocks_.empty() ? nullptr : blocks_.front().get();
    open_used_ = open_capacity_ = 0;
    if (open_ != nullptr) open_capacity_ = first_capacity_;
    piece_start_ = 0;
    pieces_.clear();
    size_ = view_bytes_ = 0;
    own_first_block_ = !blocks_.empty();
  }
  uint64_t size() const { return size_; }
  // Bytes in blocks (not views).
  uint64_t own_size() const { return size_ - view_bytes_; }

  void Append(const char* p, size_t n) {
    if (n == 0) return;  // p may be null then (an empty string_view), which memcpy must not get
    if (open_capacity_ - open_used_ < n) NewBlock(n);
    std::memcpy(open_ + open_used_, p, n);
    open_used_ += n;
    size_ += n;
  }
  void Varint(uint64_t v) {
    char buf[10];
    size_t n = 0;
    while (v >= 0x80) {
      buf[n++] = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    buf[n++] = static_cast<char>(v);
    Append(buf, n);
  }
  void Tag(int field, WireType wire) { Varint((static_cast<uint64_t>(field) << 3) | wire); }
  // int32, int64 and enum fields alike: a negative number is written as its 64-bit two's
  // complement.
  void Int(int field, int64_t v) {
    Tag(field, kVarint);
    Varint(static_cast<uint64_t>(v));
  }
  void Float(int field, float f) {
    Tag(field, kFixed32);
    char bytes[4];
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    for (int i = 0; i < 4; ++i) bytes[i] = static_cast<char>(bits >> (8 * i));
    Append(bytes, 4);
  }
  void Bytes(int field, std::string_view s) {
    Tag(field, kLengthDelimited);
    Varint(s.size());
    Append(s.data(), s.size());
  }
  // A length-delimited field whose bytes stay where they are.
  void View(int field, std::string_view s) {
    Tag(field, kLengthDelimited);
    Varint(s.size());
    ClosePiece();
    pieces_.push_back({s, true});
    size_ += s.size();
    view_bytes_ += s.size();
  }
  void Message(int field, Out& child) {
    Tag(field, kLengthDelimited);
    Varint(child.size());
    child.ClosePiece();
    if (child.own_size() < kCopiedChildBytes) {
      // Its own bytes are copied, its views stay views; the child keeps its block for the next one.
      for (const Piece& p : child.pieces_) {
        if (p.view) {
          ClosePiece();
          pieces_.push_back(p);
          size_ += p.bytes.size();
          view_bytes_ += p.bytes.size();
        } else {
          Append(p.bytes.data(), p.bytes.size());
        }
      }
      return;
    }
    ClosePiece();
    pieces_.insert(pieces_.end(), child.pieces_.begin(), child.pieces_.end());
    for (auto& block : child.blocks_) blocks_.push_back(std::move(block));
    size_ += child.size_;
    view_bytes_ += child.view_bytes_;
    child.blocks_.clear();
    child.own_first_block_ = false;
    child.Clear();
  }

  SplicedModel TakePieces() {
    ClosePiece();
    SplicedModel out;
    out.size = size_;
    out.pieces.reserve(pieces_.size());
    for (const Piece& p : pieces_) out.pieces.push_back(p.bytes);
    out.blocks = std::move(blocks_);
    blocks_.clear();
    own_first_block_ = false;
    Clear();
    return out;
  }

 private:
  // Ends the piece of the open block written so far (what follows goes into a new piece).
  void ClosePiece() {
    if (open_ != nullptr && open_used_ > piece_start_) {
      pieces_.push_back({std::string_view(open_ + piece_start_, open_used_ - piece_start_), false});
    }
    piece_start_ = open_used_;
  }
  void NewBlock(size_t at_least) {
    ClosePiece();
    const size_t capacity = std::max(kBlockBytes, at_least);
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(capacity));
    if (blocks_.size() == 1) {
      first_capacity_ = capacity;
      own_first_block_ = true;
    }
    open_ = blocks_.back().get();
    open_capacity_ = capacity;
    open_used_ = piece_start_ = 0;
  }

  std::vector<std::unique_ptr<char[]>> blocks_;
  bool own_first_block_ = false;  // blocks_[0] is this Out's own (kept by Clear)
  size_t first_capacity_ = 0;
  char* open_ = nullptr;  // the block being appended to
  size_t open_used_ = 0, open_capacity_ = 0, piece_start_ = 0;
  struct Piece {
    std::string_view bytes;
    bool view;  // a payload's own bytes, not in blocks_
  };
  std::vector<Piece> pieces_;
  uint64_t size_ = 0;
  uint64_t view_bytes_ = 0;
};

class WireWriter {
 public:
  explicit WireWriter(const ExportOptions& options)
      : options_(options),
        tensor_options_{options.force_raw_data, options.external_writer, options.external_threshold,
                        /*inline_external_data=*/false} {}

  absl::Status WriteModel(const Model& m, Out& out);

 private:
  // Writes a sub-message as field `field` of `parent`: `body` fills it. The buffers are kept per
  // depth and reused (a deque: a deeper one never moves a shallower one).
  template <typename Body>
  absl::Status Sub(Out& parent, int field, Body&& body) {
    if (depth_ == buffers_.size()) buffers_.emplace_back();
    Out& child = buffers_[depth_++];
    child.Clear();
    absl::Status s = body(child);
    --depth_;
    if (s.ok()) parent.Message(field, child);
    return s;
  }
  // A sub-message written by protobuf (which cannot write one of 2 GiB or more).
  static absl::Status Proto(Out& parent, int field, const google::protobuf::MessageLite& message) {
    const size_t size = message.ByteSizeLong();
    if (size > kMaxProtoBytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("a ", message.GetTypeName(), " of ", size,
                       " bytes: protobuf cannot write 2 GiB or more"));
    }
    parent.Bytes(field, message.SerializeAsString());
    return absl::OkStatus();
  }

  absl::Status WriteGraph(const Graph& g, Out& out);
  absl::Status WriteNode(const Node& n, Out& out);
  absl::Status WriteAttribute(const Attribute& a, Out& out);
  absl::Status WriteTensor(const Tensor& t, const std::string* name, Out& out);
  absl::Status WriteTensorField(Out& parent, int field, const Tensor& t,
                                const std::string* name = nullptr);
  absl::Status WriteSparseTensorField(Out& parent, int field, const SparseTensor& t,
                                      const std::string* name);
  void WriteType(const Type& t, Out& out);
  void WriteTypeField(Out& parent, int field, const Type& t);
  void WriteShapeField(Out& parent, const Shape& shape);
  void WriteValueInfo(Out& parent, int field, const std::string& name, const Type& type,
                      const std::string& doc, const StringPairs& metadata);
  void WritePairs(Out& parent, int field, const StringPairs& pairs);
  absl::Status WriteParsed(Out& parent, int field, const std::string& bytes, const char* what,
                           const char* kind, google::protobuf::Message* message);

  const ExportOptions& options_;
  TensorExportOptions tensor_options_;
  std::deque<Out> buffers_;
  size_t depth_ = 0;
};

// Writes a string field when it is set or was written explicitly empty.
void MaybeBytes(Out& out, int field, const std::string& value, const ExplicitDefaults& defaults) {
  if (!value.empty() || defaults.has(field)) out.Bytes(field, value);
}

void WireWriter::WritePairs(Out& parent, int field, const StringPairs& pairs) {
  for (const auto& pair : pairs) {
    (void)Sub(parent, field, [&](Out& e) {
      e.Bytes(entry::kKey, pair.first);
      e.Bytes(entry::kValue, pair.second);
      return absl::OkStatus();
    });
  }
}

absl::Status WireWriter::WriteParsed(Out& parent, int field, const std::string& bytes,
                                     const char* what, const char* kind,
                                     google::protobuf::Message* message) {
  RETURN_IF_ERROR(ParseProtoBytes(bytes, what, kind, message));
  return Proto(parent, field, *message);
  return absl::OkStatus();
}

absl::Status WireWriter::WriteModel(const Model& m, Out& out) {
  const ExplicitDefaults& d = m.explicit_defaults();
  if (m.ir_version() != 0 || d.has(model::kIrVersion)) out.Int(model::kIrVersion, m.ir_version());
  MaybeBytes(out, model::kProducerName, m.producer_name(), d);
  MaybeBytes(out, model::kProducerVersion, m.producer_version(), d);
  MaybeBytes(out, model::kDomain, m.domain(), d);
  if (m.model_version().has_value()) out.Int(model::kModelVersion, *m.model_version());
  MaybeBytes(out, model::kDocString, m.doc_string(), d);
  RETURN_IF_ERROR(Sub(out, model::kGraph, [&](Out& g) { return WriteGraph(m.graph(), g); }));
  for (const OpsetImport& imp : m.opset_imports()) {
    (void)Sub(out, model::kOpsetImport, [&](Out& o) {
      if (!imp.domain.empty() || imp.explicit_defaults.has(opset::kDomain))
        o.Bytes(opset::kDomain, imp.domain);
      if (imp.version != 0 || imp.explicit_defaults.has(opset::kVersion))
        o.Int(opset::kVersion, imp.version);
      return absl::OkStatus();
    });
  }
  WritePairs(out, model::kMetadataProps, m.metadata_props());
  for (const std::string& bytes : m.training_info()) {
    onnx::TrainingInfoProto p;
    RETURN_IF_ERROR(
        WriteParsed(out, model::kTrainingInfo, bytes, "training_info", "a TrainingInfoProto", &p));
  }
  for (const auto& f : m.functions()) {
    onnx::FunctionProto p;
    RETURN_IF_ERROR(ExportFunction(*f, options_, &p));
    RETURN_IF_ERROR(Proto(out, model::kFunctions, p));
  }
  for (const std::string& bytes : m.configuration()) {
    onnx::DeviceConfigurationProto p;
    RETURN_IF_ERROR(WriteParsed(out, model::kConfiguration, bytes, "configuration",
                                "a DeviceConfigurationProto", &p));
  }
  return absl::OkStatus();
}

absl::Status WireWriter::WriteGraph(const Graph& g, Out& out) {
  const ExplicitDefaults& d = g.explicit_defaults();
  for (const Node* n : g.nodes()) {
    RETURN_IF_ERROR(Sub(out, graph::kNode, [&](Out& o) { return WriteNode(*n, o); }));
  }
  MaybeBytes(out, graph::kName, g.name(), d);
  for (const Value* v : g.initializers()) {
    // The value's name is the truth (passes rename values).
    RETURN_IF_ERROR(WriteTensorField(out, graph::kInitializer, *v->initializer(), &v->name()));
  }
  MaybeBytes(out, graph::kDocString, g.doc_string(), d);
  for (const Value* v : g.inputs()) {
    WriteValueInfo(out, graph::kInput, v->name(), v->type(), v->doc_string(), v->metadata_props());
  }
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    const Value* v = g.outputs()[i];
    if (const std::optional<OutputInfo>& info = g.output_info(i); info.has_value()) {
      WriteValueInfo(out, graph::kOutput, v->name(), info->type, info->doc_string,
                     info->metadata_props);
    } else {
      WriteValueInfo(out, graph::kOutput, v->name(), v->type(), v->doc_string(),
                     v->metadata_props());
    }
  }
  for (const ValueInfoEntry& e : ValueInfoInOrder(g)) {
    if (e.value != nullptr) {
      const Value& v = *e.value;
      WriteValueInfo(out, graph::kValueInfo, v.name(), v.type(), v.doc_string(),
                     v.metadata_props());
    } else {
      const DanglingValueInfo& v = *e.dangling;
      WriteValueInfo(out, graph::kValueInfo, v.name, v.type, v.doc_string, v.metadata_props);
    }
  }
  for (const TensorAnnotation& a : g.quantization_annotation()) {
    (void)Sub(out, graph::kQuantizationAnnotation, [&](Out& o) {
      o.Bytes(annotation::kTensorName, a.tensor_name);
      WritePairs(o, annotation::kQuantParameterTensorNames, a.quant_parameter_tensor_names);
      return absl::OkStatus();
    });
  }
  for (const Value* v : g.sparse_initializers()) {
    RETURN_IF_ERROR(WriteSparseTensorField(out, graph::kSparseInitializer, *v->sparse_initializer(),
                                           &v->name()));
  }
  WritePairs(out, graph::kMetadataProps, g.metadata_props());
  return absl::OkStatus();
}

absl::Status WireWriter::WriteNode(const Node& n, Out& out) {
  const ExplicitDefaults& d = n.explicit_defaults();
  for (const Value* v : n.inputs())
    out.Bytes(node::kInput, v == nullptr ? std::string_view() : v->name());
  for (size_t i = 0; i < n.num_outputs(); ++i) out.Bytes(node::kOutput, n.output(i)->name());
  MaybeBytes(out, node::kName, n.name(), d);
  MaybeBytes(out, node::kOpType, n.op_type(), d);
  for (const Attribute& a : n.attributes()) {
    absl::Status s = Sub(out, node::kAttribute, [&](Out& o) { return WriteAttribute(a, o); });
    if (!s.ok()) return absl::Status(s.code(), absl::StrCat(n.Describe(), ": ", s.message()));
  }
  MaybeBytes(out, node::kDocString, n.doc_string(), d);
  MaybeBytes(out, node::kDomain, n.domain(), d);
  MaybeBytes(out, node::kOverload, n.overload(), d);
  WritePairs(out, node::kMetadataProps, n.metadata_props());
  for (const std::string& bytes : n.device_configurations()) {
    onnx::NodeDeviceConfigurationProto p;
    RETURN_IF_ERROR(WriteParsed(out, node::kDeviceConfigurations, bytes, "device_configurations",
                                "a NodeDeviceConfigurationProto", &p));
  }
  return absl::OkStatus();
}

absl::Status WireWriter::WriteAttribute(const Attribute& a, Out& out) {
  out.Bytes(attribute::kName, a.name());
  const bool value = !a.is_reference();
  // Fields in number order: the value fields numbered below doc_string (13) first.
  if (value) {
    switch (a.kind()) {
      case AttributeKind::kFloat:
        out.Float(attribute::kF, a.f);
        break;
      case AttributeKind::kInt:
        out.Int(attribute::kI, a.i);
        break;
      case AttributeKind::kString:
        out.Bytes(attribute::kS, a.s);
        break;
      case AttributeKind::kTensor:
        RETURN_IF_ERROR(WriteTensorField(out, attribute::kT, a.t));
        break;
      case AttributeKind::kGraph:
        if (a.g == nullptr)
          return absl::InvalidArgumentError(
              absl::StrCat("attribute '", a.name(), "' has no graph"));
        RETURN_IF_ERROR(Sub(out, attribute::kG, [&](Out& o) { return WriteGraph(*a.g, o); }));
        break;
      case AttributeKind::kFloats:
        for (float f : a.floats) out.Float(attribute::kFloats, f);
        break;
      case AttributeKind::kInts:
        for (int64_t i : a.ints) out.Int(attribute::kInts, i);
        break;
      case AttributeKind::kStrings:
        for (const std::string& s : a.strings) out.Bytes(attribute::kStrings, s);
        break;
      case AttributeKind::kTensors:
        for (const Tensor& t : a.tensors)
          RETURN_IF_ERROR(WriteTensorField(out, attribute::kTensors, t));
        break;
      case AttributeKind::kGraphs:
        for (const auto& g : a.graphs) {
          RETURN_IF_ERROR(Sub(out, attribute::kGraphs, [&](Out& o) { return WriteGraph(*g, o); }));
        }
        break;
      default:
        break;  // numbered after doc_string: below
    }
  }
  if (!a.doc_string().empty()) out.Bytes(attribute::kDocString, a.doc_string());
  if (value && a.kind() == AttributeKind::kTypeProto) WriteTypeField(out, attribute::kTp, a.tp);
  if (value && a.kind() == AttributeKind::kTypeProtos) {
    for (const Type& t : a.type_protos) WriteTypeField(out, attribute::kTypeProtos, t);
  }
  if (a.kind() != AttributeKind::kUndefined)
    out.Int(attribute::kType, static_cast<int64_t>(a.kind()));
  if (!a.ref_attr_name().empty()) out.Bytes(attribute::kRefAttrName, a.ref_attr_name());
  if (value && a.kind() == AttributeKind::kSparseTensor) {
    RETURN_IF_ERROR(
        WriteSparseTensorField(out, attribute::kSparseTensor, a.sparse_tensor, nullptr));
  }
  if (value && a.kind() == AttributeKind::kSparseTensors) {
    for (const SparseTensor& t : a.sparse_tensors) {
      RETURN_IF_ERROR(WriteSparseTensorField(out, attribute::kSparseTensors, t, nullptr));
    }
  }
  return absl::OkStatus();
}

absl::Status WireWriter::WriteTensorField(Out& parent, int field, const Tensor& t,
                                          const std::string* name) {
  // What ExportTensor writes other than inline raw data (typed fields, strings, segments, external
  // data) is rare: it writes those, and protobuf serializes them.
  const bool to_writer =
      options_.external_writer != nullptr &&
      (t.storage() == Tensor::Storage::kExternal || t.raw_size() >= options_.external_threshold);
  const bool direct = t.data_type() != DataType::kString && !t.segment().has_value() &&
                      !to_writer && t.storage() != Tensor::Storage::kExternal &&
                      (t.storage() != Tensor::Storage::kTyped || options_.force_raw_data);
  if (!direct) {
    onnx::TensorProto p;
    RETURN_IF_ERROR(ExportTensor(t, tensor_options_, &p));
    if (name != nullptr) p.set_name(*name);
    return Proto(parent, field, p);
  }
  return Sub(parent, field, [&](Out& o) { return WriteTensor(t, name, o); });
}

// The tensors ExportTensor writes with raw_data (or no data), as it writes them.
absl::Status WireWriter::WriteTensor(const Tensor& t, const std::string* name, Out& out) {
  // The ExplicitDefaults field numbers of a tensor are its TensorProto field numbers.
  const ExplicitDefaults& d = t.explicit_defaults();
  for (int64_t dim : t.dims()) out.Int(tensor::kDims, dim);
  if (t.data_type() != DataType::kUndefined || d.has(tensor::kDataType)) {
    out.Int(tensor::kDataType, static_cast<int32_t>(t.data_type()));
  }
  if (name != nullptr) {
    out.Bytes(tensor::kName, *name);
  } else {
    MaybeBytes(out, tensor::kName, t.name(), d);
  }
  if (t.storage() != Tensor::Storage::kNone || t.raw_size() > 0) {
    const std::string_view raw = t.raw_data() != nullptr ? t.raw_view() : std::string_view();
    if (raw.size() >= kMinSplicedPayload) {
      out.View(tensor::kRawData, raw);
    } else {
      out.Bytes(tensor::kRawData, raw);
    }
  }
  MaybeBytes(out, tensor::kDocString, t.doc_string(), d);
  if (d.has(tensor::kDataLocation))
    out.Int(tensor::kDataLocation, 0);  // DEFAULT, written explicitly
  WritePairs(out, tensor::kMetadataProps, t.metadata_props());
  return absl::OkStatus();
}

absl::Status WireWriter::WriteSparseTensorField(Out& parent, int field, const SparseTensor& t,
                                                const std::string* name) {
  onnx::SparseTensorProto p;
  RETURN_IF_ERROR(ExportSparseTensor(t, tensor_options_, &p));
  if (name != nullptr) p.mutable_values()->set_name(*name);
  return Proto(parent, field, p);
}

void WireWriter::WriteValueInfo(Out& parent, int field, const std::string& name, const Type& type,
                                const std::string& doc, const StringPairs& metadata) {
  (void)Sub(parent, field, [&](Out& o) {
    o.Bytes(value_info::kName, name);
    if (!type.is_none() || !type.denotation().empty()) WriteTypeField(o, value_info::kType, type);
    if (!doc.empty()) o.Bytes(value_info::kDocString, doc);
    WritePairs(o, value_info::kMetadataProps, metadata);
    return absl::OkStatus();
  });
}

void WireWriter::WriteTypeField(Out& parent, int field, const Type& t) {
  (void)Sub(parent, field, [&](Out& o) {
    WriteType(t, o);
    return absl::OkStatus();
  });
}

void WireWriter::WriteShapeField(Out& parent, const Shape& shape) {
  (void)Sub(parent, type::kShape, [&](Out& s) {
    for (const Dim& dim : shape.dims()) {
      (void)Sub(s, type::kDim, [&](Out& o) {
        if (dim.is_known()) o.Int(type::kDimValue, dim.value());
        if (dim.is_symbolic()) o.Bytes(type::kDimParam, dim.symbol());
        if (!dim.denotation().empty()) o.Bytes(type::kDimDenotation, dim.denotation());
        return absl::OkStatus();
      });
    }
    return absl::OkStatus();
  });
}

// As ExportType writes it; the denotation (6) goes before the sparse tensor (8) and optional (9)
// kinds and after the others.
void WireWriter::WriteType(const Type& t, Out& out) {
  const bool denotation_first =
      t.kind() == Type::Kind::kSparseTensor || t.kind() == Type::Kind::kOptional;
  if (denotation_first && !t.denotation().empty()) out.Bytes(type::kDenotation, t.denotation());
  auto tensor_like = [&](Out& o) {
    o.Int(type::kElemType, static_cast<int32_t>(t.elem_type()));
    if (t.shape().has_value()) WriteShapeField(o, *t.shape());
    return absl::OkStatus();
  };
  switch (t.kind()) {
    case Type::Kind::kTensor:
      (void)Sub(out, type::kTensorType, tensor_like);
      break;
    case Type::Kind::kSparseTensor:
      (void)Sub(out, type::kSparseTensorType, tensor_like);
      break;
    case Type::Kind::kSequence:
      (void)Sub(out, type::kSequenceType, [&](Out& o) {
        if (t.has_inner()) WriteTypeField(o, type::kSequenceElem, t.inner());
        return absl::OkStatus();
      });
      break;
    case Type::Kind::kMap:
      (void)Sub(out, type::kMapType, [&](Out& o) {
        o.Int(type::kMapKey, static_cast<int32_t>(t.elem_type()));
        if (t.has_inner()) WriteTypeField(o, type::kMapValue, t.inner());
        return absl::OkStatus();
      });
      break;
    case Type::Kind::kOptional:
      (void)Sub(out, type::kOptionalType, [&](Out& o) {
        if (t.has_inner()) WriteTypeField(o, type::kOptionalElem, t.inner());
        return absl::OkStatus();
      });
      break;
    case Type::Kind::kOpaque:  // not in onnx.proto (onnx-ml only): nothing to write
    case Type::Kind::kNone:
      break;
  }
  if (!denotation_first && !t.denotation().empty()) out.Bytes(type::kDenotation, t.denotation());
}

}  // namespace

absl::StatusOr<SplicedModel> WriteModelWire(const Model& model, const ExportOptions& options) {
  Out out;
  RETURN_IF_ERROR(WireWriter(options).WriteModel(model, out));
  if (out.own_size() > kMaxProtoBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the model needs ", out.own_size(),
                     " bytes besides its tensors' raw data; protobuf cannot "
                     "write 2 GiB or more"));
  }
  return out.TakePieces();
}

}  // namespace onnx_opt::ir::io
