// DynamicQuantizeLinear, ConvInteger and MatMulInteger against references written out in the test:
// DynamicQuantizeLinear step by step in float32 as the spec's formulas read (onnx/onnx
// docs/Operators.md), the integer operators as plain loops over (x - x_zero_point) * (w -
// w_zero_point).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/evaluator.h"
#include "interpreter/testing/test_util.h"
#include "ir/graph.h"
#include "ir/numeric/float16.h"

namespace onnx_opt::interpreter {
namespace {

using testing::F;
using testing::OneNode;

Tensor U8(std::vector<int64_t> dims, const std::vector<uint8_t>& v) {
  return Tensor::FromVector<uint8_t>(DataType::kUint8, std::move(dims), v);
}
Tensor I8(std::vector<int64_t> dims, const std::vector<int8_t>& v) {
  return Tensor::FromVector<int8_t>(DataType::kInt8, std::move(dims), v);
}

// Deterministic pseudo-random numbers, the same with every standard library.
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : s_(seed) {}
  uint32_t Next() {
    s_ = s_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(s_ >> 33);
  }
  int Int(int lo, int hi) {
    return lo + static_cast<int>(Next() % static_cast<uint32_t>(hi - lo + 1));
  }
  // A float in [lo, hi) with a full 24-bit mantissa's worth of randomness.
  float Float(float lo, float hi) {
    return lo + (hi - lo) * (static_cast<float>(Next() >> 7) / 16777216.0f);
  }

