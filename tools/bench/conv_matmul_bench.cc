// GFLOP/s of the interpreter's MatMul (GEMM) and Conv (im2col + GEMM, 1x1 as plain GEMM, depthwise
// direct) at BERT-base, ResNet-50 and MobileNetV2 sizes, on the ISA the CPU picks (ONNX_OPT_ISA in
// the environment lowers it, as for the tools) and on the baseline (SSE2) kernels, next to naive
// loops and next to the machine's peak, all measured in the same run.
//   bazel run -c opt //tools/bench:conv_matmul_bench
//   ONNX_OPT_ISA=avx2 bazel run -c opt //tools/bench:conv_matmul_bench   # the AVX2 kernels
//
// Peak: an FMA throughput probe per ISA (independent multiply-adds on registers, nothing else)
// gives the FLOP rate one core can reach, and with the vector width the vector FMAs per second (per
// cycle at the nominal clock). Each interpreter figure is reported as a share of its ISA's probe
// (%peak). Every interpreter kernel is checked once against the naive loop (ConvInteger: an exact
// integer loop) before it is timed; a result that differs beyond the tolerance stops the run with
// exit status 1, so a fast wrong kernel cannot post a figure.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "benchmark/benchmark.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/evaluator.h"
#include "interpreter/kernels/gemm.h"
#include "ir/graph.h"
#include "tools/bench/machine_limits.h"

