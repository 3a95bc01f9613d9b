// Boxed<T>: reads of an unset box give a default T without making one; writes make it.
#include "ir/boxed.h"

#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "ir/attribute.h"

namespace onnx_opt::ir {
namespace {

TEST(BoxedTest, ReadingAnUnsetBoxMakesNothing) {
  const Boxed<std::string> box;
  EXPECT_FALSE(box.is_set());
  EXPECT_EQ(*box, "");
  EXPECT_TRUE(box->empty());
  const std::string& read = box;
  EXPECT_EQ(read, "");
  EXPECT_FALSE(box.is_set());
}

TEST(BoxedTest, WritingMakesTheValueAndMovingCarriesIt) {
  Boxed<std::string> box;
  box->append("ab");  // a non-const arrow writes
  EXPECT_TRUE(box.is_set());
  box = std::string("xyz");
  EXPECT_EQ(box.get(), "xyz");
  Boxed<std::string> moved = std::move(box);
  EXPECT_EQ(*moved, "xyz");
  EXPECT_EQ(moved.take(), "xyz");
  EXPECT_FALSE(moved.is_set());
  EXPECT_EQ(moved.take(), "");
}

TEST(BoxedTest, SetFieldMakesNoBoxForADefaultValue) {
  struct Pair {
    std::string a;
    std::string b;
  };
  Boxed<Pair> box;
  box.SetField(&Pair::a, std::string());
  EXPECT_FALSE(box.is_set());
  box.SetField(&Pair::b, std::string("x"));
  ASSERT_TRUE(box.is_set());
  EXPECT_EQ(box->b, "x");
  box.SetField(&Pair::b, std::string());  // once boxed, a default value is written like any other
  EXPECT_EQ(box->b, "");
  // The setters built on it: an empty doc string or denotation leaves a type, value or node
  // unboxed.
  Type t = Type::Tensor(DataType::kFloat);
  t.set_denotation("");
  EXPECT_EQ(t, Type::Tensor(DataType::kFloat));
  t.set_denotation("IMAGE");
  EXPECT_EQ(t.denotation(), "IMAGE");
}

TEST(BoxedTest, AnAttributeWithoutATensorHasNone) {
  const Attribute a = Attribute::Int("axis", 1);
  EXPECT_FALSE(a.t.is_set());
  EXPECT_FALSE(a.sparse_tensor.is_set());
  EXPECT_FALSE(a.tp.is_set());
  EXPECT_EQ(a.t->raw_size(), 0u);
  const Attribute b =
      Attribute::FromTensor("value", Tensor::FromVector<float>(DataType::kFloat, {2}, {1.f, 2.f}));
  EXPECT_TRUE(b.t.is_set());
  EXPECT_EQ(b.t->ToVector<float>(), (std::vector<float>{1.f, 2.f}));
  // Most of an Attribute used to be its never-set tensor, sparse tensor and type.
  EXPECT_LT(sizeof(Attribute), 400u);
}

}  // namespace
}  // namespace onnx_opt::ir