 private:
  uint64_t s_;
};

// The spec, one float32 operation per step, rounding half to even (the default rounding mode):
//   x_min = min(0, min(x)), x_max = max(0, max(x))
//   y_scale = (x_max - x_min) / (qmax - qmin)
//   intermediate_zero_point = qmin - x_min / y_scale
//   y_zero_point = cast(round(saturate(intermediate_zero_point)))
//   y = saturate(round(x / y_scale) + y_zero_point)
// For an all-zero x (0 / 0 in the formula) y_scale is 1, as onnxruntime and ONNX's reference
// implementation have it.
struct Quantized {
  std::vector<uint8_t> y;
  float scale = 0;
  uint8_t zero_point = 0;
};

Quantized ReferenceDynamicQuantize(const std::vector<float>& x) {
  const float qmin = 0.0f, qmax = 255.0f;
  float x_min = 0.0f, x_max = 0.0f;
  for (float v : x) {
    x_min = std::min(x_min, v);
    x_max = std::max(x_max, v);
  }
  Quantized q;
  const float range = x_max - x_min;
  const float qrange = qmax - qmin;
  q.scale = x_max == x_min ? 1.0f : range / qrange;
  const float scaled_min = x_min / q.scale;
  const float intermediate_zero_point = qmin - scaled_min;
  const float zp = std::nearbyint(std::clamp(intermediate_zero_point, qmin, qmax));
  q.zero_point = static_cast<uint8_t>(zp);
  for (float v : x) {
    const float divided = v / q.scale;
    const float rounded = std::nearbyint(divided);
    const float shifted = rounded + zp;
    q.y.push_back(static_cast<uint8_t>(std::clamp(shifted, qmin, qmax)));
  }
  return q;
}

// What computing the scale in double gave before: (x_max - x_min) / 255 rounded once to float.
float DoubleScale(const std::vector<float>& x) {
  double x_min = 0, x_max = 0;
  for (float v : x) {
    x_min = std::min<double>(x_min, v);
    x_max = std::max<double>(x_max, v);
  }
  return static_cast<float>((x_max - x_min) / 255.0);
}

Quantized RunDynamicQuantize(const std::vector<float>& x) {
  OneNode g("DynamicQuantizeLinear", 1, 3);
  auto r = g.Run({F({static_cast<int64_t>(x.size())}, x)}, 11);
  EXPECT_TRUE(r.ok()) << r.status();
  Quantized q;
  if (!r.ok()) return q;
  EXPECT_EQ((*r)[0].tensor().dtype(), DataType::kUint8);
  EXPECT_EQ((*r)[1].tensor().dtype(), DataType::kFloat);
  EXPECT_EQ((*r)[2].tensor().dtype(), DataType::kUint8);
  EXPECT_EQ((*r)[1].tensor().rank(), 0);
  EXPECT_EQ((*r)[2].tensor().rank(), 0);
  q.y = (*r)[0].tensor().ToVector<uint8_t>();
  q.scale = (*r)[1].tensor().ToVector<float>()[0];
  q.zero_point = (*r)[2].tensor().ToVector<uint8_t>()[0];
  return q;
}

void ExpectSame(const Quantized& got, const Quantized& want, const std::string& what) {
  EXPECT_EQ(got.scale, want.scale) << what;
  EXPECT_EQ(got.zero_point, want.zero_point) << what;
  EXPECT_EQ(got.y, want.y) << what;
}

// ---------------------------------------------------------------------------------------------
// (a) DynamicQuantizeLinear

// Range [-0.33, 0.01]: in float32, 0.34 / 255 = 0x1.5d867cp-10, one ulp below the double quotient
// rounded to float (0x1.5d867ep-10). With the float32 scale 0.33 / y_scale = 247.500015 and the
// zero point is 248; with the double one it is 247.499985 -> 247, and every byte below moves by
// one. The float32 quotients -0.31 / y_scale = -232.5, -0.23 / y_scale = -172.5, -0.11 / y_scale =
// -82.5 and 0.01 / y_scale = 7.5 are exact ties (the exact quotients are not), rounded to even.
TEST(DynamicQuantizeLinearTest, Float32ScaleAndZeroPointWorkedByHand) {
  const std::vector<float> x = {0.01f, -0.33f, -0.31f, -0.23f, -0.11f, 0.0f, -0.2f, -0.05f, 0.005f};
  const Quantized got = RunDynamicQuantize(x);

  // Worked out by hand (float32 step by step):
  const float scale = (0.01f - -0.33f) / 255.0f;
  EXPECT_EQ(scale, 0x1.5d867cp-10f);
  EXPECT_EQ(got.scale, 0x1.5d867cp-10f);
  EXPECT_EQ(0.0f - -0.33f / scale, 247.500015f);
  EXPECT_EQ(got.zero_point, 248);
  EXPECT_EQ(-0.31f / scale, -232.5f);
  EXPECT_EQ(-0.23f / scale, -172.5f);
  EXPECT_EQ(-0.11f / scale, -82.5f);
  EXPECT_EQ(0.01f / scale, 7.5f);
  EXPECT_EQ(-0.05f / scale, -37.5f);
  // 0.01: 8 + 248 saturates; -0.33: -248 + 248; -0.31: -232 + 248; -0.23: -172 + 248; -0.11: -82 +
  // 248; 0: 248; -0.2: -150 + 248; -0.05: -38 + 248; 0.005: round(3.75) + 248.
  const std::vector<uint8_t> want = {255, 0, 16, 76, 166, 248, 98, 210, 252};
  EXPECT_EQ(got.y, want);

  // The double computation disagrees on this input (so the test tells the two apart).
  EXPECT_NE(DoubleScale(x), scale);
  EXPECT_EQ(std::nearbyint(0.33f / DoubleScale(x)), 247.0f);
  EXPECT_EQ(std::nearbyint(static_cast<double>(-0.31f) / static_cast<double>(scale)),
            -233.0);  // not a tie

  ExpectSame(got, ReferenceDynamicQuantize(x), "hand-worked input");
}

// Exact scale 1 ((x_max - x_min) = 255): ties at .5 go to the even neighbour, in the zero point
// too.
TEST(DynamicQuantizeLinearTest, TiesRoundHalfToEven) {
  {
    // Range [-127.5, 127.5]: zero point round(127.5) = 128.
    const std::vector<float> x = {-127.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 126.5f, 127.5f};
    const Quantized got = RunDynamicQuantize(x);
    EXPECT_EQ(got.scale, 1.0f);
    EXPECT_EQ(got.zero_point, 128);
    EXPECT_EQ(got.y, (std::vector<uint8_t>{0, 126, 128, 128, 130, 130, 254, 255}));
    ExpectSame(got, ReferenceDynamicQuantize(x), "[-127.5, 127.5]");
  }
  {
    // Range [-126.5, 128.5]: zero point round(126.5) = 126.
    const std::vector<float> x = {-126.5f, -125.5f, -0.5f, 0.5f, 3.5f, 128.5f};
    const Quantized got = RunDynamicQuantize(x);
    EXPECT_EQ(got.scale, 1.0f);
    EXPECT_EQ(got.zero_point, 126);
    // -126.5 -> -126 + 126; -125.5 -> -126 + 126; -0.5 -> 0; 0.5 -> 0; 3.5 -> 4; 128.5 -> 128 +
    // 126.
    EXPECT_EQ(got.y, (std::vector<uint8_t>{0, 0, 126, 126, 130, 254}));
    ExpectSame(got, ReferenceDynamicQuantize(x), "[-126.5, 128.5]");
  }
}

TEST(DynamicQuantizeLinearTest, AllZeroAllPositiveAllNegative) {
  {
    const Quantized got = RunDynamicQuantize({0.0f, 0.0f, -0.0f});
    EXPECT_EQ(got.scale, 1.0f);
    EXPECT_EQ(got.zero_point, 0);
    EXPECT_EQ(got.y, (std::vector<uint8_t>{0, 0, 0}));
  }
  {
    // x_min is raised to 0: zero point 0.
    const std::vector<float> x = {1.0f, 2.1f, 1.3f, 2.5f, 3.34f, 4.0f};
    const Quantized got = RunDynamicQuantize(x);
    EXPECT_EQ(got.zero_point, 0);
    ExpectSame(got, ReferenceDynamicQuantize(x), "all positive");
  }
  {
    // x_max is lowered to 0: zero point 255.
    const std::vector<float> x = {-1.0f, -2.1f, -1.3f, -2.5f, -3.34f, -4.0f};
    const Quantized got = RunDynamicQuantize(x);
    EXPECT_EQ(got.zero_point, 255);
    ExpectSame(got, ReferenceDynamicQuantize(x), "all negative");
  }
}

// A tensor of several chunks (the range is taken chunk by chunk on the threads, 2^15 values each):
// its minimum in the last, partial chunk, its maximum in the middle one, a NaN in the first; the
// same values as the float32 reference on 1 and 3 threads.
TEST(DynamicQuantizeLinearTest, LargeTensorOnThreadsMatchesFloat32Reference) {
  Lcg rng(11);
  std::vector<float> x(3 * (1 << 15) + 1000);
  for (float& v : x) v = rng.Float(-1.0f, 2.0f);
  x[x.size() - 3] = -3.5f;
  x[x.size() / 2] = 6.25f;
  Quantized want = ReferenceDynamicQuantize(x);
  x[17] = std::nanf("");
  want.y[17] = 0;  // NaN is written as 0 (vector_kernels.h), and does not move the range
  for (int threads : {1, 3}) {
    SetNumThreads(threads);
    const Quantized got = RunDynamicQuantize(x);
    SetNumThreads(1);
    ExpectSame(got, want, "threads " + std::to_string(threads));
  }
}

// Many random tensors, the kernel must follow float32 on every one of them. Half are like the input
// of a quantized layer after its rescaling Mul, integers times one float (x = acc * m): there x /
// y_scale is close to acc * 255 / (acc_max - acc_min), often exactly a tie, and the ulp by which a
// double-computed y_scale differs decides which way single elements round.
TEST(DynamicQuantizeLinearTest, RandomTensorsMatchFloat32Reference) {
  Lcg rng(7);
  int scale_differs = 0, tensors_differ = 0;
  for (int t = 0; t < 1000; ++t) {
    std::vector<float> x;
    if (t % 2 == 0) {
      const float hi = rng.Float(0.0f, 4.0f);
      const float lo = -rng.Float(0.0f, 4.0f) * (t % 3 == 0 ? 1e-3f : 1.0f);
      x = {lo, hi};
      for (int i = 0; i < 126; ++i) x.push_back(rng.Float(lo, hi));
    } else {
      const int lo = -rng.Int(1, 3000), hi = rng.Int(1, 3000);
      const float m = rng.Float(1e-5f, 1e-3f);
      x = {static_cast<float>(lo) * m, static_cast<float>(hi) * m};
      for (int i = 0; i < 126; ++i) x.push_back(static_cast<float>(rng.Int(lo, hi)) * m);
    }
    const Quantized want = ReferenceDynamicQuantize(x);
    ExpectSame(RunDynamicQuantize(x), want, "random tensor " + std::to_string(t));
    const float ds = DoubleScale(x);
    if (ds == want.scale) continue;
    ++scale_differs;
    const float x_min = std::min(0.0f, *std::min_element(x.begin(), x.end()));
    const float dzp = std::nearbyint(std::clamp(0.0f - x_min / ds, 0.0f, 255.0f));
    for (size_t i = 0; i < x.size(); ++i) {
      if (std::clamp(std::nearbyint(x[i] / ds) + dzp, 0.0f, 255.0f) != want.y[i]) {
        ++tensors_differ;
        break;
      }
    }
  }
  // The inputs do tell float32 from double: the scale of about a quarter of them, and some bytes.
  EXPECT_GT(scale_differs, 150) << scale_differs;
  EXPECT_GT(tensors_differ, 3) << tensors_differ;
  std::printf("scale differs from double on %d of 1000 tensors, bytes on %d\n", scale_differs,
              tensors_differ);
}

// ---------------------------------------------------------------------------------------------
// (b) DynamicQuantizeLinear -> ConvInteger -> Cast -> Mul, eight layers deep

constexpr int64_t kN = 2, kC = 4, kH = 5, kW = 7;

struct Layer {
  bool int8_weights = false;
  std::vector<int32_t> w;   // [C, C, 3, 3]
  std::vector<int32_t> wz;  // one value (per tensor) or C values (per output channel)
  float w_scale = 0;
};

// ConvInteger, 3x3, pads 1: y[n, m, h, w] = sum (x - x_zp) * (w - w_zp[m]), padding reads x_zp.
std::vector<int32_t> ReferenceConvInteger(const std::vector<uint8_t>& x, uint8_t x_zp,
                                          const Layer& l) {
  std::vector<int32_t> y(kN * kC * kH * kW, 0);
  for (int64_t n = 0; n < kN; ++n) {
    for (int64_t m = 0; m < kC; ++m) {
      const int32_t wzp = l.wz[l.wz.size() == 1 ? 0 : m];
      for (int64_t oh = 0; oh < kH; ++oh) {
        for (int64_t ow = 0; ow < kW; ++ow) {
          int32_t acc = 0;
          for (int64_t c = 0; c < kC; ++c) {
            for (int64_t kh = 0; kh < 3; ++kh) {
              for (int64_t kw = 0; kw < 3; ++kw) {
                const int64_t ih = oh + kh - 1, iw = ow + kw - 1;
                if (ih < 0 || ih >= kH || iw < 0 || iw >= kW) continue;  // (x_zp - x_zp) * ... = 0
                const int32_t xv = x[((n * kC + c) * kH + ih) * kW + iw];
                const int32_t wv = l.w[((m * kC + c) * 3 + kh) * 3 + kw];
                acc += (xv - x_zp) * (wv - wzp);
              }
            }
          }
          y[((n * kC + m) * kH + oh) * kW + ow] = acc;
        }
      }
    }
  }
  return y;
}

Tensor WeightTensor(const Layer& l) {
  if (l.int8_weights) return I8({kC, kC, 3, 3}, std::vector<int8_t>(l.w.begin(), l.w.end()));
  return U8({kC, kC, 3, 3}, std::vector<uint8_t>(l.w.begin(), l.w.end()));
}
Tensor WeightZeroPoint(const Layer& l) {
  std::vector<int64_t> dims;
  if (l.wz.size() != 1) dims = {static_cast<int64_t>(l.wz.size())};
  if (l.int8_weights) return I8(dims, std::vector<int8_t>(l.wz.begin(), l.wz.end()));
  return U8(dims, std::vector<uint8_t>(l.wz.begin(), l.wz.end()));
}

enum class ZeroPoints { kPerTensor, kPerChannel };

void RunChain(bool int8_weights, ZeroPoints zps, uint64_t seed) {
  constexpr int kLayers = 8;
  Lcg rng(seed);
  std::vector<Layer> layers(kLayers);
  for (Layer& l : layers) {
    l.int8_weights = int8_weights;
    for (int i = 0; i < kC * kC * 9; ++i)
      l.w.push_back(int8_weights ? rng.Int(-128, 127) : rng.Int(0, 255));
    const int zn = zps == ZeroPoints::kPerTensor ? 1 : kC;
    for (int i = 0; i < zn; ++i)
      l.wz.push_back(int8_weights ? rng.Int(-20, 20) : rng.Int(100, 156));
    l.w_scale = rng.Float(0.001f, 0.05f);
  }
  std::vector<float> x0(kN * kC * kH * kW);
  for (float& v : x0) v = rng.Float(-1.7f, 2.3f);

  // The graph, every intermediate value also a graph output.
  ir::Graph graph("chain");
  std::vector<Tensor> inputs;
  ir::Value* x = graph.AddInput("x");
  inputs.push_back(Tensor::FromVector<float>(DataType::kFloat, {kN, kC, kH, kW}, x0));
  for (int li = 0; li < kLayers; ++li) {
    const std::string s = std::to_string(li);
    ir::Value* w = graph.AddInput("w" + s);
    ir::Value* wz = graph.AddInput("wz" + s);
    ir::Value* ws = graph.AddInput("ws" + s);
    inputs.push_back(WeightTensor(layers[li]));
    inputs.push_back(WeightZeroPoint(layers[li]));
    inputs.push_back(Tensor::Scalar<float>(DataType::kFloat, layers[li].w_scale));
    ir::Node* q = graph.AddNode("DynamicQuantizeLinear", {x}, {"q" + s, "qs" + s, "qz" + s});
    ir::Node* conv =
        graph.AddNode("ConvInteger", {q->output(0), w, q->output(2), wz}, {"conv" + s});
    conv->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
    ir::Node* cast = graph.AddNode("Cast", {conv->output(0)}, {"cast" + s});
    cast->SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(DataType::kFloat)));
    ir::Node* scale = graph.AddNode("Mul", {q->output(1), ws}, {"scale" + s});
    ir::Node* out = graph.AddNode("Mul", {cast->output(0), scale->output(0)}, {"out" + s});
    for (int i = 0; i < 3; ++i) graph.AddOutput(q->output(i));
    graph.AddOutput(conv->output(0));
    graph.AddOutput(out->output(0));
    x = out->output(0);
  }
  std::vector<RuntimeValue> args(inputs.begin(), inputs.end());
  Evaluator ev(graph, {{"", 13}});
  auto r = ev.Run(std::move(args));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), static_cast<size_t>(5 * kLayers));

  // The reference, layer by layer from the same input.
  std::vector<float> cur = x0;
  int double_scale_differs = 0;
  for (int li = 0; li < kLayers; ++li) {
    const std::string at = "layer " + std::to_string(li);
    const Quantized q = ReferenceDynamicQuantize(cur);
    if (DoubleScale(cur) != q.scale) ++double_scale_differs;
    const std::vector<int32_t> conv = ReferenceConvInteger(q.y, q.zero_point, layers[li]);
    const float scale = q.scale * layers[li].w_scale;
    std::vector<float> next(conv.size());
    for (size_t i = 0; i < conv.size(); ++i) next[i] = static_cast<float>(conv[i]) * scale;

    const RuntimeValue* o = &(*r)[5 * li];
    EXPECT_EQ(o[0].tensor().ToVector<uint8_t>(), q.y) << at;
    EXPECT_EQ(o[1].tensor().ToVector<float>(), std::vector<float>{q.scale}) << at;
    EXPECT_EQ(o[2].tensor().ToVector<uint8_t>(), std::vector<uint8_t>{q.zero_point}) << at;
    EXPECT_EQ(o[3].tensor().dtype(), DataType::kInt32) << at;
    EXPECT_EQ(o[3].tensor().dims(), (std::vector<int64_t>{kN, kC, kH, kW})) << at;
    EXPECT_EQ(o[3].tensor().ToVector<int32_t>(), conv) << at;
    const std::vector<float> got = o[4].tensor().ToVector<float>();
    ASSERT_EQ(got.size(), next.size()) << at;
    int off = 0;
    for (size_t i = 0; i < got.size(); ++i) off += got[i] != next[i];
    EXPECT_EQ(off, 0) << at << ": float outputs differing from the float32 reference";
    // Go on from the reference, so one layer's difference does not hide the next one's.
    cur = next;
  }
  // The input of at least one layer has a range whose double-computed scale is off by an ulp.
  EXPECT_GT(double_scale_differs, 0);
}

