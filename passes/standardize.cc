// standardize: onnxruntime's contrib operators (com.microsoft) as standard ONNX operators at the
// model's opset of ai.onnx. Each form computes what the contrib kernel computes
// (interpreter/kernels/contrib/): inputs of other floating-point types than float32 are cast to
// float32 first and the results back, since the contrib kernels compute in float32 and round once.
//
// clang-format off
//
// contrib operator                  standard form (opset), and what stays
// --------------------------------  --------------------------------------------------------------
// SkipLayerNormalization            Add(input, skip) [+ bias] -> LayerNormalization (17); the
//                                   mean, inv_std_var and input_skip_bias_sum outputs too
// SkipSimplifiedLayerNormalization  Add(input, skip) [+ bias] -> RMSNormalization (23); not when
//                                   its mean or inv_std_var outputs are used
// SimplifiedLayerNormalization      RMSNormalization (23), in com.microsoft or the default domain
//                                   (where onnxruntime registers it); not when inv_std_var is used
// FastGelu                          [Add bias ->] Gelu(approximate = "tanh") (20)
// BiasGelu, Gelu                    [Add ->] Gelu (20)
// QuickGelu                         x * Sigmoid(alpha * x)
// BiasAdd                           Add(Add(X, bias), skip)
// FusedMatMul                       [Transpose ->] MatMul [-> Mul(alpha)]
// EmbedLayerNormalization           Gather(word) + positions (Gather by position_ids, else the
//                                   first S rows) [+ Gather(segment)] -> LayerNormalization (17);
//                                   mask_index as ReduceSum(Cast(mask == 1)) (13)
// MatMulNBits                       constant 4/8-bit blocks as a [K, N] DequantizeLinear (21: int4
//                                   or uint4 with zero points, blocked along K) -> MatMul [-> Add
//                                   bias]
// GatherBlockQuantized              DequantizeLinear (21) of the table -> Gather
// RotaryEmbedding                   RotaryEmbedding (23), position_ids [B, S] or a start offset
//                                   [1]
// Attention                         MatMul [+ bias] -> Split -> Attention (23) on 3-D Q, K, V;
//                                   unidirectional as is_causal (keys after the query out of the
//                                   softmax in both, counted from the past's end); mask_index [B,
//                                   T] or [B, S, T] (masked where <= 0), key lengths [B] or [2B]
//                                   ends and starts, and attention_bias, as an additive float
//                                   attn_mask [B|1, N|1, S, T]. A past [2, B, N, P, H] (GPT-2
//                                   decoders): Split + Squeeze into past_key/past_value, and
//                                   present [2, B, N, P + S, H] as Unsqueeze + Concat of the
//                                   presents. Not with past_sequence_length or a shared buffer,
//                                   4-D masks, do_rotary, or a V head size other than Q's with a
//                                   past
// MultiHeadAttention                [Add bias ->] Attention (23) on separate 3-D query, key,
//                                   value; masks as for Attention, past_key/past_value and
//                                   presents, unidirectional as is_causal (with a past too)
// GroupQueryAttention               [RotaryEmbedding (23) ->] Attention (23) on separate or packed
//                                   Q, K, V with a bool mask from seqlens_k (and causal); with
//                                   total_sequence_length the constant P + S, and a KV cache [B,
//                                   kv_heads, P, H] when seqlens_k is the constant P + S - 1
//                                   (every sequence full): is_causal, past and presents. Lengths
//                                   known only at run time, or a local window: the presents built
//                                   by ScatterND at each sequence's own length, Attention (23)
//                                   over them with a bool mask (GqaRuntimeLengths)
//
// clang-format on
//
// Everything else is left, with the reason in the report.
#include "passes/standardize.h"

#include <glog/logging.h>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "interpreter/tensor.h"
#include "ir/constant_value.h"
#include "ir/name_generator.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/graph_walk.h"
#include "passes/rewrite/rewriter.h"
#include "passes/rewrite/value_facts.h"
#include "schema/inference/inference.h"

namespace onnx_opt::passes {
namespace {

constexpr char kMs[] = "com.microsoft";

using rewrite::RankOf;

// Why a node stays: empty when it was rewritten.
using Reason = std::string;

// An attribute to set on a new node (ir::Attribute itself is move-only, so lists of it cannot be
// written in braces).
struct Attr {
  enum class Kind { kInt, kFloat, kString, kInts } kind;
  std::string name;
  int64_t i = 0;
  float f = 0;
  std::string s;
  std::vector<int64_t> ints;
  ir::Attribute Make() const {
    switch (kind) {
      case Kind::kInt:
        return ir::Attribute::Int(name, i);
      case Kind::kFloat:
        return ir::Attribute::Float(name, f);
      case Kind::kString:
        return ir::Attribute::String(name, s);
      case Kind::kInts:
        break;
    }
    return ir::Attribute::Ints(name, ints);
  }
};
Attr AttrI(std::string name, int64_t v) { return {Attr::Kind::kInt, std::move(name), v}; }
Attr AttrF(std::string name, float v) { return {Attr::Kind::kFloat, std::move(name), 0, v}; }
Attr AttrS(std::string name, std::string v) {
  return {Attr::Kind::kString, std::move(name), 0, 0, std::move(v)};
}
Attr AttrIs(std::string name, std::vector<int64_t> v) {
  return {Attr::Kind::kInts, std::move(name), 0, 0, "", std::move(v)};
}

// Builds the replacement of one contrib node: new nodes go before it; Undo() takes them out again.
class Builder {
 public:
  Builder(rewrite::Rewriter& rw, ir::Node& at)
      : rw_(rw), g_(rw.graph()), at_(at), names_(rw.names()), opset_(rw.opset()) {
    base_ = at.name().empty() ? (at.num_outputs() > 0 ? at.output(0)->name() : at.op_type())
                              : at.name();
  }

  int64_t opset() const { return opset_; }
  ir::Node& node() { return at_; }
  // Through the rewriter, for a node Node() made.
  void SetAttribute(ir::Node& n, ir::Attribute attr) { rw_.SetAttribute(n, std::move(attr)); }

  // A new ai.onnx node with `outputs` outputs (an empty name leaves that output out).
  ir::Node* Node(const std::string& op, const std::vector<ir::Value*>& inputs,
                 std::vector<Attr> attrs = {}, int outputs = 1, std::vector<bool> wanted = {}) {
    std::vector<std::string> names;
    for (int i = 0; i < outputs; ++i) {
      names.push_back(wanted.empty() || wanted[i] ? names_.Fresh(absl::StrCat(base_, "_", op))
                                                  : "");
    }
    // Set up before it goes in: the rewriter sees the finished node.
    std::unique_ptr<ir::Node> fresh = ir::Node::Create("", op, inputs, names);
    for (const Attr& a : attrs) fresh->SetAttribute(a.Make());
    ir::Node* n = rw_.InsertNodeBefore(at_, std::move(fresh));
    created_.push_back(n);
    return n;
  }
  ir::Value* Op(const std::string& op, const std::vector<ir::Value*>& inputs,
                std::vector<Attr> attrs = {}) {
    return Node(op, inputs, std::move(attrs))->output(0);
  }

  ir::Value* Constant(ir::Tensor t, const std::string& suffix) {
    t.set_name(names_.Fresh(absl::StrCat(base_, suffix)));
    ir::Value* v = g_.AddInitializer(std::move(t));
    initializers_.push_back(v);
    return v;
  }
  ir::Value* Ints(const std::vector<int64_t>& v, const std::string& suffix = "_ints") {
    return Constant(
        ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {static_cast<int64_t>(v.size())}, v),
        suffix);
  }
  // An int64 scalar.
  ir::Value* Int64(int64_t v, const std::string& suffix) {
    return Constant(ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {}, {v}), suffix);
  }
  // Range(start, limit, 1) of int64 scalars: [limit - start].
  ir::Value* Range(ir::Value* start, ir::Value* limit) {
    return Op("Range", {start, limit, Int64(1, "_delta")});
  }
  // Dim `axis` of `x` as an int64 scalar, read at run time.
  ir::Value* Dim(ir::Value* x, int64_t axis) {
    ir::Value* dim =
        Op("Slice", {Op("Shape", {x}), Ints({axis}, "_start"), Ints({axis + 1}, "_end")});
    return Op("Squeeze", {dim, Ints({0}, "_zero")});
  }
  // A scalar of float type `type`.
  ir::Value* Scalar(double v, ir::DataType type, const std::string& suffix) {
    interpreter::Tensor t =
        interpreter::Tensor::Scalar<float>(ir::DataType::kFloat, static_cast<float>(v));
    if (type == ir::DataType::kDouble)
      t = interpreter::Tensor::Scalar<double>(ir::DataType::kDouble, v);
    ir::Value* c = Constant(t.ToIr(), suffix);
    if (type != ir::DataType::kFloat && type != ir::DataType::kDouble) return Cast(c, type);
    return c;
  }

  ir::Value* Cast(ir::Value* v, ir::DataType to) {
    return Op("Cast", {v}, {AttrI("to", static_cast<int64_t>(to))});
  }
  // `v` as float32 (a Cast when `type` is another float type); null stays null.
  ir::Value* ToFloat(ir::Value* v, ir::DataType type) {
    if (v == nullptr || type == ir::DataType::kFloat) return v;
    return Cast(v, ir::DataType::kFloat);
  }
  ir::Value* FromFloat(ir::Value* v, ir::DataType type) {
    if (v == nullptr || type == ir::DataType::kFloat) return v;
    return Cast(v, type);
  }

