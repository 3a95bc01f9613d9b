#include "interpreter/cpu/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"

namespace onnx_opt::interpreter {
namespace {

// How long a worker looks for new work, and a caller for its helpers to finish, before sleeping on
// the mutex: the interpreter calls ParallelFor in bursts (one per large GEMM, with smaller ops
// between), and waking a sleeping thread costs 15-40 us here (a VM), as much as a small tile. With
// 2 threads, 500 us ran MobileNetV2 and BERT 5-10% faster than 100 us; without spinning MobileNetV2
// was slower on 2 threads than on 1. One thread never spins (there are no workers).
constexpr std::chrono::microseconds kSpin{500};

void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until done() or kSpin has passed; returns done().
template <typename Done>
bool SpinUntil(Done done) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      Pause();
    }
    if (std::chrono::steady_clock::now() - start > kSpin) return done();
  }
}

// Set while this thread runs a chunk: a ParallelFor inside it then runs inline (no
// oversubscription, and the chunks of the inner loop stay the same).
thread_local bool in_chunk = false;

// This thread's segment in a Job: 0 for a caller, its place among the pool's workers plus one for a
// worker (set when it starts).
thread_local int64_t lane = 0;

// Worker threads taking tasks from one queue; the destructor lets them finish what is queued.
class Workers {
 public:
  explicit Workers(int count) {
    threads_.reserve(count);
    for (int i = 0; i < count; ++i) {
      threads_.emplace_back([this, i] {
        lane = i + 1;
        Loop();
      });
    }
  }

  ~Workers() {
    {
      absl::MutexLock lock(&mu_);
      stop_ = true;
    }
    for (std::thread& t : threads_) t.join();
  }

  int size() const { return static_cast<int>(threads_.size()); }

  void Schedule(std::function<void()> task) {
    absl::MutexLock lock(&mu_);
    queue_.push_back(std::move(task));
    queued_.fetch_add(1, std::memory_order_release);
  }

 private:
  void Loop() {
    while (true) {
      const bool seen = SpinUntil([this] { return queued_.load(std::memory_order_acquire) > 0; });
      std::function<void()> task;
      {
        absl::MutexLock lock(&mu_);
        if (!seen) {
          mu_.Await(absl::Condition(
              +[](Workers* w) { return w->stop_ || !w->queue_.empty(); }, this));
        }
        if (queue_.empty()) {
          if (stop_) return;  // nothing left to do
          continue;           // another worker took the task: spin again
        }
        task = std::move(queue_.front());
        queue_.pop_front();
        queued_.fetch_sub(1, std::memory_order_relaxed);
      }
      task();
    }
  }

  absl::Mutex mu_;
  std::deque<std::function<void()>> queue_;  // guarded by mu_
  std::atomic<int64_t> queued_{0};           // queue_.size(), readable without mu_ (for spinning)
  bool stop_ = false;                        // guarded by mu_
  std::vector<std::thread> threads_;
};

std::atomic<int> num_threads{1};

absl::Mutex& PoolMutex() {
  static absl::Mutex* mu = new absl::Mutex;
  return *mu;
}

// The workers for the current thread count (NumThreads() - 1 of them), started on first use. Never
// destroyed at exit: its threads sleep in Await, and joining them from a static destructor could
// race with other destructors.
std::shared_ptr<Workers> CurrentWorkers() {
  const int wanted = num_threads.load(std::memory_order_relaxed) - 1;
  absl::MutexLock lock(&PoolMutex());
  static auto* workers = new std::shared_ptr<Workers>;
  if (*workers == nullptr || (*workers)->size() != wanted) {
    // A ParallelFor still holding the old workers keeps them alive until it returns.
    *workers = std::make_shared<Workers>(wanted);
  }
  return *workers;
}

