#include "tools/bench/machine_limits.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "interpreter/cpu/thread_pool.h"
#include "platform/memory_pages.h"

namespace onnx_opt::bench {
namespace {

using Clock = std::chrono::steady_clock;
using interpreter::Isa;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Each probe runs `iterations` rounds of 12 independent multiply-add chains held in registers
// (enough to cover the FMA latency on two units) and returns the FLOPs it did. The baseline has no
// FMA: a multiply and an add per lane. The volatile store keeps the chains from being optimized
// away.
#define ONNX_OPT_PROBE(NAME, TARGET, VEC, LANES, SET1, STEP, STOREU)              \
  TARGET double NAME(int64_t iterations) {                                        \
    const VEC a = SET1(0.999999f), b = SET1(1e-7f);                               \
    VEC c0 = SET1(1.00f), c1 = SET1(1.01f), c2 = SET1(1.02f), c3 = SET1(1.03f);   \
    VEC c4 = SET1(1.04f), c5 = SET1(1.05f), c6 = SET1(1.06f), c7 = SET1(1.07f);   \
    VEC c8 = SET1(1.08f), c9 = SET1(1.09f), c10 = SET1(1.10f), c11 = SET1(1.11f); \
    for (int64_t it = 0; it < iterations; ++it) {                                 \
      c0 = STEP(c0, a, b);                                                        \
      c1 = STEP(c1, a, b);                                                        \
      c2 = STEP(c2, a, b);                                                        \
      c3 = STEP(c3, a, b);                                                        \
      c4 = STEP(c4, a, b);                                                        \
      c5 = STEP(c5, a, b);                                                        \
      c6 = STEP(c6, a, b);                                                        \
      c7 = STEP(c7, a, b);                                                        \
      c8 = STEP(c8, a, b);                                                        \
      c9 = STEP(c9, a, b);                                                        \
      c10 = STEP(c10, a, b);                                                      \
      c11 = STEP(c11, a, b);                                                      \
    }                                                                             \
    float lanes[LANES];                                                           \
    STOREU(lanes, c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9 + c10 + c11);   \
    volatile float sink = lanes[0];                                               \
    (void)sink;                                                                   \
    return 2.0 * LANES * 12 * iterations;                                         \
  }

#define ONNX_OPT_SSE_STEP(c, a, b) _mm_add_ps(_mm_mul_ps(c, a), b)
ONNX_OPT_PROBE(ProbeAvx512, __attribute__((target("avx512f"))), __m512, 16, _mm512_set1_ps,
               _mm512_fmadd_ps, _mm512_storeu_ps)
ONNX_OPT_PROBE(ProbeAvx2, __attribute__((target("avx2,fma"))), __m256, 8, _mm256_set1_ps,
               _mm256_fmadd_ps, _mm256_storeu_ps)
ONNX_OPT_PROBE(ProbeBaseline, , __m128, 4, _mm_set1_ps, ONNX_OPT_SSE_STEP, _mm_storeu_ps)
#undef ONNX_OPT_SSE_STEP
#undef ONNX_OPT_PROBE

// The value of the first "`field`\t: value" line of /proc/cpuinfo.
std::optional<std::string> CpuinfoField(std::string_view field) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos || line.rfind(field, 0) != 0) continue;
    // The name is padded with tabs up to the colon; "cpu MHz" must not match "cpu MHz dynamic".
    const std::string_view name = std::string_view(line).substr(0, colon);
    if (name.find_first_not_of(" \t", field.size()) != std::string_view::npos) continue;
    const size_t value = line.find_first_not_of(' ', colon + 1);
    return value == std::string::npos ? "" : line.substr(value);
  }
  return std::nullopt;
}

// The sum of n floats (n a multiple of 32) in eight independent 4-lane vector accumulators (SSE2,
// which every x86-64 has): two loads and adds per cycle are far more than memory delivers, so a
// pass runs at memory speed. (DynamicQuantizeLinear's min/max kernel, tried first, ran at a third
// of the skinny GEMM's speed: not a streaming read.)
float StreamingSum(const float* x, int64_t n) {
  typedef float V4 __attribute__((vector_size(16)));
  V4 acc[8] = {};
  for (int64_t i = 0; i + 32 <= n; i += 32) {
    for (int v = 0; v < 8; ++v) {
      V4 t;
      __builtin_memcpy(&t, x + i + 4 * v, sizeof(t));
      acc[v] += t;
    }
  }
  V4 total = {};
  for (const V4& v : acc) total += v;
  return total[0] + total[1] + total[2] + total[3];
}

}  // namespace

