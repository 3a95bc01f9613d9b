// The AVX2 form of unpacked_gemm.cc (C = A * B reading A in place, each row finished by an optional
// RowEpilogue as it is stored): 6 x 16 blocks of C summed in 12 registers over a slice of K from a
// 16-column strip of B, which the first block of rows reads in place and copies contiguous (32 KB,
// L1) for the others. Against Eigen on this ISA (onnx-run --isa=avx2 on a Sapphire Rapids core,
// alternated): ResNet-50 124-126 -> 120-121 ms, MobileNetV2 13.7-14.4 -> 12.9-13.5, the BERT layer
// 28.8-30.5 -> 28.5-28.8. Transposed or scaled products keep Eigen.
#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX2__) && !defined(__AVX512F__)
#include <cstdint>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/simd/conv_columns.h"
#include "interpreter/cpu/simd/epilogue.h"
#include "interpreter/cpu/simd/intrinsics.h"
#include "interpreter/cpu/simd/next_strip.h"
#include "interpreter/cpu/simd/packed_b.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

constexpr int kLanes = 8;
constexpr int kVectors = 2;  // columns per block: 2 x 8
constexpr int64_t kKSlice = 512;
constexpr int64_t kStripColumns = kVectors * kLanes;
constexpr int64_t kPrefetchRows = 8;
// Blocks over at most this many steps of K ask for C's lines a strip ahead (see Block).
constexpr int64_t kShortK = 256;

// v finished as row `row` of `e` says, with the separate passes' operations and roundings.
inline __m256 Finish(__m256 v, const RowEpilogue& e, int64_t row) {
  if (e.bias != nullptr) v = _mm256_add_ps(v, _mm256_set1_ps(e.bias[row]));
  const bool scaled = e.scale != nullptr;
  return FinishVector(v, scaled, scaled ? _mm256_set1_ps(e.scale[row]) : _mm256_setzero_ps(),
                      scaled ? _mm256_set1_ps(e.shift[row]) : _mm256_setzero_ps(), e);
}

