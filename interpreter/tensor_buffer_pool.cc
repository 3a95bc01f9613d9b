#include "interpreter/tensor_buffer_pool.h"

#include <sanitizer/asan_interface.h>  // no-op macros outside AddressSanitizer builds

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "glog/logging.h"

namespace onnx_opt::interpreter {

namespace {

thread_local TensorBufferPool* current_pool = nullptr;

size_t RoundUp(size_t bytes, size_t to) { return (bytes + to - 1) / to * to; }

// Chunks are whole pages (std::aligned_alloc wants a multiple of the alignment).
constexpr size_t kChunkAlignment = 4096;

}  // namespace

struct TensorBufferPool::Returner {
  std::shared_ptr<TensorBufferPool> pool;
  Chunk* chunk;
  size_t bytes;
  void operator()(void* data) const { pool->Return(chunk, data, bytes); }
};

std::shared_ptr<TensorBufferPool> TensorBufferPool::Create() {
  return std::shared_ptr<TensorBufferPool>(new TensorBufferPool());
}

TensorBufferPool::~TensorBufferPool() { Close(); }

void* TensorBufferPool::Carve(Chunk& chunk, size_t bytes) {
  for (auto it = chunk.free_runs.begin(); it != chunk.free_runs.end(); ++it) {
    if (it->second < bytes) continue;
    const size_t offset = it->first, rest = it->second - bytes;
    chunk.free_runs.erase(it);
    if (rest > 0) chunk.free_runs.emplace(offset + bytes, rest);
    ++chunk.live;
    return chunk.base + offset;
  }
  return nullptr;
}

std::shared_ptr<void> TensorBufferPool::Take(size_t bytes) {
  DCHECK(bytes >= kPooledFrom && bytes <= kPooledUpTo) << bytes;
  bytes = RoundUp(bytes, kGranule);
  void* data = nullptr;
  Chunk* from = nullptr;
  {
    absl::MutexLock lock(&mu_);
    // The newest chunk first: it is the largest, the one the runs settle in.
    for (auto it = chunks_.rbegin(); it != chunks_.rend() && data == nullptr; ++it) {
      data = Carve(**it, bytes);
      from = it->get();
    }
    if (data == nullptr) {
      // A chunk for all the chunks before it hold and this request (the runs' peak outgrew them):
      // were it only as large as they are, a run needing just a little more than one chunk would
      // add a chunk, let the old one go and do the same on every run.
      const size_t grow = std::min(chunk_bytes_, kMaxGrowth) + bytes;
      auto chunk = std::make_unique<Chunk>();
      chunk->size = RoundUp(std::max(grow, kFirstChunk), kChunkAlignment);
      chunk->base = static_cast<char*>(std::aligned_alloc(kChunkAlignment, chunk->size));
      if (chunk->base == nullptr) return nullptr;
      ASAN_POISON_MEMORY_REGION(chunk->base, chunk->size);
      chunk->free_runs.emplace(0, chunk->size);
      chunk_bytes_ += chunk->size;
      kept_bytes_ += chunk->size;
      data = Carve(*chunk, bytes);
      from = chunk.get();
      chunks_.push_back(std::move(chunk));
      // Older chunks with nothing live go now (the others when their last buffer returns).
      for (size_t i = 0; i + 1 < chunks_.size();) {
        if (chunks_[i]->live == 0) {
          Release(chunks_[i].get());
        } else {
          ++i;
        }
      }
    }
    kept_bytes_ -= bytes;
  }
  // Free runs are poisoned, so that AddressSanitizer still reports a tensor read after it died.
  ASAN_UNPOISON_MEMORY_REGION(data, bytes);
  return std::shared_ptr<void>(data, Returner{shared_from_this(), from, bytes});
}

void TensorBufferPool::Return(Chunk* chunk, void* data, size_t bytes) {
  ASAN_POISON_MEMORY_REGION(data, bytes);
  absl::MutexLock lock(&mu_);
  size_t offset = static_cast<char*>(data) - chunk->base;
  size_t length = bytes;
  // Merged with the free runs on either side.
  auto next = chunk->free_runs.lower_bound(offset);
  if (next != chunk->free_runs.end() && next->first == offset + length) {
    length += next->second;
    next = chunk->free_runs.erase(next);
  }
  if (next != chunk->free_runs.begin()) {
    auto before = std::prev(next);
    if (before->first + before->second == offset) {
      offset = before->first;
      length += before->second;
      chunk->free_runs.erase(before);
    }
  }
  chunk->free_runs.emplace(offset, length);
  kept_bytes_ += bytes;
  if (--chunk->live == 0 && (closed_ || chunk != chunks_.back().get())) Release(chunk);
}

void TensorBufferPool::Release(Chunk* chunk) {
  DCHECK_EQ(chunk->live, 0);
  ASAN_UNPOISON_MEMORY_REGION(chunk->base, chunk->size);
  std::free(chunk->base);
  chunk_bytes_ -= chunk->size;
  kept_bytes_ -= chunk->size;
  auto it = std::find_if(chunks_.begin(), chunks_.end(),
                         [chunk](const std::unique_ptr<Chunk>& c) { return c.get() == chunk; });
  CHECK(it != chunks_.end());
  chunks_.erase(it);
}

void TensorBufferPool::Close() {
  absl::MutexLock lock(&mu_);
  closed_ = true;
  for (size_t i = 0; i < chunks_.size();) {
    if (chunks_[i]->live == 0) {
      Release(chunks_[i].get());
    } else {
      ++i;
    }
  }
}

size_t TensorBufferPool::kept_bytes() const {
  absl::MutexLock lock(&mu_);
  return kept_bytes_;
}

size_t TensorBufferPool::chunk_bytes() const {
  absl::MutexLock lock(&mu_);
  return chunk_bytes_;
}

TensorBufferPool::Use::Use(TensorBufferPool* pool) : previous_(current_pool) {
  current_pool = pool;
}

TensorBufferPool::Use::~Use() { current_pool = previous_; }

TensorBufferPool* TensorBufferPool::Current() { return current_pool; }

}  // namespace onnx_opt::interpreter
