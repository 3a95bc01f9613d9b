#include "platform/memory_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace onnx_opt::platform {
namespace {

// An anonymous private mapping shows what was dropped: its dropped pages read back as zeros.
TEST(ReleaseMappedPages, DropsOnlyWholePagesInsideTheRange) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  void* raw = ::mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(raw, MAP_FAILED);
  auto* bytes = static_cast<unsigned char*>(raw);
  std::memset(bytes, 0xAB, 3 * page);
  // From inside the first page to inside the third: only the second lies wholly inside.
  ReleaseMappedPages(bytes + 100, 2 * page);
  EXPECT_EQ(bytes[0], 0xAB);
  EXPECT_EQ(bytes[page - 1], 0xAB);
  EXPECT_EQ(bytes[page], 0);
  EXPECT_EQ(bytes[2 * page - 1], 0);
  EXPECT_EQ(bytes[2 * page], 0xAB);
  EXPECT_EQ(bytes[3 * page - 1], 0xAB);
  // Less than a page: nothing.
  ReleaseMappedPages(bytes + 1, page - 2);
  EXPECT_EQ(bytes[1], 0xAB);
  ::munmap(raw, 3 * page);
}

TEST(TransparentHugePages, FollowsTheKernelSetting) {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string setting;
  std::getline(in, setting);
  const bool expected = setting.find("[always]") != std::string::npos ||
                        setting.find("[madvise]") != std::string::npos;
  EXPECT_EQ(TransparentHugePagesAvailable(), expected) << setting;
}

TEST(AdviseHugePages, AcceptedOnAnAlignedMappingWhereAvailable) {
  if (!TransparentHugePagesAvailable())
    GTEST_SKIP() << "the kernel gives no transparent huge pages";
  void* raw = ::mmap(nullptr, 2 * kHugePageBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(raw, MAP_FAILED);
  const auto begin =
      (reinterpret_cast<uintptr_t>(raw) + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  EXPECT_TRUE(AdviseHugePages(reinterpret_cast<void*>(begin), kHugePageBytes));
  ::munmap(raw, 2 * kHugePageBytes);
}

TEST(AvailableMemoryBytes, SomeButNoMoreThanTheMachineHas) {
  const size_t available = AvailableMemoryBytes();
  const size_t total =
      static_cast<size_t>(::sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  EXPECT_GT(available, size_t{0});
  EXPECT_LE(available, total);
}

}  // namespace
}  // namespace onnx_opt::platform