  void Undo() {
    for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
      rw_.RemoveAllInputs(**it);
      (void)rw_.EraseNode(**it);
    }
    for (ir::Value* v : initializers_) (void)g_.RemoveInitializer(v);
    created_.clear();
    initializers_.clear();
  }

 private:
  rewrite::Rewriter& rw_;
  ir::Graph& g_;
  ir::Node& at_;
  ir::NameGenerator& names_;
  int64_t opset_;
  std::string base_;
  std::vector<ir::Node*> created_;
  std::vector<ir::Value*> initializers_;
};

// ---- what is known about a node's inputs and outputs --------------------------------------------

ir::Value* In(const ir::Node& n, size_t i) { return n.has_input(i) ? n.input(i) : nullptr; }
bool Used(const ir::Node& n, size_t i) { return i < n.num_outputs() && n.output(i)->has_uses(); }

std::optional<ir::DataType> ElemType(const ir::Value* v) {
  if (v == nullptr || !v->type().is_tensor() || v->type().elem_type() == ir::DataType::kUndefined)
    return std::nullopt;
  return v->type().elem_type();
}
bool IsFloatType(ir::DataType t) {
  return t == ir::DataType::kFloat || t == ir::DataType::kFloat16 || t == ir::DataType::kBfloat16 ||
         t == ir::DataType::kDouble;
}
// The dims of a tensor value (-1 for a dim that is not a known number); nullopt without a shape.
std::optional<std::vector<int64_t>> Dims(const ir::Value* v) {
  if (v == nullptr || !v->type().is_tensor() || !v->type().shape()) return std::nullopt;
  std::vector<int64_t> d;
  for (const ir::Dim& dim : v->type().shape()->dims())
    d.push_back(dim.is_known() ? dim.value() : -1);
  return d;
}
std::optional<interpreter::Tensor> ConstantOf(const ir::Value* v) {
  const ir::Tensor* t = v == nullptr ? nullptr : ir::GetConstantTensor(v);
  if (t == nullptr) return std::nullopt;
  absl::StatusOr<interpreter::Tensor> x = interpreter::Tensor::FromIr(*t);
  if (!x.ok()) return std::nullopt;
  return *std::move(x);
}

Reason NeedsOpset(const Builder& b, int64_t need, const std::string& ops) {
  if (b.opset() >= need) return "";
  return absl::StrCat("its standard form needs ", ops, " of opset ", need,
                      " and the model is at opset ", b.opset(),
                      " (convert it first, e.g. onnx-convert --opset=23 --standardize)");
}
// The element type of input `i` when it is a floating-point type; else a reason.
Reason FloatInputType(const ir::Node& n, size_t i, const char* name, ir::DataType* type) {
  std::optional<ir::DataType> t = ElemType(In(n, i));
  if (!t) return absl::StrCat("the element type of input '", name, "' is not known");
  if (!IsFloatType(*t))
    return absl::StrCat("input '", name, "' is ", ir::DataTypeName(*t), ", not a float type");
  *type = *t;
  return "";
}
Reason Unused(const ir::Node& n, size_t i, const char* what) {
  if (Used(n, i))
    return absl::StrCat("its output '", what, "' is used and has no standard counterpart");
  return "";
}

// The replacement of each output of the contrib node (null for one that is not used).
using Outputs = std::vector<ir::Value*>;

#define KEEP_IF(expr)                     \
  do {                                    \
    Reason reason_ = (expr);              \
    if (!reason_.empty()) return reason_; \
  } while (0)

// ---- layer normalizations -----------------------------------------------------------------------

Reason SkipLayerNorm(Builder& b, Outputs& out, bool simplified) {
  const ir::Node& n = b.node();
  KEEP_IF(simplified ? NeedsOpset(b, 23, "RMSNormalization")
                     : NeedsOpset(b, 17, "LayerNormalization"));
  if (simplified) {
    KEEP_IF(Unused(n, 1, "mean"));
    KEEP_IF(Unused(n, 2, "inv_std_var"));
  }
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "input", &type));
  const size_t bias_at = simplified ? 3 : 4;
  ir::Value* sum = b.Op("Add", {b.ToFloat(In(n, 0), type), b.ToFloat(In(n, 1), type)});
  if (In(n, bias_at) != nullptr) sum = b.Op("Add", {sum, b.ToFloat(In(n, bias_at), type)});
  std::vector<Attr> attrs = {AttrI("axis", -1), AttrF("epsilon", n.GetFloat("epsilon", 1e-12f)),
                             AttrI("stash_type", 1)};
  ir::Value* gamma = b.ToFloat(In(n, 2), type);
  if (simplified) {
    out = {b.FromFloat(b.Op("RMSNormalization", {sum, gamma}, std::move(attrs)), type), nullptr,
           nullptr, nullptr};
  } else {
    std::vector<ir::Value*> inputs = {sum, gamma};
    if (In(n, 3) != nullptr) inputs.push_back(b.ToFloat(In(n, 3), type));
    ir::Node* ln =
        b.Node("LayerNormalization", inputs, std::move(attrs), 3, {true, Used(n, 1), Used(n, 2)});
    out = {b.FromFloat(ln->output(0), type), ln->output(1), ln->output(2), nullptr};
  }
  if (Used(n, 3)) out[3] = b.FromFloat(sum, type);
  return "";
}

Reason SimplifiedLayerNorm(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 23, "RMSNormalization"));
  KEEP_IF(Unused(n, 1, "inv_std_var"));
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "X", &type));
  // The scale must spread over the normalized dims as RMSNormalization broadcasts it: one dim over
  // the last axis, or the normalized dims' own rank.
  const int64_t axis = n.GetInt("axis", -1);
  std::optional<int64_t> rank = RankOf(In(n, 0)), scale_rank = RankOf(In(n, 1));
  if (!rank || !scale_rank) return "the ranks of X and scale are not known";
  const int64_t a = axis < 0 ? axis + *rank : axis;
  if (a < 0 || a >= *rank) return "its axis is outside X's rank";
  if (*scale_rank != *rank - a) return "its scale is flattened over several normalized dims";
  ir::Value* y = b.Op("RMSNormalization", {b.ToFloat(In(n, 0), type), b.ToFloat(In(n, 1), type)},
                      {AttrI("axis", axis), AttrF("epsilon", n.GetFloat("epsilon", 1e-5f)),
                       AttrI("stash_type", 1)});
  out = {b.FromFloat(y, type), nullptr};
  return "";
}

// ---- activations --------------------------------------------------------------------------------

// [x + bias ->] Gelu(approximate), in float32.
Reason GeluForm(Builder& b, Outputs& out, size_t bias_input, const std::string& approximate) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 20, "Gelu"));
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "X", &type));
  ir::Value* x = b.ToFloat(In(n, 0), type);
  if (bias_input > 0 && In(n, bias_input) != nullptr)
    x = b.Op("Add", {x, b.ToFloat(In(n, bias_input), type)});
  std::vector<Attr> attrs;
  if (approximate != "none") attrs.push_back(AttrS("approximate", approximate));
  out = {b.FromFloat(b.Op("Gelu", {x}, std::move(attrs)), type)};
  return "";
}

Reason QuickGelu(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "X", &type));
  ir::Value* x = b.ToFloat(In(n, 0), type);
  const float alpha = n.GetFloat("alpha", 1.702f);
  ir::Value* ax =
      alpha == 1.0f ? x : b.Op("Mul", {x, b.Scalar(alpha, ir::DataType::kFloat, "_alpha")});
  out = {b.FromFloat(b.Op("Mul", {x, b.Op("Sigmoid", {ax})}), type)};
  return "";
}

Reason BiasAdd(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "X", &type));
  ir::Value* y = b.Op("Add", {b.ToFloat(In(n, 0), type), b.ToFloat(In(n, 1), type)});
  y = b.Op("Add", {y, b.ToFloat(In(n, 2), type)});
  out = {b.FromFloat(y, type)};
  return "";
}

// ---- matrix products ----------------------------------------------------------------------------

Reason FusedMatMul(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "A", &type));
  std::vector<ir::Value*> operands;
  for (size_t i = 0; i < 2; ++i) {
    const char* name = i == 0 ? "A" : "B";
    const bool trans = n.GetInt(i == 0 ? "transA" : "transB", 0) != 0;
    const bool trans_batch = n.GetInt(i == 0 ? "transBatchA" : "transBatchB", 0) != 0;
    ir::Value* v = b.ToFloat(In(n, i), type);
    if (trans || trans_batch) {
      std::optional<int64_t> r = RankOf(In(n, i));
      if (!r) return absl::StrCat("the rank of input '", name, "' is not known");
      if (*r >= 2) {
        std::vector<int64_t> perm(*r);
        for (int64_t d = 0; d < *r; ++d) perm[d] = d;
        if (trans_batch) {
          for (int64_t d = 0; d + 2 < *r; ++d) perm[d] = d + 1;
          perm[*r - 2] = 0;
        }
        if (trans) std::swap(perm[*r - 2], perm[*r - 1]);
        bool identity = true;
        for (int64_t d = 0; d < *r; ++d) identity &= perm[d] == d;
        if (!identity) v = b.Op("Transpose", {v}, {AttrIs("perm", perm)});
      } else if (trans_batch) {
        return absl::StrCat("transBatch", name, " on a 1-D input is an error of the contrib op");
      }
    }
    operands.push_back(v);
  }
  ir::Value* y = b.Op("MatMul", operands);
  const float alpha = n.GetFloat("alpha", 1.0f);
  if (alpha != 1.0f) y = b.Op("Mul", {y, b.Scalar(alpha, ir::DataType::kFloat, "_alpha")});
  out = {b.FromFloat(y, type)};
  return "";
}

