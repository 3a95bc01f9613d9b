// 3x3 convolutions at stride 1 by Winograd's minimal filtering F(2x2, 3x3): each 2x2 tile of the
// output is A^T [U (.) (B^T d B)] A, with d the 4x4 input tile it reads and U = G g G^T the filter
// transformed once (PackWinogradWeights), so that the 16 elements (.) are 16 matrix products over
// the channels, U[xi] (M x C) times V[xi] (C x tiles): 16 multiply-adds per channel and tile
// where the direct convolution spends 36, 2.25 times fewer. B^T has entries 0 and +-1 and A^T
// likewise, so the transforms are additions only; G's halves are folded into U.
//
// A call computes a block of at most kWinogradTiles tiles for a range of output channels: the
// input transform of the block into V (16 planes of C rows, tiles along the row, the GEMM's right
// operand as it is stored), then per chunk of output channels the 16 products into P and the
// output transform of P into Y, finished (bias, epilogue) as it is stored. The block's V and a
// chunk's P stay in L2 between the steps. Tiles run along the output's rows of tiles, so the
// tiles of one row of them are consecutive columns of V: their input columns, 2t .. 2t + 3, are
// two even/odd splits of one padded input row.
//
// The sums are not the direct convolution's (other terms, another order): an output differs from
// it by a few ulps of its terms' magnitudes, as a GEMM with another K order would.
#include "interpreter/cpu/simd/simd.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <algorithm>
#include <cstring>