TEST(QuantizedConvChainTest, Uint8WeightsPerTensorZeroPoint) {
  RunChain(false, ZeroPoints::kPerTensor, 11);
}
TEST(QuantizedConvChainTest, Uint8WeightsPerChannelZeroPoint) {
  RunChain(false, ZeroPoints::kPerChannel, 12);
}
TEST(QuantizedConvChainTest, Int8WeightsPerChannelZeroPoint) {
  RunChain(true, ZeroPoints::kPerChannel, 13);
}

// One ConvInteger by hand: x = 1..9 (x_zp 1) padded by one, w = 3 everywhere (w_zp 1): each output
// is 2 * the sum of (x - 1) over the window that lies inside.
TEST(ConvIntegerTest, PaddingReadsTheZeroPointByHand) {
  OneNode g("ConvInteger", 4);
  g.node->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
  g.node->SetAttribute(ir::Attribute::Ints("strides", {2, 2}));
  auto r = g.Run({U8({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), U8({1, 1, 2, 2}, {3, 3, 3, 3}),
                  U8({}, {1}), U8({}, {1})},
                 10);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{1, 1, 2, 2}));
  // x - 1 = [[0,1,2],[3,4,5],[6,7,8]]; windows (top-left at -1,-1), (-1,1), (1,-1), (1,1).
  EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(),
            (std::vector<int32_t>{0, 2 * (1 + 2), 2 * (3 + 6), 2 * (4 + 5 + 7 + 8)}));
}

