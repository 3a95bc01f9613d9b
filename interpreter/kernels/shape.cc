// Shape and layout operators: Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat,
// Split, Expand, Tile, Identity, Constant, ConstantOfShape, Range, EyeLike, DepthToSpace,
// SpaceToDepth, Trilu.
#include <algorithm>
#include <cstring>

#include "interpreter/kernels/common.h"
#include "ir/numeric/narrow_float.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

Status IdentityKernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("input 0 is missing");
  ctx.set_output(0, ctx.value(0));
  return OkStatus();
}

Status ShapeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const int64_t r = x->rank();
  int64_t start = ctx.GetInt("start", 0), end = ctx.GetInt("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(x->dim(i));
  ctx.set_output(
      0, Tensor::FromVector<int64_t>(DataType::kInt64, {static_cast<int64_t>(dims.size())}, dims));
  return OkStatus();
}

Status SizeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ctx.set_output(0, Tensor::Scalar<int64_t>(DataType::kInt64, x->size()));
  return OkStatus();
}

Status ReshapeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  std::vector<int64_t> shape;
  if (ctx.opset() < 5) {
    shape = ctx.GetInts("shape");
  } else {
    ASSIGN_OR_RETURN(shape, ctx.IntsInput(1));
  }
  const bool allowzero = ctx.GetInt("allowzero", 0) != 0;
  int64_t infer = -1, known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowzero) {
      if (static_cast<int64_t>(i) >= x->rank())
        return ctx.Error("shape has 0 beyond the input rank");
      shape[i] = x->dim(i);
    }
    if (shape[i] == -1) {
      if (infer >= 0) return ctx.Error("shape has more than one -1");
      infer = i;
    } else if (shape[i] < 0) {
      return ctx.Error("shape has a negative dim");
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      // No tensor has that many elements (found by the run fuzzer: the product overflowed).
      return ctx.Error(
          absl::StrCat("cannot reshape ", x->ShapeString(), " to ", DimsToString(shape)));
    }
  }
  if (infer >= 0) shape[infer] = known == 0 ? 0 : x->size() / known;
  if (NumElements(shape) != x->size()) {
    return ctx.Error(
        absl::StrCat("cannot reshape ", x->ShapeString(), " to ", DimsToString(shape)));
  }
  ctx.set_output(0, x->Reshaped(shape));
  return OkStatus();
}

Status FlattenKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  int64_t axis = ctx.GetInt("axis", 1);
  if (axis < 0) axis += x->rank();
  if (axis < 0 || axis > x->rank()) return ctx.Error("axis out of range");
  ctx.set_output(
      0, x->Reshaped({DimProduct(x->dims(), 0, axis), DimProduct(x->dims(), axis, x->rank())}));
  return OkStatus();
}

StatusOr<std::vector<int64_t>> AxesFromAttrOrInput(const KernelContext& ctx, int input_since,
                                                   size_t input_index) {
  if (ctx.opset() >= input_since) {
    if (!ctx.has_input(input_index)) return std::vector<int64_t>{};
    return ctx.IntsInput(input_index);
  }
  return ctx.GetInts("axes");
}

Status SqueezeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesFromAttrOrInput(ctx, 13, 1));
  ASSIGN_OR_RETURN(axes, NormalizeAxes(axes, x->rank()));
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < x->rank(); ++i) {
    const bool listed = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (axes.empty() ? x->dim(i) == 1 : listed) {
      if (x->dim(i) != 1)
        return ctx.Error(absl::StrCat("cannot squeeze axis ", i, " of size ", x->dim(i)));
      continue;
    }
    dims.push_back(x->dim(i));
  }
  ctx.set_output(0, x->Reshaped(dims));
  return OkStatus();
}

