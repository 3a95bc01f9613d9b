// Operator schemas: onnxruntime's contrib attention operators and their rotary embedding (domain
// com.microsoft), written from onnxruntime's docs/ContribOperators.md. Every operator is at version
// 1 of the domain.

#include "schema/defs/defs.h"
#include "schema/defs/dsl.h"

namespace onnx_opt::schema::defs {
namespace {

constexpr std::string_view kFloatHalf[] = {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"};
constexpr std::string_view kInt32Only[] = {"tensor(int32)"};

void DefineAttention(SchemaSink& s) {
  s.Op("Attention", 1)
      .Input("input", "T")
      .Input("weights", "T")
      .Input("bias", "T", kOptional)
      .Input("mask_index", "M", kOptional)
      .Input("past", "T", kOptional)
      .Input("attention_bias", "T", kOptional)
      .Input("past_sequence_length", "M", kOptional)
      .Output("output", "T")
      .Output("present", "T", kOptional)
      .Attr("do_rotary", kInt, 0)
      .Attr("mask_filter_value", kFloat, -10000.0f)
      .Attr("num_heads", kInt, kRequired)
      .Attr("past_present_share_buffer", kInt, 0)
      .Attr("qkv_hidden_sizes", kInts)
      .Attr("rotary_embedding_dim", kInt, 0)
      .Attr("scale", kFloat)
      .Attr("unidirectional", kInt, 0)
      .TypeConstraint("T", kFloatHalf)
      .TypeConstraint("M", kInt32Only);
}

void DefineMultiHeadAttention(SchemaSink& s) {
  s.Op("MultiHeadAttention", 1)
      .Input("query", "T")
      .Input("key", "T", kOptional)
      .Input("value", "T", kOptional)
      .Input("bias", "T", kOptional)
      .Input("key_padding_mask", "M", kOptional)
      .Input("attention_bias", "T", kOptional)
      .Input("past_key", "T", kOptional)
      .Input("past_value", "T", kOptional)
      .Input("past_sequence_length", "M", kOptional)
      .Input("cache_indirection", "M", kOptional)
      .Output("output", "T")
      .Output("present_key", "T", kOptional)
      .Output("present_value", "T", kOptional)
      .Output("qk", "QK", kOptional)
      .Attr("mask_filter_value", kFloat, -10000.0f)
      .Attr("num_heads", kInt, kRequired)
      .Attr("scale", kFloat)
      .Attr("unidirectional", kInt, 0)
      .TypeConstraint("T", kFloatHalf)
      .TypeConstraint("QK", kFloatHalf)
      .TypeConstraint("M", kInt32Only);
}

void DefineGroupQueryAttention(SchemaSink& s) {
  s.Op("GroupQueryAttention", 1)
      .Input("query", "T")
      .Input("key", "T", kOptional)
      .Input("value", "T", kOptional)
      .Input("past_key", "T_CACHE", kOptional)
      .Input("past_value", "T_CACHE", kOptional)
      .Input("seqlens_k", "M")
      .Input("total_sequence_length", "M")
      .Input("cos_cache", "T", kOptional)
      .Input("sin_cache", "T", kOptional)
      .Input("position_ids", "tensor(int64)", kOptional)
      .Input("attention_bias", "T", kOptional)
      .Input("head_sink", "T", kOptional)
      .Input("k_scale", "T_KV_SCALE", kOptional)
      .Input("v_scale", "T_KV_SCALE", kOptional)
      .Input("q_norm_weight", "T", kOptional)
      .Input("k_norm_weight", "T", kOptional)
      .Output("output", "T")
      .Output("present_key", "T_CACHE", kOptional)
      .Output("present_value", "T_CACHE", kOptional)
      .Output("output_qk", "T", kOptional)
      .Attr("causal", kInt, 1)
      .Attr("do_rotary", kInt, 0)
      .Attr("k_quant_type", kString)
      .Attr("kv_cache_bit_width", kInt)
      .Attr("kv_num_heads", kInt, kRequired)
      .Attr("local_window_size", kInt, -1)
      .Attr("num_heads", kInt, kRequired)
      .Attr("qk_norm_epsilon", kFloat, 1e-6f)
      .Attr("qk_output", kInt, 0)
      .Attr("rotary_interleaved", kInt, 0)
      .Attr("scale", kFloat)
      .Attr("sliding_window_cache", kInt, 0)
      .Attr("smooth_softmax", kInt)
      .Attr("softcap", kFloat, 0.0f)
      .Attr("v_quant_type", kString)
      .TypeConstraint("T", kFloatHalf)
      .TypeConstraint("T_CACHE", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)",
                                  "tensor(uint8)", "tensor(int8)", "tensor(float8e4m3fn)"})
      .TypeConstraint("T_KV_SCALE", {"tensor(float)"})
      .TypeConstraint("M", kInt32Only);
}

void DefineRotaryEmbedding(SchemaSink& s) {
  s.Op("RotaryEmbedding", 1)
      .Input("input", "T")
      .Input("position_ids", "M")
      .Input("cos_cache", "T")
      .Input("sin_cache", "T")
      .Output("output", "T")
      .Attr("interleaved", kInt, 0)
      .Attr("is_packed_batching", kInt, 0)
      .Attr("num_heads", kInt, 0)
      .Attr("rotary_embedding_dim", kInt, 0)
      .Attr("scale", kFloat, 1.0f)
      .TypeConstraint("T", kFloatHalf)
      .TypeConstraint("M", {"tensor(int64)"});
}

constexpr OpDefinition kContribAttentionOps[] = {
    {"Attention", DefineAttention},
    {"MultiHeadAttention", DefineMultiHeadAttention},
    {"GroupQueryAttention", DefineGroupQueryAttention},
    {"RotaryEmbedding", DefineRotaryEmbedding},
};

}  // namespace

constexpr absl::Span<const OpDefinition> kContribAttentionFamily = kContribAttentionOps;

}  // namespace onnx_opt::schema::defs
