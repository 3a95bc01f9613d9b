// Bytes too many to keep in memory that a pass computes while the model is open (the quantized
// weights of a 7B model: 3.8 GB): written to an unlinked temporary file and mapped back read-only,
// so they are file pages that the kernel writes back and drops, read again when next touched,
// instead of anonymous memory resident until the model is saved. Readers see an ordinary Buffer
// (ReleasePages lets go of what a scan has read, as for a mapped model file).
#ifndef ONNX_OPT_IR_SPILL_FILE_H_
#define ONNX_OPT_IR_SPILL_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/buffer.h"

namespace onnx_opt::ir {

class SpillFile : public std::enable_shared_from_this<SpillFile> {
 public:
  // A new file in `dir`, unlinked at once: nothing is left behind whatever happens to the process.
  static absl::StatusOr<std::shared_ptr<SpillFile>> Create(const std::string& dir);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Appends `bytes` (from a page boundary) and returns them mapped read-only. The buffer keeps the
  // file open; the file goes with the last buffer.
  absl::StatusOr<std::shared_ptr<const Buffer>> Write(std::string_view bytes);

  uint64_t size() const { return end_; }

 private:
  explicit SpillFile(int fd) : fd_(fd) {}
  friend class SpilledBytes;
  int fd_;
  uint64_t end_ = 0;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_SPILL_FILE_H_
