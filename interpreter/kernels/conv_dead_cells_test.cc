// Conv where some kernel cells read only padding for every output (a 3x3 kernel over a map one
// row high): the kernel runs the convolution of the live cells alone, with the weights cropped
// once per node and kept while X's shape leaves the same cells live. Against the definition,
// summed directly, over one evaluator run after run with X's shape changing under it (so a kept
// crop that no longer fits must not be used), float and double, one and two threads.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "interpreter/testing/test_util.h"
#include "ir/graph.h"

namespace onnx_opt::interpreter {
namespace {

using testing::RandomFloats;

struct Attrs {
  std::string name;
  int64_t channels, out_channels, group;
  std::vector<int64_t> kernel, strides, dilations, pads;
  // X's spatial shapes, run one after another on one evaluator.
  std::vector<std::vector<int64_t>> inputs;
};

// Y by the operator's definition, in double; `out` gets Y's spatial shape.
std::vector<double> Reference(const Attrs& a, const std::vector<int64_t>& in,
                              const std::vector<float>& x, const std::vector<float>& w,
                              const std::vector<float>& b, std::vector<int64_t>& out) {
  const size_t nd = in.size();
  out.resize(nd);
  for (size_t i = 0; i < nd; ++i) {
    const int64_t extent = (a.kernel[i] - 1) * a.dilations[i] + 1;
    out[i] = (in[i] + a.pads[i] + a.pads[i + nd] - extent) / a.strides[i] + 1;
  }
  const int64_t Cg = a.channels / a.group, Mg = a.out_channels / a.group;
  const int64_t O = NumElements(out), K = NumElements(a.kernel), I = NumElements(in);
  std::vector<double> y(static_cast<size_t>(a.out_channels * O));
  for (int64_t m = 0; m < a.out_channels; ++m) {
    for (int64_t o = 0; o < O; ++o) {
      double acc = b[m];
      for (int64_t c = 0; c < Cg; ++c) {
        for (int64_t k = 0; k < K; ++k) {
          int64_t p = 0, orest = o, krest = k, stride = 1;
          bool inside = true;
          for (size_t i = nd; i-- > 0;) {
            const int64_t oi = orest % out[i], ki = krest % a.kernel[i];
            orest /= out[i];
            krest /= a.kernel[i];
            const int64_t at = oi * a.strides[i] + ki * a.dilations[i] - a.pads[i];
            if (at < 0 || at >= in[i]) inside = false;
            p += at * stride;
            stride *= in[i];
          }
          if (!inside) continue;
          const int64_t channel = m / Mg * Cg + c;
          acc += static_cast<double>(w[(m * Cg + c) * K + k]) * x[channel * I + p];
        }
      }
      y[m * O + o] = acc;
    }
  }
  return y;
}

class ConvDeadCellsTest : public ::testing::TestWithParam<std::tuple<int, ir::DataType>> {
 protected:
  void TearDown() override { SetNumThreads(1); }
};

TEST_P(ConvDeadCellsTest, ComputesWhatTheWholeKernelComputes) {
  const auto [threads, type] = GetParam();
  SetNumThreads(threads);
  const std::vector<Attrs> cases = {
      // One row high: 3x3 -> 1x3 (Winograd's 3x3 over the whole kernel otherwise).
      {"one_row",
       40,
       24,
       1,
       {3, 3},
       {1, 1},
       {1, 1},
       {1, 1, 1, 1},
       {{1, 9}, {4, 9}, {1, 9}, {1, 5}}},
      // 5x5 over 2x2 keeps a 3x3 (Winograd-shaped, from weights cropped for the call), over 6x6
      // all of it, over 1x2 a 1x3 (other cells than the crop kept for 2x2).
      {"five", 16, 8, 1, {5, 5}, {1, 1}, {1, 1}, {2, 2, 2, 2}, {{2, 2}, {6, 6}, {2, 2}, {1, 2}}},
      {"strided", 8, 12, 1, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, {{1, 7}, {1, 8}}},
      // Dilation 2 over one row: only the middle row of cells reads X.
      {"dilated", 6, 5, 1, {3, 3}, {1, 1}, {2, 2}, {2, 2, 2, 2}, {{1, 6}, {3, 6}}},
      // Uneven pads: over one row only cell 1 of 3 reads X at the first output, 0 and 1 later.
      {"uneven_pads", 4, 6, 1, {3, 3}, {1, 1}, {1, 1}, {2, 0, 0, 2}, {{1, 4}}},
      {"depthwise", 12, 12, 12, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, {{1, 20}, {5, 20}}},
      {"groups", 8, 6, 2, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, {{1, 11}}},
      {"one_d", 10, 7, 1, {5}, {1}, {1}, {2, 2}, {{1}, {2}, {9}}},
  };
  for (const Attrs& a : cases) {
    SCOPED_TRACE(a.name);
    std::vector<int64_t> wdims = {a.out_channels, a.channels / a.group};
    wdims.insert(wdims.end(), a.kernel.begin(), a.kernel.end());
    const std::vector<float> w = RandomFloats(NumElements(wdims), -1, 1, 1);
    const std::vector<float> b = RandomFloats(a.out_channels, -1, 1, 2);
    auto constant = [&](const std::string& name, std::vector<int64_t> dims,
                        const std::vector<float>& v) {
      std::vector<double> d(v.begin(), v.end());
      ir::Tensor t = type == ir::DataType::kFloat
                         ? ir::Tensor::FromVector<float>(type, std::move(dims), v)
                         : ir::Tensor::FromVector<double>(type, std::move(dims), d);
      t.set_name(name);
      return t;
    };
    ir::Graph g("conv");
    ir::Node* n = g.AddNode("Conv",
                            {g.AddInput("x"), g.AddInitializer(constant("w", wdims, w)),
                             g.AddInitializer(constant("b", {a.out_channels}, b))},
                            {"y"});
    n->SetAttribute(ir::Attribute::Ints("kernel_shape", a.kernel));
    n->SetAttribute(ir::Attribute::Ints("strides", a.strides));
    n->SetAttribute(ir::Attribute::Ints("dilations", a.dilations));
    n->SetAttribute(ir::Attribute::Ints("pads", a.pads));
    n->SetAttribute(ir::Attribute::Int("group", a.group));
    g.AddOutput(n->output(0));
    Evaluator ev(g, {{"", 17}});
    for (const std::vector<int64_t>& in : a.inputs) {
      SCOPED_TRACE(::testing::PrintToString(in));
      std::vector<int64_t> xdims = {1, a.channels};
      xdims.insert(xdims.end(), in.begin(), in.end());
      const std::vector<float> x = RandomFloats(NumElements(xdims), -1, 1, 3);
      const std::vector<double> xd(x.begin(), x.end());
      const Tensor xt = type == ir::DataType::kFloat ? Tensor::FromVector<float>(type, xdims, x)
                                                     : Tensor::FromVector<double>(type, xdims, xd);
      auto r = ev.Run({xt});
      ASSERT_TRUE(r.ok()) << r.status();
      std::vector<int64_t> out;
      const std::vector<double> want = Reference(a, in, x, w, b, out);
      std::vector<int64_t> ydims = {1, a.out_channels};
      ydims.insert(ydims.end(), out.begin(), out.end());
      const Tensor& y = (*r)[0].tensor();
      ASSERT_EQ(y.dims(), ydims);
      for (int64_t i = 0; i < y.size(); ++i) {
        const double got = type == ir::DataType::kFloat ? y.data<float>()[i] : y.data<double>()[i];
        ASSERT_NEAR(got, want[i], 1e-4) << "at " << i;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ThreadsAndTypes, ConvDeadCellsTest,
                         ::testing::Combine(::testing::Values(1, 2),
                                            ::testing::Values(ir::DataType::kFloat,
                                                              ir::DataType::kDouble)),
                         [](const auto& info) {
                           return std::to_string(std::get<0>(info.param)) + "_threads_" +
                                  (std::get<1>(info.param) == ir::DataType::kFloat ? "float"
                                                                                   : "double");
                         });

}  // namespace
}  // namespace onnx_opt::interpreter
