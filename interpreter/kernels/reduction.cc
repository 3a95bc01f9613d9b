// Reductions (Reduce*, ArgMax/ArgMin) and the softmax family (Softmax, LogSoftmax, Hardmax), each
// by its own version's rules: axes as attribute or input, noop_with_empty_axes, and the
// pre-opset-13 flatten-to-2-D softmax.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

enum class Reduce { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

// The reduced axes mask, or nullopt for "no reduction" (noop_with_empty_axes).
StatusOr<std::optional<std::vector<bool>>> ReducedAxes(const KernelContext& ctx, int64_t rank,
                                                       int axes_input_since) {
  std::vector<int64_t> axes;
  if (ctx.opset() >= axes_input_since) {
    if (ctx.has_input(1)) {
      ASSIGN_OR_RETURN(axes, ctx.IntsInput(1));
    }
  } else {
    axes = ctx.GetInts("axes");
  }
  std::vector<bool> mask(rank, false);
  if (axes.empty()) {
    if (ctx.GetInt("noop_with_empty_axes", 0) != 0) return std::optional<std::vector<bool>>();
    mask.assign(rank, true);
  }
  for (int64_t a : axes) {
    ASSIGN_OR_RETURN(int64_t n, NormalizeAxis(a, rank));
    mask[n] = true;
  }
  return std::optional<std::vector<bool>>(mask);
}

// ReduceSum/ReduceMean of float over trailing axes (the usual normalization pattern): row sums on
// the vector kernels, in double as the generic loop sums. False when the axes are not a trailing
// block.
StatusOr<bool> SumTrailingAxesFloat(KernelContext& ctx, const Tensor& x,
                                    const std::vector<bool>& mask, bool keepdims, bool mean) {
  const int64_t r = x.rank();
  int64_t first = r;
  while (first > 0 && mask[first - 1]) --first;
  for (int64_t d = 0; d < first; ++d) {
    if (mask[d]) return false;
  }
  const int64_t rows = DimProduct(x.dims(), 0, first), n = DimProduct(x.dims(), first, r);
  if (first == r || n == 0) return false;
  std::vector<int64_t> out_dims(x.dims().begin(), x.dims().begin() + first);
  if (keepdims) out_dims.resize(r, 1);
  std::vector<double> sums(rows);
  Vec().row_sums_f32(x.data<float>(), rows, n, sums.data());
  Tensor out = Tensor::Uninitialized(DataType::kFloat, out_dims);
  float* po = out.mutable_data<float>();
  for (int64_t i = 0; i < rows; ++i) po[i] = static_cast<float>(mean ? sums[i] / n : sums[i]);
  ctx.set_output(0, std::move(out));
  return true;
}

template <Reduce kind>
Status ReduceKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  const int since = kind == Reduce::kSum ? 13 : 18;
  ASSIGN_OR_RETURN(auto mask, ReducedAxes(ctx, x0->rank(), since));
  const bool keepdims = ctx.GetInt("keepdims", 1) != 0;
  if constexpr (kind == Reduce::kSum || kind == Reduce::kMean) {
    if (x0->dtype() == DataType::kFloat && mask) {
      ASSIGN_OR_RETURN(bool done,
                       SumTrailingAxesFloat(ctx, *x0, *mask, keepdims, kind == Reduce::kMean));
      if (done) return OkStatus();
    }
  }
  Tensor x = WidenToFloat(*x0);
  const int64_t r = x.rank();
  std::vector<bool> m = mask ? *mask : std::vector<bool>(r, false);
  std::vector<int64_t> out_dims, kept_dims;
  for (int64_t d = 0; d < r; ++d) {
    if (m[d]) {
      if (keepdims) out_dims.push_back(1);
    } else {
      out_dims.push_back(x.dim(d));
    }
    kept_dims.push_back(m[d] ? 1 : x.dim(d));
  }
  const int64_t n_out = NumElements(kept_dims);
  std::vector<int64_t> reduced_dims;
  for (int64_t d = 0; d < r; ++d) {
    if (m[d]) reduced_dims.push_back(x.dim(d));
  }
  const int64_t count = NumElements(reduced_dims);  // saturating: [0, 2^40, 2^40] overflowed
  const bool is_int = !ir::IsFloatingPoint(x.dtype());
  // Integer sums, products and extremes in the integer type, exactly, wrapping on overflow as
  // onnxruntime and numpy (dtype kept) do; through a double they lost the low bits of large int64
  // values and saturated.
  constexpr bool kExactInt = kind == Reduce::kSum || kind == Reduce::kProd ||
                             kind == Reduce::kSumSquare || kind == Reduce::kL1 ||
                             kind == Reduce::kMax || kind == Reduce::kMin;
  if (kExactInt && is_int && x.dtype() != DataType::kBool) {
    ASSIGN_OR_RETURN(Tensor res, DispatchInt(x.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                       using T = decltype(tag);
                       T init = T(0);
                       if (kind == Reduce::kProd) init = T(1);
                       if (kind == Reduce::kMax) init = std::numeric_limits<T>::lowest();
                       if (kind == Reduce::kMin) init = std::numeric_limits<T>::max();
                       if ((kind == Reduce::kMax || kind == Reduce::kMin) && count == 0)
                         init = T(0);  // empty: 0, as before
                       std::vector<T> acc(n_out, init);
                       const T* p = x.data<T>();
                       const std::vector<int64_t> one{1};
                       ForEachBroadcast(x.dims(), kept_dims, one,
                                        [&](int64_t i, int64_t o, int64_t) {
                                          const T v = p[i];
                                          T& a = acc[o];
                                          switch (kind) {
                                            case Reduce::kSum:
                                              a = WrapAdd(a, v);
                                              break;
                                            case Reduce::kProd:
                                              a = WrapMul(a, v);
                                              break;
                                            case Reduce::kSumSquare:
                                              a = WrapAdd(a, WrapMul(v, v));
                                              break;
                                            case Reduce::kL1:
                                              a = WrapAdd(a, v < T(0) ? WrapNeg(v) : v);
                                              break;
                                            case Reduce::kMax:
                                              a = std::max(a, v);
                                              break;
                                            case Reduce::kMin:
                                              a = std::min(a, v);
                                              break;
                                            default:
                                              break;
                                          }
                                        });
                       return Tensor::FromVector<T>(x.dtype(), out_dims, acc);
                     }));
    ctx.set_output(0, std::move(res));
    return OkStatus();
  }
  std::vector<double> acc(n_out);
  double init = 0;
  if (kind == Reduce::kMax) init = -std::numeric_limits<double>::infinity();
  if (kind == Reduce::kMin) init = std::numeric_limits<double>::infinity();
  if (kind == Reduce::kProd) init = 1;
  std::fill(acc.begin(), acc.end(), init);
  RETURN_IF_ERROR(DispatchNumericBool(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* p = x.data<T>();
    const std::vector<int64_t> one{1};
    ForEachBroadcast(x.dims(), kept_dims, one, [&](int64_t i, int64_t o, int64_t) {
      const double v = static_cast<double>(p[i]);
      double& a = acc[o];
      switch (kind) {
        case Reduce::kSum:
        case Reduce::kMean:
        case Reduce::kLogSum:
          a += v;
          break;
        case Reduce::kMax:
          a = (std::isnan(v) || std::isnan(a)) ? std::numeric_limits<double>::quiet_NaN()
                                               : std::max(a, v);
          break;
        case Reduce::kMin:
          a = (std::isnan(v) || std::isnan(a)) ? std::numeric_limits<double>::quiet_NaN()
                                               : std::min(a, v);
          break;
        case Reduce::kProd:
          a *= v;
          break;
        case Reduce::kL1:
          a += std::abs(v);
          break;
        case Reduce::kL2:
        case Reduce::kSumSquare:
          a += v * v;
          break;
        case Reduce::kLogSumExp:
          a += std::exp(v);
          break;
      }
    });
    return OkStatus();
  }));
  for (double& a : acc) {
    switch (kind) {
      case Reduce::kMean:
        a = count == 0 ? std::numeric_limits<double>::quiet_NaN() : a / count;
        break;
      case Reduce::kL2:
        a = std::sqrt(a);
        break;
      case Reduce::kLogSum:
      case Reduce::kLogSumExp:
        a = std::log(a);
        break;
      case Reduce::kMax:
      case Reduce::kMin:
        if (is_int && std::isinf(a)) {
          a = 0;  // empty integer reduction
        }
        break;
      default:
        break;
    }
  }
  Tensor res = Tensor::FromVector<double>(DataType::kDouble, out_dims, acc);
  if (x.dtype() == DataType::kBool && (kind == Reduce::kMax || kind == Reduce::kMin)) {
    ASSIGN_OR_RETURN(res, CastTensor(res, DataType::kBool));
  } else if (is_int && kind == Reduce::kMean) {
    ASSIGN_OR_RETURN(res, CastTensor(res, x0->dtype()));
  } else {
    ASSIGN_OR_RETURN(res, CastTensor(res, x0->dtype()));
  }
  ctx.set_output(0, std::move(res));
  return OkStatus();
}