// The `bits`-bit value at position i of a packed byte stream, low bits first.
int32_t Unpack(const uint8_t* p, int64_t i, int64_t bits) {
  const int64_t bit = i * bits;
  return (p[bit / 8] >> (bit % 8)) & ((1 << bits) - 1);
}

Reason MatMulNBits(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 21, "DequantizeLinear with blocks"));
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "A", &type));
  const int64_t K = n.GetInt("K", 0), N = n.GetInt("N", 0), bits = n.GetInt("bits", 4),
                block = n.GetInt("block_size", 0);
  if (bits != 4 && bits != 8)
    return absl::StrCat("bits = ", bits, " (DequantizeLinear takes 4 and 8)");
  if (n.GetInt("weight_prepacked", 0) != 0) return "its weights are prepacked";
  if (K <= 0 || N <= 0 || block < 16 || (block & (block - 1)) != 0)
    return "its K, N or block_size is invalid";
  std::optional<interpreter::Tensor> w = ConstantOf(In(n, 1)), scales = ConstantOf(In(n, 2));
  if (!w || !scales) return "its weights or scales are not constants";
  const int64_t blocks = (K + block - 1) / block, blob = block * bits / 8;
  if (w->dtype() != ir::DataType::kUint8 || w->size() != N * blocks * blob)
    return "its weights have the wrong size";
  if (scales->dtype() != ir::DataType::kFloat || scales->size() != N * blocks) {
    return "its scales are not float32 of N x blocks elements";
  }
  // Zero points, one per (n, block): packed uint8 or float (which must hold whole numbers in
  // range).
  std::vector<int32_t> zp;
  const int32_t qmax = (1 << bits) - 1;
  if (In(n, 3) != nullptr) {
    std::optional<interpreter::Tensor> z = ConstantOf(In(n, 3));
    if (!z) return "its zero points are not a constant";
    zp.resize(N * blocks);
    if (z->dtype() == ir::DataType::kUint8) {
      const int64_t row = (blocks * bits + 7) / 8;
      if (z->size() != N * row) return "its packed zero points have the wrong size";
      for (int64_t r = 0; r < N; ++r) {
        for (int64_t g = 0; g < blocks; ++g)
          zp[r * blocks + g] = Unpack(z->data<uint8_t>() + r * row, g, bits);
      }
    } else if (z->dtype() == ir::DataType::kFloat && z->size() == N * blocks) {
      for (int64_t i = 0; i < N * blocks; ++i) {
        const float f = z->data<float>()[i];
        if (f != std::floor(f) || f < 0 || f > qmax)
          return "its float zero points are not whole numbers in range";
        zp[i] = static_cast<int32_t>(f);
      }
    } else {
      return "its zero points are neither packed uint8 nor float32";
    }
  }
  if (In(n, 4) != nullptr) {
    std::optional<interpreter::Tensor> g = ConstantOf(In(n, 4));
    if (!g || g->size() != K) return "its g_idx is not a constant of K elements";
    for (int64_t k = 0; k < K; ++k) {
      const int64_t v =
          g->dtype() == ir::DataType::kInt64 ? g->data<int64_t>()[k] : g->data<int32_t>()[k];
      if (v != k / block)
        return "its g_idx reorders the groups (no blocked DequantizeLinear has that)";
    }
  }
  // Weight [K, N]: without zero points signed (q - 2^(bits-1)), with them unsigned with zero
  // points.
  const bool with_zp = !zp.empty();
  const ir::DataType qtype = bits == 4 ? (with_zp ? ir::DataType::kUint4 : ir::DataType::kInt4)
                                       : (with_zp ? ir::DataType::kUint8 : ir::DataType::kInt8);
  interpreter::Tensor q(qtype, {K, N});
  interpreter::Tensor s(ir::DataType::kFloat, {blocks, N});
  interpreter::Tensor zt(qtype, {blocks, N});
  const uint8_t* pw = w->data<uint8_t>();
  const int32_t shift = with_zp ? 0 : 1 << (bits - 1);
  for (int64_t r = 0; r < N; ++r) {
    for (int64_t k = 0; k < K; ++k) {
      const int32_t v = Unpack(pw + (r * blocks + k / block) * blob, k % block, bits) - shift;
      if (with_zp) {
        q.mutable_data<uint8_t>()[k * N + r] = static_cast<uint8_t>(v);
      } else {
        q.mutable_data<int8_t>()[k * N + r] = static_cast<int8_t>(v);
      }
    }
    for (int64_t g = 0; g < blocks; ++g) {
      s.mutable_data<float>()[g * N + r] = scales->data<float>()[r * blocks + g];
      if (with_zp) zt.mutable_data<uint8_t>()[g * N + r] = static_cast<uint8_t>(zp[r * blocks + g]);
    }
  }
  std::vector<ir::Value*> dq_inputs = {b.Constant(q.ToIr(), "_weight"),
                                       b.Constant(s.ToIr(), "_scale")};
  if (with_zp) dq_inputs.push_back(b.Constant(zt.ToIr(), "_zero_point"));
  ir::Value* weight =
      b.Op("DequantizeLinear", dq_inputs, {AttrI("axis", 0), AttrI("block_size", block)});
  ir::Value* y = b.Op("MatMul", {b.ToFloat(In(n, 0), type), weight});
  if (In(n, 5) != nullptr) y = b.Op("Add", {y, b.ToFloat(In(n, 5), type)});
  out = {b.FromFloat(y, type)};
  return "";
}

Reason GatherBlockQuantized(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 21, "DequantizeLinear with blocks"));
  std::optional<ir::DataType> qt = ElemType(In(n, 0));
  std::optional<int64_t> rank = RankOf(In(n, 0));
  if (!qt || !rank) return "the type or rank of its data is not known";
  const int64_t r = *rank;
  const int64_t gaxis = n.GetInt("gather_axis", 0), qaxis_attr = n.GetInt("quantize_axis", 1);
  const int64_t qaxis = qaxis_attr < 0 ? qaxis_attr + r : qaxis_attr;
  const int64_t block = n.GetInt("block_size", 128);
  if (block <= 0) return "block_size is not positive";
  ir::Value* data = In(n, 0);
  ir::Value* zero = In(n, 3);
  if (*qt == ir::DataType::kUint8) {
    // Packed below 8 bits along the last dim (or whole bytes), zero point 2^(bits - 1) by default:
    // unpacked here into a uint4 / uint8 constant with explicit zero points.
    const int64_t bits = n.GetInt("bits", 4);
    if (bits != 4 && bits != 8)
      return absl::StrCat("bits = ", bits, " (DequantizeLinear takes 4 and 8)");
    std::optional<interpreter::Tensor> d = ConstantOf(In(n, 0)), s = ConstantOf(In(n, 2));
    if (!d || !s) return "its uint8 data or its scales are not constants";
    std::vector<int64_t> dims = d->dims();
    const int64_t per = 8 / bits, packed_last = dims.back();
    if (bits == 4) dims.back() *= 2;
    const ir::DataType t = bits == 4 ? ir::DataType::kUint4 : ir::DataType::kUint8;
    interpreter::Tensor q(t, dims);
    const int64_t count = q.size(), last = dims.back();
    for (int64_t i = 0; i < count; ++i) {
      const int64_t row = i / last, col = i % last;
      q.mutable_data<uint8_t>()[i] =
          bits == 8
              ? d->data<uint8_t>()[i]
              : (d->data<uint8_t>()[row * packed_last + col / per] >> ((col % per) * bits)) & 15;
    }
    interpreter::Tensor z(t, s->dims());
    if (zero != nullptr) {
      std::optional<interpreter::Tensor> zc = ConstantOf(zero);
      if (!zc) return "its zero points are not a constant";
      const int64_t zlast = s->dims().back(), zbytes = zc->dims().empty() ? 0 : zc->dims().back();
      for (int64_t i = 0; i < z.size(); ++i) {
        const int64_t row = i / zlast, col = i % zlast;
        z.mutable_data<uint8_t>()[i] =
            bits == 8
                ? zc->data<uint8_t>()[i]
                : (zc->data<uint8_t>()[row * zbytes + col / per] >> ((col % per) * bits)) & 15;
      }
    } else {
      for (int64_t i = 0; i < z.size(); ++i)
        z.mutable_data<uint8_t>()[i] = static_cast<uint8_t>(1 << (bits - 1));
    }
    data = b.Constant(q.ToIr(), "_data");
    zero = b.Constant(z.ToIr(), "_zero_point");
  } else if (*qt != ir::DataType::kInt4 && *qt != ir::DataType::kUint4) {
    return absl::StrCat("its data is ", ir::DataTypeName(*qt),
                        " (int4, uint4 and uint8 have a standard form)");
  }
  std::vector<ir::Value*> dq = {data, In(n, 2)};
  if (zero != nullptr) dq.push_back(zero);
  ir::Value* table =
      b.Op("DequantizeLinear", dq, {AttrI("axis", qaxis), AttrI("block_size", block)});
  out = {b.Op("Gather", {table, In(n, 1)}, {AttrI("axis", gaxis)})};
  return "";
}

