// External data (onnx/docs/ExternalData.md): a tensor's raw bytes live in a file next to the model,
// named by the external_data keys location (required, relative to the model's folder), offset and
// length (optional), checksum and any others (kept as they are).
//
// Reading maps each file once (ir::MappedFile) and gives tensors views into it: nothing is read
// into memory. Locations that are absolute, contain "..", or resolve (through symlinks) outside the
// model's folder are refused.
//
// Writing appends tensors to one new side file at aligned offsets. The file is written under a
// temporary name and only renamed into place on Commit(), so a file being read is never written.
#ifndef ONNX_OPT_IR_IO_EXTERNAL_DATA_H_
#define ONNX_OPT_IR_IO_EXTERNAL_DATA_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/buffer.h"
#include "ir/io/atomic_file.h"
#include "ir/tensor.h"

namespace onnx_opt::ir::io {

class ExternalDataReader {
 public:
  // `model_dir`: the folder locations are relative to. Empty: the model came from memory, and any
  // external tensor is an error. `second_dir`, when set, is tried for a location that is missing
  // from `model_dir` or leads out of it: the folder of the model file's real path, for a model
  // reached through a symlink whose data sits beside the target (Bazel runfiles link every file).
  explicit ExternalDataReader(std::string model_dir, std::string second_dir = "");

  // Points `tensor`'s data at its bytes, checks them against `expected_size` (when known), and
  // records `entries` with storage kExternal. `name` is the tensor's name for messages.
  absl::Status Attach(const StringPairs& entries, const std::string& name,
                      std::optional<uint64_t> expected_size, Tensor* tensor);

  // Inline raw_data that LoadModel cut out of the model file before parsing (payload_splice.h):
  // views into `file`, by the index the TensorProto's marker carries.
  void SetSplicedPayloads(std::shared_ptr<const Buffer> file,
                          std::vector<std::string_view> payloads);
  // The payload a marker names, or nullopt (no such payload: the marker is not one of ours).
  std::optional<std::string_view> SplicedPayload(uint64_t index) const;
  // Gives `tensor` a view of that payload (SplicedPayload must have found it), storage kRaw.
  void AttachSpliced(std::string_view payload, Tensor* tensor) const;

 private:
  absl::StatusOr<std::shared_ptr<MappedFile>> Map(const std::string& location,
                                                  const std::string& name);

  // The real path of `location` in `dir`, if it exists there and stays inside it.
  absl::StatusOr<std::string> Resolve(const std::string& dir, std::string& real_dir,
                                      const std::string& location, const std::string& name);

  std::string model_dir_;
  std::string second_dir_;
  std::string real_model_dir_;   // realpath of model_dir_, computed on first use
  std::string real_second_dir_;  // likewise
  absl::flat_hash_map<std::string, std::shared_ptr<MappedFile>> files_;  // by real path
  std::shared_ptr<const Buffer> spliced_file_;
  std::vector<std::string_view> spliced_payloads_;
};

class ExternalDataWriter {
 public:
  // `path`: the side file to create. Tensors of at least `alignment` bytes start at multiples of
  // `alignment` (so they can be mapped); smaller ones at multiples of 64. `discard_written`: each
  // tensor's bytes are discarded (Buffer::Discard) once written (SaveOptions::discard_written).
  ExternalDataWriter(std::string path, uint64_t alignment = 4096, bool discard_written = false);

  // The location recorded in tensors: the side file's name (it sits next to the model).
  const std::string& location() const { return location_; }

  // Appends `tensor`'s raw bytes and returns its external_data entries: the tensor's own entries
  // (checksum and other keys keep their order) with location, offset and length replaced. Bytes of
  // a mapped file are copied file to file where the kernel can; the rest is written in pieces,
  // releasing mapped pages behind, so a tensor is never resident whole.
  absl::StatusOr<StringPairs> Append(const Tensor& tensor);

  bool used() const { return file_ != nullptr; }
  uint64_t bytes_written() const { return file_ ? file_->size() : 0; }
  // Flushes the temporary file; Commit renames it into place. Without Commit it is removed.
  absl::Status Finish();
  absl::Status Commit();

 private:
  std::string path_;
  std::string location_;
  uint64_t alignment_;
  bool discard_written_;
  std::unique_ptr<AtomicFile> file_;  // created on the first Append
};

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_EXTERNAL_DATA_H_