template <bool kMax>
Status ArgKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  Tensor x = WidenToFloat(*x0);
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 0), x.rank()));
  const bool keepdims = ctx.GetInt("keepdims", 1) != 0;
  const bool last = ctx.GetInt("select_last_index", 0) != 0;
  const int64_t outer = DimProduct(x.dims(), 0, axis), len = x.dim(axis);
  const int64_t inner = DimProduct(x.dims(), axis + 1, x.rank());
  if (len == 0 && outer > 0 && inner > 0) {
    // Each output element is the index of an element of an empty axis: there is none to read.
    return ctx.Error(absl::StrCat("axis ", axis, " of the input ", DimsToString(x.dims()),
                                  " is empty: there is no ", kMax ? "maximum" : "minimum"));
  }
  std::vector<int64_t> dims = x.dims();
  if (keepdims)
    dims[axis] = 1;
  else
    dims.erase(dims.begin() + axis);
  Tensor out(DataType::kInt64, dims);
  if (x.size() ==
      0) {  // (the output is empty too) the loops below would count through outer * inner
    ctx.set_output(0, std::move(out));
    return OkStatus();
  }
  int64_t* po = out.mutable_data<int64_t>();
  RETURN_IF_ERROR(DispatchNumericBool(x.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* p = x.data<T>();
    for (int64_t a = 0; a < outer; ++a) {
      for (int64_t i = 0; i < inner; ++i) {
        int64_t best = 0;
        T bv = p[a * len * inner + i];
        for (int64_t k = 1; k < len; ++k) {
          const T v = p[(a * len + k) * inner + i];
          const bool better = kMax ? (last ? v >= bv : v > bv) : (last ? v <= bv : v < bv);
          if (better) {
            best = k;
            bv = v;
          }
        }
        po[a * inner + i] = best;
      }
    }
    return OkStatus();
  }));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

