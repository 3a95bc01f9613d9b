#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::I64;
using testing::OneNode;

TEST(ShapeTest, ReshapeWithZeroAndMinusOne) {
  OneNode g("Reshape", 2);
  auto r = g.Run({F({2, 3, 4}, std::vector<float>(24, 1)), I64({2}, {0, -1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, 12}));
}

TEST(ShapeTest, TransposeDefaultReverses) {
  OneNode g("Transpose", 1);
  auto r = g.Run({F({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

// Every permutation of ranks 1 to 5 over dims with and without axes of size 1 (which the kernel
// drops before merging axes that stay neighbours), against the element-by-element definition:
// runs copied whole, tiles of a moved last axis (sizes that do not fill the 16 x 16 tiles).
TEST(ShapeTest, TransposeEveryPermutationMatchesTheDefinition) {
  const std::vector<std::vector<int64_t>> shapes = {
      {37},        {3, 20},      {1, 19},         {2, 1, 3},
      {17, 18, 3}, {2, 3, 1, 5}, {1, 32, 20, 33}, {2, 1, 3, 4, 5}};
  for (const std::vector<int64_t>& dims : shapes) {
    const int64_t r = static_cast<int64_t>(dims.size());
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    std::vector<float> x(n);
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
    std::vector<int64_t> perm(r);
    for (int64_t i = 0; i < r; ++i) perm[i] = i;
    do {
      OneNode g("Transpose", 1);
      g.node->SetAttribute(ir::Attribute::Ints("perm", perm));
      auto out = g.Run({F(dims, x)});
      ASSERT_TRUE(out.ok()) << out.status();
      const Tensor& y = (*out)[0].tensor();
      std::vector<int64_t> out_dims(r), in_strides(r, 1);
      for (int64_t i = 0; i < r; ++i) out_dims[i] = dims[perm[i]];
      for (int64_t i = r - 2; i >= 0; --i) in_strides[i] = in_strides[i + 1] * dims[i + 1];
      ASSERT_EQ(y.dims(), out_dims);
      const std::vector<float> got = y.ToVector<float>();
      for (int64_t o = 0; o < n; ++o) {
        int64_t rest = o, from = 0;
        for (int64_t i = r - 1; i >= 0; --i) {
          from += (rest % out_dims[i]) * in_strides[perm[i]];
          rest /= out_dims[i];
        }
        ASSERT_EQ(got[o], x[from])
            << "shape " << DimsToString(dims) << " perm " << DimsToString(perm) << " at " << o;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

// Expand copies the innermost dims it keeps as runs; broadcast axes inside, outside and between
// them, and a scalar, against the definition.
TEST(ShapeTest, ExpandMatchesTheDefinition) {
  struct Case {
    std::vector<int64_t> in, shape, out;
  };
  for (const Case& c : std::vector<Case>{{{1, 8, 1, 4, 6}, {1, 8, 3, 4, 6}, {1, 8, 3, 4, 6}},
                                         {{3, 1}, {2, 3, 5}, {2, 3, 5}},
                                         {{4, 1, 5}, {4, 3, 5}, {4, 3, 5}},
                                         {{}, {2, 3}, {2, 3}},
                                         {{2, 3}, {1}, {2, 3}},
                                         {{5}, {2, 0, 5}, {2, 0, 5}}}) {
    int64_t n = 1;
    for (int64_t d : c.in) n *= d;
    std::vector<float> x(n);
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(i + 1);
    OneNode g("Expand", 2);
    auto out = g.Run({F(c.in, x), I64({static_cast<int64_t>(c.shape.size())}, c.shape)});
    ASSERT_TRUE(out.ok()) << out.status();
    const Tensor& y = (*out)[0].tensor();
    ASSERT_EQ(y.dims(), c.out);
    const std::vector<float> got = y.ToVector<float>();
    const int64_t r = static_cast<int64_t>(c.out.size()), xr = static_cast<int64_t>(c.in.size());
    for (size_t o = 0; o < got.size(); ++o) {
      int64_t rest = static_cast<int64_t>(o), from = 0, stride = 1;
      for (int64_t i = r - 1; i >= 0; --i) {
        const int64_t idx = rest % c.out[i];
        rest /= c.out[i];
        const int64_t xi = i - (r - xr);
        if (xi >= 0) {
          if (c.in[xi] != 1) from += idx * stride;
          stride *= c.in[xi];
        }
      }
      ASSERT_EQ(got[o], x[from]) << DimsToString(c.in) << " to " << DimsToString(c.out) << " at "
                                 << o;
    }
  }
}

TEST(ShapeTest, SliceNegativeStep) {
  OneNode g("Slice", 5);
  auto r = g.Run(
      {F({5}, {0, 1, 2, 3, 4}), I64({1}, {-1}), I64({1}, {-6}), I64({1}, {0}), I64({1}, {-2})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{4, 2, 0}));
}

TEST(ShapeTest, UnsqueezeAttributeFormBeforeOpset13) {
  OneNode g("Unsqueeze", 1);
  g.node->SetAttribute(ir::Attribute::Ints("axes", {0, 3}));
  auto r = g.Run({F({2, 3}, std::vector<float>(6, 0))}, 11);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 2, 3, 1}));
}

TEST(ShapeTest, ConcatAndGather) {
  OneNode c("Concat", 2);
  c.node->SetAttribute(ir::Attribute::Int("axis", 1));
  auto r = c.Run({F({2, 1}, {1, 2}), F({2, 2}, {3, 4, 5, 6})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  OneNode g("Gather", 2);
  r = g.Run({F({3}, {10, 20, 30}), I64({2}, {2, -3})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{30, 10}));
}

TEST(ShapeTest, PadReflect) {
  OneNode g("Pad", 2);
  g.node->SetAttribute(ir::Attribute::String("mode", "reflect"));
  auto r = g.Run({F({3}, {1, 2, 3}), I64({2}, {2, 1})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<float>(), (std::vector<float>{3, 2, 1, 2, 3, 2}));
}

// ConstantOfShape fills by doubling copies of the value's bytes: every element of every size.
TEST(ShapeTest, ConstantOfShapeFillsEveryElement) {
  for (int64_t n : {0, 1, 2, 3, 7, 1000, 4099}) {
    SCOPED_TRACE(::testing::Message() << n << " elements");
    OneNode f("ConstantOfShape", 1);
    f.node->SetAttribute(ir::Attribute::FromTensor(
        "value", ir::Tensor::FromVector<double>(DataType::kDouble, {1}, {-2.5})));
    auto out = f.Run({I64({2}, {n, 1})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].tensor().dims(), (std::vector<int64_t>{n, 1}));
    EXPECT_EQ((*out)[0].tensor().ToVector<double>(), std::vector<double>(n, -2.5));
    OneNode b("ConstantOfShape", 1);
    b.node->SetAttribute(ir::Attribute::FromTensor(
        "value", ir::Tensor::FromVector<int8_t>(DataType::kInt8, {1}, {-7})));
    out = b.Run({I64({1}, {n})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].tensor().ToVector<int8_t>(), std::vector<int8_t>(n, -7));
    OneNode s("ConstantOfShape", 1);
    ir::Tensor text(DataType::kString, {1});
    text.mutable_strings() = {"ab"};
    s.node->SetAttribute(ir::Attribute::FromTensor("value", std::move(text)));
    out = s.Run({I64({1}, {n})});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ((*out)[0].tensor().ToVector<std::string>(), std::vector<std::string>(n, "ab"));
  }
}

TEST(ShapeTest, ReshapeSizeMismatchIsAnError) {
  OneNode g("Reshape", 2);
  EXPECT_FALSE(g.Run({F({4}, {1, 2, 3, 4}), I64({1}, {3})}).ok());
}

// Found by auditing the kernels: attribute and input values that overflowed or divided by zero.
void ExpectShapeError(OneNode& g, std::vector<RuntimeValue> inputs, int64_t opset,
                      const std::string& part) {
  auto r = g.Run(std::move(inputs), opset);
  ASSERT_FALSE(r.ok()) << g.node->op_type() << " ran; expected an error with '" << part << "'";
  EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status();
}

TEST(ShapeTest, SplitNumOutputsAndPartsMustTileTheAxis) {
  OneNode zero("Split", 1, 2);
  zero.node->SetAttribute(ir::Attribute::Int("num_outputs", 0));  // divided by zero
  ExpectShapeError(zero, {F({4}, {1, 2, 3, 4})}, 18, "num_outputs must be positive");
  OneNode negative("Split", 2, 2);
  ExpectShapeError(negative, {F({4}, {1, 2, 3, 4}), I64({2}, {-1, 5})}, 13, "does not add up");
  OneNode huge("Split", 2, 2);
  ExpectShapeError(huge, {F({4}, {1, 2, 3, 4}), I64({2}, {INT64_MAX, 5})}, 13, "does not add up");
  auto ok = negative.Run({F({4}, {1, 2, 3, 4}), I64({2}, {1, 3})}, 13);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[1].tensor().ToVector<float>(), (std::vector<float>{2, 3, 4}));
}

TEST(ShapeTest, TileExpandAndBlocksizesThatOverflow) {
  OneNode tile("Tile", 2);
  ExpectShapeError(tile, {F({2}, {1, 2}), I64({1}, {int64_t{1} << 62})}, 13, "overflow");
  OneNode tile1("Tile", 3);
  ExpectShapeError(tile1, {F({2}, {1, 2}), F({}, {NAN}), F({}, {0})}, 1, "not an int64 value");
  OneNode expand("Expand", 2);
  ExpectShapeError(expand, {F({1}, {1}), I64({1}, {-1})}, 13, "negative");
  OneNode d2s("DepthToSpace", 1);
  d2s.node->SetAttribute(ir::Attribute::Int("blocksize", int64_t{1} << 32));
  ExpectShapeError(d2s, {F({1, 1, 1, 1}, {1})}, 13, "bad blocksize");
  OneNode s2d("SpaceToDepth", 1);
  s2d.node->SetAttribute(ir::Attribute::Int("blocksize", int64_t{1} << 32));
  ExpectShapeError(s2d, {F({1, 2, 0, 0}, {})}, 13, "bad blocksize");
}

TEST(ShapeTest, EyeLikeAndTriluWithExtremeK) {
  OneNode eye("EyeLike", 1);
  eye.node->SetAttribute(ir::Attribute::Int("k", INT64_MAX));
  auto e = eye.Run({F({2, 2}, {0, 0, 0, 0})}, 9);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ((*e)[0].tensor().ToVector<float>(), (std::vector<float>{0, 0, 0, 0}));
  OneNode trilu("Trilu", 2);
  auto t = trilu.Run({F({2, 2}, {1, 2, 3, 4}), I64({}, {INT64_MAX})}, 14);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)[0].tensor().ToVector<float>(), (std::vector<float>{0, 0, 0, 0}));
  auto all = trilu.Run({F({2, 2}, {1, 2, 3, 4}), I64({}, {INT64_MIN})}, 14);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ((*all)[0].tensor().ToVector<float>(), (std::vector<float>{1, 2, 3, 4}));
  auto diag = trilu.Run({F({2, 2}, {1, 2, 3, 4}), I64({}, {1})}, 14);
  ASSERT_TRUE(diag.ok()) << diag.status();
  EXPECT_EQ((*diag)[0].tensor().ToVector<float>(), (std::vector<float>{0, 2, 0, 0}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
