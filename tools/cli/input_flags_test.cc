#include "tools/cli/input_flags.h"

#include "gtest/gtest.h"

namespace onnx_opt::cli {
namespace {

TEST(InputFlagsTest, DimsShapesAndSeed) {
  gflags::FlagSaver restore;
  FLAGS_seed = 7;
  FLAGS_dim = "N=2,M=30";
  FLAGS_shape = "x=1,3,y=,z=4";
  equivalence::EquivalenceOptions options;
  ASSERT_TRUE(ApplyInputFlags(options).ok());
  EXPECT_EQ(options.seed, 7u);
  EXPECT_EQ(options.dims.at("N"), 2);
  EXPECT_EQ(options.dims.at("M"), 30);
  EXPECT_EQ(options.shapes.at("x"), (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(options.shapes.at("y").empty());
  EXPECT_EQ(options.shapes.at("z"), (std::vector<int64_t>{4}));
}

TEST(InputFlagsTest, MalformedListsAreUsageErrors) {
  for (const auto& [dim, shape] : std::vector<std::pair<std::string, std::string>>{{"N", ""},
                                                                                   {"N=x", ""},
                                                                                   {"=2", ""},
                                                                                   {"N=2,3", ""},
                                                                                   {"N=-1", ""},
                                                                                   {"", "1,2"},
                                                                                   {"", "x=a"},
                                                                                   {"", "=1"}}) {
    gflags::FlagSaver restore;
    FLAGS_dim = dim;
    FLAGS_shape = shape;
    equivalence::EquivalenceOptions options;
    EXPECT_TRUE(absl::IsInvalidArgument(ApplyInputFlags(options))) << dim << " " << shape;
  }
}

}  // namespace
}  // namespace onnx_opt::cli