#include "interpreter/cpu/scratch.h"
#include "interpreter/cpu/simd/epilogue.h"
#include "interpreter/cpu/simd/intrinsics.h"
#include "interpreter/cpu/simd/stride_vectors.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {
namespace {

using V = StrideVector;
constexpr int64_t kLanes = kStrideLanes;
// Output channels per chunk: its P (16 x 64 rows of up to kWinogradTiles floats, 256 KB) and the
// block's V (16 x C rows) in L2 together for C up to 128.
constexpr int64_t kChunkChannels = 64;

#if defined(__AVX512F__)
inline V Load(const float* p) { return _mm512_loadu_ps(p); }
inline V Add(V a, V b) { return _mm512_add_ps(a, b); }
inline V Sub(V a, V b) { return _mm512_sub_ps(a, b); }
inline V Zero() { return _mm512_setzero_ps(); }
// Lanes 0..7 of a and b alternating, then lanes 8..15 (an output row's 2 columns per tile).
inline void Interleave(V a, V b, V* lo, V* hi) {
  const __m512i lo_index =
      _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i hi_index =
      _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  *lo = _mm512_permutex2var_ps(a, lo_index, b);
  *hi = _mm512_permutex2var_ps(a, hi_index, b);
}
// The first n (0..16) lanes of v.
inline void StoreFirst(float* p, V v, int64_t n) { _mm512_mask_storeu_ps(p, FirstLanes16(n), v); }
#else
inline V Load(const float* p) { return _mm256_loadu_ps(p); }
inline V Add(V a, V b) { return _mm256_add_ps(a, b); }
inline V Sub(V a, V b) { return _mm256_sub_ps(a, b); }
inline V Zero() { return _mm256_setzero_ps(); }
inline void Interleave(V a, V b, V* lo, V* hi) {
  const __m256 l = _mm256_unpacklo_ps(a, b), h = _mm256_unpackhi_ps(a, b);  // per 128-bit half
  *lo = _mm256_permute2f128_ps(l, h, 0x20);
  *hi = _mm256_permute2f128_ps(l, h, 0x31);
}
// The first n (0..8) lanes of v: a maskstore only for a part (AMD cores microcode it).
inline void StoreFirst(float* p, V v, int64_t n) {
  if (n >= kLanes) return _mm256_storeu_ps(p, v);
  if (n > 0) _mm256_maskstore_ps(p, FirstLanes8(n), v);
}
#endif

// The first n (0..2 * kLanes) floats of lo then hi.
inline void StorePair(float* p, V lo, V hi, int64_t n) {
  if (n >= 2 * kLanes) {
    StrideStore(p, lo);
    StrideStore(p + kLanes, hi);
    return;
  }
  StoreFirst(p, lo, n);
  if (n > kLanes) StoreFirst(p + kLanes, hi, n - kLanes);
}

// A run of tiles on one row of them: tile row th, tile columns [tw0, tw1), columns [j0, j0 + tw1 -
// tw0) of the block.
struct Run {
  int64_t th, tw0, tw1, j0;
};

// The runs of tiles [t0, t1) (tiles_w to a row), at most kWinogradTiles of them.
int64_t RunsOf(int64_t t0, int64_t t1, int64_t tiles_w, Run* runs) {
  int64_t n = 0;
  for (int64_t t = t0; t < t1;) {
    const int64_t th = t / tiles_w, tw0 = t % tiles_w;
    const int64_t tw1 = std::min(tiles_w, tw0 + (t1 - t));
    runs[n++] = Run{th, tw0, tw1, t - t0};
    t += tw1 - tw0;
  }
  return n;
}

// Floats of a padded input line: a run's 2 * tiles + 2 columns, and what the last vector's two
// even/odd splits read past them.
constexpr int64_t kLineFloats = 2 * kWinogradTiles + 4 * kLanes;

// line[i] = the input row ih's column x0 + i, zero outside the plane (or where ih is), for i in
// [0, kLineFloats).
void PaddedLine(const float* plane, const Window2d& win, int64_t ih, int64_t x0, float* line) {
  if (ih < 0 || ih >= win.in_h) {
    std::memset(line, 0, sizeof(float) * kLineFloats);
    return;
  }
  const float* row = plane + ih * win.in_w;
  const int64_t lo = std::clamp<int64_t>(-x0, 0, kLineFloats);
  const int64_t hi = std::clamp<int64_t>(win.in_w - x0, lo, kLineFloats);
  std::memset(line, 0, sizeof(float) * lo);
  std::memcpy(line + lo, row + x0 + lo, sizeof(float) * (hi - lo));
  std::memset(line + hi, 0, sizeof(float) * (kLineFloats - hi));
}

// B^T d of one input row's tiles (d its columns 2t .. 2t + 3): h[0..3] for kLanes tiles from
// line + 2j.
inline void RowTransform(const float* line, V* h) {
  V e0, o0, e1, o1;
  EvenOdd(line, &e0, &o0);      // columns 2t, 2t + 1
  EvenOdd(line + 2, &e1, &o1);  // columns 2t + 2, 2t + 3
  h[0] = Sub(e0, e1);
  h[1] = Add(o0, e1);
  h[2] = Sub(e1, o0);
  h[3] = Sub(o0, o1);
}

// V[xi][c][j] for the block's runs, channel c: V at v, rows ldv apart, planes plane_stride apart.
void InputTransform(const float* x, int64_t channels, const Window2d& win, const Run* runs,
                    int64_t run_count, float* v, int64_t ldv, int64_t plane_stride, float* lines) {
  for (int64_t c = 0; c < channels; ++c) {
    const float* plane = x + c * win.in_h * win.in_w;
    float* vc = v + c * ldv;
    for (int64_t r = 0; r < run_count; ++r) {
      const Run& run = runs[r];
      const int64_t x0 = 2 * run.tw0 - win.pad_left, y0 = 2 * run.th - win.pad_top;
      for (int64_t i = 0; i < 4; ++i) PaddedLine(plane, win, y0 + i, x0, lines + i * kLineFloats);
      // Whole vectors: a part past the run spills into the next run's columns (written after) or
      // into the row's slack.
      for (int64_t j = 0; j < run.tw1 - run.tw0; j += kLanes) {
        V h0[4], h1[4], h2[4], h3[4];
        RowTransform(lines + 2 * j, h0);
        RowTransform(lines + kLineFloats + 2 * j, h1);
        RowTransform(lines + 2 * kLineFloats + 2 * j, h2);
        RowTransform(lines + 3 * kLineFloats + 2 * j, h3);
        float* out = vc + run.j0 + j;
        for (int b = 0; b < 4; ++b) {
          StrideStore(out + (0 * 4 + b) * plane_stride, Sub(h0[b], h2[b]));
          StrideStore(out + (1 * 4 + b) * plane_stride, Add(h1[b], h2[b]));
          StrideStore(out + (2 * 4 + b) * plane_stride, Sub(h2[b], h1[b]));
          StrideStore(out + (3 * 4 + b) * plane_stride, Sub(h1[b], h3[b]));
        }
      }
    }
  }
}

// A^T m of one tile row a of the products: s[0..1] from m[a][0..3].
inline void OutputRow(const V* m, V* s) {
  s[0] = Add(Add(m[0], m[1]), m[2]);
  s[1] = Sub(Sub(m[1], m[2]), m[3]);
}

// Output channels [m0, m0 + count) of the block's tiles from their products P[xi][m - m0][j] (p,
// rows ldp apart, planes plane_stride apart), finished by e (its row m) when given.
void OutputTransform(const float* p, int64_t ldp, int64_t plane_stride, int64_t m0, int64_t count,
                     const Window2d& win, const Run* runs, int64_t run_count, const RowEpilogue* e,
                     float* y) {
  const int64_t OH = win.out_h, OW = win.out_w;
  for (int64_t m = 0; m < count; ++m) {
    const int64_t row = m0 + m;
    const bool biased = e != nullptr && e->bias != nullptr;
    const bool scaled = e != nullptr && e->scale != nullptr;
    const V bias = biased ? StrideSet1(e->bias[row]) : Zero();
    const V scale = scaled ? StrideSet1(e->scale[row]) : Zero();
    const V shift = scaled ? StrideSet1(e->shift[row]) : Zero();
    float* plane = y + row * OH * OW;
    for (int64_t r = 0; r < run_count; ++r) {
      const Run& run = runs[r];
      for (int64_t j = 0; j < run.tw1 - run.tw0; j += kLanes) {
        const float* pj = p + m * ldp + run.j0 + j;
        V s[4][2];
        for (int a = 0; a < 4; ++a) {
          V ma[4];
          for (int b = 0; b < 4; ++b) ma[b] = Load(pj + (a * 4 + b) * plane_stride);
          OutputRow(ma, s[a]);
        }
        V out[2][2];
        for (int b = 0; b < 2; ++b) {
          out[0][b] = Add(Add(s[0][b], s[1][b]), s[2][b]);
          out[1][b] = Sub(Sub(s[1][b], s[2][b]), s[3][b]);
        }
        const int64_t tw = run.tw0 + j, tiles = std::min(kLanes, run.tw1 - tw);
        const int64_t columns = std::min(2 * tiles, OW - 2 * tw);
        for (int i = 0; i < 2; ++i) {
          const int64_t oh = 2 * run.th + i;
          if (oh >= OH) break;
          V y0 = out[i][0], y1 = out[i][1];
          if (e != nullptr) {
            if (biased) {
              y0 = Add(y0, bias);
              y1 = Add(y1, bias);
            }
            y0 = FinishVector(y0, scaled, scale, shift, *e);
            y1 = FinishVector(y1, scaled, scale, shift, *e);
          }
          V lo, hi;
          Interleave(y0, y1, &lo, &hi);
          StorePair(plane + oh * OW + 2 * tw, lo, hi, columns);
        }
      }
    }
  }
}

}  // namespace

