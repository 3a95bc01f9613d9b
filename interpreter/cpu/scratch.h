// A growable, 64-byte aligned buffer that a kernel keeps per thread (thread_local) and reuses from
// call to call. A fresh buffer each call costs more than its allocation: glibc serves large ones
// from new mappings, whose pages are faulted in and cleared on every call (a process that has not
// tuned its heap, as a Python module's host has not: ResNet-50's 3x3 layers at 56x56 ran 30%
// slower with a column panel allocated per call), and a std::vector would also zero-fill it.
//
// Compiled once, at the baseline ISA (scratch.cc), for the kernels of every ISA: an inline member
// would be emitted by each ISA's sources and the linker could keep the AVX-512 copy for all.
#ifndef ONNX_OPT_INTERPRETER_CPU_SCRATCH_H_
#define ONNX_OPT_INTERPRETER_CPU_SCRATCH_H_

#include <cstdint>
#include <memory>

namespace onnx_opt::interpreter {

class Scratch {
 public:
  // The most a caller should keep in one for good: a larger buffer would stay with its thread for
  // the life of the process. Above it, allocate for the call (ArrayOrOwn).
  static constexpr int64_t kMaxKeptBytes = int64_t{64} << 20;

  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch();

  // At least `bytes` bytes, 64-byte aligned; the old contents are not kept when it grows. Aborts
  // when memory runs out, as a failed tensor allocation does.
  void* Get(int64_t bytes);

  // The same for `count` elements of T.
  template <typename T>
  T* Array(int64_t count) {
    return static_cast<T*>(Get(count * static_cast<int64_t>(sizeof(T))));
  }

  // `count` elements of T from this buffer when they fit in kMaxKeptBytes, else from `own`, which
  // the caller holds for the call.
  template <typename T>
  T* ArrayOrOwn(int64_t count, std::unique_ptr<T[]>& own) {
    if (count * static_cast<int64_t>(sizeof(T)) <= kMaxKeptBytes) return Array<T>(count);
    own.reset(new T[static_cast<size_t>(count)]);
    return own.get();
  }

 private:
  void* data_ = nullptr;
  int64_t size_ = 0;
};

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_CPU_SCRATCH_H_