// ---- embeddings and rotary ----------------------------------------------------------------------

Reason EmbedLayerNorm(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 17, "LayerNormalization"));
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 2, "word_embedding", &type));
  if ((In(n, 1) != nullptr) != (In(n, 4) != nullptr))
    return "segment_ids and segment_embedding are not given together";
  ir::Value* ids = In(n, 0);
  ir::Value* sum = b.Op("Gather", {b.ToFloat(In(n, 2), type), ids}, {AttrI("axis", 0)});
  ir::Value* positions;
  if (In(n, 8) != nullptr) {
    positions = b.Op("Gather", {b.ToFloat(In(n, 3), type), In(n, 8)}, {AttrI("axis", 0)});
  } else {
    // The first S rows, S = input_ids' dim 1.
    ir::Value* shape = b.Op("Shape", {ids});
    ir::Value* len =
        b.Op("Slice", {shape, b.Ints({1}, "_one"), b.Ints({2}, "_two"), b.Ints({0}, "_zero")});
    positions =
        b.Op("Slice", {b.ToFloat(In(n, 3), type), b.Ints({0}, "_zero"), len, b.Ints({0}, "_zero")});
  }
  sum = b.Op("Add", {sum, positions});
  if (In(n, 1) != nullptr) {
    sum = b.Op("Add",
               {sum, b.Op("Gather", {b.ToFloat(In(n, 4), type), In(n, 1)}, {AttrI("axis", 0)})});
  }
  ir::Value* y = b.Op(
      "LayerNormalization", {sum, b.ToFloat(In(n, 5), type), b.ToFloat(In(n, 6), type)},
      {AttrI("axis", -1), AttrF("epsilon", n.GetFloat("epsilon", 1e-12f)), AttrI("stash_type", 1)});
  out = {b.FromFloat(y, type), nullptr, nullptr};
  if (Used(n, 1)) {
    if (In(n, 7) != nullptr) {
      // The count of 1s in each mask row.
      ir::Value* ones = b.Op(
          "Equal",
          {In(n, 7),
           b.Constant(ir::Tensor::FromVector<int32_t>(ir::DataType::kInt32, {}, {1}), "_one_i32")});
      out[1] = b.Op("ReduceSum", {b.Cast(ones, ir::DataType::kInt32), b.Ints({1}, "_axes")},
                    {AttrI("keepdims", 0)});
    } else {
      ir::Value* batch =
          b.Op("Slice", {b.Op("Shape", {ids}), b.Ints({0}, "_zero"), b.Ints({1}, "_one")});
      ir::Tensor zero = ir::Tensor::FromVector<int32_t>(ir::DataType::kInt32, {1}, {0});
      ir::Node* zeros = b.Node("ConstantOfShape", {batch});
      b.SetAttribute(*zeros, ir::Attribute::FromTensor("value", std::move(zero)));
      out[1] = zeros->output(0);
    }
  }
  if (Used(n, 2)) out[2] = b.FromFloat(sum, type);
  return "";
}

Reason RotaryEmbedding(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 23, "RotaryEmbedding"));
  if (n.GetInt("is_packed_batching", 0) != 0) return "is_packed_batching has no standard form";
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "input", &type));
  std::optional<std::vector<int64_t>> x = Dims(In(n, 0)), cos = Dims(In(n, 2)),
                                      pos = Dims(In(n, 1));
  if (!x || !cos || !pos || cos->size() != 2)
    return "the shapes of input, position_ids and cos_cache are not known";
  const int64_t width = (*cos)[1];
  int64_t heads = n.GetInt("num_heads", 0), head_size = -1;
  const int64_t rot = n.GetInt("rotary_embedding_dim", 0);
  if (x->size() == 4) {
    head_size = (*x)[3];
  } else if (x->size() == 3) {
    if (heads > 0) {
      if ((*x)[2] > 0) head_size = (*x)[2] / heads;
    } else if (width > 0 && (*x)[2] > 0) {
      head_size = 2 * width;
      heads = (*x)[2] / head_size;
    } else {
      return "num_heads is not given and the hidden size or the caches' width is not known";
    }
  } else {
    return "its input is neither 3-D nor 4-D";
  }
  // RotaryEmbedding-23 takes caches exactly rotary_embedding_dim / 2 (or head_size / 2) wide.
  const int64_t need = rot > 0 ? rot / 2 : (head_size > 0 ? head_size / 2 : -1);
  if (width < 0 || need != width) {
    return absl::StrCat("its caches are ", width,
                        " wide where RotaryEmbedding-23 needs the rotated half (", need, ")");
  }
  ir::Value* position_ids = In(n, 1);
  if (pos->size() == 1) {
    // A start offset: positions start + [0, S) for every sequence, [B, S].
    const int64_t seq_axis = x->size() == 4 ? 2 : 1;
    ir::Value* shape = b.Op("Shape", {In(n, 0)});
    ir::Value* range = b.Range(b.Int64(0, "_start"), b.Dim(In(n, 0), seq_axis));
    ir::Value* start = b.Cast(position_ids, ir::DataType::kInt64);
    ir::Value* row = b.Op("Unsqueeze", {b.Op("Add", {range, start}), b.Ints({0}, "_zero")});
    ir::Value* bs =
        b.Op("Concat",
             {b.Op("Slice", {shape, b.Ints({0}, "_zero"), b.Ints({1}, "_one")}),
              b.Op("Slice", {shape, b.Ints({seq_axis}, "_s0"), b.Ints({seq_axis + 1}, "_s1")})},
             {AttrI("axis", 0)});
    position_ids = b.Op("Expand", {row, bs});
  } else if (pos->size() != 2) {
    return "its position_ids are neither [B, S] nor [1]";
  } else if (ElemType(position_ids) != ir::DataType::kInt64) {
    position_ids = b.Cast(position_ids, ir::DataType::kInt64);
  }
  std::vector<Attr> attrs = {AttrI("interleaved", n.GetInt("interleaved", 0))};
  if (x->size() == 3) attrs.push_back(AttrI("num_heads", heads));
  if (rot > 0) attrs.push_back(AttrI("rotary_embedding_dim", rot));
  ir::Value* y = b.Op("RotaryEmbedding",
                      {b.ToFloat(In(n, 0), type), b.ToFloat(In(n, 2), type),
                       b.ToFloat(In(n, 3), type), position_ids},
                      std::move(attrs));
  out = {b.FromFloat(y, type)};
  return "";
}

// ---- attention ----------------------------------------------------------------------------------

// x [B, S, heads * H] -> [B, heads, S, H].
ir::Value* ToHeads(Builder& b, ir::Value* x, int64_t heads, int64_t head_size) {
  ir::Value* split = b.Op("Reshape", {x, b.Ints({0, 0, heads, head_size}, "_heads")});
  return b.Op("Transpose", {split}, {AttrIs("perm", {0, 2, 1, 3})});
}

// The number of keys T of a contrib attention (its past's and its new ones), an int64 scalar
// made when a mask needs it.
using KeyCount = std::function<ir::Value*()>;

