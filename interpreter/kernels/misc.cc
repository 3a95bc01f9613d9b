// Miscellaneous operators: Dropout (inference and ratio-0 training), TopK, Unique, SwiGLU, BitCast,
// TensorScatter, the window functions, and the string operators (StringConcat, StringSplit,
// StringNormalizer, RegexFullMatch).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <regex>

#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

Status DropoutKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  bool training = false;
  double ratio = 0.5;
  if (ctx.opset() < 12) {
    ratio = ctx.GetFloat("ratio", 0.5f);
    training = ctx.opset() < 7 && ctx.GetInt("is_test", 0) == 0 && false;
  } else {
    ASSIGN_OR_RETURN(ratio, ScalarInput(ctx, 1, 0.5));
    if (ctx.has_input(2)) {
      ASSIGN_OR_RETURN(double t, ScalarInput(ctx, 2, 0));
      training = t != 0;
    }
  }
  if (training && ratio != 0) {
    return absl::UnimplementedError(absl::StrCat(
        ctx.node().Describe(), ": Dropout in training mode with a non-zero ratio is random"));
  }
  ctx.set_output(0, *x);
  if (ctx.num_outputs() > 1) {
    // Every element kept: true, or before opset 10 (where the mask has the data's type) 1.
    Tensor mask(DataType::kBool, x->dims());
    std::fill(mask.mutable_data<bool>(), mask.mutable_data<bool>() + mask.size(), true);
    if (ctx.opset() < 10) {
      ASSIGN_OR_RETURN(mask, CastTensor(mask, x->dtype()));
    }
    ctx.set_output(1, std::move(mask));
  }
  return OkStatus();
}

Status TopKKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  int64_t k;
  if (ctx.opset() < 10) {
    k = ctx.GetInt("k", 0);
  } else {
    // K read exactly (through a double, 2^63 - 1 became 2^63, whose conversion back is undefined).
    ASSIGN_OR_RETURN(k, ScalarIntInput(ctx, 1, 0));
  }
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", -1), x0->rank()));
  const bool largest = ctx.GetInt("largest", 1) != 0;
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  const int64_t outer = DimProduct(x.dims(), 0, axis), len = x.dim(axis),
                inner = DimProduct(x.dims(), axis + 1, x.rank());
  if (k < 0 || k > len) return ctx.Error("k out of range");
  std::vector<int64_t> dims = x.dims();
  dims[axis] = k;
  Tensor vals(DataType::kDouble, dims), idx(DataType::kInt64, dims);
  std::vector<int64_t> order(len);
  const double* p = x.data<double>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      std::iota(order.begin(), order.end(), 0);
      auto at = [&](int64_t j) { return p[(o * len + j) * inner + i]; };
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        const double va = at(a), vb = at(b);
        if (std::isnan(va) || std::isnan(vb))
          return std::isnan(va) && !std::isnan(vb)
                     ? largest
                     : (!std::isnan(va) && std::isnan(vb) ? !largest : false);
        return largest ? va > vb : va < vb;
      });
      for (int64_t j = 0; j < k; ++j) {
        vals.mutable_data<double>()[(o * k + j) * inner + i] = at(order[j]);
        idx.mutable_data<int64_t>()[(o * k + j) * inner + i] = order[j];
      }
    }
  }
  ASSIGN_OR_RETURN(vals, CastTensor(vals, x0->dtype()));
  ctx.set_output(0, std::move(vals));
  ctx.set_output(1, std::move(idx));
  return OkStatus();
}