enum class SoftKind { kSoftmax, kLogSoftmax, kHardmax };

template <SoftKind kind>
Status SoftmaxKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  Tensor x = WidenToFloat(*x0);
  const bool legacy = ctx.opset() < 13;
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", legacy ? 1 : -1), x.rank()));
  // An empty input: nothing to compute, and the loops below would still count through the product
  // of its other dims ([2^40, 0, 2^40]), which may be astronomically large.
  if (x.size() == 0) {
    ctx.set_output(0, Tensor(x0->dtype(), x0->dims()));
    return OkStatus();
  }
  int64_t outer, len, inner;
  if (legacy) {
    outer = DimProduct(x.dims(), 0, axis);
    len = DimProduct(x.dims(), axis, x.rank());
    inner = 1;
  } else {
    outer = DimProduct(x.dims(), 0, axis);
    len = x.dim(axis);
    inner = DimProduct(x.dims(), axis + 1, x.rank());
  }
  // Float rows along the last axis: the vector kernel.
  if (kind != SoftKind::kHardmax && inner == 1 && x0->dtype() == DataType::kFloat) {
    x = Tensor();  // drop the local reference so that the output may take over X's buffer
    Tensor o = ctx.OutputBuffer(0, DataType::kFloat, x0->dims());
    const float* px = x0->data<float>();
    float* po = o.mutable_data<float>();
    ParallelItems(outer, len, [&](int64_t begin, int64_t end) {
      Vec().softmax_rows_f32(px + begin * len, po + begin * len, end - begin, len,
                             kind == SoftKind::kLogSoftmax);
    });
    ctx.set_output(0, std::move(o));
    return OkStatus();
  }
  ASSIGN_OR_RETURN(Tensor out, DispatchFloat(x.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                     using T = decltype(tag);
                     Tensor o(x.dtype(), x.dims());
                     const T* p = x.data<T>();
                     T* q = o.mutable_data<T>();
                     for (int64_t a = 0; a < outer; ++a) {
                       for (int64_t i = 0; i < inner; ++i) {
                         const int64_t base = a * len * inner + i;
                         T mx = -std::numeric_limits<T>::infinity();
                         int64_t arg = 0;
                         for (int64_t k = 0; k < len; ++k) {
                           if (p[base + k * inner] > mx) {
                             mx = p[base + k * inner];
                             arg = k;
                           }
                         }
                         if (kind == SoftKind::kHardmax) {
                           for (int64_t k = 0; k < len; ++k)
                             q[base + k * inner] = k == arg ? T(1) : T(0);
                           continue;
                         }
                         double sum = 0;
                         for (int64_t k = 0; k < len; ++k)
                           sum += std::exp(static_cast<double>(p[base + k * inner] - mx));
                         for (int64_t k = 0; k < len; ++k) {
                           const double v = static_cast<double>(p[base + k * inner] - mx);
                           q[base + k * inner] = static_cast<T>(
                               kind == SoftKind::kSoftmax ? std::exp(v) / sum : v - std::log(sum));
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

}  // namespace

void RegisterReductionKernels(KernelRegistry& r) {
  r.Register("", "ReduceSum", 1, ReduceKernel<Reduce::kSum>);
  r.Register("", "ReduceMean", 1, ReduceKernel<Reduce::kMean>);
  r.Register("", "ReduceMax", 1, ReduceKernel<Reduce::kMax>);
  r.Register("", "ReduceMin", 1, ReduceKernel<Reduce::kMin>);
  r.Register("", "ReduceProd", 1, ReduceKernel<Reduce::kProd>);
  r.Register("", "ReduceL1", 1, ReduceKernel<Reduce::kL1>);
  r.Register("", "ReduceL2", 1, ReduceKernel<Reduce::kL2>);
  r.Register("", "ReduceLogSum", 1, ReduceKernel<Reduce::kLogSum>);
  r.Register("", "ReduceLogSumExp", 1, ReduceKernel<Reduce::kLogSumExp>);
  r.Register("", "ReduceSumSquare", 1, ReduceKernel<Reduce::kSumSquare>);
  r.Register("", "ArgMax", 1, ArgKernel<true>);
  r.Register("", "ArgMin", 1, ArgKernel<false>);
  r.Register("", "Softmax", 1, SoftmaxKernel<SoftKind::kSoftmax>);
  r.Register("", "LogSoftmax", 1, SoftmaxKernel<SoftKind::kLogSoftmax>);
  r.Register("", "Hardmax", 1, SoftmaxKernel<SoftKind::kHardmax>);
}

}  // namespace onnx_opt::interpreter