// The additive mask a contrib attention adds to its scores: `filter` where the int32 key mask [B,
// T] or [B, S, T] holds 0 or less (or from key lengths [B] on, T = key_count()), plus
// attention_bias [B|1, N|1, S, T]; as Attention-23's float attn_mask [B|1, N|1, S, T] (the key mask
// expanded to the query rows: onnxruntime takes no 1 at dim -2). Null when neither is given; a
// reason when the key mask has another form. Unidirectional is Attention-23's is_causal beside it:
// both kernels leave keys after the query out of the softmax, whatever the mask adds to the others.
Reason ScoreMask(Builder& b, ir::Value* key_mask, ir::Value* attention_bias, ir::Value* query,
                 const KeyCount& key_count, float filter, ir::Value** mask) {
  *mask = nullptr;
  if (attention_bias != nullptr) {
    std::optional<int64_t> r = RankOf(attention_bias);
    if (r != 4) return "its attention_bias is not known to be 4-D";
    if (ElemType(attention_bias) != ir::DataType::kFloat)
      return "its attention_bias is not float32";
    *mask = attention_bias;
  }
  if (key_mask == nullptr) return "";
  std::optional<int64_t> r = RankOf(key_mask);
  if (ElemType(key_mask) != ir::DataType::kInt32) return "its key mask is not int32";
  ir::Value* masked;
  if (r == 1) {
    // Key lengths [B] (EmbedLayerNormalization's mask_index): key j is masked from lengths[b] on.
    // Or [2B], exclusive ends then inclusive starts: masked from ends[b] on and before starts[b].
    // Which one is told by the mask's dim: the query's batch dim, or twice it (known numbers).
    std::optional<ir::Shape> ms = key_mask->type().shape(), qs = query->type().shape();
    if (!ms || !qs || qs->rank() < 1 || ms->dim(0).is_unknown()) {
      return "the shape of its 1-D key mask is not known";
    }
    const bool lengths_form = ms->dim(0) == qs->dim(0);
    const bool ends_and_starts = !lengths_form && ms->dim(0).is_known() && qs->dim(0).is_known() &&
                                 ms->dim(0).value() == 2 * qs->dim(0).value();
    if (!lengths_form && !ends_and_starts) {
      return "its 1-D key mask is not known to hold one length per sequence, or an end and a "
             "start";
    }
    ir::Value* j = b.Op(
        "Unsqueeze", {b.Range(b.Int64(0, "_start"), key_count()), b.Ints({0}, "_zero")});  // [1, T]
    ir::Value* bounds = b.Cast(key_mask, ir::DataType::kInt64);
    ir::Value* ends = bounds;
    ir::Value* starts = nullptr;
    if (ends_and_starts) {
      ir::Node* halves = b.Node("Split", {bounds}, {AttrI("axis", 0), AttrI("num_outputs", 2)}, 2);
      ends = halves->output(0);
      starts = halves->output(1);
    }
    ir::Value* out_of_range =
        b.Op("GreaterOrEqual", {j, b.Op("Unsqueeze", {ends, b.Ints({1}, "_one")})});
    if (starts != nullptr) {
      out_of_range =
          b.Op("Or",
               {out_of_range, b.Op("Less", {j, b.Op("Unsqueeze", {starts, b.Ints({1}, "_one")})})});
    }
    masked = b.Cast(out_of_range, ir::DataType::kFloat);  // [B, T]
  } else if (r == 2 || r == 3) {
    // [B, T], or [B, S, T] per query. onnxruntime keeps a key where the mask is > 0 (a 2 keeps
    // it, a -1 masks it).
    ir::Value* zero =
        b.Constant(ir::Tensor::FromVector<int32_t>(ir::DataType::kInt32, {}, {0}), "_zero_i32");
    masked = b.Cast(b.Op("LessOrEqual", {key_mask, zero}), ir::DataType::kFloat);
  } else {
    return "its key mask is neither key lengths [B] nor [B, total length] nor [B, S, total length] "
           "(4-D masks have no form here)";
  }
  ir::Value* add = b.Op("Mul", {masked, b.Scalar(filter, ir::DataType::kFloat, "_filter")});
  if (r == 3) {
    add = b.Op("Unsqueeze", {add, b.Ints({1}, "_one")});  // [B, 1, S, T]
  } else {
    add = b.Op("Unsqueeze", {add, b.Ints({1, 2}, "_axes")});
    ir::Value* rows =
        b.Op("Slice", {b.Op("Shape", {query}), b.Ints({1}, "_one"), b.Ints({2}, "_two")});
    ir::Value* target =
        b.Op("Concat", {b.Ints({1, 1}, "_ones"), rows, b.Ints({1}, "_one")}, {AttrI("axis", 0)});
    add = b.Op("Expand", {add, target});
  }
  *mask = *mask == nullptr ? add : b.Op("Add", {add, *mask});
  return "";
}

Reason FloatOnly(const ir::Node& n, size_t i, const char* name) {
  ir::DataType type;
  KEEP_IF(FloatInputType(n, i, name, &type));
  if (type != ir::DataType::kFloat) return absl::StrCat("input '", name, "' is not float32");
  return "";
}

// attention_bias [.., .., S, W] is read over T keys by the contrib kernels and must be exactly T
// wide for Attention-23 (which pads a narrower mask with -inf and refuses a wider one).
Reason BiasWidth(const ir::Node& n, size_t i, int64_t total) {
  if (In(n, i) == nullptr) return "";
  std::optional<std::vector<int64_t>> d = Dims(In(n, i));
  if (!d || d->size() != 4 || (*d)[3] < 0 || total < 0 || (*d)[3] != total)
    return "its attention_bias is not known to be exactly as wide as the keys";
  return "";
}

// contrib Attention: MatMul [+ bias] -> Split -> Attention (23) on 3-D Q, K, V. A past [2, B, N, P,
// H] (the GPT-2 decoders of onnxruntime's transformer optimizer) is split into Attention-23's
// past_key and past_value [B, N, P, H], and present [2, B, N, P + S, H] stacked from its
// present_key and present_value; unidirectional is is_causal, which both count from the past's end
// (query i sees keys j <= P + i).
Reason ContribAttention(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 23, "Attention"));
  KEEP_IF(FloatOnly(n, 0, "input"));
  if (n.GetInt("do_rotary", 0) != 0) return "do_rotary rotates inside the packed projection";
  if (In(n, 6) != nullptr || n.GetInt("past_present_share_buffer", 0) != 0) {
    return "past_sequence_length and past_present_share_buffer (a cache buffer of its own length) "
           "have no standard form here";
  }
  const int64_t heads = n.GetInt("num_heads", 0);
  std::optional<std::vector<int64_t>> w = Dims(In(n, 1));
  if (heads <= 0 || !w || w->size() != 2 || (*w)[1] <= 0)
    return "the weights' width or num_heads is not known";
  std::vector<int64_t> sizes = n.GetInts("qkv_hidden_sizes");
  if (sizes.empty()) sizes = {(*w)[1] / 3, (*w)[1] / 3, (*w)[1] / 3};
  if (sizes.size() != 3 || sizes[0] != sizes[1] || sizes[0] + sizes[1] + sizes[2] != (*w)[1] ||
      sizes[0] % heads != 0 || sizes[2] % heads != 0) {
    return "its weights do not split into Q, K and V of num_heads heads";
  }
  const int64_t H = sizes[0] / heads;
  ir::Value* past = In(n, 4);
  const bool cache = past != nullptr || Used(n, 1);
  if (cache && sizes[2] != sizes[0])
    return "its past/present needs V's head size equal to Q's (qkv_hidden_sizes)";
  std::optional<std::vector<int64_t>> xd = Dims(In(n, 0));
  int64_t total = xd && xd->size() == 3 ? (*xd)[1] : -1;  // -1: not known
  if (past != nullptr) {
    std::optional<std::vector<int64_t>> pd = Dims(past);
    if (!pd || pd->size() != 5 || (*pd)[0] != 2 || (*pd)[2] != heads || (*pd)[4] != H)
      return absl::StrCat("its past is not known to be [2, B, ", heads, ", P, ", H, "]");
    total = total < 0 || (*pd)[3] < 0 ? -1 : total + (*pd)[3];
  }
  KEEP_IF(BiasWidth(n, 5, total));
  const KeyCount key_count = [&]() -> ir::Value* {
    ir::Value* t = b.Dim(In(n, 0), 1);
    return past == nullptr ? t : b.Op("Add", {b.Dim(past, 3), t});
  };
  ir::Value* mask;
  KEEP_IF(ScoreMask(b, In(n, 3), In(n, 5), In(n, 0), key_count,
                    n.GetFloat("mask_filter_value", -10000.0f), &mask));
  ir::Value* qkv = b.Op("MatMul", {In(n, 0), In(n, 1)});
  if (In(n, 2) != nullptr) qkv = b.Op("Add", {qkv, In(n, 2)});
  ir::Node* split = b.Node("Split", {qkv, b.Ints(sizes, "_split")}, {AttrI("axis", -1)}, 3);
  std::vector<Attr> attrs = {AttrI("q_num_heads", heads), AttrI("kv_num_heads", heads)};
  if (n.FindAttribute("scale") != nullptr) attrs.push_back(AttrF("scale", n.GetFloat("scale", 1)));
  if (n.GetInt("unidirectional", 0) != 0) attrs.push_back(AttrI("is_causal", 1));
  std::vector<ir::Value*> inputs = {split->output(0), split->output(1), split->output(2)};
  if (mask != nullptr || past != nullptr) inputs.push_back(mask);
  ir::Value* zero = nullptr;
  if (past != nullptr) {
    zero = b.Ints({0}, "_zero");
    ir::Node* halves = b.Node("Split", {past}, {AttrI("axis", 0), AttrI("num_outputs", 2)}, 2);
    inputs.push_back(b.Op("Squeeze", {halves->output(0), zero}));
    inputs.push_back(b.Op("Squeeze", {halves->output(1), zero}));
  }
  const bool present = Used(n, 1);
  ir::Node* att = b.Node("Attention", inputs, std::move(attrs), past != nullptr ? 3 : 1);
  out = {att->output(0), nullptr};
  if (present) {
    // Without a past the present is the new K and V in heads.
    ir::Value* pk = past != nullptr ? att->output(1) : ToHeads(b, split->output(1), heads, H);
    ir::Value* pv = past != nullptr ? att->output(2) : ToHeads(b, split->output(2), heads, H);
    if (zero == nullptr) zero = b.Ints({0}, "_zero");
    out[1] = b.Op("Concat", {b.Op("Unsqueeze", {pk, zero}), b.Op("Unsqueeze", {pv, zero})},
                  {AttrI("axis", 0)});
  }
  return "";
}