Status UniqueKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const bool sorted = ctx.GetInt("sorted", 1) != 0;
  const bool has_axis = ctx.has_attr("axis");
  Tensor t = *x;
  int64_t axis = 0;
  if (has_axis) {
    ASSIGN_OR_RETURN(axis, NormalizeAxis(ctx.GetInt("axis", 0), x->rank()));
  } else {
    t = x->Reshaped({x->size()});
  }
  const int64_t outer = DimProduct(t.dims(), 0, axis), len = t.dim(axis),
                inner = DimProduct(t.dims(), axis + 1, t.rank());
  // Each slice along the axis as a vector of doubles (or strings) for comparison.
  const bool str = t.is_string();
  Tensor td;
  if (!str) {
    ASSIGN_OR_RETURN(td, CastTensor(WidenToFloat(t), DataType::kDouble));
  }
  auto slice_less = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const int64_t ia = (o * len + a) * inner + i, ib = (o * len + b) * inner + i;
        if (str) {
          const std::string &sa = t.data<std::string>()[ia], &sb = t.data<std::string>()[ib];
          if (sa != sb) return sa < sb;
        } else {
          const double va = td.data<double>()[ia], vb = td.data<double>()[ib];
          if (va != vb) return va < vb;
        }
      }
    }
    return false;
  };
  auto slice_eq = [&](int64_t a, int64_t b) { return !slice_less(a, b) && !slice_less(b, a); };
  std::vector<int64_t> firsts;  // index of first occurrence of each unique slice
  std::vector<int64_t> inverse(len), counts;
  for (int64_t j = 0; j < len; ++j) {
    int64_t found = -1;
    for (size_t u = 0; u < firsts.size(); ++u) {
      if (slice_eq(firsts[u], j)) {
        found = u;
        break;
      }
    }
    if (found < 0) {
      firsts.push_back(j);
      counts.push_back(0);
      found = firsts.size() - 1;
    }
    inverse[j] = found;
    ++counts[found];
  }
  std::vector<int64_t> order(firsts.size());
  std::iota(order.begin(), order.end(), 0);
  if (sorted)
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return slice_less(firsts[a], firsts[b]); });
  std::vector<int64_t> rank(order.size());
  for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = r;
  const int64_t u = firsts.size();
  std::vector<int64_t> dims = t.dims();
  dims[axis] = u;
  Tensor y(t.dtype(), dims);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t r = 0; r < u; ++r)
      CopyElements(t, (o * len + firsts[order[r]]) * inner, y, (o * u + r) * inner, inner);
  }
  std::vector<int64_t> idx(u), cnt(u), inv(len);
  for (int64_t r = 0; r < u; ++r) {
    idx[r] = firsts[order[r]];
    cnt[r] = counts[order[r]];
  }
  for (int64_t j = 0; j < len; ++j) inv[j] = rank[inverse[j]];
  ctx.set_output(0, std::move(y));
  ctx.set_output(1, Tensor::FromVector<int64_t>(DataType::kInt64, {u}, idx));
  ctx.set_output(2, Tensor::FromVector<int64_t>(DataType::kInt64, {len}, inv));
  ctx.set_output(3, Tensor::FromVector<int64_t>(DataType::kInt64, {u}, cnt));
  return OkStatus();
}