Status UnsqueezeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, AxesFromAttrOrInput(ctx, 13, 1));
  const int64_t r = x->rank() + static_cast<int64_t>(axes.size());
  ASSIGN_OR_RETURN(axes, NormalizeAxes(axes, r));
  std::vector<int64_t> dims(r, 0);
  std::vector<bool> is_new(r, false);
  for (int64_t a : axes) {
    if (is_new[a]) return ctx.Error("repeated axis");
    is_new[a] = true;
  }
  int64_t k = 0;
  for (int64_t i = 0; i < r; ++i) dims[i] = is_new[i] ? 1 : x->dim(k++);
  ctx.set_output(0, x->Reshaped(dims));
  return OkStatus();
}

Status TransposeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  std::vector<int64_t> perm = ctx.GetInts("perm");
  if (perm.empty()) {
    for (int64_t i = x->rank() - 1; i >= 0; --i) perm.push_back(i);
  }
  ASSIGN_OR_RETURN(Tensor out, TransposeTensor(*x, perm));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status ConcatKernel(KernelContext& ctx) {
  if (ctx.num_inputs() == 0) return ctx.Error("needs inputs");
  ASSIGN_OR_RETURN(const Tensor* first, ctx.TensorInput(0));
  const int64_t r = first->rank();
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", ctx.opset() < 4 ? 1 : 0), r));
  std::vector<const Tensor*> ins;
  std::vector<int64_t> dims = first->dims();
  dims[axis] = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
    if (t->rank() != r || t->dtype() != first->dtype())
      return ctx.Error("inputs differ in rank or type");
    for (int64_t d = 0; d < r; ++d) {
      if (d != axis && t->dim(d) != first->dim(d)) return ctx.Error("inputs differ in shape");
    }
    dims[axis] += t->dim(axis);
    ins.push_back(t);
  }
  Tensor out(first->dtype(), dims);
  const int64_t outer = DimProduct(dims, 0, axis);
  const int64_t inner = DimProduct(dims, axis + 1, r);
  int64_t offset = 0;
  const int64_t out_row = dims[axis] * inner;
  for (const Tensor* t : ins) {
    const int64_t chunk = t->dim(axis) * inner;
    for (int64_t o = 0; o < outer; ++o)
      CopyElements(*t, o * chunk, out, o * out_row + offset, chunk);
    offset += chunk;
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status SplitKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 0), x->rank()));
  std::vector<int64_t> split;
  if (ctx.opset() >= 13 || (ctx.opset() < 2 && ctx.has_input(1))) {
    if (ctx.has_input(1)) {
      ASSIGN_OR_RETURN(split, ctx.IntsInput(1));
    }
  } else {
    split = ctx.GetInts("split");
  }
  const size_t n = ctx.num_outputs();
  const int64_t len = x->dim(axis);
  if (split.empty()) {
    const int64_t num = ctx.GetInt("num_outputs", static_cast<int64_t>(n));
    // num_outputs 0 (or a node without outputs) divided by zero.
    if (num <= 0 || n == 0)
      return ctx.Error(absl::StrCat("num_outputs must be positive, got ", num));
    const int64_t chunk = (len + num - 1) / num;
    for (int64_t i = 0; i < num; ++i)
      split.push_back(std::max<int64_t>(0, std::min(chunk, len - i * chunk)));
    if (ctx.opset() < 18) {
      split.assign(n, len / static_cast<int64_t>(n));
    }
  }
  // The parts must tile the axis: a negative part moved the next one's offset before the input (and
  // huge parts overflowed the sum).
  int64_t total = 0;
  for (int64_t s : split) {
    if (s < 0 || s > len - total)
      return ctx.Error(
          absl::StrCat("split ", DimsToString(split), " does not add up to the axis length ", len));
    total += s;
  }
  if (total != len || split.size() != n) return ctx.Error("split sizes do not match the input");
  const int64_t outer = DimProduct(x->dims(), 0, axis);
  const int64_t inner = DimProduct(x->dims(), axis + 1, x->rank());
  int64_t offset = 0;
  for (size_t k = 0; k < n; ++k) {
    std::vector<int64_t> dims = x->dims();
    dims[axis] = split[k];
    Tensor out(x->dtype(), dims);
    const int64_t chunk = split[k] * inner;
    for (int64_t o = 0; o < outer; ++o)
      CopyElements(*x, o * len * inner + offset, out, o * chunk, chunk);
    offset += chunk;
    ctx.set_output(k, std::move(out));
  }
  return OkStatus();
}

