#include "interpreter/tensor_buffer_pool.h"

#include <sanitizer/asan_interface.h>  // no-op macros outside AddressSanitizer builds

#include <bit>
#include <cstdlib>

#include "glog/logging.h"

namespace onnx_opt::interpreter {

namespace {

thread_local TensorBufferPool* current_pool = nullptr;

// Size classes: four per power of two, 2^e * (1 + q/4) bytes, indexed e * 4 + q.
int SizeClass(size_t bytes) {
  const int e = std::bit_width(bytes) - 1;
  const size_t base = size_t{1} << e;
  const size_t step = base >> 2;
  const size_t q = (bytes - base + step - 1) / step;  // 0..4
  return e * 4 + static_cast<int>(q);                 // q == 4 is the next power's class 0
}

size_t SizeOfClass(int size_class) {
  const int e = size_class / 4;
  const size_t base = size_t{1} << e;
  return base + (base >> 2) * static_cast<size_t>(size_class % 4);
}

}  // namespace

struct TensorBufferPool::Returner {
  std::shared_ptr<TensorBufferPool> pool;
  int size_class;
  void operator()(void* data) const { pool->Return(data, size_class); }
};

std::shared_ptr<TensorBufferPool> TensorBufferPool::Create() {
  return std::shared_ptr<TensorBufferPool>(new TensorBufferPool());
}

TensorBufferPool::~TensorBufferPool() { Close(); }

size_t TensorBufferPool::ClassBytes(size_t bytes) { return SizeOfClass(SizeClass(bytes)); }

std::shared_ptr<void> TensorBufferPool::Take(size_t bytes) {
  DCHECK(bytes >= kPooledFrom && bytes <= kPooledUpTo) << bytes;
  const int size_class = SizeClass(bytes);
  void* data = nullptr;
  {
    absl::MutexLock lock(&mu_);
    if (static_cast<size_t>(size_class) < free_.size() && !free_[size_class].empty()) {
      data = free_[size_class].back();
      free_[size_class].pop_back();
      kept_bytes_ -= SizeOfClass(size_class);
    }
  }
  // Kept buffers are poisoned, so that AddressSanitizer still reports a tensor read after it died.
  if (data != nullptr) ASAN_UNPOISON_MEMORY_REGION(data, SizeOfClass(size_class));
  if (data == nullptr) {
    data = std::aligned_alloc(64, SizeOfClass(size_class));
    if (data == nullptr) return nullptr;
  }
  return std::shared_ptr<void>(data, Returner{shared_from_this(), size_class});
}

void TensorBufferPool::Return(void* data, int size_class) {
  const size_t size = SizeOfClass(size_class);
  {
    absl::MutexLock lock(&mu_);
    if (!closed_ && kept_bytes_ + size <= kMaxKeptBytes) {
      if (free_.size() <= static_cast<size_t>(size_class)) free_.resize(size_class + 1);
      ASAN_POISON_MEMORY_REGION(data, size);
      free_[size_class].push_back(data);
      kept_bytes_ += size;
      return;
    }
  }
  std::free(data);
}

void TensorBufferPool::Close() {
  std::vector<std::vector<void*>> kept;
  {
    absl::MutexLock lock(&mu_);
    closed_ = true;
    kept.swap(free_);
    kept_bytes_ = 0;
  }
  for (size_t c = 0; c < kept.size(); ++c) {
    for (void* data : kept[c]) {
      ASAN_UNPOISON_MEMORY_REGION(data, SizeOfClass(static_cast<int>(c)));
      std::free(data);
    }
  }
}

size_t TensorBufferPool::kept_bytes() const {
  absl::MutexLock lock(&mu_);
  return kept_bytes_;
}

TensorBufferPool::Use::Use(TensorBufferPool* pool) : previous_(current_pool) {
  current_pool = pool;
}

TensorBufferPool::Use::~Use() { current_pool = previous_; }

TensorBufferPool* TensorBufferPool::Current() { return current_pool; }

}  // namespace onnx_opt::interpreter
