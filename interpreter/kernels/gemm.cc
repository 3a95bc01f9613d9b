#include "interpreter/kernels/gemm.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>

#include "glog/logging.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

// Integers: in the unsigned type of T's width, so that a sum or product past T's range wraps (two's
// complement, as onnxruntime's integer GEMM does) instead of being undefined.
template <typename T>
void LoopGemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A, const T* B,
              T beta, T* C) {
  using U = std::make_unsigned_t<T>;
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j = 0; j < N; ++j) {
      U acc = 0;
      for (int64_t k = 0; k < K; ++k) {
        const U a = static_cast<U>(ta ? A[k * M + i] : A[i * K + k]);
        const U b = static_cast<U>(tb ? B[j * K + k] : B[k * N + j]);
        acc += a * b;
      }
      const U c =
          beta == T(0) ? U(0) : static_cast<U>(static_cast<U>(beta) * static_cast<U>(C[i * N + j]));
      C[i * N + j] = static_cast<T>(static_cast<U>(static_cast<U>(alpha) * acc + c));
    }
  }
}

// Float and double GEMMs of this many multiply-adds or more are computed as tiles of C, one
// vector-kernel call per tile, spread over the threads (thread_pool.h). Smaller ones are one call:
// a tile would not pay for waking a thread.
constexpr int64_t kTiledMacs = int64_t{1} << 21;
// Tiles are at most this many rows and columns of C (before coarsening, below). On one thread the
// tiles of ResNet-50's and BERT's GEMMs take the time of one call each (within 1%; 256 x 256 tiles
// cost BERT 3%), and on two threads they run 1.5-1.75x faster.
constexpr int64_t kTileRows = 256;
constexpr int64_t kTileCols = 512;
// ...and tiles of fewer multiply-adds are merged (a thin K would make thousands of tiny calls).
constexpr int64_t kMinTileMacs = int64_t{1} << 20;
// Tiles a large product is cut into at least, each at least this many rows and columns.
constexpr int64_t kMinTiles = 2;
constexpr int64_t kMinTileRows = 16;
constexpr int64_t kMinTileCols = 64;

// How C is cut: `rows` x `cols` blocks of (up to) `tile_m` x `tile_n` elements. A function of the
// shape only, never of the thread count, so every thread count computes the same tiles with the
// same calls and gets the same bits.
struct Tiling {
  int64_t rows, cols, tile_m, tile_n;
};

Tiling ChooseTiling(int64_t M, int64_t N, int64_t K) {
  int64_t rows = CeilDiv(M, kTileRows);
  int64_t cols = CeilDiv(N, kTileCols);
  // Even blocks (no sliver at the end); column blocks a multiple of 16 elements so that every tile
  // of an aligned C starts on a 64-byte boundary.
  auto tile_m = [&] { return CeilDiv(M, rows); };
  auto tile_n = [&] { return std::min(N, CeilDiv(CeilDiv(N, cols), 16) * 16); };
  while ((rows > 1 || cols > 1) && tile_m() * tile_n() * K < kMinTileMacs) {
    if (cols > 1 && (tile_n() <= tile_m() || rows == 1)) {
      cols = CeilDiv(cols, 2);
    } else {
      rows = CeilDiv(rows, 2);
    }
  }
  // ...and products that make fewer than kMinTiles tiles of those sizes but have the work for more
  // are cut further, so that two threads share them: ResNet-50's 3x3 layers at 14x14 (256 x 196 x
  // 2304) were one tile, run by one thread at any thread count. Columns first: each tile reads its
  // own columns of B once, while row tiles would each read all of B again (4 tiles of BERT's
  // 128 x 768 x 768 by rows cost 6% at one thread).
  while (rows * cols < kMinTiles) {
    const int64_t half_m = CeilDiv(M, rows * 2);
    const int64_t half_n = std::min(N, CeilDiv(CeilDiv(N, cols * 2), 16) * 16);
    if (half_n >= kMinTileCols && half_n < N && tile_m() * half_n * K >= kMinTileMacs) {
      cols *= 2;
    } else if (half_m >= kMinTileRows && half_m * tile_n() * K >= kMinTileMacs) {
      rows *= 2;
    } else {
      break;
    }
  }
  // An odd number of tiles (more than one) is made even where one more column or row block still
  // has the work: two threads, the usual count, then share them equally (a 56x56 1x1 layer's 7
  // column tiles ran as 4 and 3, an expansion's 3 row tiles as 2 and 1).
  auto count = [&] { return CeilDiv(M, tile_m()) * CeilDiv(N, tile_n()); };
  if (count() > 1 && count() % 2 == 1) {
    const int64_t before_rows = rows, before_cols = cols;
    ++cols;
    if (count() % 2 == 1 || tile_n() < kMinTileCols || tile_m() * tile_n() * K < kMinTileMacs) {
      cols = before_cols;
      ++rows;
      if (count() % 2 == 1 || tile_m() < kMinTileRows || tile_m() * tile_n() * K < kMinTileMacs) {
        rows = before_rows;
      }
    }
  }
  const int64_t tm = tile_m(), tn = tile_n();
  return {CeilDiv(M, tm), CeilDiv(N, tn), tm, tn};
}

