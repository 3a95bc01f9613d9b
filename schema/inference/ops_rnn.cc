// Recurrent layers (RNN, GRU, LSTM) and attention: Attention, LinearAttention, FlexAttention
// (ai.onnx.preview), SwiGLU.
#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

absl::Status Recurrent(InferenceContext& ctx) {
  const Shape* x = ctx.input_shape(0);
  const Shape* r = ctx.input_shape(2);
  int64_t layout = ctx.GetInt("layout", 0);
  Dim seq, batch;
  if (x != nullptr) {
    if (x->rank() != 3) return ctx.Error("X must have rank 3");
    seq = x->dim(layout == 0 ? 0 : 1);
    batch = x->dim(layout == 0 ? 1 : 0);
  }
  Dim hidden;
  if (const ir::Attribute* h = ctx.attr("hidden_size")) hidden = Dim::Known(h->i);
  if (r != nullptr && r->rank() == 3) hidden = MergeDims(hidden, r->dim(2));
  std::string direction = ctx.GetString("direction", "forward");
  Dim dirs = Dim::Known(direction == "bidirectional" ? 2 : 1);
  if (ctx.has_output(0)) {
    ctx.SetOutputShape(
        0, layout == 0 ? Shape({seq, dirs, batch, hidden}) : Shape({batch, seq, dirs, hidden}));
  }
  Shape state = layout == 0 ? Shape({dirs, batch, hidden}) : Shape({batch, dirs, hidden});
  for (size_t i = 1; i < ctx.num_outputs() && i < 3; ++i) {
    if (ctx.has_output(i)) ctx.SetOutputShape(i, state);
  }
  return absl::OkStatus();
}

// Q, K, V as [B, S, H*d] (3-D, heads from attributes) or [B, H, S, d] (4-D).
struct Heads {
  Dim batch, heads, seq, size;
};

Heads ReadHeads(const Shape& s, std::optional<int64_t> num_heads) {
  Heads h;
  if (s.rank() == 4) {
    h = Heads{s.dim(0), s.dim(1), s.dim(2), s.dim(3)};
  } else if (s.rank() == 3) {
    h.batch = s.dim(0);
    h.seq = s.dim(1);
    if (num_heads && *num_heads > 0) {
      h.heads = Dim::Known(*num_heads);
      const Dim& hidden = s.dim(2);
      if (hidden.is_known() && hidden.value() % *num_heads == 0) {
        h.size = Dim::Known(hidden.value() / *num_heads);
      }
    }
  }
  return h;
}

std::optional<int64_t> OptionalInt(const InferenceContext& ctx, std::string_view name) {
  if (const ir::Attribute* a = ctx.attr(name)) return a->i;
  return std::nullopt;
}

absl::Status Attention(InferenceContext& ctx) {
  const Shape* q = ctx.input_shape(0);
  const Shape* k = ctx.input_shape(1);
  const Shape* v = ctx.input_shape(2);
  if (q == nullptr) return absl::OkStatus();
  if (q->rank() != 3 && q->rank() != 4) return ctx.Error("Q must have rank 3 or 4");
  auto qh = OptionalInt(ctx, "q_num_heads");
  auto kvh = OptionalInt(ctx, "kv_num_heads");
  Heads hq = ReadHeads(*q, qh);
  Heads hk = k != nullptr ? ReadHeads(*k, kvh) : Heads{};
  Heads hv = v != nullptr ? ReadHeads(*v, kvh) : Heads{};
  Dim kv_heads = MergeDims(hk.heads, hv.heads);
  Dim total = hk.seq;
  Dim past_len;
  if (const Shape* pk = ctx.input_shape(4); pk != nullptr && pk->rank() == 4) {
    past_len = pk->dim(2);
    kv_heads = MergeDims(kv_heads, pk->dim(1));
    hk.size = MergeDims(hk.size, pk->dim(3));
    total = ctx.has_input(4) ? DimAdd(past_len, hk.seq) : hk.seq;
  }
  if (const Shape* pv = ctx.input_shape(5); pv != nullptr && pv->rank() == 4) {
    hv.size = MergeDims(hv.size, pv->dim(3));
  }
  Dim batch = MergeDims(hq.batch, MergeDims(hk.batch, hv.batch));
  if (q->rank() == 3) {
    ctx.SetOutputShape(0, Shape({batch, hq.seq, DimMul(hq.heads, hv.size)}));
  } else {
    ctx.SetOutputShape(0, Shape({batch, hq.heads, hq.seq, hv.size}));
  }
  if (ctx.has_output(1)) ctx.SetOutputShape(1, Shape({batch, kv_heads, total, hk.size}));
  if (ctx.has_output(2)) ctx.SetOutputShape(2, Shape({batch, kv_heads, total, hv.size}));
  if (ctx.has_output(3)) ctx.SetOutputShape(3, Shape({batch, hq.heads, hq.seq, total}));
  return absl::OkStatus();
}

absl::Status LinearAttention(InferenceContext& ctx) {
  const Shape* q = ctx.input_shape(0);
  const Shape* k = ctx.input_shape(1);
  const Shape* v = ctx.input_shape(2);
  if (q == nullptr) return absl::OkStatus();
  auto qh = OptionalInt(ctx, "q_num_heads");
  auto kvh = OptionalInt(ctx, "kv_num_heads");
  Heads hq = ReadHeads(*q, qh);
  Heads hk = k != nullptr ? ReadHeads(*k, kvh) : Heads{};
  Heads hv = v != nullptr ? ReadHeads(*v, kvh) : Heads{};
  Dim batch = MergeDims(hq.batch, MergeDims(hk.batch, hv.batch));
  Dim kv_heads = MergeDims(hk.heads, hv.heads);
  if (q->rank() == 3) {
    ctx.SetOutputShape(0, Shape({batch, hq.seq, DimMul(hq.heads, hv.size)}));
  } else if (q->rank() == 4) {
    ctx.SetOutputShape(0, Shape({batch, hq.heads, hq.seq, hv.size}));
  }
  if (ctx.has_output(1)) {
    if (ctx.output_type(1).is_none()) ctx.PropagateElemType(0, 1);
    Shape state({batch, kv_heads, hk.size, hv.size});
    if (const Shape* past = ctx.input_shape(3); past != nullptr && past->rank() == 4) {
      std::vector<Dim> d;
      for (size_t i = 0; i < 4; ++i) d.push_back(MergeDims(state.dim(i), past->dim(i)));
      state = Shape(d);
    }
    ctx.SetOutputShape(1, state);
  }
  return absl::OkStatus();
}

absl::Status FlexAttention(InferenceContext& ctx) {
  const Shape* q = ctx.input_shape(0);
  const Shape* k = ctx.input_shape(1);
  const Shape* v = ctx.input_shape(2);
  if (q == nullptr) return absl::OkStatus();
  if (q->rank() != 4) return ctx.Error("Q must have rank 4");
  ctx.SetOutputShape(0, Shape({q->dim(0), q->dim(1), q->dim(2),
                               v != nullptr && v->rank() == 4 ? v->dim(3) : Dim()}));
  // The modifier graphs see [B, H, L, S] scores or probabilities.
  ir::Type scores = ir::Type::Tensor(
      ctx.input_elem_type(0),
      Shape({q->dim(0), q->dim(1), q->dim(2), k != nullptr && k->rank() == 4 ? k->dim(2) : Dim()}));
  for (const char* name : {"score_mod", "prob_mod"}) {
    if (ctx.has_attr(name)) {
      RETURN_IF_ERROR(ctx.InferSubgraph(name, {scores}).status());
    }
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterRnnOps(InferenceRegistry& r) {
  r.Register("RNN", Recurrent);
  r.Register("GRU", Recurrent);
  r.Register("LSTM", Recurrent);
  r.Register("Attention", Attention);
  r.Register("LinearAttention", LinearAttention);
  r.Register("ai.onnx.preview", "FlexAttention", 1, kLatest, FlexAttention);
  r.Register("SwiGLU", BroadcastAllInputs);
}

}  // namespace onnx_opt::schema::inference
