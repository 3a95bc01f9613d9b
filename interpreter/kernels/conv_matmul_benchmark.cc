// GFLOP/s of the interpreter's MatMul (Eigen GEMM) and Conv (im2col + Eigen GEMM) at BERT-base and
// ResNet-50 sizes, next to naive loops measured in the same run. Run with -c opt:
//   bazel run -c opt //interpreter:conv_matmul_benchmark
#include <vector>

#include "benchmark/benchmark.h"
#include "interpreter/evaluator.h"
#include "interpreter/kernels/gemm.h"
#include "ir/graph.h"

namespace onnx_opt::interpreter {
namespace {

std::vector<float> Random(int64_t n) {
  std::vector<float> v(n);
  uint32_t s = 12345;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) / (1 << 24) - 0.5f;
  }
  return v;
}

void NaiveGemm(int64_t M, int64_t N, int64_t K, const float* a, const float* b, float* c) {
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += a[i * K + k] * b[k * N + j];
      c[i * N + j] = acc;
    }
  }
}

// args: M, N, K (BERT-base: 128 tokens x 768 hidden, FFN 3072).
void BM_MatMulEigen(benchmark::State& st) {
  const int64_t M = st.range(0), N = st.range(1), K = st.range(2);
  auto a = Random(M * K), b = Random(K * N);
  std::vector<float> c(M * N);
  for (auto _ : st) {
    Gemm<float>(false, false, M, N, K, 1.f, a.data(), b.data(), 0.f, c.data());
    benchmark::DoNotOptimize(c.data());
  }
  st.counters["GFLOP/s"] = benchmark::Counter(2e-9 * M * N * K, benchmark::Counter::kIsIterationInvariantRate);
}
void BM_MatMulNaive(benchmark::State& st) {
  const int64_t M = st.range(0), N = st.range(1), K = st.range(2);
  auto a = Random(M * K), b = Random(K * N);
  std::vector<float> c(M * N);
  for (auto _ : st) {
    NaiveGemm(M, N, K, a.data(), b.data(), c.data());
    benchmark::DoNotOptimize(c.data());
  }
  st.counters["GFLOP/s"] = benchmark::Counter(2e-9 * M * N * K, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_MatMulEigen)->Args({128, 768, 768})->Args({128, 3072, 768})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatMulNaive)->Args({128, 768, 768})->Args({128, 3072, 768})->Unit(benchmark::kMillisecond);

// Conv through the evaluator (one Conv node). args: C, M, H(=W), kernel, stride.
struct ConvGraph {
  ir::Graph g{"conv"};
  ConvGraph(int64_t k, int64_t stride) {
    ir::Node* n = g.AddNode("Conv", {g.AddInput("x"), g.AddInput("w")}, {"y"});
    n->SetAttribute(ir::Attribute::Ints("pads", {k / 2, k / 2, k / 2, k / 2}));
    n->SetAttribute(ir::Attribute::Ints("strides", {stride, stride}));
    g.AddOutput(n->output(0));
  }
};

void NaiveConv(int64_t C, int64_t M, int64_t H, int64_t k, int64_t s, const float* x, const float* w, float* y) {
  const int64_t p = k / 2, O = (H + 2 * p - k) / s + 1;
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t oh = 0; oh < O; ++oh) {
      for (int64_t ow = 0; ow < O; ++ow) {
        float acc = 0;
        for (int64_t c = 0; c < C; ++c) {
          for (int64_t i = 0; i < k; ++i) {
            const int64_t ih = oh * s - p + i;
            if (ih < 0 || ih >= H) continue;
            for (int64_t j = 0; j < k; ++j) {
              const int64_t iw = ow * s - p + j;
              if (iw < 0 || iw >= H) continue;
              acc += x[(c * H + ih) * H + iw] * w[((m * C + c) * k + i) * k + j];
            }
          }
        }
        y[(m * O + oh) * O + ow] = acc;
      }
    }
  }
}

double ConvFlops(int64_t C, int64_t M, int64_t H, int64_t k, int64_t s) {
  const int64_t O = (H + 2 * (k / 2) - k) / s + 1;
  return 2.0 * M * O * O * C * k * k;
}

void BM_ConvInterpreter(benchmark::State& st) {
  const int64_t C = st.range(0), M = st.range(1), H = st.range(2), k = st.range(3), s = st.range(4);
  ConvGraph cg(k, s);
  Evaluator ev(cg.g, {{"", 17}});
  Tensor x = Tensor::FromVector<float>(DataType::kFloat, {1, C, H, H}, Random(C * H * H));
  Tensor w = Tensor::FromVector<float>(DataType::kFloat, {M, C, k, k}, Random(M * C * k * k));
  for (auto _ : st) {
    auto r = ev.Run({x, w});
    benchmark::DoNotOptimize(r);
  }
  st.counters["GFLOP/s"] = benchmark::Counter(ConvFlops(C, M, H, k, s) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}
void BM_ConvNaive(benchmark::State& st) {
  const int64_t C = st.range(0), M = st.range(1), H = st.range(2), k = st.range(3), s = st.range(4);
  auto x = Random(C * H * H), w = Random(M * C * k * k);
  const int64_t O = (H + 2 * (k / 2) - k) / s + 1;
  std::vector<float> y(M * O * O);
  for (auto _ : st) {
    NaiveConv(C, M, H, k, s, x.data(), w.data(), y.data());
    benchmark::DoNotOptimize(y.data());
  }
  st.counters["GFLOP/s"] = benchmark::Counter(ConvFlops(C, M, H, k, s) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}
// ResNet-50: conv2_x 3x3 64->64 @56, conv2_x 1x1 256->64 @56, conv3_x 3x3 128->128 @28 stride 1.
BENCHMARK(BM_ConvInterpreter)->Args({64, 64, 56, 3, 1})->Args({256, 64, 56, 1, 1})->Args({128, 128, 28, 3, 1})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConvNaive)->Args({64, 64, 56, 3, 1})->Args({256, 64, 56, 1, 1})->Args({128, 128, 28, 3, 1})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace onnx_opt::interpreter

BENCHMARK_MAIN();