// Rows [0, kR) (kR <= 6) x columns [0, 16) of C, as unpacked_gemm.cc's Block.
// Only the first kV vectors of columns are computed (the last strip of a 7x7 plane holds 1 column).
template <bool kFirstPass, int kV, int kR>
void Block(int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb, float* C,
           int64_t ldc, const __m256i (&masks)[kVectors], bool accumulate, bool more_strips,
           float* packed, const RowEpilogue* e, int64_t row0) {
  const float* a[6];  // rows past kR name the last row (never read)
  for (int r = 0; r < 6; ++r) a[r] = A + (r < kR ? r : kR - 1) * lda;
  // Every lane stored: plain stores (a maskstore is microcoded on AMD cores; for every store it
  // cost a stem convolution 0.28 -> 0.44 ms on Zen 4).
  const bool whole = _mm256_movemask_ps(_mm256_castsi256_ps(masks[kV - 1])) == 0xFF;
#define ONNX_OPT_ACC_ROW(r)                                                                       \
  __m256 c##r##0 =                                                                                \
      accumulate && r < kR ? _mm256_maskload_ps(C + r * ldc, masks[0]) : _mm256_setzero_ps();     \
  __m256 c##r##1 = accumulate && kV > 1 && r < kR ? _mm256_maskload_ps(C + r * ldc + 8, masks[1]) \
                                                  : _mm256_setzero_ps();
  // clang-format off: rows of macro calls, which it cannot lay out stably
  ONNX_OPT_ACC_ROW(0)
  ONNX_OPT_ACC_ROW(1)
  ONNX_OPT_ACC_ROW(2)
  ONNX_OPT_ACC_ROW(3)
  ONNX_OPT_ACC_ROW(4)
  ONNX_OPT_ACC_ROW(5)
  // clang-format on
#undef ONNX_OPT_ACC_ROW
  // C's lines asked for, for writing, while the block computes or (short K) a strip ahead, as in
  // unpacked_gemm.cc; a row's 16 floats may straddle two lines. MobileNetV2: 9.95 -> 9.25 ms.
  for (int r = 0; r < kR; ++r) {
    if (more_strips && K <= kShortK) {  // the next strip's lines, into L2 (see unpacked_gemm.cc)
      __builtin_prefetch(C + r * ldc + kStripColumns, 1, 2);
      __builtin_prefetch(C + r * ldc + kStripColumns + 15, 1, 2);
    } else {
      __builtin_prefetch(C + r * ldc, 1, 3);
      __builtin_prefetch(C + r * ldc + (kV > 1 ? 15 : 7), 1, 3);
    }
  }
  // The next block's rows of A, a line of each per 16 steps of k: weights are read in place, and
  // in a model they come from L3 or memory (the layers take turns), where six rows 4 KB and more
  // apart are not what the hardware prefetchers follow (MobileNetV2's 1x1 convolutions at 7x7
  // took 1.6x as long with their weights out of cache as in it).
  const uintptr_t next_a = reinterpret_cast<uintptr_t>(A) + 6 * lda * sizeof(float);
  // k in runs of 16, the prefetches between them: a test per step of k cost a branch per 12 FMAs.
  for (int64_t k0 = 0; k0 < K; k0 += 16) {
    for (int r = 0; r < 6; ++r) {
      _mm_prefetch(reinterpret_cast<const char*>(next_a + (r * lda + k0) * sizeof(float)),
                   _MM_HINT_T0);
    }
    const int64_t k1 = K - k0 < 16 ? K : k0 + 16;
#pragma GCC unroll 4
    for (int64_t k = k0; k < k1; ++k) {
      const float* bk = B + k * ldb;
      __m256 b0, b1;
      if constexpr (kFirstPass) {
        if (k + kPrefetchRows < K) {
          const float* ahead = bk + kPrefetchRows * ldb;
          _mm_prefetch(reinterpret_cast<const char*>(ahead), _MM_HINT_T0);
          _mm_prefetch(reinterpret_cast<const char*>(ahead + (kV > 1 ? 15 : 7)), _MM_HINT_T0);
        }
        b0 = _mm256_maskload_ps(bk, masks[0]);
        b1 = kV > 1 ? _mm256_maskload_ps(bk + 8, masks[1]) : _mm256_setzero_ps();
        float* pk = packed + k * kStripColumns;
        _mm256_store_ps(pk, b0);
        if constexpr (kV > 1) _mm256_store_ps(pk + 8, b1);
      } else {
        b0 = _mm256_load_ps(bk);
        b1 = kV > 1 ? _mm256_load_ps(bk + 8) : _mm256_setzero_ps();
      }
#define ONNX_OPT_FMA_ROW(r)                                           \
  if constexpr (r < kR) {                                             \
    const __m256 ar = _mm256_set1_ps(a[r][k]);                        \
    c##r##0 = _mm256_fmadd_ps(ar, b0, c##r##0);                       \
    if constexpr (kV > 1) c##r##1 = _mm256_fmadd_ps(ar, b1, c##r##1); \
  }
      // clang-format off: rows of macro calls, which it cannot lay out stably
      ONNX_OPT_FMA_ROW(0)
      ONNX_OPT_FMA_ROW(1)
      ONNX_OPT_FMA_ROW(2)
      ONNX_OPT_FMA_ROW(3)
      ONNX_OPT_FMA_ROW(4)
      ONNX_OPT_FMA_ROW(5)
      // clang-format on
#undef ONNX_OPT_FMA_ROW
    }
  }
#define ONNX_OPT_STORE_ROW(r)                                               \
  if constexpr (r < kR) {                                                   \
    if (e != nullptr) {                                                     \
      c##r##0 = Finish(c##r##0, *e, row0 + r);                              \
      if constexpr (kV > 1) c##r##1 = Finish(c##r##1, *e, row0 + r);        \
    }                                                                       \
    float* cr = C + r * ldc;                                                \
    if (whole) {                                                            \
      _mm256_storeu_ps(cr, c##r##0);                                        \
      if constexpr (kV > 1) _mm256_storeu_ps(cr + 8, c##r##1);              \
    } else {                                                                \
      _mm256_maskstore_ps(cr, masks[0], c##r##0);                           \
      if constexpr (kV > 1) _mm256_maskstore_ps(cr + 8, masks[1], c##r##1); \
    }                                                                       \
  }
  // clang-format off: rows of macro calls, which it cannot lay out stably
  ONNX_OPT_STORE_ROW(0)
  ONNX_OPT_STORE_ROW(1)
  ONNX_OPT_STORE_ROW(2)
  ONNX_OPT_STORE_ROW(3)
  ONNX_OPT_STORE_ROW(4)
  ONNX_OPT_STORE_ROW(5)
  // clang-format on
#undef ONNX_OPT_STORE_ROW
}

// Block with the rows (1..6) and vectors (1, 2) the strip needs.
template <bool kFirstPass>
void BlockOf(int vectors, int rows, int64_t K, const float* A, int64_t lda, const float* B,
             int64_t ldb, float* C, int64_t ldc, const __m256i (&masks)[kVectors], bool accumulate,
             bool more_strips, float* packed, const RowEpilogue* e, int64_t row0) {
  switch (rows * 2 + vectors - 1) {
#define ONNX_OPT_BLOCK_CASE(r)                                                                \
  case 2 * r:                                                                                 \
    return Block<kFirstPass, 1, r>(K, A, lda, B, ldb, C, ldc, masks, accumulate, more_strips, \
                                   packed, e, row0);                                          \
  case 2 * r + 1:                                                                             \
    return Block<kFirstPass, 2, r>(K, A, lda, B, ldb, C, ldc, masks, accumulate, more_strips, \
                                   packed, e, row0);
    ONNX_OPT_BLOCK_CASE(1)
    ONNX_OPT_BLOCK_CASE(2)
    ONNX_OPT_BLOCK_CASE(3)
    ONNX_OPT_BLOCK_CASE(4)
    ONNX_OPT_BLOCK_CASE(5)
    ONNX_OPT_BLOCK_CASE(6)
#undef ONNX_OPT_BLOCK_CASE
  }
}

// At most this many columns past C's last whole vector (a quarter of its lanes) are computed as
// dot products, as in unpacked_gemm.cc (DotRows): a 7x7 plane's 49th column took a whole vector of
// FMAs per row and step of K.
constexpr int64_t kMaxDotColumns = 2;

float SumLanes(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Rows [0, rows) x columns [0, kN) of C over one slice of K as dot products of A's rows with
// `columns` (column c at columns + c * K), as unpacked_gemm.cc's DotRows.
template <int kN>
void DotRows(int rows, int64_t K, const float* A, int64_t lda, const float* columns, float* C,
             int64_t ldc, bool accumulate, const RowEpilogue* e, int64_t row0) {
  const int64_t whole = K / kLanes * kLanes;
  const __m256i tail = FirstLanes8(K - whole);
  for (int i = 0; i < rows; i += 4) {
    const int group = rows - i < 4 ? rows - i : 4;
    const float* a[4];
    for (int r = 0; r < 4; ++r) a[r] = A + (i + (r < group ? r : group - 1)) * lda;
    __m256 acc[4][kN];
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < kN; ++c) acc[r][c] = _mm256_setzero_ps();
    }
    for (int64_t k = 0; k < whole; k += kLanes) {
      __m256 b[kN];
      for (int c = 0; c < kN; ++c) b[c] = _mm256_loadu_ps(columns + c * K + k);
      for (int r = 0; r < 4; ++r) {
        const __m256 ar = _mm256_loadu_ps(a[r] + k);
        for (int c = 0; c < kN; ++c) acc[r][c] = _mm256_fmadd_ps(ar, b[c], acc[r][c]);
      }
    }
    if (whole < K) {
      __m256 b[kN];
      for (int c = 0; c < kN; ++c) b[c] = _mm256_maskload_ps(columns + c * K + whole, tail);
      for (int r = 0; r < 4; ++r) {
        const __m256 ar = _mm256_maskload_ps(a[r] + whole, tail);
        for (int c = 0; c < kN; ++c) acc[r][c] = _mm256_fmadd_ps(ar, b[c], acc[r][c]);
      }
    }
    for (int r = 0; r < group; ++r) {
      float* c_row = C + (i + r) * ldc;
      for (int c = 0; c < kN; ++c) {
        float v = SumLanes(acc[r][c]);
        if (accumulate) v = c_row[c] + v;
        // The blocks' own finish, on lane 0.
        if (e != nullptr) v = _mm256_cvtss_f32(Finish(_mm256_set1_ps(v), *e, row0 + i + r));
        c_row[c] = v;
      }
    }
  }
}

// The lanes whose bits are set in `bits` (bit l: lane l), as a maskload mask.
__m256i LanesOf(uint64_t bits) {
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256i set = _mm256_and_si256(_mm256_set1_epi32(static_cast<int>(bits & 0xFF)), bit);
  return _mm256_cmpeq_epi32(set, bit);
}

// The elements of [lo, hi) at even positions: lanes 0-3 from lo, 4-7 from hi.
inline __m256 Evens(__m256 lo, __m256 hi) {
  // [lo0 lo2 hi0 hi2 | lo4 lo6 hi4 hi6], then its 64-bit quarters reordered.
  const __m256 evens = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(evens), _MM_SHUFFLE(3, 1, 2, 0)));
}

// The vector of a strip of the implicit column matrix that entry `t` of its table says, from the
// channel plane at `plane` (unpacked_gemm.cc's ColumnVectorOf).
ONNX_OPT_MASKED_LOADS_PAST_BUFFERS inline __m256 ColumnVectorOf(const ColumnVector<kLanes>& t,
                                                                const float* plane, bool stride2) {
  using Kind = ColumnVector<kLanes>::Kind;
  if (t.kind == Kind::kWhole) {
    const float* run = plane + t.base[0];
    return stride2 ? Evens(_mm256_loadu_ps(run), _mm256_loadu_ps(run + 8)) : _mm256_loadu_ps(run);
  }
  __m256 value = _mm256_setzero_ps();
  if (t.kind == Kind::kPieces) {
    for (int i = 0; i < t.pieces; ++i) {
      const float* run = plane + t.base[i];
      const uint64_t m = t.load_mask[i];
      const __m256 piece = stride2 ? Evens(_mm256_maskload_ps(run, LanesOf(m)),
                                           _mm256_maskload_ps(run + 8, LanesOf(m >> 8)))
                                   : _mm256_maskload_ps(run, LanesOf(m));
      value = _mm256_or_ps(value, piece);
    }
  } else if (t.kind == Kind::kGather) {
    const __m256i index = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.index));
    value = _mm256_mask_i32gather_ps(value, plane, index,
                                     _mm256_castsi256_ps(LanesOf(t.gather_mask)), 4);
  }
  return value;
}

