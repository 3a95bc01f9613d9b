// ConvTranspose against its definition, summed directly: every input position scatters
// W[c, m, kernel cell] * X[c, position] onto output position * stride + cell * dilation -
// pad_begin, for the kernel shapes exporters write (2x2 stride 2 upsampling, overlapping 3x3 and
// 4x4 stride 2 windows, gaps from a stride larger than the kernel), with pads, dilations, groups,
// bias, output_padding, a batch, 1-D and 3-D, and on one and two threads (channels are split among
// them).
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/tensor.h"
#include "interpreter/testing/test_util.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::OneNode;
using testing::RandomFloats;

struct Shape {
  std::string name;
  int64_t batch, channels, out_per_group, group;
  std::vector<int64_t> in, kernel, strides, dilations, pads, output_padding;
  bool bias = true;
};

// The output by the operator's definition, in double.
std::vector<double> Reference(const Shape& s, const std::vector<float>& x,
                              const std::vector<float>& w, const std::vector<float>& b,
                              std::vector<int64_t>& out) {
  const size_t nd = s.in.size();
  out.resize(nd);
  for (size_t i = 0; i < nd; ++i) {
    out[i] = s.strides[i] * (s.in[i] - 1) + s.output_padding[i] +
             (s.kernel[i] - 1) * s.dilations[i] + 1 - s.pads[i] - s.pads[i + nd];
  }
  const int64_t M = s.out_per_group * s.group, Cg = s.channels / s.group;
  const int64_t I = NumElements(s.in), O = NumElements(out), K = NumElements(s.kernel);
  std::vector<double> y(static_cast<size_t>(s.batch * M * O), 0.0);
  for (int64_t n = 0; n < s.batch; ++n) {
    for (int64_t c = 0; c < s.channels; ++c) {
      const int64_t gi = c / Cg;
      for (int64_t p = 0; p < I; ++p) {
        for (int64_t k = 0; k < K; ++k) {
          // Position p and kernel cell k as coordinates (row-major), and where they land.
          int64_t o = 0, pr = p, kr = k;
          bool inside = true;
          std::vector<int64_t> at(nd);
          for (size_t i = nd; i-- > 0;) {
            const int64_t pi = pr % s.in[i], ki = kr % s.kernel[i];
            pr /= s.in[i];
            kr /= s.kernel[i];
            at[i] = pi * s.strides[i] + ki * s.dilations[i] - s.pads[i];
            if (at[i] < 0 || at[i] >= out[i]) inside = false;
          }
          if (!inside) continue;
          for (size_t i = 0; i < nd; ++i) o = o * out[i] + at[i];
          for (int64_t mg = 0; mg < s.out_per_group; ++mg) {
            const int64_t m = gi * s.out_per_group + mg;
            y[(n * M + m) * O + o] += static_cast<double>(w[(c * s.out_per_group + mg) * K + k]) *
                                      x[(n * s.channels + c) * I + p];
          }
        }
      }
    }
    if (!s.bias) continue;
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t o = 0; o < O; ++o) y[(n * M + m) * O + o] += b[m];
    }
  }
  return y;
}

class ConvTransposeTest : public ::testing::TestWithParam<int> {
 protected:
  void TearDown() override { SetNumThreads(1); }
};

TEST_P(ConvTransposeTest, SumsWhatTheDefinitionSums) {
  SetNumThreads(GetParam());
  const std::vector<Shape> shapes = {
      {"upsample_2x2_s2", 1, 24, 24, 1, {10, 12}, {2, 2}, {2, 2}, {1, 1}, {0, 0, 0, 0}, {0, 0}},
      {"one_channel_out", 1, 24, 1, 1, {9, 7}, {2, 2}, {2, 2}, {1, 1}, {0, 0, 0, 0}, {0, 0}},
      {"overlap_3x3_s2_pads", 2, 5, 11, 1, {6, 5}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, {1, 1}},
      {"overlap_4x4_s2", 1, 7, 9, 1, {5, 6}, {4, 4}, {2, 2}, {1, 1}, {1, 2, 0, 1}, {0, 0}},
      {"gaps_s3", 1, 4, 3, 1, {4, 5}, {2, 2}, {3, 3}, {1, 1}, {0, 0, 0, 0}, {2, 1}, false},
      {"dilated", 1, 3, 5, 1, {5, 5}, {3, 2}, {1, 2}, {2, 3}, {2, 1, 0, 2}, {0, 0}},
      {"groups", 2, 6, 10, 2, {4, 7}, {3, 3}, {2, 1}, {1, 1}, {1, 0, 1, 1}, {1, 0}},
      {"stride_1_3x3", 1, 8, 17, 1, {7, 9}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, {0, 0}},
      {"one_d", 2, 4, 6, 2, {11}, {4}, {2}, {1}, {1, 2}, {1}},
      {"three_d",
       1,
       3,
       4,
       1,
       {3, 4, 3},
       {2, 3, 2},
       {2, 1, 2},
       {1, 1, 1},
       {0, 1, 1, 1, 0, 0},
       {1, 0, 0}},
  };
  for (const Shape& s : shapes) {
    SCOPED_TRACE(s.name);
    std::vector<int64_t> xdims = {s.batch, s.channels}, wdims = {s.channels, s.out_per_group};
    xdims.insert(xdims.end(), s.in.begin(), s.in.end());
    wdims.insert(wdims.end(), s.kernel.begin(), s.kernel.end());
    const std::vector<float> x = RandomFloats(NumElements(xdims), -1, 1, 1);
    const std::vector<float> w = RandomFloats(NumElements(wdims), -1, 1, 2);
    const std::vector<float> b = RandomFloats(s.out_per_group * s.group, -1, 1, 3);
    OneNode g("ConvTranspose", s.bias ? 3 : 2);
    g.node->SetAttribute(ir::Attribute::Ints("kernel_shape", s.kernel));
    g.node->SetAttribute(ir::Attribute::Ints("strides", s.strides));
    g.node->SetAttribute(ir::Attribute::Ints("dilations", s.dilations));
    g.node->SetAttribute(ir::Attribute::Ints("pads", s.pads));
    g.node->SetAttribute(ir::Attribute::Ints("output_padding", s.output_padding));
    g.node->SetAttribute(ir::Attribute::Int("group", s.group));
    std::vector<RuntimeValue> inputs = {F(xdims, x), F(wdims, w)};
    if (s.bias) inputs.push_back(F({s.out_per_group * s.group}, b));
    auto r = g.Run(std::move(inputs), 11);
    ASSERT_TRUE(r.ok()) << r.status();
    std::vector<int64_t> out;
    const std::vector<double> want = Reference(s, x, w, b, out);
    std::vector<int64_t> ydims = {s.batch, s.out_per_group * s.group};
    ydims.insert(ydims.end(), out.begin(), out.end());
    ASSERT_EQ((*r)[0].tensor().dims(), ydims);
    const std::vector<float> got = (*r)[0].tensor().ToVector<float>();
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-4) << "at " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, ConvTransposeTest, ::testing::Values(1, 2));

}  // namespace
}  // namespace onnx_opt::interpreter