// Products of a few rows of A with a large B (decode steps) take the skinny kernel, which streams B
// once at close to memory speed (simd/skinny_gemm.cc); smaller B stays on the blocked kernels.
constexpr int64_t kSkinnyMinWeights = int64_t{1} << 16;
// Columns of C per chunk of a skinny product spread over the threads: the kernel's block, so each
// chunk reads B in whole pages. With B transposed a column is a row of B, whole pages already, and
// chunks are multiples of 128 rows of at least 2^15 multiply-adds, so that a classifier of 1000
// classes is shared (1280 x 1000 at 2 threads: 0.33 -> 0.16 ms) and so is an LSTM step's 512 x 128
// (in halves: each core then reads half of R from its own L2; the zoo's LSTM at 2 threads on Zen 4
// 0.76-0.89 -> 0.64-0.73 ms; at 2^17 it stayed whole, measured as not paying on Sapphire Rapids
// before the workers spun). The kernel's bits do not depend on the split.
constexpr int64_t kSkinnyChunk = 1024;
constexpr int64_t kSkinnyRowsChunk = 128;
constexpr int64_t kSkinnyMinChunkMacs = int64_t{1} << 15;

bool IsSkinny(bool ta, int64_t M, int64_t N, int64_t K, float alpha) {
  return !ta && alpha == 1.0f && M >= 1 && M <= kSkinnyMaxRows && K >= 1 &&
         N * K >= kSkinnyMinWeights;
}

// One kernel call when the product is small or fits one tile; else C's tiles through the
// leading-dimension kernel: a tile of C is a block of rows of op(A) times a block of columns of
// op(B), both submatrices of the row-major arrays.
template <typename T, typename Plain, typename Strided>
void VectorGemm(Plain plain, Strided strided, bool ta, bool tb, int64_t M, int64_t N, int64_t K,
                T alpha, const T* A, const T* B, T beta, T* C) {
  const Tiling t = M * N * K < kTiledMacs ? Tiling{1, 1, M, N} : ChooseTiling(M, N, K);
  if (t.rows * t.cols == 1) return plain(ta, tb, M, N, K, alpha, A, B, beta, C);
  const int64_t lda = ta ? M : K;  // stored row length of A (K x M when transposed)
  const int64_t ldb = tb ? K : N;  // stored row length of B (N x K when transposed)
  ParallelFor(t.rows * t.cols, 1, [&](int64_t begin, int64_t end) {
    for (int64_t tile = begin; tile < end; ++tile) {
      const int64_t i0 = tile / t.cols * t.tile_m, j0 = tile % t.cols * t.tile_n;
      const int64_t m = std::min(t.tile_m, M - i0), n = std::min(t.tile_n, N - j0);
      // Rows i0.. of op(A): rows of A, or columns of A when transposed.
      const T* a = ta ? A + i0 : A + i0 * K;
      // Columns j0.. of op(B): columns of B, or rows of B when transposed.
      const T* b = tb ? B + j0 * K : B + j0;
      strided(ta, tb, m, n, K, alpha, a, lda, b, ldb, beta, C + i0 * N + j0, N);
    }
  });
}

}  // namespace

