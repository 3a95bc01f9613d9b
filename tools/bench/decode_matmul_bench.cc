// Decode-step MatMuls (a few rows of A against a large weight) against the machine's memory
// bandwidth. Such a product does 2M flops per weight, so its speed is how fast the weight streams
// from memory: the figure of merit is weight bytes per second as a share of the bandwidth a plain
// streaming sum reaches on the same threads. Weights are cycled through copies totalling --gib GiB,
// so no call finds its weight in a cache (this machine reports a very large L3).
//
// For each ISA this CPU has (or --isa), thread count (1 and --threads) and shape (K x N of 4096 and
// of the 1 GiB MLP, ir/io:make_large_model: 8192; M = 1 and 4): the float skinny GEMM (what MatMul
// and Gemm run for M <= 8; B as K x N, and as N x K for Gemm's transB), the blocked GEMM it
// replaced for these shapes (tiles of 512 columns, as kernels/gemm.cc cut them), and the fused
// dequantize-and-multiply on int8 (one scale per column) and int4 (blocks of 32 along K, packed two
// a byte as the model file holds them and the interpreter reads them). MatMulNBits' 4-bit weight
// (com.microsoft; [N, K / 32, 16] bytes, blocks of 32, scales and packed zero points per block):
// the fused dot products of decode steps (SkinnyGemm4BitRows) against the path all shapes took
// before it, the whole weight dequantized to floats and then multiplied (timed on a few copies
// only: it takes ~100x longer).
//
// --huge_pages puts the weights and the bandwidth buffer on 2 MiB pages, as onnx-run --repeat holds
// a model's weights (ir/resident_weights.h); --types picks the weight types timed.
//
//   bazel run -c opt //tools/bench:decode_matmul_bench [-- --threads=2 --isa=avx2 --gib=1
//   --sizes=4096 --huge_pages --types=f32,int4]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "gflags/gflags.h"
#include "glog/logging.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/gemm.h"
#include "tools/bench/machine_limits.h"

DEFINE_int32(threads, 0, "threads besides 1 (default: the CPU's cores)");
DEFINE_string(isa, "", "one ISA (baseline, avx2, avx512) instead of every one the CPU has");
DEFINE_double(gib, 1.0, "GiB of weight copies to cycle through (more than the caches)");
DEFINE_string(sizes, "4096,8192", "K = N of the weights, comma-separated");
DEFINE_string(types, "f32,int8,int4,nbits", "weight types to time, comma-separated");
DEFINE_int32(rounds, 3, "passes over the copies per measurement (median per call)");
DEFINE_bool(bandwidth_only, false, "print the read bandwidth lines alone (for decode_step_bench)");
DEFINE_bool(huge_pages, false,
            "weights and the bandwidth buffer in transparent huge pages (2 MiB) instead of 4 KiB");

