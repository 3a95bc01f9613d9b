#include "interpreter/kernels/common.h"

#include <algorithm>
#include <cstring>

#include "interpreter/cpu/thread_pool.h"

namespace onnx_opt::interpreter {

absl::StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  // No allowance for scalars: callers index per-axis arrays of length rank with the result.
  if (axis < -rank || axis >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("axis ", axis, " is out of range for rank ", rank));
  }
  return axis < 0 ? axis + rank : axis;
}

absl::StatusOr<std::vector<int64_t>> NormalizeAxes(std::vector<int64_t> axes, int64_t rank) {
  for (int64_t& a : axes) {
    ASSIGN_OR_RETURN(a, NormalizeAxis(a, rank));
  }
  return axes;
}

std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  // Saturating: the dims of an empty tensor ([0, 2^40, 2^40]) may have products past int64; its
  // strides are never used to address an element.
  for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i) {
    if (__builtin_mul_overflow(s[i + 1], dims[i + 1], &s[i]))
      s[i] = std::numeric_limits<int64_t>::max();
  }
  return s;
}

absl::StatusOr<std::vector<int64_t>> BroadcastShapes(const std::vector<int64_t>& a,
                                                     const std::vector<int64_t>& b) {
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r);
  for (size_t i = 0; i < r; ++i) {
    const int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("shapes ", DimsToString(a), " and ",
                                                     DimsToString(b), " cannot be broadcast"));
    }
  }
  return out;
}

std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& in,
                                      const std::vector<int64_t>& out) {
  const size_t r = out.size();
  std::vector<int64_t> s(r, 0);
  const std::vector<int64_t> own = Strides(in);
  for (size_t i = 0; i < in.size(); ++i) {
    const size_t o = r - in.size() + i;
    s[o] = in[i] == 1 ? 0 : own[i];
  }
  return s;
}

absl::StatusOr<double> ScalarInput(const KernelContext& ctx, size_t i, double fallback) {
  if (!ctx.has_input(i)) return fallback;
  ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
  if (t->size() < 1) return ctx.Error(absl::StrCat("input ", i, " must hold one element"));
  Tensor w = WidenToFloat(*t);
  return DispatchNumericBool(w.dtype(), [&](auto tag) -> absl::StatusOr<double> {
    using T = decltype(tag);
    return static_cast<double>(w.data<T>()[0]);
  });
}

absl::StatusOr<int64_t> ScalarIntInput(const KernelContext& ctx, size_t i, int64_t fallback) {
  if (!ctx.has_input(i)) return fallback;
  ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
  if (t->size() < 1) return ctx.Error(absl::StrCat("input ", i, " must hold one element"));
  if (t->dtype() == DataType::kInt64) return t->data<int64_t>()[0];
  if (t->dtype() == DataType::kInt32) return t->data<int32_t>()[0];
  ASSIGN_OR_RETURN(const double v, ScalarInput(ctx, i, static_cast<double>(fallback)));
  if (!(v >= -0x1p63 && v < 0x1p63)) {
    return ctx.Error(absl::StrCat("input ", i, " holds ", v, ", which is not an int64 value"));
  }
  return static_cast<int64_t>(v);
}

int64_t DimProduct(const std::vector<int64_t>& dims, int64_t begin, int64_t end) {
  return NumElements(absl::MakeConstSpan(dims.data() + begin, dims.data() + std::max(begin, end)));
}

void CopyElements(const Tensor& src, int64_t src_offset, Tensor& dst, int64_t dst_offset,
                  int64_t count) {
  if (count <= 0) return;
  if (src.is_string()) {
    const std::string* s = src.data<std::string>() + src_offset;
    std::string* d = dst.mutable_data<std::string>() + dst_offset;
    for (int64_t i = 0; i < count; ++i) d[i] = s[i];
    return;
  }
  const int es = src.element_size();
  std::memcpy(dst.mutable_raw() + dst_offset * es, src.raw() + src_offset * es, count * es);
}

void ParallelItems(int64_t n, int64_t item_size,
                   const std::function<void(int64_t begin, int64_t end)>& fn) {
  // Small enough that two threads share a MobileNetV2 residual Add (25K-75K floats): chunks of 32K
  // ran one of 25K whole on one core, half of it read from the other core's cache where the
  // projection before had written it. The model's Adds at 2 threads (AVX-512): 0.093-0.105 ms in
  // all with 32K, 0.072-0.074 with 4K.
  constexpr int64_t kElementsPerTask = int64_t{1} << 12;
  ParallelFor(n, std::max<int64_t>(1, kElementsPerTask / std::max<int64_t>(item_size, 1)), fn);
}

