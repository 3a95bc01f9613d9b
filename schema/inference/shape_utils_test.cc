#include "schema/inference/shape_utils.h"

#include "gtest/gtest.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::DataType;
using ir::Type;

Dim K(int64_t v) { return Dim::Known(v); }
Dim S(const char* s) { return Dim::Symbolic(s); }
Dim U() { return Dim::Unknown(); }

TEST(DimArithmeticTest, KnownValuesCompute) {
  EXPECT_EQ(DimAdd(K(2), K(3)), K(5));
  EXPECT_EQ(DimSub(K(5), K(3)), K(2));
  EXPECT_EQ(DimMul(K(4), K(3)), K(12));
  EXPECT_EQ(DimFloorDiv(K(7), K(2)), K(3));
  EXPECT_EQ(DimCeilDiv(K(7), K(2)), K(4));
}

TEST(DimArithmeticTest, SymbolsSurviveOnlyIdentities) {
  EXPECT_EQ(DimMul(S("N"), K(1)), S("N"));
  EXPECT_EQ(DimAdd(K(0), S("N")), S("N"));
  EXPECT_EQ(DimSub(S("N"), S("N")), K(0));
  EXPECT_EQ(DimFloorDiv(S("N"), K(1)), S("N"));
  // N*2 is not guessed.
  EXPECT_EQ(DimMul(S("N"), K(2)), U());
  EXPECT_EQ(DimAdd(S("N"), K(1)), U());
  EXPECT_EQ(DimMul(S("N"), S("M")), U());
  EXPECT_EQ(DimMul(S("N"), K(0)), K(0));
}

TEST(DimArithmeticTest, NegativeOrOverflowIsUnknown) {
  EXPECT_EQ(DimSub(K(2), K(3)), U());
  EXPECT_EQ(DimMul(K(int64_t{1} << 40), K(int64_t{1} << 40)), U());
}

TEST(DimProductTest, SymbolTimesOnes) {
  EXPECT_EQ(DimProduct({S("N"), K(1), K(1)}), S("N"));
  EXPECT_EQ(DimProduct({K(2), K(3)}), K(6));
  EXPECT_EQ(DimProduct({S("N"), K(3)}), U());
  EXPECT_EQ(DimProduct({}), K(1));
}

TEST(DivideProductsTest, CancelsSymbols) {
  // [N, 12] reshaped to [N, 3, -1]: -1 = 4.
  EXPECT_EQ(DivideProducts(ProductOf({S("N"), K(12)}), ProductOf({S("N"), K(3)})), K(4));
  // [N, 4, 3] reshaped to [-1, 12]: -1 = N.
  EXPECT_EQ(DivideProducts(ProductOf({S("N"), K(4), K(3)}), ProductOf({K(12)})), S("N"));
  // [N, M] reshaped to [-1]: N*M is not a single symbol.
  EXPECT_EQ(DivideProducts(ProductOf({S("N"), S("M")}), ProductOf({})), U());
  EXPECT_EQ(DivideProducts(ProductOf({K(10)}), ProductOf({K(3)})), U());
  EXPECT_EQ(DivideProducts(ProductOf({U(), K(4)}), ProductOf({K(2)})), U());
  EXPECT_EQ(DivideProducts(ProductOf({K(6)}), ProductOf({S("N")})), U());
}

