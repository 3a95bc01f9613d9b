// The interpreter's threads: one process-wide pool, sized by SetNumThreads (default 1: no thread is
// ever started). Kernels split their work with ParallelFor into FIXED chunks whose bounds depend
// only on the problem, never on the thread count, and each chunk computes the same bits whichever
// thread runs it, so results are identical with 1, 2 or 64 threads.
//
//   ParallelFor(rows, /*chunk=*/64, [&](int64_t begin, int64_t end) {
//     for (int64_t r = begin; r < end; ++r) ...;
//   });
#ifndef ONNX_OPT_INTERPRETER_CPU_THREAD_POOL_H_
#define ONNX_OPT_INTERPRETER_CPU_THREAD_POOL_H_

#include <cstdint>
#include <functional>

namespace onnx_opt::interpreter {

// Threads that run a ParallelFor, the calling thread included; values below 1 mean 1. The workers
// (n - 1 threads) start at the first ParallelFor that can use them, so a process that never runs a
// large enough kernel stays single-threaded (glibc's malloc and others are slower in a process that
// has ever had a second thread: 15% on model_bench's small_ops). A new count takes effect at the
// next ParallelFor; one already running finishes on the workers it started with.
void SetNumThreads(int n);
int NumThreads();

// Calls fn(begin, end) for [0, chunk), [chunk, 2 * chunk), ... up to n (the last one shorter), each
// chunk exactly once, on the calling thread and the pool's workers, and returns when all are done.
// Each thread starts on its own contiguous run of chunks (the caller on the first) and then helps
// with what is left of the others', so consecutive kernels split alike leave each thread the data
// its own core wrote. With one thread, or when called from inside another ParallelFor's chunk, it
// loops over the same chunks inline, in order. chunk < 1 counts as 1. fn must not throw.
void ParallelFor(int64_t n, int64_t chunk,
                 const std::function<void(int64_t begin, int64_t end)>& fn);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_CPU_THREAD_POOL_H_
