#include "schema/shape_fold.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/attribute.h"
#include "ir/node.h"

namespace onnx_opt::schema {
namespace {

std::unique_ptr<ir::Node> ShapeNode(std::optional<int64_t> start, std::optional<int64_t> end,
                                    const std::string& op = "Shape") {
  std::unique_ptr<ir::Node> n = ir::Node::Create("", op, {}, {"y"});
  if (start.has_value()) n->SetAttribute(ir::Attribute::Int("start", *start));
  if (end.has_value()) n->SetAttribute(ir::Attribute::Int("end", *end));
  return n;
}

const ir::Type kStatic = ir::Type::Tensor(ir::DataType::kFloat, ir::Shape::FromSizes({2, 3, 4}));

std::vector<int64_t> Folded(const ir::Node& n, int64_t opset) {
  std::optional<ir::Tensor> t = FoldShapeOrSize(n, kStatic, opset);
  EXPECT_TRUE(t.has_value());
  if (!t.has_value()) return {};
  EXPECT_EQ(t->data_type(), ir::DataType::kInt64);
  EXPECT_EQ(t->dims(), std::vector<int64_t>{static_cast<int64_t>(t->ToVector<int64_t>().size())});
  return t->ToVector<int64_t>();
}

TEST(ShapeFold, WholeShapeAtEveryOpset) {
  for (int64_t opset : {1, 13, 15, 21}) {
    EXPECT_EQ(Folded(*ShapeNode(std::nullopt, std::nullopt), opset),
              (std::vector<int64_t>{2, 3, 4}))
        << opset;
  }
}

// Shape-1 and Shape-13 have no start/end: attributes there (an invalid node) change nothing.
TEST(ShapeFold, StartAndEndIgnoredBeforeOpset15) {
  EXPECT_EQ(Folded(*ShapeNode(1, 2), 13), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(Folded(*ShapeNode(-1, std::nullopt), 14), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(ShapeOpRange(*ShapeNode(1, 2), 3, 13), (std::pair<int64_t, int64_t>{0, 3}));
}

// The examples of the Shape-15 spec, on a [2, 3, 4] input.
TEST(ShapeFold, StartAndEndFromOpset15) {
  for (int64_t opset : {15, 19, 25}) {
    EXPECT_EQ(Folded(*ShapeNode(1, std::nullopt), opset), (std::vector<int64_t>{3, 4}));
    EXPECT_EQ(Folded(*ShapeNode(std::nullopt, 2), opset), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(Folded(*ShapeNode(1, 2), opset), (std::vector<int64_t>{3}));
    // Negative: counted from the back.
    EXPECT_EQ(Folded(*ShapeNode(-1, std::nullopt), opset), (std::vector<int64_t>{4}));
    EXPECT_EQ(Folded(*ShapeNode(std::nullopt, -1), opset), (std::vector<int64_t>{2, 3}));
    // Clamped to [0, rank]: end > r is r, start < -r is 0.
    EXPECT_EQ(Folded(*ShapeNode(-10, 10), opset), (std::vector<int64_t>{2, 3, 4}));
    EXPECT_EQ(Folded(*ShapeNode(5, std::nullopt), opset), (std::vector<int64_t>{}));
    // start > end: empty.
    EXPECT_EQ(Folded(*ShapeNode(2, 1), opset), (std::vector<int64_t>{}));
    EXPECT_EQ(Folded(*ShapeNode(-1, -2), opset), (std::vector<int64_t>{}));
  }
}

TEST(ShapeFold, Size) {
  std::unique_ptr<ir::Node> size = ShapeNode(std::nullopt, std::nullopt, "Size");
  std::optional<ir::Tensor> t = FoldShapeOrSize(*size, kStatic, 13);
  ASSERT_TRUE(t.has_value());
  EXPECT_TRUE(t->dims().empty());
  EXPECT_EQ(t->ToVector<int64_t>(), std::vector<int64_t>{24});
}

TEST(ShapeFold, OnlyStaticShapesOfShapeAndSize) {
  const ir::Type symbolic = ir::Type::Tensor(
      ir::DataType::kFloat, ir::Shape({ir::Dim::Symbolic("N"), ir::Dim::Known(3)}));
  EXPECT_FALSE(FoldShapeOrSize(*ShapeNode(1, std::nullopt), symbolic, 15).has_value());
  EXPECT_FALSE(
      FoldShapeOrSize(*ShapeNode(1, std::nullopt), ir::Type::Tensor(ir::DataType::kFloat), 15)
          .has_value());
  EXPECT_FALSE(
      FoldShapeOrSize(*ShapeNode(std::nullopt, std::nullopt, "Relu"), kStatic, 15).has_value());
  std::unique_ptr<ir::Node> custom = ir::Node::Create("com.example", "Shape", {}, {"y"});
  EXPECT_FALSE(FoldShapeOrSize(*custom, kStatic, 15).has_value());
}

}  // namespace
}  // namespace onnx_opt::schema
