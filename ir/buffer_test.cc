#include "ir/buffer.h"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "ir/tensor.h"

namespace onnx_opt::ir {
namespace {

std::string TempFile(const std::string& bytes) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = std::string(dir ? dir : "/tmp") + "/buffer_test." + std::to_string(::getpid());
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i * 131 + i / 4096);
  return s;
}

// Released pages of a mapped file are read back from the file: the bytes never change.
TEST(MappedFileTest, ReleasedPagesReadTheSame) {
  const std::string bytes = Pattern(3 * kScanChunk + 12345);
  static_assert(3 * kScanChunk > MappedFile::kKeepResidentBelow,
                "the file must be large enough to be released");
  const std::string path = TempFile(bytes);
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  const std::string_view view((*file)->data(), (*file)->size());
  ASSERT_EQ(view, bytes);
  (*file)->ReleasePages((*file)->data() + 100,
                        (*file)->size() - 200);  // partial pages at both ends
  EXPECT_EQ(view, bytes);
  (*file)->ReleasePages((*file)->data(), (*file)->size());
  EXPECT_EQ(view, bytes);
  ::unlink(path.c_str());
}

TEST(MappedFileTest, ReopenGivesTheSameFileOrNothing) {
  const std::string path = TempFile("abcdef");
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  const int fd = (*file)->Reopen();
  ASSERT_GE(fd, 0);
  char c[3] = {};
  EXPECT_EQ(::pread(fd, c, 2, 2), 2);
  EXPECT_EQ(std::string(c), "cd");
  ::close(fd);
  // Replaced by another file under the same name: the mapping's bytes are no longer there.
  ::unlink(path.c_str());
  TempFile("abcdef");
  EXPECT_EQ((*file)->Reopen(), -1);
  ::unlink(path.c_str());
  EXPECT_EQ((*file)->Reopen(), -1);
}

// A model-sized file comes whole into memory on huge pages (where the kernel offers them),
// read-only; a small one is mapped; either way the bytes are the file's. Sizes around both
// thresholds.
TEST(OpenFileBytesTest, ReadsOrMapsTheWholeFile) {
  for (const size_t size : {size_t{1}, size_t{4096}, kReadIntoHugePagesFrom - 1,
                            kReadIntoHugePagesFrom, kReadIntoHugePagesFrom + 4097,
                            MappedFile::kKeepResidentBelow - 1, MappedFile::kKeepResidentBelow}) {
    const std::string bytes = Pattern(size);
    const std::string path = TempFile(bytes);
    absl::StatusOr<std::shared_ptr<const Buffer>> file = OpenFileBytes(path);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ(std::string_view((*file)->data(), (*file)->size()), bytes) << size;
    const bool read_whole = size >= kReadIntoHugePagesFrom && size < MappedFile::kKeepResidentBelow;
    if (!read_whole) {
      EXPECT_NE(dynamic_cast<const MappedFile*>(file->get()), nullptr) << size;
    } else if (const auto* read = dynamic_cast<const HugePageFile*>(file->get()); read != nullptr) {
      // Where it was read: the memory starts on a huge-page boundary and stays the file's after the
      // file itself changes.
      EXPECT_EQ(reinterpret_cast<uintptr_t>(read->data()) % (uintptr_t{2} << 20), 0u);
      TempFile(std::string(size, 'x'));
      EXPECT_EQ(std::string_view(read->data(), read->size()), bytes);
    } else {
      // Transparent huge pages are off on this machine: the file is mapped instead.
      EXPECT_NE(dynamic_cast<const MappedFile*>(file->get()), nullptr) << size;
    }
    ::unlink(path.c_str());
  }
}

TEST(OpenFileBytesTest, MissingFilesAndFoldersAreErrors) {
  EXPECT_EQ(OpenFileBytes("/nonexistent/model.onnx").status().code(), absl::StatusCode::kNotFound);
  const char* dir = std::getenv("TEST_TMPDIR");
  EXPECT_EQ(OpenFileBytes(dir ? dir : "/tmp").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ScanReleasingTest, VisitsEveryByteOnceInOrder) {
  const std::string bytes = Pattern(2 * kScanChunk + 7);
  const std::string path = TempFile(bytes);
  auto file = MappedFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  for (const Buffer* buffer :
       {static_cast<const Buffer*>(file->get()), static_cast<const Buffer*>(nullptr)}) {
    std::string seen;
    std::vector<size_t> sizes;
    ScanReleasing(buffer, (*file)->data() + 3, (*file)->size() - 3,
                  [&](const char* chunk, size_t n) {
                    seen.append(chunk, n);
                    sizes.push_back(n);
                  });
    EXPECT_EQ(seen, bytes.substr(3));
    EXPECT_EQ(sizes, (std::vector<size_t>{kScanChunk, kScanChunk, 4}));
  }
  StringBuffer memory(bytes);
  std::string seen;
  ScanReleasing(&memory, memory.data(), memory.size(),
                [&](const char* chunk, size_t n) { seen.append(chunk, n); });
  EXPECT_EQ(seen, bytes);
  ::unlink(path.c_str());
}

// Bytes a producer fills after AllocateRaw are the tensor's, and copies of the tensor share them.
TEST(HeapBuffer, AllocateRawGivesTheTensorTheBytesWrittenThere) {
  Tensor t(DataType::kUint8, {5});
  char* bytes = t.AllocateRaw(5);
  std::memcpy(bytes, "abcde", 5);
  const Tensor copy = t;
  EXPECT_EQ(t.raw_view(), "abcde");
  EXPECT_EQ(copy.raw_view(), "abcde");
  EXPECT_EQ(copy.raw_data(), t.raw_data());
  EXPECT_EQ(t.raw_size(), 5u);
}

}  // namespace
}  // namespace onnx_opt::ir
