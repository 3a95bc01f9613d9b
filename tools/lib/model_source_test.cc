#include "tools/lib/model_source.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/text/parser.h"

namespace onnx_opt::tools {
namespace {

std::unique_ptr<ir::Model> Parse() {
  auto model = ir::text::ParseModel(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) {
  y = Relu (x)
}
)");
  EXPECT_TRUE(model.ok()) << model.status();
  return std::move(*model);
}

std::string Folder(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  return names;
}

// Each case runs with the check first and with the check beside the write.
class WriteCheckedModelTest : public ::testing::TestWithParam<CheckOverlap> {
 protected:
  std::string Dir(const std::string& name) {
    return Folder(name + (GetParam() == CheckOverlap::kAlways ? "_overlapped" : "_first"));
  }
};

INSTANTIATE_TEST_SUITE_P(Overlap, WriteCheckedModelTest,
                         ::testing::Values(CheckOverlap::kNever, CheckOverlap::kAlways));

TEST_P(WriteCheckedModelTest, WritesTheModelWhenTheCheckPasses) {
  const std::string dir = Dir("checked_pass");
  std::unique_ptr<ir::Model> model = Parse();
  std::vector<std::string> warnings;
  absl::Status check_status = absl::UnknownError("not set");
  const absl::Status written = WriteCheckedModel(
      *model, dir + "/out.onnx", {},
      [](const std::function<void(const std::string&)>& warn) {
        warn("first");
        warn("second");
        return absl::OkStatus();
      },
      [&](const std::string& w) { warnings.push_back(w); }, &check_status, GetParam());
  ASSERT_TRUE(written.ok()) << written;
  EXPECT_TRUE(check_status.ok()) << check_status;
  // The check's warnings arrive on the caller's thread, in order.
  EXPECT_EQ(warnings, (std::vector<std::string>{"first", "second"}));
  absl::StatusOr<std::string> expected = ir::io::SerializeModel(*model);
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(Read(dir + "/out.onnx"), *expected);
  EXPECT_EQ(Files(dir), std::vector<std::string>{"out.onnx"});
}

TEST_P(WriteCheckedModelTest, AFailedCheckWritesNothingAndKeepsWhatWasThere) {
  const std::string dir = Dir("checked_fail");
  std::unique_ptr<ir::Model> model = Parse();
  std::ofstream(dir + "/old.onnx") << "old contents";
  for (const std::string name : {"new.onnx", "old.onnx"}) {
    absl::Status check_status;
    const absl::Status written = WriteCheckedModel(
        *model, dir + "/" + name, {},
        [](const std::function<void(const std::string&)>&) {
          return absl::InvalidArgumentError("bad result");
        },
        [](const std::string&) {}, &check_status, GetParam());
    EXPECT_EQ(check_status, absl::InvalidArgumentError("bad result"));
    EXPECT_TRUE(written.ok()) << "a failed check is reported through check_status only: "
                              << written;
  }
  EXPECT_EQ(Files(dir), std::vector<std::string>{"old.onnx"});
  EXPECT_EQ(Read(dir + "/old.onnx"), "old contents");
}

TEST_P(WriteCheckedModelTest, AWriteErrorIsReportedWhenTheCheckPasses) {
  const std::string dir = Dir("checked_write_error");
  std::unique_ptr<ir::Model> model = Parse();
  absl::Status check_status;
  const absl::Status written = WriteCheckedModel(
      *model, dir + "/missing/out.onnx", {},
      [](const std::function<void(const std::string&)>&) { return absl::OkStatus(); },
      [](const std::string&) {}, &check_status, GetParam());
  EXPECT_TRUE(check_status.ok());
  EXPECT_FALSE(written.ok());
  EXPECT_TRUE(Files(dir).empty());
}

}  // namespace
}  // namespace onnx_opt::tools
