// Helpers shared by kernel files: shapes and axes, numpy broadcasting, element loops.
#ifndef ONNX_OPT_INTERPRETER_KERNELS_COMMON_H_
#define ONNX_OPT_INTERPRETER_KERNELS_COMMON_H_

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "interpreter/dispatch.h"
#include "interpreter/kernel.h"
#include "interpreter/tensor.h"
#include "ir/numeric/narrow_float.h"
#include "ir/status_macros.h"

namespace onnx_opt::interpreter {

// Normalizes a possibly negative axis into [0, rank); error when out of range.
absl::StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank);
absl::StatusOr<std::vector<int64_t>> NormalizeAxes(std::vector<int64_t> axes, int64_t rank);

// Row-major strides of dims.
std::vector<int64_t> Strides(const std::vector<int64_t>& dims);

// numpy broadcast of two shapes.
absl::StatusOr<std::vector<int64_t>> BroadcastShapes(const std::vector<int64_t>& a,
                                                     const std::vector<int64_t>& b);

// Element strides of `in` (right-aligned) when read as `out` dims: 0 where broadcast.
std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& in,
                                      const std::vector<int64_t>& out);

// For each output element in order, calls f(out_index, a_index, b_index).
template <typename F>
void ForEachBroadcast(const std::vector<int64_t>& out_dims, const std::vector<int64_t>& a_dims,
                      const std::vector<int64_t>& b_dims, F&& f) {
  const int64_t n = NumElements(out_dims);
  if (n == 0) return;
  const int64_t na = NumElements(a_dims), nb = NumElements(b_dims);
  if (na == n && nb == n) {
    for (int64_t i = 0; i < n; ++i) f(i, i, i);
    return;
  }
  if (na == n && nb == 1) {
    for (int64_t i = 0; i < n; ++i) f(i, i, 0);
    return;
  }
  if (na == 1 && nb == n) {
    for (int64_t i = 0; i < n; ++i) f(i, 0, i);
    return;
  }
  const std::vector<int64_t> sa = BroadcastStrides(a_dims, out_dims);
  const std::vector<int64_t> sb = BroadcastStrides(b_dims, out_dims);
  const int64_t r = static_cast<int64_t>(out_dims.size());
  const int64_t inner = out_dims[r - 1];
  const int64_t ia = sa[r - 1], ib = sb[r - 1];
  std::vector<int64_t> idx(r, 0);
  int64_t pa = 0, pb = 0;
  for (int64_t o = 0; o < n; o += inner) {
    for (int64_t j = 0; j < inner; ++j) f(o + j, pa + j * ia, pb + j * ib);
    // advance the outer counters
    for (int64_t d = r - 2; d >= 0; --d) {
      ++idx[d];
      pa += sa[d];
      pb += sb[d];
      if (idx[d] < out_dims[d]) break;
      pa -= sa[d] * out_dims[d];
      pb -= sb[d] * out_dims[d];
      idx[d] = 0;
    }
  }
}

// out = f(a, b) with broadcasting; TO is the output element type.
template <typename TA, typename TB, typename TO, typename F>
Tensor BinaryMap(const Tensor& a, const Tensor& b, const std::vector<int64_t>& out_dims,
                 DataType out_type, F&& f) {
  Tensor out(out_type, out_dims);
  const TA* pa = a.data<TA>();
  const TB* pb = b.data<TB>();
  TO* po = out.mutable_data<TO>();
  ForEachBroadcast(out_dims, a.dims(), b.dims(), [&](int64_t o, int64_t i, int64_t j) {
    po[o] = static_cast<TO>(f(pa[i], pb[j]));
  });
  return out;
}

// out = f(x) elementwise.
template <typename TI, typename TO, typename F>
Tensor UnaryMap(const Tensor& x, DataType out_type, F&& f) {
  Tensor out(out_type, x.dims());
  const TI* px = x.data<TI>();
  TO* po = out.mutable_data<TO>();
  const int64_t n = x.size();
  for (int64_t i = 0; i < n; ++i) po[i] = static_cast<TO>(f(px[i]));
  return out;
}

