// Tensor buffers that an evaluator keeps when their tensors die and hands out again, most recently
// freed first (likeliest still in cache). A host process whose heap gives large blocks back to the
// system (a Python module's host; the tools tune theirs, platform/heap_tuning.h) otherwise maps and
// faults in every large output again on every run: ResNet-50 in `onnx_opt.Session` took ~2,000
// page faults a run and 7% longer. With a tuned heap runs take as long either way, and peak RSS is
// lower (MobileNetV2: 60 -> 52 MiB), since a buffer goes to the next tensor of its size class.
//
// A buffer is taken from a size class (quarter powers of two, so a request wastes at most 25%) and
// returned to its class's stack when the last tensor sharing it dies, on whatever thread that is.
// The pool frees what it keeps when it is closed (its evaluator dies); buffers still held by
// tensors (outputs returned to a caller) are freed when those die.
#ifndef ONNX_OPT_INTERPRETER_TENSOR_BUFFER_POOL_H_
#define ONNX_OPT_INTERPRETER_TENSOR_BUFFER_POOL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace onnx_opt::interpreter {

class TensorBufferPool : public std::enable_shared_from_this<TensorBufferPool> {
 public:
  // Smaller buffers come from the heap (its small-size caches are hot already, and a pooled
  // buffer's separate reference count would cost more than the buffer).
  static constexpr size_t kPooledFrom = size_t{16} << 10;
  // Larger ones are not pooled: they go back to the system when they die, as they did before (a
  // large model's widened weights and embedding tables, hundreds of MB each, would otherwise stay
  // resident for the evaluator's life; their work dwarfs the cost of mapping them).
  static constexpr size_t kPooledUpTo = size_t{64} << 20;
  // Free bytes kept at most; a buffer returned past it is freed.
  static constexpr size_t kMaxKeptBytes = size_t{512} << 20;

  static std::shared_ptr<TensorBufferPool> Create();
  ~TensorBufferPool();
  TensorBufferPool(const TensorBufferPool&) = delete;
  TensorBufferPool& operator=(const TensorBufferPool&) = delete;

  // At least `bytes` (in [kPooledFrom, kPooledUpTo]) 64-byte aligned bytes, uninitialized; the
  // shared_ptr's deleter gives them back to this pool. nullptr when memory runs out.
  std::shared_ptr<void> Take(size_t bytes);
  // Frees the kept buffers; later returns are freed too.
  void Close();

  // Bytes kept free now (for tests and statistics).
  size_t kept_bytes() const;

  // The pool that tensors created on this thread take their buffers from while it is alive (an
  // evaluator's run); restores the previous one on destruction.
  class Use {
   public:
    explicit Use(TensorBufferPool* pool);
    ~Use();
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

   private:
    TensorBufferPool* previous_;
  };
  // The pool of the innermost Use on this thread, or null.
  static TensorBufferPool* Current();

  // The capacity of the size class serving `bytes`.
  static size_t ClassBytes(size_t bytes);

 private:
  struct Returner;
  TensorBufferPool() = default;
  void Return(void* data, int size_class);

  mutable absl::Mutex mu_;
  std::vector<std::vector<void*>> free_ ABSL_GUARDED_BY(mu_);  // per size class, last freed last
  size_t kept_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_TENSOR_BUFFER_POOL_H_