Reason MultiHeadAttention(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 23, "Attention"));
  KEEP_IF(FloatOnly(n, 0, "query"));
  KEEP_IF(Unused(n, 3, "qk"));
  if (In(n, 8) != nullptr || In(n, 9) != nullptr)
    return "past_sequence_length and cache_indirection have no standard form";
  const int64_t heads = n.GetInt("num_heads", 0);
  if (heads <= 0) return "num_heads is not positive";
  if (RankOf(In(n, 0)) != 3 || In(n, 1) == nullptr || In(n, 2) == nullptr ||
      RankOf(In(n, 1)) != 3 || RankOf(In(n, 2)) != 3) {
    return "only separate 3-D query, key and value have a standard form here (not packed or in "
           "heads)";
  }
  const bool past = In(n, 6) != nullptr;
  if (past != (In(n, 7) != nullptr)) return "past_key and past_value are not given together";
  // Unidirectional counts from the past's end in both (query i sees keys j <= P + i).
  const bool causal = n.GetInt("unidirectional", 0) != 0;
  if (!past && (Used(n, 1) || Used(n, 2))) return "its present outputs are used without a past";
  ir::Value* q = In(n, 0);
  ir::Value* k = In(n, 1);
  ir::Value* v = In(n, 2);
  if (In(n, 3) != nullptr) {
    std::optional<std::vector<int64_t>> qd = Dims(q), vd = Dims(v);
    if (!qd || !vd || (*qd)[2] <= 0 || (*vd)[2] <= 0)
      return "the hidden sizes of query and value are not known";
    ir::Node* split = b.Node("Split", {In(n, 3), b.Ints({(*qd)[2], (*qd)[2], (*vd)[2]}, "_split")},
                             {AttrI("axis", 0)}, 3);
    q = b.Op("Add", {q, split->output(0)});
    k = b.Op("Add", {k, split->output(1)});
    v = b.Op("Add", {v, split->output(2)});
  }
  ir::Value* mask;
  std::optional<std::vector<int64_t>> kd = Dims(In(n, 1)), pd = Dims(In(n, 6));
  int64_t total = kd ? (*kd)[1] : -1;
  if (past) total = total < 0 || !pd || pd->size() != 4 || (*pd)[2] < 0 ? -1 : total + (*pd)[2];
  KEEP_IF(BiasWidth(n, 5, total));
  const KeyCount key_count = [&]() -> ir::Value* {
    ir::Value* t = b.Dim(In(n, 1), 1);
    return past ? b.Op("Add", {b.Dim(In(n, 6), 2), t}) : t;
  };
  KEEP_IF(ScoreMask(b, In(n, 4), In(n, 5), In(n, 0), key_count,
                    n.GetFloat("mask_filter_value", -10000.0f), &mask));
  std::vector<Attr> attrs = {AttrI("q_num_heads", heads), AttrI("kv_num_heads", heads)};
  if (n.FindAttribute("scale") != nullptr) attrs.push_back(AttrF("scale", n.GetFloat("scale", 1)));
  if (causal) attrs.push_back(AttrI("is_causal", 1));
  std::vector<ir::Value*> inputs = {q, k, v};
  if (mask != nullptr || past) inputs.push_back(mask);
  if (past) {
    inputs.push_back(In(n, 6));
    inputs.push_back(In(n, 7));
  }
  ir::Node* att = b.Node("Attention", inputs, std::move(attrs), past ? 3 : 1);
  out = {att->output(0), past ? att->output(1) : nullptr, past ? att->output(2) : nullptr, nullptr};
  return "";
}

// The tensors of a GroupQueryAttention in float32 (Q, K and V split when packed).
struct GqaTensors {
  ir::Value *q, *k, *v, *past_k, *past_v, *cos, *sin;
};

// GroupQueryAttention whose sequence lengths are known only at run time (a decode step of a model
// written by onnxruntime's model builder: seqlens_k = ReduceSum(attention_mask) - 1,
// total_sequence_length from its shape), as onnxruntime's CPU kernel (1.30, measured in
// tools/ort_interop) and our interpreter compute it, entry b of the batch on its own: with S new
// tokens, T_b = seqlens_k[b] + 1 and a cache of P rows, the new tokens follow P_b = T_b - S cached
// ones (P_b = 0 on a first prompt: S == total_sequence_length, or P == 0). Built from:
//   first = (S == total) or (P == 0); P_b = first ? 0 : T_b - S; positions P_b + [0, S);
//   the present [B, kvN, max(P, total), H]: the past's rows t < P_b (zero-padded to the length,
//     zeros from P_b on), then the S new rows scattered in at rows P_b.. (ScatterND);
//   a bool mask [B, 1, S, max(P, total)]: key j for query i when j < T_b and (causal) j <= P_b +
//     i and (local_window_size W) j > P_b + i - W (with softcap j > min(P_b + i, T_b - 1) - W);
//   Attention (23) on Q [B, N, S, H] (after RotaryEmbedding at the positions) over the presents.
// Attention-23 with past_key would put the new rows after all P rows of the past, which differs
// from this whenever an entry is shorter than the cache. onnxruntime's shared-buffer mode (the
// present bound to the past's memory, by the caller) leaves the past's rows after each entry's
// tokens where this has zeros: the output is the same (those rows are never attended), the
// presents differ there.
Reason GqaRuntimeLengths(Builder& b, Outputs& out, GqaTensors t, int64_t heads, int64_t kv_heads,
                         int64_t H, std::vector<Attr> attrs) {
  const ir::Node& n = b.node();
  if (RankOf(In(n, 5)) != 1) return "its seqlens_k is not known to be 1-D";
  ir::Value *q = t.q, *k = t.k, *v = t.v, *past_k = t.past_k, *past_v = t.past_v;
  const bool cache = past_k != nullptr;
  ir::Value* zero = b.Int64(0, "_zero");
  ir::Value* S = b.Dim(In(n, 0), 1);
  ir::Value* total =
      b.Op("Reshape", {b.Cast(In(n, 6), ir::DataType::kInt64), b.Ints({}, "_scalar")});
  ir::Value* lens =
      b.Op("Add", {b.Cast(In(n, 5), ir::DataType::kInt64), b.Int64(1, "_one")});  // [B]
  ir::Value* P = cache ? b.Dim(past_k, 2) : nullptr;
  ir::Value* past_len = zero;  // [B] or a scalar 0 without a cache
  ir::Value* present_len = total;
  if (cache) {
    ir::Value* first = b.Op("Or", {b.Op("Equal", {S, total}), b.Op("Equal", {P, zero})});
    past_len = b.Op("Where", {first, zero, b.Op("Sub", {lens, S})});
    present_len = b.Op("Max", {P, total});
  }
  ir::Value* steps = b.Range(zero, S);              // [S]
  ir::Value* columns = b.Range(zero, present_len);  // [T]
  ir::Value* positions =                            // [B, S] (or [1, S])
      b.Op("Add", {b.Op("Unsqueeze", {past_len, b.Ints({-1}, "_last")}), steps});
  ir::Value* batch = b.Dim(In(n, 0), 0);
  const auto to_1d = [&](ir::Value* scalar) {
    return b.Op("Unsqueeze", {scalar, b.Ints({0}, "_zero")});
  };
  // [B, S] for the rotary and the scatter.
  positions =
      b.Op("Expand", {positions, b.Op("Concat", {to_1d(batch), to_1d(S)}, {AttrI("axis", 0)})});
  q = ToHeads(b, q, heads, H);
  k = ToHeads(b, k, kv_heads, H);
  v = ToHeads(b, v, kv_heads, H);
  if (n.GetInt("do_rotary", 0) != 0) {
    std::optional<std::vector<int64_t>> cos_dims = Dims(In(n, 7));
    if (!cos_dims || cos_dims->size() != 2 || (*cos_dims)[1] <= 0 || 2 * (*cos_dims)[1] > H)
      return "the rotary caches' width is not known";
    const int64_t rotary_dim = 2 * (*cos_dims)[1];
    ir::Value* rotary_positions = In(n, 9);
    if (rotary_positions == nullptr) {
      rotary_positions = positions;
    } else if (ElemType(rotary_positions) != ir::DataType::kInt64) {
      rotary_positions = b.Cast(rotary_positions, ir::DataType::kInt64);
    }
    for (ir::Value** x : {&q, &k}) {  // 4-D [B, heads, S, H]
      std::vector<Attr> rotary = {AttrI("interleaved", n.GetInt("rotary_interleaved", 0))};
      if (rotary_dim != H) rotary.push_back(AttrI("rotary_embedding_dim", rotary_dim));
      *x = b.Op("RotaryEmbedding", {*x, t.cos, t.sin, rotary_positions}, std::move(rotary));
    }
  }
  // The presents: ScatterND indices (b, h, P_b + s) for the new rows [B, kvN, S, H].
  ir::Value* index_shape =
      b.Op("Concat", {to_1d(batch), b.Ints({kv_heads}, "_kv_heads"), to_1d(S), b.Ints({1}, "_one")},
           {AttrI("axis", 0)});
  ir::Value* batch_index =
      b.Op("Unsqueeze", {b.Range(zero, batch), b.Ints({1, 2, 3}, "_axes")});  // [B, 1, 1, 1]
  ir::Value* head_index = b.Op(
      "Unsqueeze", {b.Range(zero, b.Int64(kv_heads, "_kv_heads")), b.Ints({0, 2, 3}, "_axes")});
  ir::Value* row_index = b.Op("Unsqueeze", {positions, b.Ints({1, 3}, "_axes")});  // [B, 1, S, 1]
  ir::Value* indices =
      b.Op("Concat",
           {b.Op("Expand", {batch_index, index_shape}), b.Op("Expand", {head_index, index_shape}),
            b.Op("Expand", {row_index, index_shape})},
           {AttrI("axis", 3)});
  ir::Value* shape = b.Op("Concat",
                          {to_1d(batch), b.Ints({kv_heads}, "_kv_heads"), to_1d(present_len),
                           b.Ints({H}, "_head_size")},
                          {AttrI("axis", 0)});
  // The past's rows t < P_b, zero-padded to the present's length.
  ir::Value* pads = nullptr;
  ir::Value* keep = nullptr;
  if (cache) {
    pads = b.Op("Concat",
                {b.Ints({0, 0, 0, 0, 0, 0}, "_pads"), to_1d(b.Op("Sub", {present_len, P})),
                 b.Ints({0}, "_zero")},
                {AttrI("axis", 0)});
    keep = b.Op("Less", {b.Op("Unsqueeze", {columns, b.Ints({0}, "_zero")}),
                         b.Op("Unsqueeze", {past_len, b.Ints({1}, "_one")})});  // [B, T]
    keep = b.Op("Unsqueeze", {keep, b.Ints({1, 3}, "_axes")});                  // [B, 1, T, 1]
  }
  std::vector<ir::Value*> presents;
  for (auto [past, now] : {std::pair{past_k, k}, std::pair{past_v, v}}) {
    ir::Value* base;
    if (cache) {
      base = b.Op("Where",
                  {keep, b.Op("Pad", {past, pads}), b.Scalar(0, ir::DataType::kFloat, "_zero_f")});
    } else {
      ir::Node* zeros = b.Node("ConstantOfShape", {shape});
      b.SetAttribute(
          *zeros, ir::Attribute::FromTensor(
                      "value", ir::Tensor::FromVector<float>(ir::DataType::kFloat, {1}, {0.0f})));
      base = zeros->output(0);
    }
    presents.push_back(b.Op("ScatterND", {base, indices, now}));
  }
  // Key j for query i of entry b.
  ir::Value* j = b.Op("Unsqueeze", {columns, b.Ints({0, 1}, "_axes")});  // [1, 1, T]
  ir::Value* pos = b.Op("Unsqueeze", {positions, b.Ints({2}, "_two")});  // [B, S, 1]
  ir::Value* allowed = b.Op("Less", {j, b.Op("Unsqueeze", {lens, b.Ints({1, 2}, "_axes")})});
  if (n.GetInt("causal", 1) != 0) allowed = b.Op("And", {allowed, b.Op("LessOrEqual", {j, pos})});
  const int64_t window = n.GetInt("local_window_size", -1);
  if (window >= 0) {
    // The window ends at the query, or with softcap at min(query, T_b - 1) (onnxruntime 1.30's two
    // paths differ on padding queries of a first prompt; the interpreter follows both).
    ir::Value* end = pos;
    if (n.GetFloat("softcap", 0) > 0) {
      end = b.Op("Min", {pos, b.Op("Unsqueeze", {b.Op("Sub", {lens, b.Int64(1, "_one")}),
                                                 b.Ints({1, 2}, "_axes")})});
    }
    allowed = b.Op("And",
                   {allowed, b.Op("Greater", {j, b.Op("Sub", {end, b.Int64(window, "_window")})})});
  }
  if (n.GetInt("causal", 1) == 0 && window < 0) {
    // [B, 1, T] to the query rows: onnxruntime's Attention takes no 1 at dim -2.
    allowed = b.Op("Expand", {allowed, b.Op("Concat", {to_1d(batch), to_1d(S), to_1d(present_len)},
                                            {AttrI("axis", 0)})});
  }
  ir::Value* mask = b.Op("Unsqueeze", {allowed, b.Ints({1}, "_one")});  // [B, 1, S, T]
  ir::Value* y = b.Op("Attention", {q, presents[0], presents[1], mask}, std::move(attrs));
  y = b.Op("Transpose", {y}, {AttrIs("perm", {0, 2, 1, 3})});
  out = {b.Op("Reshape", {y, b.Ints({0, 0, heads * H}, "_hidden")}), presents[0], presents[1]};
  return "";
}