Status SwiGLUKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* a0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* b0, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(Tensor a, CastTensor(*a0, DataType::kDouble));
  ASSIGN_OR_RETURN(Tensor b, CastTensor(*b0, DataType::kDouble));
  const double alpha = ctx.GetFloat("alpha", 1.0f);
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastShapes(a.dims(), b.dims()));
  Tensor y = BinaryMap<double, double, double>(
      a, b, dims, DataType::kDouble,
      [alpha](double x, double g) { return x / (1 + std::exp(-alpha * x)) * g; });
  ASSIGN_OR_RETURN(y, CastTensor(y, a0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status BitCastKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const DataType to = static_cast<DataType>(ctx.GetInt("to", 0));
  const int from_bits = ir::ElementBitWidth(x->dtype()), to_bits = ir::ElementBitWidth(to);
  if (from_bits == 0 || to_bits == 0 || from_bits < 8 || to_bits < 8)
    return UnsupportedType(to, "BitCast");
  std::vector<int64_t> dims = x->dims();
  if (from_bits > to_bits) {
    dims.push_back(from_bits / to_bits);
  } else if (from_bits < to_bits) {
    if (dims.empty() || dims.back() != to_bits / from_bits)
      return ctx.Error("last dim must match the size ratio");
    dims.pop_back();
  }
  Tensor y(to, dims);
  std::memcpy(y.mutable_raw(), x->raw(), static_cast<size_t>(x->size()) * x->element_size());
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status TensorScatterKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* cache, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* upd, ctx.TensorInput(1));
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", -2), cache->rank()));
  const bool circular = ctx.GetString("mode", "linear") == "circular";
  std::vector<int64_t> wi;
  if (ctx.has_input(2)) {
    ASSIGN_OR_RETURN(wi, ctx.IntsInput(2));
  }
  // update matches the cache except along the sequence axis, which is no longer; the batch axis
  // is not the sequence axis; write indices give one start per batch entry.
  bool fits = cache->rank() >= 2 && axis != 0 && upd->rank() == cache->rank() &&
              upd->dtype() == cache->dtype();
  for (int64_t i = 0; fits && i < cache->rank(); ++i) {
    fits = i == axis ? upd->dim(i) <= cache->dim(i) : upd->dim(i) == cache->dim(i);
  }
  if (!fits || (!wi.empty() && static_cast<int64_t>(wi.size()) != cache->dim(0))) {
    return ctx.Error("update and write_indices must fit the cache");
  }
  Tensor out = cache->Clone();
  const int64_t B = cache->dim(0), max_len = cache->dim(axis), seq = upd->dim(axis);
  const int64_t mid = DimProduct(cache->dims(), 1, axis),
                inner = DimProduct(cache->dims(), axis + 1, cache->rank());
  for (int64_t b = 0; b < B; ++b) {
    const int64_t start = wi.empty() ? 0 : wi[b];
    // start + s overflowed for a write index near 2^63: a linear write must end inside the cache,
    // and a circular one is the same position modulo its length.
    if (start < 0 || (!circular && start > max_len - seq)) {
      return ctx.Error(absl::StrCat("write index ", start, " out of range"));
    }
    for (int64_t m = 0; m < mid; ++m) {
      for (int64_t s = 0; s < seq; ++s) {
        int64_t pos = circular ? (start % max_len + s) % max_len : start + s;
        if (pos < 0 || pos >= max_len) return ctx.Error("write index out of range");
        CopyElements(*upd, ((b * mid + m) * seq + s) * inner, out,
                     ((b * mid + m) * max_len + pos) * inner, inner);
      }
    }
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

template <int kind>  // 0 Hann, 1 Hamming, 2 Blackman
Status WindowKernel(KernelContext& ctx) {
  // size read as an integer (a NaN or huge float one was an undefined conversion).
  ASSIGN_OR_RETURN(const int64_t size, ScalarIntInput(ctx, 0, 0));
  if (size < 0) return ctx.Error("size must be non-negative");
  const bool periodic = ctx.GetInt("periodic", 1) != 0;
  const double N = periodic ? size : size - 1;
  Tensor w(DataType::kDouble, {size});
  for (int64_t n = 0; n < size; ++n) {
    const double c = 2 * M_PI * n / N;
    double v;
    if (kind == 0)
      v = 0.5 - 0.5 * std::cos(c);
    else if (kind == 1)
      v = 25.0 / 46 - 21.0 / 46 * std::cos(c);
    else
      v = 0.42 - 0.5 * std::cos(c) + 0.08 * std::cos(2 * c);
    w.mutable_data<double>()[n] = v;
  }
  ASSIGN_OR_RETURN(w, CastTensor(w, static_cast<DataType>(ctx.GetInt("output_datatype", 1))));
  ctx.set_output(0, std::move(w));
  return OkStatus();
}

// MelWeightMatrix-17: [dft_length / 2 + 1, num_mel_bins] triangular filters. Band edges are
// num_mel_bins + 2 points equally spaced on the mel scale (mel(f) = 2595 log10(1 + f / 700)) from
// lower_edge_hertz, in steps of (mel(upper) - mel(lower)) / (num_mel_bins + 2), each mapped back
// to hertz and to the spectrogram bin floor((dft_length + 1) * f / sample_rate). Filter i rises
// from edge i to 1 at edge i + 1 and falls to 0 at edge i + 2.
Status MelWeightMatrixKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t mel_bins, ScalarIntInput(ctx, 0, 0));
  ASSIGN_OR_RETURN(const int64_t dft, ScalarIntInput(ctx, 1, 0));
  ASSIGN_OR_RETURN(double rate, ScalarInput(ctx, 2, 0));
  ASSIGN_OR_RETURN(double lower_hz, ScalarInput(ctx, 3, 0));
  ASSIGN_OR_RETURN(double upper_hz, ScalarInput(ctx, 4, 0));
  if (mel_bins <= 0 || dft <= 0 || !(rate > 0) || mel_bins > (int64_t{1} << 20) ||
      dft > (int64_t{1} << 24)) {
    return ctx.Error(
        "num_mel_bins, dft_length and sample_rate must be positive (and of a sane size)");
  }
  const int64_t spectrogram_bins = dft / 2 + 1;
  auto mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  const double low = mel(lower_hz),
               step = (mel(upper_hz) - low) / static_cast<double>(mel_bins + 2);
  std::vector<int64_t> edges(mel_bins + 2);
  for (int64_t i = 0; i < mel_bins + 2; ++i) {
    const double hz =
        700.0 * (std::pow(10.0, (low + step * static_cast<double>(i)) / 2595.0) - 1.0);
    // NaN or far band edges (from NaN, infinite or huge hertz) have no int64 bin.
    const double bin = std::floor(static_cast<double>(dft + 1) * hz / rate);
    if (!(std::abs(bin) < 0x1p52)) {
      return ctx.Error(
          "lower_edge_hertz, upper_edge_hertz and sample_rate give band edges out of range");
    }
    edges[i] = static_cast<int64_t>(bin);
  }
  Tensor m(DataType::kDouble, {spectrogram_bins, mel_bins});
  double* pm = m.mutable_data<double>();
  std::fill(pm, pm + m.size(), 0.0);
  auto set = [&](int64_t bin, int64_t i, double v) {
    if (bin >= 0 && bin < spectrogram_bins) pm[bin * mel_bins + i] = v;
  };
  for (int64_t i = 0; i < mel_bins; ++i) {
    const int64_t left = edges[i], center = edges[i + 1], right = edges[i + 2];
    // Only the bins inside the matrix are visited (far edges made these loops run ~2^52 times).
    if (center == left) {
      set(center, i, 1.0);
    } else {
      for (int64_t j = std::max<int64_t>(left, 0); j <= std::min(center, spectrogram_bins - 1);
           ++j) {
        set(j, i, static_cast<double>(j - left) / static_cast<double>(center - left));
      }
    }
    if (right > center) {
      for (int64_t j = std::max<int64_t>(center, 0); j < std::min(right, spectrogram_bins); ++j) {
        set(j, i, static_cast<double>(right - j) / static_cast<double>(right - center));
      }
    }
  }
  ASSIGN_OR_RETURN(m, CastTensor(m, static_cast<DataType>(ctx.GetInt("output_datatype", 1))));
  ctx.set_output(0, std::move(m));
  return OkStatus();
}