namespace onnx_opt::interpreter {
namespace {

// ---- peak (the probe is tools/bench/machine_limits.h's)
// --------------------------------------------------------------------

using bench::PeakGflops;

// The ISA the interpreter's kernels run on: the CPU's best, lowered by ONNX_OPT_ISA.
Isa KernelIsa() {
  static const Isa isa = ActiveIsa();
  return isa;
}

void PrintPeaks() {
  // The probe measures vector FMAs per second; how they split into units x clock it cannot tell (a
  // core may run 512-bit FMAs on two 256-bit halves, and turbo clocks vary), so the split is given
  // at the nominal clock only.
  const double nominal = bench::NominalGhz();
  std::printf(
      "Peak of one core, measured by an FMA throughput probe (flops = 2 x lanes x vector "
      "FMAs/s):\n");
  for (Isa isa : {Isa::kBaseline, Isa::kAvx2, Isa::kAvx512}) {
    if (isa > DetectedIsa()) continue;
    const double peak = PeakGflops(isa);
    const double fmas =
        peak / (2.0 * bench::IsaLanes(isa));  // G vector FMAs (baseline: mul + add pairs) per s
    std::printf("  %-8s %7.1f GFLOP/s  (= 2 x %2d lanes x %.2f G vector FMAs/s",
                std::string(IsaName(isa)).c_str(), peak, bench::IsaLanes(isa), fmas);
    if (nominal > 0) std::printf(": %.2f per cycle at the nominal clock", fmas / nominal);
    std::printf(")\n");
  }
  std::printf(
      "  nominal clock (/proc/cpuinfo): %.2f GHz; kernels run on %s unless the name says "
      "baseline\n\n",
      nominal, std::string(IsaName(KernelIsa())).c_str());
}

// ---- data and references
// ----------------------------------------------------------------------------

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

// Max |a - b| / (1 + |b|): the kernels reorder sums, so agreement is to float rounding of K terms.
// NaN counts as an infinite error.
double MaxError(const float* a, const std::vector<float>& b) {
  double worst = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    const double e = std::abs(a[i] - b[i]) / (1.0 + std::abs(b[i]));
    worst = std::isnan(e) ? INFINITY : std::max(worst, e);
  }
  return worst;
}
constexpr double kTolerance = 1e-4;

// Google Benchmark calls a benchmark function several times per configuration (to pick the
// iteration count); the reference check runs on the first call only. Returns whether `what` with
// these arguments still needs checking, and marks it checked.
bool FirstCall(const char* what, const benchmark::State& st, int num_args) {
  static std::set<std::pair<std::string, std::vector<int64_t>>> checked;
  std::vector<int64_t> args;
  for (int i = 0; i < num_args; ++i) args.push_back(st.range(i));
  return checked.insert({what, args}).second;
}

// A kernel whose result differs from the reference must not post a figure: the whole run stops with
// exit status 1 (a skipped benchmark would leave the others' figures and a zero status).
[[noreturn]] void AbortOnMismatch(const std::string& what) {
  std::fflush(stdout);
  std::fprintf(stderr, "\nconv_matmul_bench: %s; no figures are valid, stopping\n", what.c_str());
  std::exit(1);
}

// GFLOP/s and its share of the ISA's probed peak, from the wall time of the timed loop (plain
// counters, so that the report does not print them as rates per second).
void SetCounters(benchmark::State& st, double flops, Isa isa, double seconds) {
  const double gflops = flops * static_cast<double>(st.iterations()) / seconds / 1e9;
  st.counters["GFLOP/s"] = gflops;
  st.counters["%peak"] = 100 * gflops / PeakGflops(isa);
}

// Runs the benchmark loop and returns its wall time.
template <typename F>
double TimedLoop(benchmark::State& st, F body) {
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : st) body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ---- MatMul
// -------------------------------------------------------------------------------------------

// args: M, N, K (BERT-base: 128 tokens x 768 hidden, FFN 3072); isa (0 = the CPU's, 1 = baseline).
void BM_MatMul(benchmark::State& st) {
  const int64_t M = st.range(0), N = st.range(1), K = st.range(2);
  const Isa isa = st.range(3) ? Isa::kBaseline : KernelIsa();
  if (!SetActiveIsa(isa).ok()) return st.SkipWithError("ISA not supported");
  auto a = Random(M * K), b = Random(K * N);
  std::vector<float> c(M * N);
  if (FirstCall("MatMul", st, 4)) {
    std::vector<float> want(M * N);
    NaiveGemm(M, N, K, a.data(), b.data(), want.data());
    Gemm<float>(false, false, M, N, K, 1.f, a.data(), b.data(), 0.f, c.data());
    if (const double e = MaxError(c.data(), want); !(e <= kTolerance)) {
      AbortOnMismatch(
          absl::StrFormat("MatMul M=%d N=%d K=%d on %s differs from the naive loop (error %g > %g)",
                          M, N, K, std::string(IsaName(isa)), e, kTolerance));
    }
  }
  const double seconds = TimedLoop(st, [&] {
    Gemm<float>(false, false, M, N, K, 1.f, a.data(), b.data(), 0.f, c.data());
    benchmark::DoNotOptimize(c.data());
  });
  SetCounters(st, 2.0 * M * N * K, isa, seconds);
  (void)SetActiveIsa(KernelIsa());
}
void BM_MatMulNaive(benchmark::State& st) {
  const int64_t M = st.range(0), N = st.range(1), K = st.range(2);
  auto a = Random(M * K), b = Random(K * N);
  std::vector<float> c(M * N);
  for (auto _ : st) {
    NaiveGemm(M, N, K, a.data(), b.data(), c.data());
    benchmark::DoNotOptimize(c.data());
  }
  st.counters["GFLOP/s"] =
      benchmark::Counter(2e-9 * M * N * K, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_MatMul)
    ->ArgNames({"M", "N", "K", "baseline"})
    ->Args({128, 768, 768, 0})
    ->Args({128, 3072, 768, 0})
    ->Args({128, 768, 3072, 0})
    ->Args({128, 768, 768, 1})
    ->Args({128, 3072, 768, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatMulNaive)->Args({128, 768, 768})->Unit(benchmark::kMillisecond);

// The same products by a weight packed once (GemmPackedB, as onnx-run --repeat and Session run a
// MatMul by a constant B); on the CPU's ISA, skipped where its kernels have no packed GEMM (AVX-512
// reads B in place). Against BM_MatMul/baseline:0 of the same shape.
void BM_MatMulPackedWeight(benchmark::State& st) {
  const int64_t M = st.range(0), N = st.range(1), K = st.range(2);
  const Isa isa = KernelIsa();
  auto a = Random(M * K), b = Random(K * N);
  std::vector<float> c(M * N), in_place(M * N);
  const PackedGemmB packed = PackGemmB(K, N, b.data());
  if (!GemmPackedB(M, a.data(), packed, c.data()))
    return st.SkipWithError("no packed GEMM on this ISA");
  if (FirstCall("MatMulPackedWeight", st, 3)) {
    Gemm<float>(false, false, M, N, K, 1.f, a.data(), b.data(), 0.f, in_place.data());
    if (std::memcmp(c.data(), in_place.data(), c.size() * sizeof(float)) != 0) {
      AbortOnMismatch(absl::StrFormat(
          "MatMul M=%d N=%d K=%d on %s: the packed weight's bits differ from B read in place", M, N,
          K, std::string(IsaName(isa))));
    }
  }
  const double seconds = TimedLoop(st, [&] {
    GemmPackedB(M, a.data(), packed, c.data());
    benchmark::DoNotOptimize(c.data());
  });
  SetCounters(st, 2.0 * M * N * K, isa, seconds);
}
BENCHMARK(BM_MatMulPackedWeight)
    ->ArgNames({"M", "N", "K"})
    ->Args({128, 768, 768})
    ->Args({128, 3072, 768})
    ->Args({128, 768, 3072})
    ->Unit(benchmark::kMillisecond);

// ---- Conv
// ---------------------------------------------------------------------------------------------

// One Conv node. args: C, M, H(=W), kernel, stride, group, isa (0 = the CPU's, 1 = baseline).
// W an input of the graph, or (`weights` given) an initializer, as in a model: then what the
// kernel derives from it (Winograd's transformed filters) is kept from run to run.
struct ConvGraph {
  ir::Graph g{"conv"};
  ConvGraph(int64_t k, int64_t stride, int64_t group, const ir::Tensor* weights = nullptr) {
    ir::Value* w = nullptr;
    if (weights != nullptr) {
      ir::Tensor t = *weights;
      t.set_name("w");
      w = g.AddInitializer(std::move(t));
    } else {
      w = g.AddInput("w");
    }
    ir::Node* n = g.AddNode("Conv", {g.AddInput("x"), w}, {"y"});
    n->SetAttribute(ir::Attribute::Ints("pads", {k / 2, k / 2, k / 2, k / 2}));
    n->SetAttribute(ir::Attribute::Ints("strides", {stride, stride}));
    n->SetAttribute(ir::Attribute::Int("group", group));
    g.AddOutput(n->output(0));
  }
};

void NaiveConv(int64_t C, int64_t M, int64_t H, int64_t k, int64_t s, int64_t group, const float* x,
               const float* w, float* y) {
  const int64_t p = k / 2, O = (H + 2 * p - k) / s + 1, Cg = C / group, Mg = M / group;
  for (int64_t m = 0; m < M; ++m) {
    const int64_t c0 = (m / Mg) * Cg;
    for (int64_t oh = 0; oh < O; ++oh) {
      for (int64_t ow = 0; ow < O; ++ow) {
        float acc = 0;
        for (int64_t c = 0; c < Cg; ++c) {
          for (int64_t i = 0; i < k; ++i) {
            const int64_t ih = oh * s - p + i;
            if (ih < 0 || ih >= H) continue;
            for (int64_t j = 0; j < k; ++j) {
              const int64_t iw = ow * s - p + j;
              if (iw < 0 || iw >= H) continue;
              acc += x[((c0 + c) * H + ih) * H + iw] * w[((m * Cg + c) * k + i) * k + j];
            }
          }
        }
        y[(m * O + oh) * O + ow] = acc;
      }
    }
  }
}

double ConvFlops(int64_t C, int64_t M, int64_t H, int64_t k, int64_t s, int64_t group) {
  const int64_t O = (H + 2 * (k / 2) - k) / s + 1;
  return 2.0 * M * O * O * (C / group) * k * k;
}

// `cold_weights`: each run reads one of kWeightCopies copies of the weights in turn, together
// larger than L3, as a model's layers do (each layer's weights come back from L3 or memory); being
// an input, what a kernel derives from them (Winograd's filters) is derived again on every run.
constexpr int kWeightCopies = 64;
void RunConv(benchmark::State& st, bool cold_weights) {
  const int64_t C = st.range(0), M = st.range(1), H = st.range(2), k = st.range(3), s = st.range(4),
                group = st.range(5);
  const Isa isa = st.range(6) ? Isa::kBaseline : KernelIsa();
  if (!SetActiveIsa(isa).ok()) return st.SkipWithError("ISA not supported");
  const std::vector<float> xv = Random(C * H * H), wv = Random(M * (C / group) * k * k);
  const ir::Tensor weights =
      ir::Tensor::FromVector<float>(ir::DataType::kFloat, {M, C / group, k, k}, wv);
  // Warm weights are the model's own (an initializer); cold ones an input, a copy per run.
  ConvGraph cg(k, s, group, cold_weights ? nullptr : &weights);
  Evaluator ev(cg.g, {{"", 17}});
  Tensor x = Tensor::FromVector<float>(DataType::kFloat, {1, C, H, H}, xv);
  Tensor w = Tensor::FromVector<float>(DataType::kFloat, {M, C / group, k, k}, wv);
  auto inputs = [&](const Tensor& weight) {
    return cold_weights ? std::vector<RuntimeValue>{x, weight} : std::vector<RuntimeValue>{x};
  };
  if (FirstCall("Conv", st, 7)) {
    const int64_t O = (H + 2 * (k / 2) - k) / s + 1;
    std::vector<float> want(M * O * O);
    NaiveConv(C, M, H, k, s, group, xv.data(), wv.data(), want.data());
    auto first = ev.Run(inputs(w));
    const std::string name = absl::StrFormat("Conv C=%d M=%d HW=%d k=%d s=%d group=%d on %s", C, M,
                                             H, k, s, group, std::string(IsaName(isa)));
    if (!first.ok())
      AbortOnMismatch(absl::StrCat(name, " does not run: ", first.status().message()));
    const Tensor& y = (*first)[0].tensor();
    if (y.dims() != std::vector<int64_t>{1, M, O, O})
      AbortOnMismatch(absl::StrCat(name, ": output ", y.ShapeString()));
    if (const double e = MaxError(y.data<float>(), want); !(e <= kTolerance)) {
      AbortOnMismatch(
          absl::StrFormat("%s differs from the naive loop (error %g > %g)", name, e, kTolerance));
    }
  }
  std::vector<Tensor> copies;
  if (cold_weights) {
    for (int i = 0; i < kWeightCopies; ++i) copies.push_back(w.Clone());
  }
  int turn = 0;
  const double seconds = TimedLoop(st, [&] {
    auto r = ev.Run(inputs(cold_weights ? copies[turn++ % kWeightCopies] : w));
    benchmark::DoNotOptimize(r);
  });
  SetCounters(st, ConvFlops(C, M, H, k, s, group), isa, seconds);
  (void)SetActiveIsa(KernelIsa());
}
void BM_Conv(benchmark::State& st) { RunConv(st, false); }
void BM_ConvColdWeights(benchmark::State& st) { RunConv(st, true); }
void BM_ConvNaive(benchmark::State& st) {
  const int64_t C = st.range(0), M = st.range(1), H = st.range(2), k = st.range(3), s = st.range(4),
                group = st.range(5);
  auto x = Random(C * H * H), w = Random(M * (C / group) * k * k);
  const int64_t O = (H + 2 * (k / 2) - k) / s + 1;
  std::vector<float> y(M * O * O);
  for (auto _ : st) {
    NaiveConv(C, M, H, k, s, group, x.data(), w.data(), y.data());
    benchmark::DoNotOptimize(y.data());
  }
  st.counters["GFLOP/s"] = benchmark::Counter(ConvFlops(C, M, H, k, s, group) / 1e9,
                                              benchmark::Counter::kIsIterationInvariantRate);
}
// ResNet-50: conv2_x 3x3 64->64 @56, conv2_x 1x1 256->64 @56, conv3_x 3x3 128->128 @28 (and its
// first, stride 2 from 56, with the stride 2 1x1 256->512 beside it), conv4_x
// 3x3 256->256 @14 and 1x1 1024->256 @14, conv5_x 3x3 512->512 @7 and 1x1 512->2048 @7 (planes
// narrower than a strip of the GEMM, weights larger than L2);
// MobileNetV2: depthwise 3x3 32 channels @112, 96 @112 stride 2, 144 channels @56, stride 1 and 2,
// and the 1x1 expansions 24->144 @56 and 16->96 @112 (short K; the latter writes a 5 MB output);
// 3x3 convolutions of few channels (Winograd's threshold): a DB text detector's head, 96->24 @160
// and @20, and 32->16, 64->8, 16->64, 16->16, 8->32 and 8->8.
BENCHMARK(BM_Conv)
    ->ArgNames({"C", "M", "HW", "k", "s", "group", "baseline"})
    ->Args({3, 64, 224, 7, 2, 1, 0})  // ResNet-50's stem
    ->Args({3, 32, 224, 3, 2, 1, 0})  // MobileNetV2's
    ->Args({64, 64, 56, 3, 1, 1, 0})
    ->Args({256, 64, 56, 1, 1, 1, 0})
    ->Args({128, 128, 28, 3, 1, 1, 0})
    ->Args({128, 128, 56, 3, 2, 1, 0})
    ->Args({256, 512, 56, 1, 2, 1, 0})
    ->Args({256, 256, 14, 3, 1, 1, 0})
    ->Args({1024, 256, 14, 1, 1, 1, 0})
    ->Args({512, 512, 7, 3, 1, 1, 0})
    ->Args({512, 2048, 7, 1, 1, 1, 0})
    ->Args({32, 32, 112, 3, 1, 32, 0})
    ->Args({96, 96, 112, 3, 2, 96, 0})
    ->Args({144, 144, 56, 3, 1, 144, 0})
    ->Args({144, 144, 56, 3, 2, 144, 0})
    ->Args({576, 576, 14, 3, 1, 576, 0})
    ->Args({576, 576, 14, 3, 2, 576, 0})
    ->Args({960, 960, 7, 3, 1, 960, 0})
    ->Args({96, 24, 160, 3, 1, 1, 0})
    ->Args({96, 24, 20, 3, 1, 1, 0})
    ->Args({32, 16, 56, 3, 1, 1, 0})
    ->Args({64, 8, 56, 3, 1, 1, 0})
    ->Args({16, 64, 112, 3, 1, 1, 0})
    ->Args({16, 16, 112, 3, 1, 1, 0})
    ->Args({8, 32, 112, 3, 1, 1, 0})
    ->Args({8, 8, 112, 3, 1, 1, 0})
    ->Args({24, 144, 56, 1, 1, 1, 0})
    ->Args({16, 96, 112, 1, 1, 1, 0})
    ->Args({96, 576, 14, 1, 1, 1, 0})
    ->Args({160, 960, 7, 1, 1, 1, 0})
    ->Args({320, 1280, 7, 1, 1, 1, 0})
    ->Args({24, 144, 56, 1, 1, 1, 1})
    ->Args({64, 64, 56, 3, 1, 1, 1})
    ->Args({256, 64, 56, 1, 1, 1, 1})
    ->Unit(benchmark::kMillisecond);
// MobileNetV2's 1x1 convolutions at 14x14 and 7x7 and ResNet-50's 512 -> 2048 at 7x7 with their
// weights out of cache (few columns per weight: reading the weights shows).
// An inverted residual block's expansion and depthwise convolution: 1x1 Conv (Cin -> C) -> Clip(0,
// 6) -> 3x3 depthwise Conv (stride s). args: Cin, C, H(=W), s, separate (1: the expansion is also
// a graph output, so each Conv runs on its own, the expansion stored whole; 0: the evaluator may
// run the pair as one, ComputePointwiseDepthwise). FLOPs: both convolutions' multiply-adds.
struct InvertedResidualGraph {
  ir::Graph g{"inverted_residual"};
  ir::Value* Weights(const std::string& name, std::vector<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    ir::Tensor t = ir::Tensor::FromVector<float>(ir::DataType::kFloat, std::move(dims), Random(n));
    t.set_name(name);
    return g.AddInitializer(std::move(t));
  }
  ir::Value* Scalar(const std::string& name, float v) {
    ir::Tensor t = ir::Tensor::FromVector<float>(ir::DataType::kFloat, {}, {v});
    t.set_name(name);
    return g.AddInitializer(std::move(t));
  }
  InvertedResidualGraph(int64_t Cin, int64_t C, int64_t stride, bool separate) {
    ir::Node* expand = g.AddNode(
        "Conv", {g.AddInput("x"), Weights("w1", {C, Cin, 1, 1}), Weights("b1", {C})}, {"e"});
    ir::Node* clip =
        g.AddNode("Clip", {expand->output(0), Scalar("lo", 0), Scalar("hi", 6)}, {"e6"});
    ir::Node* dw = g.AddNode(
        "Conv", {clip->output(0), Weights("w2", {C, 1, 3, 3}), Weights("b2", {C})}, {"y"});
    dw->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
    dw->SetAttribute(ir::Attribute::Ints("strides", {stride, stride}));
    dw->SetAttribute(ir::Attribute::Int("group", C));
    g.AddOutput(dw->output(0));
    if (separate) g.AddOutput(clip->output(0));
  }
};
void BM_InvertedResidual(benchmark::State& st) {
  const int64_t Cin = st.range(0), C = st.range(1), H = st.range(2), s = st.range(3);
  const bool separate = st.range(4) != 0;
  InvertedResidualGraph ir_graph(Cin, C, s, separate);
  Evaluator ev(ir_graph.g, {{"", 17}});
  Tensor x = Tensor::FromVector<float>(DataType::kFloat, {1, Cin, H, H}, Random(Cin * H * H));
  if (FirstCall("InvertedResidual", st, 4)) {
    // The pair as one against the two nodes one by one.
    InvertedResidualGraph other_graph(Cin, C, s, !separate);
    auto a = ev.Run({x});
    auto b = Evaluator(other_graph.g, {{"", 17}}).Run({x});
    if (!a.ok() || !b.ok()) AbortOnMismatch("an inverted residual block does not run");
    const Tensor &ya = (*a)[0].tensor(), &yb = (*b)[0].tensor();
    const std::vector<float> want(yb.data<float>(), yb.data<float>() + yb.size());
    if (ya.dims() != yb.dims()) AbortOnMismatch("inverted residual: outputs of other shapes");
    if (const double e = MaxError(ya.data<float>(), want); !(e <= kTolerance)) {
      AbortOnMismatch(absl::StrFormat(
          "inverted residual Cin=%d C=%d HW=%d s=%d: fused and separate differ (error %g > %g)",
          Cin, C, H, s, e, kTolerance));
    }
  }
  const double seconds = TimedLoop(st, [&] {
    auto r = ev.Run({x});
    benchmark::DoNotOptimize(r);
  });
  const int64_t O = (H - 1) / s + 1;
  SetCounters(st, 2.0 * C * Cin * H * H + 2.0 * C * 9 * O * O, KernelIsa(), seconds);
}
// MobileNetV2's blocks at 112 (stride 2), 56, 28, 14 and 7 (the last two run separately either
// way).
BENCHMARK(BM_InvertedResidual)
    ->ArgNames({"Cin", "C", "HW", "s", "separate"})
    ->ArgsProduct({{16}, {96}, {112}, {2}, {0, 1}})
    ->ArgsProduct({{24}, {144}, {56}, {1}, {0, 1}})
    ->ArgsProduct({{32}, {192}, {28}, {1}, {0, 1}})
    ->ArgsProduct({{64}, {384}, {14}, {1}, {0, 1}})
    ->ArgsProduct({{160}, {960}, {7}, {1}, {0, 1}})
    ->ArgsProduct({{32}, {64}, {56}, {1}, {0, 1}})
    ->ArgsProduct({{64}, {64}, {56}, {1}, {0, 1}})
    ->ArgsProduct({{128}, {128}, {28}, {1}, {0, 1}})
    ->ArgsProduct({{256}, {256}, {22}, {1}, {0, 1}})
    ->ArgsProduct({{512}, {512}, {14}, {1}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_ConvColdWeights)
    ->ArgNames({"C", "M", "HW", "k", "s", "group", "baseline"})
    ->Args({96, 576, 14, 1, 1, 1, 0})
    ->Args({160, 960, 7, 1, 1, 1, 0})
    ->Args({320, 1280, 7, 1, 1, 1, 0})
    ->Args({512, 2048, 7, 1, 1, 1, 0})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConvNaive)
    ->Args({64, 64, 56, 3, 1, 1})
    ->Args({144, 144, 56, 3, 1, 144})
    ->Unit(benchmark::kMillisecond);

// ConvInteger (uint8 x uint8, x zero point 128, w zero point `wz`) at the ResNet-50 3x3 size,
// checked once against an exact integer loop; GOP/s counts 2 operations per multiply-add as for
// float. The 8-bit GEMM runs on AVX-512 (bytes with VNNI) and AVX2 (widened to int16);
// ONNX_OPT_ISA=baseline measures the portable exact float path.
void BM_ConvInteger(benchmark::State& st) {
  const int64_t C = st.range(0), M = st.range(1), H = st.range(2), k = 3;
  const uint8_t wz_value = static_cast<uint8_t>(st.range(3));
  ir::Graph g("conv_integer");
  ir::Node* n = g.AddNode(
      "ConvInteger", {g.AddInput("x"), g.AddInput("w"), g.AddInput("xz"), g.AddInput("wz")}, {"y"});
  n->SetAttribute(ir::Attribute::Ints("pads", {1, 1, 1, 1}));
  g.AddOutput(n->output(0));
  Evaluator ev(g, {{"", 10}});
  std::vector<uint8_t> xv(C * H * H), wv(M * C * k * k);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<uint8_t>((i * 37) % 256);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<uint8_t>((i * 91) % 256);
  const Tensor x = Tensor::FromVector<uint8_t>(DataType::kUint8, {1, C, H, H}, xv);
  const Tensor w = Tensor::FromVector<uint8_t>(DataType::kUint8, {M, C, k, k}, wv);
  const Tensor xz = Tensor::Scalar<uint8_t>(DataType::kUint8, 128),
               wz = Tensor::Scalar<uint8_t>(DataType::kUint8, wz_value);
  if (FirstCall("ConvInteger", st, 3)) {
    const std::string name =
        absl::StrFormat("ConvInteger C=%d M=%d HW=%d wz=%d", C, M, H, wz_value);
    auto first = ev.Run({x, w, xz, wz});
    if (!first.ok())
      AbortOnMismatch(absl::StrCat(name, " does not run: ", first.status().message()));
    const Tensor& y = (*first)[0].tensor();
    if (y.dtype() != DataType::kInt32 || y.dims() != std::vector<int64_t>{1, M, H, H}) {
      AbortOnMismatch(absl::StrCat(name, ": output ", y.ShapeString()));
    }
    const int32_t* got = y.data<int32_t>();
    for (int64_t m = 0; m < M; ++m) {  // every output, exactly
      for (int64_t p = 0; p < H * H; ++p) {
        int64_t acc = 0;
        for (int64_t c = 0; c < C; ++c) {
          for (int64_t i = 0; i < k; ++i) {
            for (int64_t j = 0; j < k; ++j) {
              const int64_t ih = p / H - 1 + i, iw = p % H - 1 + j;
              if (ih < 0 || ih >= H || iw < 0 || iw >= H) continue;
              acc += (int64_t{xv[(c * H + ih) * H + iw]} - 128) *
                     (int64_t{wv[((m * C + c) * k + i) * k + j]} - wz_value);
            }
          }
        }
        if (got[m * H * H + p] != acc) {
          AbortOnMismatch(
              absl::StrFormat("%s: output channel %d position %d is %d, the integer loop gives %d",
                              name, m, p, got[m * H * H + p], acc));
        }
      }
    }
  }
  const double seconds = TimedLoop(st, [&] {
    auto r = ev.Run({x, w, xz, wz});
    benchmark::DoNotOptimize(r);
  });
  st.counters["GOP/s"] =
      ConvFlops(C, M, H, k, 1, 1) * static_cast<double>(st.iterations()) / seconds / 1e9;
}
BENCHMARK(BM_ConvInteger)
    ->ArgNames({"C", "M", "HW", "wz"})
    ->Args({64, 64, 56, 128})
    ->Unit(benchmark::kMillisecond);

// MatMulInteger as a dynamically quantized BERT layer runs it: uint8 activations (zero point 128)
// times int8 weights (zero point 0), 128 x 768 x 768, checked once against an exact integer loop.
void BM_MatMulInteger(benchmark::State& st) {
  const int64_t M = st.range(0), N = st.range(1), K = st.range(2);
  ir::Graph g("matmul_integer");
  ir::Node* n =
      g.AddNode("MatMulInteger",
                {g.AddInput("a"), g.AddInput("b"), g.AddInput("az"), g.AddInput("bz")}, {"y"});
  g.AddOutput(n->output(0));
  Evaluator ev(g, {{"", 10}});
  std::vector<uint8_t> av(M * K);
  std::vector<int8_t> bv(K * N);
  for (size_t i = 0; i < av.size(); ++i) av[i] = static_cast<uint8_t>((i * 37) % 256);
  for (size_t i = 0; i < bv.size(); ++i) bv[i] = static_cast<int8_t>((i * 91) % 256 - 128);
  const Tensor a = Tensor::FromVector<uint8_t>(DataType::kUint8, {M, K}, av);
  const Tensor b = Tensor::FromVector<int8_t>(DataType::kInt8, {K, N}, bv);
  const Tensor az = Tensor::Scalar<uint8_t>(DataType::kUint8, 128),
               bz = Tensor::Scalar<int8_t>(DataType::kInt8, 0);
  if (FirstCall("MatMulInteger", st, 3)) {
    const std::string name = absl::StrFormat("MatMulInteger %dx%dx%d", M, N, K);
    auto first = ev.Run({a, b, az, bz});
    if (!first.ok())
      AbortOnMismatch(absl::StrCat(name, " does not run: ", first.status().message()));
    const int32_t* got = (*first)[0].tensor().data<int32_t>();
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        int64_t acc = 0;
        for (int64_t kk = 0; kk < K; ++kk) acc += (int64_t{av[i * K + kk]} - 128) * bv[kk * N + j];
        if (got[i * N + j] != acc) {
          AbortOnMismatch(absl::StrFormat("%s: element %d,%d is %d, the integer loop gives %d",
                                          name, i, j, got[i * N + j], acc));
        }
      }
    }
  }
  const double seconds = TimedLoop(st, [&] {
    auto r = ev.Run({a, b, az, bz});
    benchmark::DoNotOptimize(r);
  });
  st.counters["GOP/s"] = 2.0 * M * N * K * static_cast<double>(st.iterations()) / seconds / 1e9;
}
BENCHMARK(BM_MatMulInteger)
    ->ArgNames({"M", "N", "K"})
    ->Args({128, 768, 768})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace onnx_opt::interpreter

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  onnx_opt::interpreter::PrintPeaks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
