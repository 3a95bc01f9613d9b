#include "ir/io/external_data.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "glog/logging.h"

namespace onnx_opt::ir::io {
namespace {

// The canonical path, or the reason (strerror) it has none.
absl::StatusOr<std::string> RealPath(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return absl::NotFoundError(std::strerror(errno));
  std::string out(resolved);
  std::free(resolved);
  return out;
}

// A non-negative decimal integer, as the spec stores offset and length.
std::optional<uint64_t> ParseSize(const std::string& s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  uint64_t v = 0;
  if (!absl::SimpleAtoi(s, &v)) return std::nullopt;
  return v;
}

void SetEntry(StringPairs& entries, const std::string& key, const std::string& value) {
  for (auto& [k, v] : entries) {
    if (k == key) {
      v = value;
      return;
    }
  }
  entries.emplace_back(key, value);
}

// Smaller tensors are written from the mapping: one write is cheaper than reopening the file.
constexpr uint64_t kMinFileCopy = 64 << 10;

}  // namespace

ExternalDataReader::ExternalDataReader(std::string model_dir, std::string second_dir)
    : model_dir_(std::move(model_dir)), second_dir_(std::move(second_dir)) {}

absl::StatusOr<std::string> ExternalDataReader::Resolve(const std::string& dir,
                                                        std::string& real_dir,
                                                        const std::string& location,
                                                        const std::string& name) {
  if (real_dir.empty()) {
    absl::StatusOr<std::string> real = RealPath(dir);
    if (!real.ok()) {
      return absl::NotFoundError(
          absl::StrCat("model folder '", dir, "' cannot be opened: ", real.status().message()));
    }
    real_dir = *real;
  }
  absl::StatusOr<std::string> real = RealPath(absl::StrCat(dir, "/", location));
  if (!real.ok()) {
    return absl::NotFoundError(absl::StrCat("external data file '", location, "' of tensor '", name,
                                            "' cannot be opened: ", real.status().message()));
  }
  // Symlinks may not lead outside the folder either.
  const std::string prefix = real_dir == "/" ? "/" : real_dir + "/";
  if (real->compare(0, prefix.size(), prefix) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "external data path '", location, "' of tensor '", name, "' leaves the model folder"));
  }
  return real;
}

absl::StatusOr<std::shared_ptr<MappedFile>> ExternalDataReader::Map(const std::string& location,
                                                                    const std::string& name) {
  auto leaves = [&]() {
    return absl::InvalidArgumentError(absl::StrCat(
        "external data path '", location, "' of tensor '", name, "' leaves the model folder"));
  };
  if (location.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("external data of tensor '", name, "' has no location"));
  }
  if (location.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("external data path of tensor '", name, "' contains a NUL byte"));
  }
  if (location[0] == '/' || location[0] == '\\' ||
      (location.size() > 1 && location[1] == ':')) {  // "C:..." from Windows
    return absl::InvalidArgumentError(
        absl::StrCat("external data path '", location, "' of tensor '", name,
                     "' is absolute; it must be relative to the model folder"));
  }
  // "\" too: a model written on Windows may use it as a separator.
  for (absl::string_view part : absl::StrSplit(location, absl::ByAnyChar("/\\"))) {
    if (part == "..") return leaves();
  }
  if (model_dir_.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("tensor '", name, "' uses external data ('", location,
                     "') but the model was not loaded from a file; give a folder to read it from"));
  }
  absl::StatusOr<std::string> real = Resolve(model_dir_, real_model_dir_, location, name);
  if (!real.ok() && !second_dir_.empty() && second_dir_ != model_dir_) {
    absl::StatusOr<std::string> second = Resolve(second_dir_, real_second_dir_, location, name);
    if (second.ok()) real = std::move(second);
  }
  if (!real.ok()) return real.status();
  if (auto it = files_.find(*real); it != files_.end()) return it->second;
  absl::StatusOr<std::shared_ptr<MappedFile>> file = MappedFile::Open(*real);
  if (!file.ok()) {
    return absl::Status(file.status().code(), absl::StrCat("external data of tensor '", name,
                                                           "': ", file.status().message()));
  }
  files_.emplace(*real, *file);
  return *file;
}

void ExternalDataReader::SetSplicedPayloads(std::shared_ptr<const Buffer> file,
                                            std::vector<std::string_view> payloads) {
  spliced_file_ = std::move(file);
  spliced_payloads_ = std::move(payloads);
}

std::optional<std::string_view> ExternalDataReader::SplicedPayload(uint64_t index) const {
  if (spliced_file_ == nullptr || index >= spliced_payloads_.size()) return std::nullopt;
  return spliced_payloads_[index];
}

void ExternalDataReader::AttachSpliced(std::string_view payload, Tensor* tensor) const {
  CHECK(spliced_file_ != nullptr);
  tensor->SetRawView(spliced_file_, static_cast<size_t>(payload.data() - spliced_file_->data()),
                     payload.size());
  tensor->set_storage(Tensor::Storage::kRaw);
}