Status StringConcatKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* a, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(const Tensor* b, ctx.TensorInput(1));
  if (!a->is_string() || !b->is_string()) return ctx.Error("inputs must be strings");
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastShapes(a->dims(), b->dims()));
  ctx.set_output(0, BinaryMap<std::string, std::string, std::string>(
                        *a, *b, dims, DataType::kString,
                        [](const std::string& x, const std::string& y) { return x + y; }));
  return OkStatus();
}

// std::regex compiles and matches by recursion (libstdc++'s backtracking matcher: a call per
// character and more), so a long pattern or input overflows the stack, and nested repetitions take
// exponential time. Matching is polynomial (breadth-first) where the library offers it, and lengths
// are capped.
constexpr size_t kMaxRegexPatternLength = 1000;
constexpr size_t kMaxRegexInputLength = 1000;

Status RegexFullMatchKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  if (!x->is_string()) return ctx.Error("X must be a string tensor");
  const std::string pattern = ctx.GetString("pattern", "");
  if (pattern.size() > kMaxRegexPatternLength) {
    return ctx.Error(absl::StrCat("pattern of ", pattern.size(), " characters: at most ",
                                  kMaxRegexPatternLength, " are supported"));
  }
  for (int64_t i = 0; i < x->size(); ++i) {
    if (x->data<std::string>()[i].size() > kMaxRegexInputLength) {
      return ctx.Error(absl::StrCat("X[", i, "] has ", x->data<std::string>()[i].size(),
                                    " characters: at most ", kMaxRegexInputLength,
                                    " are supported"));
    }
  }
  std::regex re;
  try {
#if defined(__GLIBCXX__)
    re = std::regex(pattern, std::regex::ECMAScript | std::regex_constants::__polynomial);
#else
    re = std::regex(pattern);
#endif
  } catch (const std::regex_error& e) {
    return ctx.Error(absl::StrCat("bad pattern: ", e.what()));
  }
  Tensor y(DataType::kBool, x->dims());
  for (int64_t i = 0; i < x->size(); ++i)
    y.mutable_data<bool>()[i] = std::regex_match(x->data<std::string>()[i], re);
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status StringSplitKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  if (!x->is_string()) return ctx.Error("X must be a string tensor");
  const ir::Attribute* da = ctx.attr("delimiter");
  const std::string delim = da ? da->s : "";
  const int64_t maxsplit = ctx.GetInt("maxsplit", -1);
  std::vector<std::vector<std::string>> parts(x->size());
  size_t width = 0;
  for (int64_t i = 0; i < x->size(); ++i) {
    const std::string& s = x->data<std::string>()[i];
    auto& p = parts[i];
    if (delim.empty()) {
      size_t pos = 0;
      int64_t splits = 0;
      while (pos < s.size()) {
        while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
        if (pos >= s.size()) break;
        if (maxsplit >= 0 && splits == maxsplit) {
          size_t end = s.size();
          while (end > pos && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
          p.push_back(s.substr(pos, end - pos));
          break;
        }
        size_t end = pos;
        while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end]))) ++end;
        p.push_back(s.substr(pos, end - pos));
        ++splits;
        pos = end;
      }
    } else {
      size_t pos = 0;
      int64_t splits = 0;
      while (true) {
        const size_t f = s.find(delim, pos);
        if (f == std::string::npos || (maxsplit >= 0 && splits == maxsplit)) {
          p.push_back(s.substr(pos));
          break;
        }
        p.push_back(s.substr(pos, f - pos));
        pos = f + delim.size();
        ++splits;
      }
    }
    width = std::max(width, p.size());
  }
  std::vector<int64_t> dims = x->dims();
  dims.push_back(width);
  Tensor y(DataType::kString, dims), z(DataType::kInt64, x->dims());
  for (int64_t i = 0; i < x->size(); ++i) {
    for (size_t j = 0; j < parts[i].size(); ++j)
      y.mutable_data<std::string>()[i * width + j] = parts[i][j];
    z.mutable_data<int64_t>()[i] = parts[i].size();
  }
  ctx.set_output(0, std::move(y));
  ctx.set_output(1, std::move(z));
  return OkStatus();
}

