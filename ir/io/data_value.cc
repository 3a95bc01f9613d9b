#include "ir/io/data_value.h"

#include "absl/strings/str_cat.h"
#include "ir/io/external_data.h"
#include "ir/io/limits.h"
#include "ir/io/proto_parse.h"
#include "ir/io/tensor_proto.h"
#include "proto/onnx_data.pb.h"

namespace onnx_opt::ir::io {
namespace {

using Kind = DataValue::Kind;

// SequenceProto / MapProto / OptionalProto field numbers, for ExplicitDefaults.
constexpr int kNameField = 1;
constexpr int kTypeField = 2;  // elem_type, or key_type for maps

absl::Status Invalid(const std::string& msg) { return absl::InvalidArgumentError(msg); }

class ValueImporter {
 public:
  explicit ValueImporter(ExternalDataReader* external) : external_(external) {}

  absl::StatusOr<DataValue> Tensor(onnx::TensorProto& p) {
    absl::StatusOr<ir::Tensor> t =
        ImportTensor(p, external_, [&p] { return absl::StrCat("tensor '", p.name(), "'"); });
    if (!t.ok()) return t.status();
    return DataValue::FromTensor(*std::move(t));
  }

  absl::StatusOr<DataValue> Sparse(onnx::SparseTensorProto& p) {
    absl::StatusOr<SparseTensor> t = ImportSparseTensor(
        p, external_, [&p] { return absl::StrCat("sparse tensor '", p.values().name(), "'"); });
    if (!t.ok()) return t.status();
    DataValue v;
    v.kind = Kind::kSparseTensor;
    v.sparse_tensor = *std::move(t);
    return v;
  }

  absl::StatusOr<DataValue> Sequence(onnx::SequenceProto& p) {
    DataValue v;
    v.kind = Kind::kSequence;
    Header(p, &v);
    const std::string what = absl::StrCat("sequence '", p.name(), "'");
    // Only the field elem_type names may hold elements.
    const int sizes[] = {0,
                         p.tensor_values_size(),
                         p.sparse_tensor_values_size(),
                         p.sequence_values_size(),
                         p.map_values_size(),
                         p.optional_values_size()};
    for (int k = 1; k <= 5; ++k) {
      if (sizes[k] > 0 && k != static_cast<int>(v.elem_kind)) {
        return Invalid(absl::StrCat(what, " holds ", DataValueKindName(static_cast<Kind>(k)),
                                    " elements but its elem_type says ",
                                    DataValueKindName(v.elem_kind)));
      }
    }
    return Elements(p, &v);
  }

  absl::StatusOr<DataValue> Map(onnx::MapProto& p) {
    DataValue v;
    v.kind = Kind::kMap;
    v.name = p.name();
    if (p.has_name() && p.name().empty()) v.explicit_defaults.set(kNameField);
    if (p.has_key_type() && p.key_type() == 0) v.explicit_defaults.set(kTypeField);
    v.key_type = static_cast<DataType>(p.key_type());
    v.keys.assign(p.keys().begin(), p.keys().end());
    v.string_keys.assign(p.string_keys().begin(), p.string_keys().end());
    const std::string what = absl::StrCat("map '", p.name(), "'");
    absl::StatusOr<DataValue> values = Sequence(*p.mutable_values());
    if (!values.ok()) return values.status();
    const size_t num_keys = v.keys.size() + v.string_keys.size();
    if (values->elements.size() != num_keys) {
      return Invalid(
          absl::StrCat(what, " has ", num_keys, " keys but ", values->elements.size(), " values"));
    }
    v.elem_kind = values->elem_kind;
    v.elements = std::move(values->elements);
    return v;
  }

  absl::StatusOr<DataValue> Optional(onnx::OptionalProto& p) {
    DataValue v;
    v.kind = Kind::kOptional;
    Header(p, &v);
    absl::StatusOr<DataValue> elem = DataValue();
    bool has = true;
    switch (v.elem_kind) {
      case Kind::kTensor:
        has = p.has_tensor_value();
        if (has) elem = Tensor(*p.mutable_tensor_value());
        break;
      case Kind::kSparseTensor:
        has = p.has_sparse_tensor_value();
        if (has) elem = Sparse(*p.mutable_sparse_tensor_value());
        break;
      case Kind::kSequence:
        has = p.has_sequence_value();
        if (has) elem = Sequence(*p.mutable_sequence_value());
        break;
      case Kind::kMap:
        has = p.has_map_value();
        if (has) elem = Map(*p.mutable_map_value());
        break;
      case Kind::kOptional:
        has = p.has_optional_value();
        if (has) elem = Optional(*p.mutable_optional_value());
        break;
      case Kind::kUndefined:
        has = false;
        break;
    }
    if (!elem.ok()) return elem.status();
    if (has) v.elements.push_back(*std::move(elem));
    return v;
  }

