// Writing a file atomically: bytes go to a temporary file in the destination's folder, which is
// renamed over the destination only on Commit(). If anything fails (or Commit is never called),
// the temporary file is removed and the destination is untouched, so no reader and no crash of this
// process ever sees a partial file.
//
// Durability against a power loss costs an fsync (about half of a 5 MB save here), so it is paid
// only where a power loss could lose something: when the rename replaces an existing file (whose
// old contents would otherwise be gone while the new ones may not be on disk yet). A new file, the
// case of a build that writes fresh outputs, is left to the kernel's writeback, as compilers and
// linkers do.
#ifndef ONNX_OPT_IR_IO_ATOMIC_FILE_H_
#define ONNX_OPT_IR_IO_ATOMIC_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace onnx_opt::ir::io {

class AtomicFile {
 public:
  static absl::StatusOr<std::unique_ptr<AtomicFile>> Create(const std::string& path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

  // Appends bytes (the file position only moves forward).
  absl::Status Write(const char* data, size_t size);
  // Appends the pieces in order, many to a system call (writev).
  absl::Status WritePieces(const std::vector<std::string_view>& pieces);
  // Appends bytes [offset, offset + size) of the file open at `fd` inside the kernel
  // (copy_file_range: no copy through this process's memory; a reflink where the file system can).
  // Returns how many bytes it appended: fewer than `size` when the kernel cannot copy these files
  // (another file system, an old kernel, ...) or the source ended; the caller writes the rest.
  absl::StatusOr<uint64_t> CopyFromFile(int fd, uint64_t offset, uint64_t size);
  uint64_t size() const { return size_; }
  // Closes the file (flushing it to disk first when it will replace an existing file); it is
  // complete but not yet visible at `path`.
  absl::Status Finish();
  // Renames the finished file to `path`, replacing what was there (and then syncs the folder).
  absl::Status Commit();
  // Whether Finish() flushes to disk: true when `path` existed when the file was created.
  bool durable() const { return durable_; }

 private:
  AtomicFile(std::string path, std::string temp_path, int fd, bool durable)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd), durable_(durable) {}

  std::string path_;
  std::string temp_path_;
  int fd_;
  bool durable_;
  uint64_t size_ = 0;
  bool committed_ = false;
};

// Folder and file name of a path ("a/b.onnx" -> "a", "b.onnx"; "b.onnx" -> ".", "b.onnx").
std::string DirName(const std::string& path);
std::string BaseName(const std::string& path);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_ATOMIC_FILE_H_