// Broadcasts x to `dims` (numpy rules) by copying: the innermost dims that x has as they are
// (right-aligned) are copied as runs, one per element of the outer ones (a decoder's repeat_kv
// copies 16 KB runs where it copied an element at a time, at ~3 GB/s).
Tensor BroadcastTo(const Tensor& x, const std::vector<int64_t>& dims) {
  Tensor out(x.dtype(), dims);
  const int64_t r = static_cast<int64_t>(dims.size()), xr = x.rank();
  int64_t kept = 0, run = 1;
  while (kept < xr && x.dim(xr - 1 - kept) == dims[r - 1 - kept]) run *= dims[r - 1 - kept++];
  const std::vector<int64_t> out_outer(dims.begin(), dims.end() - kept);
  const std::vector<int64_t> x_outer(x.dims().begin(), x.dims().end() - kept);
  const std::vector<int64_t> one{1};
  DispatchBySize(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = x.data<T>();
    T* dst = out.mutable_data<T>();
    ForEachBroadcast(out_outer, x_outer, one, [&](int64_t o, int64_t i, int64_t) {
      std::copy_n(src + i * run, run, dst + o * run);
    });
    return OkStatus();
  }).IgnoreError();
  return out;
}

Status ExpandKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> shape, ctx.IntsInput(1));
  for (int64_t d : shape) {
    if (d < 0) return ctx.Error(absl::StrCat("shape ", DimsToString(shape), " has a negative dim"));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastShapes(x->dims(), shape));
  ctx.set_output(0, BroadcastTo(*x, dims));
  return OkStatus();
}

