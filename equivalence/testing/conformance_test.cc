#include "equivalence/testing/conformance.h"

#include <cstdlib>
#include <fstream>

#include "gtest/gtest.h"
#include "interpreter/tensor.h"

namespace onnx_opt::conformance {
namespace {

using interpreter::DataType;
using interpreter::RuntimeValue;
using interpreter::Tensor;
using ir::io::DataValue;

DataValue FileTensor(const Tensor& t) { return DataValue::FromTensor(t.ToIr()); }

// Every part of every complex element is compared: a difference in the last imaginary part fails.
TEST(CompareOutputTest, ComplexComparesEveryPart) {
  const Tensor want = Tensor::FromVector<float>(DataType::kFloat, {4}, {1, 2, 3, 4})
                          .ReusedAs(DataType::kComplex64, {2});
  Tensor got = want.Clone();
  const ir::Type type = ir::Type::Tensor(DataType::kComplex64);
  EXPECT_EQ(CompareOutput(got, type, FileTensor(want)), "");
  got.mutable_data<float>()[3] = 4.5f;
  EXPECT_NE(CompareOutput(got, type, FileTensor(want)), "");
}

TEST(CompareOutputTest, FloatTolerance) {
  const ir::Type type = ir::Type::Tensor(DataType::kFloat);
  const Tensor want = Tensor::FromVector<float>(DataType::kFloat, {1}, {1000.f});
  EXPECT_EQ(CompareOutput(Tensor::FromVector<float>(DataType::kFloat, {1}, {1000.5f}), type,
                          FileTensor(want)),
            "");
  EXPECT_NE(CompareOutput(Tensor::FromVector<float>(DataType::kFloat, {1}, {1001.5f}), type,
                          FileTensor(want)),
            "");
}

// An optional output holding a sequence must be written as one: a bare sequence or an optional
// holding a tensor does not match.
TEST(CompareOutputTest, ValueKindsAreCompared) {
  const Tensor t = Tensor::FromVector<float>(DataType::kFloat, {2}, {1, 2});
  const RuntimeValue seq = RuntimeValue::Sequence({t}, DataType::kFloat);
  DataValue want_seq;
  want_seq.kind = DataValue::Kind::kSequence;
  want_seq.elem_kind = DataValue::Kind::kTensor;
  want_seq.elements.push_back(FileTensor(t));
  DataValue want_opt;
  want_opt.kind = DataValue::Kind::kOptional;
  want_opt.elem_kind = DataValue::Kind::kSequence;
  want_opt.elements.push_back(want_seq);
  EXPECT_EQ(KindString(want_opt), "optional(sequence(tensor))");

  const ir::Type opt_seq =
      ir::Type::Optional(ir::Type::Sequence(ir::Type::Tensor(DataType::kFloat)));
  EXPECT_EQ(CompareOutput(seq, opt_seq, want_opt), "");
  // The graph says optional, the expected file holds a bare sequence (or the other way round).
  EXPECT_NE(CompareOutput(seq, opt_seq, want_seq), "");
  EXPECT_NE(CompareOutput(seq, ir::Type::Sequence(ir::Type::Tensor(DataType::kFloat)), want_opt),
            "");
  // A tensor where an optional holding a sequence is expected.
  EXPECT_NE(CompareOutput(t, ir::Type::Optional(ir::Type::Tensor(DataType::kFloat)), want_opt), "");
}

CaseList List(std::map<std::string, std::string> reasons) {
  return CaseList{"list.txt", "", std::move(reasons)};
}

TEST(CaseListTest, UnlistedFailureAndListedPassAndStaleEntryAreProblems) {
  const CaseList list = List({{"test_a", "known"}, {"test_b", "known"}, {"test_gone", "known"}});
  // test_a fails as listed; test_b passes although listed; test_c fails unlisted; test_gone never
  // ran.
  const std::set<std::string> ran = {"test_a", "test_b", "test_c"};
  const std::map<std::string, std::string> failures = {{"test_a", "x"}, {"test_c", "y"}};
  EXPECT_EQ(CheckCaseList(list, failures, ran, /*complete=*/true).size(), 3u);
  // Filtered: a listed case that did not run is not judged.
  EXPECT_EQ(CheckCaseList(list, failures, ran, /*complete=*/false).size(), 2u);
  EXPECT_TRUE(
      CheckCaseList(List({{"test_a", "known"}}), {{"test_a", "x"}}, {"test_a"}, true).empty());
}

TEST(CaseListTest, MultiWordKeysMatchByCaseName) {
  const CaseList list = List({{"test_a lowest:7", "r"}});
  // The case now stops at opset 9: a new key, and the listed one did not happen.
  EXPECT_EQ(CheckCaseList(list, {{"test_a lowest:9", "refused"}}, {"test_a"}, true).size(), 2u);
  EXPECT_TRUE(CheckCaseList(list, {{"test_a lowest:7", "refused"}}, {"test_a"}, true).empty());
}

TEST(CaseListTest, ReadsKeysReasonsAndRejectsBadLines) {
  const std::string dir = std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR") : "/tmp";
  const std::string path = dir + "/list.txt";
  std::ofstream(path) << "# header\n\ntest_a up  some reason\ntest_b to21 other\n";
  absl::StatusOr<CaseList> list = ReadCaseList(path, 2);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->header, "# header\n\n");
  EXPECT_EQ(list->reasons.at("test_a up"), "some reason");
  EXPECT_EQ(list->reasons.at("test_b to21"), "other");
  std::ofstream(path) << "test_a up\n";
  EXPECT_FALSE(ReadCaseList(path, 2).ok());  // no reason
  std::ofstream(path) << "test_a r\ntest_a r\n";
  EXPECT_FALSE(ReadCaseList(path, 1).ok());  // listed twice
  EXPECT_FALSE(ReadCaseList(dir + "/missing.txt", 1).ok());
}

}  // namespace
}  // namespace onnx_opt::conformance