// C = A * B with B stored or implicit, as unpacked_gemm.cc's Product; with kOntoC, C += A * B.
template <bool kStored, bool kOntoC = false>
void Product(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
             int64_t ldb, const ConvColumns* cols, int64_t o0, float* C, int64_t ldc,
             const RowEpilogue* e) {
  constexpr int kRows = 6;
  // A few columns past the last whole vector are dot products (DotRows), done with the last strip
  // (or alone when there are no whole vectors); the rest are blocks.
  const int64_t dot = N % kLanes <= kMaxDotColumns ? N % kLanes : 0, blocked = N - dot;
  // The strip's copy (kKSlice x kStripColumns, 32 KB), written by the first block of each slice
  // before the others read it; then the dot columns' slice.
  thread_local Scratch scratch;
  float* const packed = scratch.Array<float>(kKSlice * (kStripColumns + kMaxDotColumns));
  float* const columns = packed + kKSlice * kStripColumns;
  ColumnVector<kLanes>* table = nullptr;
  int64_t* dot_offsets = nullptr;
  const bool stride2 = cols != nullptr && cols->win.stride_w == 2;
  if constexpr (!kStored) {
    thread_local Scratch table_scratch;
    const int64_t cells = cols->win.kernel_h * cols->win.kernel_w;
    const int64_t table_bytes = cells * kVectors * int64_t{sizeof(ColumnVector<kLanes>)};
    char* const memory = static_cast<char*>(
        table_scratch.Get(table_bytes + cells * kMaxDotColumns * int64_t{sizeof(int64_t)}));
    table = reinterpret_cast<ColumnVector<kLanes>*>(memory);
    dot_offsets = reinterpret_cast<int64_t*>(memory + table_bytes);
  }
  for (int64_t j = 0; j < blocked || (j == 0 && dot > 0); j += kStripColumns) {
    const __m256i masks[kVectors] = {FirstLanes8(blocked - j), FirstLanes8(blocked - j - kLanes)};
    // A strip of at most 8 columns takes one vector; none when every column is a dot product.
    const int vectors = blocked - j <= 0 ? 0 : (blocked - j <= kLanes ? 1 : 2);
    const bool with_dot = dot > 0 && j + kStripColumns >= blocked;
    const bool more_strips = j + kStripColumns < blocked;
    if constexpr (!kStored) {
      const int64_t strip = blocked - j < kStripColumns ? blocked - j : kStripColumns;
      if (vectors > 0) BuildColumnTable<kLanes>(cols->win, o0 + j, strip, vectors, table);
      if (with_dot) BuildDotTable<kMaxDotColumns>(cols->win, o0 + blocked, dot, dot_offsets);
    }
    for (int64_t k = 0; k < K; k += kKSlice) {
      const int64_t slice = K - k < kKSlice ? K - k : kKSlice;
      const RowEpilogue* last = k + slice == K ? e : nullptr;
      if (with_dot) {
        if constexpr (kStored) {
          for (int64_t p = 0; p < slice; ++p) {
            for (int64_t c = 0; c < dot; ++c)
              columns[c * slice + p] = B[(k + p) * ldb + blocked + c];
          }
        } else {
          PackDotColumns<kMaxDotColumns>(*cols, dot_offsets, dot, k, slice, columns);
        }
      }
      if constexpr (!kStored) {
        if (vectors > 0) {
          PackStrip<kLanes>(
              *cols, table, vectors, k, slice, kStripColumns, packed,
              [stride2](const ColumnVector<kLanes>& t, const float* plane, float* dst) {
                _mm256_store_ps(dst, ColumnVectorOf(t, plane, stride2));
              });
        }
      }
      // The next strip's rows, asked for a share a block (next_strip.h). BERT's 128 x 768 x 3072:
      // the first blocks took 14% of the time for 1 block in 22, 5% so; the product 8.0 -> 7.2 ms,
      // the BERT layer on these kernels 23.1 -> 20.8 ms. Asked for a few rows per run of k inside
      // the blocks instead: slower than without.
      const NextStrip<kStripColumns, kKSlice> next(kStored ? B : nullptr, ldb, M, K, kRows, j,
                                                   blocked, k, slice);
      for (int64_t i = 0; i < M; i += kRows) {
        const int rows = static_cast<int>(M - i < kRows ? M - i : kRows);
        if (vectors > 0 && i > 0) next.PrefetchShare(i / kRows);
        if (kStored && vectors > 0 && i == 0) {
          BlockOf<true>(vectors, rows, slice, A + i * lda + k, lda, B + k * ldb + j, ldb,
                        C + i * ldc + j, ldc, masks, kOntoC || k > 0, more_strips, packed, last, i);
        } else if (vectors > 0) {
          BlockOf<false>(vectors, rows, slice, A + i * lda + k, lda, packed, kStripColumns,
                         C + i * ldc + j, ldc, masks, kOntoC || k > 0, more_strips, nullptr, last,
                         i);
        }
        if (with_dot) {
          (dot == 1 ? DotRows<1> : DotRows<2>)(rows, slice, A + i * lda + k, lda, columns,
                                               C + i * ldc + blocked, ldc, kOntoC || k > 0, last,
                                               i);
        }
      }
    }
  }
}