Status TileKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const int64_t r = x->rank();
  std::vector<int64_t> reps;
  if (ctx.opset() < 6) {
    // Tile-1: `tiles` copies along `axis`, both scalars of the input's type.
    // Integers (a NaN or huge float converted to int64 was undefined).
    ASSIGN_OR_RETURN(const int64_t tiles, ScalarIntInput(ctx, 1, 1));
    ASSIGN_OR_RETURN(const int64_t axis_value, ScalarIntInput(ctx, 2, 0));
    ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(axis_value, r));
    if (r == 0) return ctx.Error("cannot tile a scalar");
    reps.assign(r, 1);
    reps[axis] = tiles;
  } else {
    ASSIGN_OR_RETURN(reps, ctx.IntsInput(1));
  }
  if (static_cast<int64_t>(reps.size()) != r)
    return ctx.Error("repeats length must equal the rank");
  for (int64_t v : reps) {
    if (v < 0) return ctx.Error("repeats must be non-negative");
  }
  std::vector<int64_t> dims(r);
  for (int64_t i = 0; i < r; ++i) {
    if (__builtin_mul_overflow(x->dim(i), reps[i], &dims[i])) {
      return ctx.Error(
          absl::StrCat("repeats ", DimsToString(reps), " overflow the dims of ", x->ShapeString()));
    }
  }
  Tensor out(x->dtype(), dims);
  const int64_t n = out.size();
  const std::vector<int64_t> in_strides = Strides(x->dims());
  RETURN_IF_ERROR(DispatchBySize(x->dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* src = x->data<T>();
    T* dst = out.mutable_data<T>();
    std::vector<int64_t> idx(r, 0);
    for (int64_t o = 0; o < n; ++o) {
      int64_t p = 0;
      for (int64_t d = 0; d < r; ++d) p += (idx[d] % x->dim(d)) * in_strides[d];
      dst[o] = src[p];
      for (int64_t d = r - 1; d >= 0; --d) {
        if (++idx[d] < dims[d]) break;
        idx[d] = 0;
      }
    }
    return OkStatus();
  }));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status ConstantKernel(KernelContext& ctx) {
  if (const ir::Attribute* a = ctx.attr("value")) {
    ASSIGN_OR_RETURN(Tensor t, Tensor::FromIr(a->t));
    ctx.set_output(0, std::move(t));
  } else if (const ir::Attribute* a = ctx.attr("value_float")) {
    ctx.set_output(0, Tensor::Scalar<float>(DataType::kFloat, a->f));
  } else if (const ir::Attribute* a = ctx.attr("value_floats")) {
    ctx.set_output(0, Tensor::FromVector<float>(
                          DataType::kFloat, {static_cast<int64_t>(a->floats.size())}, a->floats));
  } else if (const ir::Attribute* a = ctx.attr("value_int")) {
    ctx.set_output(0, Tensor::Scalar<int64_t>(DataType::kInt64, a->i));
  } else if (const ir::Attribute* a = ctx.attr("value_ints")) {
    ctx.set_output(0, Tensor::FromVector<int64_t>(DataType::kInt64,
                                                  {static_cast<int64_t>(a->ints.size())}, a->ints));
  } else if (const ir::Attribute* a = ctx.attr("value_string")) {
    ctx.set_output(0, Tensor::Scalar<std::string>(DataType::kString, a->s));
  } else if (const ir::Attribute* a = ctx.attr("value_strings")) {
    ctx.set_output(
        0, Tensor::FromVector<std::string>(DataType::kString,
                                           {static_cast<int64_t>(a->strings.size())}, a->strings));
  } else if (const ir::Attribute* a = ctx.attr("sparse_value")) {
    // Densify COO.
    const ir::SparseTensor& sp = a->sparse_tensor;
    ASSIGN_OR_RETURN(Tensor values, Tensor::FromIr(sp.values));
    ASSIGN_OR_RETURN(Tensor indices, Tensor::FromIr(sp.indices));
    for (int64_t d : sp.dims) {
      if (d < 0) return ctx.Error("sparse_value has a negative dim");
    }
    Tensor out(values.dtype(), sp.dims);
    const std::vector<int64_t> strides = Strides(sp.dims);
    const int64_t nnz = values.size();
    const int64_t rank = static_cast<int64_t>(sp.dims.size());
    // indices: [nnz] linear or [nnz, rank] coordinates, int64, each inside the dims (an index from
    // the model was written through unchecked).
    if (indices.dtype() != DataType::kInt64 || values.rank() != 1 ||
        !(indices.dims() == std::vector<int64_t>{nnz} ||
          indices.dims() == std::vector<int64_t>{nnz, rank})) {
      return ctx.Error(
          "sparse_value needs 1-D values and int64 indices of shape [nnz] or [nnz, rank]");
    }
    const int64_t* idx = indices.data<int64_t>();
    for (int64_t k = 0; k < nnz; ++k) {
      int64_t lin = 0;
      if (indices.rank() == 1) {
        lin = idx[k];
        if (lin < 0 || lin >= out.size()) return ctx.Error("sparse_value index out of range");
      } else {
        for (int64_t d = 0; d < rank; ++d) {
          const int64_t v = idx[k * rank + d];
          if (v < 0 || v >= sp.dims[d]) return ctx.Error("sparse_value index out of range");
          lin += v * strides[d];
        }
      }
      CopyElements(values, k, out, lin, 1);
    }
    ctx.set_output(0, std::move(out));
  } else {
    return ctx.Error("Constant has no value attribute");
  }
  return OkStatus();
}

Status ConstantOfShapeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.IntsInput(0));
  Tensor value = Tensor::Scalar<float>(DataType::kFloat, 0.0f);
  if (const ir::Attribute* a = ctx.attr("value")) {
    ASSIGN_OR_RETURN(value, Tensor::FromIr(a->t));
  }
  for (int64_t d : dims) {
    if (d < 0) return ctx.Error("the shape must not have negative dims");
  }
  if (value.size() != 1) return ctx.Error("value must hold one element");
  if (value.is_string()) {
    Tensor out(value.dtype(), dims);
    for (int64_t i = 0; i < out.size(); ++i) CopyElements(value, 0, out, i, 1);
    ctx.set_output(0, std::move(out));
    return OkStatus();
  }
  // The element's bytes, then copies of what is filled so far, doubling: a few memcpy calls
  // instead of a call per element (weights built at run time are tens of millions of them).
  Tensor out = Tensor::Uninitialized(value.dtype(), dims);
  const size_t bytes = static_cast<size_t>(out.size()) * out.element_size();
  char* data = out.mutable_raw();
  if (bytes > 0) std::memcpy(data, value.raw(), out.element_size());
  for (size_t filled = out.element_size(); filled < bytes; filled *= 2) {
    std::memcpy(data + filled, data, std::min(filled, bytes - filled));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status RangeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* s, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(double start, ScalarInput(ctx, 0, 0));
  ASSIGN_OR_RETURN(double limit, ScalarInput(ctx, 1, 0));
  ASSIGN_OR_RETURN(double delta, ScalarInput(ctx, 2, 1));
  if (delta == 0) return ctx.Error("delta is zero");
  const double count = std::ceil((limit - start) / delta);
  // NaN or infinite bounds, or a count past int64 (converting those is undefined): a clear error.
  if (!(count < 9.2e18))
    return ctx.Error(absl::StrCat("start, limit and delta give ", count, " elements"));
  const int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  const DataType wt = ir::IsNarrowFloat(s->dtype()) ? DataType::kFloat : s->dtype();
  ASSIGN_OR_RETURN(Tensor out, DispatchNumeric(wt, [&](auto tag) -> StatusOr<Tensor> {
                     using T = decltype(tag);
                     Tensor o(wt, {n});
                     T* p = o.mutable_data<T>();
                     const T st = static_cast<T>(start), d = static_cast<T>(delta);
                     for (int64_t i = 0; i < n; ++i)
                       p[i] = static_cast<T>(st + static_cast<T>(i) * d);
                     return o;
                   }));
  ASSIGN_OR_RETURN(out, CastTensor(out, s->dtype()));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status EyeLikeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  if (x->rank() != 2) return ctx.Error("input must be 2-D");
  DataType dt = x->dtype();
  if (const ir::Attribute* a = ctx.attr("dtype")) dt = static_cast<DataType>(a->i);
  const int64_t k = ctx.GetInt("k", 0);
  Tensor f(DataType::kDouble, x->dims());
  double* p = f.mutable_data<double>();
  for (int64_t i = 0; i < x->dim(0); ++i) {
    // i + k overflowed for k near +-2^63.
    int64_t j = 0;
    if (__builtin_add_overflow(i, k, &j)) continue;
    if (j >= 0 && j < x->dim(1)) p[i * x->dim(1) + j] = 1;
  }
  ASSIGN_OR_RETURN(Tensor out, CastTensor(f, dt));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status DepthToSpaceKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  if (x->rank() != 4) return ctx.Error("input must be 4-D");
  const int64_t b = ctx.GetInt("blocksize", 0);
  const int64_t N = x->dim(0), C = x->dim(1), H = x->dim(2), W = x->dim(3);
  // b * b, H * b and W * b overflowed for a huge blocksize.
  int64_t bb = 0, hb = 0, wb = 0;
  if (b <= 0 || __builtin_mul_overflow(b, b, &bb) || __builtin_mul_overflow(H, b, &hb) ||
      __builtin_mul_overflow(W, b, &wb)) {
    return ctx.Error(absl::StrCat("bad blocksize ", b));
  }
  if (C % bb != 0) return ctx.Error("bad blocksize");
  const bool crd = ctx.GetString("mode", "DCR") == "CRD";
  Tensor t6 =
      crd ? x->Reshaped({N, C / (b * b), b, b, H, W}) : x->Reshaped({N, b, b, C / (b * b), H, W});
  std::vector<int64_t> perm =
      crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3} : std::vector<int64_t>{0, 3, 4, 1, 5, 2};
  ASSIGN_OR_RETURN(Tensor t, TransposeTensor(t6, perm));
  ctx.set_output(0, t.Reshaped({N, C / (b * b), H * b, W * b}));
  return OkStatus();
}

