#include "ir/io/tensor_proto.h"

#include <bit>
#include <cstring>
#include <optional>
#include <string_view>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/unknown_field_set.h"
#include "ir/io/external_data.h"
#include "ir/io/payload_splice.h"

namespace onnx_opt::ir::io {
namespace {

static_assert(std::endian::native == std::endian::little,
              "raw tensor data is little-endian; a big-endian port must swap bytes here");

// TensorProto field numbers, for ExplicitDefaults.
constexpr int kDataTypeField = 2;
constexpr int kNameField = 8;
constexpr int kDocStringField = 12;
constexpr int kDataLocationField = 14;

absl::Status Invalid(const std::string& what, const std::string& detail) {
  return absl::InvalidArgumentError(absl::StrCat(what, ": ", detail));
}

std::string DimsString(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// How int32_data holds a type: bytes of each element in the raw layout, whether to sign-extend, and
// how many int32 entries `n` elements need (sub-byte types: one packed byte per entry).
struct Int32Layout {
  int bytes = 0;
  bool is_signed = false;
};

std::optional<Int32Layout> Int32LayoutOf(DataType type) {
  switch (type) {
    case DataType::kInt32:
      return Int32Layout{4, true};
    case DataType::kInt16:
      return Int32Layout{2, true};
    case DataType::kInt8:
      return Int32Layout{1, true};
    case DataType::kUint16:
    case DataType::kFloat16:
    case DataType::kBfloat16:
      return Int32Layout{2, false};
    case DataType::kUint8:
    case DataType::kBool:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kUint4:
    case DataType::kInt4:
    case DataType::kFloat4E2M1:
    case DataType::kUint2:
    case DataType::kInt2:
      return Int32Layout{1, false};
    default:
      return std::nullopt;
  }
}

// Which typed field a type uses (besides int32_data), and how many entries per element.
enum class TypedField { kNone, kFloat, kInt32, kString, kInt64, kDouble, kUint64 };

TypedField TypedFieldOf(DataType type) {
  switch (type) {
    case DataType::kFloat:
    case DataType::kComplex64:
      return TypedField::kFloat;
    case DataType::kDouble:
    case DataType::kComplex128:
      return TypedField::kDouble;
    case DataType::kInt64:
      return TypedField::kInt64;
    case DataType::kUint32:
    case DataType::kUint64:
      return TypedField::kUint64;
    case DataType::kString:
      return TypedField::kString;
    default:
      return Int32LayoutOf(type) ? TypedField::kInt32 : TypedField::kNone;
  }
}

const char* FieldName(TypedField f) {
  switch (f) {
    case TypedField::kFloat:
      return "float_data";
    case TypedField::kInt32:
      return "int32_data";
    case TypedField::kString:
      return "string_data";
    case TypedField::kInt64:
      return "int64_data";
    case TypedField::kDouble:
      return "double_data";
    case TypedField::kUint64:
      return "uint64_data";
    case TypedField::kNone:
      break;
  }
  return "none";
}

// Number of entries the typed field must have for `n` elements.
uint64_t TypedEntries(DataType type, uint64_t n) {
  if (IsComplex(type)) return 2 * n;
  const int bits = ElementBitWidth(type);
  if (bits > 0 && bits < 8) return (n * bits + 7) / 8;
  return n;
}

template <typename T>
std::string CopyBytes(const google::protobuf::RepeatedField<T>& field) {
  std::string out(static_cast<size_t>(field.size()) * sizeof(T), '\0');
  if (!out.empty()) std::memcpy(out.data(), field.data(), out.size());
  return out;
}

absl::Status DecodeTyped(onnx::TensorProto& proto, TypedField field, uint64_t entries,
                         const std::string& what, Tensor* t) {
  const DataType type = t->data_type();
  auto count_error = [&](int64_t have) {
    return Invalid(
        what, absl::StrCat(FieldName(field), " has ", have, " entries; type ", DataTypeName(type),
                           " and dims ", DimsString(t->dims()), " need ", entries));
  };
  switch (field) {
    case TypedField::kFloat:
      if (static_cast<uint64_t>(proto.float_data_size()) != entries)
        return count_error(proto.float_data_size());
      t->SetRawData(CopyBytes(proto.float_data()));
      break;
    case TypedField::kDouble:
      if (static_cast<uint64_t>(proto.double_data_size()) != entries)
        return count_error(proto.double_data_size());
      t->SetRawData(CopyBytes(proto.double_data()));
      break;
    case TypedField::kInt64:
      if (static_cast<uint64_t>(proto.int64_data_size()) != entries)
        return count_error(proto.int64_data_size());
      t->SetRawData(CopyBytes(proto.int64_data()));
      break;
    case TypedField::kUint64: {
      if (static_cast<uint64_t>(proto.uint64_data_size()) != entries)
        return count_error(proto.uint64_data_size());
      if (type == DataType::kUint64) {
        t->SetRawData(CopyBytes(proto.uint64_data()));
        break;
      }
      std::string bytes(entries * 4, '\0');
      for (int i = 0; i < proto.uint64_data_size(); ++i) {
        const uint64_t v = proto.uint64_data(i);
        if (v > UINT32_MAX) {
          return Invalid(what, absl::StrCat("uint64_data[", i, "] = ", v, " does not fit uint32"));
        }
        const uint32_t u = static_cast<uint32_t>(v);
        std::memcpy(bytes.data() + 4 * i, &u, 4);
      }
      t->SetRawData(std::move(bytes));
      break;
    }
    case TypedField::kInt32: {
      if (static_cast<uint64_t>(proto.int32_data_size()) != entries)
        return count_error(proto.int32_data_size());
      const Int32Layout layout = *Int32LayoutOf(type);
      std::string bytes(entries * layout.bytes, '\0');
      const int64_t lo = layout.bytes == 4 ? INT32_MIN : -(int64_t{1} << (8 * layout.bytes - 1));
      const int64_t hi = layout.bytes == 4 ? INT32_MAX : (int64_t{1} << (8 * layout.bytes)) - 1;
      for (int i = 0; i < proto.int32_data_size(); ++i) {
        const int32_t v = proto.int32_data(i);
        // Either signedness is accepted; export writes the canonical one back.
        if (v < lo || v > hi) {
          return Invalid(what, absl::StrCat("int32_data[", i, "] = ", v, " does not fit ",
                                            DataTypeName(type)));
        }
        std::memcpy(bytes.data() + static_cast<size_t>(i) * layout.bytes, &v, layout.bytes);
      }
      t->SetRawData(std::move(bytes));
      break;
    }
    case TypedField::kString: {
      if (static_cast<uint64_t>(proto.string_data_size()) != entries)
        return count_error(proto.string_data_size());
      auto& strings = t->mutable_strings();
      strings.reserve(entries);
      for (std::string& s : *proto.mutable_string_data()) strings.push_back(std::move(s));
      break;
    }
    case TypedField::kNone:
      break;
  }
  t->set_storage(Tensor::Storage::kTyped);
  return absl::OkStatus();
}

template <typename T>
void AppendRaw(const Tensor& t, google::protobuf::RepeatedField<T>* field) {
  const size_t n = t.raw_size() / sizeof(T);
  field->Resize(static_cast<int>(n), T());
  if (n > 0) std::memcpy(field->mutable_data(), t.raw_data(), n * sizeof(T));
}

absl::Status EncodeTyped(const Tensor& t, onnx::TensorProto* out) {
  const DataType type = t.data_type();
  const TypedField field = TypedFieldOf(type);
  if (field == TypedField::kString) {
    for (const std::string& s : t.strings()) out->add_string_data(s);
    return absl::OkStatus();
  }
  if (field == TypedField::kNone) {
    return absl::InvalidArgumentError(absl::StrCat("tensor '", t.name(), "' of type ",
                                                   DataTypeName(type),
                                                   " cannot be written in a typed field"));
  }
  if (t.raw_size() > static_cast<uint64_t>(INT_MAX)) {
    return absl::InvalidArgumentError(
        absl::StrCat("tensor '", t.name(), "' is too large for a typed field"));
  }
  switch (field) {
    case TypedField::kFloat:
      AppendRaw(t, out->mutable_float_data());
      break;
    case TypedField::kDouble:
      AppendRaw(t, out->mutable_double_data());
      break;
    case TypedField::kInt64:
      AppendRaw(t, out->mutable_int64_data());
      break;
    case TypedField::kUint64:
      if (type == DataType::kUint64) {
        AppendRaw(t, out->mutable_uint64_data());
      } else {
        const size_t n = t.raw_size() / 4;
        out->mutable_uint64_data()->Reserve(static_cast<int>(n));
        for (size_t i = 0; i < n; ++i) out->add_uint64_data(t.at<uint32_t>(i));
      }
      break;
    case TypedField::kInt32: {
      const Int32Layout layout = *Int32LayoutOf(type);
      const size_t n = t.raw_size() / layout.bytes;
      out->mutable_int32_data()->Reserve(static_cast<int>(n));
      const char* p = t.raw_data();
      for (size_t i = 0; i < n; ++i, p += layout.bytes) {
        int32_t v = 0;
        if (layout.bytes == 4) {
          std::memcpy(&v, p, 4);
        } else if (layout.bytes == 2) {
          uint16_t u;
          std::memcpy(&u, p, 2);
          v = layout.is_signed ? static_cast<int16_t>(u) : u;
        } else {
          const uint8_t u = static_cast<uint8_t>(*p);
          v = layout.is_signed ? static_cast<int8_t>(u) : u;
        }
        out->add_int32_data(v);
      }
      break;
    }
    default:
      break;
  }
  return absl::OkStatus();
}

}  // namespace

std::optional<uint64_t> ExpectedByteSize(DataType type, const std::vector<int64_t>& dims) {
  const int bits = ElementBitWidth(type);
  if (bits == 0) return std::nullopt;
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    const uint64_t u = static_cast<uint64_t>(d);
    if (u != 0 && n > UINT64_MAX / u) return std::nullopt;
    n *= u;
  }
  if (bits >= 8) {
    const uint64_t bytes = static_cast<uint64_t>(bits / 8);
    if (n > UINT64_MAX / bytes) return std::nullopt;
    return n * bytes;
  }
  if (n > UINT64_MAX / static_cast<uint64_t>(bits)) return std::nullopt;
  return (n * bits + 7) / 8;
}

absl::StatusOr<Tensor> ImportTensor(onnx::TensorProto& proto, ExternalDataReader* external,
                                    absl::FunctionRef<std::string()> what) {
  Tensor t;
  ExplicitDefaults& defaults = t.mutable_explicit_defaults();
  t.set_name(proto.name());
  if (proto.has_name() && proto.name().empty()) defaults.set(kNameField);
  t.set_doc_string(proto.doc_string());
  if (proto.has_doc_string() && proto.doc_string().empty()) defaults.set(kDocStringField);
  t.set_data_type(static_cast<DataType>(proto.data_type()));
  if (proto.has_data_type() && proto.data_type() == 0) defaults.set(kDataTypeField);
  if (proto.has_data_location() && proto.data_location() == onnx::TensorProto::DEFAULT) {
    defaults.set(kDataLocationField);
  }
  std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  for (int64_t d : dims) {
    if (d < 0)
      return Invalid(what(), absl::StrCat("negative dimension in dims ", DimsString(dims)));
  }
  t.set_dims(std::move(dims));
  if (proto.has_segment())
    t.set_segment(std::make_pair(proto.segment().begin(), proto.segment().end()));
  for (const auto& e : proto.metadata_props())
    t.mutable_metadata_props().emplace_back(e.key(), e.value());

  const DataType type = t.data_type();
  const bool is_external = proto.data_location() == onnx::TensorProto::EXTERNAL;
  // raw_data that LoadModel cut out of the file (payload_splice.h) is named by a marker.
  std::optional<std::string_view> spliced;
  if (external != nullptr && proto.unknown_fields().field_count() > 0) {
    const google::protobuf::UnknownFieldSet& unknown = proto.unknown_fields();
    for (int i = 0; i < unknown.field_count(); ++i) {
      const google::protobuf::UnknownField& f = unknown.field(i);
      if (f.number() == static_cast<int>(kPayloadMarkerField) &&
          f.type() == google::protobuf::UnknownField::TYPE_VARINT) {
        spliced = external->SplicedPayload(f.varint());
      }
    }
  }
  // Exactly one place may hold the data.
  absl::InlinedVector<absl::string_view, 2> places;
  if (proto.has_raw_data() || spliced.has_value()) places.push_back("raw_data");
  if (proto.float_data_size() > 0) places.push_back("float_data");
  if (proto.int32_data_size() > 0) places.push_back("int32_data");
  if (proto.string_data_size() > 0) places.push_back("string_data");
  if (proto.int64_data_size() > 0) places.push_back("int64_data");
  if (proto.double_data_size() > 0) places.push_back("double_data");
  if (proto.uint64_data_size() > 0) places.push_back("uint64_data");
  if (is_external) places.push_back("external data");
  if (places.size() > 1) {
    return Invalid(what(), absl::StrCat("data is stored in more than one place (",
                                        absl::StrJoin(places, ", "), ")"));
  }
  if (!is_external && proto.external_data_size() > 0) {
    return Invalid(what(), "has external_data entries but data_location is not EXTERNAL");
  }
  if (places.empty()) {
    t.set_storage(Tensor::Storage::kNone);
    return t;
  }
  const absl::string_view place = places[0];
  if (place != "raw_data" && place != "external data") {
    // Typed fields must match the element type and the element count.
    const TypedField field = TypedFieldOf(type);
    if (field == TypedField::kNone || place != FieldName(field)) {
      return Invalid(what(), absl::StrCat("a tensor of type ", DataTypeName(type),
                                          " cannot hold data in ", place));
    }
    const std::optional<uint64_t> n = t.num_elements();
    if (!n.has_value() || *n > UINT64_MAX / 2) {
      return Invalid(what(),
                     absl::StrCat("dims ", DimsString(t.dims()), " have too many elements"));
    }
    if (absl::Status s = DecodeTyped(proto, field, TypedEntries(type, *n), what(), &t); !s.ok())
      return s;
    return t;
  }
  if (type == DataType::kString) {
    return Invalid(what(), absl::StrCat("a string tensor cannot hold data in ", place));
  }
  // Unknown element types are kept as they are; their size cannot be checked.
  std::optional<uint64_t> expected;
  if (IsKnownDataType(type)) {
    expected = ExpectedByteSize(type, t.dims());
    if (!expected.has_value()) {
      return Invalid(what(), absl::StrCat("dims ", DimsString(t.dims()), " of type ",
                                          DataTypeName(type), " need more than 2^64 bytes"));
    }
  }
  if (is_external) {
    if (external == nullptr) {
      return Invalid(what(), "uses external data, which cannot be read here");
    }
    StringPairs entries;
    for (const auto& e : proto.external_data()) entries.emplace_back(e.key(), e.value());
    if (absl::Status s = external->Attach(entries, t.name(), expected, &t); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat(what(), ": ", s.message()));
    }
    return t;
  }
  const size_t raw_size = spliced.has_value() ? spliced->size() : proto.raw_data().size();
  if (expected.has_value() && raw_size != *expected) {
    return Invalid(what(),
                   absl::StrCat("raw_data has ", raw_size, " bytes; type ", DataTypeName(type),
                                " and dims ", DimsString(t.dims()), " need ", *expected));
  }
  if (spliced.has_value()) {  // a view of the mapped file: no copy
    external->AttachSpliced(*spliced, &t);
    return t;
  }
  // Moves the bytes: no copy of the weights.
  std::string bytes;
  proto.mutable_raw_data()->swap(bytes);
  t.SetRawData(std::move(bytes));
  t.set_storage(Tensor::Storage::kRaw);
  return t;
}