// Rows [0, M) x columns [0, N) of C set to the epilogue of zeros (a product over K = 0).
void EpilogueOfZeros(int64_t M, int64_t N, float* C, int64_t ldc, const RowEpilogue* e) {
  for (int64_t i = 0; i < M; ++i) {
    const __m256 v = e != nullptr ? Finish(_mm256_setzero_ps(), *e, i) : _mm256_setzero_ps();
    for (int64_t j = 0; j < N; j += kLanes)
      _mm256_maskstore_ps(C + i * ldc + j, FirstLanes8(N - j), v);
  }
}

// C (+= with kOntoC) = A * B from B packed in strips by PackGemmBF32: every row block reads the
// strip's copy, none B in place. The blocks and their order are Product's for N % 8 not 1 or 2
// (no dot columns), so are the bits.
template <bool kOntoC>
void PackedProduct(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                   const float* packed_b, int64_t ldp, float* C, int64_t ldc,
                   const RowEpilogue* e) {
  constexpr int kRows = 6;
  for (int64_t j = 0; j < N; j += kStripColumns) {
    const __m256i masks[kVectors] = {FirstLanes8(N - j), FirstLanes8(N - j - kLanes)};
    const int vectors = N - j <= kLanes ? 1 : 2;
    const bool more_strips = j + kStripColumns < N;
    const float* strip = packed_b + j * ldp;
    for (int64_t k = 0; k < K; k += kKSlice) {
      const int64_t slice = K - k < kKSlice ? K - k : kKSlice;
      const RowEpilogue* last = k + slice == K ? e : nullptr;
      const NextPackedSlice<kStripColumns, kKSlice> next(strip, ldp, N, K, M, kRows, j, k, slice);
      for (int64_t i = 0; i < M; i += kRows) {
        const int rows = static_cast<int>(M - i < kRows ? M - i : kRows);
        if (i > 0) next.PrefetchShare(i / kRows);
        BlockOf<false>(vectors, rows, slice, A + i * lda + k, lda, strip + k * kStripColumns,
                       kStripColumns, C + i * ldc + j, ldc, masks, kOntoC || k > 0, more_strips,
                       nullptr, last, i);
      }
    }
  }
}

}  // namespace

