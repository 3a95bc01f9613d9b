// What this machine can do at best, measured in the same process as the figures set against it: the
// FLOP rate one core reaches on an ISA (an FMA throughput probe) and the rate at which it reads
// memory (a streaming sum), so that a benchmark can report its kernels as shares of those limits.
//
//   const double peak = bench::PeakGflops(interpreter::Isa::kAvx512);   // one core, GFLOP/s
//   absl::StatusOr<double> gbs = bench::ReadBandwidthGBs(/*threads=*/2); // GB/s, 1 GiB buffer
//
// Both are probes, not specifications: they vary run to run as the machine's load and clock do.
#ifndef ONNX_OPT_TOOLS_BENCH_MACHINE_LIMITS_H_
#define ONNX_OPT_TOOLS_BENCH_MACHINE_LIMITS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "interpreter/cpu/isa.h"

namespace onnx_opt::bench {

// --- Compute

// The FLOP rate of one core on `isa`, in GFLOP/s: the best of five timed runs of 12 independent
// multiply-add chains in registers (the baseline has no FMA: a multiply and an add per lane).
// Measured once per ISA per process; `isa` must be one the CPU has (<= interpreter::DetectedIsa()).
double PeakGflops(interpreter::Isa isa);

// Float lanes in one vector register of `isa` (baseline 4, AVX2 8, AVX-512 16).
int IsaLanes(interpreter::Isa isa);

// The clock /proc/cpuinfo gives for the first CPU ("cpu MHz"), in GHz; 0 when it gives none.
double NominalGhz();

// The first CPU's "model name" from /proc/cpuinfo; "unknown" when there is none.
std::string CpuModelName();

// --- Memory

// Memory the benchmarks read: `bytes` rounded up to whole 2 MiB pages and aligned to one, marked
// for transparent huge pages when `huge_pages` (a kernel that refuses keeps 4 KiB pages). Null when
// out of memory.
struct FreeBenchBytes {
  void operator()(uint8_t* p) const;
};
using BenchBytes = std::unique_ptr<uint8_t[], FreeBenchBytes>;
BenchBytes AllocateBenchBytes(int64_t bytes, bool huge_pages);

// Read bandwidth over `x` (`n` floats, filled by the caller) on the interpreter's current thread
// count, in bytes per second: streaming sums over slices of 64 MiB taken in turn (so that none is
// in a cache when read), each slice in chunks of 1 MiB spread over the threads. The median over
// `rounds` passes of the slices, so a slice that lost its core to another process drops out.
double ReadBandwidth(const float* x, int64_t n, int rounds);

struct BandwidthOptions {
  int64_t bytes = int64_t{1} << 30;  // far more than the caches
  int rounds = 3;
  bool huge_pages = false;
};

// The middle of `values` (the upper middle for an even count; `values` must not be empty): the
// statistic the bandwidth probe reports, for figures set against it, so that a run that lost its
// core to another process drops out of both alike.
double Median(std::vector<double> values);

// ReadBandwidth on a buffer of its own on `threads` interpreter threads, in GB/s (1e9 bytes). The
// interpreter's thread count is restored before it returns.
absl::StatusOr<double> ReadBandwidthGBs(int threads, const BandwidthOptions& options = {});

}  // namespace onnx_opt::bench

#endif  // ONNX_OPT_TOOLS_BENCH_MACHINE_LIMITS_H_
