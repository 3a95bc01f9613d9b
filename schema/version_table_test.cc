#include "schema/version_table.h"

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace onnx_opt::schema {
namespace {

TEST(ReleasesTest, OldestFirstAndMonotonic) {
  absl::Span<const Release> releases = Releases();
  ASSERT_FALSE(releases.empty());
  EXPECT_EQ(releases.front().name, "1.0");
  EXPECT_EQ(releases.front().ir_version, 3);
  for (size_t i = 1; i < releases.size(); ++i) {
    EXPECT_LE(releases[i - 1].ir_version, releases[i].ir_version) << releases[i].name;
    EXPECT_LE(releases[i - 1].onnx_opset, releases[i].onnx_opset) << releases[i].name;
    EXPECT_LE(releases[i - 1].ml_opset, releases[i].ml_opset) << releases[i].name;
  }
}

TEST(OpsetInReleaseTest, ByDomain) {
  const Release& r = Releases().back();
  EXPECT_EQ(OpsetInRelease(r, ""), r.onnx_opset);
  EXPECT_EQ(OpsetInRelease(r, "ai.onnx"), r.onnx_opset);
  EXPECT_EQ(OpsetInRelease(r, "ai.onnx.ml"), r.ml_opset);
  EXPECT_EQ(OpsetInRelease(r, "ai.onnx.training"), r.training_opset);
  EXPECT_EQ(OpsetInRelease(r, "com.example"), 0);
  EXPECT_EQ(OpsetInRelease(Releases().front(), "ai.onnx.training"), 0);
}

TEST(MinIrVersionForOpsetTest, OnnxDomain) {
  struct Case {
    int64_t opset;
    int64_t ir;
  };
  for (const Case& c :
       {Case{1, 3}, Case{2, 3}, Case{5, 3}, Case{8, 3}, Case{9, 4}, Case{10, 5}, Case{11, 6},
        Case{12, 7}, Case{14, 7}, Case{15, 8}, Case{18, 8}, Case{19, 9}, Case{21, 10}, Case{22, 10},
        Case{23, 11}, Case{24, 12}, Case{25, 13}, Case{28, 13}}) {
    absl::StatusOr<int64_t> ir = MinIrVersionForOpset("", c.opset);
    ASSERT_TRUE(ir.ok()) << ir.status();
    EXPECT_EQ(*ir, c.ir) << "opset " << c.opset;
    EXPECT_EQ(*MinIrVersionForOpset("ai.onnx", c.opset), c.ir);
  }
}

TEST(MinIrVersionForOpsetTest, OtherDomains) {
  EXPECT_EQ(*MinIrVersionForOpset("ai.onnx.ml", 1), 3);
  EXPECT_EQ(*MinIrVersionForOpset("ai.onnx.ml", 2), 6);
  EXPECT_EQ(*MinIrVersionForOpset("ai.onnx.ml", 3), 8);
  EXPECT_EQ(*MinIrVersionForOpset("ai.onnx.ml", 4), 9);
  EXPECT_EQ(*MinIrVersionForOpset("ai.onnx.ml", 5), 10);
  EXPECT_EQ(*MinIrVersionForOpset("ai.onnx.training", 1), 7);
}

TEST(MinIrVersionForOpsetTest, Errors) {
  absl::StatusOr<int64_t> newer = MinIrVersionForOpset("", 29);
  EXPECT_EQ(newer.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(newer.status().message(),
            "no known ONNX release includes opset 29 of domain ai.onnx (newest: 28)");
  EXPECT_EQ(MinIrVersionForOpset("", 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MinIrVersionForOpset("ai.onnx.ml", 6).status().code(), absl::StatusCode::kNotFound);
  // The table has no column for the preview training domain; we do not guess one.
  EXPECT_EQ(MinIrVersionForOpset("ai.onnx.preview.training", 1).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(MinIrVersionForOpset("com.example", 1).status().code(), absl::StatusCode::kNotFound);
}

TEST(MaxOpsetForIrVersionTest, Inverse) {
  EXPECT_EQ(*MaxOpsetForIrVersion("", 3), 8);
  EXPECT_EQ(*MaxOpsetForIrVersion("", 4), 9);
  EXPECT_EQ(*MaxOpsetForIrVersion("", 7), 14);
  EXPECT_EQ(*MaxOpsetForIrVersion("", 10), 22);
  EXPECT_EQ(*MaxOpsetForIrVersion("", 13), 28);
  EXPECT_EQ(*MaxOpsetForIrVersion("", 99), 28);
  EXPECT_EQ(*MaxOpsetForIrVersion("ai.onnx.ml", 3), 1);
  EXPECT_EQ(*MaxOpsetForIrVersion("ai.onnx.ml", 9), 4);
  EXPECT_EQ(*MaxOpsetForIrVersion("ai.onnx.training", 7), 1);
  EXPECT_EQ(MaxOpsetForIrVersion("", 2).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(MaxOpsetForIrVersion("ai.onnx.training", 6).status().code(),
            absl::StatusCode::kNotFound);
  // Round trip: an opset's minimum IR version allows at least that opset.
  for (int64_t opset = 1; opset <= 28; ++opset) {
    EXPECT_GE(*MaxOpsetForIrVersion("", *MinIrVersionForOpset("", opset)), opset);
  }
}

}  // namespace
}  // namespace onnx_opt::schema
