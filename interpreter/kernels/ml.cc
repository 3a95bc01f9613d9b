// ai.onnx.ml operators (Binarizer, ArrayFeatureExtractor, LabelEncoder) and TfIdfVectorizer.
#include <map>

#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

Status BinarizerKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  const double th = ctx.GetFloat("threshold", 0.0f);
  for (int64_t i = 0; i < x.size(); ++i) x.mutable_data<double>()[i] = x.data<double>()[i] > th ? 1 : 0;
  ASSIGN_OR_RETURN(x, CastTensor(x, x0->dtype()));
  ctx.set_output(0, std::move(x));
  return OkStatus();
}

Status ArrayFeatureExtractorKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> idx, ctx.IntsInput(1));
  const int64_t last = x->dim(x->rank() - 1), outer = x->size() / std::max<int64_t>(last, 1);
  std::vector<int64_t> dims = x->dims();
  dims.back() = idx.size();
  Tensor y(x->dtype(), dims);
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t k = 0; k < idx.size(); ++k) {
      if (idx[k] < 0 || idx[k] >= last) return ctx.Error("index out of range");
      CopyElements(*x, o * last + idx[k], y, o * idx.size() + k, 1);
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// Keys and values as a tensor from the *_int64s / *_floats / *_strings / *_tensor attributes.
StatusOr<Tensor> AttrTensor(const KernelContext& ctx, const std::string& prefix) {
  if (const ir::Attribute* a = ctx.attr(prefix + "_tensor")) return Tensor::FromIr(a->t);
  if (const ir::Attribute* a = ctx.attr(prefix + "_int64s")) {
    return Tensor::FromVector<int64_t>(DataType::kInt64, {static_cast<int64_t>(a->ints.size())}, a->ints);
  }
  if (const ir::Attribute* a = ctx.attr(prefix + "_floats")) {
    return Tensor::FromVector<float>(DataType::kFloat, {static_cast<int64_t>(a->floats.size())}, a->floats);
  }
  if (const ir::Attribute* a = ctx.attr(prefix + "_strings")) {
    return Tensor::FromVector<std::string>(DataType::kString, {static_cast<int64_t>(a->strings.size())}, a->strings);
  }
  return ctx.Error(absl::StrCat("missing ", prefix, " attribute"));
}

std::string KeyOf(const Tensor& t, int64_t i) {
  if (t.is_string()) return "s" + t.data<std::string>()[i];
  auto d = CastTensor(t.Reshaped({t.size()}), DataType::kDouble);
  return "n" + std::to_string(d->data<double>()[i]);
}

Status LabelEncoderKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  Tensor keys, values;
  if (const ir::Attribute* classes = ctx.attr("classes_strings"); classes != nullptr) {
    // LabelEncoder-1: strings map to their index among the classes, integers to the class.
    const int64_t n = static_cast<int64_t>(classes->strings.size());
    std::vector<int64_t> positions(n);
    for (int64_t i = 0; i < n; ++i) positions[i] = i;
    Tensor names = Tensor::FromVector<std::string>(DataType::kString, {n}, classes->strings);
    Tensor indices = Tensor::FromVector<int64_t>(DataType::kInt64, {n}, positions);
    keys = x->is_string() ? names : indices;
    values = x->is_string() ? indices : names;
  } else {
    ASSIGN_OR_RETURN(keys, AttrTensor(ctx, "keys"));
    ASSIGN_OR_RETURN(values, AttrTensor(ctx, "values"));
  }
  if (keys.size() != values.size()) return ctx.Error("keys and values differ in length");
  Tensor def;
  if (const ir::Attribute* a = ctx.attr("default_tensor")) {
    ASSIGN_OR_RETURN(def, Tensor::FromIr(a->t));
  } else if (values.is_string()) {
    def = Tensor::Scalar<std::string>(DataType::kString, ctx.GetString("default_string", "_Unused"));
  } else if (values.dtype() == DataType::kInt64) {
    def = Tensor::Scalar<int64_t>(DataType::kInt64, ctx.GetInt("default_int64", -1));
  } else {
    ASSIGN_OR_RETURN(def, CastTensor(Tensor::Scalar<float>(DataType::kFloat, ctx.GetFloat("default_float", -0.0f)), values.dtype()));
  }
  std::map<std::string, int64_t> index;
  Tensor kd = keys;
  if (!keys.is_string()) {
    ASSIGN_OR_RETURN(kd, CastTensor(keys, DataType::kDouble));
  }
  for (int64_t i = 0; i < keys.size(); ++i) index.emplace(KeyOf(kd, i), i);
  Tensor xd = *x;
  if (!x->is_string()) {
    ASSIGN_OR_RETURN(xd, CastTensor(*x, DataType::kDouble));
  }
  Tensor y(values.dtype(), x->dims());
  for (int64_t i = 0; i < x->size(); ++i) {
    auto it = index.find(KeyOf(xd, i));
    if (it == index.end()) CopyElements(def, 0, y, i, 1);
    else CopyElements(values, it->second, y, i, 1);
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

Status TfIdfKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const int64_t min_n = ctx.GetInt("min_gram_length", 1), max_n = ctx.GetInt("max_gram_length", 1);
  const int64_t max_skip = ctx.GetInt("max_skip_count", 0);
  const std::string mode = ctx.GetString("mode", "TF");
  const std::vector<int64_t> counts = ctx.GetInts("ngram_counts"), indexes = ctx.GetInts("ngram_indexes");
  std::vector<float> weights = ctx.GetFloats("weights");
  // Pool tokens as strings ("i<n>" for ints) so both kinds share one path.
  std::vector<std::string> pool;
  for (int64_t v : ctx.GetInts("pool_int64s")) pool.push_back(std::to_string(v));
  for (const std::string& s : ctx.GetStrings("pool_strings")) pool.push_back(s);
  std::map<std::vector<std::string>, int64_t> ngram_id;
  int64_t id = 0;
  for (size_t g = 0; g < counts.size(); ++g) {
    const int64_t n = g + 1;
    const int64_t begin = counts[g], end = g + 1 < counts.size() ? counts[g + 1] : pool.size();
    for (int64_t p = begin; p + n <= end; p += n) {
      ngram_id[std::vector<std::string>(pool.begin() + p, pool.begin() + p + n)] = id++;
    }
  }
  int64_t out_len = 0;
  for (int64_t v : indexes) out_len = std::max(out_len, v + 1);
  std::vector<std::string> tokens(x->size());
  if (x->is_string()) {
    for (int64_t i = 0; i < x->size(); ++i) tokens[i] = x->data<std::string>()[i];
  } else {
    ASSIGN_OR_RETURN(Tensor xi, CastTensor(*x, DataType::kInt64));
    for (int64_t i = 0; i < x->size(); ++i) tokens[i] = std::to_string(xi.data<int64_t>()[i]);
  }
  const int64_t rows = x->rank() == 2 ? x->dim(0) : 1;
  const int64_t len = x->rank() == 0 ? 1 : x->dim(x->rank() - 1);
  Tensor y(DataType::kFloat, x->rank() == 2 ? std::vector<int64_t>{rows, out_len} : std::vector<int64_t>{out_len});
  float* py = y.mutable_data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> cnt(out_len, 0);
    for (int64_t skip = 0; skip <= max_skip; ++skip) {
      for (int64_t n = min_n; n <= max_n; ++n) {
        if (n == 1 && skip > 0) continue;
        for (int64_t s = 0; s + (n - 1) * (skip + 1) < len; ++s) {
          std::vector<std::string> key;
          for (int64_t j = 0; j < n; ++j) key.push_back(tokens[r * len + s + j * (skip + 1)]);
          auto it = ngram_id.find(key);
          if (it != ngram_id.end()) cnt[indexes[it->second]] += 1;
        }
      }
    }
    for (int64_t o = 0; o < out_len; ++o) {
      // weights are indexed by ngram id; map output index back.
      double w = 1;
      if (!weights.empty()) {
        for (size_t k = 0; k < indexes.size(); ++k) {
          if (indexes[k] == o) w = weights[k];
        }
      }
      double v = cnt[o];
      if (mode == "IDF") v = v > 0 ? w : 0;
      else if (mode == "TFIDF") v = v * w;
      py[r * out_len + o] = static_cast<float>(v);
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace

void RegisterMlKernels(KernelRegistry& r) {
  r.Register("ai.onnx.ml", "Binarizer", 1, BinarizerKernel);
  r.Register("ai.onnx.ml", "ArrayFeatureExtractor", 1, ArrayFeatureExtractorKernel);
  r.Register("ai.onnx.ml", "LabelEncoder", 1, LabelEncoderKernel);
  r.Register("", "TfIdfVectorizer", 9, TfIdfKernel);
}

}  // namespace onnx_opt::interpreter