namespace {

// A transposition with the axes of size 1 dropped and the axes that stay neighbours, in order,
// merged into one: [1, 32, 64, 64] by (0, 1, 3, 2) is [32, 64, 64] by (0, 2, 1); (0, 2, 1, 3) of
// [1, 4, 1, 64] is a copy, [256] by (0).
struct ReducedTranspose {
  std::vector<int64_t> in_dims;
  std::vector<int64_t> perm;
};

ReducedTranspose ReduceTranspose(const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& perm) {
  const int64_t r = static_cast<int64_t>(dims.size());
  // Output axes of size > 1 as input axes, in output order, grouped where neighbours stay so.
  std::vector<std::pair<int64_t, int64_t>> groups;  // [first, last] input axis, output order
  for (int64_t i = 0; i < r; ++i) {
    const int64_t a = perm[i];
    if (dims[a] == 1) continue;
    if (!groups.empty()) {
      // The previous kept input axis before a, skipping axes of size 1.
      int64_t prev = a - 1;
      while (prev >= 0 && dims[prev] == 1) --prev;
      if (prev >= 0 && groups.back().second == prev) {
        groups.back().second = a;
        continue;
      }
    }
    groups.push_back({a, a});
  }
  // The groups in input order give the reduced input axes.
  std::vector<int64_t> order(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) order[g] = static_cast<int64_t>(g);
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return groups[a].first < groups[b].first; });
  ReducedTranspose out;
  out.perm.resize(groups.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const auto [first, last] = groups[order[i]];
    int64_t size = 1;
    for (int64_t a = first; a <= last; ++a) size *= dims[a];
    out.in_dims.push_back(size);
    out.perm[order[i]] = static_cast<int64_t>(i);
  }
  return out;
}

// Edge of the square tiles a transposition that moves the input's last axis copies in, so that
// both the rows it reads and the ones it writes stay in L1.
constexpr int64_t kTransposeTile = 16;

}  // namespace

absl::StatusOr<Tensor> TransposeTensor(const Tensor& x, const std::vector<int64_t>& perm) {
  const int64_t rank = x.rank();
  if (static_cast<int64_t>(perm.size()) != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("perm has ", perm.size(), " entries for rank ", rank));
  }
  std::vector<int64_t> out_dims(rank);
  std::vector<bool> seen(rank, false);
  for (int64_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]) {
      return absl::InvalidArgumentError("perm is not a permutation");
    }
    seen[perm[i]] = true;
    out_dims[i] = x.dim(perm[i]);
  }
  Tensor out = Tensor::Uninitialized(x.dtype(), out_dims);  // every element is written below
  const int64_t n = x.size();
  if (n == 0) return out;
  const ReducedTranspose t = ReduceTranspose(x.dims(), perm);
  const int64_t r = static_cast<int64_t>(t.perm.size());
  std::vector<int64_t> dims(r);  // the reduced output's
  for (int64_t i = 0; i < r; ++i) dims[i] = t.in_dims[t.perm[i]];
  const std::vector<int64_t> in_strides = Strides(t.in_dims), out_strides = Strides(dims);
  std::vector<int64_t> src_stride(r);
  for (int64_t i = 0; i < r; ++i) src_stride[i] = in_strides[t.perm[i]];
  absl::Status st = DispatchBySize(x.dtype(), [&](auto tag) -> absl::Status {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = out.mutable_data<T>();
    if (r <= 1) {  // the same order
      std::copy_n(src, n, dst);
      return absl::OkStatus();
    }
    if (t.perm[r - 1] == r - 1) {
      // The last axis stays last: runs of it copied whole.
      std::vector<int64_t> idx(r, 0);
      int64_t p = 0;
      const int64_t inner = dims[r - 1];
      for (int64_t o = 0; o < n; o += inner) {
        std::copy_n(src + p, inner, dst + o);
        for (int64_t d = r - 2; d >= 0; --d) {
          ++idx[d];
          p += src_stride[d];
          if (idx[d] < dims[d]) break;
          p -= src_stride[d] * dims[d];
          idx[d] = 0;
        }
      }
      return absl::OkStatus();
    }
    // The input's last axis moves to output axis q: each plane of output axes (q, r - 1) is a
    // matrix transposition (read along q, written along r - 1), done in square tiles.
    int64_t q = 0;
    while (t.perm[q] != r - 1) ++q;
    const int64_t rows = dims[q], cols = dims[r - 1], is = src_stride[r - 1];
    const int64_t os = out_strides[q];
    const int64_t planes = n / (rows * cols);
    std::vector<int64_t> others;  // the remaining output axes, outermost first
    for (int64_t i = 0; i < r - 1; ++i) {
      if (i != q) others.push_back(i);
    }
    for (int64_t plane = 0; plane < planes; ++plane) {
      int64_t p = 0, o = 0, rest = plane;
      for (auto it = others.rbegin(); it != others.rend(); ++it) {
        const int64_t i = rest % dims[*it];
        rest /= dims[*it];
        p += i * src_stride[*it];
        o += i * out_strides[*it];
      }
      for (int64_t a0 = 0; a0 < rows; a0 += kTransposeTile) {
        const int64_t a1 = std::min(rows, a0 + kTransposeTile);
        for (int64_t b0 = 0; b0 < cols; b0 += kTransposeTile) {
          const int64_t b1 = std::min(cols, b0 + kTransposeTile);
          for (int64_t a = a0; a < a1; ++a) {
            const T* from = src + p + a;
            T* to = dst + o + a * os;
            for (int64_t b = b0; b < b1; ++b) to[b] = from[b * is];
          }
        }
      }
    }
    return absl::OkStatus();
  });
  if (!st.ok()) return st;
  return out;
}

}  // namespace onnx_opt::interpreter