template <typename T>
void Gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A, const T* B,
          T beta, T* C) {
  if (M == 0 || N == 0) return;
  if constexpr (std::is_same_v<T, float>) {
    const VectorKernels& vec = Vec();
    if (IsSkinny(ta, M, N, K, alpha)) {
      // C = A * op(B) + beta * C as C *= beta, then C += A * op(B) (Eigen's order too).
      if (beta != 0.0f && beta != 1.0f) {
        for (int64_t i = 0; i < M * N; ++i) C[i] *= beta;
      }
      const int64_t chunk =
          tb ? CeilDiv(std::max<int64_t>(1, kSkinnyMinChunkMacs / (M * K)), kSkinnyRowsChunk) *
                   kSkinnyRowsChunk
             : kSkinnyChunk;
      ParallelFor(CeilDiv(N, chunk), 1, [&](int64_t begin, int64_t end) {
        const int64_t j0 = begin * chunk, n = std::min(end * chunk, N) - j0;
        // Columns j0.. of op(B): columns of B, or rows of B (N x K) when transposed.
        vec.skinny_gemm_f32(tb, beta != 0.0f, M, n, K, A, K, tb ? B + j0 * K : B + j0, tb ? K : N,
                            C + j0, N);
      });
      return;
    }
    VectorGemm<T>(vec.gemm_f32, vec.gemm_ld_f32, ta, tb, M, N, K, alpha, A, B, beta, C);
  } else if constexpr (std::is_same_v<T, double>) {
    const VectorKernels& vec = Vec();
    VectorGemm<T>(vec.gemm_f64, vec.gemm_ld_f64, ta, tb, M, N, K, alpha, A, B, beta, C);
  } else {
    LoopGemm<T>(ta, tb, M, N, K, alpha, A, B, beta, C);
  }
}

bool GemmWithRowEpilogue(int64_t M, int64_t N, int64_t K, const float* A, const float* B, float* C,
                         const RowEpilogue& e) {
  const auto kernel = Vec().gemm_epilogue_f32;
  if (kernel == nullptr || IsSkinny(false, M, N, K, 1.0f)) return false;
  if (M == 0 || N == 0) return true;
  const Tiling t = M * N * K < kTiledMacs ? Tiling{1, 1, M, N} : ChooseTiling(M, N, K);
  ParallelFor(t.rows * t.cols, 1, [&](int64_t begin, int64_t end) {
    for (int64_t tile = begin; tile < end; ++tile) {
      const int64_t i0 = tile / t.cols * t.tile_m, j0 = tile % t.cols * t.tile_n;
      const int64_t m = std::min(t.tile_m, M - i0), n = std::min(t.tile_n, N - j0);
      RowEpilogue rows = e;  // the tile's rows
      if (rows.bias != nullptr) rows.bias += i0;
      if (rows.scale != nullptr) rows.scale += i0;
      if (rows.shift != nullptr) rows.shift += i0;
      kernel(m, n, K, A + i0 * K, K, B + j0, N, C + i0 * N + j0, N, rows);
    }
  });
  return true;
}

