// C = A * B for float GEMMs without transposes, reading A in place: each 6 x 64 block of C is
// summed in 24 registers over a slice of K from a 64-column strip of B and stored once per slice.
// The strip is read in place by the first block of rows, which copies it contiguous for the others
// (see kPrefetchRows). Eigen packs both operands into panels and zero-fills C before accumulating
// into it; on cores that run 512-bit FMAs as two halves (AMD Zen 4) that overhead is not hidden,
// and measured side by side on one such core this kernel reaches 83-95% of peak where Eigen reaches
// 53-85% (conv_matmul_bench: ResNet-50's 3x3 and 1x1 convolutions, BERT's MatMuls, MobileNetV2's
// 1x1 expansions). AVX-512 (masked loads and stores cover the last columns); AVX2 has its own form
// (unpacked_gemm_avx2.cc); the baseline keeps Eigen.
#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX512F__)
#include <cstdint>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/simd/conv_columns.h"
#include "interpreter/cpu/simd/epilogue.h"
#include "interpreter/cpu/simd/intrinsics.h"
#include "interpreter/cpu/simd/next_strip.h"
#include "interpreter/cpu/simd/packed_b.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

constexpr int kLanes = 16;
constexpr int kVectors = 4;  // columns per block: 4 x 16
// K is taken in slices of this many rows of B, so a strip of B (512 x 64 floats, 128 KB) stays in
// L2 while every row block of A passes over it; later slices add to C.
constexpr int64_t kKSlice = 512;
constexpr int64_t kStripColumns = kVectors * kLanes;
// The first row block over a strip asks for B's rows this many ahead (see Block), and copies the
// strip's rows, contiguous, for the later row blocks: rows of B 4 or 12 KB apart (BERT's 768 and
// 3072 columns) fall in few sets of L2, and a strip of 512 of them thrashed there.
constexpr int64_t kPrefetchRows = 8;
// Blocks over at most this many steps of K ask for C's lines a strip ahead (see Block).
constexpr int64_t kShortK = 256;

// Rows [0, kR) (kR <= 6) x columns [0, kVectors * 16) of C from rows of A and a strip of B,
// `masks` limiting the columns of the last strip. The 24 accumulators are named variables: as an
// array GCC keeps them in memory and stores them on every step of k. A block of fewer rows (the
// last of M = 64: 4) has the FMAs of its rows only (computing and dropping 6 cost M = 64 and 128 3%
// of their FMAs). `accumulate`: add to C's values (a later slice of K) instead of overwriting them.
// v finished as row `row` of `e` says (vector_kernels.h: RowEpilogue), with the separate passes'
// operations and roundings.
inline __m512 Finish(__m512 v, const RowEpilogue& e, int64_t row) {
  if (e.bias != nullptr) v = _mm512_add_ps(v, _mm512_set1_ps(e.bias[row]));
  const bool scaled = e.scale != nullptr;
  return FinishVector(v, scaled, scaled ? _mm512_set1_ps(e.scale[row]) : _mm512_setzero_ps(),
                      scaled ? _mm512_set1_ps(e.shift[row]) : _mm512_setzero_ps(), e);
}

