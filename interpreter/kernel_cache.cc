#include "interpreter/kernel_cache.h"

#include <utility>

namespace onnx_opt::interpreter {

std::shared_ptr<const void> KernelCache::Find(size_t input, const void* kind,
                                              const Tensor& source) const {
  absl::MutexLock lock(&mu_);
  for (const Entry& e : entries_) {
    if (e.input == input && e.kind == kind && e.source.SharesStorageWith(source)) return e.value;
  }
  return nullptr;
}

void KernelCache::Keep(size_t input, const void* kind, const Tensor& source,
                       std::shared_ptr<const void> value) {
  absl::MutexLock lock(&mu_);
  for (Entry& e : entries_) {
    if (e.input == input && e.kind == kind) {
      e.source = source;
      e.value = std::move(value);
      return;
    }
  }
  entries_.push_back(Entry{input, kind, source, std::move(value)});
}

}  // namespace onnx_opt::interpreter
