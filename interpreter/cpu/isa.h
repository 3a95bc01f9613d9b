// The vector instruction set the interpreter's kernels run with. Kernels are compiled once per ISA
// (see simd/) into one binary; the best the CPU and OS support is picked at run time, so a binary
// built here still runs on an older x86-64 machine. ONNX_OPT_ISA=baseline|avx2|avx512 in the
// environment (or SetActiveIsa) lowers the choice, so tests can cover every path.
#ifndef ONNX_OPT_INTERPRETER_CPU_ISA_H_
#define ONNX_OPT_INTERPRETER_CPU_ISA_H_

#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace onnx_opt::interpreter {

// Ordered: each level implies the ones before it.
enum class Isa {
  kBaseline = 0,  // x86-64 (SSE2), or whatever the compiler targets by default elsewhere
  kAvx2 = 1,      // AVX2 + FMA + F16C
  kAvx512 = 2,    // AVX-512 F/CD/BW/DQ/VL + FMA
};

std::string_view IsaName(Isa isa);
absl::StatusOr<Isa> ParseIsa(std::string_view name);

// The best ISA this CPU and OS support (checked once).
Isa DetectedIsa();
// Whether the CPU (and OS) support AVX-512 VNNI, an extension some AVX-512 CPUs lack.
bool CpuHasAvx512Vnni();

// Every ISA up to DetectedIsa(), lowest first.
std::vector<Isa> SupportedIsas();

// The ISA kernels use: DetectedIsa(), lowered by ONNX_OPT_ISA when set (read once).
Isa ActiveIsa();

// Forces the ISA for the rest of the process (tests, `onnx-run --isa`); an ISA the CPU lacks is an
// error.
absl::Status SetActiveIsa(Isa isa);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_CPU_ISA_H_
