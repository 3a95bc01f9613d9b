#include "interpreter/tensor.h"

#include <cmath>

#include "gtest/gtest.h"
#include "interpreter/cpu/thread_pool.h"

namespace onnx_opt::interpreter {
namespace {

TEST(TensorTest, RoundTripsThroughIrWithoutCopyWhenAligned) {
  ir::Tensor t = ir::Tensor::FromVector<float>(DataType::kFloat, {2, 2}, {1, 2, 3, 4});
  auto r = Tensor::FromIr(t);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->dims(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(r->data<float>()[3], 4.0f);
  EXPECT_TRUE(r->ToIr().ContentEquals(t));
}

TEST(TensorTest, UnpacksAndPacksInt4) {
  ir::Tensor t(DataType::kInt4, {3});
  t.SetRawData(std::string("\x7f\x08", 2));  // 15 -> -1, 7, 8 -> -8
  auto r = Tensor::FromIr(t);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->data<int8_t>()[0], -1);
  EXPECT_EQ(r->data<int8_t>()[1], 7);
  EXPECT_EQ(r->data<int8_t>()[2], -8);
  EXPECT_TRUE(r->ToIr().ContentEquals(t));
}

TEST(TensorTest, RejectsWrongByteCount) {
  ir::Tensor t(DataType::kFloat, {3});
  t.SetRawData(std::string(8, '\0'));
  EXPECT_FALSE(Tensor::FromIr(t).ok());
}

TEST(TensorTest, CastFollowsOnnxRules) {
  Tensor f = Tensor::FromVector<float>(DataType::kFloat, {4}, {1.7f, -1.7f, 0.f, 2.5f});
  auto i = CastTensor(f, DataType::kInt32);
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->ToVector<int32_t>(), (std::vector<int32_t>{1, -1, 0, 2}));
  auto b = CastTensor(f, DataType::kBool);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->ToVector<bool>(), (std::vector<bool>{true, true, false, true}));
  auto s = CastTensor(Tensor::FromVector<std::string>(DataType::kString, {2}, {"3.5", "-2"}),
                      DataType::kFloat);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->ToVector<float>(), (std::vector<float>{3.5f, -2.f}));
  auto i2 = CastTensor(Tensor::FromVector<float>(DataType::kFloat, {2}, {-3, 2}), DataType::kInt2);
  ASSERT_TRUE(i2.ok());
  EXPECT_EQ(i2->ToVector<int8_t>(), (std::vector<int8_t>{1, -2}));  // wraps
}

// Numeric casts of large tensors run on the threads in chunks: every element converted, the last
// chunk partial, the same on 1 and 3 threads.
TEST(TensorTest, LargeCastOnThreadsConvertsEveryElement) {
  std::vector<int32_t> v(100003);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int32_t>(i * 2654435761u);
  const Tensor t =
      Tensor::FromVector<int32_t>(DataType::kInt32, {static_cast<int64_t>(v.size())}, v);
  for (int threads : {1, 3}) {
    SetNumThreads(threads);
    auto f = CastTensor(t, DataType::kFloat);
    SetNumThreads(1);
    ASSERT_TRUE(f.ok()) << f.status();
    const std::vector<float> got = f->ToVector<float>();
    ASSERT_EQ(got.size(), v.size());
    for (size_t i = 0; i < v.size(); ++i)
      ASSERT_EQ(got[i], static_cast<float>(v[i])) << "element " << i << ", threads " << threads;
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter
