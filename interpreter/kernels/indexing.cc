// Indexing operators: Slice, Gather, GatherElements, GatherND, Scatter, ScatterElements, ScatterND,
// Pad, OneHot, Compress, NonZero, ReverseSequence, CumSum, CumProd.
#include <algorithm>
#include <cstring>
#include <limits>

#include "interpreter/kernels/common.h"
#include "ir/numeric/narrow_float.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

Status SliceKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  std::vector<int64_t> starts, ends, axes, steps;
  if (ctx.opset() < 10) {
    starts = ctx.GetInts("starts");
    ends = ctx.GetInts("ends");
    axes = ctx.GetInts("axes");
  } else {
    ASSIGN_OR_RETURN(starts, ctx.IntsInput(1));
    ASSIGN_OR_RETURN(ends, ctx.IntsInput(2));
    if (ctx.has_input(3)) {
      ASSIGN_OR_RETURN(axes, ctx.IntsInput(3));
    }
    if (ctx.has_input(4)) {
      ASSIGN_OR_RETURN(steps, ctx.IntsInput(4));
    }
  }
  const int64_t r = x->rank();
  if (r == 0) return ctx.Error("cannot slice a scalar");
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(i);
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size()) {
    return ctx.Error("starts/ends/axes/steps lengths differ");
  }
  std::vector<int64_t> st(r, 0), step(r, 1), dims = x->dims();
  for (size_t k = 0; k < starts.size(); ++k) {
    ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axes[k], r));
    const int64_t d = x->dim(a);
    const int64_t s = steps[k];
    if (s == 0) return ctx.Error("step is zero");
    int64_t b = starts[k], e = ends[k];
    if (b < 0) b += d;
    if (e < 0) e += d;
    // Counts as 1 + (span - 1) / |step|: a step near +-2^63 overflowed span + step - 1 (and -step).
    if (s > 0) {
      b = std::clamp<int64_t>(b, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
      dims[a] = e > b ? 1 + (e - b - 1) / s : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
      dims[a] = b > e ? 1 + (s == std::numeric_limits<int64_t>::min() ? 0 : (b - e - 1) / -s) : 0;
    }
    st[a] = b;
    // One element taken: the step is never applied (and times the stride it could overflow).
    step[a] = dims[a] == 1 ? 1 : s;
  }
  Tensor out(x->dtype(), dims);
  const int64_t n = out.size();
  if (n > 0) {
    const std::vector<int64_t> in_strides = Strides(x->dims());
    RETURN_IF_ERROR(DispatchBySize(x->dtype(), [&](auto tag) -> Status {
      using T = decltype(tag);
      const T* src = x->data<T>();
      T* dst = out.mutable_data<T>();
      std::vector<int64_t> idx(r, 0);
      int64_t base = 0;
      for (int64_t d = 0; d < r; ++d) base += st[d] * in_strides[d];
      if (r == 0) {
        dst[0] = src[0];
        return OkStatus();
      }
      int64_t p = base;
      const int64_t inner = dims[r - 1], is = step[r - 1] * in_strides[r - 1];
      for (int64_t o = 0; o < n; o += inner) {
        for (int64_t j = 0; j < inner; ++j) dst[o + j] = src[p + j * is];
        for (int64_t d = r - 2; d >= 0; --d) {
          ++idx[d];
          p += step[d] * in_strides[d];
          if (idx[d] < dims[d]) break;
          p -= step[d] * in_strides[d] * dims[d];
          idx[d] = 0;
        }
      }
      return OkStatus();
    }));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status GatherKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> idx, ctx.IntsInput(1));
  const Tensor& indices = ctx.input(1);
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 0), x->rank()));
  const int64_t d = x->dim(axis);
  for (int64_t& i : idx) {
    if (i < 0) i += d;
    if (i < 0 || i >= d) return ctx.Error("index out of range");
  }
  std::vector<int64_t> dims(x->dims().begin(), x->dims().begin() + axis);
  dims.insert(dims.end(), indices.dims().begin(), indices.dims().end());
  dims.insert(dims.end(), x->dims().begin() + axis + 1, x->dims().end());
  Tensor out(x->dtype(), dims);
  const int64_t outer = DimProduct(x->dims(), 0, axis);
  const int64_t inner = DimProduct(x->dims(), axis + 1, x->rank());
  const int64_t m = static_cast<int64_t>(idx.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < m; ++k)
      CopyElements(*x, (o * d + idx[k]) * inner, out, (o * m + k) * inner, inner);
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// For GatherElements/ScatterElements: the linear offset into `data_dims` of element `i` of
// `idx_dims` with the axis coordinate replaced by `axis_value`. GatherElements/ScatterElements:
// indices of the data's rank, no longer than the data on any axis but `axis` (the walker below
// steps through the data by the indices' shape).
Status CheckElementIndices(const KernelContext& ctx, const Tensor& data, const Tensor& indices,
                           int64_t axis) {
  if (indices.rank() != data.rank()) return ctx.Error("indices rank differs from data rank");
  for (int64_t d = 0; d < data.rank(); ++d) {
    if (d != axis && indices.dim(d) > data.dim(d)) {
      return ctx.Error(absl::StrCat("indices of shape ", DimsToString(indices.dims()),
                                    " exceed the data's ", DimsToString(data.dims()), " on axis ",
                                    d));
    }
  }
  return OkStatus();
}

