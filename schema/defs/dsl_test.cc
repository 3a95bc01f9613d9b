#include "schema/defs/dsl.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::defs {
namespace {

// Builds one schema with `define` and returns it.
template <typename F>
OpSchema Build(F define) {
  std::vector<OpSchema> out;
  SchemaSink s("", out);
  define(s);
  EXPECT_EQ(out.size(), 1u);
  return out.front();
}

TEST(DslTest, ParametersAndArity) {
  OpSchema op = Build([](SchemaSink& s) {
    s.Op("Test", 3)
        .Input("A", "T", kDiff)
        .Input("B", "T", kOptional)
        .Input("C", "tensor(int64)", kNonDiff)
        .Input("D", "T", kOptional)
        .Input("rest", "V", kVariadic | kHeterogeneous, 0)
        .Output("Y", "T", kOptional)
        .Output("Z", "T")
        .TypeConstraint("T", {"tensor(float)"})
        .TypeConstraint("V", {"tensor(float)", "tensor(int64)"});
  });
  EXPECT_EQ(op.domain(), "ai.onnx");
  EXPECT_EQ(op.since_version(), 3);
  ASSERT_EQ(op.inputs().size(), 5u);
  EXPECT_EQ(op.inputs()[0].differentiability, Differentiability::kDifferentiable);
  EXPECT_EQ(op.inputs()[1].option, ParamOption::kOptional);
  EXPECT_EQ(op.inputs()[1].differentiability, Differentiability::kUnknown);
  EXPECT_EQ(op.inputs()[2].differentiability, Differentiability::kNonDifferentiable);
  EXPECT_EQ(op.inputs()[4].option, ParamOption::kVariadic);
  EXPECT_FALSE(op.inputs()[4].homogeneous);
  EXPECT_EQ(op.inputs()[4].min_arity, 0);
  EXPECT_TRUE(op.inputs()[0].homogeneous);
  // As in ONNX, a parameter after optional ones makes them positionally required: C makes B
  // count, the variadic (min arity 0) makes D count.
  EXPECT_EQ(op.min_input(), 4);
  EXPECT_EQ(op.max_input(), kUnbounded);
  EXPECT_EQ(op.min_output(), 2);
  EXPECT_EQ(op.max_output(), 2);
}

TEST(DslTest, TensorElementTypesReadOffTheTypeStrings) {
  OpSchema op = Build([](SchemaSink& s) {
    s.Op("Test", 1)
        .Input("X", "T")
        .Input("shape", "tensor(int64)")
        .Input("S", "S")
        .Output("Y", "seq(tensor(float))")
        .TypeConstraint("T", {"tensor(float)", "tensor(bfloat16)", "seq(tensor(double))"})
        .TypeConstraint(
            "S", {"seq(tensor(int8))", "map(int64, tensor(float))", "optional(tensor(bool))"});
  });
  EXPECT_EQ(op.inputs()[0].tensor_elem_type, ir::DataType::kUndefined);  // a constraint, not a type
  EXPECT_EQ(op.inputs()[1].tensor_elem_type, ir::DataType::kInt64);
  EXPECT_EQ(op.outputs()[0].tensor_elem_type, ir::DataType::kUndefined);
  const TypeConstraintSpec& t = op.type_constraints()[0];
  EXPECT_TRUE(t.AllowsTensorOf(ir::DataType::kFloat));
  EXPECT_TRUE(t.AllowsTensorOf(ir::DataType::kBfloat16));
  EXPECT_FALSE(t.AllowsTensorOf(ir::DataType::kDouble));  // only inside a sequence
  EXPECT_FALSE(t.AllowsTensorOf(ir::DataType::kUndefined));
  EXPECT_FALSE(t.AllowsTensorOf(static_cast<ir::DataType>(200)));
  EXPECT_EQ(op.type_constraints()[1].tensor_elem_types, 0u);  // no plain tensor at all
}

TEST(DslTest, AttributesSortedWithDefaults) {
  OpSchema op = Build([](SchemaSink& s) {
    s.Op("Test", 1)
        .Attr("mode", kString, "nearest")
        .Attr("alpha", kFloat, 0.5f)
        .Attr("beta", kFloat, 1)  // an integer literal for a float attribute
        .Attr("axes", kInts, {0, 2, 3})
        .Attr("names", kStrings, {"Tanh", "Sigmoid"})
        .Attr("scales", kFloats, std::vector<float>{1.5f})
        .Attr("to", kInt, kRequired)
        .Attr("pads", kInts)
        .Attr("axis", kInt, -1);
  });
  std::vector<std::string> names;
  for (const AttributeSpec& a : op.attributes()) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "axes", "axis", "beta", "mode", "names",
                                             "pads", "scales", "to"}));
  EXPECT_EQ(std::get<float>(op.FindAttribute("alpha")->default_value), 0.5f);
  EXPECT_EQ(std::get<float>(op.FindAttribute("beta")->default_value), 1.0f);
  EXPECT_EQ(std::get<int64_t>(op.FindAttribute("axis")->default_value), -1);
  EXPECT_EQ(std::get<std::string>(op.FindAttribute("mode")->default_value), "nearest");
  EXPECT_EQ(std::get<std::vector<int64_t>>(op.FindAttribute("axes")->default_value),
            (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(std::get<std::vector<std::string>>(op.FindAttribute("names")->default_value),
            (std::vector<std::string>{"Tanh", "Sigmoid"}));
  EXPECT_EQ(std::get<std::vector<float>>(op.FindAttribute("scales")->default_value),
            (std::vector<float>{1.5f}));
  EXPECT_TRUE(op.FindAttribute("to")->required);
  EXPECT_FALSE(op.FindAttribute("to")->has_default());
  EXPECT_FALSE(op.FindAttribute("pads")->required);
  EXPECT_FALSE(op.FindAttribute("pads")->has_default());
  EXPECT_EQ(op.FindAttribute("nope"), nullptr);
}

TEST(DslTest, JoinAndFlags) {
  static constexpr std::string_view kPair[] = {"tensor(float)", "tensor(double)"};
  OpSchema op = Build([](SchemaSink& s) {
    s.Op("Test", 1).Deprecated().HasFunctionBody().TypeConstraint(
        "T", Join("tensor(int8)", kPair, "tensor(bool)"));
  });
  EXPECT_TRUE(op.deprecated());
  EXPECT_TRUE(op.has_function_body());
  ASSERT_NE(op.FindTypeConstraint("T"), nullptr);
  EXPECT_EQ(op.FindTypeConstraint("T")->allowed,
            (std::vector<std::string_view>{"tensor(int8)", "tensor(float)", "tensor(double)",
                                           "tensor(bool)"}));
}

using DslDeathTest = ::testing::Test;

TEST(DslDeathTest, TableMistakesAbort) {
  std::vector<OpSchema> out;
  SchemaSink s("ai.onnx.ml", out);
  EXPECT_DEATH(s.Op("Bad", 1).Attr("a", kInt).Attr("a", kFloat),
               "ai.onnx.ml::Bad-1: attribute 'a' is declared twice");
  EXPECT_DEATH(s.Op("Bad", 1).Attr("a", kInt, "text"), "default of attribute 'a' does not fit");
  EXPECT_DEATH(s.Op("Bad", 1).Attr("a", kTensor, 0), "does not fit type TENSOR");
  EXPECT_DEATH(s.Op("Bad", 1).Input("x", "T", kVariadic).Input("y", "T"),
               "parameter 'y' follows a variadic parameter");
  EXPECT_DEATH(s.Op("Bad", 1).Input("x", "T", kOptional | kVariadic), "optional and variadic");
  EXPECT_DEATH(s.Op("Bad", 1).Input("x", "T", kDiff | kNonDiff), "differentiable and not");
  EXPECT_DEATH(s.Op("Bad", 1).Input("x", "T", kHeterogeneous), "heterogeneous but not variadic");
  EXPECT_DEATH(s.Op("Bad", 1).TypeConstraint("T", {"tensor(float)", "tensor(float)"}),
               "lists tensor\\(float\\) twice");
  EXPECT_DEATH(
      s.Op("Bad", 1).TypeConstraint("T", {"tensor(float)"}).TypeConstraint("T", {"tensor(int8)"}),
      "type constraint 'T' is declared twice");
}

}  // namespace
}  // namespace onnx_opt::schema::defs
