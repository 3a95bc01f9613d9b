// Linear algebra: MatMul (numpy batching), Gemm, MatMulInteger, Det, Einsum.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernels/batched_matmul.h"
#include "interpreter/kernels/common.h"
#include "interpreter/kernels/gemm.h"
#include "interpreter/tensor_limit.h"

namespace onnx_opt::interpreter {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

StatusOr<Tensor> BatchedMatMul(const Tensor& a0, const Tensor& b0, bool exact_int8) {
  if (a0.rank() == 0 || b0.rank() == 0)
    return absl::InvalidArgumentError("MatMul inputs must not be scalars");
  Tensor a = a0.rank() == 1 ? a0.Reshaped({1, a0.dim(0)}) : a0;
  Tensor b = b0.rank() == 1 ? b0.Reshaped({b0.dim(0), 1}) : b0;
  const int64_t M = a.dim(a.rank() - 2), K = a.dim(a.rank() - 1);
  const int64_t K2 = b.dim(b.rank() - 2), N = b.dim(b.rank() - 1);
  if (K != K2) {
    return absl::InvalidArgumentError(absl::StrCat("MatMul shapes ", a0.ShapeString(), " and ",
                                                   b0.ShapeString(), " do not match"));
  }
  std::vector<int64_t> ba(a.dims().begin(), a.dims().end() - 2),
      bb(b.dims().begin(), b.dims().end() - 2);
  ASSIGN_OR_RETURN(std::vector<int64_t> batch, BroadcastShapes(ba, bb));
  std::vector<int64_t> dims = batch;
  dims.push_back(M);
  dims.push_back(N);
  // Every output matrix is written by one GEMM (beta 0); only an empty batch leaves nothing to
  // write.
  Tensor out = Tensor::Uninitialized(exact_int8 ? DataType::kInt32 : a.dtype(), dims);
  if (exact_int8) {
    const float* pa = a.data<float>();
    const float* pb = b.data<float>();
    int32_t* po = out.mutable_data<int32_t>();
    ForEachBroadcast(batch, ba, bb, [&](int64_t o, int64_t i, int64_t j) {
      ExactInt8Gemm(M, N, K, pa + i * M * K, pb + j * K * N, po + o * M * N);
    });
  }
  if (!exact_int8)
    RETURN_IF_ERROR(DispatchNumeric(a.dtype(), [&](auto tag) -> Status {
      using T = decltype(tag);
      using C = std::conditional_t<std::is_floating_point_v<T>, T,
                                   std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;
      const T* pa = a.data<T>();
      const T* pb = b.data<T>();
      T* po = out.mutable_data<T>();
      if constexpr (std::is_same_v<T, C>) {
        ForEachBroadcast(batch, ba, bb, [&](int64_t o, int64_t i, int64_t j) {
          Gemm<T>(false, false, M, N, K, T(1), pa + i * M * K, pb + j * K * N, T(0),
                  po + o * M * N);
        });
      } else {
        std::vector<C> ca(M * K), cb(K * N), cc(M * N);
        ForEachBroadcast(batch, ba, bb, [&](int64_t o, int64_t i, int64_t j) {
          for (int64_t t = 0; t < M * K; ++t) ca[t] = pa[i * M * K + t];
          for (int64_t t = 0; t < K * N; ++t) cb[t] = pb[j * K * N + t];
          Gemm<C>(false, false, M, N, K, C(1), ca.data(), cb.data(), C(0), cc.data());
          for (int64_t t = 0; t < M * N; ++t) po[o * M * N + t] = static_cast<T>(cc[t]);
        });
      }
      return OkStatus();
    }));
  std::vector<int64_t> final_dims = batch;
  if (a0.rank() != 1) final_dims.push_back(M);
  if (b0.rank() != 1) final_dims.push_back(N);
  return out.Reshaped(final_dims);
}

namespace {

// Weights larger than this are read in place even when the evaluator packs weights: a large
// language model's (4096 x 4096 and up) would double its memory, and a prefill's many rows already
// spread the cost of reading B in place.
constexpr int64_t kMaxPackedWeightBytes = int64_t{32} << 20;

// A float MatMul by a constant 2-D weight B that the evaluator has it pack (KernelContext::
// PacksWeight), from B's packed copy, made on the first run: each of a's matrices by it, the bits
// of BatchedMatMul. Null where the product takes another path (few rows, kernels without a packed
// GEMM, a weight over kMaxPackedWeightBytes).
std::optional<Tensor> MatMulByPackedWeight(KernelContext& ctx, const Tensor& a, const Tensor& b) {
  if (!ctx.PacksWeight(1) || a.dtype() != DataType::kFloat || a.rank() < 2 || b.rank() != 2 ||
      b.size() > kMaxPackedWeightBytes / int64_t{sizeof(float)}) {
    return std::nullopt;
  }
  const int64_t M = a.dim(a.rank() - 2), K = a.dim(a.rank() - 1), N = b.dim(1);
  if (K != b.dim(0) || K == 0 || !GemmReadsPackedB(M, N, K)) return std::nullopt;
  const auto packed = ctx.Derived<PackedGemmB>(1, [&] { return PackGemmB(K, N, b.data<float>()); });
  std::vector<int64_t> dims(a.dims().begin(), a.dims().end());
  dims.back() = N;
  Tensor out = Tensor::Uninitialized(DataType::kFloat, dims);
  const int64_t matrices = a.size() / (M * K);
  for (int64_t i = 0; i < matrices; ++i) {
    if (!GemmPackedB(M, a.data<float>() + i * M * K, *packed,
                     out.mutable_data<float>() + i * M * N))
      return std::nullopt;  // declined: then at the first matrix, nothing written
  }
  return out;
}

Status MatMulKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* a, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* b, ctx.TensorInput(1));
  if (a->dtype() != b->dtype()) return ctx.Error("input types differ");
  if (std::optional<Tensor> out = MatMulByPackedWeight(ctx, *a, *b)) {
    ctx.set_output(0, *std::move(out));
    return OkStatus();
  }
  ASSIGN_OR_RETURN(Tensor out, BatchedMatMul(WidenToFloat(*a), WidenToFloat(*b)));
  if (out.dtype() != a->dtype()) {
    ASSIGN_OR_RETURN(out, CastTensor(out, a->dtype()));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// a - zero_point, broadcast, in `type` (int32, or float for 8-bit values, which it holds exactly).
template <typename T>
StatusOr<Tensor> MinusZeroPoint(const Tensor& a, const Tensor& zero_point, DataType type) {
  ASSIGN_OR_RETURN(Tensor fa, CastTensor(a, type));
  ASSIGN_OR_RETURN(Tensor z, CastTensor(zero_point, type));
  ASSIGN_OR_RETURN(std::vector<int64_t> d, BroadcastShapes(fa.dims(), z.dims()));
  return BinaryMap<T, T, T>(fa, z, d, type, [](T x, T y) { return WrapSub(x, y); });
}

template <typename T>
StatusOr<Tensor> MatMulIntegerAs(const KernelContext& ctx, const Tensor& a, const Tensor& b,
                                 DataType type) {
  ASSIGN_OR_RETURN(Tensor fa, CastTensor(a, type));
  ASSIGN_OR_RETURN(Tensor fb, CastTensor(b, type));
  // Subtract zero points (scalar or per-row of A / per-column of B).
  if (ctx.has_input(2)) {
    const Tensor& za = ctx.input(2);
    // A 1-D zero point holds one value per row of A; an N-D one ([..., M, 1]) broadcasts as given.
    ASSIGN_OR_RETURN(
        fa, MinusZeroPoint<T>(
                a, za.rank() == 1 && za.size() != 1 ? za.Reshaped({za.size(), 1}) : za, type));
  }
  if (ctx.has_input(3)) {
    ASSIGN_OR_RETURN(fb, MinusZeroPoint<T>(b, ctx.input(3), type));
  }
  return BatchedMatMul(fa, fb, std::is_same_v<T, float>);
}

// MatMulInteger through the 8-bit GEMM (AVX2, AVX-512), which takes the operands' bytes as they are
// with their zero points and is exact modulo 2^32 like the portable path. Takes A of rank >= 2 with
// a scalar zero point (or one per row when A is 2-D) and a 2-D B with a scalar or per-column zero
// point, as dynamically quantized linear layers have; false (the portable path) otherwise.
StatusOr<bool> MatMulIntegerBytes(KernelContext& ctx, const Tensor& a, const Tensor& b,
                                  Tensor& out) {
  if (Vec().gemm_8bit_s32 == nullptr || a.rank() < 2 || b.rank() != 2) return false;
  const int64_t K = a.dim(a.rank() - 1), N = b.dim(1);
  if (b.dim(0) != K || K == 0) return false;  // the portable path reports or handles these
  const int64_t M = a.size() / K;
  auto zero_points = [&](size_t input,
                         int64_t per_index_count) -> std::optional<std::vector<int32_t>> {
    if (!ctx.has_input(input)) return std::vector<int32_t>{0};
    const Tensor& z = ctx.input(input);
    if (z.size() != 1 && (z.rank() != 1 || z.size() != per_index_count)) return std::nullopt;
    std::vector<int32_t> v(static_cast<size_t>(z.size()));
    for (int64_t i = 0; i < z.size(); ++i) v[i] = ByteAt(z, i);
    return v;
  };
  // A per-row zero point of A applies to each matrix of a batch: only 2-D A takes it here.
  const std::optional<std::vector<int32_t>> za = zero_points(2, a.rank() == 2 ? M : -1);
  const std::optional<std::vector<int32_t>> zb = zero_points(3, N);
  if (!za || !zb) return false;
  std::vector<int64_t> dims = a.dims();
  dims.back() = N;
  out = Tensor::Uninitialized(DataType::kInt32, dims);
  const Int8Operand lhs{reinterpret_cast<const uint8_t*>(a.raw()), a.dtype() == DataType::kInt8,
                        za->data(), za->size() > 1};
  const Int8Operand rhs{reinterpret_cast<const uint8_t*>(b.raw()), b.dtype() == DataType::kInt8,
                        zb->data(), zb->size() > 1};
  Int8Gemm(M, N, K, lhs, rhs, out.mutable_data<int32_t>());
  return true;
}

Status MatMulIntegerKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* a, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* b, ctx.TensorInput(1));
  // 8-bit operands (the spec's types) run as exact float GEMMs; anything else in int32.
  const bool int8 = Is8BitInteger(a->dtype()) && Is8BitInteger(b->dtype()) &&
                    (!ctx.has_input(2) || Is8BitInteger(ctx.input(2).dtype())) &&
                    (!ctx.has_input(3) || Is8BitInteger(ctx.input(3).dtype()));
  Tensor out;
  bool done = false;
  if (int8) {
    ASSIGN_OR_RETURN(done, MatMulIntegerBytes(ctx, *a, *b, out));
  }
  if (!done) {
    ASSIGN_OR_RETURN(out, int8 ? MatMulIntegerAs<float>(ctx, *a, *b, DataType::kFloat)
                               : MatMulIntegerAs<int32_t>(ctx, *a, *b, DataType::kInt32));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status GemmKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* a0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* b0, ctx.TensorInput(1));
  Tensor a = WidenToFloat(*a0), b = WidenToFloat(*b0);
  const bool ta = ctx.GetInt("transA", 0) != 0, tb = ctx.GetInt("transB", 0) != 0;
  const double alpha = ctx.GetFloat("alpha", 1.0f), beta = ctx.GetFloat("beta", 1.0f);
  if (a.rank() != 2 || b.rank() != 2) return ctx.Error("A and B must be 2-D");
  const int64_t M = ta ? a.dim(1) : a.dim(0), K = ta ? a.dim(0) : a.dim(1);
  const int64_t N = tb ? b.dim(0) : b.dim(1);
  if ((tb ? b.dim(1) : b.dim(0)) != K) return ctx.Error("inner dims differ");
  const bool has_c = ctx.has_input(2) && beta != 0;
  // Without C the GEMM (beta 0) writes every element.
  Tensor out = has_c ? Tensor(a.dtype(), {M, N}) : Tensor::Uninitialized(a.dtype(), {M, N});
  if (has_c) {
    Tensor c = WidenToFloat(ctx.input(2));
    if (c.dtype() != a.dtype()) return ctx.Error("C type differs");
    // Gemm-1/6 broadcast C only with broadcast=1, then as numpy does (ONNX's reference Gemm-6 too;
    // every shape the legacy rule allows is read the same way).
    if (ctx.opset() < 7 && ctx.GetInt("broadcast", 0) == 0 &&
        c.dims() != std::vector<int64_t>{M, N}) {
      return ctx.Error(
          absl::StrCat("without broadcast=1, C must have the shape of A * B before opset 7; C is ",
                       c.ShapeString(), ", A * B is [", M, ",", N, "]"));
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> d, BroadcastShapes({M, N}, c.dims()));
    if (d != std::vector<int64_t>{M, N}) return ctx.Error("C cannot be broadcast to M x N");
    // Copy broadcast C into out.
    RETURN_IF_ERROR(DispatchBySize(c.dtype(), [&](auto tag) -> Status {
      using T = decltype(tag);
      const T* pc = c.data<T>();
      T* po = out.mutable_data<T>();
      ForEachBroadcast({M, N}, {M, N}, c.dims(),
                       [&](int64_t o, int64_t, int64_t j) { po[o] = pc[j]; });
      return OkStatus();
    }));
  }
  RETURN_IF_ERROR(DispatchNumeric(a.dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
                  std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>) {
      // Saturated for integers: alpha = 1e30 converted to int32 directly is undefined.
      Gemm<T>(ta, tb, M, N, K, SaturatingCast<T>(alpha), a.data<T>(), b.data<T>(),
              has_c ? SaturatingCast<T>(beta) : T(0), out.mutable_data<T>());
      return OkStatus();
    } else {
      return UnsupportedType(a.dtype(), "Gemm");
    }
  }));
  if (out.dtype() != a0->dtype()) {
    ASSIGN_OR_RETURN(out, CastTensor(out, a0->dtype()));
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status DetKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  if (x.rank() < 2 || x.dim(x.rank() - 1) != x.dim(x.rank() - 2))
    return ctx.Error("needs square matrices");
  const int64_t n = x.dim(x.rank() - 1);
  std::vector<int64_t> dims(x.dims().begin(), x.dims().end() - 2);
  Tensor out(DataType::kDouble, dims);
  if (n == 0) {  // the determinant of a 0 x 0 matrix is 1 (numpy's too)
    std::fill(out.mutable_data<double>(), out.mutable_data<double>() + out.size(), 1.0);
  }
  // No matrices (an empty batch, or 0 x 0 ones): n * n may overflow ([0, 2^32, 2^32]), and there is
  // nothing to factor.
  const int64_t batches = x.size() == 0 ? 0 : x.size() / (n * n);
  const double* p = x.data<double>();
  double* po = out.mutable_data<double>();
  std::vector<double> m(batches == 0 ? 0 : n * n);
  for (int64_t b = 0; b < batches; ++b) {
    std::copy(p + b * n * n, p + (b + 1) * n * n, m.begin());
    double det = 1;
    for (int64_t c = 0; c < n; ++c) {
      int64_t piv = c;
      for (int64_t r = c + 1; r < n; ++r) {
        if (std::abs(m[r * n + c]) > std::abs(m[piv * n + c])) piv = r;
      }
      if (m[piv * n + c] == 0) {
        det = 0;
        break;
      }
      if (piv != c) {
        for (int64_t k = 0; k < n; ++k) std::swap(m[c * n + k], m[piv * n + k]);
        det = -det;
      }
      det *= m[c * n + c];
      for (int64_t r = c + 1; r < n; ++r) {
        const double f = m[r * n + c] / m[c * n + c];
        for (int64_t k = c; k < n; ++k) m[r * n + k] -= f * m[c * n + k];
      }
    }
    po[b] = det;
  }
  ASSIGN_OR_RETURN(out, CastTensor(out, x0->dtype()));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

// Einsum by explicit index loops (computed in double).
Status EinsumKernel(KernelContext& ctx) {
  std::string eq = ctx.GetString("equation", "");
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const size_t arrow = eq.find("->");
  std::string lhs = arrow == std::string::npos ? eq : eq.substr(0, arrow);
  std::vector<std::string> terms;
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(
        lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ctx.num_inputs()) return ctx.Error("equation does not match the inputs");
  std::optional<std::string> out_spec;
  if (arrow != std::string::npos) out_spec = eq.substr(arrow + 2);
  // Every term: letters, with at most one "..." (which stands for dims of its own, below: a '.' or
  // any other character left over would be taken for a letter).
  auto well_formed = [](const std::string& t) {
    const size_t e = t.find("...");
    for (size_t i = 0; i < t.size(); ++i) {
      if (e != std::string::npos && i >= e && i < e + 3) continue;
      if (!std::isalpha(static_cast<unsigned char>(t[i]))) return false;
    }
    return true;
  };
  for (const std::string& t : terms) {
    if (!well_formed(t))
      return ctx.Error(absl::StrCat("equation term '", t, "' is not letters and one '...'"));
  }
  if (out_spec && !well_formed(*out_spec)) {
    return ctx.Error(
        absl::StrCat("equation output '", *out_spec, "' is not letters and one '...'"));
  }
  std::vector<Tensor> ins;
  DataType dtype = DataType::kUndefined;
  // "..." stands for the dims its input has beyond its letters, right-aligned across the inputs
  // (numpy broadcasting): ellipsis dim k of ell_rank is the character kEllipsis0 + k, outside the
  // letters (placeholders taken from the letters collided with letters the equation names).
  constexpr int kEllipsis0 = 0x80, kMaxEllipsisRank = 0x80;
  int64_t ell_rank = 0;
  std::vector<int64_t> term_ell_rank(terms.size(), -1);
  for (size_t i = 0; i < terms.size(); ++i) {
    ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
    dtype = t->dtype();
    ASSIGN_OR_RETURN(Tensor d, CastTensor(*t, DataType::kDouble));
    ins.push_back(d);
    if (terms[i].find("...") != std::string::npos) {
      const int64_t er = t->rank() - static_cast<int64_t>(terms[i].size() - 3);
      if (er < 0)
        return ctx.Error(absl::StrCat("equation term '", terms[i], "' has more letters than input ",
                                      i, "'s rank"));
      if (er > kMaxEllipsisRank) return ctx.Error("'...' stands for too many dims");
      term_ell_rank[i] = er;
      ell_rank = std::max(ell_rank, er);
    }
  }
  auto ellipsis_letters = [&](int64_t first, int64_t count) {
    std::string rep;
    for (int64_t k = first; k < first + count; ++k) rep += static_cast<char>(kEllipsis0 + k);
    return rep;
  };
  for (size_t i = 0; i < terms.size(); ++i) {
    if (term_ell_rank[i] < 0) continue;
    const size_t e = terms[i].find("...");
    terms[i] = terms[i].substr(0, e) +
               ellipsis_letters(ell_rank - term_ell_rank[i], term_ell_rank[i]) +
               terms[i].substr(e + 3);
  }
  const std::string ell = ellipsis_letters(0, ell_rank);
  std::string out_term;
  if (out_spec) {
    out_term = *out_spec;
    const size_t e = out_term.find("...");
    if (e != std::string::npos) out_term = out_term.substr(0, e) + ell + out_term.substr(e + 3);
  } else {
    // Implicit: ellipsis dims then letters appearing once, in alphabetical (ASCII) order as
    // numpy's.
    std::map<char, int> count;
    for (const auto& t : terms) {
      for (char c : t) {
        if (std::isalpha(static_cast<unsigned char>(c))) ++count[c];
      }
    }
    out_term = ell;
    for (auto& [c, n] : count) {
      if (n == 1) out_term += c;
    }
  }
  std::map<char, int64_t> size;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (static_cast<int64_t>(terms[i].size()) != ins[i].rank())
      return ctx.Error("term rank mismatch");
    for (size_t k = 0; k < terms[i].size(); ++k) {
      const int64_t d = ins[i].dim(k);
      auto it = size.find(terms[i][k]);
      if (it == size.end() || it->second == 1)
        size[terms[i][k]] = d;
      else if (d != 1 && d != it->second)
        return ctx.Error("dimension mismatch");
    }
  }
  // Each output letter once, and from an input: a letter of no input has no size (it was taken as
  // 0).
  for (size_t k = 0; k < out_term.size(); ++k) {
    const char c = out_term[k];
    const std::string shown =
        static_cast<unsigned char>(c) >= kEllipsis0 ? "..." : std::string(1, c);
    if (size.find(c) == size.end()) {
      return ctx.Error(absl::StrCat("output subscript '", shown, "' appears in no input"));
    }
    if (out_term.find(c, k + 1) != std::string::npos) {
      return ctx.Error(absl::StrCat("output subscript '", shown, "' appears more than once"));
    }
  }
  std::string letters;
  for (auto& [c, n] : size) letters += c;
  // Order: output letters first, then the summed ones.
  std::string order = out_term;
  for (char c : letters) {
    if (out_term.find(c) == std::string::npos) order += c;
  }
  std::vector<int64_t> dims;
  for (char c : order) dims.push_back(size[c]);
  std::vector<int64_t> out_dims(dims.begin(), dims.begin() + out_term.size());
  Tensor out(DataType::kDouble, out_dims);
  double* po = out.mutable_data<double>();
  // Per input, stride of each order position.
  std::vector<std::vector<int64_t>> strides(ins.size(), std::vector<int64_t>(order.size(), 0));
  for (size_t i = 0; i < ins.size(); ++i) {
    const std::vector<int64_t> s = Strides(ins[i].dims());
    for (size_t k = 0; k < terms[i].size(); ++k) {
      if (ins[i].dim(k) == 1) continue;
      strides[i][order.find(terms[i][k])] += s[k];
    }
  }
  const int64_t total = NumElements(dims);
  // One step per combination of letter values: many letters of moderate size (or an empty output
  // beside huge summed dims) multiply into work that would run for hours, or past int64. The cap:
  // as many steps as the largest tensor has doubles.
  if (static_cast<uint64_t>(total) > MaxTensorBytes() / sizeof(double)) {
    return absl::ResourceExhaustedError(absl::StrCat(ctx.node().Describe(),
                                                     ": the einsum runs over ", DimsToString(dims),
                                                     ", more steps than the interpreter allows"));
  }
  const int64_t inner =
      NumElements(std::vector<int64_t>(dims.begin() + out_term.size(), dims.end()));
  std::vector<int64_t> idx(order.size(), 0);
  for (int64_t lin = 0; lin < total; ++lin) {
    double prod = 1;
    for (size_t i = 0; i < ins.size(); ++i) {
      int64_t off = 0;
      for (size_t k = 0; k < order.size(); ++k) off += idx[k] * strides[i][k];
      prod *= ins[i].data<double>()[off];
    }
    po[lin / std::max<int64_t>(inner, 1)] += prod;
    for (int64_t d = static_cast<int64_t>(order.size()) - 1; d >= 0; --d) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
  }
  ASSIGN_OR_RETURN(out, CastTensor(out, dtype));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace

void RegisterLinalgKernels(KernelRegistry& r) {
  r.Register("", "MatMul", 1, MatMulKernel);
  r.Register("", "MatMulInteger", 10, MatMulIntegerKernel);
  r.Register("", "Gemm", 1, GemmKernel);
  r.Register("", "Det", 11, DetKernel);
  r.Register("", "Einsum", 12, EinsumKernel);
}

}  // namespace onnx_opt::interpreter