struct ElementWalker {
  std::vector<int64_t> idx_dims, data_strides;
  int64_t axis;
  std::vector<int64_t> counter;
  int64_t base = 0;  // offset without the axis coordinate
  void Next() {
    for (int64_t d = static_cast<int64_t>(idx_dims.size()) - 1; d >= 0; --d) {
      ++counter[d];
      if (d != axis) base += data_strides[d];
      if (counter[d] < idx_dims[d]) return;
      if (d != axis) base -= data_strides[d] * idx_dims[d];
      counter[d] = 0;
    }
  }
};

Status GatherElementsKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> idx, ctx.IntsInput(1));
  const Tensor& indices = ctx.input(1);
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 0), x->rank()));
  RETURN_IF_ERROR(CheckElementIndices(ctx, *x, indices, axis));
  Tensor out(x->dtype(), indices.dims());
  ElementWalker w{indices.dims(), Strides(x->dims()), axis, std::vector<int64_t>(x->rank(), 0)};
  const int64_t d = x->dim(axis);
  for (int64_t i = 0; i < out.size(); ++i, w.Next()) {
    int64_t k = idx[i] < 0 ? idx[i] + d : idx[i];
    if (k < 0 || k >= d) return ctx.Error("index out of range");
    CopyElements(*x, w.base + k * w.data_strides[axis], out, i, 1);
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// Scatter reduction: none, add, mul, max, min.
template <typename T>
void Combine(T& dst, const T& v, const std::string& mode) {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, Bytes16>) {
    dst = v;
  } else {
    if (mode == "add")
      dst = WrapAdd<T>(dst, v);  // integers wrap (common.h)
    else if (mode == "mul")
      dst = WrapMul<T>(dst, v);
    else if (mode == "max")
      dst = std::max(dst, v);
    else if (mode == "min")
      dst = std::min(dst, v);
    else
      dst = v;
  }
}