// One ParallelFor call. The chunks are cut into one contiguous segment per thread taking part (the
// caller's first); each thread claims its own segment's chunks in order, then what is left of the
// others'. So with the same thread count the same thread computes the same part of each kernel's
// output: the next kernel's chunk of it (a depthwise convolution's channels after the 1x1
// convolution that wrote them, an Add's elements after the projection) is read from that core's own
// cache instead of the other core's. The caller waits until `done` reaches `chunks` (spinning, then
// on `mu`). Helpers that start after every chunk was claimed touch nothing but this struct, which
// they keep alive, so the caller may return before they run.
struct Job {
  // At most this many segments (more threads share them). Kept in the Job, unpadded: an array of
  // their own, a cache line each, made the zoo's LSTM at 2 threads 10% slower (an allocation per
  // call, and more lines for a helper to fetch from the caller's core).
  static constexpr int64_t kMaxSegments = 8;
  struct Segment {
    std::atomic<int64_t> next{0};
    int64_t end = 0;
  };

  Job(const std::function<void(int64_t, int64_t)>* fn, int64_t n, int64_t chunk, int64_t threads)
      : fn(fn),
        n(n),
        chunk(chunk),
        chunks((n - 1) / chunk + 1),
        lanes(std::min(threads, kMaxSegments)) {
    for (int64_t s = 0; s < lanes; ++s) {
      segments[s].next.store(chunks * s / lanes, std::memory_order_relaxed);
      segments[s].end = chunks * (s + 1) / lanes;
    }
  }

  const std::function<void(int64_t, int64_t)>* fn;
  const int64_t n, chunk, chunks, lanes;
  std::atomic<int64_t> done{0};
  Segment segments[kMaxSegments];
  // Taken after each update of `done`, so that a caller sleeping in LockWhen re-checks it.
  absl::Mutex mu;

  bool finished() const { return done.load(std::memory_order_acquire) == chunks; }
};

// Runs the chunks of this thread's segment, then those left in the others'.
void RunChunks(Job& job) {
  const bool outer = in_chunk;
  in_chunk = true;
  int64_t finished = 0;
  // A worker numbered past the segments shares another worker's, never the caller's.
  const int64_t first = lane == 0 || job.lanes == 1 ? 0 : 1 + (lane - 1) % (job.lanes - 1);
  for (int64_t i = 0; i < job.lanes; ++i) {
    Job::Segment& segment = job.segments[(first + i) % job.lanes];
    for (int64_t c = segment.next.fetch_add(1, std::memory_order_relaxed); c < segment.end;
         c = segment.next.fetch_add(1, std::memory_order_relaxed)) {
      const int64_t begin = c * job.chunk;
      (*job.fn)(begin, std::min(job.n, begin + job.chunk));
      ++finished;
    }
  }
  in_chunk = outer;
  if (finished > 0) {
    job.done.fetch_add(finished, std::memory_order_acq_rel);
    absl::MutexLock wake(&job.mu);
  }
}

}  // namespace

void SetNumThreads(int n) { num_threads.store(std::max(n, 1), std::memory_order_relaxed); }

int NumThreads() { return num_threads.load(std::memory_order_relaxed); }

void ParallelFor(int64_t n, int64_t chunk, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  chunk = std::max<int64_t>(chunk, 1);
  const int64_t chunks = (n - 1) / chunk + 1;
  const int threads = NumThreads();
  if (threads <= 1 || chunks == 1 || in_chunk) {
    for (int64_t begin = 0; begin < n; begin += chunk) fn(begin, std::min(n, begin + chunk));
    return;
  }
  std::shared_ptr<Workers> workers = CurrentWorkers();
  const int64_t helpers = std::min<int64_t>(workers->size(), chunks - 1);
  auto job = std::make_shared<Job>(&fn, n, chunk, helpers + 1);
  for (int64_t i = 0; i < helpers; ++i) {
    workers->Schedule([job] { RunChunks(*job); });
  }
  RunChunks(*job);
  if (SpinUntil([&job] { return job->finished(); })) return;
  job->mu.LockWhen(absl::Condition(
      +[](Job* j) { return j->finished(); }, job.get()));
  job->mu.Unlock();
}

}  // namespace onnx_opt::interpreter
