// Elementwise operators: unary math and activations, binary arithmetic with numpy broadcasting
// (and the pre-opset-7 `broadcast`/`axis` form), comparisons, logical and bitwise ops, variadic
// Sum/Mean/Max/Min, Where, Clip, Cast and CastLike.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "absl/container/inlined_vector.h"
#include "glog/logging.h"
#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/common.h"
#include "schema/inference/legacy_broadcast.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

// ---- unary
// ---------------------------------------------------------------------------------------

// A unary kernel over float/double (narrow floats widened). `maker(ctx)` returns the element
// function.
template <typename Maker>
KernelFn FloatUnary(Maker maker) {
  return [maker](KernelContext& ctx) -> Status {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
    auto f = maker(ctx);
    ASSIGN_OR_RETURN(Tensor out, WithWidened(*x, [&](const Tensor& w) -> StatusOr<Tensor> {
                       return DispatchFloat(w.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                         using T = decltype(tag);
                         return UnaryMap<T, T>(w, w.dtype(),
                                               [&](T v) { return static_cast<T>(f(v)); });
                       });
                     }));
    ctx.set_output(0, std::move(out));
    return OkStatus();
  };
}

// A unary kernel over every numeric type.
template <typename Maker>
KernelFn NumericUnary(Maker maker) {
  return [maker](KernelContext& ctx) -> Status {
    ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
    auto f = maker(ctx);
    ASSIGN_OR_RETURN(Tensor out, WithWidened(*x, [&](const Tensor& w) -> StatusOr<Tensor> {
                       return DispatchNumeric(w.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                         using T = decltype(tag);
                         return UnaryMap<T, T>(w, w.dtype(),
                                               [&](T v) { return static_cast<T>(f(v)); });
                       });
                     }));
    ctx.set_output(0, std::move(out));
    return OkStatus();
  };
}

template <typename F>
auto Simple(F f) {
  return [f](const KernelContext&) { return f; };
}

struct UnaryParams {
  float p0 = 0, p1 = 0;
};
UnaryParams NoParams(const KernelContext&) { return {}; }
UnaryParams LeakyReluParams(const KernelContext& c) { return {c.GetFloat("alpha", 0.01f)}; }
UnaryParams HardSigmoidParams(const KernelContext& c) {
  return {c.GetFloat("alpha", 0.2f), c.GetFloat("beta", 0.5f)};
}

// float tensors go through the vector kernel `op` (its parameters from `params(ctx)`); other types
// through `fallback`.
template <typename Params>
KernelFn VectorUnary(UnaryOp op, Params params, KernelFn fallback) {
  return [op, params, fallback](KernelContext& ctx) -> Status {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DataType::kFloat) return fallback(ctx);
    const UnaryParams p = params(ctx);
    Tensor y = ctx.OutputBuffer(0, DataType::kFloat, x.dims());
    const float* px = x.data<float>();
    float* py = y.mutable_data<float>();
    ParallelItems(x.size(), 1, [&](int64_t begin, int64_t end) {
      Vec().unary_f32(op, px + begin, py + begin, end - begin, p.p0, p.p1);
    });
    ctx.set_output(0, std::move(y));
    return OkStatus();
  };
}

// ---- binary
// --------------------------------------------------------------------------------------

// Before opset 7 B is read by the legacy rules (schema/inference/legacy_broadcast.h): PRelu's slope
// is shared or per channel; the other binary operators align B with A by their `broadcast` and
// `axis` attributes, and refuse shapes those do not allow. Returns B viewed with the shape that
// numpy broadcasting reads the same way, so the numpy kernels below compute the legacy result
// unchanged.
StatusOr<Tensor> LegacyAlign(const KernelContext& ctx, const Tensor& a, const Tensor& b) {
  if (ctx.opset() >= 7) return b;
  const ir::Shape sa = ir::Shape::FromSizes(a.dims()), sb = ir::Shape::FromSizes(b.dims());
  ir::Shape aligned;
  if (ctx.node().op_type() == "PRelu") {
    std::optional<ir::Shape> slope = schema::inference::LegacyPReluSlopeShape(sa, sb);
    CHECK(slope.has_value()) << "every dim of a run-time tensor is known";
    aligned = *std::move(slope);
  } else {
    std::optional<int64_t> axis;
    if (ctx.has_attr("axis")) axis = ctx.GetInt("axis", 0);
    StatusOr<ir::Shape> s =
        schema::inference::LegacyBroadcastShape(sa, sb, ctx.GetInt("broadcast", 0) != 0, axis);
    if (!s.ok()) return ctx.Error(std::string(s.status().message()));
    aligned = *std::move(s);
  }
  std::vector<int64_t> dims;
  dims.reserve(aligned.rank());
  for (const ir::Dim& d : aligned.dims()) dims.push_back(d.value());
  return b.Reshaped(std::move(dims));
}

struct BinaryInputs {
  Tensor a, b;
  std::vector<int64_t> out_dims;
  DataType orig;  // the input type before widening
};

