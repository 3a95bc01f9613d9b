#include "converter/testing/test_util.h"

#include "absl/strings/str_cat.h"
#include "converter/convert.h"
#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "ir/text/model_equality.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/verifier.h"
#include "schema/checker/checker.h"

namespace onnx_opt::converter::testing {

std::unique_ptr<ir::Model> ParseText(std::string_view text) {
  absl::StatusOr<std::unique_ptr<ir::Model>> m = ir::text::ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status() << "\n" << text;
  if (!m.ok()) return nullptr;
  absl::Status v = ir::Verify(**m);
  EXPECT_TRUE(v.ok()) << v << "\n" << text;
  return std::move(*m);
}

absl::StatusOr<std::unique_ptr<ir::Model>> ConvertTo(const ir::Model& m, int64_t opset,
                                                     bool infer) {
  ConvertOptions options;
  options.onnx_opset = opset;
  options.infer_types = infer;
  return ConvertModel(m, options);
}

std::string Print(const ir::Model& m) { return ir::text::PrintModel(m); }

namespace {

void CheckValidAndEquivalent(const ir::Model& before, const ir::Model& after, bool numeric) {
  absl::Status v = ir::Verify(after);
  EXPECT_TRUE(v.ok()) << v << "\n" << Print(after);
  schema::checker::CheckOptions co;
  co.require_main_graph_shapes = false;
  absl::Status c = schema::checker::CheckModel(after, co);
  EXPECT_TRUE(c.ok()) << c << "\n" << Print(after);
  if (numeric) {
    absl::Status e = equivalence::CheckEquivalent(before, after);
    EXPECT_TRUE(e.ok()) << e << "\nbefore:\n" << Print(before) << "\nafter:\n" << Print(after);
  }
}

}  // namespace

void ExpectConversion(std::string_view before, int64_t opset, std::string_view after,
                      bool numeric) {
  std::unique_ptr<ir::Model> a = ParseText(before);
  std::unique_ptr<ir::Model> want = ParseText(after);
  if (a == nullptr || want == nullptr) return;
  absl::StatusOr<std::unique_ptr<ir::Model>> got = ConvertTo(*a, opset);
  ASSERT_TRUE(got.ok()) << got.status() << "\n" << before;
  absl::Status eq = ir::text::StructurallyEqual(**got, *want, ir::text::TextRoundTripOptions());
  EXPECT_TRUE(eq.ok()) << eq << "\ngot:\n" << Print(**got) << "\nwant:\n" << after;
  CheckValidAndEquivalent(*a, **got, numeric);
}

void ExpectRefusal(std::string_view before, int64_t opset, std::string_view message_part) {
  std::unique_ptr<ir::Model> a = ParseText(before);
  if (a == nullptr) return;
  absl::StatusOr<std::unique_ptr<ir::Model>> got = ConvertTo(*a, opset);
  ASSERT_FALSE(got.ok()) << "expected a refusal, got:\n" << Print(**got);
  EXPECT_NE(got.status().message().find(std::string(message_part)), std::string::npos)
      << got.status();
}

void ExpectRoundTrip(std::string_view model, int64_t other_opset) {
  std::unique_ptr<ir::Model> a = ParseText(model);
  if (a == nullptr) return;
  std::optional<int64_t> start = OnnxOpsetOf(*a);
  ASSERT_TRUE(start.has_value());
  absl::StatusOr<std::unique_ptr<ir::Model>> there = ConvertTo(*a, other_opset);
  ASSERT_TRUE(there.ok()) << there.status();
  CheckValidAndEquivalent(*a, **there, true);
  absl::StatusOr<std::unique_ptr<ir::Model>> back = ConvertTo(**there, *start);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << Print(**there);
  CheckValidAndEquivalent(*a, **back, true);
}

}  // namespace onnx_opt::converter::testing
