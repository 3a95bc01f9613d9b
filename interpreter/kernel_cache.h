// What a kernel derives from a constant input (weights reordered for its inner loop) and keeps for
// later runs of the same node: one cache per step of an execution plan, so an evaluator kept across
// runs (onnx-run --repeat, a Python Session) pays for the work once.
#ifndef ONNX_OPT_INTERPRETER_KERNEL_CACHE_H_
#define ONNX_OPT_INTERPRETER_KERNEL_CACHE_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "interpreter/tensor.h"

namespace onnx_opt::interpreter {

class KernelCache {
 public:
  // What was kept of kind `kind` (a tag per type of derived value) for input `input` when it was
  // derived from this very tensor (its storage, type and dims), else null. The entry holds the
  // source's storage, so that storage cannot be reused for another tensor (or written in place)
  // while the entry lives.
  std::shared_ptr<const void> Find(size_t input, const void* kind, const Tensor& source) const;
  // Keeps `value` of kind `kind` for input `input` derived from `source`, replacing what was kept
  // of that kind for it.
  void Keep(size_t input, const void* kind, const Tensor& source,
            std::shared_ptr<const void> value);

 private:
  struct Entry {
    size_t input;
    const void* kind;
    Tensor source;
    std::shared_ptr<const void> value;
  };
  mutable absl::Mutex mu_;
  std::vector<Entry> entries_ ABSL_GUARDED_BY(mu_);
};

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_KERNEL_CACHE_H_