StatusOr<BinaryInputs> PrepareBinary(const KernelContext& ctx, bool widen = true) {
  ASSIGN_OR_RETURN(const Tensor* a, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* b, ctx.TensorInput(1));
  BinaryInputs in;
  in.orig = a->dtype();
  in.a = widen ? WidenToFloat(*a) : *a;
  in.b = widen ? WidenToFloat(*b) : *b;
  ASSIGN_OR_RETURN(in.b, LegacyAlign(ctx, in.a, in.b));
  ASSIGN_OR_RETURN(in.out_dims, BroadcastShapes(in.a.dims(), in.b.dims()));
  return in;
}

// out = a op b for float tensors on the vector kernels: broadcast dims are coalesced (adjacent dims
// that both operands read the same way merge), then each innermost run is one kernel call. The
// output takes over an input's buffer when that input has the output's shape and dies here. Returns
// false (computing nothing) when the innermost run broadcasts both operands, left to the generic
// loop. Works on the inputs in place, with no allocation but the output's: on tiny tensors the
// bookkeeping around the arithmetic is the cost.
bool VectorBinaryFloat(const KernelContext& ctx, BinaryOp op, const Tensor& a, const Tensor& b,
                       const std::vector<int64_t>& out_dims, Tensor& out) {
  const size_t rank = out_dims.size();
  // Each operand's stride along each output dim (0 where it broadcasts), right-aligned.
  absl::InlinedVector<int64_t, 8> sa(rank, 0), sb(rank, 0);
  auto strides = [&](const std::vector<int64_t>& in, absl::InlinedVector<int64_t, 8>& s) {
    int64_t step = 1;
    for (size_t i = in.size(); i-- > 0;) {
      s[rank - in.size() + i] = in[i] == 1 ? 0 : step;
      step *= in[i];
    }
  };
  strides(a.dims(), sa);
  strides(b.dims(), sb);
  // Coalesced dims (outermost first) with each operand's stride along them.
  absl::InlinedVector<int64_t, 8> dims, ca, cb;
  for (size_t d = 0; d < rank; ++d) {
    if (out_dims[d] == 1) continue;
    const bool merge =
        !dims.empty() && (ca.back() == 0) == (sa[d] == 0) && (cb.back() == 0) == (sb[d] == 0);
    if (merge) {
      dims.back() *= out_dims[d];
      ca.back() = sa[d];
      cb.back() = sb[d];
    } else {
      dims.push_back(out_dims[d]);
      ca.push_back(sa[d]);
      cb.push_back(sb[d]);
    }
  }
  const bool a_vec = dims.empty() || ca.back() != 0, b_vec = dims.empty() || cb.back() != 0;
  if (!a_vec && !b_vec) return false;
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  const bool a_full = a.size() == NumElements(out_dims), b_full = b.size() == NumElements(out_dims);
  out = a_full ? ctx.OutputBuffer(0, DataType::kFloat, out_dims)
               : (b_full ? ctx.OutputBuffer(1, DataType::kFloat, out_dims)
                         : Tensor::Uninitialized(DataType::kFloat, out_dims));
  float* po = out.mutable_data<float>();
  if (dims.empty()) {  // one element
    Vec().binary_f32(op, Operands::kVectorVector, pa, pb, po, 1);
    return true;
  }
  const int64_t inner = dims.back();
  const Operands form = a_vec && b_vec
                            ? Operands::kVectorVector
                            : (a_vec ? Operands::kVectorScalar : Operands::kScalarVector);
  const int64_t outer_rank = static_cast<int64_t>(dims.size()) - 1;
  if (outer_rank == 0) {  // one run: split it
    ParallelItems(inner, 1, [&](int64_t begin, int64_t end) {
      Vec().binary_f32(op, form, a_vec ? pa + begin : pa, b_vec ? pb + begin : pb, po + begin,
                       end - begin);
    });
    return true;
  }
  // Runs of `inner` elements, split among threads by rows; each task finds its first row's offsets.
  ParallelItems(NumElements(out_dims) / inner, inner, [&](int64_t begin, int64_t end) {
    absl::InlinedVector<int64_t, 8> idx(outer_rank, 0);
    int64_t oa = 0, ob = 0;
    for (int64_t d = outer_rank - 1, q = begin; d >= 0; --d) {
      idx[d] = q % dims[d];
      q /= dims[d];
      oa += idx[d] * ca[d];
      ob += idx[d] * cb[d];
    }
    for (int64_t row = begin; row < end; ++row) {
      Vec().binary_f32(op, form, pa + oa, pb + ob, po + row * inner, inner);
      for (int64_t d = outer_rank - 1; d >= 0; --d) {
        oa += ca[d];
        ob += cb[d];
        if (++idx[d] < dims[d]) break;
        oa -= ca[d] * dims[d];
        ob -= cb[d] * dims[d];
        idx[d] = 0;
      }
    }
  });
  return true;
}

