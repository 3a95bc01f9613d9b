#include "ir/spill_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/tensor.h"

namespace onnx_opt::ir {
namespace {

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

std::string Pattern(size_t n, int seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + seed * 7 + i / 4096) & 0xff);
  return s;
}

// Pieces written one after another read back as written, also after their pages are let go; the
// file leaves no name in the folder.
TEST(SpillFileTest, WrittenBytesReadBackAfterTheirPagesGo) {
  const std::string dir = TempDir() + "/spill_read";
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  auto file = SpillFile::Create(dir);
  ASSERT_TRUE(file.ok()) << file.status();
  std::vector<std::string> pieces = {Pattern(3 << 20, 1), Pattern(5, 2), Pattern(1 << 20, 3),
                                     std::string()};
  std::vector<std::shared_ptr<const Buffer>> buffers;
  for (const std::string& p : pieces) {
    auto b = (*file)->Write(p);
    ASSERT_TRUE(b.ok()) << b.status();
    buffers.push_back(*b);
  }
  for (size_t i = 0; i < pieces.size(); ++i) {
    ASSERT_EQ(buffers[i]->size(), pieces[i].size());
    EXPECT_EQ(std::string(buffers[i]->data(), buffers[i]->size()), pieces[i]) << i;
    buffers[i]->ReleasePages(buffers[i]->data(), buffers[i]->size());
    EXPECT_EQ(std::string(buffers[i]->data(), buffers[i]->size()), pieces[i]) << i;
  }
  // A tensor viewing spilled bytes, after the SpillFile handle itself is gone.
  file->reset();
  Tensor t(DataType::kUint8, {static_cast<int64_t>(pieces[2].size())});
  t.SetRawView(buffers[2], 0, pieces[2].size());
  EXPECT_EQ(t.raw_view(), pieces[2]);
  EXPECT_EQ(::rmdir(dir.c_str()), 0) << "the spill file left a name behind";
}

// Discard gives back the whole pages of a range (they read as zeros); the rest stays.
TEST(SpillFileTest, DiscardGivesBackWholePages) {
  auto file = SpillFile::Create(TempDir());
  ASSERT_TRUE(file.ok()) << file.status();
  const std::string first = Pattern(4 * 4096 + 100, 4), second = Pattern(8192, 5);
  auto a = (*file)->Write(first);
  auto b = (*file)->Write(second);
  ASSERT_TRUE(a.ok() && b.ok());
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  // Bytes [100, 2 pages + 50): only page 1 lies wholly inside.
  (*a)->Discard((*a)->data() + 100, 2 * page - 50);
  const std::string after((*a)->data(), (*a)->size());
  EXPECT_EQ(after.substr(0, page), first.substr(0, page));
  EXPECT_EQ(after.substr(page, page), std::string(page, '\0'));
  EXPECT_EQ(after.substr(2 * page), first.substr(2 * page));
  // To its end, the last partial page too; the next piece is untouched.
  (*a)->Discard((*a)->data() + 2 * page, first.size() - 2 * page);
  EXPECT_EQ(std::string((*a)->data() + 2 * page, first.size() - 2 * page),
            std::string(first.size() - 2 * page, '\0'));
  EXPECT_EQ(std::string((*b)->data(), (*b)->size()), second);
}

TEST(SpillFileTest, AMissingFolderIsAnError) {
  EXPECT_FALSE(SpillFile::Create(TempDir() + "/no/such/folder").ok());
}

}  // namespace
}  // namespace onnx_opt::ir
