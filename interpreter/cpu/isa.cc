#include "interpreter/cpu/isa.h"

#if defined(__x86_64__)
// glibc 2.36's header spells its return types with C's _Bool, which g++ accepts in C++ and clang++
// does not.
#if defined(__clang__)
#define _Bool bool
#endif
#include <sys/platform/x86.h>
#if defined(__clang__)
#undef _Bool
#endif
#endif

#include <atomic>
#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"

namespace onnx_opt::interpreter {
namespace {

// glibc's view of the CPU, which it made at start-up for its own string functions: "active" means
// the CPU has the feature and the OS saves its registers (XGETBV). libgcc's __builtin_cpu_supports
// would run CPUID again from a static initializer of every tool, and each CPUID is a trap to the
// hypervisor on a VM (~7 us on the machine this was measured on).
Isa Detect() {
#if defined(__x86_64__)
  if (CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(AVX512BW) && CPU_FEATURE_ACTIVE(AVX512DQ) &&
      CPU_FEATURE_ACTIVE(AVX512VL) && CPU_FEATURE_ACTIVE(AVX512CD) && CPU_FEATURE_ACTIVE(FMA)) {
    return Isa::kAvx512;
  }
  if (CPU_FEATURE_ACTIVE(AVX2) && CPU_FEATURE_ACTIVE(FMA)) return Isa::kAvx2;
#endif
  return Isa::kBaseline;
}

Isa FromEnvironment() {
  const Isa detected = DetectedIsa();
  const char* env = std::getenv("ONNX_OPT_ISA");
  if (env == nullptr || *env == '\0') return detected;
  absl::StatusOr<Isa> wanted = ParseIsa(env);
  if (!wanted.ok()) {
    LOG(WARNING) << "ignoring ONNX_OPT_ISA: " << wanted.status().message();
    return detected;
  }
  if (*wanted > detected) {
    LOG(WARNING) << "ONNX_OPT_ISA=" << env << " is not supported by this CPU; using "
                 << IsaName(detected);
    return detected;
  }
  return *wanted;
}

std::atomic<int>& Active() {
  static std::atomic<int> active{static_cast<int>(FromEnvironment())};
  return active;
}

}  // namespace

bool CpuHasAvx512Vnni() {
#if defined(__x86_64__)
  static const bool has = DetectedIsa() == Isa::kAvx512 && CPU_FEATURE_ACTIVE(AVX512_VNNI);
  return has;
#else
  return false;
#endif
}

std::string_view IsaName(Isa isa) {
  switch (isa) {
    case Isa::kBaseline:
      return "baseline";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512:
      return "avx512";
  }
  return "unknown";
}

absl::StatusOr<Isa> ParseIsa(std::string_view name) {
  const std::string lower = absl::AsciiStrToLower(std::string(name));
  if (lower == "baseline" || lower == "sse2" || lower == "x86-64") return Isa::kBaseline;
  if (lower == "avx2") return Isa::kAvx2;
  if (lower == "avx512" || lower == "avx-512") return Isa::kAvx512;
  return absl::InvalidArgumentError(absl::StrCat("unknown instruction set '", std::string(name),
                                                 "' (expected baseline, avx2 or avx512)"));
}

Isa DetectedIsa() {
  static const Isa detected = Detect();
  return detected;
}

std::vector<Isa> SupportedIsas() {
  std::vector<Isa> isas;
  for (Isa isa : {Isa::kBaseline, Isa::kAvx2, Isa::kAvx512}) {
    if (isa <= DetectedIsa()) isas.push_back(isa);
  }
  return isas;
}

Isa ActiveIsa() { return static_cast<Isa>(Active().load(std::memory_order_relaxed)); }

absl::Status SetActiveIsa(Isa isa) {
  if (isa > DetectedIsa()) {
    return absl::InvalidArgumentError(
        absl::StrCat("this CPU does not support ", std::string(IsaName(isa)),
                     " (best: ", std::string(IsaName(DetectedIsa())), ")"));
  }
  Active().store(static_cast<int>(isa), std::memory_order_relaxed);
  return absl::OkStatus();
}

}  // namespace onnx_opt::interpreter