TEST(BroadcastTest, NumpyRules) {
  auto b = BroadcastShapes(Shape({K(3), K(1)}), Shape({K(4)}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, Shape({K(3), K(4)}));
  b = BroadcastShapes(Shape({S("N"), K(1)}), Shape({K(1), S("M")}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, Shape({S("N"), S("M")}));
  // A known dim > 1 wins over an unknown one (the other must be 1 or equal).
  b = BroadcastShapes(Shape({U()}), Shape({K(5)}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, Shape({K(5)}));
  // Two different symbols, or a symbol and an unknown: not known.
  b = BroadcastShapes(Shape({S("N")}), Shape({S("M")}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, Shape({U()}));
  b = BroadcastShapes(Shape({S("N")}), Shape({S("N")}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, Shape({S("N")}));
  EXPECT_FALSE(BroadcastShapes(Shape({K(3)}), Shape({K(4)})).ok());
  b = BroadcastShapes(Shape(), Shape({K(2), K(3)}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, Shape({K(2), K(3)}));
}

TEST(MergeTypesTest, KeepsTheMostSpecificFacts) {
  std::string conflict;
  Type declared = Type::Tensor(DataType::kFloat, Shape({S("N"), U()}));
  Type inferred = Type::Tensor(DataType::kFloat, Shape({K(2), K(3)}));
  EXPECT_EQ(MergeTypes(declared, inferred, &conflict),
            Type::Tensor(DataType::kFloat, Shape({K(2), K(3)})));
  EXPECT_TRUE(conflict.empty());
  EXPECT_EQ(MergeTypes(Type::Tensor(DataType::kUndefined, Shape({K(2)})),
                       Type::Tensor(DataType::kInt64), &conflict),
            Type::Tensor(DataType::kInt64, Shape({K(2)})));
  EXPECT_EQ(MergeTypes(Type(), inferred, &conflict), inferred);
  EXPECT_EQ(MergeTypes(declared, Type(), &conflict), declared);
  EXPECT_TRUE(conflict.empty());
}

TEST(MergeTypesTest, ReportsContradictionsAndKeepsTheDeclaration) {
  std::string conflict;
  Type declared = Type::Tensor(DataType::kFloat, Shape({K(2)}));
  EXPECT_EQ(MergeTypes(declared, Type::Tensor(DataType::kInt64), &conflict), declared);
  EXPECT_NE(conflict.find("element types differ"), std::string::npos) << conflict;
  conflict.clear();
  MergeTypes(declared, Type::Tensor(DataType::kFloat, Shape({K(3)})), &conflict);
  EXPECT_NE(conflict.find("dimension 0 differs"), std::string::npos) << conflict;
  conflict.clear();
  MergeTypes(declared, Type::Tensor(DataType::kFloat, Shape({K(2), K(1)})), &conflict);
  EXPECT_NE(conflict.find("ranks differ"), std::string::npos) << conflict;
  conflict.clear();
  MergeTypes(Type::Sequence(declared), declared, &conflict);
  EXPECT_NE(conflict.find("different kinds"), std::string::npos) << conflict;
}

TEST(MergeTypesTest, Sequences) {
  std::string conflict;
  Type merged =
      MergeTypes(Type::Sequence(Type::Tensor(DataType::kFloat)),
                 Type::Sequence(Type::Tensor(DataType::kFloat, Shape({K(3)}))), &conflict);
  EXPECT_EQ(merged, Type::Sequence(Type::Tensor(DataType::kFloat, Shape({K(3)}))));
  EXPECT_TRUE(conflict.empty());
}

TEST(UnionTypesTest, DimsThatDifferBecomeUnknown) {
  EXPECT_EQ(UnionTypes(Type::Tensor(DataType::kFloat, Shape({K(2), S("N")})),
                       Type::Tensor(DataType::kFloat, Shape({K(3), S("N")}))),
            Type::Tensor(DataType::kFloat, Shape({U(), S("N")})));
  EXPECT_EQ(UnionTypes(Type::Tensor(DataType::kFloat, Shape({K(2)})),
                       Type::Tensor(DataType::kFloat, Shape({K(2), K(2)}))),
            Type::Tensor(DataType::kFloat));
  EXPECT_TRUE(UnionTypes(Type::Tensor(DataType::kFloat), Type::Tensor(DataType::kInt64)).is_none());
}

TEST(ParseTypeStringTest, SchemaSpellings) {
  EXPECT_EQ(ParseTypeString("tensor(float16)"), Type::Tensor(DataType::kFloat16));
  EXPECT_EQ(ParseTypeString("seq(tensor(int64))"), Type::Sequence(Type::Tensor(DataType::kInt64)));
  EXPECT_EQ(ParseTypeString("optional(seq(tensor(bool)))"),
            Type::Optional(Type::Sequence(Type::Tensor(DataType::kBool))));
  EXPECT_EQ(ParseTypeString("map(string, tensor(float))"),
            Type::Map(DataType::kString, Type::Tensor(DataType::kFloat)));
  EXPECT_EQ(ParseTypeString("sparse_tensor(float8e4m3fn)"),
            Type::SparseTensor(DataType::kFloat8E4M3FN));
  EXPECT_EQ(ParseTypeString("T"), std::nullopt);
  EXPECT_EQ(ParseTypeString("tensor(nonsense)"), std::nullopt);
}

TEST(TensorValuesTest, ReadsIntegers) {
  auto t = ir::Tensor::FromVector<int32_t>(DataType::kInt32, {3}, {1, -2, 3});
  EXPECT_EQ(TensorToInts(t), (std::vector<int64_t>{1, -2, 3}));
  auto f = ir::Tensor::FromVector<float>(DataType::kFloat, {2}, {0.5f, 2.0f});
  EXPECT_EQ(TensorToInts(f), std::nullopt);
  // Missing data (e.g. external data not loaded) is not a value.
  ir::Tensor empty(DataType::kInt64, {2});
  EXPECT_EQ(TensorToInts(empty), std::nullopt);
}

}  // namespace
}  // namespace onnx_opt::schema::inference