Reason GroupQueryAttention(Builder& b, Outputs& out) {
  const ir::Node& n = b.node();
  KEEP_IF(NeedsOpset(b, 23, "Attention"));
  ir::DataType type;
  KEEP_IF(FloatInputType(n, 0, "query", &type));
  const int64_t heads = n.GetInt("num_heads", 0), kv_heads = n.GetInt("kv_num_heads", 0);
  if (heads <= 0 || kv_heads <= 0 || heads % kv_heads != 0)
    return "num_heads is not a multiple of kv_num_heads";
  for (size_t i = 10; i < n.num_inputs(); ++i) {
    if (In(n, i) != nullptr)
      return "attention_bias, head_sink, quantized caches and q/k norms have no standard form here";
  }
  if (n.GetInt("smooth_softmax", 0) != 0 || n.GetInt("qk_output", 0) != 0)
    return "smooth_softmax and qk_output have no standard form here";
  const int64_t window = n.GetInt("local_window_size", -1);
  if (window == 0) return "local_window_size 0 leaves every query without a key";
  std::optional<std::vector<int64_t>> qd = Dims(In(n, 0));
  if (!qd || qd->size() != 3 || (*qd)[2] <= 0) return "the query's width is not known";
  const int64_t S = (*qd)[1];  // -1 when not known
  const bool cache = In(n, 3) != nullptr || In(n, 4) != nullptr;
  if (cache) {
    if (In(n, 3) == nullptr || In(n, 4) == nullptr)
      return "past_key and past_value are not given together";
    std::optional<std::vector<int64_t>> kd = Dims(In(n, 3)), vd = Dims(In(n, 4));
    if (!kd || !vd || kd->size() != 4 || vd->size() != 4 || (*kd)[1] != kv_heads)
      return "its KV cache is not [B, kv_num_heads, P, H]";
    if (ElemType(In(n, 3)) != type || ElemType(In(n, 4)) != type)
      return "its KV cache is not of the query's type (quantized caches have no standard form)";
  }
  // The simple forms, where the lengths are constants: without a cache, total_sequence_length S
  // (keys are the new ones); with a cache [B, kv_heads, P, H], every sequence full (seqlens_k the
  // constant P + S - 1, total P + S), where Attention-23's concatenation of the past matches
  // GroupQueryAttention's rows. Otherwise (lengths known at run time, local windows) the general
  // form (GqaRuntimeLengths).
  int64_t P = 0;
  bool simple = window < 0 && S > 0;
  if (simple && cache) {
    P = (*Dims(In(n, 3)))[2];
    std::optional<interpreter::Tensor> lens = ConstantOf(In(n, 5));
    bool full =
        P >= 0 && lens.has_value() && lens->dtype() == ir::DataType::kInt32 && lens->size() > 0;
    for (int64_t i = 0; full && i < lens->size(); ++i) full = lens->data<int32_t>()[i] == P + S - 1;
    simple = full;
  }
  std::optional<interpreter::Tensor> total = ConstantOf(In(n, 6));
  simple = simple && total && total->size() == 1 &&
           (total->dtype() == ir::DataType::kInt32 ? total->data<int32_t>()[0]
                                                   : total->data<int64_t>()[0]) == P + S;
  const bool packed = In(n, 1) == nullptr;
  const int64_t H = packed ? (*qd)[2] / (heads + 2 * kv_heads) : (*qd)[2] / heads;
  // Other float types than float32 through float32, as the kernel computes (rounded once at the
  // end).
  ir::Value* q = b.ToFloat(In(n, 0), type);
  ir::Value* k = b.ToFloat(In(n, 1), type);
  ir::Value* v = b.ToFloat(In(n, 2), type);
  ir::Value* past_k = b.ToFloat(In(n, 3), type);
  ir::Value* past_v = b.ToFloat(In(n, 4), type);
  ir::Value* cos = b.ToFloat(In(n, 7), type);
  ir::Value* sin = b.ToFloat(In(n, 8), type);
  if (packed) {
    ir::Node* split =
        b.Node("Split", {q, b.Ints({heads * H, kv_heads * H, kv_heads * H}, "_split")},
               {AttrI("axis", 2)}, 3);
    q = split->output(0);
    k = split->output(1);
    v = split->output(2);
  }
  std::vector<Attr> attrs;
  const float scale = n.GetFloat("scale", 0);
  if (scale != 0) attrs.push_back(AttrF("scale", scale));
  // Attention-23 caps the scores before its mask (as the ONNX reference does), so masked keys stay
  // out as GroupQueryAttention leaves them out.
  const float softcap = n.GetFloat("softcap", 0);
  if (softcap > 0) attrs.push_back(AttrF("softcap", softcap));
  if (!simple) {
    KEEP_IF(GqaRuntimeLengths(b, out, {q, k, v, past_k, past_v, cos, sin}, heads, kv_heads, H,
                              std::move(attrs)));
    for (ir::Value*& o : out) o = b.FromFloat(o, type);
    return "";
  }
  attrs.push_back(AttrI("q_num_heads", heads));
  attrs.push_back(AttrI("kv_num_heads", kv_heads));
  ir::Value* shape = b.Op("Shape", {In(n, 0)});
  ir::Value* batch = b.Op("Slice", {shape, b.Ints({0}, "_zero"), b.Ints({1}, "_one")});
  auto range = [&](int64_t begin, int64_t end) {  // [end - begin]
    return b.Range(b.Int64(begin, "_start"), b.Int64(end, "_len"));
  };
  ir::Value* steps = range(0, S);
  if (n.GetInt("do_rotary", 0) != 0) {
    std::optional<std::vector<int64_t>> cos_dims = Dims(In(n, 7));
    if (!cos_dims || cos_dims->size() != 2 || (*cos_dims)[1] <= 0 || 2 * (*cos_dims)[1] > H)
      return "the rotary caches' width is not known";
    const int64_t rotary_dim = 2 * (*cos_dims)[1];
    ir::Value* positions = In(n, 9);
    if (positions == nullptr) {
      // The new rows' positions, P..P+S-1 in every sequence (0..S-1 for a first prompt).
      positions = b.Op("Expand",
                       {b.Op("Unsqueeze", {cache ? range(P, P + S) : steps, b.Ints({0}, "_zero")}),
                        b.Op("Concat", {batch, b.Ints({S}, "_len")}, {AttrI("axis", 0)})});
    } else if (ElemType(positions) != ir::DataType::kInt64) {
      positions = b.Cast(positions, ir::DataType::kInt64);
    }
    for (ir::Value** x : {&q, &k}) {
      std::vector<Attr> rotary = {AttrI("interleaved", n.GetInt("rotary_interleaved", 0)),
                                  AttrI("num_heads", x == &q ? heads : kv_heads)};
      if (rotary_dim != H) rotary.push_back(AttrI("rotary_embedding_dim", rotary_dim));
      *x = b.Op("RotaryEmbedding", {*x, cos, sin, positions}, std::move(rotary));
    }
  }
  if (cache) {
    // Every key is in use (full sequences). Causal with a past: query i sees keys j <= P + i, as
    // onnxruntime's Attention-23 (and our interpreter) offsets is_causal by the past's length.
    if (n.GetInt("causal", 1) != 0) attrs.push_back(AttrI("is_causal", 1));
    ir::Node* att = b.Node("Attention", {q, k, v, nullptr, past_k, past_v}, std::move(attrs), 3);
    out = {b.FromFloat(att->output(0), type), b.FromFloat(att->output(1), type),
           b.FromFloat(att->output(2), type)};
    return "";
  }
  // Key j takes part in query i when j < seqlens_k[b] + 1 and (causal) j <= i.
  ir::Value* lens = b.Op("Add", {b.Cast(In(n, 5), ir::DataType::kInt64), b.Int64(1, "_one")});
  ir::Value* keys = b.Op("Less", {b.Op("Unsqueeze", {steps, b.Ints({0}, "_zero")}),
                                  b.Op("Unsqueeze", {lens, b.Ints({1}, "_one")})});  // [B, S]
  ir::Value* mask = b.Op("Unsqueeze", {keys, b.Ints({1, 2}, "_axes")});              // [B, 1, 1, S]
  if (n.GetInt("causal", 1) != 0) {
    ir::Value* order =
        b.Op("LessOrEqual", {b.Op("Unsqueeze", {steps, b.Ints({0}, "_zero")}),
                             b.Op("Unsqueeze", {steps, b.Ints({1}, "_one")})});  // [S, S]
    mask = b.Op("And", {mask, order});
  } else {
    mask = b.Op("Expand", {mask, b.Ints({1, 1, S, 1}, "_rows")});
  }
  out = {b.FromFloat(b.Op("Attention", {q, k, v, mask}, std::move(attrs)), type), nullptr, nullptr};
  if (Used(n, 1)) out[1] = b.FromFloat(ToHeads(b, k, kv_heads, H), type);
  if (Used(n, 2)) out[2] = b.FromFloat(ToHeads(b, v, kv_heads, H), type);
  return "";
}