// Arithmetic: output has the input type. `maker(ctx)` returns a generic (T, T) -> T function;
// `vector_op`, when given, computes the same on float tensors with the vector kernels.
template <typename Maker>
KernelFn Arith(Maker maker, bool allow_int = true,
               std::optional<BinaryOp> vector_op = std::nullopt) {
  return [maker, allow_int, vector_op](KernelContext& ctx) -> Status {
    // float on the vector kernels, reading the inputs where they are (no copies of them).
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    if (vector_op && a.dtype() == DataType::kFloat && b.dtype() == DataType::kFloat) {
      Tensor legacy_b;  // B as the pre-opset-7 rules align it
      if (ctx.opset() < 7) {
        ASSIGN_OR_RETURN(legacy_b, LegacyAlign(ctx, a, b));
      }
      const Tensor& b_aligned = ctx.opset() < 7 ? legacy_b : b;
      ASSIGN_OR_RETURN(std::vector<int64_t> out_dims, BroadcastShapes(a.dims(), b_aligned.dims()));
      Tensor out;
      if (NumElements(out_dims) > 0 &&
          VectorBinaryFloat(ctx, *vector_op, a, b_aligned, out_dims, out)) {
        ctx.set_output(0, std::move(out));
        return OkStatus();
      }
    }
    ASSIGN_OR_RETURN(BinaryInputs in, PrepareBinary(ctx));
    if (in.a.dtype() != in.b.dtype()) {
      return ctx.Error(
          absl::StrCat("input types differ: ", in.a.ShapeString(), " vs ", in.b.ShapeString()));
    }
    if (!allow_int && !ir::IsFloatingPoint(in.a.dtype()))
      return UnsupportedType(in.a.dtype(), ctx.node().op_type());
    auto f = maker(ctx);
    ASSIGN_OR_RETURN(Tensor out, DispatchNumeric(in.a.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                       using T = decltype(tag);
                       return BinaryMap<T, T, T>(in.a, in.b, in.out_dims, in.a.dtype(),
                                                 [&](T x, T y) { return static_cast<T>(f(x, y)); });
                     }));
    if (in.orig != out.dtype()) {
      ASSIGN_OR_RETURN(out, CastTensor(out, in.orig));
    }
    ctx.set_output(0, std::move(out));
    return OkStatus();
  };
}

// Comparison: bool output. Strings compare too.
template <typename Cmp>
KernelFn Compare(Cmp cmp) {
  return [cmp](KernelContext& ctx) -> Status {
    ASSIGN_OR_RETURN(BinaryInputs in, PrepareBinary(ctx));
    if (in.a.dtype() != in.b.dtype()) return ctx.Error("input types differ");
    StatusOr<Tensor> out;
    if (in.a.is_string()) {
      out =
          BinaryMap<std::string, std::string, bool>(in.a, in.b, in.out_dims, DataType::kBool, cmp);
    } else {
      out = DispatchNumericBool(in.a.dtype(), [&](auto tag) -> StatusOr<Tensor> {
        using T = decltype(tag);
        return BinaryMap<T, T, bool>(in.a, in.b, in.out_dims, DataType::kBool, cmp);
      });
    }
    if (!out.ok()) return out.status();
    ctx.set_output(0, std::move(*out));
    return OkStatus();
  };
}

template <typename F>
KernelFn Logical(F f) {
  return [f](KernelContext& ctx) -> Status {
    ASSIGN_OR_RETURN(BinaryInputs in, PrepareBinary(ctx, false));
    if (in.a.dtype() != DataType::kBool || in.b.dtype() != DataType::kBool) {
      return UnsupportedType(in.a.dtype(), ctx.node().op_type());
    }
    ctx.set_output(0, BinaryMap<bool, bool, bool>(in.a, in.b, in.out_dims, DataType::kBool, f));
    return OkStatus();
  };
}

template <typename F>
KernelFn Bitwise(F f) {
  return [f](KernelContext& ctx) -> Status {
    ASSIGN_OR_RETURN(BinaryInputs in, PrepareBinary(ctx, false));
    if (in.a.dtype() != in.b.dtype()) return ctx.Error("input types differ");
    ASSIGN_OR_RETURN(Tensor out, DispatchInt(in.a.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                       using T = decltype(tag);
                       return BinaryMap<T, T, T>(in.a, in.b, in.out_dims, in.a.dtype(),
                                                 [&](T x, T y) { return static_cast<T>(f(x, y)); });
                     }));
    ctx.set_output(0, std::move(out));
    return OkStatus();
  };
}

// Integer x / y truncated toward zero; INT_MIN / -1 wraps to INT_MIN. Integer division by zero has
// no value in ONNX; it gives 0 here, so that verification on random integer inputs can compare two
// models that both divide by zero somewhere instead of failing on valid models.
template <typename T>
T SafeDiv(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    if (y == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
      if (x == std::numeric_limits<T>::min() && y == T(-1)) return x;
    }
    return x / y;
  } else {
    return x / y;
  }
}

template <typename T>
T NanMax(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
  }
  return x > y ? x : y;
}
template <typename T>
T NanMin(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
  }
  return x < y ? x : y;
}

template <typename T>
T ModOp(T x, T y, bool fmod) {
  if constexpr (std::is_floating_point_v<T>) {
    if (fmod) return std::fmod(x, y);
    T r = std::fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return r;
  } else {
    if (y == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
      if (y == T(-1)) return 0;
      T r = x % y;
      if (!fmod && r != 0 && ((r < 0) != (y < 0))) r += y;
      return r;
    } else {
      return x % y;
    }
  }
}