// `e`, when given (the last slice of K), finishes the rows before they are stored; row r of the
// block is row row0 + r of the epilogue. Only the first kV vectors of columns are computed: the
// last strip of a plane of 14x14 (196 columns) holds 4 columns, and 4 vectors of FMAs for them made
// the product cost 4 strips instead of 3 and a quarter.
template <bool kFirstPass, int kV, int kR>
void Block(int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb, float* C,
           int64_t ldc, const __mmask16 (&masks)[kVectors], bool accumulate, bool more_strips,
           float* packed, const RowEpilogue* e, int64_t row0) {
  const float* a[6];  // rows past kR name the last row (never read)
  for (int r = 0; r < 6; ++r) a[r] = A + (r < kR ? r : kR - 1) * lda;
#define ONNX_OPT_ACC(r, v)                                                     \
  __m512 c##r##v = accumulate && v < kV && r < kR                              \
                       ? _mm512_maskz_loadu_ps(masks[v], C + r * ldc + 16 * v) \
                       : _mm512_setzero_ps();
#define ONNX_OPT_ACC_ROW(r) \
  ONNX_OPT_ACC(r, 0) ONNX_OPT_ACC(r, 1) ONNX_OPT_ACC(r, 2) ONNX_OPT_ACC(r, 3)
  // clang-format off: rows of macro calls, which it cannot lay out stably
  ONNX_OPT_ACC_ROW(0)
  ONNX_OPT_ACC_ROW(1)
  ONNX_OPT_ACC_ROW(2)
  ONNX_OPT_ACC_ROW(3)
  ONNX_OPT_ACC_ROW(4)
  ONNX_OPT_ACC_ROW(5)
  // clang-format on
#undef ONNX_OPT_ACC_ROW
#undef ONNX_OPT_ACC
  // C's lines are asked for, for writing, while the block computes: a plane larger than the caches
  // (a 1x1 convolution's output) otherwise takes each store's read-for-ownership miss at the end.
  // A short block (K <= kShortK) asks for the next strip's instead, into L2 (its own when the strip
  // is the call's last): its own came too late, MobileNetV2's first expansion (K = 16, a 4.8 MB
  // output) took 0.85 ms in the model against 0.45 in conv_matmul_bench, 0.62 a strip ahead.
  for (int r = 0; r < kR; ++r) {
    if (more_strips && K <= kShortK) {
      for (int v = 0; v < kVectors; ++v)
        __builtin_prefetch(C + r * ldc + kStripColumns + 16 * v, 1, 2);
    } else {
      for (int v = 0; v < kV; ++v) __builtin_prefetch(C + r * ldc + 16 * v, 1, 3);
    }
  }
  // The next block's rows of A, a line of each per 16 steps of k: weights are read in place, and
  // in a model they come from L3 or memory (the layers take turns), where six rows 4 KB and more
  // apart are not what the hardware prefetchers follow (MobileNetV2's 1x1 convolutions at 7x7
  // took 1.6x as long with their weights out of cache as in it).
  const uintptr_t next_a = reinterpret_cast<uintptr_t>(A) + 6 * lda * sizeof(float);
  for (int64_t k = 0; k < K; ++k) {
    if ((k & 15) == 0) {
      for (int r = 0; r < 6; ++r) {
        _mm_prefetch(reinterpret_cast<const char*>(next_a + (r * lda + k) * sizeof(float)),
                     _MM_HINT_T0);
      }
    }
    const float* bk = B + k * ldb;
    if constexpr (kFirstPass) {
      // The strip's rows come from memory, a page apart or more, where the hardware prefetchers
      // do not follow.
      if (k + kPrefetchRows < K) {
        const float* ahead = bk + kPrefetchRows * ldb;
        for (int v = 0; v < kV; ++v)
          _mm_prefetch(reinterpret_cast<const char*>(ahead + 16 * v), _MM_HINT_T0);
      }
    }
    // The copy (later passes) holds zeros past the last column: plain aligned loads, which unlike
    // masked ones take no slot on the vector ports the FMAs need.
    __m512 b[kVectors];
    for (int v = 0; v < kV; ++v) {
      b[v] =
          kFirstPass ? _mm512_maskz_loadu_ps(masks[v], bk + 16 * v) : _mm512_load_ps(bk + 16 * v);
      if constexpr (kFirstPass) _mm512_store_ps(packed + k * kStripColumns + 16 * v, b[v]);
    }
#define ONNX_OPT_FMA_ROW(r)                                             \
  if constexpr (r < kR) {                                               \
    const __m512 ar = _mm512_set1_ps(a[r][k]);                          \
    c##r##0 = _mm512_fmadd_ps(ar, b[0], c##r##0);                       \
    if constexpr (kV > 1) c##r##1 = _mm512_fmadd_ps(ar, b[1], c##r##1); \
    if constexpr (kV > 2) c##r##2 = _mm512_fmadd_ps(ar, b[2], c##r##2); \
    if constexpr (kV > 3) c##r##3 = _mm512_fmadd_ps(ar, b[3], c##r##3); \
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
#define ONNX_OPT_STORE(r, v)                                        \
  if constexpr (v < kV) {                                           \
    if (e != nullptr) c##r##v = Finish(c##r##v, *e, row0 + r);      \
    _mm512_mask_storeu_ps(C + r * ldc + 16 * v, masks[v], c##r##v); \
  }
#define ONNX_OPT_STORE_ROW(r)                                                           \
  if constexpr (r < kR) {                                                               \
    ONNX_OPT_STORE(r, 0) ONNX_OPT_STORE(r, 1) ONNX_OPT_STORE(r, 2) ONNX_OPT_STORE(r, 3) \
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
#undef ONNX_OPT_STORE
}

// Block with the rows (1..6) and vectors the strip's columns need (1..kVectors).
template <bool kFirstPass, int kR>
void BlockOfRows(int vectors, int64_t K, const float* A, int64_t lda, const float* B, int64_t ldb,
                 float* C, int64_t ldc, const __mmask16 (&masks)[kVectors], bool accumulate,
                 bool more_strips, float* packed, const RowEpilogue* e, int64_t row0) {
  switch (vectors) {
    case 1:
      return Block<kFirstPass, 1, kR>(K, A, lda, B, ldb, C, ldc, masks, accumulate, more_strips,
                                      packed, e, row0);
    case 2:
      return Block<kFirstPass, 2, kR>(K, A, lda, B, ldb, C, ldc, masks, accumulate, more_strips,
                                      packed, e, row0);
    case 3:
      return Block<kFirstPass, 3, kR>(K, A, lda, B, ldb, C, ldc, masks, accumulate, more_strips,
                                      packed, e, row0);
    default:
      return Block<kFirstPass, 4, kR>(K, A, lda, B, ldb, C, ldc, masks, accumulate, more_strips,
                                      packed, e, row0);
  }
}

template <bool kFirstPass>
void BlockOf(int vectors, int rows, int64_t K, const float* A, int64_t lda, const float* B,
             int64_t ldb, float* C, int64_t ldc, const __mmask16 (&masks)[kVectors],
             bool accumulate, bool more_strips, float* packed, const RowEpilogue* e, int64_t row0) {
  switch (rows) {
#define ONNX_OPT_ROWS_CASE(n)                                                                \
  case n:                                                                                    \
    return BlockOfRows<kFirstPass, n>(vectors, K, A, lda, B, ldb, C, ldc, masks, accumulate, \
                                      more_strips, packed, e, row0);
    ONNX_OPT_ROWS_CASE(1)
    ONNX_OPT_ROWS_CASE(2)
    ONNX_OPT_ROWS_CASE(3)
    ONNX_OPT_ROWS_CASE(4)
    ONNX_OPT_ROWS_CASE(5)
    default:
      return BlockOfRows<kFirstPass, 6>(vectors, K, A, lda, B, ldb, C, ldc, masks, accumulate,
                                        more_strips, packed, e, row0);
#undef ONNX_OPT_ROWS_CASE
  }
}

// At most this many columns past C's last whole vector are computed as dot products (DotRows).
constexpr int64_t kMaxDotColumns = 4;

// Rows [0, rows) x columns [0, kN) of C (kN <= kMaxDotColumns) over one slice of K, as dot products
// of A's rows with `columns` (B's columns copied contiguous: column c at columns + c * K), added to
// C's values when `accumulate`, finished by `e` when given. In the blocks, those columns would take
// a whole vector of FMAs per row and step of K for 1 to 4 of its 16 lanes: ResNet-50's 7x7 planes
// (49 columns = 3 vectors and one lane) used 77% of the FMAs they paid for. Here an FMA takes 16
// steps of K of one column; the rows of A are read again right after their block read them (from
// L1/L2: read again after the whole product, from L3, they cost a third of the gain). 4 rows at a
// time share the column loads.
template <int kN>
void DotRows(int rows, int64_t K, const float* A, int64_t lda, const float* columns, float* C,
             int64_t ldc, bool accumulate, const RowEpilogue* e, int64_t row0) {
  const int64_t whole = K / kLanes * kLanes;
  const __mmask16 tail = FirstLanes16(K - whole);
  for (int i = 0; i < rows; i += 4) {
    const int group = rows - i < 4 ? rows - i : 4;
    const float* a[4];
    for (int r = 0; r < 4; ++r) a[r] = A + (i + (r < group ? r : group - 1)) * lda;
    __m512 acc[4][kN];
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < kN; ++c) acc[r][c] = _mm512_setzero_ps();
    }
    auto step = [&](int64_t k, __mmask16 m) {
      __m512 b[kN];
      for (int c = 0; c < kN; ++c) b[c] = _mm512_maskz_loadu_ps(m, columns + c * K + k);
      for (int r = 0; r < 4; ++r) {
        const __m512 ar = _mm512_maskz_loadu_ps(m, a[r] + k);
        for (int c = 0; c < kN; ++c) acc[r][c] = _mm512_fmadd_ps(ar, b[c], acc[r][c]);
      }
    };
    for (int64_t k = 0; k < whole; k += kLanes) step(k, 0xFFFF);
    if (tail != 0) step(whole, tail);
    for (int r = 0; r < group; ++r) {
      float* c_row = C + (i + r) * ldc;
      for (int c = 0; c < kN; ++c) {
        float v = _mm512_reduce_add_ps(acc[r][c]);
        if (accumulate) v = c_row[c] + v;
        // The blocks' own finish, on lane 0.
        if (e != nullptr) v = _mm512_cvtss_f32(Finish(_mm512_set1_ps(v), *e, row0 + i + r));
        c_row[c] = v;
      }
    }
  }
}

void DotRowsOf(int64_t n, int rows, int64_t K, const float* A, int64_t lda, const float* columns,
               float* C, int64_t ldc, bool accumulate, const RowEpilogue* e, int64_t row0) {
  switch (n) {
    case 1:
      return DotRows<1>(rows, K, A, lda, columns, C, ldc, accumulate, e, row0);
    case 2:
      return DotRows<2>(rows, K, A, lda, columns, C, ldc, accumulate, e, row0);
    case 3:
      return DotRows<3>(rows, K, A, lda, columns, C, ldc, accumulate, e, row0);
    default:
      return DotRows<4>(rows, K, A, lda, columns, C, ldc, accumulate, e, row0);
  }
}

// The vector of a strip of the implicit column matrix that entry `t` of its table says, from the
// channel plane at `plane`.
ONNX_OPT_MASKED_LOADS_PAST_BUFFERS inline __m512 ColumnVectorOf(const ColumnVector<kLanes>& t,
                                                                const float* plane, bool stride2) {
  using Kind = ColumnVector<kLanes>::Kind;
  const __m512i evens =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  if (t.kind == Kind::kWhole) {
    const float* run = plane + t.base[0];
    if (!stride2) return _mm512_loadu_ps(run);
    return _mm512_permutex2var_ps(_mm512_loadu_ps(run), evens, _mm512_loadu_ps(run + 16));
  }
  __m512 value = _mm512_setzero_ps();
  if (t.kind == Kind::kPieces) {
    for (int i = 0; i < t.pieces; ++i) {
      const float* run = plane + t.base[i];
      const uint64_t m = t.load_mask[i];
      if (!stride2) {
        value = _mm512_mask_loadu_ps(value, static_cast<__mmask16>(m), run);
        continue;
      }
      const __m512 lo = _mm512_maskz_loadu_ps(static_cast<__mmask16>(m), run);
      const __m512 hi = _mm512_maskz_loadu_ps(static_cast<__mmask16>(m >> 16), run + 16);
      value = _mm512_or_ps(value, _mm512_permutex2var_ps(lo, evens, hi));
    }
  } else if (t.kind == Kind::kGather) {
    value = _mm512_mask_i32gather_ps(value, static_cast<__mmask16>(t.gather_mask),
                                     _mm512_load_si512(t.index), plane, 4);
  }
  return value;
}

// C = A * B over M x N x K, B either stored (B, ldb: the first block of rows over a strip reads it
// in place and copies it for the others) or the columns [o0, o0 + N) of a convolution's implicit
// column matrix (*cols: each strip's slice packed from the input first, then read by every block).
// With kOntoC, C += A * B.
template <bool kStored, bool kOntoC = false>
void Product(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
             int64_t ldb, const ConvColumns* cols, int64_t o0, float* C, int64_t ldc,
             const RowEpilogue* e) {
  constexpr int kRows = 6;
  // A few columns past the last whole vector are dot products (DotRows), done with the last strip
  // (or alone when there are no whole vectors); the rest are blocks.
  const int64_t dot = N % kLanes <= kMaxDotColumns ? N % kLanes : 0, blocked = N - dot;
  // The strip's copy (kKSlice x kStripColumns, 128 KB), written by the first block of each slice
  // before the others read it (a vector per call zero-filled 128 KB first, and without a tuned heap
  // mapped fresh pages for it); then the dot columns' slice.
  thread_local Scratch scratch;
  float* const packed = scratch.Array<float>(kKSlice * (kStripColumns + kMaxDotColumns));
  float* const columns = packed + kKSlice * kStripColumns;
  // Implicit columns: where each strip's and the dot columns' values are in the input.
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
    __mmask16 masks[kVectors];
    const int64_t strip = blocked - j < kStripColumns ? blocked - j : kStripColumns;
    const int vectors = static_cast<int>((strip + kLanes - 1) / kLanes);
    for (int v = 0; v < kVectors; ++v) {
      const int64_t left = blocked - j - v * kLanes;
      masks[v] = FirstLanes16(left);
    }
    const bool with_dot = dot > 0 && j + kStripColumns >= blocked;
    const bool more_strips = j + kStripColumns < blocked;
    if constexpr (!kStored) {
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
                _mm512_store_ps(dst, ColumnVectorOf(t, plane, stride2));
              });
        }
      }
      // The next strip's rows, asked for a share a block (next_strip.h). BERT's 128 x 768 x 3072
      // 5.96 -> 5.60 ms, the BERT layer 19.8 -> 18.8 ms; convolutions within 2%.
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
          DotRowsOf(dot, rows, slice, A + i * lda + k, lda, columns, C + i * ldc + blocked, ldc,
                    kOntoC || k > 0, last, i);
        }
      }
    }
  }
}