 private:
  template <typename P>
  void Header(const P& p, DataValue* v) {
    v->name = p.name();
    if (p.has_name() && p.name().empty()) v->explicit_defaults.set(kNameField);
    if (p.has_elem_type() && p.elem_type() == 0) v->explicit_defaults.set(kTypeField);
    v->elem_kind = static_cast<Kind>(p.elem_type());
  }

  absl::StatusOr<DataValue> Elements(onnx::SequenceProto& p, DataValue* v) {
    auto add = [&](absl::StatusOr<DataValue> e) -> absl::Status {
      if (!e.ok()) return e.status();
      v->elements.push_back(*std::move(e));
      return absl::OkStatus();
    };
    absl::Status s;
    for (auto& e : *p.mutable_tensor_values())
      if (s = add(Tensor(e)); !s.ok()) return s;
    for (auto& e : *p.mutable_sparse_tensor_values())
      if (s = add(Sparse(e)); !s.ok()) return s;
    for (auto& e : *p.mutable_sequence_values())
      if (s = add(Sequence(e)); !s.ok()) return s;
    for (auto& e : *p.mutable_map_values())
      if (s = add(Map(e)); !s.ok()) return s;
    for (auto& e : *p.mutable_optional_values())
      if (s = add(Optional(e)); !s.ok()) return s;
    return std::move(*v);
  }

