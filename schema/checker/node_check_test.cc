// The options the version converter uses (checker_test covers the checker's defaults): types from
// elsewhere than the values, and output types implied by attributes.
#include "schema/checker/node_check.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "ir/model.h"
#include "ir/text/parser.h"
#include "schema/checker/type_spec.h"
#include "schema/op_registry.h"

namespace onnx_opt::schema::checker {
namespace {

std::unique_ptr<ir::Model> Parse(const char* text) {
  absl::StatusOr<std::unique_ptr<ir::Model>> m = ir::text::ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? std::move(*m) : nullptr;
}

std::vector<std::string> Check(const ir::Node& node, std::string_view op, int64_t opset,
                               const NodeCheckOptions& options) {
  absl::StatusOr<const OpSchema*> schema = FindInForce("", op, opset);
  EXPECT_TRUE(schema.ok()) << schema.status();
  std::vector<std::string> problems;
  if (schema.ok()) CheckNodeAgainstSchema(node, **schema, options, &problems);
  return problems;
}

TEST(NodeCheck, TypesCanComeFromElsewhere) {
  auto m = Parse(R"(<ir_version: 3, opset_import: ["" : 6]> g (float[2] x) => (y) { y = Abs(x) })");
  ASSERT_NE(m, nullptr);
  const ir::Node& abs = *m->graph().first_node();
  EXPECT_TRUE(Check(abs, "Abs", 6, {}).empty());
  const ir::Type bf16 = ir::Type::Tensor(ir::DataType::kBfloat16);
  NodeCheckOptions options;
  options.type_of = [&](const ir::Value* v) -> const ir::Type& {
    return v == abs.input(0) ? bf16 : v->type();
  };
  std::vector<std::string> problems = Check(abs, "Abs", 6, options);
  ASSERT_EQ(problems.size(), 1u) << absl::StrJoin(problems, "\n");
  EXPECT_EQ(problems[0].substr(0, problems[0].find(" (allowed")),
            "input 0 'X' (value 'x') has type tensor(bfloat16), which type constraint T of "
            "ai.onnx::Abs-6 "
            "does not allow");
  options.check_types = false;
  EXPECT_TRUE(Check(abs, "Abs", 6, options).empty());
}

TEST(NodeCheck, OutputTypesImpliedByAttributes) {
  // Cast-6 has no bfloat16; the untyped output gets its type from `to` only when asked.
  auto m = Parse(
      R"(<ir_version: 3, opset_import: ["" : 6]> g (float[2] x) => (y) { y = Cast<to = 16>(x) })");
  ASSERT_NE(m, nullptr);
  const ir::Node& cast = *m->graph().first_node();
  EXPECT_TRUE(Check(cast, "Cast", 6, {}).empty());
  NodeCheckOptions options;
  options.implied_output_types = true;
  std::vector<std::string> problems = Check(cast, "Cast", 6, options);
  ASSERT_EQ(problems.size(), 1u) << absl::StrJoin(problems, "\n");
  EXPECT_NE(
      problems[0].find(
          "output 0 'output' (value 'y') has type tensor(bfloat16), which type constraint T2"),
      std::string::npos)
      << problems[0];
  // A declared type wins over the implied one.
  auto typed = Parse(
      R"(<ir_version: 3, opset_import: ["" : 6]> g (float[2] x) => (int32[2] y) { y = Cast<to = 16>(x) })");
  ASSERT_NE(typed, nullptr);
  EXPECT_TRUE(Check(*typed->graph().first_node(), "Cast", 6, options).empty());
}

TEST(NodeCheck, BindingsAcrossInputsUseTheGivenTypes) {
  auto m = Parse(
      R"(<ir_version: 7, opset_import: ["" : 13]> g (float[2] a, float[2] b) => (y) { y = Add(a, b) })");
  ASSERT_NE(m, nullptr);
  const ir::Node& add = *m->graph().first_node();
  const ir::Type f64 = ir::Type::Tensor(ir::DataType::kDouble);
  NodeCheckOptions options;
  options.type_of = [&](const ir::Value* v) -> const ir::Type& {
    return v == add.input(1) ? f64 : v->type();
  };
  std::vector<std::string> problems = Check(add, "Add", 13, options);
  ASSERT_EQ(problems.size(), 1u) << absl::StrJoin(problems, "\n");
  EXPECT_EQ(problems[0],
            "input 1 'B' (value 'b') has type tensor(double) but T is already bound to "
            "tensor(float) by input 0 'A' "
            "(value 'a')");
}

// The one-bit test of a tensor's element type must say what matching the constraint's strings says,
// for every constraint of every schema and every element type.
TEST(NodeCheck, TensorBitsAgreeWithTheTypeStrings) {
  size_t constraints = 0;
  for (const OpSchema* schema : AllSchemas()) {
    for (const TypeConstraintSpec& tc : schema->type_constraints()) {
      ++constraints;
      for (int32_t d = 1; d <= ir::kMaxKnownDataType; ++d) {
        const ir::Type t = ir::Type::Tensor(static_cast<ir::DataType>(d));
        bool by_strings = false;
        for (std::string_view a : tc.allowed) {
          const TypeSpec* spec = ParseTypeSpec(a);
          by_strings |= spec != nullptr && Matches(*spec, t);
        }
        EXPECT_EQ(tc.AllowsTensorOf(t.elem_type()), by_strings)
            << schema->DebugName() << " " << tc.param << " " << ir::DataTypeName(t.elem_type());
      }
    }
    for (const auto* params : {&schema->inputs(), &schema->outputs()}) {
      for (const FormalParameter& f : *params) {
        if (schema->FindTypeConstraint(f.type_str) != nullptr) {
          EXPECT_EQ(f.tensor_elem_type, ir::DataType::kUndefined)
              << schema->DebugName() << " " << f.name;
          continue;
        }
        const TypeSpec* spec = ParseTypeSpec(f.type_str);
        ASSERT_NE(spec, nullptr) << schema->DebugName() << " " << f.type_str;
        const bool plain_tensor =
            spec->kind == TypeSpec::Kind::kTensor && f.type_str.rfind("tensor(", 0) == 0;
        EXPECT_EQ(f.tensor_elem_type, plain_tensor ? spec->elem : ir::DataType::kUndefined)
            << schema->DebugName() << " " << f.name << " " << f.type_str;
      }
    }
  }
  EXPECT_GT(constraints, 500u);  // all of them (921 today), not a few
}

}  // namespace
}  // namespace onnx_opt::schema::checker