bool UnpackedGemmF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
                     int64_t ldb, float* C, int64_t ldc, const RowEpilogue* e) {
  if (K == 0) return false;
  OverSlicesOfK<kKSlice>(
      M, K, e, [&](int64_t k, int64_t slice, auto onto_c, const RowEpilogue* last) {
        Product<true, onto_c>(M, N, slice, A + k, lda, B + k * ldb, ldb, nullptr, 0, C, ldc, last);
      });
  return true;
}

bool PackGemmBF32(int64_t K, int64_t N, const float* B, int64_t ldb, float* packed) {
  if (!PackableColumns<kLanes, kMaxDotColumns>(N)) return false;
  PackStrips<kStripColumns>(K, N, B, ldb, packed);
  return true;
}

bool PackedGemmF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                   const float* packed_b, int64_t K_packed, float* C, int64_t ldc,
                   const RowEpilogue* e) {
  if (K == 0 || !PackableColumns<kLanes, kMaxDotColumns>(N)) return false;
  OverSlicesOfK<kKSlice>(
      M, K, e, [&](int64_t k, int64_t slice, auto onto_c, const RowEpilogue* last) {
        PackedProduct<onto_c>(M, N, slice, A + k, lda, packed_b + k * kStripColumns, K_packed, C,
                              ldc, last);
      });
  return true;
}

void ConvGemmF32(int64_t M, const float* A, int64_t lda, const ConvColumns& cols, int64_t o0,
                 int64_t o1, float* C, int64_t ldc, const RowEpilogue* e) {
  const int64_t K = cols.channels * cols.win.kernel_h * cols.win.kernel_w, N = o1 - o0;
  if (M == 0 || N <= 0) return;
  if (K == 0) return EpilogueOfZeros(M, N, C + o0, ldc, e);
  Product<false>(M, N, K, A, lda, nullptr, 0, &cols, o0, C + o0, ldc, e);
}

void GemmEpilogueF32(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
                     int64_t ldb, float* C, int64_t ldc, const RowEpilogue& e) {
  if (M == 0 || N == 0) return;
  if (UnpackedGemmF32(M, N, K, A, lda, B, ldb, C, ldc, &e)) return;
  EpilogueOfZeros(M, N, C, ldc, &e);  // K == 0
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // defined(__AVX2__) && !defined(__AVX512F__)
