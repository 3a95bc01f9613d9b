#include "interpreter/data_value.h"

#include "gtest/gtest.h"
#include "ir/io/data_value.h"

namespace onnx_opt::interpreter {
namespace {

using ir::io::DataValue;

RuntimeValue FloatSequence() {
  return RuntimeValue::Sequence({Tensor::FromVector<float>(DataType::kFloat, {2}, {1.f, 2.f})},
                                DataType::kFloat);
}

// The evaluator gives an optional holding a sequence as the bare sequence; by the declared type it
// is written as an OptionalProto holding a SequenceProto (ONNX's test_identity_opt expects that).
TEST(DataValueTest, OptionalOutputIsWrittenAsAnOptionalHoldingTheValue) {
  const ir::Type type = ir::Type::Optional(ir::Type::Sequence(ir::Type::Tensor(DataType::kFloat)));
  absl::StatusOr<DataValue> v = ToDataValue(FloatSequence(), type);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->kind, DataValue::Kind::kOptional);
  EXPECT_EQ(v->elem_kind, DataValue::Kind::kSequence);
  ASSERT_EQ(v->elements.size(), 1u);
  EXPECT_EQ(v->elements[0].kind, DataValue::Kind::kSequence);
  EXPECT_EQ(v->elements[0].elem_kind, DataValue::Kind::kTensor);
  ASSERT_EQ(v->elements[0].elements.size(), 1u);

  // Read back as the declared type says, it is the same sequence.
  absl::StatusOr<std::string> bytes = ir::io::SerializeDataValue(*v);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<DataValue> parsed = ir::io::ParseDataValue(*bytes, DataValue::Kind::kOptional);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->elem_kind, DataValue::Kind::kSequence);
  absl::StatusOr<RuntimeValue> back = FromDataValue(*parsed);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_TRUE(back->is_sequence());
  ASSERT_EQ(back->sequence().size(), 1u);
  EXPECT_EQ(back->sequence()[0].ToVector<float>(), (std::vector<float>{1.f, 2.f}));
}

TEST(DataValueTest, EmptyOptionalKeepsItsDeclaredElementKind) {
  absl::StatusOr<DataValue> v =
      ToDataValue(RuntimeValue::None(), ir::Type::Optional(ir::Type::Tensor(DataType::kFloat)));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->kind, DataValue::Kind::kOptional);
  EXPECT_EQ(v->elem_kind, DataValue::Kind::kTensor);
  EXPECT_TRUE(v->elements.empty());
}

TEST(DataValueTest, NonOptionalTypesAreWrittenAsTheValue) {
  absl::StatusOr<DataValue> seq =
      ToDataValue(FloatSequence(), ir::Type::Sequence(ir::Type::Tensor(DataType::kFloat)));
  ASSERT_TRUE(seq.ok()) << seq.status();
  EXPECT_EQ(seq->kind, DataValue::Kind::kSequence);
  absl::StatusOr<DataValue> t = ToDataValue(Tensor::FromVector<float>(DataType::kFloat, {1}, {3.f}),
                                            ir::Type::Tensor(DataType::kFloat));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->kind, DataValue::Kind::kTensor);
}

}  // namespace
}  // namespace onnx_opt::interpreter