absl::StatusOr<SparseTensor> ImportSparseTensor(onnx::SparseTensorProto& proto,
                                                ExternalDataReader* external,
                                                absl::FunctionRef<std::string()> what) {
  SparseTensor st;
  for (int64_t d : proto.dims()) {
    if (d < 0) return Invalid(what(), absl::StrCat("negative dimension ", d, " in the dense dims"));
    st.dims.push_back(d);
  }
  auto values = ImportTensor(*proto.mutable_values(), external,
                             [&] { return absl::StrCat(what(), " (values)"); });
  if (!values.ok()) return values.status();
  auto indices = ImportTensor(*proto.mutable_indices(), external,
                              [&] { return absl::StrCat(what(), " (indices)"); });
  if (!indices.ok()) return indices.status();
  st.values = *std::move(values);
  st.indices = *std::move(indices);
  // Presence of the two sub-messages is implied: a sparse tensor without values is meaningless, and
  // export always writes both.
  return st;
}

absl::Status ExportTensor(const Tensor& t, const TensorExportOptions& options,
                          onnx::TensorProto* out) {
  const ExplicitDefaults& defaults = t.explicit_defaults();
  for (int64_t d : t.dims()) out->add_dims(d);
  if (t.data_type() != DataType::kUndefined || defaults.has(kDataTypeField)) {
    out->set_data_type(static_cast<int32_t>(t.data_type()));
  }
  if (t.segment().has_value()) {
    out->mutable_segment()->set_begin(t.segment()->first);
    out->mutable_segment()->set_end(t.segment()->second);
  }
  if (!t.name().empty() || defaults.has(kNameField)) out->set_name(t.name());
  if (!t.doc_string().empty() || defaults.has(kDocStringField)) out->set_doc_string(t.doc_string());
  for (const auto& [k, v] : t.metadata_props()) {
    auto* e = out->add_metadata_props();
    e->set_key(k);
    e->set_value(v);
  }
  if (defaults.has(kDataLocationField)) out->set_data_location(onnx::TensorProto::DEFAULT);

  const bool is_string = t.data_type() == DataType::kString;
  if (is_string) {
    if (t.storage() == Tensor::Storage::kExternal) {
      return absl::InvalidArgumentError(
          absl::StrCat("string tensor '", t.name(), "' cannot use external data"));
    }
    if (t.storage() != Tensor::Storage::kNone || !t.strings().empty()) return EncodeTyped(t, out);
    return absl::OkStatus();
  }
  if (t.storage() == Tensor::Storage::kNone && t.raw_size() == 0) return absl::OkStatus();

  const bool to_writer =
      options.external_writer != nullptr &&
      (t.storage() == Tensor::Storage::kExternal || t.raw_size() >= options.external_threshold);
  if (to_writer) {
    absl::StatusOr<StringPairs> entries = options.external_writer->Append(t);
    if (!entries.ok()) return entries.status();
    for (const auto& [k, v] : *entries) {
      auto* e = out->add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    out->set_data_location(onnx::TensorProto::EXTERNAL);
    return absl::OkStatus();
  }
  if (t.storage() == Tensor::Storage::kExternal && !options.inline_external_data) {
    // No writer (serializing to memory): keep the reference, valid next to the original files.
    for (const auto& [k, v] : t.external_data()) {
      auto* e = out->add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    out->set_data_location(onnx::TensorProto::EXTERNAL);
    return absl::OkStatus();
  }
  if (t.storage() == Tensor::Storage::kTyped && !options.force_raw_data) return EncodeTyped(t, out);
  out->set_raw_data(t.raw_data() ? t.raw_data() : "", t.raw_size());
  return absl::OkStatus();
}

absl::Status ExportSparseTensor(const SparseTensor& st, const TensorExportOptions& options,
                                onnx::SparseTensorProto* out) {
  for (int64_t d : st.dims) out->add_dims(d);
  if (absl::Status s = ExportTensor(st.values, options, out->mutable_values()); !s.ok()) return s;
  return ExportTensor(st.indices, options, out->mutable_indices());
}

uint64_t EstimatedInlineBytes(const Tensor& t) {
  if (t.data_type() == DataType::kString) {
    uint64_t n = 0;
    for (const std::string& s : t.strings()) n += s.size() + 6;
    return n;
  }
  if (t.storage() == Tensor::Storage::kTyped) {
    switch (TypedFieldOf(t.data_type())) {
      case TypedField::kInt64:
      case TypedField::kUint64:
        return t.raw_size() / 4 * 10 + 16;  // varints: up to 10 bytes
      case TypedField::kInt32: {
        const auto layout = Int32LayoutOf(t.data_type());
        return t.raw_size() / layout->bytes * 10 + 16;
      }
      default:
        break;
    }
  }
  return t.raw_size() + 16;
}

}  // namespace onnx_opt::ir::io