Status PowKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* a0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* b0, ctx.TensorInput(1));
  // Aligned first: before opset 7 the legacy rule may refuse even a one-element exponent.
  ASSIGN_OR_RETURN(const Tensor b_view, LegacyAlign(ctx, *a0, *b0));
  // x ^ 2 on float (variance in exported LayerNorms) is x * x: both are the correctly rounded
  // square.
  if (a0->dtype() == DataType::kFloat && b0->size() == 1 && b_view.rank() <= a0->rank() &&
      !b0->is_string()) {
    ASSIGN_OR_RETURN(double exponent, ScalarInput(ctx, 1, 0));
    if (exponent == 2.0) {
      Tensor y = ctx.OutputBuffer(0, DataType::kFloat, a0->dims());
      Vec().binary_f32(BinaryOp::kMul, Operands::kVectorVector, a0->data<float>(),
                       a0->data<float>(), y.mutable_data<float>(), a0->size());
      ctx.set_output(0, std::move(y));
      return OkStatus();
    }
  }
  Tensor a = WidenToFloat(*a0);
  ASSIGN_OR_RETURN(Tensor b, CastTensor(WidenToFloat(b_view), DataType::kDouble));
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastShapes(a.dims(), b.dims()));
  ASSIGN_OR_RETURN(
      Tensor out, DispatchNumeric(a.dtype(), [&](auto tag) -> StatusOr<Tensor> {
        using T = decltype(tag);
        return BinaryMap<T, double, T>(a, b, dims, a.dtype(), [](T x, double y) {
          if constexpr (std::is_integral_v<T>) {
            // Saturated to int64 first: 0 ^ -1 (inf) or 2 ^ 100 had no int64 value (an undefined
            // conversion).
            return static_cast<T>(SaturatingCast<int64_t>(std::pow(static_cast<double>(x), y)));
          } else {
            return static_cast<T>(std::pow(x, static_cast<T>(y)));
          }
        });
      }));
  if (out.dtype() != a0->dtype()) {
    ASSIGN_OR_RETURN(out, CastTensor(out, a0->dtype()));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status BitShiftKernel(KernelContext& ctx) {
  const bool left = ctx.GetString("direction", "") == "LEFT";
  return Bitwise([left](auto x, auto y) {
    using T = decltype(x);
    // Shifting by a negative amount or by the bit width or more is undefined, and so is a left
    // shift of a negative value or one that overflows (uint16 << 15 in the int it is promoted to):
    // left shifts work on the unsigned bits. Shifts past the width give 0.
    if constexpr (std::is_signed_v<T>) {
      if (y < T(0)) return T(0);
    }
    if (y >= static_cast<T>(sizeof(T) * 8)) return T(0);
    if (!left) return static_cast<T>(x >> y);
    using U = WrapUnsigned<T>;
    return static_cast<T>(
        static_cast<U>(static_cast<U>(static_cast<std::make_unsigned_t<T>>(x)) << y));
  })(ctx);
}

// ---- variadic
// ------------------------------------------------------------------------------------

template <typename Maker>
KernelFn Variadic(Maker maker, bool mean = false) {
  return [maker, mean](KernelContext& ctx) -> Status {
    if (ctx.num_inputs() == 0) return ctx.Error("needs at least one input");
    ASSIGN_OR_RETURN(const Tensor* first, ctx.TensorInput(0));
    const DataType orig = first->dtype();
    Tensor acc = WidenToFloat(*first);
    auto f = maker(ctx);
    for (size_t i = 1; i < ctx.num_inputs(); ++i) {
      ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(i));
      Tensor x = WidenToFloat(*x0);
      if (x.dtype() != acc.dtype()) return ctx.Error("input types differ");
      ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastShapes(acc.dims(), x.dims()));
      ASSIGN_OR_RETURN(acc, DispatchNumeric(acc.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                         using T = decltype(tag);
                         return BinaryMap<T, T, T>(acc, x, dims, acc.dtype(), [&](T p, T q) {
                           return static_cast<T>(f(p, q));
                         });
                       }));
    }
    if (mean) {
      const double n = static_cast<double>(ctx.num_inputs());
      ASSIGN_OR_RETURN(acc, DispatchNumeric(acc.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                         using T = decltype(tag);
                         // SaturatingCast: INT64_MAX / 1 is 2^63 as a double, past int64.
                         return UnaryMap<T, T>(acc, acc.dtype(),
                                               [n](T v) { return SaturatingCast<T>(v / n); });
                       }));
    } else if (ctx.num_inputs() == 1) {
      acc = acc.Clone();
    }
    if (acc.dtype() != orig) {
      ASSIGN_OR_RETURN(acc, CastTensor(acc, orig));
    }
    ctx.set_output(0, std::move(acc));
    return OkStatus();
  };
}

// ---- Where
// ---------------------------------------------------------------------------------------

