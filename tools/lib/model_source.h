// Reading a model from a path or stdin ("-"), and writing one to a path or stdout ("-"), for the
// command-line tools. Writes are atomic (ir/io), so a failed run never leaves a partial file.
#ifndef ONNX_OPT_TOOLS_LIB_MODEL_SOURCE_H_
#define ONNX_OPT_TOOLS_LIB_MODEL_SOURCE_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ir/io/model_io.h"
#include "ir/model.h"

namespace onnx_opt::tools {

absl::StatusOr<std::unique_ptr<ir::Model>> ReadModel(const std::string& path);
absl::Status WriteModel(const ir::Model& model, const std::string& path,
                        const ir::io::SaveOptions& options = {});

// WriteModel after `check` has passed: an invalid result leaves nothing written. For a large model
// the check runs on a second thread while the file is written (saving and checking a 60 MB model
// take tens of ms each), and the file appears at `path` only once the check has passed. For a small
// one the thread costs more than it hides: starting it, and the second core's activity slowing the
// kernel's work for the write on a VM, lost 0.3-0.6 ms on ~700-node models and won 20-30 ms on
// 10,000-node ones (process_bench, the same runs alternated), so below kOverlapCheckFromNodes nodes
// the check runs first. `check` gets a sink for its warnings, which reach `warn` on this thread
// after it ends. Standard output cannot take bytes back, so for "-" the check always runs first.
// `check` failing is reported in `check_status`, apart from a failure to write (the returned
// status).
inline constexpr size_t kOverlapCheckFromNodes = 1000;
enum class CheckOverlap { kBySize, kNever, kAlways };  // kNever and kAlways for tests
using ResultCheck =
    std::function<absl::Status(const std::function<void(const std::string&)>& warn)>;
absl::Status WriteCheckedModel(const ir::Model& model, const std::string& path,
                               const ir::io::SaveOptions& options, const ResultCheck& check,
                               const std::function<void(const std::string&)>& warn,
                               absl::Status* check_status,
                               CheckOverlap overlap = CheckOverlap::kBySize);

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

#endif  // ONNX_OPT_TOOLS_LIB_MODEL_SOURCE_H_
