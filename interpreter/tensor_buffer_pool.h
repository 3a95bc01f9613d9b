// Tensor buffers that an evaluator carves out of a few large blocks of its own ("chunks") and takes
// back when their tensors die. A host process whose heap gives large blocks back to the system (a
// Python module's host; the tools tune theirs, platform/heap_tuning.h) otherwise maps and faults in
// every large output again on every run: ResNet-50 in `onnx_opt.Session` took ~2,000 page faults a
// run and 7% longer.
//
// A request takes the lowest-addressed free run of a chunk that holds it (first fit), so whatever
// its size, a tensor reuses the memory that the tensors before it just left, which is likely still
// in cache. Buffers of one size each (the size classes this pool used to keep) left a layer's
// output in a buffer last written a whole run earlier: MobileNetV2's 16 -> 96 channel expansion
// at 112x112 wrote its 4.8 MB output to memory long evicted from the 32 MB L3, 0.46 ms with the
// buffer in cache, 0.74 from memory.
//
// Chunks are added as the runs need them, each as large as all before it together plus the request
// that did not fit; a chunk smaller than the largest is freed as soon as no buffer in it is live,
// so the runs of a session settle in one chunk of about their peak of live pooled bytes. Buffers
// outlive the pool's owner (outputs returned to a caller); a chunk is freed when the pool is closed
// and its last buffer dies, on whatever thread that is.
#ifndef ONNX_OPT_INTERPRETER_TENSOR_BUFFER_POOL_H_
#define ONNX_OPT_INTERPRETER_TENSOR_BUFFER_POOL_H_

#include <cstddef>
#include <cstdint>
#include <map>
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
  // Larger ones are not pooled: they go back to the system when they die (a large model's widened
  // weights and embedding tables, hundreds of MB each, would otherwise stay resident for the
  // evaluator's life; their work dwarfs the cost of mapping them).
  static constexpr size_t kPooledUpTo = size_t{64} << 20;
  // Requests are rounded up to whole granules (each buffer starts 64-byte aligned on a granule).
  static constexpr size_t kGranule = 1024;
  // The least size of a chunk; a new one holds the total before it (at most kMaxGrowth of it) and
  // the request.
  static constexpr size_t kFirstChunk = size_t{1} << 20;
  static constexpr size_t kMaxGrowth = size_t{256} << 20;

  static std::shared_ptr<TensorBufferPool> Create();
  ~TensorBufferPool();
  TensorBufferPool(const TensorBufferPool&) = delete;
  TensorBufferPool& operator=(const TensorBufferPool&) = delete;

  // At least `bytes` (in [kPooledFrom, kPooledUpTo]) 64-byte aligned bytes, uninitialized; the
  // shared_ptr's deleter gives them back to this pool. nullptr when memory runs out.
  std::shared_ptr<void> Take(size_t bytes);
  // Frees the chunks with no live buffer; the others are freed when their last buffer dies.
  void Close();

  // Free bytes in the pool's chunks, and the chunks' total (for tests and statistics).
  size_t kept_bytes() const;
  size_t chunk_bytes() const;

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

 private:
  struct Chunk {
    char* base = nullptr;
    size_t size = 0;
    std::map<size_t, size_t> free_runs;  // offset -> length, disjoint and never adjacent
    int64_t live = 0;                    // buffers handed out and not yet returned
  };
  struct Returner;
  TensorBufferPool() = default;
  // Carves `bytes` (whole granules) out of `chunk`'s lowest free run that holds them, if any.
  static void* Carve(Chunk& chunk, size_t bytes);
  void Return(Chunk* chunk, void* data, size_t bytes);
  // Frees `chunk` (no live buffers) and drops it from chunks_.
  void Release(Chunk* chunk) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  std::vector<std::unique_ptr<Chunk>> chunks_ ABSL_GUARDED_BY(mu_);  // in order of creation
  size_t kept_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  size_t chunk_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_TENSOR_BUFFER_POOL_H_