Status WhereKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* c, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(const Tensor* y, ctx.TensorInput(2));
  if (c->dtype() != DataType::kBool) return ctx.Error("condition must be bool");
  if (x->dtype() != y->dtype()) return ctx.Error("X and Y types differ");
  ASSIGN_OR_RETURN(std::vector<int64_t> d1, BroadcastShapes(c->dims(), x->dims()));
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastShapes(d1, y->dims()));
  // Broadcast the condition and X together, then combine with Y.
  const std::vector<int64_t> sc = BroadcastStrides(c->dims(), dims);
  const std::vector<int64_t> sx = BroadcastStrides(x->dims(), dims);
  const std::vector<int64_t> sy = BroadcastStrides(y->dims(), dims);
  Tensor out(x->dtype(), dims);
  const int64_t n = out.size(), r = static_cast<int64_t>(dims.size());
  const bool* pc = c->data<bool>();
  Status st = DispatchBySize(x->dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* px = x->data<T>();
    const T* py = y->data<T>();
    T* po = out.mutable_data<T>();
    std::vector<int64_t> idx(r, 0);
    for (int64_t o = 0; o < n; ++o) {
      int64_t ic = 0, ix = 0, iy = 0;
      for (int64_t d = 0; d < r; ++d) {
        ic += idx[d] * sc[d];
        ix += idx[d] * sx[d];
        iy += idx[d] * sy[d];
      }
      po[o] = pc[ic] ? px[ix] : py[iy];
      for (int64_t d = r - 1; d >= 0; --d) {
        if (++idx[d] < dims[d]) break;
        idx[d] = 0;
      }
    }
    return OkStatus();
  });
  RETURN_IF_ERROR(st);
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// ---- Clip
// ----------------------------------------------------------------------------------------

// Clip's bounds: attributes before opset 11, optional scalar inputs 1 and 2 from then on.
struct ClipBounds {
  double lo = 0, hi = 0;
  bool has_lo = false, has_hi = false;
  float float_lo() const {
    return has_lo ? static_cast<float>(lo) : std::numeric_limits<float>::lowest();
  }
  float float_hi() const {
    return has_hi ? static_cast<float>(hi) : std::numeric_limits<float>::max();
  }
};

StatusOr<ClipBounds> GetClipBounds(const KernelContext& ctx) {
  ClipBounds b;
  if (ctx.opset() < 11) {
    b.has_lo = b.has_hi = true;
    b.lo = ctx.GetFloat("min", -std::numeric_limits<float>::max());
    b.hi = ctx.GetFloat("max", std::numeric_limits<float>::max());
  } else {
    b.has_lo = ctx.has_input(1);
    b.has_hi = ctx.has_input(2);
    ASSIGN_OR_RETURN(b.lo, ScalarInput(ctx, 1, 0));
    ASSIGN_OR_RETURN(b.hi, ScalarInput(ctx, 2, 0));
  }
  return b;
}

// A Clip bound (read as `value`, from input `i` since opset 11) as X's element type T. Integer
// bounds saturate to T (converting one past T's range is undefined); int32/int64 inputs are read
// exactly (through a double INT64_MAX became 2^63).
template <typename T>
StatusOr<T> ClipBoundAs(const KernelContext& ctx, size_t i, double value) {
  if constexpr (std::is_integral_v<T>) {
    if (ctx.opset() >= 11) {
      const DataType bt = ctx.input(i).dtype();
      if (bt == DataType::kInt64 || bt == DataType::kInt32) {
        ASSIGN_OR_RETURN(const int64_t v, ScalarIntInput(ctx, i, 0));
        return static_cast<T>(std::clamp<int64_t>(
            v, std::is_signed_v<T> ? static_cast<int64_t>(std::numeric_limits<T>::lowest()) : 0,
            static_cast<int64_t>(std::min<uint64_t>(std::numeric_limits<T>::max(),
                                                    std::numeric_limits<int64_t>::max()))));
      }
    }
    return SaturatingCast<T>(value);
  } else {
    return static_cast<T>(value);
  }
}

Status ClipKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const ClipBounds bounds, GetClipBounds(ctx));
  if (x0->dtype() == DataType::kFloat) {
    Tensor y = ctx.OutputBuffer(0, DataType::kFloat, x0->dims());
    const float* px = x0->data<float>();
    float* py = y.mutable_data<float>();
    ParallelItems(x0->size(), 1, [&](int64_t begin, int64_t end) {
      Vec().unary_f32(UnaryOp::kClip, px + begin, py + begin, end - begin, bounds.float_lo(),
                      bounds.float_hi());
    });
    ctx.set_output(0, std::move(y));
    return OkStatus();
  }
  Tensor x = WidenToFloat(*x0);
  ASSIGN_OR_RETURN(Tensor out, DispatchNumeric(x.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                     using T = decltype(tag);
                     T l = std::numeric_limits<T>::lowest(), h = std::numeric_limits<T>::max();
                     if (bounds.has_lo) {
                       ASSIGN_OR_RETURN(l, ClipBoundAs<T>(ctx, 1, bounds.lo));
                     }
                     if (bounds.has_hi) {
                       ASSIGN_OR_RETURN(h, ClipBoundAs<T>(ctx, 2, bounds.hi));
                     }
                     return UnaryMap<T, T>(x, x.dtype(), [&](T v) {
                       if constexpr (std::is_floating_point_v<T>) {
                         if (std::isnan(v)) return v;
                       }
                       return std::min(std::max(v, l), h);
                     });
                   }));
  if (out.dtype() != x0->dtype()) {
    ASSIGN_OR_RETURN(out, CastTensor(out, x0->dtype()));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// ---- Cast
// ----------------------------------------------------------------------------------------

Status CastTo(KernelContext& ctx, DataType to) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const bool saturate = ctx.GetInt("saturate", 1) != 0;
  ASSIGN_OR_RETURN(Tensor out, CastTensor(*x, to, saturate));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status CastKernel(KernelContext& ctx) {
  const ir::Attribute* to = ctx.attr("to");
  if (to == nullptr) return ctx.Error("missing attribute 'to'");
  DataType t = static_cast<DataType>(to->i);
  if (to->kind() == ir::AttributeKind::kString) {  // opset 1 spelled the type as a string
    std::string s = to->s;
    std::transform(s.begin(), s.end(), s.begin(), ::tolower);
    auto parsed = ir::ParseDataTypeName(s);
    if (!parsed) return ctx.Error(absl::StrCat("unknown type '", to->s, "'"));
    t = *parsed;
  }
  return CastTo(ctx, t);
}

Status CastLikeKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* like, ctx.TensorInput(1));
  return CastTo(ctx, like->dtype());
}