void Winograd3x3F32(const float* x, int64_t channels, const Window2d& win, const float* u,
                    int64_t M, const RowEpilogue* e, int64_t t0, int64_t t1, int64_t m0, int64_t m1,
                    float* y) {
  const int64_t C = channels, tiles_w = (win.out_w + 1) / 2, n = t1 - t0;
  if (n <= 0 || m1 <= m0) return;
  Run runs[kWinogradTiles];
  const int64_t run_count = RunsOf(t0, t1, tiles_w, runs);
  // V: 16 planes of C rows of ld floats (the block's tiles rounded up to whole vectors), each
  // plane followed by a vector of slack for the last row's spill; P likewise for a chunk.
  const int64_t ld = (n + kLanes - 1) / kLanes * kLanes;
  const int64_t v_plane = C * ld + kLanes, p_plane = kChunkChannels * ld + kLanes;
  thread_local Scratch scratch;
  float* const v = scratch.Array<float>(16 * (v_plane + p_plane) + 4 * kLineFloats);
  float* const p = v + 16 * v_plane;
  float* const lines = p + 16 * p_plane;
  InputTransform(x, C, win, runs, run_count, v, ld, v_plane, lines);
  for (int64_t c0 = m0; c0 < m1; c0 += kChunkChannels) {
    const int64_t count = std::min(kChunkChannels, m1 - c0);
    for (int64_t xi = 0; xi < 16; ++xi) {
      UnpackedGemmF32(count, n, C, u + (xi * M + c0) * C, C, v + xi * v_plane, ld, p + xi * p_plane,
                      ld);
    }
    OutputTransform(p, ld, p_plane, c0, count, win, runs, run_count, e, y);
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // defined(__AVX2__) && defined(__FMA__)
