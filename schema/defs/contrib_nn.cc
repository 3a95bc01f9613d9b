// Operator schemas: onnxruntime's contrib operators (domain com.microsoft) other than attention:
// layer normalizations, activations, FusedMatMul, embeddings and block-quantized weights. Written
// from onnxruntime's docs/ContribOperators.md (inputs, outputs, attributes and type constraints as
// listed there; defaults where onnxruntime defines them). Every operator is at version 1 of the
// domain.

#include "schema/defs/defs.h"
#include "schema/defs/dsl.h"

namespace onnx_opt::schema::defs {
namespace {

constexpr std::string_view kFloatHalf[] = {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"};
constexpr std::string_view kFloatHalfDouble[] = {"tensor(float16)", "tensor(float)",
                                                 "tensor(double)", "tensor(bfloat16)"};
constexpr std::string_view kFloatOnly[] = {"tensor(float)"};
constexpr std::string_view kInt32Only[] = {"tensor(int32)"};

void DefineSkipLayerNormalization(SchemaSink& s) {
  s.Op("SkipLayerNormalization", 1)
      .Input("input", "T")
      .Input("skip", "T")
      .Input("gamma", "T")
      .Input("beta", "T", kOptional)
      .Input("bias", "T", kOptional)
      .Output("output", "T")
      .Output("mean", "U", kOptional)
      .Output("inv_std_var", "U", kOptional)
      .Output("input_skip_bias_sum", "T", kOptional)
      .Attr("epsilon", kFloat, 1e-12f)
      .TypeConstraint("T", kFloatHalf)
      .TypeConstraint("U", kFloatOnly);
}

void DefineSkipSimplifiedLayerNormalization(SchemaSink& s) {
  s.Op("SkipSimplifiedLayerNormalization", 1)
      .Input("input", "T")
      .Input("skip", "T")
      .Input("gamma", "T")
      .Input("bias", "T", kOptional)
      .Output("output", "T")
      .Output("mean", "U", kOptional)
      .Output("inv_std_var", "U", kOptional)
      .Output("input_skip_bias_sum", "T", kOptional)
      .Attr("epsilon", kFloat, 1e-12f)
      .TypeConstraint("T", kFloatHalf)
      .TypeConstraint("U", kFloatOnly);
}

// onnxruntime declares this one in the default domain (version 1); models spell it com.microsoft
// too.
void DefineSimplifiedLayerNormalization(SchemaSink& s) {
  s.Op("SimplifiedLayerNormalization", 1)
      .Input("X", "T")
      .Input("scale", "V")
      .Output("Y", "V")
      .Output("inv_std_var", "U", kOptional)
      .Attr("axis", kInt, -1)
      .Attr("epsilon", kFloat, 1e-5f)
      .Attr("stash_type", kInt, 1)
      .TypeConstraint("T", kFloatHalfDouble)
      .TypeConstraint("U", {"tensor(float)", "tensor(double)"})
      .TypeConstraint("V", kFloatHalfDouble);
}

void DefineGelu(SchemaSink& s) {
  s.Op("Gelu", 1).Input("X", "T").Output("Y", "T").TypeConstraint("T", kFloatHalfDouble);
}

void DefineFastGelu(SchemaSink& s) {
  s.Op("FastGelu", 1)
      .Input("X", "T")
      .Input("bias", "T", kOptional)
      .Output("Y", "T")
      .TypeConstraint("T", kFloatHalfDouble);
}

void DefineBiasGelu(SchemaSink& s) {
  s.Op("BiasGelu", 1)
      .Input("A", "T")
      .Input("B", "T")
      .Output("C", "T")
      .TypeConstraint("T", kFloatHalfDouble);
}

void DefineQuickGelu(SchemaSink& s) {
  s.Op("QuickGelu", 1)
      .Input("X", "T")
      .Output("Y", "T")
      .Attr("alpha", kFloat, 1.702f)
      .TypeConstraint("T", kFloatHalfDouble);
}

void DefineBiasAdd(SchemaSink& s) {
  s.Op("BiasAdd", 1)
      .Input("X", "T")
      .Input("bias", "T")
      .Input("skip", "T")
      .Output("Y", "T")
      .TypeConstraint("T", {"tensor(float16)", "tensor(float)"});
}

void DefineFusedMatMul(SchemaSink& s) {
  s.Op("FusedMatMul", 1)
      .Input("A", "T")
      .Input("B", "T")
      .Output("Y", "T")
      .Attr("alpha", kFloat, 1.0f)
      .Attr("transA", kInt, 0)
      .Attr("transB", kInt, 0)
      .Attr("transBatchA", kInt, 0)
      .Attr("transBatchB", kInt, 0)
      .TypeConstraint("T", kFloatHalfDouble);
}

void DefineEmbedLayerNormalization(SchemaSink& s) {
  s.Op("EmbedLayerNormalization", 1)
      .Input("input_ids", "T1")
      .Input("segment_ids", "T1", kOptional)
      .Input("word_embedding", "T")
      .Input("position_embedding", "T")
      .Input("segment_embedding", "T", kOptional)
      .Input("gamma", "T")
      .Input("beta", "T")
      .Input("mask", "T1", kOptional)
      .Input("position_ids", "T1", kOptional)
      .Output("output", "T")
      .Output("mask_index", "T1", kOptional)
      .Output("embedding_sum", "T", kOptional)
      .Attr("epsilon", kFloat, 1e-12f)
      .Attr("mask_index_type", kInt)
      .TypeConstraint("T1", kInt32Only)
      .TypeConstraint("T", {"tensor(float)", "tensor(float16)"});
}

void DefineMatMulNBits(SchemaSink& s) {
  s.Op("MatMulNBits", 1)
      .Input("A", "T1")
      .Input("B", "T2")
      .Input("scales", "T1")
      .Input("zero_points", "T3", kOptional)
      .Input("g_idx", "T4", kOptional)
      .Input("bias", "T1", kOptional)
      .Output("Y", "T1")
      .Attr("K", kInt, kRequired)
      .Attr("N", kInt, kRequired)
      .Attr("accuracy_level", kInt, 0)
      .Attr("bits", kInt, 4)
      .Attr("block_size", kInt, kRequired)
      .Attr("weight_prepacked", kInt, 0)
      .TypeConstraint("T1", kFloatHalf)
      .TypeConstraint("T2", {"tensor(uint8)"})
      .TypeConstraint("T3",
                      {"tensor(uint8)", "tensor(float16)", "tensor(float)", "tensor(bfloat16)"})
      .TypeConstraint("T4", kInt32Only);
}

void DefineGatherBlockQuantized(SchemaSink& s) {
  s.Op("GatherBlockQuantized", 1)
      .Input("data", "T1")
      .Input("indices", "Tind")
      .Input("scales", "T2")
      .Input("zero_points", "T1", kOptional)
      .Output("output", "T2")
      .Attr("bits", kInt, 4)
      .Attr("block_size", kInt, 128)
      .Attr("gather_axis", kInt, 0)
      .Attr("quantize_axis", kInt, 1)
      .TypeConstraint("T1", {"tensor(int4)", "tensor(uint4)", "tensor(uint8)",
                             "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                             "tensor(float8e5m2fnuz)", "tensor(float4e2m1)"})
      .TypeConstraint("T2", kFloatHalf)
      .TypeConstraint("Tind", {"tensor(int32)", "tensor(int64)"});
}

constexpr OpDefinition kContribNnOps[] = {
    {"SkipLayerNormalization", DefineSkipLayerNormalization},
    {"SkipSimplifiedLayerNormalization", DefineSkipSimplifiedLayerNormalization},
    {"SimplifiedLayerNormalization", DefineSimplifiedLayerNormalization},
    {"Gelu", DefineGelu},
    {"FastGelu", DefineFastGelu},
    {"BiasGelu", DefineBiasGelu},
    {"QuickGelu", DefineQuickGelu},
    {"BiasAdd", DefineBiasAdd},
    {"FusedMatMul", DefineFusedMatMul},
    {"EmbedLayerNormalization", DefineEmbedLayerNormalization},
    {"MatMulNBits", DefineMatMulNBits},
    {"GatherBlockQuantized", DefineGatherBlockQuantized},
};

// What onnxruntime declares in the default domain although ONNX does not (its model builder writes
// SimplifiedLayerNormalization there): known so that such models load, as onnxruntime loads them.
constexpr OpDefinition kOnnxruntimeOnnxDomainOps[] = {
    {"SimplifiedLayerNormalization", DefineSimplifiedLayerNormalization},
};

}  // namespace

constexpr absl::Span<const OpDefinition> kContribNnFamily = kContribNnOps;
constexpr absl::Span<const OpDefinition> kOnnxruntimeOnnxDomainFamily = kOnnxruntimeOnnxDomainOps;

}  // namespace onnx_opt::schema::defs