// ---- predicates
// ----------------------------------------------------------------------------------

Status IsNaNKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  Tensor x = WidenToFloat(*x0);
  ASSIGN_OR_RETURN(Tensor out, DispatchFloat(x.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                     using T = decltype(tag);
                     return UnaryMap<T, bool>(x, DataType::kBool,
                                              [](T v) { return std::isnan(v); });
                   }));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status IsInfKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  Tensor x = WidenToFloat(*x0);
  const bool pos = ctx.GetInt("detect_positive", 1) != 0,
             neg = ctx.GetInt("detect_negative", 1) != 0;
  ASSIGN_OR_RETURN(Tensor out, DispatchFloat(x.dtype(), [&](auto tag) -> StatusOr<Tensor> {
                     using T = decltype(tag);
                     return UnaryMap<T, bool>(x, DataType::kBool, [&](T v) {
                       return std::isinf(v) && ((v > 0 && pos) || (v < 0 && neg));
                     });
                   }));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status NotKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  if (x->dtype() != DataType::kBool) return UnsupportedType(x->dtype(), "Not");
  ctx.set_output(0, UnaryMap<bool, bool>(*x, DataType::kBool, [](bool v) { return !v; }));
  return OkStatus();
}

Status BitwiseNotKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor out, DispatchInt(x->dtype(), [&](auto tag) -> StatusOr<Tensor> {
                     using T = decltype(tag);
                     return UnaryMap<T, T>(*x, x->dtype(), [](T v) { return static_cast<T>(~v); });
                   }));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// PRelu: slope broadcast to X (unidirectional; before opset 7 shared or per channel, see
// LegacyAlign).
Status PReluKernel(KernelContext& ctx) {
  return Arith(Simple([](auto x, auto s) { return x < 0 ? WrapMul(x, s) : x; }))(ctx);
}

double Erf(double x) { return std::erf(x); }

}  // namespace

StatusOr<bool> AppendActivationEpilogue(const KernelContext& node_ctx, ChannelEpilogue& e) {
  if (e.has_activation || node_ctx.node().domain() != "") return false;
  const std::string& op = node_ctx.node().op_type();
  UnaryParams p;
  UnaryOp act;
  if (op == "Relu") {
    act = UnaryOp::kRelu;
  } else if (op == "Clip") {
    ASSIGN_OR_RETURN(const ClipBounds bounds, GetClipBounds(node_ctx));
    act = UnaryOp::kClip;
    p = {bounds.float_lo(), bounds.float_hi()};
  } else if (op == "LeakyRelu") {
    act = UnaryOp::kLeakyRelu;
    p = LeakyReluParams(node_ctx);
  } else if (op == "HardSigmoid") {
    act = UnaryOp::kHardSigmoid;
    p = HardSigmoidParams(node_ctx);
  } else if (op == "HardSwish" && node_ctx.opset() >= 14) {
    act = UnaryOp::kHardSwish;
  } else if (op == "Sigmoid") {
    act = UnaryOp::kSigmoid;
  } else if (op == "Tanh") {
    act = UnaryOp::kTanh;
  } else {
    return false;
  }
  e.has_activation = true;
  e.activation = act;
  e.p0 = p.p0;
  e.p1 = p.p1;
  return true;
}