// Sums past float's exact-integer range (2^24): 64 channels x 3x3 taps of 255 x -255 reach 3.7e7.
// The kernel sums in float chunks of 256 taps, each exact, and adds the chunks in int32; checked
// against an int64 loop, with extreme and with mixed values.
TEST(ConvIntegerTest, LargeSumsAreExact) {
  const int64_t C = 64, M = 3, H = 5;
  for (bool extreme : {true, false}) {
    std::vector<uint8_t> x(C * H * H), w(M * C * 9);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = extreme ? 255 : static_cast<uint8_t>((i * 37) % 256);
    for (size_t i = 0; i < w.size(); ++i) w[i] = extreme ? 0 : static_cast<uint8_t>((i * 91) % 256);
    const uint8_t xz = extreme ? 0 : 7, wz = 255;
    OneNode g("ConvInteger", 4);
    g.node->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
    auto r = g.Run({U8({1, C, H, H}, x), U8({M, C, 3, 3}, w), U8({}, {xz}), U8({}, {wz})}, 10);
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<int32_t> got = (*r)[0].tensor().ToVector<int32_t>();
    ASSERT_EQ(got.size(), static_cast<size_t>(M * H * H));
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t oh = 0; oh < H; ++oh) {
        for (int64_t ow = 0; ow < H; ++ow) {
          int64_t acc = 0;
          for (int64_t c = 0; c < C; ++c) {
            for (int64_t kh = 0; kh < 3; ++kh) {
              for (int64_t kw = 0; kw < 3; ++kw) {
                const int64_t ih = oh - 1 + kh, iw = ow - 1 + kw;
                if (ih < 0 || ih >= H || iw < 0 || iw >= H) continue;
                acc += (int64_t{x[(c * H + ih) * H + iw]} - xz) *
                       (int64_t{w[((m * C + c) * 3 + kh) * 3 + kw]} - wz);
              }
            }
          }
          ASSERT_EQ(got[(m * H + oh) * H + ow], acc)
              << "extreme " << extreme << " at " << m << "," << oh << "," << ow;
        }
      }
    }
    if (extreme)
      EXPECT_EQ(got[(0 * H + 2) * H + 2], -64 * 9 * 255 * 255);  // beyond 2^24 in magnitude
  }
}

