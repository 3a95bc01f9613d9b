#include "ir/io/model_io.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/arena.h"
#include "ir/io/atomic_file.h"
#include "ir/io/external_data.h"
#include "ir/io/limits.h"
#include "ir/io/payload_splice.h"
#include "ir/io/proto_export.h"
#include "ir/io/proto_import.h"
#include "ir/io/proto_parse.h"
#include "ir/io/streamed_load.h"
#include "ir/io/tensor_proto.h"
#include "ir/io/wire_export.h"
#include "ir/status_macros.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

// The parsed ModelProto lives in an arena: protobuf then allocates its thousands of small strings
// and messages from a few blocks and frees them at once, instead of one malloc and one free each.
google::protobuf::ArenaOptions ProtoArenaOptions() {
  google::protobuf::ArenaOptions options;
  options.start_block_size = 64 << 10;
  options.max_block_size = 4 << 20;
  return options;
}

// When the inline data of a model would pass this, SaveModel moves the largest tensors out until
// what stays inline is under kAutoExternalTarget (typed fields are counted at their worst size).
constexpr uint64_t kAutoExternalTrigger = uint64_t{3} << 29;  // 1.5 GiB
constexpr uint64_t kAutoExternalTarget = uint64_t{1} << 30;   // 1 GiB

absl::Status Prefixed(const std::string& prefix, const absl::Status& s) {
  return OneLine(absl::Status(s.code(), absl::StrCat(prefix, s.message())));
}

// The smallest size that must go to external data so the model stays serializable, given what the
// caller already sends there (`threshold`); `threshold` itself if nothing more is needed.
uint64_t AutomaticThreshold(const Model& model, uint64_t threshold) {
  std::vector<std::pair<uint64_t, uint64_t>> movable;  // (raw bytes, inline bytes)
  uint64_t inline_bytes = 0;
  ForEachTensor(model, [&](const Tensor& t) {
    if (t.storage() == Tensor::Storage::kExternal || t.raw_size() >= threshold) return;
    const uint64_t estimate = EstimatedInlineBytes(t);
    inline_bytes += estimate;
    if (t.data_type() != DataType::kString && t.raw_size() > 0)
      movable.emplace_back(t.raw_size(), estimate);
  });
  if (inline_bytes <= kAutoExternalTrigger) return threshold;
  std::sort(movable.begin(), movable.end(), std::greater<>());
  for (const auto& [raw, estimate] : movable) {
    threshold = raw;
    inline_bytes -= estimate;
    if (inline_bytes <= kAutoExternalTarget) break;
  }
  return threshold;
}

absl::StatusOr<std::unique_ptr<Model>> Import(onnx::ModelProto& proto, const std::string& source,
                                              ImportOptions options) {
  absl::StatusOr<std::unique_ptr<Model>> model = ImportModel(proto, options);
  if (!model.ok()) return Prefixed(absl::StrCat("'", source, "': "), model.status());
  return model;
}

// Parses the ModelProto in `bytes` with its large raw_data payloads cut out first, so that the
// tensors become views of `bytes` instead of copies (payload_splice.h); `import` gets the payloads.
absl::Status ParseSplicing(std::shared_ptr<const Buffer> bytes, const std::string& source,
                           ImportOptions* import, onnx::ModelProto* proto) {
  const std::string_view view(bytes->data(), bytes->size());
  std::optional<SplicedModel> stripped =
      StripPayloadsToPieces(view, kMinSplicedPayload, &import->spliced_payloads);
  RETURN_IF_ERROR(stripped.has_value() ? ParseProtoPieces(stripped->pieces, stripped->size, source,
                                                          "an ONNX model", proto)
                                       : ParseProtoBytes(view, source, "an ONNX model", proto));
  if (stripped.has_value()) import->spliced_file = std::move(bytes);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> LoadModel(const std::string& path,
                                                 const LoadOptions& options) {
  ImportOptions import;
  if (!options.external_data_dir.empty()) {
    import.external_data_dir = options.external_data_dir;
  } else {
    // A model reached through a symlink may keep its data beside the link or beside the target.
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    import.external_data_dir = DirName(path);
    if (!ec) import.external_data_second_dir = target.parent_path().string();
  }
  google::protobuf::Arena arena(ProtoArenaOptions());
  onnx::ModelProto& proto = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
  // Files that cannot be read or mapped whole go through ParseProtoFile, for its errors.
  absl::StatusOr<std::shared_ptr<const Buffer>> file = OpenFileBytes(path);
  if (file.ok() && (*file)->size() > 0 && (*file)->size() <= kMaxProtoBytes) {
    if (auto streamed = LoadStreamed(*file, path, import); streamed.has_value())
      return *std::move(streamed);
    if (absl::Status s = ParseSplicing(*std::move(file), path, &import, &proto); !s.ok())
      return OneLine(s);
  } else if (absl::Status s = ParseProtoFile(path, "an ONNX model", &proto); !s.ok()) {
    return OneLine(s);
  }
  return Import(proto, path, std::move(import));
}

absl::StatusOr<std::unique_ptr<Model>> LoadModelFromString(std::string_view bytes,
                                                           const LoadOptions& options) {
  ImportOptions import;
  import.external_data_dir = options.external_data_dir;
  // One copy, which the tensors then view (protobuf would have copied them anyway).
  auto buffer = std::make_shared<StringBuffer>(std::string(bytes));
  if (auto streamed = LoadStreamed(buffer, "<memory>", import); streamed.has_value())
    return *std::move(streamed);
  google::protobuf::Arena arena(ProtoArenaOptions());
  onnx::ModelProto& proto = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(&arena);
  if (absl::Status s = ParseSplicing(std::move(buffer), "<memory>", &import, &proto); !s.ok()) {
    return s;
  }
  return Import(proto, "<memory>", std::move(import));
}

absl::Status SaveModel(const Model& model, const std::string& path, const SaveOptions& options) {
  const std::string prefix = absl::StrCat("cannot save '", path, "': ");
  const std::string side_name =
      options.external_data_file.empty() ? BaseName(path) + ".data" : options.external_data_file;
  if (side_name.find('/') != std::string::npos || side_name == BaseName(path) || side_name == "." ||
      side_name == "..") {
    return absl::InvalidArgumentError(absl::StrCat(prefix, "external data file name '", side_name,
                                                   "' is not a plain file name next to the model"));
  }
  ExternalDataWriter writer(absl::StrCat(DirName(path), "/", side_name),
                            options.external_data_alignment, options.discard_written);
  ExportOptions export_options;
  export_options.force_raw_data = options.force_raw_data;
  export_options.external_writer = &writer;
  export_options.external_threshold =
      AutomaticThreshold(model, options.external_data_threshold.value_or(UINT64_MAX));

  // Create the model's temporary file first: a bad destination fails before any data is written.
  absl::StatusOr<std::unique_ptr<AtomicFile>> file = AtomicFile::Create(path);
  if (!file.ok()) return Prefixed(prefix, file.status());
  absl::StatusOr<SplicedModel> serialized = WriteModelWire(model, export_options);
  if (!serialized.ok()) return Prefixed(prefix, serialized.status());
  if (serialized->size > kMaxProtoBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat(prefix, "the model needs ", serialized->size,
                     " bytes outside external data; protobuf cannot write 2 GiB or more"));
  }
  if (absl::Status s = (*file)->WritePieces(serialized->pieces); !s.ok())
    return Prefixed(prefix, s);
  if (absl::Status s = writer.Finish(); !s.ok()) return Prefixed(prefix, s);
  if (absl::Status s = (*file)->Finish(); !s.ok()) return Prefixed(prefix, s);
  if (options.before_commit) RETURN_IF_ERROR(options.before_commit());
  // Data first: the model that names it appears last.
  if (absl::Status s = writer.Commit(); !s.ok()) return Prefixed(prefix, s);
  if (absl::Status s = (*file)->Commit(); !s.ok()) return Prefixed(prefix, s);
  return absl::OkStatus();
}