// Rows [0, M) x columns [0, N) of C set to the epilogue of zeros (a product over K = 0).
void EpilogueOfZeros(int64_t M, int64_t N, float* C, int64_t ldc, const RowEpilogue* e) {
  for (int64_t i = 0; i < M; ++i) {
    const __m512 v = e != nullptr ? Finish(_mm512_setzero_ps(), *e, i) : _mm512_setzero_ps();
    for (int64_t j = 0; j < N; j += kLanes) {
      const __mmask16 m = FirstLanes16(N - j);
      _mm512_mask_storeu_ps(C + i * ldc + j, m, v);
    }
  }
}

// C (+= with kOntoC) = A * B from B packed in strips by PackGemmBF32: every row block reads the
// strip's copy, none B in place. The blocks and their order are Product's for N % 16 not in
// 1..kMaxDotColumns (no dot columns), so are the bits.
template <bool kOntoC>
void PackedProduct(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                   const float* packed_b, int64_t ldp, float* C, int64_t ldc,
                   const RowEpilogue* e) {
  constexpr int kRows = 6;
  for (int64_t j = 0; j < N; j += kStripColumns) {
    __mmask16 masks[kVectors];
    const int64_t strip_columns = N - j < kStripColumns ? N - j : kStripColumns;
    const int vectors = static_cast<int>((strip_columns + kLanes - 1) / kLanes);
    for (int v = 0; v < kVectors; ++v) masks[v] = FirstLanes16(N - j - v * kLanes);
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

#endif  // defined(__AVX512F__)