TEST(ConvIntegerTest, WeightZeroPointOfTheWrongLengthIsAnError) {
  OneNode g("ConvInteger", 4);
  auto r = g.Run({U8({1, 1, 2, 2}, {1, 2, 3, 4}), U8({4, 1, 1, 1}, {1, 2, 3, 4}), U8({}, {0}),
                  U8({3}, {0, 0, 0})},
                 10);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("w_zero_point"), std::string::npos) << r.status();
}

// ConvInteger (2-D, groups, strides, pads, dilations) against an int64 loop wrapped to int32, on
// every ISA this CPU has: with AVX2 and AVX-512 through the 8-bit GEMM, on the baseline the
// portable exact float path.
struct ConvIntegerCase {
  int64_t C, M, H, W, kernel, stride, pad, dilation, group;
  bool signed_x, signed_w, per_channel, extreme;
};

class ConvIntegerEveryIsaTest : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override { ASSERT_TRUE(SetActiveIsa(GetParam()).ok()); }
  void TearDown() override { ASSERT_TRUE(SetActiveIsa(DetectedIsa()).ok()); }
};

TEST_P(ConvIntegerEveryIsaTest, MatchesLoopsForEveryLayout) {
  const ConvIntegerCase cases[] = {
      {16, 24, 9, 11, 3, 1, 1, 1, 1, false, false, false, false},  // uint8 weights around 128
      {16, 24, 9, 11, 3, 2, 1, 1, 1, true, true, true,
       false},  // int8 both, per-channel zero points
      {8, 13, 7, 6, 3, 1, 2, 2, 1, false, true, false, false},  // dilated, padded beyond the kernel
      {12, 12, 8, 8, 3, 1, 1, 1, 4, true, false, false, false},  // grouped
      {40, 33, 6, 7, 1, 1, 0, 1, 1, false, false, true, false},  // pointwise (a plain GEMM)
      {3, 5, 5, 5, 5, 2, 2, 1, 1, false, false, false, false},   // K = 75, not a multiple of 4
      {64, 3, 5, 5, 3, 1, 1, 1, 1, false, false, false, true},   // extreme values: sums near 2^24
      {16, 4, 6, 6, 3, 1, 1, 1, 1, false, false, false,
       false},  // uint8 weights around zero point 0
  };
  Lcg rng(21);
  int index = 0;
  for (const ConvIntegerCase& c : cases) {
    const bool far_weights = index == 7;
    const int64_t Cg = c.C / c.group, Mg = c.M / c.group, k = c.kernel;
    const int64_t OH = (c.H + 2 * c.pad - c.dilation * (k - 1) - 1) / c.stride + 1;
    const int64_t OW = (c.W + 2 * c.pad - c.dilation * (k - 1) - 1) / c.stride + 1;
    std::vector<int32_t> x(c.C * c.H * c.W), w(c.M * Cg * k * k), wz(c.per_channel ? c.M : 1);
    const int32_t x_lo = c.signed_x ? -128 : 0, x_hi = c.signed_x ? 127 : 255;
    for (auto& v : x) v = c.extreme ? x_hi : rng.Int(x_lo, x_hi);
    const int32_t xz = c.extreme ? x_lo : rng.Int(x_lo, x_hi);
    for (auto& z : wz) z = c.signed_w ? rng.Int(-3, 3) : (far_weights ? 0 : rng.Int(126, 130));
    for (size_t i = 0; i < w.size(); ++i) {
      const int32_t z = wz[c.per_channel ? i / (Cg * k * k) : 0];
      if (c.extreme) {
        w[i] = z - 128;
      } else if (far_weights) {
        w[i] = rng.Int(0, 255);
      } else {
        w[i] = std::clamp(z + rng.Int(-128, 127), c.signed_w ? -128 : 0, c.signed_w ? 127 : 255);
      }
    }
    auto tensor = [](bool is_signed, std::vector<int64_t> dims, const std::vector<int32_t>& v) {
      if (is_signed) return I8(std::move(dims), std::vector<int8_t>(v.begin(), v.end()));
      return U8(std::move(dims), std::vector<uint8_t>(v.begin(), v.end()));
    };
    OneNode g("ConvInteger", 4);
    g.node->SetAttribute(ir::Attribute::Ints("pads", {c.pad, c.pad, c.pad, c.pad}));
    g.node->SetAttribute(ir::Attribute::Ints("strides", {c.stride, c.stride}));
    g.node->SetAttribute(ir::Attribute::Ints("dilations", {c.dilation, c.dilation}));
    g.node->SetAttribute(ir::Attribute::Int("group", c.group));
    auto r = g.Run({tensor(c.signed_x, {1, c.C, c.H, c.W}, x),
                    tensor(c.signed_w, {c.M, Cg, k, k}, w), tensor(c.signed_x, {}, {xz}),
                    tensor(c.signed_w,
                           c.per_channel ? std::vector<int64_t>{c.M} : std::vector<int64_t>{}, wz)},
                   10);
    ASSERT_TRUE(r.ok()) << "case " << index << ": " << r.status();
    const std::vector<int32_t> got = (*r)[0].tensor().ToVector<int32_t>();
    ASSERT_EQ(got.size(), static_cast<size_t>(c.M * OH * OW)) << "case " << index;
    for (int64_t m = 0; m < c.M; ++m) {
      const int64_t gi = m / Mg;
      const int32_t z = wz[c.per_channel ? m : 0];
      for (int64_t oh = 0; oh < OH; ++oh) {
        for (int64_t ow = 0; ow < OW; ++ow) {
          int64_t acc = 0;
          for (int64_t ci = 0; ci < Cg; ++ci) {
            for (int64_t kh = 0; kh < k; ++kh) {
              for (int64_t kw = 0; kw < k; ++kw) {
                const int64_t ih = oh * c.stride - c.pad + kh * c.dilation;
                const int64_t iw = ow * c.stride - c.pad + kw * c.dilation;
                if (ih < 0 || ih >= c.H || iw < 0 || iw >= c.W) continue;
                acc += int64_t{x[((gi * Cg + ci) * c.H + ih) * c.W + iw] - xz} *
                       (w[((m * Cg + ci) * k + kh) * k + kw] - z);
              }
            }
          }
          ASSERT_EQ(got[(m * OH + oh) * OW + ow], static_cast<int32_t>(static_cast<uint32_t>(acc)))
              << "case " << index << " at " << m << "," << oh << "," << ow;
        }
      }
    }
    ++index;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, ConvIntegerEveryIsaTest, ::testing::ValuesIn(SupportedIsas()),
                         testing::IsaTestName);

// ---------------------------------------------------------------------------------------------
// (c) MatMulInteger

template <typename A, typename B>
std::vector<int32_t> ReferenceMatMulInteger(int64_t batch, int64_t M, int64_t K, int64_t N,
                                            const std::vector<A>& a, const std::vector<int32_t>& za,
                                            const std::vector<B>& b, const std::vector<int32_t>& zb,
                                            bool b_batched) {
  std::vector<int32_t> y(batch * M * N);
  for (int64_t t = 0; t < batch; ++t) {
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        int32_t acc = 0;
        for (int64_t k = 0; k < K; ++k) {
          const int32_t av = a[(t * M + i) * K + k], bv = b[((b_batched ? t : 0) * K + k) * N + j];
          acc += (av - za[za.size() == 1 ? 0 : i]) * (bv - zb[zb.size() == 1 ? 0 : j]);
        }
        y[(t * M + i) * N + j] = acc;
      }
    }
  }
  return y;
}