PackedGemmB PackGemmB(int64_t K, int64_t N, const float* B) {
  PackedGemmB p;
  const VectorKernels& vec = Vec();
  if (vec.pack_gemm_b_f32 == nullptr || K == 0 || N == 0) return p;
  const int64_t strips = CeilDiv(N, vec.gemm_b_strip);
  const size_t bytes = static_cast<size_t>(strips * vec.gemm_b_strip * K) * sizeof(float);
  p.data.reset(static_cast<float*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
  if (p.data == nullptr) return p;  // no memory for the copy: B is read in place
  if (!vec.pack_gemm_b_f32(K, N, B, N, p.data.get())) {
    p.data.reset();
    return p;
  }
  p.K = K;
  p.N = N;
  p.strip = vec.gemm_b_strip;
  return p;
}

bool GemmReadsPackedB(int64_t M, int64_t N, int64_t K) {
  return Vec().packed_gemm_f32 != nullptr && M > 0 && !IsSkinny(false, M, N, K, 1.0f);
}

bool GemmPackedB(int64_t M, const float* A, const PackedGemmB& B, float* C) {
  const VectorKernels& vec = Vec();
  const int64_t N = B.N, K = B.K;
  if (B.data == nullptr || vec.gemm_b_strip != B.strip || !GemmReadsPackedB(M, N, K)) return false;
  Tiling t = M * N * K < kTiledMacs ? Tiling{1, 1, M, N} : ChooseTiling(M, N, K);
  // Column tiles start on a strip (AVX-512's are 64 columns, Gemm's tiles multiples of 16). A
  // column's sums do not depend on the tile it is in, so neither do the bits.
  t.tile_n = CeilDiv(t.tile_n, B.strip) * B.strip;
  t.cols = CeilDiv(N, t.tile_n);
  ParallelFor(t.rows * t.cols, 1, [&](int64_t begin, int64_t end) {
    for (int64_t tile = begin; tile < end; ++tile) {
      const int64_t i0 = tile / t.cols * t.tile_m, j0 = tile % t.cols * t.tile_n;
      const int64_t m = std::min(t.tile_m, M - i0), n = std::min(t.tile_n, N - j0);
      const bool done = vec.packed_gemm_f32(m, n, K, A + i0 * K, K, B.data.get() + j0 * K, K,
                                            C + i0 * N + j0, N, nullptr);
      CHECK(done) << "packed GEMM declined a tile of a product PackGemmB accepted";
    }
  });
  return true;
}

// A convolution's implicit GEMM is cut into tiles of one strip of the kernel's columns (64: the
// AVX-512 kernel's strip, four of AVX2's) over all rows of C: the kernel fills each strip from the
// input once per tile, so row tiles would fill it again each (ResNet-50's stride 2 1x1 layers, cut
// by Gemm's tiling into 4 and 8 row tiles, ran 4-9% slower than on the stored matrix), while a
// strip per tile computes what one call over the plane would. With more than one thread, fewer
// than kConvMinStrips strips are also cut into two equal row tiles (the kernel's last block of a
// tile computes only its rows), so that two threads share a 14x14 or 7x7 plane evenly (14x14 is 3
// strips and 4 columns: as 4 column tiles, two threads ran ResNet-50's 3x3 layers there 9% slower
// than Gemm's tiles; on one thread the second fill cost them 3%). A row of C is summed the same way
// in any row tile, so the bits do not depend on the thread count.
constexpr int64_t kConvTileColumns = 64;
constexpr int64_t kConvMinStrips = 8;
// Fewer channels than this keep the stored column matrix: the kernel builds a table per strip of
// columns and kernel cell, used for one row per channel, which for ResNet-50's stem (3 channels,
// 7x7) cost more than the matrix (2.6 -> 2.9 ms).
constexpr int64_t kConvMinChannels = 16;

Tiling ConvTiling(int64_t M, int64_t N, int64_t K) {
  if (M * N * K < kTiledMacs) return {1, 1, M, N};
  const int64_t strips = CeilDiv(N, kConvTileColumns);
  int64_t tile_m = M;
  if (strips < kConvMinStrips && NumThreads() > 1) {
    const int64_t half = CeilDiv(M, 2);
    if (half >= kMinTileRows && half < M) tile_m = half;
  }
  return {CeilDiv(M, tile_m), strips, tile_m, std::min(N, kConvTileColumns)};
}

bool ConvGemm(int64_t M, const float* A, const ConvColumns& cols, float* C, const RowEpilogue* e) {
  const auto kernel = Vec().conv_gemm_f32;
  if (kernel == nullptr || cols.channels < kConvMinChannels ||
      cols.win.in_h * cols.win.in_w > std::numeric_limits<int32_t>::max()) {
    return false;
  }
  const int64_t K = cols.channels * cols.win.kernel_h * cols.win.kernel_w;
  const int64_t N = cols.win.out_h * cols.win.out_w;
  if (M == 0 || N == 0) return true;
  const Tiling t = ConvTiling(M, N, K);
  ParallelFor(t.rows * t.cols, 1, [&](int64_t begin, int64_t end) {
    for (int64_t tile = begin; tile < end; ++tile) {
      const int64_t i0 = tile / t.cols * t.tile_m, j0 = tile % t.cols * t.tile_n;
      const int64_t m = std::min(t.tile_m, M - i0), n = std::min(t.tile_n, N - j0);
      RowEpilogue rows;  // the tile's rows
      if (e != nullptr) {
        rows = *e;
        if (rows.bias != nullptr) rows.bias += i0;
        if (rows.scale != nullptr) rows.scale += i0;
        if (rows.shift != nullptr) rows.shift += i0;
      }
      kernel(m, A + i0 * K, K, cols, j0, j0 + n, C + i0 * N, N, e != nullptr ? &rows : nullptr);
    }
  });
  return true;
}

void SkinnyQuantizedGemm(int64_t M, int64_t N, int64_t K, const float* A, const QuantizedMatrix& B,
                         float* C) {
  CHECK(M >= 1 && M <= kSkinnyMaxRows) << M << " rows";
  const VectorKernels& vec = Vec();
  ParallelFor(CeilDiv(N, kSkinnyChunk), 1, [&](int64_t begin, int64_t end) {
    const int64_t j0 = begin * kSkinnyChunk, n = std::min(end * kSkinnyChunk, N) - j0;
    vec.skinny_gemm_quantized_f32(M, n, K, A, K, B, j0, C + j0, N);
  });
}

// Rows of W (columns of C) per chunk of SkinnyGemm4BitRows: 64 rows of 4096 weights are 128 KB.
constexpr int64_t k4BitRowsChunk = 64;

void SkinnyGemm4BitRows(int64_t M, int64_t N, const float* A, int64_t lda, const Blocked4BitRows& W,
                        float* C) {
  CHECK(M >= 1 && M <= kSkinnyMaxRows) << M << " rows";
  const VectorKernels& vec = Vec();
  ParallelFor(N, k4BitRowsChunk, [&](int64_t begin, int64_t end) {
    vec.skinny_gemm_4bit_rows_f32(M, end - begin, A, lda, W, begin, C + begin, N);
  });
}

void ExactInt8Gemm(int64_t M, int64_t N, int64_t K, const float* A, const float* B, int32_t* C) {
  constexpr int64_t kChunk = 256;  // 256 * 255 * 255 < 2^24
  for (int64_t i = 0; i < M * N; ++i) C[i] = 0;
  if (M == 0 || N == 0 || K == 0) return;
  std::unique_ptr<float[]> part(new float[static_cast<size_t>(M * N)]);
  for (int64_t k0 = 0; k0 < K; k0 += kChunk) {
    const int64_t kc = std::min(kChunk, K - k0);
    Vec().gemm_ld_f32(false, false, M, N, kc, 1.0f, A + k0, K, B + k0 * N, N, 0.0f, part.get(), N);
    for (int64_t i = 0; i < M * N; ++i) {
      C[i] = static_cast<int32_t>(static_cast<uint32_t>(C[i]) +
                                  static_cast<uint32_t>(static_cast<int32_t>(part[i])));
    }
  }
}

void Int8Gemm(int64_t M, int64_t N, int64_t K, const Int8Operand& A, const Int8Operand& B,
              int32_t* C) {
  const auto gemm = Vec().gemm_8bit_s32;
  CHECK(gemm != nullptr) << "no 8-bit GEMM on this CPU";
  // One thread: one call, which packs A once (exact integers: any split gives the same values).
  if (NumThreads() == 1) return gemm(M, N, K, A, B, N, C, N);
  // Columns per task: whole blocks of the kernel's packed B (512), at least 2^20 multiply-adds.
  constexpr int64_t kBlock = 512;
  const int64_t macs_per_column = std::max<int64_t>(1, M * K);
  const int64_t cols =
      CeilDiv(std::max<int64_t>(1, kMinTileMacs / macs_per_column), kBlock) * kBlock;
  if (CeilDiv(N, cols) < NumThreads()) {
    // Too few columns to go round (a 14x14 plane is 196): A's rows split instead, in whole panels
    // of the kernels (12 rows for AVX-512's, 6 for AVX2's), each task packing all of B, which is
    // small then.
    const int64_t rows = CeilDiv(CeilDiv(M, NumThreads()), 12) * 12;
    ParallelFor(CeilDiv(M, rows), 1, [&](int64_t begin, int64_t end) {
      const int64_t i0 = begin * rows, i1 = std::min(M, end * rows);
      const Int8Operand a{A.data + i0 * K, A.is_signed, A.zero_points + (A.per_index ? i0 : 0),
                          A.per_index};
      gemm(i1 - i0, N, K, a, B, N, C + i0 * N, N);
    });
    return;
  }
  ParallelFor(CeilDiv(N, cols), 1, [&](int64_t begin, int64_t end) {
    const int64_t j0 = begin * cols, j1 = std::min(N, end * cols);
    const Int8Operand b{B.data + j0, B.is_signed, B.zero_points + (B.per_index ? j0 : 0),
                        B.per_index};
    gemm(M, j1 - j0, K, A, b, N, C + j0, N);
  });
}

template void Gemm<float>(bool, bool, int64_t, int64_t, int64_t, float, const float*, const float*,
                          float, float*);
template void Gemm<double>(bool, bool, int64_t, int64_t, int64_t, double, const double*,
                           const double*, double, double*);
template void Gemm<int32_t>(bool, bool, int64_t, int64_t, int64_t, int32_t, const int32_t*,
                            const int32_t*, int32_t, int32_t*);
template void Gemm<int64_t>(bool, bool, int64_t, int64_t, int64_t, int64_t, const int64_t*,
                            const int64_t*, int64_t, int64_t*);
template void Gemm<uint32_t>(bool, bool, int64_t, int64_t, int64_t, uint32_t, const uint32_t*,
                             const uint32_t*, uint32_t, uint32_t*);
template void Gemm<uint64_t>(bool, bool, int64_t, int64_t, int64_t, uint64_t, const uint64_t*,
                             const uint64_t*, uint64_t, uint64_t*);

}  // namespace onnx_opt::interpreter
