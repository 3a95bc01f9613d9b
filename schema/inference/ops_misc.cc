// Quantization, random generators, NonMaxSuppression, text operators, ImageDecoder, the
// ai.onnx.ml operators and the ai.onnx.preview.training optimizers.
#include <algorithm>

#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

absl::Status QuantizeLinear(InferenceContext& ctx) {
  ctx.PropagateShape(0, 0);
  if (ctx.has_input(2) && ctx.input_elem_type(2) != ir::DataType::kUndefined) {
    ctx.PropagateElemType(2, 0);
  } else if (int64_t dt = ctx.GetInt("output_dtype", 0); dt != 0) {
    ASSIGN_OR_RETURN(auto t, DataTypeAttr(ctx, dt));
    ctx.SetOutputElemType(0, t);
  } else if (!ctx.has_input(2)) {
    ctx.SetOutputElemType(0, ir::DataType::kUint8);
  }
  return absl::OkStatus();
}

absl::Status DequantizeLinear(InferenceContext& ctx) {
  ctx.PropagateShape(0, 0);
  if (int64_t dt = ctx.GetInt("output_dtype", 0); dt != 0) {
    ASSIGN_OR_RETURN(auto t, DataTypeAttr(ctx, dt));
    ctx.SetOutputElemType(0, t);
  } else if (ctx.since_version() >= 19) {
    ctx.PropagateElemType(1, 0);
  }
  return absl::OkStatus();
}

absl::Status DynamicQuantizeLinear(InferenceContext& ctx) {
  ctx.PropagateShape(0, 0);
  ctx.SetOutputShape(1, Shape());
  ctx.SetOutputShape(2, Shape());
  return absl::OkStatus();
}

absl::Status RandomWithShape(InferenceContext& ctx) {
  ASSIGN_OR_RETURN(auto dt, DataTypeAttr(ctx, ctx.GetInt("dtype", 1)));
  ctx.SetOutputElemType(0, dt);
  if (auto s = ctx.FindInts("shape")) ctx.SetOutputShape(0, Shape::FromSizes(*s));
  return absl::OkStatus();
}

absl::Status Multinomial(InferenceContext& ctx) {
  ASSIGN_OR_RETURN(auto dt, DataTypeAttr(ctx, ctx.GetInt("dtype", 6)));
  ctx.SetOutputElemType(0, dt);
  const Shape* in = ctx.input_shape(0);
  Dim batch = in != nullptr && in->rank() == 2 ? in->dim(0) : Dim();
  ctx.SetOutputShape(0, Shape({batch, Dim::Known(ctx.GetInt("sample_size", 1))}));
  return absl::OkStatus();
}

absl::Status NonMaxSuppression(InferenceContext& ctx) {
  ctx.SetOutputShape(0, Shape({Dim::Unknown(), Dim::Known(3)}));
  return absl::OkStatus();
}

absl::Status StringNormalizer(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  if (in->rank() == 1) {
    ctx.SetOutputShape(0, Shape({Dim::Unknown()}));
  } else if (in->rank() == 2) {
    ctx.SetOutputShape(0, Shape({in->dim(0), Dim::Unknown()}));
  } else {
    return ctx.Error("input must have rank 1 or 2");
  }
  return absl::OkStatus();
}

absl::Status StringSplit(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  std::vector<Dim> dims(in->dims());
  ctx.SetOutputShape(1, Shape(dims));
  dims.push_back(Dim::Unknown());
  ctx.SetOutputShape(0, Shape(dims));
  return absl::OkStatus();
}

absl::Status TfIdfVectorizer(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  auto idx = ctx.GetInts("ngram_indexes");
  Dim width;
  if (!idx.empty()) width = Dim::Known(*std::max_element(idx.begin(), idx.end()) + 1);
  if (in == nullptr) return absl::OkStatus();
  if (in->rank() == 1) {
    ctx.SetOutputShape(0, Shape({width}));
  } else if (in->rank() == 2) {
    ctx.SetOutputShape(0, Shape({in->dim(0), width}));
  } else {
    return ctx.Error("input must have rank 1 or 2");
  }
  return absl::OkStatus();
}

absl::Status ImageDecoder(InferenceContext& ctx) {
  std::string format = ctx.GetString("pixel_format", "RGB");
  Dim channels = format == "Grayscale" ? Dim::Known(1) : Dim::Known(3);
  ctx.SetOutputShape(0, Shape({Dim::Unknown(), Dim::Unknown(), channels}));
  return absl::OkStatus();
}

// --- ai.onnx.ml ------------------------------------------------------------------------------

