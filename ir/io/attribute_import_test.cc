// Attributes are imported with the one value their type names. IR.md: "An attribute MUST have only
// one of the value-carrying properties"; ir::Attribute holds one, so a file that sets two (or one
// that does not match the type, or a value beside ref_attr_name) is refused, not silently cut down.
#include <string>

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/model.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

// A model with one LeakyRelu node whose attribute is `attribute` (AttributeProto text format).
std::string WithAttribute(const std::string& attribute) {
  onnx::ModelProto p;
  const std::string text =
      R"pb(
        ir_version: 10
        opset_import { version: 21 }
        graph { name: "g"
                node { input: "x" output: "y" name: "n" op_type: "LeakyRelu" attribute {)pb" +
      attribute + R"pb(}
                       }
      input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
      output { name: "y" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } } }
    })pb";
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &p)) << text;
  return p.SerializeAsString();
}

std::string LoadError(const std::string& bytes) {
  absl::StatusOr<std::unique_ptr<Model>> model = LoadModelFromString(bytes);
  return model.ok() ? "(loaded)" : std::string(model.status().message());
}

TEST(AttributeImport, TwoValuesAreRefused) {
  EXPECT_EQ(LoadError(WithAttribute(R"(name: "alpha" type: INT i: 3 f: 0.5)")),
            "'<memory>': graph 'g': node 'n' (LeakyRelu): attribute 'alpha' carries 2 values "
            "(fields f, i); "
            "an attribute holds exactly one");
  EXPECT_EQ(LoadError(WithAttribute(R"(name: "alpha" type: FLOATS floats: 1 ints: 2 ints: 3)")),
            "'<memory>': graph 'g': node 'n' (LeakyRelu): attribute 'alpha' carries 2 values "
            "(fields floats, "
            "ints); an attribute holds exactly one");
}

TEST(AttributeImport, TwoValuesWithoutATypeAreRefused) {
  // IR 1 files name no type; which of two values was meant cannot be known either.
  EXPECT_EQ(LoadError(WithAttribute(R"(name: "alpha" f: 0.5 s: "x")")),
            "'<memory>': graph 'g': node 'n' (LeakyRelu): attribute 'alpha' carries 2 values "
            "(fields f, s); "
            "an attribute holds exactly one");
}

TEST(AttributeImport, ValueInAFieldOtherThanTheTypeNamesIsRefused) {
  EXPECT_EQ(LoadError(WithAttribute(R"(name: "alpha" type: INT f: 0.5)")),
            "'<memory>': graph 'g': node 'n' (LeakyRelu): attribute 'alpha' has type int but its "
            "value is in "
            "field 'f'");
}

TEST(AttributeImport, ReferenceWithAValueIsRefused) {
  EXPECT_EQ(LoadError(WithAttribute(R"(name: "alpha" type: FLOAT ref_attr_name: "a" f: 0.5)")),
            "'<memory>': graph 'g': node 'n' (LeakyRelu): attribute 'alpha' refers to 'a' "
            "(ref_attr_name) but "
            "also carries a value (field f)");
}

TEST(AttributeImport, OneValueLoadsWithItsType) {
  absl::StatusOr<std::unique_ptr<Model>> typed =
      LoadModelFromString(WithAttribute(R"(name: "alpha" type: FLOAT f: 0.5)"));
  ASSERT_TRUE(typed.ok()) << typed.status();
  const Attribute* a = (*typed)->graph().first_node()->FindAttribute("alpha");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kind(), AttributeKind::kFloat);
  EXPECT_EQ(a->f, 0.5f);

  // IR 1 style: no type, one value: the type is the field's.
  absl::StatusOr<std::unique_ptr<Model>> untyped =
      LoadModelFromString(WithAttribute(R"(name: "alpha" f: 0.25)"));
  ASSERT_TRUE(untyped.ok()) << untyped.status();
  a = (*untyped)->graph().first_node()->FindAttribute("alpha");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kind(), AttributeKind::kFloat);
  EXPECT_EQ(a->f, 0.25f);
}

TEST(AttributeImport, TypeWithoutAValueLoads) {
  // A proto3 writer leaves out a default value (0, an empty list): the type alone is a valid
  // attribute.
  absl::StatusOr<std::unique_ptr<Model>> model =
      LoadModelFromString(WithAttribute(R"(name: "alpha" type: FLOAT)"));
  ASSERT_TRUE(model.ok()) << model.status();
  const Attribute* a = (*model)->graph().first_node()->FindAttribute("alpha");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kind(), AttributeKind::kFloat);
  EXPECT_EQ(a->f, 0.0f);
}

}  // namespace
}  // namespace onnx_opt::ir::io