Status StringNormalizerKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  if (!x->is_string()) return ctx.Error("X must be a string tensor");
  const std::string action = ctx.GetString("case_change_action", "NONE");
  const bool cs = ctx.GetInt("is_case_sensitive", 0) != 0;
  const std::vector<std::string> stop = ctx.GetStrings("stopwords");
  auto lower = [](std::string s) {
    for (char& c : s) c = std::tolower(static_cast<unsigned char>(c));
    return s;
  };
  std::vector<std::string> kept;
  for (int64_t i = 0; i < x->size(); ++i) {
    const std::string& s = x->data<std::string>()[i];
    bool is_stop = false;
    for (const std::string& w : stop) is_stop |= cs ? s == w : lower(s) == lower(w);
    if (is_stop) continue;
    std::string o = s;
    if (action == "LOWER") o = lower(o);
    if (action == "UPPER") {
      for (char& c : o) c = std::toupper(static_cast<unsigned char>(c));
    }
    kept.push_back(o);
  }
  if (kept.empty()) kept.push_back("");
  std::vector<int64_t> dims = x->rank() == 2
                                  ? std::vector<int64_t>{1, static_cast<int64_t>(kept.size())}
                                  : std::vector<int64_t>{static_cast<int64_t>(kept.size())};
  ctx.set_output(0, Tensor::FromVector<std::string>(DataType::kString, dims, kept));
  return OkStatus();
}

}  // namespace

void RegisterMiscKernels(KernelRegistry& r) {
  r.Register("", "Dropout", 1, DropoutKernel);
  r.Register("", "TopK", 1, TopKKernel);
  r.Register("", "Unique", 11, UniqueKernel);
  r.Register("", "SwiGLU", 28, SwiGLUKernel);
  r.Register("", "BitCast", 26, BitCastKernel);
  r.Register("", "TensorScatter", 24, TensorScatterKernel);
  r.Register("", "HannWindow", 17, WindowKernel<0>);
  r.Register("", "MelWeightMatrix", 17, MelWeightMatrixKernel);
  r.Register("", "HammingWindow", 17, WindowKernel<1>);
  r.Register("", "BlackmanWindow", 17, WindowKernel<2>);
  r.Register("", "StringConcat", 20, StringConcatKernel);
  r.Register("", "RegexFullMatch", 20, RegexFullMatchKernel);
  r.Register("", "StringSplit", 20, StringSplitKernel);
  r.Register("", "StringNormalizer", 10, StringNormalizerKernel);
}

}  // namespace onnx_opt::interpreter
