// Reading a model from a path or stdin ("-"), and writing one to a path or stdout ("-"), for the
// command-line tools. Writes are atomic (ir/io), so a failed run never leaves a partial file.
#ifndef ONNX_OPT_TOOLS_MODEL_SOURCE_H_
#define ONNX_OPT_TOOLS_MODEL_SOURCE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ir/io/model_io.h"
#include "ir/model.h"

namespace onnx_opt::tools {

absl::StatusOr<std::unique_ptr<ir::Model>> ReadModel(const std::string& path);
absl::Status WriteModel(const ir::Model& model, const std::string& path,
                        const ir::io::SaveOptions& options = {});

// Writes `text` to `path` ("-": standard output) whole or not at all.
absl::Status WriteTextFile(const std::string& path, const std::string& text);

// Hands a model that the process no longer needs to the exit: the kernel takes its memory back at
// once, while destroying it frees its nodes, values and attributes one by one (6% of an onnx-check
// run). Held from a static list, so a leak checker sees it reachable.
void KeepUntilExit(std::unique_ptr<ir::Model> model);

// True if the two paths name the same existing file (so a tool can refuse to overwrite its input
// in place only when that is unsafe; the atomic save itself never corrupts the input).
bool SameFile(const std::string& a, const std::string& b);

}  // namespace onnx_opt::tools

#endif  // ONNX_OPT_TOOLS_MODEL_SOURCE_H_