Status ScatterElementsKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> idx, ctx.IntsInput(1));
  const Tensor& indices = ctx.input(1);
  ASSIGN_OR_RETURN(const Tensor* u0, ctx.TensorInput(2));
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 0), x0->rank()));
  RETURN_IF_ERROR(CheckElementIndices(ctx, *x0, indices, axis));
  if (u0->dims() != indices.dims() || u0->dtype() != x0->dtype()) {
    return ctx.Error("updates must have the indices' shape and the data's type");
  }
  const std::string mode = ctx.GetString("reduction", "none");
  const bool narrow = ir::IsNarrowFloat(x0->dtype()) && mode != "none";
  Tensor x = narrow ? WidenToFloat(*x0) : *x0;
  Tensor u = narrow ? WidenToFloat(*u0) : *u0;
  Tensor out = x.Clone();
  ElementWalker w{indices.dims(), Strides(x.dims()), axis, std::vector<int64_t>(x.rank(), 0)};
  const int64_t d = x.dim(axis);
  const int64_t n = indices.size();
  auto run = [&](auto tag) -> Status {
    using T = decltype(tag);
    T* po = out.mutable_data<T>();
    const T* pu = u.data<T>();
    for (int64_t i = 0; i < n; ++i, w.Next()) {
      int64_t k = idx[i] < 0 ? idx[i] + d : idx[i];
      if (k < 0 || k >= d) return ctx.Error("index out of range");
      Combine(po[w.base + k * w.data_strides[axis]], pu[i], mode);
    }
    return OkStatus();
  };
  if (mode == "none" || x.is_string()) {
    RETURN_IF_ERROR(DispatchBySize(x.dtype(), run));
  } else {
    RETURN_IF_ERROR(DispatchNumericBool(x.dtype(), run));
  }
  if (narrow) {
    ASSIGN_OR_RETURN(out, CastTensor(out, x0->dtype()));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status GatherNDKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> idx, ctx.IntsInput(1));
  const Tensor& indices = ctx.input(1);
  const int64_t b = ctx.GetInt("batch_dims", 0);
  const int64_t q = indices.rank();
  if (q < 1 || b < 0 || b >= q) return ctx.Error("indices must have rank > batch_dims");
  const int64_t k = indices.dim(q - 1);
  if (b + k > x->rank()) return ctx.Error("indices last dim too large");
  for (int64_t i = 0; i < b; ++i) {
    if (indices.dim(i) != x->dim(i)) return ctx.Error("the batch dims of indices and data differ");
  }
  std::vector<int64_t> dims(indices.dims().begin(), indices.dims().end() - 1);
  dims.insert(dims.end(), x->dims().begin() + b + k, x->dims().end());
  Tensor out(x->dtype(), dims);
  const int64_t batch = DimProduct(x->dims(), 0, b);
  const int64_t slice = DimProduct(x->dims(), b + k, x->rank());
  const int64_t per_batch_idx = DimProduct(indices.dims(), b, q - 1);
  const int64_t batch_stride = DimProduct(x->dims(), b, x->rank());
  const std::vector<int64_t> strides = Strides(x->dims());
  int64_t o = 0;
  for (int64_t bi = 0; bi < batch; ++bi) {
    for (int64_t j = 0; j < per_batch_idx; ++j) {
      const int64_t* ix = idx.data() + (bi * per_batch_idx + j) * k;
      int64_t off = bi * batch_stride;
      for (int64_t t = 0; t < k; ++t) {
        const int64_t dimv = x->dim(b + t);
        const int64_t v = ix[t] < 0 ? ix[t] + dimv : ix[t];
        if (v < 0 || v >= dimv) return ctx.Error("index out of range");
        off += v * strides[b + t];
      }
      CopyElements(*x, off, out, o, slice);
      o += slice;
    }
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status ScatterNDKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> idx, ctx.IntsInput(1));
  const Tensor& indices = ctx.input(1);
  ASSIGN_OR_RETURN(const Tensor* u0, ctx.TensorInput(2));
  const std::string mode = ctx.GetString("reduction", "none");
  const bool narrow = ir::IsNarrowFloat(x0->dtype()) && mode != "none";
  Tensor x = narrow ? WidenToFloat(*x0) : *x0;
  Tensor u = narrow ? WidenToFloat(*u0) : *u0;
  if (indices.rank() < 1) return ctx.Error("indices must have rank >= 1");
  Tensor out = x.Clone();
  const int64_t k = indices.dim(indices.rank() - 1);
  if (k > x.rank()) return ctx.Error("indices last dim exceeds the data rank");
  const int64_t m = indices.size() / std::max<int64_t>(k, 1);
  const int64_t slice = DimProduct(x.dims(), k, x.rank());
  // updates: indices.shape[:-1] + data.shape[k:], of the data's type.
  std::vector<int64_t> expected(indices.dims().begin(), indices.dims().end() - 1);
  expected.insert(expected.end(), x.dims().begin() + k, x.dims().end());
  if (u.dims() != expected || u.dtype() != x.dtype()) {
    return ctx.Error(absl::StrCat("updates must be ", DimsToString(expected),
                                  " of the data's type, got ", DimsToString(u.dims())));
  }
  const std::vector<int64_t> strides = Strides(x.dims());
  auto run = [&](auto tag) -> Status {
    using T = decltype(tag);
    T* po = out.mutable_data<T>();
    const T* pu = u.data<T>();
    for (int64_t j = 0; j < m; ++j) {
      int64_t off = 0;
      for (int64_t t = 0; t < k; ++t) {
        int64_t v = idx[j * k + t];
        if (v < 0) v += x.dim(t);
        if (v < 0 || v >= x.dim(t)) return ctx.Error("index out of range");
        off += v * strides[t];
      }
      for (int64_t s = 0; s < slice; ++s) Combine(po[off + s], pu[j * slice + s], mode);
    }
    return OkStatus();
  };
  if (mode == "none" || x.is_string()) {
    RETURN_IF_ERROR(DispatchBySize(x.dtype(), run));
  } else {
    RETURN_IF_ERROR(DispatchNumericBool(x.dtype(), run));
  }
  if (narrow) {
    ASSIGN_OR_RETURN(out, CastTensor(out, x0->dtype()));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status PadKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const int64_t r = x->rank();
  std::vector<int64_t> pads;
  double value = 0;
  std::vector<int64_t> axes;
  if (ctx.opset() < 11) {
    pads = ctx.GetInts(ctx.opset() < 2 ? "paddings" : "pads");
    value = ctx.GetFloat("value", 0.0f);
  } else {
    ASSIGN_OR_RETURN(pads, ctx.IntsInput(1));
    if (ctx.has_input(2) && ctx.input(2).size() > 0) {
      ASSIGN_OR_RETURN(value, ScalarInput(ctx, 2, 0));
    }
    if (ctx.has_input(3)) {
      ASSIGN_OR_RETURN(axes, ctx.IntsInput(3));
      ASSIGN_OR_RETURN(axes, NormalizeAxes(axes, r));
    }
  }
  if (axes.empty()) {
    for (int64_t i = 0; i < r; ++i) axes.push_back(i);
  }
  const int64_t na = static_cast<int64_t>(axes.size());
  if (static_cast<int64_t>(pads.size()) != 2 * na) return ctx.Error("pads has the wrong length");
  std::vector<int64_t> before(r, 0), after(r, 0);
  for (int64_t i = 0; i < na; ++i) {
    before[axes[i]] = pads[i];
    after[axes[i]] = pads[i + na];
  }
  const std::string mode = ctx.GetString("mode", "constant");
  std::vector<int64_t> dims(r);
  for (int64_t i = 0; i < r; ++i) {
    // Pads near +-2^63 overflowed the sum.
    if (__builtin_add_overflow(x->dim(i), before[i], &dims[i]) ||
        __builtin_add_overflow(dims[i], after[i], &dims[i])) {
      return ctx.Error(absl::StrCat("pads ", DimsToString(pads), " overflow the output dims"));
    }
    if (dims[i] < 0) return ctx.Error("negative output dim");
  }
  Tensor out(x->dtype(), dims);
  Tensor fill;
  {
    Tensor v = Tensor::Scalar<double>(DataType::kDouble, value);
    if (x->is_string()) {
      fill = Tensor::Scalar<std::string>(DataType::kString, "");
    } else {
      ASSIGN_OR_RETURN(fill, CastTensor(v, x->dtype()));
    }
  }
  const std::vector<int64_t> in_strides = Strides(x->dims());
  const int64_t n = out.size();
  std::vector<int64_t> idx(r, 0);
  for (int64_t o = 0; o < n; ++o) {
    int64_t src = 0;
    bool inside = true;
    for (int64_t d = 0; d < r && inside; ++d) {
      int64_t c = idx[d] - before[d];
      const int64_t len = x->dim(d);
      if (c < 0 || c >= len) {
        if (mode == "constant" || len == 0) {
          inside = false;
          break;
        } else if (mode == "reflect") {
          if (len == 1) {
            c = 0;
          } else {
            const int64_t period = 2 * (len - 1);
            c = ((c % period) + period) % period;
            if (c >= len) c = period - c;
          }
        } else if (mode == "edge") {
          c = std::clamp<int64_t>(c, 0, len - 1);
        } else if (mode == "wrap") {
          c = ((c % len) + len) % len;
        } else {
          return ctx.Error(absl::StrCat("unknown mode '", mode, "'"));
        }
      }
      src += c * in_strides[d];
    }
    if (inside)
      CopyElements(*x, src, out, o, 1);
    else
      CopyElements(fill, 0, out, o, 1);
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status OneHotKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* ind0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor ind, CastTensor(WidenToFloat(*ind0), DataType::kInt64));
  // depth as an integer (NaN or a huge float depth was an undefined conversion), not negative.
  ASSIGN_OR_RETURN(const int64_t depth, ScalarIntInput(ctx, 1, 0));
  if (depth < 0) return ctx.Error(absl::StrCat("depth must not be negative, got ", depth));
  ASSIGN_OR_RETURN(const Tensor* values, ctx.TensorInput(2));
  // values holds [off_value, on_value]: a shorter one was read past its end.
  if (values->size() != 2)
    return ctx.Error(absl::StrCat("values must hold 2 elements, got ", values->size()));
  const int64_t r = ind.rank() + 1;
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", -1), r));
  std::vector<int64_t> dims = ind.dims();
  dims.insert(dims.begin() + axis, depth);
  Tensor out(values->dtype(), dims);
  // Nothing to write (a huge depth over empty indices would still loop depth times).
  if (out.size() == 0) {
    ctx.set_output(0, std::move(out));
    return OkStatus();
  }
  const int64_t outer = DimProduct(ind.dims(), 0, axis);
  const int64_t inner = DimProduct(ind.dims(), axis, ind.rank());
  const int64_t* pi = ind.data<int64_t>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t d = 0; d < depth; ++d) {
      for (int64_t i = 0; i < inner; ++i) {
        int64_t v = pi[o * inner + i];
        if (v < 0) v += depth;
        CopyElements(*values, v == d ? 1 : 0, out, (o * depth + d) * inner + i, 1);
      }
    }
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status CompressKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* c, ctx.TensorInput(1));
  if (c->dtype() != DataType::kBool) return ctx.Error("condition must be bool");
  const bool* cond = c->data<bool>();
  if (!ctx.has_attr("axis")) {
    std::vector<int64_t> keep;
    for (int64_t i = 0; i < std::min(c->size(), x->size()); ++i) {
      if (cond[i]) keep.push_back(i);
    }
    Tensor out(x->dtype(), {static_cast<int64_t>(keep.size())});
    for (size_t i = 0; i < keep.size(); ++i) CopyElements(*x, keep[i], out, i, 1);
    ctx.set_output(0, std::move(out));
    return OkStatus();
  }
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 0), x->rank()));
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < std::min(c->size(), x->dim(axis)); ++i) {
    if (cond[i]) keep.push_back(i);
  }
  std::vector<int64_t> dims = x->dims();
  dims[axis] = keep.size();
  Tensor out(x->dtype(), dims);
  const int64_t outer = DimProduct(x->dims(), 0, axis);
  const int64_t inner = DimProduct(x->dims(), axis + 1, x->rank());
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t k = 0; k < keep.size(); ++k) {
      CopyElements(*x, (o * x->dim(axis) + keep[k]) * inner, out, (o * keep.size() + k) * inner,
                   inner);
    }
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status NonZeroKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  Tensor x = WidenToFloat(*x0);
  std::vector<int64_t> nz;
  RETURN_IF_ERROR(DispatchNumericBool(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* p = x.data<T>();
    for (int64_t i = 0; i < x.size(); ++i) {
      if (p[i] != T(0)) nz.push_back(i);
    }
    return OkStatus();
  }));
  const int64_t r = x.rank(), m = static_cast<int64_t>(nz.size());
  Tensor out(DataType::kInt64, {r, m});
  int64_t* po = out.mutable_data<int64_t>();
  const std::vector<int64_t> strides = Strides(x.dims());
  for (int64_t j = 0; j < m; ++j) {
    int64_t rem = nz[j];
    for (int64_t d = 0; d < r; ++d) {
      po[d * m + j] = rem / strides[d];
      rem %= strides[d];
    }
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status ReverseSequenceKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> lens, ctx.IntsInput(1));
  const int64_t batch_axis = ctx.GetInt("batch_axis", 1), time_axis = ctx.GetInt("time_axis", 0);
  if (x->rank() < 2) return ctx.Error("the input must have rank >= 2");
  if ((batch_axis != 0 && batch_axis != 1) || (time_axis != 0 && time_axis != 1) ||
      batch_axis == time_axis) {
    return ctx.Error("batch_axis and time_axis must be 0 and 1 in some order");
  }
  if (static_cast<int64_t>(lens.size()) != x->dim(batch_axis)) {
    return ctx.Error(absl::StrCat("sequence_lens has ", lens.size(), " values for a batch of ",
                                  x->dim(batch_axis)));
  }
  for (int64_t len : lens) {
    if (len < 0 || len > x->dim(time_axis)) {
      return ctx.Error(
          absl::StrCat("sequence length ", len, " is outside [0, ", x->dim(time_axis), "]"));
    }
  }
  Tensor out = x->Clone();
  const std::vector<int64_t> strides = Strides(x->dims());
  const int64_t n = x->size(), r = x->rank();
  std::vector<int64_t> idx(r, 0);
  for (int64_t o = 0; o < n; ++o) {
    const int64_t b = idx[batch_axis], t = idx[time_axis];
    if (t < lens[b]) {
      const int64_t src = o + (lens[b] - 1 - 2 * t) * strides[time_axis];
      CopyElements(*x, src, out, o, 1);
    }
    for (int64_t d = r - 1; d >= 0; --d) {
      if (++idx[d] < x->dim(d)) break;
      idx[d] = 0;
    }
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status CumKernel(KernelContext& ctx, bool product) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  if (x0->rank() < 1) return ctx.Error("the input must have rank >= 1");
  ASSIGN_OR_RETURN(std::vector<int64_t> axis_in, ctx.IntsInput(1));
  if (axis_in.size() != 1) return ctx.Error("axis must hold one value");
  Tensor x = WidenToFloat(*x0);
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(axis_in[0], x.rank()));
  const bool exclusive = ctx.GetInt("exclusive", 0) != 0, reverse = ctx.GetInt("reverse", 0) != 0;
  // An empty input: nothing to compute, and the loops below would still count through the product
  // of its other dims ([2^40, 0, 2^40]), which may be astronomically large.
  if (x.size() == 0) {
    ctx.set_output(0, Tensor(x0->dtype(), x0->dims()));
    return OkStatus();
  }
  const int64_t outer = DimProduct(x.dims(), 0, axis), len = x.dim(axis);
  const int64_t inner = DimProduct(x.dims(), axis + 1, x.rank());
  ASSIGN_OR_RETURN(Tensor out, DispatchNumeric(x.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                     using T = decltype(tag);
                     Tensor o(x.dtype(), x.dims());
                     const T* p = x.data<T>();
                     T* q = o.mutable_data<T>();
                     for (int64_t a = 0; a < outer; ++a) {
                       for (int64_t i = 0; i < inner; ++i) {
                         T acc = product ? T(1) : T(0);
                         for (int64_t s = 0; s < len; ++s) {
                           const int64_t k = reverse ? len - 1 - s : s;
                           const int64_t off = (a * len + k) * inner + i;
                           if (exclusive) {
                             q[off] = acc;
                             acc = product ? WrapMul(acc, p[off]) : WrapAdd(acc, p[off]);
                           } else {
                             acc = product ? WrapMul(acc, p[off]) : WrapAdd(acc, p[off]);
                             q[off] = acc;
                           }
                         }
                       }
                     }
                     return o;
                   }));
  if (out.dtype() != x0->dtype()) {
    ASSIGN_OR_RETURN(out, CastTensor(out, x0->dtype()));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// Scatter (opset 9-10) is ScatterElements without reduction.
}  // namespace

void RegisterIndexingKernels(KernelRegistry& r) {
  r.Register("", "Slice", 1, SliceKernel);
  r.Register("", "Gather", 1, GatherKernel);
  r.Register("", "GatherElements", 11, GatherElementsKernel);
  r.Register("", "GatherND", 11, GatherNDKernel);
  r.Register("", "Scatter", 9, ScatterElementsKernel);
  r.Register("", "ScatterElements", 11, ScatterElementsKernel);
  r.Register("", "ScatterND", 11, ScatterNDKernel);
  r.Register("", "Pad", 1, PadKernel);
  r.Register("", "OneHot", 9, OneHotKernel);
  r.Register("", "Compress", 9, CompressKernel);
  r.Register("", "NonZero", 9, NonZeroKernel);
  r.Register("", "ReverseSequence", 10, ReverseSequenceKernel);
  r.Register("", "CumSum", 11, [](KernelContext& c) { return CumKernel(c, false); });
  r.Register("", "CumProd", 26, [](KernelContext& c) { return CumKernel(c, true); });
}

}  // namespace onnx_opt::interpreter