  ExternalDataReader* external_;
};

const TensorExportOptions kTensorOptions{false, nullptr, UINT64_MAX, /*inline_external_data=*/true};

absl::Status ExportSequence(const DataValue& v, onnx::SequenceProto* out);
absl::Status ExportMap(const DataValue& v, onnx::MapProto* out);
absl::Status ExportOptional(const DataValue& v, onnx::OptionalProto* out);

template <typename P>
void ExportHeader(const DataValue& v, P* out) {
  if (!v.name.empty() || v.explicit_defaults.has(kNameField)) out->set_name(v.name);
  if (v.elem_kind != Kind::kUndefined || v.explicit_defaults.has(kTypeField)) {
    out->set_elem_type(static_cast<int32_t>(v.elem_kind));
  }
}

absl::Status CheckKind(const DataValue& e, Kind expected) {
  if (e.kind == expected) return absl::OkStatus();
  return Invalid(absl::StrCat("a ", DataValueKindName(e.kind), " element where elem_type says ",
                              DataValueKindName(expected)));
}

absl::Status ExportElement(const DataValue& e, Kind kind, onnx::SequenceProto* out) {
  if (absl::Status s = CheckKind(e, kind); !s.ok()) return s;
  switch (kind) {
    case Kind::kTensor:
      return ExportTensor(e.tensor, kTensorOptions, out->add_tensor_values());
    case Kind::kSparseTensor:
      return ExportSparseTensor(e.sparse_tensor, kTensorOptions, out->add_sparse_tensor_values());
    case Kind::kSequence:
      return ExportSequence(e, out->add_sequence_values());
    case Kind::kMap:
      return ExportMap(e, out->add_map_values());
    case Kind::kOptional:
      return ExportOptional(e, out->add_optional_values());
    case Kind::kUndefined:
      break;
  }
  return Invalid("a sequence element of undefined kind");
}

absl::Status ExportSequence(const DataValue& v, onnx::SequenceProto* out) {
  ExportHeader(v, out);
  for (const DataValue& e : v.elements) {
    if (absl::Status s = ExportElement(e, v.elem_kind, out); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ExportMap(const DataValue& v, onnx::MapProto* out) {
  if (!v.name.empty() || v.explicit_defaults.has(kNameField)) out->set_name(v.name);
  if (v.key_type != DataType::kUndefined || v.explicit_defaults.has(kTypeField)) {
    out->set_key_type(static_cast<int32_t>(v.key_type));
  }
  out->mutable_keys()->Add(v.keys.begin(), v.keys.end());
  for (const std::string& k : v.string_keys) out->add_string_keys(k);
  auto* values = out->mutable_values();
  if (v.elem_kind != Kind::kUndefined) values->set_elem_type(static_cast<int32_t>(v.elem_kind));
  for (const DataValue& e : v.elements) {
    if (absl::Status s = ExportElement(e, v.elem_kind, values); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ExportOptional(const DataValue& v, onnx::OptionalProto* out) {
  ExportHeader(v, out);
  if (v.elements.empty()) return absl::OkStatus();
  const DataValue& e = v.elements[0];
  if (absl::Status s = CheckKind(e, v.elem_kind); !s.ok()) return s;
  switch (v.elem_kind) {
    case Kind::kTensor:
      return ExportTensor(e.tensor, kTensorOptions, out->mutable_tensor_value());
    case Kind::kSparseTensor:
      return ExportSparseTensor(e.sparse_tensor, kTensorOptions,
                                out->mutable_sparse_tensor_value());
    case Kind::kSequence:
      return ExportSequence(e, out->mutable_sequence_value());
    case Kind::kMap:
      return ExportMap(e, out->mutable_map_value());
    case Kind::kOptional:
      return ExportOptional(e, out->mutable_optional_value());
    case Kind::kUndefined:
      break;
  }
  return Invalid("an optional holding a value of undefined kind");
}

template <typename P>
absl::StatusOr<std::string> Serialize(const P& message) {
  if (message.ByteSizeLong() > kMaxProtoBytes) {
    return Invalid("the value needs 2 GiB or more; protobuf cannot serialize it");
  }
  return message.SerializeAsString();
}

}  // namespace

const char* DataValueKindName(DataValue::Kind kind) {
  switch (kind) {
    case Kind::kTensor:
      return "tensor";
    case Kind::kSparseTensor:
      return "sparse tensor";
    case Kind::kSequence:
      return "sequence";
    case Kind::kMap:
      return "map";
    case Kind::kOptional:
      return "optional";
    case Kind::kUndefined:
      break;
  }
  return "undefined";
}

DataValue::Kind DataValueKindOf(const Type& type) {
  switch (type.kind()) {
    case Type::Kind::kTensor:
      return Kind::kTensor;
    case Type::Kind::kSparseTensor:
      return Kind::kSparseTensor;
    case Type::Kind::kSequence:
      return Kind::kSequence;
    case Type::Kind::kMap:
      return Kind::kMap;
    case Type::Kind::kOptional:
      return Kind::kOptional;
    default:
      return Kind::kUndefined;
  }
}

absl::StatusOr<DataValue> ParseDataValue(std::string_view bytes, DataValue::Kind kind,
                                         const std::string& source,
                                         const std::string& external_data_dir) {
  ExternalDataReader external(external_data_dir);
  ValueImporter importer(&external);
  absl::StatusOr<DataValue> v;
  auto prefix = [&](absl::StatusOr<DataValue> r) -> absl::StatusOr<DataValue> {
    if (r.ok()) return r;
    return OneLine(
        absl::Status(r.status().code(), absl::StrCat("'", source, "': ", r.status().message())));
  };
  switch (kind) {
    case Kind::kTensor: {
      onnx::TensorProto p;
      if (absl::Status s = ParseProtoBytes(bytes, source, "a TensorProto", &p); !s.ok()) return s;
      return prefix(importer.Tensor(p));
    }
    case Kind::kSparseTensor: {
      onnx::SparseTensorProto p;
      if (absl::Status s = ParseProtoBytes(bytes, source, "a SparseTensorProto", &p); !s.ok())
        return s;
      return prefix(importer.Sparse(p));
    }
    case Kind::kSequence: {
      onnx::SequenceProto p;
      if (absl::Status s = ParseProtoBytes(bytes, source, "a SequenceProto", &p); !s.ok()) return s;
      return prefix(importer.Sequence(p));
    }
    case Kind::kMap: {
      onnx::MapProto p;
      if (absl::Status s = ParseProtoBytes(bytes, source, "a MapProto", &p); !s.ok()) return s;
      return prefix(importer.Map(p));
    }
    case Kind::kOptional: {
      onnx::OptionalProto p;
      if (absl::Status s = ParseProtoBytes(bytes, source, "an OptionalProto", &p); !s.ok())
        return s;
      return prefix(importer.Optional(p));
    }
    case Kind::kUndefined:
      break;
  }
  return Invalid(absl::StrCat("'", source, "': no message holds a value of undefined kind"));
}

absl::StatusOr<std::string> SerializeDataValue(const DataValue& v) {
  switch (v.kind) {
    case Kind::kTensor: {
      onnx::TensorProto p;
      if (absl::Status s = ExportTensor(v.tensor, kTensorOptions, &p); !s.ok()) return s;
      return Serialize(p);
    }
    case Kind::kSparseTensor: {
      onnx::SparseTensorProto p;
      if (absl::Status s = ExportSparseTensor(v.sparse_tensor, kTensorOptions, &p); !s.ok())
        return s;
      return Serialize(p);
    }
    case Kind::kSequence: {
      onnx::SequenceProto p;
      if (absl::Status s = ExportSequence(v, &p); !s.ok()) return s;
      return Serialize(p);
    }
    case Kind::kMap: {
      onnx::MapProto p;
      if (absl::Status s = ExportMap(v, &p); !s.ok()) return s;
      return Serialize(p);
    }
    case Kind::kOptional: {
      onnx::OptionalProto p;
      if (absl::Status s = ExportOptional(v, &p); !s.ok()) return s;
      return Serialize(p);
    }
    case Kind::kUndefined:
      break;
  }
  return Invalid("cannot serialize a value of undefined kind");
}

}  // namespace onnx_opt::ir::io