Status SpaceToDepthKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  if (x->rank() != 4) return ctx.Error("input must be 4-D");
  const int64_t b = ctx.GetInt("blocksize", 0);
  const int64_t N = x->dim(0), C = x->dim(1), H = x->dim(2), W = x->dim(3);
  // C * b * b overflowed for a huge blocksize (an empty H and W divide by any).
  int64_t cbb = 0;
  if (b <= 0 || __builtin_mul_overflow(C, b, &cbb) || __builtin_mul_overflow(cbb, b, &cbb)) {
    return ctx.Error(absl::StrCat("bad blocksize ", b));
  }
  if (H % b != 0 || W % b != 0) return ctx.Error("bad blocksize");
  ASSIGN_OR_RETURN(Tensor t,
                   TransposeTensor(x->Reshaped({N, C, H / b, b, W / b, b}), {0, 3, 5, 1, 2, 4}));
  ctx.set_output(0, t.Reshaped({N, C * b * b, H / b, W / b}));
  return OkStatus();
}

Status TriluKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  if (x->rank() < 2) return ctx.Error("input must be at least 2-D");
  // k read exactly (through a double, 2^63 - 1 became 2^63, whose conversion back is undefined).
  ASSIGN_OR_RETURN(const int64_t k, ScalarIntInput(ctx, 1, 0));
  const bool upper = ctx.GetInt("upper", 1) != 0;
  Tensor out = x->Clone();
  const int64_t R = x->dim(x->rank() - 2), C = x->dim(x->rank() - 1);
  const int64_t batches = x->size() == 0 ? 0 : x->size() / (R * C);
  RETURN_IF_ERROR(DispatchBySize(x->dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    T* p = out.mutable_data<T>();
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < R; ++i) {
        for (int64_t j = 0; j < C; ++j) {
          const bool keep = upper ? (j - i >= k) : (j - i <= k);  // |j - i| < 2^63: no overflow
          if (!keep) p[b * R * C + i * C + j] = T{};
        }
      }
    }
    return OkStatus();
  }));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace

void RegisterShapeKernels(KernelRegistry& r) {
  r.Register("", "Identity", 1, IdentityKernel);
  r.Register("", "Shape", 1, ShapeKernel);
  r.Register("", "Size", 1, SizeKernel);
  r.Register("", "Reshape", 1, ReshapeKernel);
  r.Register("", "Flatten", 1, FlattenKernel);
  r.Register("", "Squeeze", 1, SqueezeKernel);
  r.Register("", "Unsqueeze", 1, UnsqueezeKernel);
  r.Register("", "Transpose", 1, TransposeKernel);
  r.Register("", "Concat", 1, ConcatKernel);
  r.Register("", "Split", 1, SplitKernel);
  r.Register("", "Expand", 8, ExpandKernel);
  r.Register("", "Tile", 1, TileKernel);
  r.Register("", "Constant", 1, ConstantKernel);
  r.Register("", "ConstantOfShape", 9, ConstantOfShapeKernel);
  r.Register("", "Range", 11, RangeKernel);
  r.Register("", "EyeLike", 9, EyeLikeKernel);
  r.Register("", "DepthToSpace", 1, DepthToSpaceKernel);
  r.Register("", "SpaceToDepth", 1, SpaceToDepthKernel);
  r.Register("", "Trilu", 14, TriluKernel);
}

}  // namespace onnx_opt::interpreter