// The shapes of dynamically quantized linear layers (batched A with a scalar zero point, B with one
// zero point per column), with depth across several packed blocks, on every ISA this CPU has: with
// AVX2 and AVX-512 they take the int8 GEMM, on the baseline the portable path; both exact.
class MatMulIntegerEveryIsaTest : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override { ASSERT_TRUE(SetActiveIsa(GetParam()).ok()); }
  void TearDown() override { ASSERT_TRUE(SetActiveIsa(DetectedIsa()).ok()); }
};

TEST_P(MatMulIntegerEveryIsaTest, LinearLayerShapesAgainstLoops) {
  Lcg rng(5);
  const int64_t batch = 2, M = 13, K = 1030, N = 70;
  std::vector<uint8_t> a(batch * M * K);
  std::vector<int8_t> b(K * N), zb(N);
  for (auto& v : a) v = static_cast<uint8_t>(rng.Int(0, 255));
  for (auto& v : b) v = static_cast<int8_t>(rng.Int(-128, 127));
  for (auto& v : zb) v = static_cast<int8_t>(rng.Int(-128, 127));
  for (int64_t k = 0; k < K; ++k) {  // extremes in row 0 of the first matrix and column 0
    a[k] = 255;
    b[k * N] = -128;
  }
  const std::vector<uint8_t> za = {201};
  OneNode g("MatMulInteger", 4);
  auto r = g.Run({U8({batch, M, K}, a), I8({K, N}, b), U8({}, za), I8({N}, zb)}, 10);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{batch, M, N}));
  const std::vector<int32_t> z32b(zb.begin(), zb.end());
  std::vector<int32_t> want;
  for (int64_t t = 0; t < batch; ++t) {
    const std::vector<uint8_t> at(a.begin() + t * M * K, a.begin() + (t + 1) * M * K);
    const std::vector<int32_t> part = ReferenceMatMulInteger(1, M, K, N, at, {201}, b, z32b, false);
    want.insert(want.end(), part.begin(), part.end());
  }
  EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(), want);
  // int8 A, uint8 B, scalar zero points on both.
  std::vector<int8_t> a8(M * K);
  std::vector<uint8_t> b8(K * N);
  for (auto& v : a8) v = static_cast<int8_t>(rng.Int(-128, 127));
  for (auto& v : b8) v = static_cast<uint8_t>(rng.Int(0, 255));
  OneNode h("MatMulInteger", 4);
  auto r2 = h.Run({I8({M, K}, a8), U8({K, N}, b8), I8({}, {-3}), U8({}, {250})}, 10);
  ASSERT_TRUE(r2.ok()) << r2.status();
  EXPECT_EQ((*r2)[0].tensor().ToVector<int32_t>(),
            ReferenceMatMulInteger(1, M, K, N, a8, {-3}, b8, {250}, false));
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, MatMulIntegerEveryIsaTest, ::testing::ValuesIn(SupportedIsas()),
                         testing::IsaTestName);

TEST(MatMulIntegerTest, ByHandUint8TimesInt8) {
  OneNode g("MatMulInteger", 4);
  // (A - [[1],[2]]) = [[0,1],[1,2]]; (B - [-1, 3]) = [[6,-9],[8,-4]].
  auto r = g.Run(
      {U8({2, 2}, {1, 2, 3, 4}), I8({2, 2}, {5, -6, 7, -1}), U8({2}, {1, 2}), I8({2}, {-1, 3})},
      10);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().dtype(), DataType::kInt32);
  EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(), (std::vector<int32_t>{8, -4, 6 + 16, -9 - 8}));
}

