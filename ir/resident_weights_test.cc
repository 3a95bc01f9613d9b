#include "ir/resident_weights.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "glog/logging.h"
#include "gtest/gtest.h"
#include "ir/attribute.h"
#include "ir/buffer.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "platform/memory_pages.h"

namespace onnx_opt::ir {
namespace {

// A file of `size` patterned bytes, large enough to be mapped (not read) when size is.
std::string WeightsFile(size_t size) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path =
      std::string(dir ? dir : "/tmp") + "/resident_weights_test." + std::to_string(::getpid());
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 131 + i / 4096);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

Tensor View(std::shared_ptr<const Buffer> file, size_t offset, size_t size) {
  Tensor t(DataType::kFloat, {static_cast<int64_t>(size / 4)});
  t.SetRawView(std::move(file), offset, size);
  return t;
}

struct Model {
  std::shared_ptr<MappedFile> file;
  std::unique_ptr<Graph> graph = std::make_unique<Graph>("g");
  Value* top = nullptr;
  Value* nested = nullptr;  // an initializer of an If branch
};

// A graph with one weight at an odd offset of the mapped file and one in a subgraph.
Model MakeModel(const std::string& path) {
  Model m;
  auto file = MappedFile::Open(path);
  CHECK(file.ok()) << file.status();
  m.file = *file;
  m.top = m.graph->AddInitializer(View(m.file, 4100, 1 << 20));
  m.top->set_name("top");
  auto branch = std::make_unique<Graph>("then");
  m.nested = branch->AddInitializer(View(m.file, 3 << 20, 4 << 20));
  m.nested->set_name("nested");
  Value* cond = m.graph->AddInput("cond", Type());
  Node* node = m.graph->AddNode("If", {cond}, {"y"});
  node->SetAttribute(Attribute::FromGraph("then_branch", std::move(branch)));
  return m;
}

TEST(ReadMappedWeightsIntoMemory, MovesEveryWeightOfTheFileToOneCopyWithTheSameBytes) {
  if (!platform::TransparentHugePagesAvailable())
    GTEST_SKIP() << "the kernel gives no transparent huge pages: nothing is read";
  const std::string path = WeightsFile(MappedFile::kKeepResidentBelow + 12345);
  Model m = MakeModel(path);
  const std::string top(m.top->initializer()->raw_view());
  const std::string nested(m.nested->initializer()->raw_view());
  // Only the tensors hold the mapping, as after a load: it goes while they are re-pointed.
  const size_t file_size = m.file->size();
  m.file.reset();
  absl::StatusOr<ResidentWeights> done = ReadMappedWeightsIntoMemory(*m.graph);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ(done->files, 1u);
  EXPECT_EQ(done->bytes, file_size);
  const Tensor& t = *m.top->initializer();
  const Tensor& n = *m.nested->initializer();
  EXPECT_EQ(dynamic_cast<const MappedFile*>(t.buffer().get()), nullptr);
  EXPECT_EQ(t.buffer(), n.buffer()) << "one copy of the file for both";
  EXPECT_EQ(t.raw_view(), top);
  EXPECT_EQ(n.raw_view(), nested);
  // The copy starts on a huge page; the offsets are the file's.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.buffer()->data()) % platform::kHugePageBytes, 0u);
  EXPECT_EQ(t.raw_data() - t.buffer()->data(), 4100);
  ::unlink(path.c_str());
}

TEST(ReadMappedWeightsIntoMemory, LeavesFilesOverTheBudgetMapped) {
  const std::string path = WeightsFile(MappedFile::kKeepResidentBelow + 12345);
  Model m = MakeModel(path);
  absl::StatusOr<ResidentWeights> done =
      ReadMappedWeightsIntoMemory(*m.graph, MappedFile::kKeepResidentBelow);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ(done->files, 0u);
  EXPECT_EQ(m.top->initializer()->buffer(), m.file);
  EXPECT_EQ(m.nested->initializer()->buffer(), m.file);
  ::unlink(path.c_str());
}

TEST(ReadMappedWeightsIntoMemory, LeavesSmallFilesMapped) {
  const std::string path = WeightsFile(6 << 20);
  Model m = MakeModel(path);
  absl::StatusOr<ResidentWeights> done = ReadMappedWeightsIntoMemory(*m.graph);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ(done->files, 0u);
  EXPECT_EQ(m.top->initializer()->buffer(), m.file);
  ::unlink(path.c_str());
}

// A file replaced since it was mapped is not read (its new bytes are not the model's).
TEST(ReadMappedWeightsIntoMemory, KeepsTheMappingOfAReplacedFile) {
  const std::string path = WeightsFile(MappedFile::kKeepResidentBelow + 12345);
  Model m = MakeModel(path);
  const std::string top(m.top->initializer()->raw_view());
  ::unlink(path.c_str());
  WeightsFile(MappedFile::kKeepResidentBelow + 12345);  // same path, a new file
  absl::StatusOr<ResidentWeights> done = ReadMappedWeightsIntoMemory(*m.graph);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_EQ(done->files, 0u);
  EXPECT_EQ(m.top->initializer()->buffer(), m.file);
  EXPECT_EQ(m.top->initializer()->raw_view(), top);
  ::unlink(path.c_str());
}

}  // namespace
}  // namespace onnx_opt::ir