namespace onnx_opt::interpreter {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Bytes the bench reads, on 2 MiB boundaries and marked for huge pages with --huge_pages.
using Bytes = bench::BenchBytes;
Bytes AllocateBytes(int64_t size) {
  Bytes p = bench::AllocateBenchBytes(size, FLAGS_huge_pages);
  CHECK(p != nullptr) << "out of memory for " << size << " bytes";
  return p;
}

// Copies of one weight in one of the forms the bench times.
struct Weights {
  int64_t K, N, bytes_each;
  std::vector<Bytes> copies;
  std::vector<float> scales;         // int8: [N]; int4: [ceil(K / 32), N]; nbits: [N, ceil(K / 32)]
  std::vector<uint8_t> zero_points;  // nbits: [N, ceil(K / 64)], packed
  bool quantized = false;
  int64_t block_rows = 0;
};

Weights MakeWeights(int64_t K, int64_t N, const std::string& type, double gib) {
  const bool four_bits = type == "int4" || type == "nbits";
  const int64_t nbits_bytes = N * ((K + 31) / 32) * 16;  // whole blocks, the last one padded
  const int64_t bytes = type == "f32"     ? K * N * 4
                        : type == "nbits" ? nbits_bytes
                        : four_bits       ? K * N / 2
                                          : K * N;
  Weights w{K, N, bytes, {}, {}, {}, type != "f32", four_bits ? 32 : K};
  const int64_t count = std::max<int64_t>(
      2, static_cast<int64_t>(gib * (1 << 30) / static_cast<double>(w.bytes_each)));
  for (int64_t c = 0; c < count; ++c) {
    Bytes p = AllocateBytes(w.bytes_each);
    if (type == "f32") {
      float* f = reinterpret_cast<float*>(p.get());
      for (int64_t i = 0; i < K * N; ++i)
        f[i] = static_cast<float>((i * 7 + c) % 13) * 0.01f - 0.06f;
    } else if (four_bits) {
      for (int64_t i = 0; i < w.bytes_each; ++i)
        p[i] = static_cast<uint8_t>((i * 7 + c) % 16 | ((i * 5 + c) % 16) << 4);
    } else {
      for (int64_t i = 0; i < K * N; ++i)
        p[i] = static_cast<uint8_t>(static_cast<int>((i * 7 + c) % 256) - 128);
    }
    w.copies.push_back(std::move(p));
  }
  if (w.quantized) w.scales.assign(((K - 1) / w.block_rows + 1) * N, 0.01f);
  if (type == "nbits") {
    w.zero_points.resize(N * (((K + 31) / 32 + 1) / 2));
    for (size_t i = 0; i < w.zero_points.size(); ++i)
      w.zero_points[i] = static_cast<uint8_t>(0x78 + i % 3);
  }
  return w;
}

// Median seconds per call over --rounds passes through the copies (the first `most` of them).
template <typename Call>
double TimeCalls(const Weights& w, Call call, size_t most = SIZE_MAX) {
  std::vector<double> times;
  call(w.copies[0].get());  // warm-up: threads started, code paged in
  for (int r = 0; r < FLAGS_rounds; ++r) {
    for (size_t i = 0; i < std::min(most, w.copies.size()); ++i) {
      const uint8_t* copy = w.copies[i].get();
      const auto t0 = Clock::now();
      call(copy);
      times.push_back(Seconds(t0, Clock::now()));
    }
  }
  return bench::Median(times);
}

// The blocked GEMM these shapes took before the skinny kernel: C in tiles of 512 columns, one
// leading-dimension call per tile, over the threads.
void BlockedGemm(int64_t M, int64_t N, int64_t K, const float* A, const float* B, float* C) {
  constexpr int64_t kTile = 512;
  const VectorKernels& vec = Vec();
  ParallelFor((N + kTile - 1) / kTile, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t j0 = t * kTile, n = std::min(kTile, N - j0);
      vec.gemm_ld_f32(false, false, M, n, K, 1.0f, A, K, B + j0, N, 0.0f, C + j0, N);
    }
  });
}

// MatMulNBits before the fused path: each weight unpacked (its bits, block and zero point found one
// at a time, as the kernel's general path still does) into a float [K, N], then the float GEMM.
void FullyDequantized(int64_t M, int64_t N, int64_t K, const float* A, const uint8_t* b,
                      const Weights& w, float* C) {
  const int64_t block = 32, blocks = (K + block - 1) / block, blob = 16, zp_row = (blocks + 1) / 2;
  std::vector<float> full(K * N);
  auto unpack = [](const uint8_t* p, int64_t i) { return (p[i * 4 / 8] >> (i * 4 % 8)) & 15; };
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t k = 0; k < K; ++k) {
      const int64_t g = k / block;
      const int32_t q = unpack(b + (n * blocks + g) * blob, k % block);
      const float zp = static_cast<float>(unpack(w.zero_points.data() + n * zp_row, g));
      full[k * N + n] = (static_cast<float>(q) - zp) * w.scales[n * blocks + g];
    }
  }
  Gemm<float>(false, false, M, N, K, 1.0f, A, full.data(), 0.0f, C);
}

void Report(const std::string& isa, int threads, int64_t M, const Weights& w,
            const std::string& what, double seconds, double bandwidth) {
  const double rate = static_cast<double>(w.bytes_each) / seconds;
  std::printf("%-8s %7d %3lld %5lld x %-5lld %-14s %9.3f ms %7.2f GB/s %6.1f%%\n", isa.c_str(),
              threads, static_cast<long long>(M), static_cast<long long>(w.K),
              static_cast<long long>(w.N), what.c_str(), seconds * 1e3, rate / 1e9,
              100.0 * rate / bandwidth);
}