TEST(MatMulIntegerTest, TypesAndZeroPointsAgainstLoops) {
  Lcg rng(3);
  const int64_t M = 3, K = 40, N = 5;
  auto u8 = [&](int64_t n) {
    std::vector<uint8_t> v(n);
    for (auto& e : v) e = static_cast<uint8_t>(rng.Int(0, 255));
    return v;
  };
  auto i8 = [&](int64_t n) {
    std::vector<int8_t> v(n);
    for (auto& e : v) e = static_cast<int8_t>(rng.Int(-128, 127));
    return v;
  };
  auto to32 = [](const auto& v) { return std::vector<int32_t>(v.begin(), v.end()); };
  {  // uint8 x uint8, scalar zero points, extreme values (|sum| up to 255 * 255 * K)
    std::vector<uint8_t> a(M * K, 255), b(K * N, 0);
    const std::vector<uint8_t> za = {0}, zb = {255};
    OneNode g("MatMulInteger", 4);
    auto r = g.Run({U8({M, K}, a), U8({K, N}, b), U8({}, za), U8({}, zb)}, 10);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(), std::vector<int32_t>(M * N, -255 * 255 * K));
  }
  {  // uint8 A per-row zero points, int8 B per-column zero points
    const auto a = u8(M * K), za = u8(M);
    const auto b = i8(K * N), zb = i8(N);
    OneNode g("MatMulInteger", 4);
    auto r = g.Run({U8({M, K}, a), I8({K, N}, b), U8({M}, za), I8({N}, zb)}, 10);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(),
              ReferenceMatMulInteger(1, M, K, N, a, to32(za), b, to32(zb), false));
  }
  {  // int8 x int8, scalar zero points
    const auto a = i8(M * K), b = i8(K * N);
    const std::vector<int8_t> za = {-7}, zb = {12};
    OneNode g("MatMulInteger", 4);
    auto r = g.Run({I8({M, K}, a), I8({K, N}, b), I8({}, za), I8({}, zb)}, 10);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(),
              ReferenceMatMulInteger(1, M, K, N, a, to32(za), b, to32(zb), false));
  }
  {  // int8 A x uint8 B, no zero points
    const auto a = i8(M * K);
    const auto b = u8(K * N);
    OneNode g("MatMulInteger", 2);
    auto r = g.Run({I8({M, K}, a), U8({K, N}, b)}, 10);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(),
              ReferenceMatMulInteger(1, M, K, N, a, {0}, b, {0}, false));
  }
  {  // batched A [2, M, K] x B [K, N], 1-D zero points (per row of each matrix / per column)
    const auto a = u8(2 * M * K), za = u8(M), b = u8(K * N), zb = u8(N);
    OneNode g("MatMulInteger", 4);
    auto r = g.Run({U8({2, M, K}, a), U8({K, N}, b), U8({M}, za), U8({N}, zb)}, 10);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ((*r)[0].tensor().dims(), (std::vector<int64_t>{2, M, N}));
    EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(),
              ReferenceMatMulInteger(2, M, K, N, a, to32(za), b, to32(zb), false));
  }
  {  // batched B [2, K, N] with its per-column zero points as [2, 1, N] (the same for both batches)
    const auto a = i8(M * K), b = i8(2 * K * N), zb = i8(N);
    std::vector<int8_t> zb2 = zb;
    zb2.insert(zb2.end(), zb.begin(), zb.end());
    OneNode g("MatMulInteger", 4);
    auto r = g.Run({I8({M, K}, a), I8({2, K, N}, b), I8({}, {3}), I8({2, 1, N}, zb2)}, 10);
    ASSERT_TRUE(r.ok()) << r.status();
    std::vector<int8_t> a2 = a;
    a2.insert(a2.end(), a.begin(), a.end());
    EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(),
              ReferenceMatMulInteger(2, M, K, N, a2, {3}, b, to32(zb), true));
  }
}

// The spec's per-row zero point of an N-D A: A [D, M, K] with a_zero_point [D, M, 1] broadcasts as
// given (only a 1-D a_zero_point is read as one value per row).
// K = 1000 of 255 x -255: sums far beyond 2^24, exact through the chunked float GEMMs.
TEST(MatMulIntegerTest, LargeSumsAreExact) {
  const int64_t M = 3, K = 1000, N = 5;
  std::vector<uint8_t> a(M * K, 255), b(K * N, 0);
  for (int64_t i = 0; i < K * N; i += 7) b[i] = static_cast<uint8_t>(i % 256);
  OneNode g("MatMulInteger", 4);
  auto r = g.Run({U8({M, K}, a), U8({K, N}, b), U8({}, {0}), U8({}, {255})}, 10);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<int32_t> got = (*r)[0].tensor().ToVector<int32_t>();
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      int64_t acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += int64_t{a[i * K + k]} * (int64_t{b[k * N + j]} - 255);
      ASSERT_EQ(got[i * N + j], acc) << i << "," << j;
    }
  }
}

TEST(MatMulIntegerTest, NdPerRowZeroPoint) {
  OneNode g("MatMulInteger", 3);
  auto r =
      g.Run({U8({2, 2, 1}, {10, 20, 30, 40}), U8({1, 1}, {2}), U8({2, 2, 1}, {1, 2, 3, 4})}, 10);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].tensor().ToVector<int32_t>(), (std::vector<int32_t>{18, 36, 54, 72}));
}

// Found by auditing the kernels: zero points, blocked scales and QLinearMatMul operands that did
// not fit were read past their ends.
TEST(QuantizationTest, ZeroPointAndBlockedScaleMustFitTheScale) {
  auto i8 = [](std::vector<int64_t> dims, std::vector<int8_t> v) {
    return Tensor::FromVector<int8_t>(ir::DataType::kInt8, std::move(dims), v);
  };
  OneNode zp("DequantizeLinear", 3);
  zp.node->SetAttribute(ir::Attribute::Int("axis", 0));
  auto bad = zp.Run({i8({4}, {1, 2, 3, 4}), F({4}, {1, 1, 1, 1}), i8({2}, {0, 0})}, 21);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("does not match scale"), std::string::npos) << bad.status();
  auto ok = zp.Run({i8({4}, {1, 2, 3, 4}), F({4}, {1, 2, 1, 1}), i8({4}, {0, 1, 0, 0})}, 21);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().ToVector<float>(), (std::vector<float>{1, 2, 3, 4}));

  OneNode blocked("QuantizeLinear", 2);
  blocked.node->SetAttribute(ir::Attribute::Int("axis", 1));
  blocked.node->SetAttribute(ir::Attribute::Int("block_size", 2));
  auto small = blocked.Run({F({1, 4}, {1, 2, 3, 4}), F({1, 1}, {1})}, 21);
  ASSERT_FALSE(small.ok());
  EXPECT_NE(small.status().message().find("needs dim 2 on axis 1"), std::string::npos)
      << small.status();
  auto fits = blocked.Run({F({1, 4}, {1, 2, 3, 4}), F({1, 2}, {1, 2})}, 21);
  ASSERT_TRUE(fits.ok()) << fits.status();
  EXPECT_EQ((*fits)[0].tensor().ToVector<uint8_t>(), (std::vector<uint8_t>{1, 2, 2, 2}));
}

