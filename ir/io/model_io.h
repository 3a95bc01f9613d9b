// The public way in and out of files: models (.onnx, with external data) and test data values
// (.pb).
//
// Loading never copies weights needlessly: raw_data is moved out of the parsed message and external
// data is mapped. Saving is atomic: everything is written to temporary files in the destination
// folder, synced, and renamed into place only when complete; on any error nothing is left behind
// and no existing file changes. A file being read (or mapped) is never written.
#ifndef ONNX_OPT_IR_IO_MODEL_IO_H_
#define ONNX_OPT_IR_IO_MODEL_IO_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/io/data_value.h"
#include "ir/model.h"

namespace onnx_opt::ir::io {

struct LoadOptions {
  // The folder external data locations are relative to. Default: the model file's folder (see
  // LoadModel; none for LoadModelFromString, where external tensors are then an error).
  std::string external_data_dir;
};

struct SaveOptions {
  // Tensors with at least this many bytes of data go to the side file. Unset: only tensors that
  // were read from external data go there. Either way, a model that protobuf could not serialize (2
  // GiB) has its largest tensors moved out automatically.
  std::optional<uint64_t> external_data_threshold;
  // The side file's name, in the output's folder. Empty: "<output file name>.data".
  std::string external_data_file;
  // Offsets of tensors of at least this size are multiples of it (so they can be mapped).
  uint64_t external_data_alignment = 4096;
  // Write inline data as raw_data even where the file used typed fields (float_data, ...).
  bool force_raw_data = false;
  // The model is not read after this save (a tool's last step): each tensor written to the side
  // file has its bytes discarded right after (Buffer::Discard), so weights a pass spilled to a
  // temporary file (ir/spill_file.h) give their disk back as the side file grows.
  bool discard_written = false;
  // SaveModel calls this once everything is written, before the files appear under their names; an
  // error from it is returned as it is and leaves nothing written (a caller checks the model on
  // another thread while it is being written, see tools/lib/model_source.h).
  std::function<absl::Status()> before_commit;
};

// External data locations are relative to the folder of `path` as given ("." for a bare file name),
// as ONNX resolves them: a model reached through a symlink reads the data beside the link. Only a
// location missing there (or leading out of it) is looked for beside the link's real target, so
// that a symlink farm of models alone (Bazel runfiles) still loads.
absl::StatusOr<std::unique_ptr<Model>> LoadModel(const std::string& path,
                                                 const LoadOptions& options = {});
absl::StatusOr<std::unique_ptr<Model>> LoadModelFromString(std::string_view bytes,
                                                           const LoadOptions& options = {});

// Writes `path` and, when any tensor goes to external data, the side file next to it.
absl::Status SaveModel(const Model& model, const std::string& path,
                       const SaveOptions& options = {});
// Serialized ModelProto. Tensors read from external data keep their references. No side file can be
// written here, so external_data_threshold is refused and a model over 2 GiB is an error.
absl::StatusOr<std::string> SerializeModel(const Model& model, const SaveOptions& options = {});

// Test data: a TensorProto file, or the message for any DataValue kind.
absl::StatusOr<Tensor> LoadTensorProtoFile(const std::string& path);
absl::Status SaveTensorProtoFile(const Tensor& tensor, const std::string& path);
// `kind` says which message the file holds (see DataValueKindOf for a graph input's type).
absl::StatusOr<DataValue> LoadDataValueFile(const std::string& path, DataValue::Kind kind);
absl::Status SaveDataValueFile(const DataValue& value, const std::string& path);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_MODEL_IO_H_