double PeakGflops(Isa isa) {
  static std::mutex mutex;
  static std::map<Isa, double> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(isa);
  if (it != cache.end()) return it->second;
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    const auto start = Clock::now();
    const int64_t iterations = 20'000'000;
    const double flops = isa == Isa::kAvx512 ? ProbeAvx512(iterations)
                         : isa == Isa::kAvx2 ? ProbeAvx2(iterations)
                                             : ProbeBaseline(iterations);
    best = std::max(best, flops / Seconds(start, Clock::now()) / 1e9);
  }
  return cache[isa] = best;
}

int IsaLanes(Isa isa) { return isa == Isa::kAvx512 ? 16 : (isa == Isa::kAvx2 ? 8 : 4); }

double NominalGhz() {
  const std::optional<std::string> mhz = CpuinfoField("cpu MHz");
  return mhz ? std::atof(mhz->c_str()) / 1000 : 0;
}

std::string CpuModelName() {
  std::optional<std::string> name = CpuinfoField("model name");
  return name && !name->empty() ? *name : "unknown";
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

void FreeBenchBytes::operator()(uint8_t* p) const { std::free(p); }

BenchBytes AllocateBenchBytes(int64_t bytes, bool huge_pages) {
  const size_t whole =
      (static_cast<size_t>(bytes) + platform::kHugePageBytes - 1) & ~(platform::kHugePageBytes - 1);
  BenchBytes p(static_cast<uint8_t*>(std::aligned_alloc(platform::kHugePageBytes, whole)));
  if (p != nullptr && huge_pages) platform::AdviseHugePages(p.get(), whole);
  return p;
}

double ReadBandwidth(const float* x, int64_t n, int rounds) {
  constexpr int64_t kChunk = int64_t{1} << 18, kSlice = int64_t{1} << 24;
  std::vector<double> times;
  volatile float sink = 0;
  const int64_t slices = std::max<int64_t>(1, n / kSlice);
  for (int r = 0; r < rounds; ++r) {
    for (int64_t s = 0; s < slices; ++s) {
      const float* slice = x + s * kSlice;
      const int64_t m = std::min(kSlice, n);
      std::vector<float> sums((m + kChunk - 1) / kChunk, 0.0f);
      const auto t0 = Clock::now();
      interpreter::ParallelFor(
          static_cast<int64_t>(sums.size()), 1, [&](int64_t begin, int64_t end) {
            for (int64_t c = begin; c < end; ++c)
              sums[c] = StreamingSum(slice + c * kChunk, std::min(kChunk, m - c * kChunk));
          });
      times.push_back(Seconds(t0, Clock::now()) / static_cast<double>(m));
      for (float v : sums) sink = sink + v;
    }
  }
  return sizeof(float) / Median(times);
}

absl::StatusOr<double> ReadBandwidthGBs(int threads, const BandwidthOptions& options) {
  if (threads < 1 || options.rounds < 1 || options.bytes < 128) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "read bandwidth: %d threads, %d rounds on %d bytes: need at least 1, 1, 128", threads,
        options.rounds, options.bytes));
  }
  const int64_t n = options.bytes / sizeof(float) / 32 * 32;  // whole StreamingSum blocks
  BenchBytes bytes = AllocateBenchBytes(n * sizeof(float), options.huge_pages);
  if (bytes == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrCat("read bandwidth: out of memory for a buffer of ", options.bytes, " bytes"));
  }
  float* buffer = reinterpret_cast<float*>(bytes.get());
  std::fill(buffer, buffer + n, 1.0f);  // every page touched before the clock starts
  const int previous_threads = interpreter::NumThreads();
  interpreter::SetNumThreads(threads);
  const double bytes_per_second = ReadBandwidth(buffer, n, options.rounds);
  interpreter::SetNumThreads(previous_threads);
  return bytes_per_second / 1e9;
}

}  // namespace onnx_opt::bench