absl::Status LabelEncoder(InferenceContext& ctx) {
  ctx.PropagateShape(0, 0);
  if (ctx.since_version() < 2) {
    // Version 1 maps strings to int64 and back.
    ctx.SetOutputElemType(0, ctx.input_elem_type(0) == ir::DataType::kString
                                 ? ir::DataType::kInt64
                                 : ir::DataType::kString);
    return absl::OkStatus();
  }
  if (const ir::Attribute* a = ctx.attr("values_tensor")) {
    ctx.SetOutputElemType(0, a->t->data_type());
  } else if (ctx.has_attr("values_strings")) {
    ctx.SetOutputElemType(0, ir::DataType::kString);
  } else if (ctx.has_attr("values_int64s")) {
    ctx.SetOutputElemType(0, ir::DataType::kInt64);
  } else if (ctx.has_attr("values_floats")) {
    ctx.SetOutputElemType(0, ir::DataType::kFloat);
  }
  return absl::OkStatus();
}

absl::Status ArrayFeatureExtractor(InferenceContext& ctx) {
  const Shape* x = ctx.input_shape(0);
  const Shape* y = ctx.input_shape(1);
  if (x == nullptr || y == nullptr) return absl::OkStatus();
  Dim n = DimProduct(y->dims());
  std::vector<Dim> out;
  if (x->rank() <= 1) {
    out = {Dim::Known(1), n};
  } else {
    out.assign(x->dims().begin(), x->dims().end() - 1);
    out.push_back(n);
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

Dim Rows(const InferenceContext& ctx) {
  const Shape* x = ctx.input_shape(0);
  if (x == nullptr || x->rank() == 0) return Dim::Unknown();
  return x->rank() == 1 ? Dim::Known(1) : x->dim(0);
}

absl::Status TreeEnsemble(InferenceContext& ctx) {
  ctx.PropagateElemType(0, 0);
  ctx.SetOutputShape(0, Shape({Rows(ctx), Dim::Known(ctx.GetInt("n_targets", 1))}));
  return absl::OkStatus();
}

absl::Status TreeEnsembleRegressor(InferenceContext& ctx) {
  ctx.SetOutputShape(0, Shape({Rows(ctx), Dim::Known(ctx.GetInt("n_targets", 1))}));
  return absl::OkStatus();
}

absl::Status Classifier(InferenceContext& ctx) {
  bool ints = ctx.has_attr("classlabels_int64s") || ctx.has_attr("classlabels_ints");
  ctx.SetOutputElemType(0, ints ? ir::DataType::kInt64 : ir::DataType::kString);
  ctx.SetOutputShape(0, Shape({Rows(ctx)}));
  if (ctx.num_outputs() > 1) ctx.SetOutputRank(1, 2);
  return absl::OkStatus();
}

absl::Status SameShapeFloat(InferenceContext& ctx) {
  ctx.PropagateShape(0, 0);
  return absl::OkStatus();
}

absl::Status CastMap(InferenceContext& ctx) {
  std::string to = ctx.GetString("cast_to", "TO_FLOAT");
  ctx.SetOutputElemType(0, to == "TO_STRING"  ? ir::DataType::kString
                           : to == "TO_INT64" ? ir::DataType::kInt64
                                              : ir::DataType::kFloat);
  Dim n;
  if (ctx.GetString("map_form", "DENSE") == "SPARSE") n = Dim::Known(ctx.GetInt("max_map", 1));
  ctx.SetOutputShape(0, Shape({Dim::Known(1), n}));
  return absl::OkStatus();
}

absl::Status CategoryMapper(InferenceContext& ctx) {
  ctx.PropagateShape(0, 0);
  ir::DataType in = ctx.input_elem_type(0);
  if (in == ir::DataType::kString) ctx.SetOutputElemType(0, ir::DataType::kInt64);
  if (in == ir::DataType::kInt64) ctx.SetOutputElemType(0, ir::DataType::kString);
  return absl::OkStatus();
}

absl::Status DictVectorizer(InferenceContext& ctx) {
  const ir::Type& in = ctx.input_type(0);
  if (in.kind() == ir::Type::Kind::kMap && in.has_inner()) {
    ctx.SetOutputElemType(0, in.inner().elem_type());
  }
  size_t n = ctx.GetInts("int64_vocabulary").size();
  if (const ir::Attribute* a = ctx.attr("string_vocabulary")) n = a->strings.size();
  ctx.SetOutputShape(0, Shape({Dim::Known(1), Dim::Known(static_cast<int64_t>(n))}));
  return absl::OkStatus();
}

absl::Status FeatureVectorizer(InferenceContext& ctx) {
  int64_t total = 0;
  for (int64_t d : ctx.GetInts("inputdimensions")) total += d;
  ctx.SetOutputShape(0, Shape({Rows(ctx), Dim::Known(total)}));
  return absl::OkStatus();
}

absl::Status Regressor(InferenceContext& ctx) {
  ctx.SetOutputShape(0, Shape({Rows(ctx), Dim::Known(ctx.GetInt("targets", 1))}));
  return absl::OkStatus();
}

absl::Status OneHotEncoder(InferenceContext& ctx) {
  const Shape* in = ctx.input_shape(0);
  if (in == nullptr) return absl::OkStatus();
  size_t n = ctx.GetInts("cats_int64s").size();
  if (const ir::Attribute* a = ctx.attr("cats_strings")) n = a->strings.size();
  std::vector<Dim> dims(in->dims());
  dims.push_back(Dim::Known(static_cast<int64_t>(n)));
  ctx.SetOutputShape(0, Shape(dims));
  return absl::OkStatus();
}

absl::Status ZipMap(InferenceContext& ctx) {
  ir::DataType key =
      ctx.has_attr("classlabels_int64s") ? ir::DataType::kInt64 : ir::DataType::kString;
  ctx.SetOutputType(0,
                    ir::Type::Sequence(ir::Type::Map(key, ir::Type::Tensor(ir::DataType::kFloat))));
  return absl::OkStatus();
}

// --- ai.onnx.preview.training: output i updates input 2 + i
// ---------------------------------------

absl::Status Optimizer(InferenceContext& ctx) {
  for (size_t i = 0; i < ctx.num_outputs(); ++i) {
    if (2 + i < ctx.num_inputs()) ctx.PropagateType(2 + i, i);
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterMiscOps(InferenceRegistry& r) {
  r.Register("QuantizeLinear", QuantizeLinear);
  r.Register("DequantizeLinear", DequantizeLinear);
  r.Register("DynamicQuantizeLinear", DynamicQuantizeLinear);
  r.Register("RandomNormal", RandomWithShape);
  r.Register("RandomUniform", RandomWithShape);
  r.Register("Multinomial", Multinomial);
  r.Register("NonMaxSuppression", NonMaxSuppression);
  r.Register("StringNormalizer", StringNormalizer);
  r.Register("StringSplit", StringSplit);
  r.Register("RegexFullMatch", SameShapeAsInput0);
  r.Register("TfIdfVectorizer", TfIdfVectorizer);
  r.Register("ImageDecoder", ImageDecoder);

  const char* ml = "ai.onnx.ml";
  r.Register(ml, "LabelEncoder", 1, kLatest, LabelEncoder);
  r.Register(ml, "ArrayFeatureExtractor", 1, kLatest, ArrayFeatureExtractor);
  r.Register(ml, "TreeEnsemble", 1, kLatest, TreeEnsemble);
  r.Register(ml, "TreeEnsembleRegressor", 1, kLatest, TreeEnsembleRegressor);
  r.Register(ml, "TreeEnsembleClassifier", 1, kLatest, Classifier);
  r.Register(ml, "LinearClassifier", 1, kLatest, Classifier);
  r.Register(ml, "SVMClassifier", 1, kLatest, Classifier);
  r.Register(ml, "CastMap", 1, kLatest, CastMap);
  r.Register(ml, "CategoryMapper", 1, kLatest, CategoryMapper);
  r.Register(ml, "DictVectorizer", 1, kLatest, DictVectorizer);
  r.Register(ml, "FeatureVectorizer", 1, kLatest, FeatureVectorizer);
  r.Register(ml, "LinearRegressor", 1, kLatest, Regressor);
  r.Register(ml, "SVMRegressor", 1, kLatest, [](InferenceContext& ctx) {
    ctx.SetOutputShape(0, Shape({Rows(ctx), Dim::Known(1)}));
    return absl::OkStatus();
  });
  r.Register(ml, "OneHotEncoder", 1, kLatest, OneHotEncoder);
  r.Register(ml, "ZipMap", 1, kLatest, ZipMap);
  for (const char* op : {"Normalizer", "Scaler", "Imputer"}) {
    r.Register(ml, op, 1, kLatest, SameShapeFloat);
  }

  const char* training = "ai.onnx.preview.training";
  for (const char* op : {"Adagrad", "Adam", "Momentum"}) {
    r.Register(training, op, 1, kLatest, Optimizer);
  }
}

}  // namespace onnx_opt::schema::inference