// ---- the pass -----------------------------------------------------------------------------------

using RewriteFn = std::function<Reason(Builder&, Outputs&)>;

const RewriteFn* FindRewrite(const ir::Node& n) {
  static const auto* table = new std::vector<std::pair<std::string, RewriteFn>>{
      {"SkipLayerNormalization", [](Builder& b, Outputs& o) { return SkipLayerNorm(b, o, false); }},
      {"SkipSimplifiedLayerNormalization",
       [](Builder& b, Outputs& o) { return SkipLayerNorm(b, o, true); }},
      {"SimplifiedLayerNormalization", SimplifiedLayerNorm},
      {"FastGelu", [](Builder& b, Outputs& o) { return GeluForm(b, o, 1, "tanh"); }},
      {"BiasGelu", [](Builder& b, Outputs& o) { return GeluForm(b, o, 1, "none"); }},
      {"Gelu", [](Builder& b, Outputs& o) { return GeluForm(b, o, 0, "none"); }},
      {"QuickGelu", QuickGelu},
      {"BiasAdd", BiasAdd},
      {"FusedMatMul", FusedMatMul},
      {"MatMulNBits", MatMulNBits},
      {"GatherBlockQuantized", GatherBlockQuantized},
      {"EmbedLayerNormalization", EmbedLayerNorm},
      {"RotaryEmbedding", RotaryEmbedding},
      {"Attention", ContribAttention},
      {"MultiHeadAttention", MultiHeadAttention},
      {"GroupQueryAttention", GroupQueryAttention},
  };
  const bool ms = n.domain() == kMs;
  // onnxruntime registers SimplifiedLayerNormalization in the default domain too.
  const bool default_simplified =
      n.is_onnx_domain() && n.op_type() == "SimplifiedLayerNormalization";
  if (!ms && !default_simplified) return nullptr;
  for (const auto& [op, fn] : *table) {
    if (op == n.op_type()) return &fn;
  }
  return nullptr;
}

absl::StatusOr<int64_t> StandardizeGraph(ir::Graph& g, int64_t opset, ir::NameGenerator& names,
                                         StandardizeReport& report) {
  int64_t rewritten = 0;
  rewrite::Rewriter rw(g, opset, names, rewrite::TouchedNodes::kIgnore);
  for (ir::Node* n : g.nodes()) {
    const bool ms = n->domain() == kMs;
    const RewriteFn* fn = FindRewrite(*n);
    if (fn == nullptr) {
      if (ms) {
        report.kept.push_back(absl::StrCat(n->Describe(), ": no standard form is known for it"));
      }
      continue;
    }
    Builder b(rw, *n);
    Outputs out;
    Reason reason = (*fn)(b, out);
    if (reason.empty()) {
      for (size_t i = 0; i < n->num_outputs(); ++i) {
        if (Used(*n, i) && (i >= out.size() || out[i] == nullptr)) {
          reason =
              absl::StrCat("its output ", i, " is used and the standard form does not compute it");
        }
      }
    }
    if (!reason.empty()) {
      b.Undo();
      report.kept.push_back(absl::StrCat(n->Describe(), ": ", reason));
      continue;
    }
    std::vector<ir::Value*> old_inputs(n->inputs().begin(), n->inputs().end());
    for (size_t i = 0; i < n->num_outputs() && i < out.size(); ++i) {
      ir::Value* old = n->output(i);
      if (out[i] == nullptr || !old->has_uses()) continue;
      if (!old->type().is_none()) out[i]->set_type(old->type());
      if (!rw.ForwardUses(old, out[i])) {
        return absl::InternalError(
            absl::StrCat("standardize: cannot forward output ", i, " of ", n->Describe()));
      }
    }
    RETURN_IF_ERROR(rw.EraseNode(*n));
    // Weights only the contrib node read (packed MatMulNBits blocks) go with it.
    for (ir::Value* v : old_inputs) {
      if (v != nullptr && v->is_constant_initializer() && !v->has_uses() && v->graph() == &g) {
        RETURN_IF_ERROR(g.RemoveInitializer(v));
      }
    }
    ++rewritten;
  }
  return rewritten;
}

class StandardizePass final : public optimizer::Pass {
 public:
  static constexpr char kName[] = "standardize";
  std::string_view name() const override { return kName; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    ASSIGN_OR_RETURN(StandardizeReport report, Standardize(model, ctx));
    for (const std::string& line : report.kept) {
      if (warned_.insert(line).second) LOG(WARNING) << "standardize: kept " << line;
    }
    return report.rewritten > 0;
  }

 private:
  std::set<std::string> warned_;  // a fixed-point loop reports each kept node once
};

}  // namespace

absl::StatusOr<StandardizeReport> Standardize(ir::Model& model, optimizer::PassContext& ctx) {
  StandardizeReport report;
  const int64_t opset = model.OpsetVersion("").value_or(0);
  if (opset == 0) return report;
  // The forms depend on element types and ranks.
  schema::inference::InferOptions infer;
  infer.fill_value_info = false;
  (void)schema::inference::InferShapes(model, infer);
  ir::NameGenerator names(model);
  RETURN_IF_ERROR(ForEachGraphOuterFirst(model.graph(), [&](ir::Graph& g) -> absl::StatusOr<bool> {
                    ASSIGN_OR_RETURN(int64_t n, StandardizeGraph(g, opset, names, report));
                    g.ReleaseErased();
                    report.rewritten += n;
                    return n > 0;
                  }).status());
  ctx.CountRewrite(report.rewritten);
  return report;
}

REGISTER_PASS(StandardizePass, StandardizePass::kName,
              "rewrite onnxruntime's com.microsoft contrib operators into standard ONNX operators "
              "at the model's opset where a standard form exists (opset 23 for the most)");

}  // namespace onnx_opt::passes
