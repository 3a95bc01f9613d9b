#include "interpreter/cpu/thread_pool.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "interpreter/cpu/isa.h"
#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/gemm.h"

namespace onnx_opt::interpreter {
namespace {

// Restores one thread when a test ends, whatever it set.
class ThreadPoolTest : public ::testing::Test {
 protected:
  void TearDown() override { SetNumThreads(1); }
};

TEST_F(ThreadPoolTest, NumThreadsDefaultsToOneAndClampsToOne) {
  EXPECT_EQ(NumThreads(), 1);
  SetNumThreads(3);
  EXPECT_EQ(NumThreads(), 3);
  SetNumThreads(0);
  EXPECT_EQ(NumThreads(), 1);
  SetNumThreads(-5);
  EXPECT_EQ(NumThreads(), 1);
}

TEST_F(ThreadPoolTest, ParallelForRunsEveryIndexOnceInFixedChunks) {
  for (int threads : {1, 2, 3, 8}) {
    SetNumThreads(threads);
    for (int64_t n : {0, 1, 7, 64, 100, 1000}) {
      for (int64_t chunk : {-1, 0, 1, 3, 64, 2000}) {
        SCOPED_TRACE(absl::StrCat("threads ", threads, " n ", n, " chunk ", chunk));
        std::vector<std::atomic<int>> hits(n);
        absl::Mutex mu;
        std::set<std::pair<int64_t, int64_t>> ranges;
        ParallelFor(n, chunk, [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) hits[i].fetch_add(1);
          absl::MutexLock lock(&mu);
          ranges.insert({begin, end});
        });
        for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "index " << i;
        // The chunks are [0, c), [c, 2c), ... whatever the thread count.
        const int64_t c = std::max<int64_t>(chunk, 1);
        std::set<std::pair<int64_t, int64_t>> expected;
        for (int64_t b = 0; b < n; b += c) expected.insert({b, std::min(n, b + c)});
        EXPECT_EQ(ranges, expected);
      }
    }
  }
}

TEST_F(ThreadPoolTest, OneThreadRunsChunksInOrderOnTheCaller) {
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<int64_t> begins;
  ParallelFor(10, 3, [&](int64_t begin, int64_t) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    begins.push_back(begin);
  });
  EXPECT_EQ(begins, (std::vector<int64_t>{0, 3, 6, 9}));
}

