#include "ir/io/model_io.h"

#include <sys/mman.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "ir/io/atomic_file.h"
#include "ir/io/external_data.h"
#include "ir/io/limits.h"
#include "ir/io/payload_splice.h"
#include "ir/io/proto_export.h"
#include "ir/io/proto_import.h"
#include "ir/io/proto_parse.h"
#include "ir/io/tensor_proto.h"
#include "ir/status_macros.h"
#include "google/protobuf/arena.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

// The parsed or exported ModelProto lives in an arena: protobuf then allocates its thousands of
// small strings and messages from a few blocks and frees them at once, instead of one malloc and
// one free each. The arena starts in a block of address space kept for the process (ArenaScratch),
// so that the save of a model reuses the pages its load touched instead of faulting in fresh ones.
google::protobuf::ArenaOptions ProtoArenaOptions(char* initial_block = nullptr, size_t initial_size = 0) {
  google::protobuf::ArenaOptions options;
  options.start_block_size = 64 << 10;
  options.max_block_size = 4 << 20;
  options.initial_block = initial_block;
  options.initial_block_size = initial_size;
  return options;
}

// The scratch block: address space only, until an arena touches it. One user at a time: a second,
// concurrent load or save gets an arena of its own. Of what a large model's arena touched, the
// pages past kKeptBytes go back to the kernel after each use, so a process that loaded one large
// model does not hold their memory for good.
class ArenaScratch {
 public:
  static constexpr size_t kBytes = size_t{64} << 20;
  static constexpr size_t kKeptBytes = size_t{16} << 20;

  // The block, or null when it is in use or cannot be mapped.
  static char* Take() {
    absl::MutexLock lock(&mutex_);
    if (busy_) return nullptr;
    if (block_ == nullptr) {
      void* p = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) return nullptr;
      block_ = static_cast<char*>(p);
    }
    busy_ = true;
    return block_;
  }
  // Returns the block, of which at most `touched` bytes were used.
  static void Give(char* block, size_t touched) {
    if (block == nullptr) return;
    touched = std::min(touched, kBytes);
    if (touched > kKeptBytes) (void)::madvise(block + kKeptBytes, touched - kKeptBytes, MADV_DONTNEED);
    absl::MutexLock lock(&mutex_);
    busy_ = false;
  }

 private:
  static inline absl::Mutex mutex_;
  static inline char* block_ = nullptr;
  static inline bool busy_ = false;
};

// An arena that starts in the scratch block when that is free.
class ScratchArena {
 public:
  ScratchArena() : block_(ArenaScratch::Take()) {
    arena_.emplace(ProtoArenaOptions(block_, block_ != nullptr ? ArenaScratch::kBytes : 0));
  }
  ~ScratchArena() {
    const size_t touched = static_cast<size_t>(arena_->SpaceUsed());
    arena_.reset();  // before the block is given back: the arena's teardown reads it
    ArenaScratch::Give(block_, touched);
  }
  ScratchArena(const ScratchArena&) = delete;
  ScratchArena& operator=(const ScratchArena&) = delete;
  google::protobuf::Arena* get() { return &*arena_; }

 private:
  char* block_;
  std::optional<google::protobuf::Arena> arena_;
};

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
    if (t.data_type() != DataType::kString && t.raw_size() > 0) movable.emplace_back(t.raw_size(), estimate);
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

// A model serialized without copying its large tensors: protobuf writes the message with markers in
// their place, and the pieces put the tensors' own bytes back (payload_splice.h).
struct SerializedModel {
  std::vector<std::string_view> payloads;
  // On the heap: the pieces point into it, and a short string would move with the struct.
  std::unique_ptr<std::string> message = std::make_unique<std::string>();
  SplicedModel spliced;
};

absl::StatusOr<SerializedModel> Serialize(const Model& model, ExportOptions options) {
  SerializedModel out;
  options.spliced_payloads = &out.payloads;
  {
    ScratchArena arena;
    onnx::ModelProto& proto = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(arena.get());
    if (absl::Status s = ExportModel(model, options, &proto); !s.ok()) return s;
    if (proto.ByteSizeLong() > kMaxProtoBytes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "the model needs ", proto.ByteSizeLong(), " bytes besides its tensors' raw data; protobuf cannot "
          "write 2 GiB or more"));
    }
    proto.SerializeToString(out.message.get());
  }
  absl::StatusOr<SplicedModel> spliced = SplicePayloads(*out.message, out.payloads);
  if (!spliced.ok()) return spliced.status();
  out.spliced = *std::move(spliced);
  return out;
}