absl::Status ExternalDataReader::Attach(const StringPairs& entries, const std::string& name,
                                        std::optional<uint64_t> expected_size, Tensor* tensor) {
  std::string location;
  bool has_location = false;
  std::optional<uint64_t> offset, length;
  for (const auto& [key, value] : entries) {
    if (key == "location") {
      location = value;
      has_location = true;
    } else if (key == "offset" || key == "length") {
      std::optional<uint64_t> v = ParseSize(value);
      if (!v.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat("external data of tensor '", name,
                                                       "': ", key, " '", value,
                                                       "' is not a non-negative integer"));
      }
      (key == "offset" ? offset : length) = v;
    }
  }
  if (!has_location) {
    return absl::InvalidArgumentError(
        absl::StrCat("external data of tensor '", name, "' has no location"));
  }
  absl::StatusOr<std::shared_ptr<MappedFile>> file = Map(location, name);
  if (!file.ok()) return file.status();
  const uint64_t file_size = (*file)->size();
  const uint64_t begin = offset.value_or(0);
  if (begin > file_size) {
    return absl::OutOfRangeError(absl::StrCat("external data of tensor '", name, "': offset ",
                                              begin, " is beyond the end of '", location, "' (",
                                              file_size, " bytes)"));
  }
  const uint64_t size = length.value_or(file_size - begin);
  if (size > file_size - begin) {
    return absl::OutOfRangeError(
        absl::StrCat("external data of tensor '", name, "': bytes [", begin, ", ", begin, "+", size,
                     ") are beyond the end of '", location, "' (", file_size, " bytes)"));
  }
  if (expected_size.has_value() && size != *expected_size) {
    return absl::InvalidArgumentError(absl::StrCat("external data of tensor '", name, "' has ",
                                                   size, " bytes; its type and dims need ",
                                                   *expected_size));
  }
  tensor->SetRawView(*file, begin, size);
  tensor->mutable_external_data() = entries;
  tensor->set_storage(Tensor::Storage::kExternal);
  return absl::OkStatus();
}

ExternalDataWriter::ExternalDataWriter(std::string path, uint64_t alignment, bool discard_written)
    : path_(std::move(path)),
      location_(BaseName(path_)),
      alignment_(std::max<uint64_t>(alignment, 1)),
      discard_written_(discard_written) {}

absl::StatusOr<StringPairs> ExternalDataWriter::Append(const Tensor& tensor) {
  if (file_ == nullptr) {
    absl::StatusOr<std::unique_ptr<AtomicFile>> f = AtomicFile::Create(path_);
    if (!f.ok()) return f.status();
    file_ = *std::move(f);
  }
  const uint64_t size = tensor.raw_size();
  const uint64_t align = size >= alignment_ ? alignment_ : std::min<uint64_t>(alignment_, 64);
  const uint64_t pad = (align - file_->size() % align) % align;
  if (pad > 0) {
    static const std::string kZeros(65536, '\0');
    uint64_t left = pad;
    while (left > 0) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(left, kZeros.size()));
      if (absl::Status s = file_->Write(kZeros.data(), n); !s.ok()) return s;
      left -= n;
    }
  }
  const uint64_t offset = file_->size();
  uint64_t copied = 0;
  if (const auto* mapped = dynamic_cast<const MappedFile*>(tensor.buffer().get());
      mapped != nullptr && size > 0) {
    // Reopened only for large tensors; -1 (the file was replaced since loading): written from the
    // mapping.
    if (const int fd = size >= kMinFileCopy ? mapped->Reopen() : -1; fd >= 0) {
      absl::StatusOr<uint64_t> n =
          file_->CopyFromFile(fd, tensor.raw_data() - mapped->data(), size);
      ::close(fd);
      if (!n.ok()) return n.status();
      copied = *n;
    }
  }
  absl::Status written = absl::OkStatus();
  ScanReleasing(tensor.buffer().get(), tensor.raw_data() + copied, size - copied,
                [&](const char* chunk, size_t n) {
                  if (written.ok()) written = file_->Write(chunk, n);
                });
  if (!written.ok()) return written;
  if (discard_written_ && size > 0) tensor.buffer()->Discard(tensor.raw_data(), size);
  StringPairs entries;
  if (tensor.storage() == Tensor::Storage::kExternal) entries = tensor.external_data();
  SetEntry(entries, "location", location_);
  SetEntry(entries, "offset", absl::StrCat(offset));
  SetEntry(entries, "length", absl::StrCat(size));
  return entries;
}

absl::Status ExternalDataWriter::Finish() { return file_ ? file_->Finish() : absl::OkStatus(); }

absl::Status ExternalDataWriter::Commit() { return file_ ? file_->Commit() : absl::OkStatus(); }

}  // namespace onnx_opt::ir::io
