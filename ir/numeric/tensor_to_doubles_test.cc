#include "ir/numeric/tensor_to_doubles.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

using Doubles = std::vector<double>;

TEST(TensorToDoublesTest, FloatingTypes) {
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<float>(DataType::kFloat, {2}, {0.5f, 2.0f})),
            (Doubles{0.5, 2.0}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<double>(DataType::kDouble, {1}, {0.1})),
            (Doubles{0.1}));
  EXPECT_EQ(
      TensorToDoubles(Tensor::FromVector<uint16_t>(DataType::kFloat16, {2}, {0x3C00, 0xC000})),
      (Doubles{1.0, -2.0}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<uint16_t>(DataType::kBfloat16, {1}, {0x4040})),
            (Doubles{3.0}));
  std::optional<Doubles> nan =
      TensorToDoubles(Tensor::FromVector<uint16_t>(DataType::kFloat16, {1}, {0x7E00}));
  ASSERT_TRUE(nan.has_value());
  EXPECT_TRUE(std::isnan((*nan)[0]));
}

TEST(TensorToDoublesTest, IntegerTypes) {
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<int8_t>(DataType::kInt8, {2}, {-3, 4})),
            (Doubles{-3, 4}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<uint8_t>(DataType::kUint8, {1}, {200})),
            (Doubles{200}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<uint8_t>(DataType::kBool, {2}, {1, 0})),
            (Doubles{1, 0}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<int16_t>(DataType::kInt16, {1}, {-300})),
            (Doubles{-300}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<uint16_t>(DataType::kUint16, {1}, {60000})),
            (Doubles{60000}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<int32_t>(DataType::kInt32, {1}, {-70000})),
            (Doubles{-70000}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<uint32_t>(DataType::kUint32, {1}, {4000000000u})),
            (Doubles{4e9}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<int64_t>(DataType::kInt64, {2}, {-5, 1LL << 40})),
            (Doubles{-5, std::ldexp(1.0, 40)}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<uint64_t>(DataType::kUint64, {1}, {1ULL << 63})),
            (Doubles{std::ldexp(1.0, 63)}));
  EXPECT_EQ(TensorToDoubles(Tensor::FromVector<int64_t>(DataType::kInt64, {0}, {})), (Doubles{}));
}

TEST(TensorToDoublesTest, RefusesOtherTypesAndBadSizes) {
  EXPECT_FALSE(TensorToDoubles(Tensor::FromVector<uint8_t>(DataType::kFloat8E4M3FN, {1}, {0x38})));
  EXPECT_FALSE(TensorToDoubles(Tensor::FromVector<uint8_t>(DataType::kInt4, {2}, {0x21})));
  EXPECT_FALSE(TensorToDoubles(Tensor::FromVector<float>(DataType::kComplex64, {1}, {1, 2})));
  EXPECT_FALSE(TensorToDoubles(Tensor::FromVector<float>(DataType::kFloat, {3}, {1, 2})));  // short
  EXPECT_FALSE(
      TensorToDoubles(Tensor::FromVector<float>(DataType::kFloat, {-1}, {1})));  // bad dims
  EXPECT_FALSE(TensorToDoubles(Tensor(DataType::kFloat, {2})));                  // no data
}

}  // namespace
}  // namespace onnx_opt::ir
