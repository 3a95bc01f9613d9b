// The models built in testdata/ converted to opset 11, then 11 -> 21 -> 11: every stage computes
// what the original computes (random inputs, the interpreter).
#include <memory>
#include <string>

#include "converter/convert.h"
#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "schema/checker/checker.h"

namespace onnx_opt::converter {
namespace {

std::unique_ptr<ir::Model> To(const ir::Model& m, int64_t opset) {
  ConvertOptions o;
  o.onnx_opset = opset;
  absl::StatusOr<std::unique_ptr<ir::Model>> r = ConvertModel(m, o);
  EXPECT_TRUE(r.ok()) << "to " << opset << ": " << r.status();
  if (!r.ok()) return nullptr;
  absl::Status c = schema::checker::CheckModel(**r);
  EXPECT_TRUE(c.ok()) << "to " << opset << ": " << c;
  return std::move(*r);
}

void ExpectSameOutputs(const ir::Model& a, const ir::Model& b, const std::string& stage) {
  equivalence::EquivalenceOptions o;
  o.default_dim = 2;
  absl::Status s = equivalence::CheckEquivalent(a, b, o);
  EXPECT_TRUE(s.ok()) << stage << ": " << s;
}

class RoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, ElevenToTwentyOneAndBack) {
  absl::StatusOr<std::unique_ptr<ir::Model>> original =
      ir::io::LoadModel("testdata/models/" + GetParam());
  ASSERT_TRUE(original.ok()) << original.status();
  std::unique_ptr<ir::Model> m11 = To(**original, 11);
  ASSERT_NE(m11, nullptr);
  ExpectSameOutputs(**original, *m11, "original -> 11");
  std::unique_ptr<ir::Model> m21 = To(*m11, 21);
  ASSERT_NE(m21, nullptr);
  ExpectSameOutputs(**original, *m21, "11 -> 21");
  std::unique_ptr<ir::Model> back = To(*m21, 11);
  ASSERT_NE(back, nullptr);
  ExpectSameOutputs(**original, *back, "21 -> 11");
  EXPECT_EQ(back->OpsetVersion(""), 11);
}

INSTANTIATE_TEST_SUITE_P(Testdata, RoundTrip,
                         ::testing::Values("tiny_cnn.onnx", "transformer_block.onnx"));

}  // namespace
}  // namespace onnx_opt::converter