// Runs a float computation on float/double inputs; float16/bfloat16 are widened to float and the
// result narrowed back. `compute(const Tensor& widened) -> StatusOr<Tensor>`.
template <typename F>
absl::StatusOr<Tensor> WithWidened(const Tensor& x, F&& compute) {
  if (ir::IsNarrowFloat(x.dtype())) {
    ASSIGN_OR_RETURN(Tensor r, compute(WidenToFloat(x)));
    return CastTensor(r, x.dtype());
  }
  return compute(x);
}

// int8 or uint8: the quantized operators' element types.
inline bool Is8BitInteger(DataType t) { return t == DataType::kInt8 || t == DataType::kUint8; }

// Element i of an int8 or uint8 tensor, as an int.
inline int32_t ByteAt(const Tensor& t, int64_t i) {
  return t.dtype() == DataType::kInt8 ? t.data<int8_t>()[i] : t.data<uint8_t>()[i];
}

// Reads a scalar input (any numeric type) as double; `fallback` when absent.
absl::StatusOr<double> ScalarInput(const KernelContext& ctx, size_t i, double fallback);

// Reads a scalar input as an integer; `fallback` when absent. int32/int64 exactly (an int64 read
// through a double loses its low bits, and 2^63 - 1 becomes 2^63, whose conversion back is
// undefined); other numeric types truncated toward zero, NaN, infinities and values outside int64
// being an error instead of an undefined conversion.
absl::StatusOr<int64_t> ScalarIntInput(const KernelContext& ctx, size_t i, int64_t fallback);

// A double as T. For integer types, out-of-range values saturate (NaN and -inf give the lowest
// value): converting those directly is undefined.
template <typename T>
T SaturatingCast(double r) {
  if constexpr (std::is_integral_v<T>) {
    constexpr double kLowest = static_cast<double>(std::numeric_limits<T>::lowest());
    constexpr double kMax =
        static_cast<double>(std::numeric_limits<T>::max());  // 2^63 for int64: exclusive
    if (!(r > kLowest)) return std::numeric_limits<T>::lowest();
    if (r >= kMax) return std::numeric_limits<T>::max();
  }
  return static_cast<T>(r);
}

// Two's-complement (wrapping) integer arithmetic, as ONNX runtimes and numpy compute it: signed
// overflow is undefined in C++, so integers are computed in the unsigned type of their width (at
// least unsigned int's, so that uint16 * uint16 is not promoted to a signed int) and converted
// back. Floating-point types compute as written.
template <typename T>
using WrapUnsigned =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
template <typename T>
T WrapAdd(T x, T y) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = WrapUnsigned<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) + static_cast<U>(y)));
  } else if constexpr (std::is_same_v<T, bool>) {
    return x || y;  // as bool(x + y)
  } else {
    return x + y;
  }
}
template <typename T>
T WrapSub(T x, T y) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = WrapUnsigned<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) - static_cast<U>(y)));
  } else {
    return x - y;
  }
}
template <typename T>
T WrapMul(T x, T y) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = WrapUnsigned<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(x) * static_cast<U>(y)));
  } else if constexpr (std::is_same_v<T, bool>) {
    return x && y;  // as bool(x * y)
  } else {
    return x * y;
  }
}
template <typename T>
T WrapNeg(T x) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return WrapSub(T(0), x);
  } else {
    return -x;
  }
}

// Product of dims[begin, end); 0 when one of them is 0 (however large the others), saturating at
// INT64_MAX instead of overflowing (only an empty tensor can have dims whose product overflows).
int64_t DimProduct(const std::vector<int64_t>& dims, int64_t begin, int64_t end);

// a / b rounded up, for a >= 0 and b > 0.
inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Copies `count` elements of any type (strings included).
void CopyElements(const Tensor& src, int64_t src_offset, Tensor& dst, int64_t dst_offset,
                  int64_t count);

// Runs fn(begin, end) over [0, n) in fixed chunks of about 4K elements' worth of work (an item
// costing `item_size` elements) on the interpreter's threads; for work whose results do not depend
// on how it is split (elementwise maps, independent rows).
void ParallelItems(int64_t n, int64_t item_size,
                   const std::function<void(int64_t begin, int64_t end)>& fn);

// Transposes x by perm.
absl::StatusOr<Tensor> TransposeTensor(const Tensor& x, const std::vector<int64_t>& perm);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_KERNELS_COMMON_H_