// float16 scales (quantized float16 weights): the output is float16, each element the spec's
// (x - zero point) * scale rounded once to float16; int4 blocked along axis 0 with a short last
// block, and uint8 per channel with zero points.
TEST(QuantizationTest, Float16ScalesGiveFloat16ByTheFormula) {
  auto half = [](std::vector<int64_t> dims, const std::vector<float>& v) {
    std::vector<uint16_t> bits;
    for (float f : v) bits.push_back(ir::FloatToHalf(f));
    return Tensor::FromVector<uint16_t>(ir::DataType::kFloat16, std::move(dims), bits);
  };
  // x [5, 2] int4 (a byte each), blocks of 4 along axis 0: scale [2, 2].
  const std::vector<int8_t> x = {-8, 7, 3, -1, 0, 5, -7, 2, 6, -3};
  const std::vector<float> s = {0.0123f, 3.5f, 1e-3f, 250.7f};
  OneNode blocked("DequantizeLinear", 2);
  blocked.node->SetAttribute(ir::Attribute::Int("axis", 0));
  blocked.node->SetAttribute(ir::Attribute::Int("block_size", 4));
  auto r = blocked.Run(
      {Tensor::FromVector<int8_t>(ir::DataType::kInt4, {5, 2}, x), half({2, 2}, s)}, 21);
  ASSERT_TRUE(r.ok()) << r.status();
  const Tensor& y = (*r)[0].tensor();
  ASSERT_EQ(y.dtype(), ir::DataType::kFloat16);
  for (int i = 0; i < 10; ++i) {
    const int row = i / 2, col = i % 2;
    const double scale = ir::HalfToFloat(ir::FloatToHalf(s[(row / 4) * 2 + col]));
    EXPECT_EQ(y.data<uint16_t>()[i], ir::FloatToHalf(static_cast<float>(x[i] * scale))) << i;
  }
  // uint8 per channel (axis 1) with zero points.
  const std::vector<uint8_t> u = {0, 255, 128, 7, 200, 13};
  const std::vector<float> cs = {0.02f, 0.5f, 7.25f};
  const std::vector<uint8_t> z = {128, 3, 255};
  OneNode channel("DequantizeLinear", 3);
  channel.node->SetAttribute(ir::Attribute::Int("axis", 1));
  auto c = channel.Run({Tensor::FromVector<uint8_t>(ir::DataType::kUint8, {2, 3}, u), half({3}, cs),
                        Tensor::FromVector<uint8_t>(ir::DataType::kUint8, {3}, z)},
                       21);
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ((*c)[0].tensor().dtype(), ir::DataType::kFloat16);
  for (int i = 0; i < 6; ++i) {
    const double scale = ir::HalfToFloat(ir::FloatToHalf(cs[i % 3]));
    const double want = (static_cast<double>(u[i]) - z[i % 3]) * scale;
    EXPECT_EQ((*c)[0].tensor().data<uint16_t>()[i], ir::FloatToHalf(static_cast<float>(want))) << i;
  }
}

TEST(QuantizationTest, QLinearMatMulOperandsMustFit) {
  auto u8 = [](std::vector<int64_t> dims, std::vector<uint8_t> v) {
    return Tensor::FromVector<uint8_t>(ir::DataType::kUint8, std::move(dims), v);
  };
  const Tensor one = F({}, {1}), zero = u8({}, {0});
  OneNode g("QLinearMatMul", 8);
  auto k = g.Run(
      {u8({2, 3}, {1, 2, 3, 4, 5, 6}), one, zero, u8({2, 2}, {1, 0, 0, 1}), one, zero, one, zero},
      10);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.status().message().find("do not match"), std::string::npos) << k.status();
  // A per-row scale of a holds one value per row of a: two here, for one row.
  auto scale = g.Run(
      {u8({1, 2}, {1, 2}), F({2}, {1, 1}), zero, u8({2, 1}, {1, 1}), one, zero, one, zero}, 10);
  ASSERT_FALSE(scale.ok());
  EXPECT_NE(scale.status().message().find("must hold 1 or 1 values"), std::string::npos)
      << scale.status();
  auto empty = g.Run({u8({0, 2}, {}), one, zero, u8({2, 1}, {1, 1}), one, zero, one, zero}, 10);
  ASSERT_TRUE(empty.ok()) << empty.status();
  auto ok = g.Run({u8({1, 2}, {1, 2}), one, zero, u8({2, 1}, {3, 4}), one, zero, one, zero}, 10);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ((*ok)[0].tensor().ToVector<uint8_t>(), (std::vector<uint8_t>{11}));
  // numpy.matmul semantics: a 1-D a is one row, and b's batch dims broadcast against a's.
  auto vec =
      g.Run({u8({3}, {1, 2, 3}), one, zero, u8({3, 1}, {1, 1, 1}), one, zero, one, zero}, 10);
  ASSERT_TRUE(vec.ok()) << vec.status();
  EXPECT_EQ((*vec)[0].tensor().dims(), (std::vector<int64_t>{1}));
  EXPECT_EQ((*vec)[0].tensor().ToVector<uint8_t>(), (std::vector<uint8_t>{6}));
  auto batched =
      g.Run({u8({1, 2}, {1, 2}), one, zero, u8({2, 2, 1}, {1, 1, 2, 3}), one, zero, one, zero}, 10);
  ASSERT_TRUE(batched.ok()) << batched.status();
  EXPECT_EQ((*batched)[0].tensor().dims(), (std::vector<int64_t>{2, 1, 1}));
  EXPECT_EQ((*batched)[0].tensor().ToVector<uint8_t>(), (std::vector<uint8_t>{3, 8}));
}

}  // namespace
}  // namespace onnx_opt::interpreter