absl::StatusOr<std::string> SerializeModel(const Model& model, const SaveOptions& options) {
  if (options.external_data_threshold.has_value()) {
    return absl::InvalidArgumentError(
        "external_data_threshold needs a file to write external data to: use SaveModel");
  }
  uint64_t inline_bytes = 0;
  ForEachTensor(model, [&](const Tensor& t) {
    if (t.storage() != Tensor::Storage::kExternal) inline_bytes += t.raw_size();
  });
  if (inline_bytes > kMaxProtoBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the model holds ", inline_bytes,
                     " bytes of tensor data; protobuf cannot serialize 2 GiB or "
                     "more: save it to a file, which moves large tensors to external data"));
  }
  ExportOptions export_options;
  export_options.force_raw_data = options.force_raw_data;
  absl::StatusOr<SplicedModel> serialized = WriteModelWire(model, export_options);
  if (!serialized.ok()) return serialized.status();
  if (serialized->size > kMaxProtoBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the model needs ", serialized->size,
                     " bytes; protobuf cannot serialize 2 GiB or more: save it to a "
                     "file, which moves large tensors to external data"));
  }
  return serialized->Concatenate();
}

absl::StatusOr<Tensor> LoadTensorProtoFile(const std::string& path) {
  absl::StatusOr<DataValue> v = LoadDataValueFile(path, DataValue::Kind::kTensor);
  if (!v.ok()) return v.status();
  return std::move(v->tensor);
}

absl::Status SaveTensorProtoFile(const Tensor& tensor, const std::string& path) {
  DataValue v;
  v.kind = DataValue::Kind::kTensor;
  // A view: SaveDataValueFile only reads it. Copying a Tensor copies a pointer to its bytes.
  v.tensor = tensor;
  return SaveDataValueFile(v, path);
}

absl::StatusOr<DataValue> LoadDataValueFile(const std::string& path, DataValue::Kind kind) {
  // Test data is small; parse straight from a mapping of the file.
  absl::StatusOr<std::shared_ptr<MappedFile>> file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  if ((*file)->size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat("cannot parse '", path, "' as a ",
                                                   DataValueKindName(kind), ": the file is empty"));
  }
  absl::StatusOr<DataValue> value =
      ParseDataValue(std::string_view((*file)->data(), (*file)->size()), kind, path, DirName(path));
  if (!value.ok()) return OneLine(value.status());
  return value;
}

absl::Status SaveDataValueFile(const DataValue& value, const std::string& path) {
  const std::string prefix = absl::StrCat("cannot save '", path, "': ");
  absl::StatusOr<std::string> bytes = SerializeDataValue(value);
  if (!bytes.ok()) return Prefixed(prefix, bytes.status());
  absl::StatusOr<std::unique_ptr<AtomicFile>> file = AtomicFile::Create(path);
  if (!file.ok()) return Prefixed(prefix, file.status());
  if (absl::Status s = (*file)->Write(bytes->data(), bytes->size()); !s.ok())
    return Prefixed(prefix, s);
  if (absl::Status s = (*file)->Commit(); !s.ok()) return Prefixed(prefix, s);
  return absl::OkStatus();
}

}  // namespace onnx_opt::ir::io
