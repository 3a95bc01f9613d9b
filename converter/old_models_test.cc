// Models as the old exporters wrote them, converted as onnx-convert converts (types inferred
// first): Caffe2's zoo CNNs (DenseNet-121, SqueezeNet, VGG-19, Inception-v1) are IR 3 at opset 9,
// list their weights as graph inputs before the data input, and end in a Dropout-7 whose mask
// output, typed as the data before opset 10, nothing reads. Each model goes to opset 21 and back
// down to 9; every stage passes the checker and computes, on the same data, what the original
// computes (the inputs bound by name, so the weights keep their initializers wherever they are
// listed).
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "converter/convert.h"
#include "converter/testing/test_util.h"
#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/value.h"
#include "schema/checker/checker.h"

namespace onnx_opt::converter::testing {
namespace {

// Conv on the data input listed after the weights, then `body` (a Dropout of c, its outputs and
// what reads them).
std::string Caffe2StyleModel(const std::string& outputs, const std::string& value_info,
                             const std::string& body) {
  return R"(<ir_version: 3, opset_import: ["" : 9], producer_name: "hand-made">
    g (float[2,1,3,3] conv_w = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
                                -0.1, -0.2, -0.3, -0.4, -0.5, -0.6, -0.7, -0.8, -0.9},
       float[2] conv_b = {0.5, -0.5},
       float[1,1,4,4] data_0)
      => ()" +
         outputs + ")\n    " + value_info + R"(
    {
      c = Conv<kernel_shape = [3, 3], pads = [1, 1, 1, 1]>(data_0, conv_w, conv_b)
)" + body +
         "\n    }";
}

// The mask unused; typed float in value_info, as IR 3 exporters typed every value (and as inference
// types it).
std::string MaskUnused() {
  return Caffe2StyleModel("float[1,2,4,4] y", "<float[1,2,4,4] mask>",
                          "      y, mask = Dropout<ratio = 0.5>(c)");
}
// The mask read by a Mul.
std::string MaskUsed() {
  return Caffe2StyleModel("float[1,2,4,4] y", "",
                          "      d, mask = Dropout<ratio = 0.5>(c)\n      y = Mul(d, mask)");
}
// The mask read and a graph output too.
std::string MaskIsAnOutput() {
  return Caffe2StyleModel("float[1,2,4,4] y, float[1,2,4,4] mask", "",
                          "      d, mask = Dropout<ratio = 0.5>(c)\n      y = Mul(d, mask)");
}

absl::StatusOr<std::unique_ptr<ir::Model>> Convert(const ir::Model& m, int64_t opset) {
  ConvertOptions options;
  options.onnx_opset = opset;  // infer_types on, as in onnx-convert
  ConvertReport report;
  absl::StatusOr<std::unique_ptr<ir::Model>> r = ConvertModel(m, options, &report);
  if (r.ok()) {
    EXPECT_TRUE(report.warnings.empty()) << absl::StrJoin(report.warnings, "\n");
  }
  return r;
}

std::vector<interpreter::RuntimeValue> Run(const ir::Model& m, const interpreter::Tensor& data) {
  interpreter::Evaluator ev(m);
  absl::flat_hash_map<std::string, interpreter::RuntimeValue> inputs;
  inputs.emplace("data_0", data);
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> r = ev.RunByName(inputs);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << Print(m);
  return r.ok() ? *std::move(r) : std::vector<interpreter::RuntimeValue>();
}

void ExpectValidAndEqual(const ir::Model& original, const ir::Model& m, const std::string& stage) {
  SCOPED_TRACE(stage);
  const schema::checker::CheckResult check = schema::checker::Check(m);
  EXPECT_TRUE(check.ok()) << absl::StrJoin(check.errors, "\n") << "\n" << Print(m);
  std::vector<float> values(16);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.25f * static_cast<float>(i) - 2.0f;
  const interpreter::Tensor data =
      interpreter::Tensor::FromVector<float>(ir::DataType::kFloat, {1, 1, 4, 4}, values);
  const std::vector<interpreter::RuntimeValue> want = Run(original, data);
  const std::vector<interpreter::RuntimeValue> got = Run(m, data);
  std::vector<std::string> names;
  for (const ir::Value* v : original.graph().outputs()) names.push_back(v->name());
  ASSERT_EQ(want.size(), names.size());
  ASSERT_EQ(got.size(), names.size());
  for (const equivalence::OutputDifference& d : equivalence::CompareOutputs(names, want, got, {})) {
    EXPECT_TRUE(d.equal) << d.output << ": " << d.detail << "\n" << Print(m);
  }
}

// The number of nodes of an op type in the main graph.
int Count(const ir::Model& m, const std::string& op) {
  int n = 0;
  for (const ir::Node* node : m.graph().nodes()) n += node->op_type() == op;
  return n;
}

const ir::Node* FindOp(const ir::Model& m, const std::string& op) {
  for (const ir::Node* node : m.graph().nodes()) {
    if (node->op_type() == op) return node;
  }
  return nullptr;
}

TEST(OldModels, Caffe2DropoutWithAnUnusedMaskConvertsTo21AndBack) {
  std::unique_ptr<ir::Model> m = ParseText(MaskUnused());
  ASSERT_NE(m, nullptr);
  ExpectValidAndEqual(*m, *m, "original");
  absl::StatusOr<std::unique_ptr<ir::Model>> up = Convert(*m, 21);
  ASSERT_TRUE(up.ok()) << up.status();
  ExpectValidAndEqual(*m, **up, "at 21");
  // Nothing reads the mask: no Cast, and its declared type follows the new version's (bool).
  EXPECT_EQ(Count(**up, "Cast"), 0) << Print(**up);
  const ir::Node* dropout = FindOp(**up, "Dropout");
  ASSERT_NE(dropout, nullptr);
  ASSERT_EQ(dropout->num_outputs(), 2u);
  EXPECT_EQ(dropout->output(1)->type().ToString(), "tensor(bool)[1,2,4,4]");
  // The data input still follows the weights it was listed after.
  EXPECT_EQ((*up)->graph().inputs().back()->name(), "data_0");

  absl::StatusOr<std::unique_ptr<ir::Model>> down = Convert(**up, 9);
  ASSERT_TRUE(down.ok()) << down.status() << "\n" << Print(**up);
  ExpectValidAndEqual(*m, **down, "back at 9");
  EXPECT_EQ(Count(**down, "Cast"), 0) << Print(**down);
  dropout = FindOp(**down, "Dropout");
  ASSERT_NE(dropout, nullptr);
  EXPECT_EQ(dropout->output(1)->type().ToString(), "tensor(float)[1,2,4,4]");
}

TEST(OldModels, Caffe2DropoutWithAUsedMaskGetsACast) {
  for (const std::string& text : {MaskUsed(), MaskIsAnOutput()}) {
    SCOPED_TRACE(text);
    std::unique_ptr<ir::Model> m = ParseText(text);
    ASSERT_NE(m, nullptr);
    ExpectValidAndEqual(*m, *m, "original");
    absl::StatusOr<std::unique_ptr<ir::Model>> up = Convert(*m, 21);
    ASSERT_TRUE(up.ok()) << up.status();
    ExpectValidAndEqual(*m, **up, "at 21");
    // The bool mask is cast back to float for its readers.
    ASSERT_EQ(Count(**up, "Cast"), 1) << Print(**up);
    const ir::Node* cast = FindOp(**up, "Cast");
    EXPECT_EQ(cast->input(0), FindOp(**up, "Dropout")->output(1));
    EXPECT_EQ(cast->FindAttribute("to")->i, static_cast<int64_t>(ir::DataType::kFloat));

    absl::StatusOr<std::unique_ptr<ir::Model>> down = Convert(**up, 9);
    ASSERT_TRUE(down.ok()) << down.status() << "\n" << Print(**up);
    ExpectValidAndEqual(*m, **down, "back at 9");
  }
}

// Without inferred types (the library's other mode) the declared mask type is what changes.
TEST(OldModels, DeclaredMaskTypeChangesWithoutInference) {
  std::unique_ptr<ir::Model> m = ParseText(MaskUnused());
  ASSERT_NE(m, nullptr);
  absl::StatusOr<std::unique_ptr<ir::Model>> up = ConvertTo(*m, 21, /*infer=*/false);
  ASSERT_TRUE(up.ok()) << up.status();
  ExpectValidAndEqual(*m, **up, "at 21");
  EXPECT_EQ(FindOp(**up, "Dropout")->output(1)->type().ToString(), "tensor(bool)[1,2,4,4]");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