int Main() {
  std::vector<Isa> isas = SupportedIsas();
  if (!FLAGS_isa.empty()) {
    absl::StatusOr<Isa> isa = ParseIsa(FLAGS_isa);
    if (!isa.ok() || *isa > DetectedIsa()) {
      std::fprintf(stderr, "decode_matmul_bench: --isa=%s: not an ISA this CPU has\n",
                   FLAGS_isa.c_str());
      return 2;
    }
    isas = {*isa};
  }
  const int most = FLAGS_threads > 0
                       ? FLAGS_threads
                       : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<int> thread_counts = {1};
  if (most > 1) thread_counts.push_back(most);

  // Bandwidth per thread count, on a buffer of --gib GiB.
  std::vector<double> bandwidth;
  {
    const int64_t n = static_cast<int64_t>(FLAGS_gib * (1 << 30)) / 4;
    Bytes bytes = AllocateBytes(n * 4);
    float* buffer = reinterpret_cast<float*>(bytes.get());
    std::fill(buffer, buffer + n, 1.0f);
    for (int t : thread_counts) {
      SetNumThreads(t);
      bandwidth.push_back(bench::ReadBandwidth(buffer, n, FLAGS_rounds));
      std::printf("read bandwidth, %d thread(s): %.2f GB/s\n", t, bandwidth.back() / 1e9);
    }
  }
  if (FLAGS_bandwidth_only) return 0;
  std::printf("\n%-8s %7s %3s %13s %-14s %12s %12s %7s\n", "isa", "threads", "M", "K x N", "kernel",
              "per call", "weights", "of bw");
  for (absl::string_view field : absl::StrSplit(FLAGS_sizes, ',')) {
    int64_t size = 0;
    if (!absl::SimpleAtoi(field, &size) || size < 1) {
      std::fprintf(stderr, "decode_matmul_bench: --sizes: '%s' is not a size\n",
                   std::string(field).c_str());
      return 2;
    }
    for (const std::string type : {"f32", "int8", "int4", "nbits"}) {
      const std::vector<std::string> wanted = absl::StrSplit(FLAGS_types, ',');
      if (std::find(wanted.begin(), wanted.end(), type) == wanted.end()) continue;
      const Weights w = MakeWeights(size, size, type, FLAGS_gib);
      std::vector<float> a(8 * size, 0.5f), c(8 * size);
      for (Isa isa : isas) {
        if (!SetActiveIsa(isa).ok()) return 2;
        for (size_t ti = 0; ti < thread_counts.size(); ++ti) {
          SetNumThreads(thread_counts[ti]);
          for (int64_t M : {1, 4}) {
            const std::string name(IsaName(isa));
            if (!w.quantized) {
              // Old and new alternate per shape, so drifting machine load hits both alike.
              const double skinny = TimeCalls(w, [&](const uint8_t* b) {
                Gemm<float>(false, false, M, size, size, 1.0f, a.data(),
                            reinterpret_cast<const float*>(b), 0.0f, c.data());
              });
              const double blocked = TimeCalls(w, [&](const uint8_t* b) {
                BlockedGemm(M, size, size, a.data(), reinterpret_cast<const float*>(b), c.data());
              });
              const double transposed = TimeCalls(w, [&](const uint8_t* b) {
                Gemm<float>(false, true, M, size, size, 1.0f, a.data(),
                            reinterpret_cast<const float*>(b), 0.0f, c.data());
              });
              Report(name, thread_counts[ti], M, w, "f32 skinny", skinny, bandwidth[ti]);
              Report(name, thread_counts[ti], M, w, "f32 skinny B^T", transposed, bandwidth[ti]);
              Report(name, thread_counts[ti], M, w, "f32 blocked", blocked, bandwidth[ti]);
            } else if (type == "nbits") {
              // Old and new alternate per shape, as above.
              const int64_t blocks = (size + 31) / 32;
              const Blocked4BitRows rows{nullptr, blocks, 32, w.scales.data(),
                                         w.zero_points.data()};
              // A's rows padded with zeros to whole blocks, as the kernel pads them.
              std::vector<float> padded(M * blocks * 32, 0.0f);
              for (int64_t i = 0; i < M; ++i)
                std::copy(a.begin() + i * size, a.begin() + (i + 1) * size,
                          padded.begin() + i * blocks * 32);
              const double fused = TimeCalls(w, [&](const uint8_t* b) {
                Blocked4BitRows r = rows;
                r.data = b;
                SkinnyGemm4BitRows(M, size, padded.data(), blocks * 32, r, c.data());
              });
              const double full = TimeCalls(
                  w,
                  [&](const uint8_t* b) {
                    FullyDequantized(M, size, size, a.data(), b, w, c.data());
                  },
                  2);
              Report(name, thread_counts[ti], M, w, "nbits fused", fused, bandwidth[ti]);
              Report(name, thread_counts[ti], M, w, "nbits dequant", full, bandwidth[ti]);
            } else {
              const double fused = TimeCalls(w, [&](const uint8_t* b) {
                const bool packed = type == "int4";
                const QuantizedMatrix q{b,       true,          packed ? size / 2 : size,
                                        size,    w.block_rows,  w.scales.data(),
                                        nullptr, packed ? 4 : 8};
                SkinnyQuantizedGemm(M, size, size, a.data(), q, c.data());
              });
              Report(name, thread_counts[ti], M, w, type + " fused", fused, bandwidth[ti]);
            }
          }
        }
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace onnx_opt::interpreter

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return onnx_opt::interpreter::Main();
}