TEST_F(ThreadPoolTest, UsesOtherThreadsWhenAsked) {
  SetNumThreads(2);
  absl::Mutex mu;
  std::set<std::thread::id> ids;
  // Chunks that wait until two threads have joined in (bounded, so the test cannot hang).
  std::atomic<int> started{0};
  ParallelFor(2, 1, [&](int64_t, int64_t) {
    started.fetch_add(1);
    for (int i = 0; i < 2000 && started.load() < 2; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    absl::MutexLock lock(&mu);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(ids.size(), 2u);
}

// Each thread starts on its own contiguous segment of the chunks: with 2 threads the caller on
// chunks 0-3 of 8, the worker on 4-7. (Chunk 0 waits, bounded, until another thread has started a
// chunk, so the caller cannot take them all before the worker wakes.) A caller descheduled right
// after handing out the job may find its segment taken by the worker, which helps with the rest
// once its own is done (seen when tests share two cores): then it runs later chunks of its own
// segment, or none.
TEST_F(ThreadPoolTest, EachThreadStartsOnItsOwnSegment) {
  SetNumThreads(2);
  const std::thread::id caller = std::this_thread::get_id();
  for (int round = 0; round < 10; ++round) {
    SCOPED_TRACE(absl::StrCat("round ", round));
    std::atomic<int64_t> worker_first{-1}, caller_first{-1};
    std::atomic<int> hits{0};
    ParallelFor(8, 1, [&](int64_t begin, int64_t) {
      int64_t none = -1;
      (std::this_thread::get_id() == caller ? caller_first : worker_first)
          .compare_exchange_strong(none, begin);
      if (begin == 0) {
        for (int i = 0; i < 10000 && worker_first.load() < 0; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
      }
      hits.fetch_add(1);
    });
    EXPECT_EQ(hits.load(), 8);
    EXPECT_EQ(worker_first.load(), 4);
    EXPECT_LT(caller_first.load(), 4);  // in its own segment, or -1: it ran none
  }
}

TEST_F(ThreadPoolTest, NestedParallelForRunsInline) {
  SetNumThreads(3);
  std::vector<std::atomic<int>> hits(40 * 50);
  ParallelFor(40, 1, [&](int64_t ob, int64_t oe) {
    for (int64_t o = ob; o < oe; ++o) {
      const std::thread::id outer = std::this_thread::get_id();
      ParallelFor(50, 7, [&](int64_t b, int64_t e) {
        EXPECT_EQ(std::this_thread::get_id(), outer);
        for (int64_t i = b; i < e; ++i) hits[o * 50 + i].fetch_add(1);
      });
    }
  });
  for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
}

TEST_F(ThreadPoolTest, ConcurrentCallersAndResizing) {
  for (int threads : {2, 4, 1, 3}) {
    SetNumThreads(threads);
    std::vector<std::thread> callers;
    std::vector<int64_t> sums(4, 0);
    for (int c = 0; c < 4; ++c) {
      callers.emplace_back([&, c] {
        for (int round = 0; round < 20; ++round) {
          std::vector<int64_t> parts(100, 0);
          ParallelFor(1000, 10, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) parts[b / 10] += i;
          });
          for (int64_t p : parts) sums[c] += p;
        }
      });
    }
    for (std::thread& t : callers) t.join();
    for (int64_t s : sums) EXPECT_EQ(s, 20 * 999 * 1000 / 2);
  }
}

// --- GEMM
// ------------------------------------------------------------------------------------------

template <typename T>
std::vector<T> Random(int64_t n, uint32_t seed) {
  std::vector<T> v(n);
  uint32_t s = seed * 2654435761u + 1;
  for (T& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<T>(static_cast<double>(s >> 8) / (1 << 24) - 0.5);
  }
  return v;
}

template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

struct Shape {
  int64_t M, N, K;
};

// Below and above the tiling threshold (2^21 multiply-adds), with partial tiles, thin K, one row,
// one column, and wide or tall C.
const Shape kShapes[] = {
    {7, 9, 5},      {128, 128, 127}, {128, 768, 64},  {300, 257, 70},
    {1, 4096, 600}, {4096, 1, 600},  {33, 1000, 130}, {700, 49, 200},
    {64, 3136, 16}, {520, 530, 12},  {8, 70000, 4},   {40, 200, 1100},
};

template <typename T>
std::vector<T> RunGemm(int threads, bool ta, bool tb, const Shape& s, T alpha, T beta) {
  SetNumThreads(threads);
  const std::vector<T> a = Random<T>(s.M * s.K, 1), b = Random<T>(s.K * s.N, 2);
  std::vector<T> c = Random<T>(s.M * s.N, 3);
  Gemm<T>(ta, tb, s.M, s.N, s.K, alpha, a.data(), b.data(), beta, c.data());
  return c;
}

// The product in long double, to check that the tiles cover C correctly.
template <typename T>
std::vector<long double> Reference(bool ta, bool tb, const Shape& s, T alpha, T beta) {
  const std::vector<T> a = Random<T>(s.M * s.K, 1), b = Random<T>(s.K * s.N, 2),
                       c = Random<T>(s.M * s.N, 3);
  std::vector<long double> out(s.M * s.N);
  for (int64_t i = 0; i < s.M; ++i) {
    for (int64_t j = 0; j < s.N; ++j) {
      long double acc = 0;
      for (int64_t k = 0; k < s.K; ++k) {
        acc += static_cast<long double>(ta ? a[k * s.M + i] : a[i * s.K + k]) *
               static_cast<long double>(tb ? b[j * s.K + k] : b[k * s.N + j]);
      }
      out[i * s.N + j] =
          alpha * acc + (beta == T(0) ? 0.0L : beta * static_cast<long double>(c[i * s.N + j]));
    }
  }
  return out;
}

template <typename T>
void CheckGemmThreads(double tolerance) {
  for (const Shape& s : kShapes) {
    for (int form = 0; form < 4; ++form) {
      const bool ta = form & 1, tb = form & 2;
      for (auto [alpha, beta] : {std::pair<T, T>{1, 0}, std::pair<T, T>{0.5, 2}}) {
        SCOPED_TRACE(absl::StrCat(s.M, "x", s.N, "x", s.K, " ta ", ta, " tb ", tb, " alpha ", alpha,
                                  " beta ", beta));
        const std::vector<T> one = RunGemm<T>(1, ta, tb, s, alpha, beta);
        EXPECT_TRUE(SameBits(one, RunGemm<T>(2, ta, tb, s, alpha, beta))) << "2 threads differ";
        EXPECT_TRUE(SameBits(one, RunGemm<T>(3, ta, tb, s, alpha, beta))) << "3 threads differ";
        if (s.M * s.N * s.K > (int64_t{1} << 24)) continue;  // the reference loop would be slow
        const std::vector<long double> ref = Reference<T>(ta, tb, s, alpha, beta);
        for (size_t i = 0; i < ref.size(); ++i) {
          ASSERT_NEAR(static_cast<double>(one[i]), static_cast<double>(ref[i]),
                      tolerance * std::sqrt(s.K))
              << "element " << i;
        }
      }
    }
  }
}

TEST_F(ThreadPoolTest, GemmFloatHasTheSameBitsOnOneTwoAndThreeThreads) {
  CheckGemmThreads<float>(1e-5);
}

TEST_F(ThreadPoolTest, GemmDoubleHasTheSameBitsOnOneTwoAndThreeThreads) {
  CheckGemmThreads<double>(1e-12);
}

TEST_F(ThreadPoolTest, GemmSameBitsOnEveryIsa) {
  const Isa active = ActiveIsa();
  for (int i = 0; i <= static_cast<int>(DetectedIsa()); ++i) {
    ASSERT_TRUE(SetActiveIsa(static_cast<Isa>(i)).ok());
    SCOPED_TRACE(IsaName(ActiveIsa()));
    const Shape s{300, 700, 90};
    const std::vector<float> one = RunGemm<float>(1, false, true, s, 1, 0);
    EXPECT_TRUE(SameBits(one, RunGemm<float>(2, false, true, s, 1, 0)));
  }
  ASSERT_TRUE(SetActiveIsa(active).ok());
}

// The leading-dimension kernel with the natural strides gives gemm's bits, and on a submatrix the
// same product as on a compact copy (not always the same bits: Eigen vectorizes tiny products
// differently when rows are not contiguous), leaving the rest of C alone.
TEST_F(ThreadPoolTest, LeadingDimensionGemmMatchesContiguousGemm) {
  for (int i = 0; i <= static_cast<int>(DetectedIsa()); ++i) {
    const VectorKernels& vec = VecFor(static_cast<Isa>(i));
    SCOPED_TRACE(IsaName(vec.isa));
    for (const Shape& s :
         {Shape{1, 300, 40}, Shape{300, 1, 40}, Shape{5, 6, 7}, Shape{130, 270, 300}}) {
      for (int form = 0; form < 4; ++form) {
        const bool ta = form & 1, tb = form & 2;
        SCOPED_TRACE(absl::StrCat(s.M, "x", s.N, "x", s.K, " ta ", ta, " tb ", tb));
        const std::vector<float> a = Random<float>(s.M * s.K, 1), b = Random<float>(s.K * s.N, 2);
        std::vector<float> c1 = Random<float>(s.M * s.N, 3), c2 = c1;
        vec.gemm_f32(ta, tb, s.M, s.N, s.K, 0.5f, a.data(), b.data(), 1.5f, c1.data());
        vec.gemm_ld_f32(ta, tb, s.M, s.N, s.K, 0.5f, a.data(), ta ? s.M : s.K, b.data(),
                        tb ? s.K : s.N, 1.5f, c2.data(), s.N);
        EXPECT_TRUE(SameBits(c1, c2));
        const std::vector<double> ad = Random<double>(s.M * s.K, 1),
                                  bd = Random<double>(s.K * s.N, 2);
        std::vector<double> d1(s.M * s.N), d2(s.M * s.N);
        vec.gemm_f64(ta, tb, s.M, s.N, s.K, 1.0, ad.data(), bd.data(), 0.0, d1.data());
        vec.gemm_ld_f64(ta, tb, s.M, s.N, s.K, 1.0, ad.data(), ta ? s.M : s.K, bd.data(),
                        tb ? s.K : s.N, 0.0, d2.data(), s.N);
        EXPECT_TRUE(SameBits(d1, d2));
      }
    }
    // A 3x4 block of a 10x20 C from a 3x5 block of a 9x5 A (rows 2..) and a 5x4 block of a 5x20 B
    // (columns 7..).
    const std::vector<float> a = Random<float>(9 * 5, 4), b = Random<float>(5 * 20, 5);
    std::vector<float> c(10 * 20, -1.f);
    vec.gemm_ld_f32(false, false, 3, 4, 5, 1.f, a.data() + 2 * 5, 5, b.data() + 7, 20, 0.f,
                    c.data() + 1 * 20 + 3, 20);
    std::vector<float> ac(3 * 5), bc(5 * 4), cc(3 * 4);
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 5; ++k) ac[r * 5 + k] = a[(r + 2) * 5 + k];
    for (int k = 0; k < 5; ++k)
      for (int j = 0; j < 4; ++j) bc[k * 4 + j] = b[k * 20 + 7 + j];
    vec.gemm_f32(false, false, 3, 4, 5, 1.f, ac.data(), bc.data(), 0.f, cc.data());
    for (int r = 0; r < 10; ++r) {
      for (int j = 0; j < 20; ++j) {
        const bool inside = r >= 1 && r < 4 && j >= 3 && j < 7;
        if (inside) {
          EXPECT_NEAR(c[r * 20 + j], cc[(r - 1) * 4 + (j - 3)], 1e-6) << r << "," << j;
        } else {
          EXPECT_EQ(c[r * 20 + j], -1.f) << r << "," << j;
        }
      }
    }
  }
}

}  // namespace
}  // namespace onnx_opt::interpreter