// Parses the ModelProto in `bytes` with its large raw_data payloads cut out first, so that the
// tensors become views of `bytes` instead of copies (payload_splice.h); `import` gets the payloads.
absl::Status ParseSplicing(std::shared_ptr<const Buffer> bytes, const std::string& source, ImportOptions* import,
                           onnx::ModelProto* proto) {
  const std::string_view view(bytes->data(), bytes->size());
  std::optional<SplicedModel> stripped = StripPayloadsToPieces(view, kMinSplicedPayload, &import->spliced_payloads);
  RETURN_IF_ERROR(stripped.has_value()
                      ? ParseProtoPieces(stripped->pieces, stripped->size, source, "an ONNX model", proto)
                      : ParseProtoBytes(view, source, "an ONNX model", proto));
  if (stripped.has_value()) import->spliced_file = std::move(bytes);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> LoadModel(const std::string& path, const LoadOptions& options) {
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
  ScratchArena arena;
  onnx::ModelProto& proto = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(arena.get());
  // Files that cannot be mapped go through ParseProtoFile, for its errors.
  absl::StatusOr<std::shared_ptr<MappedFile>> file = MappedFile::Open(path);
  if (file.ok() && (*file)->size() > 0 && (*file)->size() <= kMaxProtoBytes) {
    if (absl::Status s = ParseSplicing(*std::move(file), path, &import, &proto); !s.ok()) return OneLine(s);
  } else if (absl::Status s = ParseProtoFile(path, "an ONNX model", &proto); !s.ok()) {
    return OneLine(s);
  }
  return Import(proto, path, std::move(import));
}

absl::StatusOr<std::unique_ptr<Model>> LoadModelFromString(std::string_view bytes,
                                                           const LoadOptions& options) {
  ImportOptions import;
  import.external_data_dir = options.external_data_dir;
  ScratchArena arena;
  onnx::ModelProto& proto = *google::protobuf::Arena::CreateMessage<onnx::ModelProto>(arena.get());
  // One copy, which the tensors then view (protobuf would have copied them anyway).
  if (absl::Status s = ParseSplicing(std::make_shared<StringBuffer>(std::string(bytes)), "<memory>", &import, &proto);
      !s.ok()) {
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
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, "external data file name '", side_name, "' is not a plain file name next to the model"));
  }
  ExternalDataWriter writer(absl::StrCat(DirName(path), "/", side_name), options.external_data_alignment);
  ExportOptions export_options;
  export_options.force_raw_data = options.force_raw_data;
  export_options.external_writer = &writer;
  export_options.external_threshold =
      AutomaticThreshold(model, options.external_data_threshold.value_or(UINT64_MAX));

  // Create the model's temporary file first: a bad destination fails before any data is written.
  absl::StatusOr<std::unique_ptr<AtomicFile>> file = AtomicFile::Create(path);
  if (!file.ok()) return Prefixed(prefix, file.status());
  absl::StatusOr<SerializedModel> serialized = Serialize(model, export_options);
  if (!serialized.ok()) return Prefixed(prefix, serialized.status());
  if (serialized->spliced.size > kMaxProtoBytes) {
    return absl::ResourceExhaustedError(absl::StrCat(prefix, "the model needs ", serialized->spliced.size,
                                                     " bytes outside external data; protobuf cannot write 2 GiB or more"));
  }
  if (absl::Status s = (*file)->WritePieces(serialized->spliced.pieces); !s.ok()) return Prefixed(prefix, s);
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
    return absl::ResourceExhaustedError(absl::StrCat(
        "the model holds ", inline_bytes, " bytes of tensor data; protobuf cannot serialize 2 GiB or "
        "more: save it to a file, which moves large tensors to external data"));
  }
  ExportOptions export_options;
  export_options.force_raw_data = options.force_raw_data;
  absl::StatusOr<SerializedModel> serialized = Serialize(model, export_options);
  if (!serialized.ok()) return serialized.status();
  if (serialized->spliced.size > kMaxProtoBytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the model needs ", serialized->spliced.size, " bytes; protobuf cannot serialize 2 GiB or more: save it to a "
        "file, which moves large tensors to external data"));
  }
  return serialized->spliced.Concatenate();
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
  if (absl::Status s = (*file)->Write(bytes->data(), bytes->size()); !s.ok()) return Prefixed(prefix, s);
  if (absl::Status s = (*file)->Commit(); !s.ok()) return Prefixed(prefix, s);
  return absl::OkStatus();
}

}  // namespace onnx_opt::ir::io