void RegisterElementwiseKernels(KernelRegistry& r) {
  // Unary math over floats.
  r.Register("", "Acos", 7, FloatUnary(Simple([](auto x) { return std::acos(x); })));
  r.Register("", "Acosh", 9, FloatUnary(Simple([](auto x) { return std::acosh(x); })));
  r.Register("", "Asin", 7, FloatUnary(Simple([](auto x) { return std::asin(x); })));
  r.Register("", "Asinh", 9, FloatUnary(Simple([](auto x) { return std::asinh(x); })));
  r.Register("", "Atan", 7, FloatUnary(Simple([](auto x) { return std::atan(x); })));
  r.Register("", "Atanh", 9, FloatUnary(Simple([](auto x) { return std::atanh(x); })));
  r.Register("", "Cos", 7, FloatUnary(Simple([](auto x) { return std::cos(x); })));
  r.Register("", "Cosh", 9, FloatUnary(Simple([](auto x) { return std::cosh(x); })));
  r.Register("", "Sin", 7, FloatUnary(Simple([](auto x) { return std::sin(x); })));
  r.Register("", "Sinh", 9, FloatUnary(Simple([](auto x) { return std::sinh(x); })));
  r.Register("", "Tan", 7, FloatUnary(Simple([](auto x) { return std::tan(x); })));
  r.Register("", "Tanh", 1,
             VectorUnary(UnaryOp::kTanh, NoParams,
                         FloatUnary(Simple([](auto x) { return std::tanh(x); }))));
  r.Register(
      "", "Exp", 1,
      VectorUnary(UnaryOp::kExp, NoParams, FloatUnary(Simple([](auto x) { return std::exp(x); }))));
  r.Register("", "Log", 1, FloatUnary(Simple([](auto x) { return std::log(x); })));
  r.Register("", "Sqrt", 1,
             VectorUnary(UnaryOp::kSqrt, NoParams,
                         FloatUnary(Simple([](auto x) { return std::sqrt(x); }))));
  r.Register("", "Erf", 9, VectorUnary(UnaryOp::kErf, NoParams, FloatUnary(Simple([](auto x) {
                                         return static_cast<decltype(x)>(Erf(x));
                                       }))));
  r.Register("", "Reciprocal", 1,
             VectorUnary(UnaryOp::kReciprocal, NoParams,
                         FloatUnary(Simple([](auto x) { return 1 / x; }))));
  r.Register("", "Ceil", 1, FloatUnary(Simple([](auto x) { return std::ceil(x); })));
  r.Register("", "Floor", 1, FloatUnary(Simple([](auto x) { return std::floor(x); })));
  r.Register("", "Round", 11, FloatUnary(Simple([](auto x) { return std::nearbyint(x); })));
  r.Register("", "Sigmoid", 1,
             VectorUnary(UnaryOp::kSigmoid, NoParams, FloatUnary(Simple([](auto x) {
                           using T = decltype(x);
                           return x >= 0 ? T(1) / (T(1) + std::exp(-x))
                                         : std::exp(x) / (T(1) + std::exp(x));
                         }))));
  r.Register("", "Softplus", 1, FloatUnary(Simple([](auto x) {
               using T = decltype(x);
               return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)) + T(0);
             })));
  r.Register("", "Softsign", 1, FloatUnary(Simple([](auto x) { return x / (1 + std::abs(x)); })));
  r.Register("", "Mish", 18, FloatUnary(Simple([](auto x) {
               using T = decltype(x);
               const T sp = x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
               return x * std::tanh(sp);
             })));
  r.Register("", "Elu", 1, FloatUnary([](const KernelContext& c) {
               const double a = c.GetFloat("alpha", 1.0f);
               return [a](auto x) {
                 return x < 0 ? static_cast<decltype(x)>(a * (std::exp(x) - 1)) : x;
               };
             }));
  r.Register("", "Celu", 12, FloatUnary([](const KernelContext& c) {
               const double a = c.GetFloat("alpha", 1.0f);
               return [a](auto x) {
                 using T = decltype(x);
                 return static_cast<T>(std::max<double>(0, x) +
                                       std::min<double>(0, a * (std::exp(x / a) - 1)));
               };
             }));
  r.Register(
      "", "Selu", 1, FloatUnary([](const KernelContext& c) {
        const double a = c.GetFloat("alpha", 1.67326319217681884765625f);
        const double g = c.GetFloat("gamma", 1.05070102214813232421875f);
        return [a, g](auto x) {
          using T = decltype(x);
          return static_cast<T>(x > 0 ? g * x : g * (a * std::exp(static_cast<double>(x)) - a));
        };
      }));
  r.Register(
      "", "LeakyRelu", 1,
      VectorUnary(UnaryOp::kLeakyRelu, LeakyReluParams, FloatUnary([](const KernelContext& c) {
                    const float a = c.GetFloat("alpha", 0.01f);
                    return [a](auto x) { return x < 0 ? static_cast<decltype(x)>(a * x) : x; };
                  })));
  r.Register("", "ThresholdedRelu", 10, FloatUnary([](const KernelContext& c) {
               const float a = c.GetFloat("alpha", 1.0f);
               return [a](auto x) { return x > a ? x : decltype(x)(0); };
             }));
  r.Register(
      "", "HardSigmoid", 1,
      VectorUnary(UnaryOp::kHardSigmoid, HardSigmoidParams, FloatUnary([](const KernelContext& c) {
                    const float a = c.GetFloat("alpha", 0.2f), b = c.GetFloat("beta", 0.5f);
                    return [a, b](auto x) {
                      using T = decltype(x);
                      return std::max(T(0), std::min(T(1), static_cast<T>(a * x + b)));
                    };
                  })));
  r.Register("", "HardSwish", 14,
             VectorUnary(UnaryOp::kHardSwish, NoParams, FloatUnary(Simple([](auto x) {
                           using T = decltype(x);
                           return x *
                                  std::max(T(0), std::min(T(1), static_cast<T>(x / T(6) + T(0.5))));
                         }))));
  r.Register("", "Swish", 24, FloatUnary([](const KernelContext& c) {
               const double a = c.GetFloat("alpha", 1.0f);
               return [a](auto x) {
                 using T = decltype(x);
                 return static_cast<T>(x / (1 + std::exp(-a * x)));
               };
             }));
  r.Register("", "Gelu", 20, FloatUnary([](const KernelContext& c) {
               const bool tanh = c.GetString("approximate", "none") == "tanh";
               return [tanh](auto x) {
                 using T = decltype(x);
                 const double v = x;
                 if (tanh) {
                   return static_cast<T>(
                       0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))));
                 }
                 return static_cast<T>(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
               };
             }));
  r.Register("", "Shrink", 9, NumericUnary([](const KernelContext& c) {
               const double l = c.GetFloat("lambd", 0.5f), b = c.GetFloat("bias", 0.0f);
               return [l, b](auto x) {
                 using T = decltype(x);
                 const double v = static_cast<double>(x);
                 // Saturated for integers: a large bias takes the value out of T's range.
                 return SaturatingCast<T>(v < -l ? v + b : (v > l ? v - b : 0.0));
               };
             }));
  // Numeric unary.
  // Integers wrap (common.h): -INT_MIN is INT_MIN, as in numpy and onnxruntime.
  r.Register("", "Abs", 1, VectorUnary(UnaryOp::kAbs, NoParams, NumericUnary(Simple([](auto x) {
                                         if constexpr (std::is_unsigned_v<decltype(x)>)
                                           return x;
                                         else
                                           return x < 0 ? WrapNeg(x) : x;
                                       }))));
  r.Register("", "Neg", 1,
             VectorUnary(UnaryOp::kNeg, NoParams,
                         NumericUnary(Simple([](auto x) { return WrapNeg(x); }))));
  r.Register("", "Sign", 9, NumericUnary(Simple([](auto x) {
               using T = decltype(x);
               return static_cast<T>(x > T(0) ? 1 : (x < T(0) ? -1 : 0));
             })));
  r.Register("", "Relu", 1,
             VectorUnary(UnaryOp::kRelu, NoParams,
                         NumericUnary(Simple([](auto x) { return x > 0 ? x : decltype(x)(0); }))));

  // Binary arithmetic. Integers wrap on overflow (common.h); integer division by zero gives 0
  // (SafeDiv).
  r.Register("", "Add", 1,
             Arith(Simple([](auto x, auto y) { return WrapAdd(x, y); }), true, BinaryOp::kAdd));
  r.Register("", "Sub", 1,
             Arith(Simple([](auto x, auto y) { return WrapSub(x, y); }), true, BinaryOp::kSub));
  r.Register("", "Mul", 1,
             Arith(Simple([](auto x, auto y) { return WrapMul(x, y); }), true, BinaryOp::kMul));
  r.Register("", "Div", 1,
             Arith(Simple([](auto x, auto y) { return SafeDiv(x, y); }), true, BinaryOp::kDiv));
  r.Register("", "Mod", 10, Arith([](const KernelContext& c) {
               const bool fmod = c.GetInt("fmod", 0) != 0;
               return [fmod](auto x, auto y) { return ModOp(x, y, fmod); };
             }));
  r.Register("", "Pow", 1, PowKernel);
  r.Register("", "PRelu", 1, PReluKernel);
  r.Register("", "BitShift", 11, BitShiftKernel);
  r.Register("", "BitwiseAnd", 18, Bitwise([](auto x, auto y) { return x & y; }));
  r.Register("", "BitwiseOr", 18, Bitwise([](auto x, auto y) { return x | y; }));
  r.Register("", "BitwiseXor", 18, Bitwise([](auto x, auto y) { return x ^ y; }));
  r.Register("", "BitwiseNot", 18, BitwiseNotKernel);

  // Comparison and logic.
  r.Register("", "Equal", 1, Compare([](const auto& x, const auto& y) { return x == y; }));
  r.Register("", "Less", 1, Compare([](const auto& x, const auto& y) { return x < y; }));
  r.Register("", "LessOrEqual", 12, Compare([](const auto& x, const auto& y) { return x <= y; }));
  r.Register("", "Greater", 1, Compare([](const auto& x, const auto& y) { return x > y; }));
  r.Register("", "GreaterOrEqual", 12,
             Compare([](const auto& x, const auto& y) { return x >= y; }));
  r.Register("", "And", 1, Logical([](bool x, bool y) { return x && y; }));
  r.Register("", "Or", 1, Logical([](bool x, bool y) { return x || y; }));
  r.Register("", "Xor", 1, Logical([](bool x, bool y) { return x != y; }));
  r.Register("", "Not", 1, NotKernel);
  r.Register("", "IsNaN", 9, IsNaNKernel);
  r.Register("", "IsInf", 10, IsInfKernel);

  // Variadic.
  r.Register("", "Sum", 1, Variadic(Simple([](auto x, auto y) { return WrapAdd(x, y); })));
  r.Register("", "Mean", 1, Variadic(Simple([](auto x, auto y) { return WrapAdd(x, y); }), true));
  r.Register("", "Max", 1, Variadic(Simple([](auto x, auto y) { return NanMax(x, y); })));
  r.Register("", "Min", 1, Variadic(Simple([](auto x, auto y) { return NanMin(x, y); })));

  r.Register("", "Where", 9, WhereKernel);
  r.Register("", "Clip", 1, ClipKernel);
  r.Register("", "Cast", 1, CastKernel);
  r.Register("", "CastLike", 15, CastLikeKernel);
}

}  // namespace onnx_opt::interpreter
