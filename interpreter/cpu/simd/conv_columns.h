// Where a strip of a convolution's column matrix (vector_kernels.h: ConvColumns) comes from in its
// input, so that a GEMM can fill the strip from the input planes as it goes (an implicit im2col)
// instead of reading a column matrix written out first: ResNet-50's 3x3 layers spent ~11% of their
// time writing and re-reading one (conv_matmul_bench, 64 -> 64 channels at 56x56).
//
// A strip is `vectors` vectors of kLanes consecutive output positions. For each kernel cell (kh,
// kw) and vector, the lanes inside the input read a channel plane at offsets that, along a run of
// one output row, step by the column stride: a vector is then one or a few such runs (pieces), each
// a masked load (stride 1) or a masked load of twice the lanes compressed (stride 2), or else a
// gather. The table is the same for every channel (offsets are within a plane).
#ifndef ONNX_OPT_INTERPRETER_CPU_SIMD_CONV_COLUMNS_H_
#define ONNX_OPT_INTERPRETER_CPU_SIMD_CONV_COLUMNS_H_

#include <cstdint>

#include "interpreter/cpu/simd/simd.h"

namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS {

// Runs of one output row a vector is read as at most (a 16-lane vector over output rows of 28
// spans two; of 7, three): more make it a gather.
constexpr int kMaxPieces = 3;

template <int kLanes>
struct ColumnVector {
  // kWhole: one run over every lane (base[0]), read without a mask: most vectors of a layer's
  // inner rows, and masked loads (AVX2's above all) cost more.
  enum class Kind : uint8_t { kZero, kWhole, kPieces, kGather };
  Kind kind;
  int pieces;
  // Piece p: lane l (when its run's) reads plane[base[p] + stride * l]: the stride * kLanes
  // elements from plane + base[p] loaded under load_mask[p] (bit stride * l set for the run's
  // lanes) and, for stride 2, the even ones kept. base[p] may be negative: the elements before the
  // run's first are masked off and not read.
  int64_t base[kMaxPieces];
  uint64_t load_mask[kMaxPieces];
  uint32_t gather_mask;               // kGather: the lanes inside the input
  alignas(64) int32_t index[kLanes];  // kGather: each lane's offset in the plane
};

// The table of the strip of columns [o0, o0 + count) (count <= vectors * kLanes; lanes past it read
// as zero): entry cell * vectors + v for cell = kh * kernel_w + kw. Pieces need a column stride of
// 1 or 2; other strides gather. Built a run of lanes at a time (a strip is rebuilt for every
// strip of the product: per lane, it cost a 3x3 layer at 56x56 15% of its time).
// Bits [first, end) of a word (end <= 64).
inline uint64_t BitRange(int64_t first, int64_t end) {
  const uint64_t below_end = end >= 64 ? ~uint64_t{0} : (uint64_t{1} << end) - 1;
  return below_end & ~((uint64_t{1} << first) - 1);
}

// ceil(a / b) for a > 0, b >= 1, without a division for the common strides.
inline int64_t CeilDivBy(int64_t a, int64_t b) {
  if (b == 1) return a;
  if (b == 2) return (a + 1) >> 1;
  return (a + b - 1) / b;
}

template <int kLanes>
void BuildColumnTable(const Window2d& win, int64_t o0, int64_t count, int vectors,
                      ColumnVector<kLanes>* table) {
  using Kind = typename ColumnVector<kLanes>::Kind;
  const int64_t cells = win.kernel_h * win.kernel_w, sw = win.stride_w;
  const bool runs_fit = sw == 1 || sw == 2;
  for (int v = 0; v < vectors; ++v) {
    // The vector's lanes as runs along output rows: run r is lanes [lane[r], lane[r + 1]) of
    // output row oh[r] from column ow[r].
    constexpr int kMaxRuns = kLanes + 1;
    int64_t lane[kMaxRuns + 1], oh[kMaxRuns], ow[kMaxRuns];
    int runs = 0;
    const int64_t lanes = count - v * kLanes < kLanes ? count - v * kLanes : kLanes;
    for (int64_t l = 0; l < lanes; ++runs) {
      const int64_t o = o0 + v * kLanes + l;
      lane[runs] = l;
      oh[runs] = o / win.out_w;
      ow[runs] = o % win.out_w;
      l += win.out_w - ow[runs] < lanes - l ? win.out_w - ow[runs] : lanes - l;
    }
    lane[runs] = lanes;
    for (int64_t cell = 0, kh = 0, kw = 0; cell < cells; ++cell) {
      ColumnVector<kLanes>& t = table[cell * vectors + v];
      t.pieces = 0;
      t.gather_mask = 0;
      t.base[0] = 0;  // where a vector of no piece is prefetched from
      for (int r = 0; r < runs; ++r) {
        const int64_t ih = oh[r] * win.stride_h - win.pad_top + kh * win.dilation_h;
        if (ih < 0 || ih >= win.in_h) continue;
        // Lane lane[r] + i reads column x0 + i * sw: inside the row for i in [i_lo, i_hi).
        const int64_t x0 = ow[r] * sw - win.pad_left + kw * win.dilation_w;
        const int64_t len = lane[r + 1] - lane[r];
        int64_t i_lo = x0 >= 0 ? 0 : CeilDivBy(-x0, sw);
        int64_t i_hi = win.in_w - x0 <= 0 ? 0 : CeilDivBy(win.in_w - x0, sw);
        i_hi = i_hi < len ? i_hi : len;
        if (i_lo >= i_hi) continue;
        const int64_t first = lane[r] + i_lo, end = lane[r] + i_hi;
        t.gather_mask |= static_cast<uint32_t>(BitRange(first, end));
        if (t.pieces < kMaxPieces) {
          t.base[t.pieces] = ih * win.in_w + x0 - sw * lane[r];
          // Bits sw * l for l in [first, end).
          t.load_mask[t.pieces] =
              sw == 1 ? BitRange(first, end) : BitRange(2 * first, 2 * end) & 0x5555555555555555u;
        }
        ++t.pieces;
      }
      if (t.gather_mask == 0) {
        t.kind = Kind::kZero;
      } else if (runs_fit && t.pieces == 1 && t.gather_mask == BitRange(0, kLanes)) {
        t.kind = Kind::kWhole;
      } else if (runs_fit && t.pieces <= kMaxPieces) {
        t.kind = Kind::kPieces;
      } else {
        t.kind = Kind::kGather;
        for (int l = 0; l < kLanes; ++l) t.index[l] = 0;
        for (int r = 0; r < runs; ++r) {
          const int64_t ih = oh[r] * win.stride_h - win.pad_top + kh * win.dilation_h;
          const int64_t x0 = ow[r] * sw - win.pad_left + kw * win.dilation_w;
          for (int64_t l = lane[r]; l < lane[r + 1]; ++l) {
            if ((t.gather_mask >> l) & 1u)
              t.index[l] = static_cast<int32_t>(ih * win.in_w + x0 + (l - lane[r]) * sw);
          }
        }
      }
      if (++kw == win.kernel_w) {
        kw = 0;
        ++kh;
      }
    }
  }
}

// Offsets in the plane of `count` single columns [o0, o0 + count) for each cell (entry cell *
// kMaxDot + c), -1 where the window is outside the input.
template <int kMaxDot>
void BuildDotTable(const Window2d& win, int64_t o0, int64_t count, int64_t* table) {
  const int64_t cells = win.kernel_h * win.kernel_w;
  for (int64_t cell = 0; cell < cells; ++cell) {
    const int64_t kh = cell / win.kernel_w, kw = cell % win.kernel_w;
    for (int64_t c = 0; c < count; ++c) {
      const int64_t o = o0 + c, oh = o / win.out_w, ow = o % win.out_w;
      const int64_t ih = oh * win.stride_h - win.pad_top + kh * win.dilation_h;
      const int64_t iw = ow * win.stride_w - win.pad_left + kw * win.dilation_w;
      const bool inside = ih >= 0 && ih < win.in_h && iw >= 0 && iw < win.in_w;
      table[cell * kMaxDot + c] = inside ? ih * win.in_w + iw : -1;
    }
  }
}

// Fills rows [k0, k0 + slice) of a strip of the implicit column matrix `cols` (rows of
// `strip_columns` floats at `packed`, the GEMM's copy of a strip), as `table` (BuildColumnTable)
// says for the strip's `vectors` vectors: store_vector(entry, channel plane, destination) writes
// one. Row by row, so that the copy is written in order and a channel's rows read the same few
// lines of its plane (a cell at a time over the channels, each store a line of its own, cost 10%
// of a 3x3 layer at 56x56). The same vector two channels on is prefetched: the strip's few lines
// of each plane are far apart, and read from L2 or L3 on demand they cost that layer 3%.
template <int kLanes, typename StoreVector>
void PackStrip(const ConvColumns& cols, const ColumnVector<kLanes>* table, int vectors, int64_t k0,
               int64_t slice, int64_t strip_columns, float* packed, StoreVector store_vector) {
  const int64_t cells = cols.win.kernel_h * cols.win.kernel_w;
  const int64_t plane_size = cols.win.in_h * cols.win.in_w;
  int64_t c = k0 / cells, cell = k0 % cells;
  for (int64_t p = 0; p < slice; ++p) {
    const float* plane = cols.x + c * plane_size;
    const ColumnVector<kLanes>* t = table + cell * vectors;
    float* dst = packed + p * strip_columns;
    for (int v = 0; v < vectors; ++v) {
      store_vector(t[v], plane, dst + v * kLanes);
      // An address two planes on, perhaps past the input (prefetches do not fault).
      __builtin_prefetch(
          reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(plane) +
                                        (2 * plane_size + t[v].base[0]) * int64_t{sizeof(float)}));
    }
    if (++cell == cells) {
      cell = 0;
      ++c;
    }
  }
}

// Rows [k0, k0 + slice) of `count` single columns of the implicit column matrix (column d at
// columns + d * slice), from their offsets (BuildDotTable).
template <int kMaxDot>
void PackDotColumns(const ConvColumns& cols, const int64_t* offsets, int64_t count, int64_t k0,
                    int64_t slice, float* columns) {
  const int64_t cells = cols.win.kernel_h * cols.win.kernel_w;
  const int64_t plane_size = cols.win.in_h * cols.win.in_w;
  int64_t c = k0 / cells, cell = k0 % cells;
  for (int64_t p = 0; p < slice; ++p) {
    const float* plane = cols.x + c * plane_size;
    for (int64_t d = 0; d < count; ++d) {
      const int64_t offset = offsets[cell * kMaxDot + d];
      columns[d * slice + p] = offset >= 0 ? plane[offset] : 0.0f;
    }
    if (++cell == cells) {
      cell = 0;
      ++c;
    }
  }
}

}  // namespace onnx_opt::interpreter::ONNX_OPT_SIMD_NS

#endif  // ONNX_OPT_INTERPRETER_CPU_SIMD_CONV_COLUMNS_H_
