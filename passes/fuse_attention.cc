// fuse-attention: scaled dot-product attention written out as primitives,
//   Y = MatMul(Softmax(MatMul(Q, Kt) * c  [+ mask], axis = -1), V)
// becomes Attention(Q, K, V [, mask], scale = c) where the model's opset has it (23+), in its 4-D
// form: Q [B,H,Sq,D], K [B,H,Skv,D], V [B,H,Skv,Dv]. K is Kt with its last two axes swapped: a
// Transpose producing Kt (the exporter's [B,S,H,D] -> [B,H,D,S]) takes the swap into its
// permutation, anything else gets a Transpose of its own. The scale is any product of constant
// scalar Mul/Div on Q, on Kt and on the product (1 when there is none; Attention's default would
// be 1/sqrt(D)).
//
// A second pattern takes the exporter's split into heads with it: when Q, K and V are each
// Transpose(Reshape(x [B,S,N*E], [B,S,N,E]), [0,2,1,3]) and the result goes back by
// Reshape(Transpose(y, [0,2,1,3]), [B,S,N*Ev]), the 4-D Attention becomes the 3-D one on the x's
// with q_num_heads and kv_num_heads, which splits and merges the same way (shapes from inference).
//
// Grouped-query attention: K and V made by transformers' repeat_kv (Unsqueeze at 2, Expand over the
// new axis only, Reshape merging it into the heads) go in before the repeat; Attention repeats them
// itself, query head h taking key/value head h / n as repeat_kv orders them (the 3-D form then
// says kv_num_heads). A KV cache: K and V made by Concat(past, new) on the sequence axis go in as
// past_key/past_value and the new parts; the Concats' results (present, graph outputs) become
// Attention's present_key/present_value when every other use of them comes after it, and else
// stay as they are (Attention's presents then go unused: onnxruntime refuses a past without them).
// MergeHeads takes both along.
//
// Soft-capped scores, c * Tanh(scores / c) before the mask (Gemma 2), give Attention's softcap = c.
// A causal mask computed in the graph (causal_mask.h) gives is_causal = 1 and no mask when no past
// goes into Attention (see MatchAndRewrite); a float softmax between Casts of float16 scores gives
// softmax_precision = 1; a scale factor computed from known dims is evaluated into `scale`.
//
// Exact only where Attention computes the same thing, so it fuses when: all three are rank 4 with
// the same batch and head dims (MatMul would broadcast them, Attention does not), of one float
// type; the Softmax is over the last axis; the scale is positive (Attention scales Q and K by its
// square root); the mask (an Add operand) has the scores' element type and broadcasts to the
// scores without changing them.
//
// The mask is written in a form onnxruntime runs too. Its Attention-23 kernel (1.30, CPU) takes
// only masks of rank 2, 3 or 4 whose second-to-last dim is the query length Sq itself, not 1
// broadcast to it ([Sq,Skv], [1|H,Sq,Skv], [1|B,1|H,Sq,Skv]; measured by tools/ort_interop). So
// a mask of rank 1, or with 1 there (a BERT key-padding mask [B,1,1,Skv], a [1,Skv] row), goes
// through an Expand to Sq rows first: [Sq,Skv] from rank 1, the same rank with Sq at -2 otherwise.
// A mask whose last dim is not surely Skv (1, or a dim inference left unknown, as the sequence
// axis of an exported BERT becomes after its position ids are sliced to the input's length) is
// expanded to Skv too: Attention pads a shorter mask with -inf instead of broadcasting it, and the
// original ran only with that dim 1 or Skv. The lengths come from constants when known; else
// from the mask's own last dim when it is that length (self-attention with a key-padding mask:
// the same Expand then serves every layer, and cse merges them), else from the value before the
// split into heads (which MergeHeads then still takes), else from Q or V.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "ir/constant_value.h"
#include "optimizer/pass_registry.h"
#include "passes/causal_mask.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

bool IsOne(const ir::Dim& d) { return d.is_known() && d.value() == 1; }

// The value of a one-element `v` computed from constants and known dims alone (torch's
// scaled_dot_product_attention without a scale computes 1/sqrt(E) from the query's shape, its
// dynamo exporter with CastLike, which folding leaves): Shape, Gather or Slice of it, Cast or
// CastLike to float, double or int64, Sqrt, Reciprocal, Neg, Add, Sub, Mul, Div, Pow, and Squeeze,
// Unsqueeze, Reshape, Identity; each step rounded to float when its value is float.
std::optional<double> ShapeScalar(const ir::Value* v, const ir::Graph& graph, int depth = 0) {
  if (v == nullptr || depth > 16) return std::nullopt;
  if (ir::GetConstantTensor(v) != nullptr) return ScalarConstant(v);
  const ir::Node* n = v->producer();
  if (n == nullptr || n->graph() != &graph || !n->is_onnx_domain() || n->num_outputs() != 1 ||
      !n->has_input(0)) {
    return std::nullopt;
  }
  const std::string& op = n->op_type();
  std::optional<double> x;
  if (op == "Shape" || op == "Gather" || op == "Slice") {
    const ir::Node* shape = op == "Shape" ? n : ProducerOf(n->input(0), "Shape", &graph);
    std::optional<std::vector<ir::Dim>> dims =
        shape != nullptr ? DimsReadByShape(*shape) : std::nullopt;
    if (!dims) return std::nullopt;
    int64_t index = 0;
    if (op != "Shape") {
      // One dim, picked by Gather's index or by Slice's start (and an end one past it, step 1).
      std::optional<double> start =
          n->num_inputs() > 1 ? ScalarConstant(n->input(1)) : std::nullopt;
      if (!start) return std::nullopt;
      index = static_cast<int64_t>(*start);
      if (index < 0) index += static_cast<int64_t>(dims->size());
      if (op == "Slice") {
        std::optional<double> end =
            n->num_inputs() > 2 ? ScalarConstant(n->input(2)) : std::nullopt;
        const double size = static_cast<double>(dims->size());
        if (!end || n->num_inputs() > 3) return std::nullopt;
        if ((*end < 0 ? *end + size : std::min(*end, size)) != index + 1) return std::nullopt;
      } else if (n->GetInt("axis", 0) != 0) {
        return std::nullopt;
      }
    } else if (dims->size() != 1) {
      return std::nullopt;
    }
    if (index < 0 || index >= static_cast<int64_t>(dims->size()) || !(*dims)[index].is_known())
      return std::nullopt;
    x = static_cast<double>((*dims)[index].value());
  } else if (op == "Squeeze" || op == "Unsqueeze" || op == "Reshape" || op == "Identity") {
    x = ShapeScalar(n->input(0), graph, depth + 1);
  } else if (op == "Cast" || op == "CastLike") {
    const ir::Value* like = op == "CastLike" && n->num_inputs() == 2 ? n->input(1) : nullptr;
    const ir::DataType to = like != nullptr && like->type().is_tensor()
                                ? like->type().elem_type()
                                : static_cast<ir::DataType>(n->GetInt("to", 0));
    if (op == "CastLike" && like == nullptr) return std::nullopt;
    x = ShapeScalar(n->input(0), graph, depth + 1);
    if (x && to == ir::DataType::kInt64) x = std::trunc(*x);
    if (to != ir::DataType::kFloat && to != ir::DataType::kDouble && to != ir::DataType::kInt64)
      return std::nullopt;
  } else if (op == "Sqrt" || op == "Reciprocal" || op == "Neg") {
    std::optional<double> a = ShapeScalar(n->input(0), graph, depth + 1);
    if (!a) return std::nullopt;
    x = op == "Sqrt" ? std::sqrt(*a) : op == "Neg" ? -*a : 1.0 / *a;
  } else if ((op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Pow") &&
             n->num_inputs() == 2) {
    std::optional<double> a = ShapeScalar(n->input(0), graph, depth + 1);
    std::optional<double> b = a ? ShapeScalar(n->input(1), graph, depth + 1) : std::nullopt;
    if (!b) return std::nullopt;
    x = op == "Add"   ? *a + *b
        : op == "Sub" ? *a - *b
        : op == "Mul" ? *a * *b
        : op == "Div" ? *a / *b
                      : std::pow(*a, *b);
  }
  if (!x || !std::isfinite(*x)) return std::nullopt;
  if (FloatElemType(v) == ir::DataType::kFloat) x = static_cast<float>(*x);
  return x;
}

// A one-element value known before run time (a constant, or ShapeScalar's), bound to `slot`, of a
// rank that does not raise the scores' past 4.
ValuePattern StaticScalar(const ScalarSlot& slot) {
  return ValuePattern([slot = &slot](ir::Value* v, MatchState& state) {
    if (const ir::Tensor* t = ir::GetConstantTensor(v); t != nullptr) {
      if (t->dims().size() > 4) return false;
    } else {
      const ir::Shape* s = ShapeOf(v);
      if (s == nullptr || s->rank() > 4) return false;
      for (const ir::Dim& d : s->dims()) {
        if (!d.is_known() || d.value() != 1) return false;
      }
    }
    std::optional<double> c = ShapeScalar(v, state.graph());
    if (!c.has_value()) return false;
    state.Bind(*slot, *c);
    return true;
  });
}

// `operand`, optionally (used once) multiplied by a scalar known before run time bound to `mul` or
// divided by one bound to `div`.
ValuePattern Scaled(ValuePattern operand, const ScalarSlot& mul, const ScalarSlot& div) {
  return OneOf({Op("Mul", {operand, StaticScalar(mul)}).OneUse(),
                Op("Div", {operand, StaticScalar(div)}).OneUse(), operand});
}

// The mask broadcasts to `scores` ([B,H,Sq,Skv]) leaving them as they are: each dim but the last is
// that of the scores or 1. The last may be anything not surely other than Skv or 1 (a run of the
// original needs it to be one of them, since MatMul(probs, V) takes Skv); *keys_sure says whether
// it surely is Skv, else the mask is expanded to Skv (Attention pads a shorter mask with -inf
// instead of broadcasting it).
bool MaskFits(const ir::Shape& mask, const std::vector<ir::Dim>& scores, bool* keys_sure) {
  if (mask.rank() < 1 || mask.rank() > scores.size()) return false;
  const size_t offset = scores.size() - mask.rank();
  for (size_t i = 0; i + 1 < mask.rank(); ++i) {
    if (!SameDim(mask.dim(i), scores[offset + i]) && !IsOne(mask.dim(i))) return false;
  }
  const ir::Dim& last = mask.dim(mask.rank() - 1);
  const ir::Dim& skv = scores.back();
  *keys_sure = SameDim(last, skv);
  return *keys_sure || IsOne(last) || !last.is_known() || !skv.is_known();
}

// Nodes and initializers added for a replacement, removed again when it does not go ahead.
struct Added {
  std::vector<ir::Node*> nodes;
  std::vector<ir::Value*> initializers;

  absl::Status Undo(Rewriter& rw) {
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      rw.RemoveAllInputs(**it);
      if (absl::Status s = rw.EraseNode(**it); !s.ok()) return s;
    }
    return rw.graph().RemoveInitializers(initializers);
  }
};

ir::Value* AddNodeBefore(ir::Node& pos, const std::string& op,
                         const std::vector<ir::Value*>& inputs, const std::string& name,
                         Rewriter& rw, Added& added) {
  ir::Node* n = rw.InsertOpBefore(pos, op, inputs, rw.names().Fresh(name));
  added.nodes.push_back(n);
  return n->output(0);
}

ir::Value* AddInts(const std::vector<int64_t>& values, const std::string& name, Rewriter& rw,
                   Added& added) {
  ir::Value* v =
      rw.AddInitializer(ir::Tensor::FromVector<int64_t>(
                            ir::DataType::kInt64, {static_cast<int64_t>(values.size())}, values),
                        name);
  added.initializers.push_back(v);
  return v;
}

// The [B, S, N*E] value that `heads` ([B, N, S, E]) was made from by Transpose(Reshape(x),
// [0,2,1,3]), when there is one (the split MergeHeads takes into Attention); null otherwise.
ir::Value* BeforeSplit(ir::Value* heads, Rewriter& rw) {
  ir::Node* transpose = ProducerOf(heads, "Transpose", &rw.graph());
  if (transpose == nullptr || transpose->GetInts("perm") != std::vector<int64_t>{0, 2, 1, 3})
    return nullptr;
  ir::Node* reshape = ProducerOf(transpose->input(0), "Reshape", &rw.graph());
  if (reshape == nullptr || !reshape->has_input(0)) return nullptr;
  const ir::Shape* xs = ShapeOf(reshape->input(0));
  const ir::Shape* hs = ShapeOf(heads);
  if (xs == nullptr || hs == nullptr || xs->rank() != 3 || !SameDim(xs->dim(1), hs->dim(2)))
    return nullptr;
  return reshape->input(0);
}

// A dim of the Expand target: a number, or a 1-D value holding it at run time.
struct TargetPart {
  int64_t known = 1;
  ir::Value* value = nullptr;
};

// The sequence length dim 2 of `heads` ([B, N, S, E]) has, for an Expand target: the number when
// known; else Shape(`alias`)[-1] when `alias` (the mask) ends with that same dim (self-attention:
// the same Expand then serves every layer, and cse merges them), or Shape(`alias`)[-2] when that
// is the dim (a mask computed for Sq rows); else Shape of the value before
// the split into heads, [1]; else Shape(heads)[2]. `as` is the mask's shape.
TargetPart SequenceLength(ir::Value* heads, ir::Value* alias, const ir::Shape& as,
                          const std::string& name, ir::Node& pos, Rewriter& rw, Added& added) {
  const ir::Dim& d = ShapeOf(heads)->dim(2);
  if (d.is_known()) return {.known = d.value()};
  ir::Value* source = alias;
  int64_t axis = -1;
  if (as.rank() >= 2 && !SameDim(as.dim(as.rank() - 1), d) && SameDim(as.dim(as.rank() - 2), d)) {
    axis = -2;
  } else if (!SameDim(as.dim(as.rank() - 1), d)) {
    source = BeforeSplit(heads, rw);
    axis = 1;
    if (source == nullptr) {
      source = heads;
      axis = 2;
    }
  }
  ir::Value* length = AddNodeBefore(pos, "Shape", {source}, name, rw, added);
  rw.SetAttribute(*length->producer(), ir::Attribute::Int("start", axis));
  if (axis != -1) rw.SetAttribute(*length->producer(), ir::Attribute::Int("end", axis + 1));
  return {.value = length};
}

// The keys' length past + new for Concat(past, new) on axis 2: known, or Shape(past)[2] +
// Shape(new)[2] (only Attention's own inputs: a Shape of the Concat's result would be a use of the
// present before Attention, which then could not take it over).
TargetPart TotalLength(ir::Node& concat, const std::string& name, ir::Node& pos, Rewriter& rw,
                       Added& added) {
  const ir::Dim& p = ShapeOf(concat.input(0))->dim(2);
  const ir::Dim& n = ShapeOf(concat.input(1))->dim(2);
  if (p.is_known() && n.is_known()) return {.known = p.value() + n.value()};
  std::vector<ir::Value*> lengths;
  for (size_t i : {0, 1}) {
    // The new part's length from the value before its split into heads when there is one, so
    // that MergeHeads can still take the split.
    ir::Value* source = i == 1 ? BeforeSplit(concat.input(1), rw) : nullptr;
    const int64_t axis = source != nullptr ? 1 : 2;
    if (source == nullptr) source = concat.input(i);
    ir::Value* length = AddNodeBefore(pos, "Shape", {source}, name, rw, added);
    rw.SetAttribute(*length->producer(), ir::Attribute::Int("start", axis));
    rw.SetAttribute(*length->producer(), ir::Attribute::Int("end", axis + 1));
    lengths.push_back(length);
  }
  return {.value = AddNodeBefore(pos, "Add", lengths, name, rw, added)};
}

// The mask as onnxruntime's kernel takes it and as Attention computes it (see the top of the file):
// `mask` itself when its rank is 2 to 4, its dim -2 surely Sq and its last surely Skv
// (`keys_sure`); else Expand(mask, target), the target 1s but Sq at -2 and, unless `keys_sure`, Skv
// last (1 there keeps the mask's), the keys' length from `v_cat` (Concat(past, new) of the values)
// when a past goes into Attention, else from `v` (the values as they go in). New nodes go before
// `pos` and are listed in `added`.
ir::Value* MaskForAttention(ir::Value* mask, const ir::Shape& ms, bool keys_sure, ir::Value* q,
                            ir::Value* v, ir::Node* v_cat, ir::Node& pos, Rewriter& rw,
                            Added& added) {
  const size_t rank = ms.rank();
  if (keys_sure && rank >= 2 && SameDim(ms.dim(rank - 2), ShapeOf(q)->dim(2))) return mask;
  const std::string base = mask->name() + (keys_sure ? "_rows" : "_full");
  std::vector<TargetPart> parts(std::max<size_t>(rank, 2));
  parts[parts.size() - 2] = SequenceLength(q, mask, ms, base + "_queries", pos, rw, added);
  if (!keys_sure) {
    parts.back() = v_cat != nullptr ? TotalLength(*v_cat, base + "_keys", pos, rw, added)
                                    : SequenceLength(v, mask, ms, base + "_keys", pos, rw, added);
  }
  // Runs of known dims become constants between the values.
  std::vector<ir::Value*> inputs;
  std::vector<int64_t> run;
  auto flush = [&] {
    if (!run.empty()) inputs.push_back(AddInts(run, base + "_dims", rw, added));
    run.clear();
  };
  for (const TargetPart& part : parts) {
    if (part.value == nullptr) {
      run.push_back(part.known);
    } else {
      flush();
      inputs.push_back(part.value);
    }
  }
  flush();
  ir::Value* target = inputs.front();
  if (inputs.size() > 1) {
    target = AddNodeBefore(pos, "Concat", inputs, base + "_shape", rw, added);
    rw.SetAttribute(*target->producer(), ir::Attribute::Int("axis", 0));
  }
  return AddNodeBefore(pos, "Expand", {mask, target}, base, rw, added);
}

// K or V `heads` [B, Hq, S, D] repeated from [B, Hkv, S, D] to the query heads as transformers'
// repeat_kv writes it: Reshape(Expand(Unsqueeze(x, [2]), [B, Hkv, n, S, D]), [B, Hkv * n, S, D]).
// Returns x (Attention repeats K and V itself, query head h taking key/value head h / n, the
// order repeat_kv makes), the chain's nodes in *chain (users first); null when `heads` is not made
// so. Exact by shapes: the Expand changes only the inserted axis (its other dims are x's), and the
// Reshape keeps B, S and D, so it merges the Hkv and n axes.
ir::Value* Unrepeated(ir::Value* heads, Rewriter& rw, std::vector<ir::Node*>* chain) {
  ir::Node* reshape = ProducerOf(heads, "Reshape", &rw.graph());
  if (reshape == nullptr || !reshape->has_input(0)) return nullptr;
  ir::Node* expand = ProducerOf(reshape->input(0), "Expand", &rw.graph());
  if (expand == nullptr || !expand->has_input(0)) return nullptr;
  ir::Node* unsqueeze = ProducerOf(expand->input(0), "Unsqueeze", &rw.graph());
  if (unsqueeze == nullptr || !unsqueeze->has_input(0)) return nullptr;
  std::optional<std::vector<int64_t>> axes = AxesOf(*unsqueeze, rw.opset());
  if (!axes || (*axes != std::vector<int64_t>{2} && *axes != std::vector<int64_t>{-3}))
    return nullptr;
  ir::Value* x = unsqueeze->input(0);
  const ir::Shape* xs = ShapeOf(x);
  const ir::Shape* es = ShapeOf(expand->output(0));
  const ir::Shape* hs = ShapeOf(heads);
  if (xs == nullptr || es == nullptr || hs == nullptr || xs->rank() != 4 || es->rank() != 5 ||
      hs->rank() != 4 || FloatElemType(x) != FloatElemType(heads)) {
    return nullptr;
  }
  for (auto [e, i] : {std::pair{0, 0}, {1, 1}, {3, 2}, {4, 3}}) {
    if (!SameDim(es->dim(e), xs->dim(i))) return nullptr;
  }
  for (auto [h, e] : {std::pair{0, 0}, {2, 3}, {3, 4}}) {
    if (!SameDim(hs->dim(h), es->dim(e))) return nullptr;
  }
  *chain = {reshape, expand, unsqueeze};
  return x;
}

// The past and the new part of `all` = Concat(past, new, axis = 2) ([B, H, P + S, D]), as
// Attention takes past_key/past_value: null when `all` is not made so.
ir::Node* PastConcat(ir::Value* all, Rewriter& rw) {
  ir::Node* concat = ProducerOf(all, "Concat", &rw.graph());
  if (concat == nullptr || concat->num_inputs() != 2 || !concat->has_input(0) ||
      !concat->has_input(1))
    return nullptr;
  const int64_t axis = concat->GetInt("axis", 0);
  if (axis != 2 && axis != -2) return nullptr;
  const ir::Shape* ps = ShapeOf(concat->input(0));
  const ir::Shape* ns = ShapeOf(concat->input(1));
  if (ps == nullptr || ns == nullptr || ps->rank() != 4 || ns->rank() != 4) return nullptr;
  for (size_t i : {0, 1, 3}) {
    if (!SameDim(ps->dim(i), ns->dim(i))) return nullptr;
  }
  if (FloatElemType(concat->input(0)) != FloatElemType(concat->input(1))) return nullptr;
  return concat;
}

// Erases the producers of `values` that nothing uses any more, and theirs in turn.
absl::Status EraseDeadProducers(std::vector<ir::Value*> values, Rewriter& rw) {
  while (!values.empty()) {
    ir::Value* v = values.back();
    values.pop_back();
    ir::Node* n = v->producer();
    if (n == nullptr || n->graph() != &rw.graph() || n->is_erased()) continue;
    bool dead = true;
    for (size_t i = 0; i < n->num_outputs(); ++i) dead = dead && !n->output(i)->has_uses();
    if (!dead) continue;
    for (ir::Value* in : n->inputs()) {
      if (in != nullptr) values.push_back(in);
    }
    rw.RemoveAllInputs(*n);
    if (absl::Status s = rw.EraseNode(*n); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// Whether every use of `values` other than as graph outputs is by a node after `pos` in `graph`'s
// order (a value moved to an output of a node at `pos` keeps the graph in order).
bool AllUsesAfter(const std::vector<ir::Value*>& values, const ir::Node& pos,
                  const ir::Graph& graph) {
  absl::flat_hash_set<const ir::Node*> after;
  bool seen = false;
  for (const ir::Node* n : graph.nodes()) {
    if (seen) after.insert(n);
    seen = seen || n == &pos;
  }
  for (const ir::Value* v : values) {
    for (const ir::Use& u : v->uses()) {
      if (!u.is_graph_output() && !after.contains(u.node)) return false;
    }
  }
  return true;
}

// Gives `attention` (which takes the past and the new parts) its outputs 1 and 2, present_key and
// present_value, and makes them what the Concat(past, new) results `alls` (key, value) were used
// for when every other use of those comes after it in the graph: the Concats then go. Otherwise
// (both or neither) they stay, computing the same again, and the presents go unused.
absl::Status TakePresentOver(ir::Node& attention, const std::vector<ir::Value*>& alls,
                             Rewriter& rw) {
  // The outputs are there either way: onnxruntime 1.30 refuses a past_key without a present_key.
  std::vector<ir::Value*> presents;
  for (ir::Value* all : alls) {
    ir::Value* present = rw.AddOutput(attention, rw.names().Fresh(all->name() + "_present"));
    present->set_type(all->type());
    presents.push_back(present);
  }
  if (!AllUsesAfter(alls, attention, rw.graph())) return absl::OkStatus();
  for (size_t i = 0; i < alls.size(); ++i) {
    if (!rw.ForwardUses(alls[i], presents[i])) {
      // Undo: forward back what was forwarded; the outputs stay unused.
      for (size_t j = 0; j < i; ++j) rw.ForwardUses(presents[j], alls[j]);
      return absl::OkStatus();
    }
  }
  // The Concats have no uses left.
  return EraseDeadProducers(alls, rw);
}

// The permutation of a Transpose (reversed axes when not given).
std::vector<int64_t> PermOf(const ir::Node& transpose, int64_t rank) {
  std::vector<int64_t> perm = transpose.GetInts("perm");
  if (perm.empty()) {
    for (int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
  }
  return perm;
}

// MatMul(Softmax(MatMul(Q, Kt) [scaled] [+ mask]), V), built once; what it binds is in the
// captures. The Softmax may compute in float between Casts (Cast(Softmax(Cast(scores, float)),
// back)), as exporters of float16 models write it.
struct ScaledDotProductMatcher {
  ValueSlot q, kt, v, mask, keep, drop;
  NodeSlot softmax, up, down;
  // Up to three scalar factors: on Q, on Kt, on the product; each a Mul or a Div.
  ScalarSlot q_mul, q_div, k_mul, k_div, s_mul, s_div;
  // Soft-capping of the scaled scores, c * Tanh(scores / c) (Gemma 2): the inner divisor (or
  // multiplier) and the outer factor.
  ScalarSlot cap_div, cap_mul, cap;
  // The value masked scores take in Where(keep, scores, low) or Where(drop, low, scores).
  ScalarSlot fill_low;
  const ValuePattern product =
      Op("MatMul", {Scaled(Capture(q), q_mul, q_div), Scaled(Capture(kt), k_mul, k_div)}).OneUse();
  const ValuePattern scaled = Scaled(product, s_mul, s_div);
  const ValuePattern capped =
      Op("Mul", {Op("Tanh", {OneOf({Op("Div", {scaled, StaticScalar(cap_div)}).OneUse(),
                                    Op("Mul", {scaled, StaticScalar(cap_mul)}).OneUse()})})
                     .OneUse(),
                 StaticScalar(cap)})
          .OneUse();
  const ValuePattern logits = OneOf({capped, scaled});
  const ValuePattern scores =
      OneOf({Op("Add", {logits, Capture(mask)}).OneUse(),
             Op("Where", {Capture(keep), logits, AnyConstScalar(fill_low)}).OneUse(),
             Op("Where", {Capture(drop), AnyConstScalar(fill_low), logits}).OneUse(), logits});
  const ValuePattern probs =
      OneOf({Op("Cast", {Op("Softmax", {Op("Cast", {scores}).OneUse().CaptureNode(up)})
                             .OneUse()
                             .CaptureNode(softmax)})
                 .OneUse()
                 .CaptureNode(down),
             Op("Softmax", {scores}).OneUse().CaptureNode(softmax)});
  const ValuePattern root = Op("MatMul", {probs, Capture(v)});
};

// Whether the mask's axes before the last two broadcast to the scores' ([B, H]) without changing
// them (the last two are the causal grid's).
bool LeadingDimsFit(const std::optional<ir::Shape>& ms, const std::vector<ir::Dim>& scores) {
  if (!ms.has_value() || ms->rank() < 2 || ms->rank() > scores.size()) return false;
  const size_t offset = scores.size() - ms->rank();
  for (size_t i = 0; i + 2 < ms->rank(); ++i) {
    if (!SameDim(ms->dim(i), scores[offset + i]) && !IsOne(ms->dim(i))) return false;
  }
  return true;
}

absl::StatusOr<int64_t> MatchAndRewrite(const ScaledDotProductMatcher& p, ir::Node& matmul,
                                        Rewriter& rw) {
  const Captures* m = rw.Match(p.root, matmul.output(0));
  if (m == nullptr) return 0;
  ir::Value* q = (*m)[p.q];
  ir::Value* kt = (*m)[p.kt];
  ir::Value* v = (*m)[p.v];
  ir::Value* mask = (*m)[p.mask];
  ir::Node* softmax = (*m)[p.softmax];
  ir::Node* up = (*m)[p.up];
  ir::Node* down = (*m)[p.down];
  // A factor not there is 1.
  auto factor = [m](const ScalarSlot& slot) { return m->has(slot) ? (*m)[slot] : 1.0; };
  const double q_mul = factor(p.q_mul), q_div = factor(p.q_div), k_mul = factor(p.k_mul),
               k_div = factor(p.k_div), s_mul = factor(p.s_mul), s_div = factor(p.s_div);

  // Shapes and types.
  const ir::Shape* qs = ShapeOf(q);
  const ir::Shape* ks = ShapeOf(kt);
  const ir::Shape* vs = ShapeOf(v);
  if (qs == nullptr || ks == nullptr || vs == nullptr || qs->rank() != 4 || ks->rank() != 4 ||
      vs->rank() != 4) {
    return 0;
  }
  for (size_t i : {0, 1}) {
    if (!SameDim(qs->dim(i), ks->dim(i)) || !SameDim(qs->dim(i), vs->dim(i))) return 0;
  }
  std::optional<ir::DataType> type = FloatElemType(q);
  if (!type.has_value() || FloatElemType(kt) != type || FloatElemType(v) != type) return 0;
  const int64_t axis = softmax->GetInt("axis", -1);
  if (axis != -1 && axis != 3) return 0;
  // Softmax in float between Casts: Attention's softmax_precision, for float16 scores (the Casts
  // must go to float and back). Not bfloat16: onnxruntime 1.30 has no CPU kernel for a bfloat16
  // Attention and cannot run the function it falls back to.
  const bool float_softmax = up != nullptr;
  if (float_softmax && (*type != ir::DataType::kFloat16 ||
                        up->GetInt("to", 0) != static_cast<int64_t>(ir::DataType::kFloat) ||
                        down->GetInt("to", 0) != static_cast<int64_t>(*type))) {
    return 0;
  }
  bool keys_sure = true;
  // A causal mask becomes is_causal (without a past; see below); any other mask goes in as it fits.
  bool causal = false, mask_fits = false;
  // Scores masked by Where (GPT-2): only the causal condition, with a low enough value, and it
  // must become is_causal (there is no mask to keep).
  if (ir::Value* condition = m->has(p.keep) ? (*m)[p.keep] : (*m)[p.drop]; condition != nullptr) {
    if (!((*m)[p.fill_low] <= kCausalMaskLowest) ||
        !IsCausalCondition(condition, m->has(p.keep), qs->dim(2), ks->dim(3), rw.graph(),
                           rw.opset()) ||
        !LeadingDimsFit(MaskShape(condition, rw.graph()),
                        {qs->dim(0), qs->dim(1), qs->dim(2), ks->dim(3)})) {
      return 0;
    }
    causal = true;
  }
  std::optional<ir::Shape> ms;  // the mask's, with the dims its Expand says
  if (mask != nullptr) {
    ms = MaskShape(mask, rw.graph());
    const std::vector<ir::Dim> score_dims = {qs->dim(0), qs->dim(1), qs->dim(2), ks->dim(3)};
    if (!mask->type().is_tensor() || mask->type().elem_type() != *type) return 0;
    mask_fits = ms.has_value() && MaskFits(*ms, score_dims, &keys_sure);
    causal = LeadingDimsFit(ms, score_dims) &&
             IsCausalMask(mask, qs->dim(2), ks->dim(3), rw.graph(), rw.opset());
    if (!mask_fits && !causal) return 0;
  }
  for (double d : {q_div, k_div, s_div}) {
    if (d == 0) return 0;
  }
  const double scale = q_mul / q_div * k_mul / k_div * s_mul / s_div;
  if (!(scale > 0) || !std::isfinite(scale) || !std::isfinite(static_cast<float>(scale))) return 0;
  // Soft-capping: the same c inside (as a divisor, or its reciprocal as a factor) and outside,
  // positive (Attention's softcap; 0 means none).
  double softcap = 0;
  if (m->has(p.cap)) {
    softcap = (*m)[p.cap];
    const double inner = m->has(p.cap_div) ? (*m)[p.cap_div] : 1.0 / (*m)[p.cap_mul];
    if (!(softcap > 0) || !std::isfinite(softcap) || std::abs(inner - softcap) > 1e-6 * softcap) {
      return 0;
    }
  }

  // K: Kt with its last two axes swapped, folded into the Transpose that makes Kt when there is
  // one.
  ir::Value* k_source = kt;
  std::vector<int64_t> perm = {0, 1, 3, 2};
  ir::Node* kt_transpose = ProducerOf(kt, "Transpose", &rw.graph());
  if (kt_transpose != nullptr && kt->uses().size() == 1 && kt_transpose->has_input(0) &&
      RankOf(kt_transpose->input(0)) == 4) {
    const std::vector<int64_t> p = PermOf(*kt_transpose, 4);
    if (p.size() == 4) {
      perm = {p[0], p[1], p[3], p[2]};
      k_source = kt_transpose->input(0);
    }
  }
  const bool k_transposed = perm != std::vector<int64_t>{0, 1, 2, 3};
  ir::Value* k = k_source;
  ir::Value* v_in = v;
  // Grouped-query attention: K and V repeated to the query heads go in as they were before the
  // repeat (only when K needs no Transpose of its own: the repeat is on [B, Hkv, S, D]).
  std::vector<ir::Node*> repeats;
  if (!k_transposed) {
    std::vector<ir::Node*> k_chain, v_chain;
    ir::Value* ku = Unrepeated(k, rw, &k_chain);
    ir::Value* vu = ku != nullptr ? Unrepeated(v, rw, &v_chain) : nullptr;
    if (vu != nullptr && SameDim(ShapeOf(ku)->dim(1), ShapeOf(vu)->dim(1)) &&
        SameDim(ShapeOf(ku)->dim(2), ShapeOf(vu)->dim(2))) {
      k = ku;
      v_in = vu;
      repeats = k_chain;
      repeats.insert(repeats.end(), v_chain.begin(), v_chain.end());
    }
  }
  // A KV cache: K and V as Concat(past, new) on the sequence axis go in as past_key/past_value and
  // the new part; the Concats' results become Attention's present_key/present_value when that can
  // be done in place (TakePresentOver).
  ir::Node* k_cat = k_transposed ? nullptr : PastConcat(k, rw);
  ir::Node* v_cat = k_cat != nullptr ? PastConcat(v_in, rw) : nullptr;
  std::vector<ir::Value*> alls;
  if (v_cat != nullptr &&
      SameDim(ShapeOf(k_cat->input(0))->dim(2), ShapeOf(v_cat->input(0))->dim(2))) {
    alls = {k, v_in};
  }
  // With a past, is_causal counts differently in the spec and in onnxruntime: the spec's text says
  // the causal bias is upper-left aligned (key j <= query i), while onnxruntime 1.30 (and our
  // interpreter, and the ONNX reference implementation) let query i see the past and j <= past + i
  // (measured by tools/ort_interop). They agree without a past only, so only then is the causal
  // mask dropped; with one it goes in as a mask.
  if (causal && !alls.empty()) {
    causal = false;
    if (!mask_fits) return 0;  // (a Where's condition never fits: it is no additive mask)
  }

  // The rewrite: nothing above changed the graph.
  if (kt_transpose != nullptr && k_source != kt) rw.Track(kt_transpose);
  Added added;
  if (k_transposed) {
    k = AddNodeBefore(matmul, "Transpose", {k_source}, kt->name() + "_keys", rw, added);
    rw.SetAttribute(*k->producer(), ir::Attribute::Ints("perm", perm));
  }
  std::vector<ir::Value*> repeat_shapes;  // the repeats' target shapes, erased once dead
  for (ir::Node* n : repeats) {
    rw.Track(n);
    for (size_t i = 1; i < n->num_inputs(); ++i) {
      if (n->has_input(i)) repeat_shapes.push_back(n->input(i));
    }
  }
  std::vector<ir::Value*> inputs = {q, k, v_in};
  if (!alls.empty()) {
    inputs[1] = k_cat->input(1);
    inputs[2] = v_cat->input(1);
  }
  if (mask != nullptr && !causal) {
    inputs.push_back(MaskForAttention(mask, *ms, keys_sure, q, v_in, alls.empty() ? nullptr : v_cat,
                                      matmul, rw, added));
  }
  if (!alls.empty()) {
    if (inputs.size() == 3) inputs.push_back(nullptr);
    inputs.push_back(k_cat->input(0));
    inputs.push_back(v_cat->input(0));
  }
  absl::StatusOr<ir::Node*> fused = rw.ReplaceWithNode(matmul, "Attention", inputs, "_attention");
  if (!fused.ok()) return fused.status();
  if (*fused == nullptr) {
    if (absl::Status s = added.Undo(rw); !s.ok()) return s;
    return 0;
  }
  rw.SetAttribute(**fused, ir::Attribute::Float("scale", static_cast<float>(scale)));
  if (causal) rw.SetAttribute(**fused, ir::Attribute::Int("is_causal", 1));
  if (softcap > 0) {
    rw.SetAttribute(**fused, ir::Attribute::Float("softcap", static_cast<float>(softcap)));
  }
  if (float_softmax) {
    rw.SetAttribute(**fused, ir::Attribute::Int("softmax_precision",
                                                static_cast<int64_t>(ir::DataType::kFloat)));
  }
  if (absl::Status s = EraseDeadProducers(repeat_shapes, rw); !s.ok()) return s;
  if (!alls.empty()) {
    if (absl::Status s = TakePresentOver(**fused, alls, rw); !s.ok()) return s;
  }
  return 1;
}

// The [B, S, N*E] value that `heads` ([B, N, S, E]) was made from by the exporter's split into
// heads, Transpose(Reshape(x, [B, S, N, E]), perm = [0, 2, 1, 3]) (each used once), with N and E;
// null when `heads` is not made so.
struct SplitHeadsMatcher {
  ValueSlot x, split;
  const ValuePattern heads = Op("Transpose", {Op("Reshape", {Capture(x)}).OneUse().Capture(split)})
                                 .OneUse()
                                 .WhereNode([](const ir::Node& t) {
                                   return t.GetInts("perm") == std::vector<int64_t>{0, 2, 1, 3};
                                 });
};

ir::Value* UnsplitHeads(ir::Value* heads, const SplitHeadsMatcher& p, Rewriter& rw, int64_t* n,
                        int64_t* e) {
  const Captures* m = rw.Match(p.heads, heads);
  if (m == nullptr) return nullptr;
  ir::Value* x = (*m)[p.x];
  ir::Value* split = (*m)[p.split];
  const ir::Shape* xs = ShapeOf(x);
  const ir::Shape* ss = ShapeOf(split);
  if (xs == nullptr || ss == nullptr || xs->rank() != 3 || ss->rank() != 4 ||
      !SameDim(xs->dim(0), ss->dim(0)) || !SameDim(xs->dim(1), ss->dim(1)) ||
      !xs->dim(2).is_known() || !ss->dim(2).is_known() || !ss->dim(3).is_known() ||
      ss->dim(2).value() * ss->dim(3).value() != xs->dim(2).value()) {
    return nullptr;
  }
  *n = ss->dim(2).value();
  *e = ss->dim(3).value();
  return x;
}

// A 4-D Attention whose Q, K and V are split into heads by Reshape/Transpose and whose result is
// merged back by Transpose/Reshape becomes the 3-D form on the unsplit values, with q_num_heads and
// kv_num_heads: Attention does the same split and merge.
// The merge of Attention's result back from heads, and the splits of Q, K and V (each binds its own
// captures, as all three are matched through one rewriter): built once.
struct MergeHeadsMatcher {
  NodeSlot merge;
  ValueSlot merged;
  const ValuePattern back =
      Op("Reshape", {Op("Transpose", {}).OneUse().WhereNode([](const ir::Node& t) {
           return t.GetInts("perm") == std::vector<int64_t>{0, 2, 1, 3};
         })})
          .CaptureNode(merge)
          .Capture(merged);
  SplitHeadsMatcher q, k, v;
};

absl::StatusOr<int64_t> MergeHeads(const MergeHeadsMatcher& p, ir::Node& attention, Rewriter& rw) {
  // Inputs past the mask (past_key, past_value) are 4-D in both forms; so are the present outputs.
  if (attention.num_outputs() > 3 || attention.num_inputs() < 3 || attention.num_inputs() > 6)
    return 0;
  for (size_t i = 3; i < attention.num_outputs(); ++i) {
    if (attention.output(i)->has_uses()) return 0;  // the scores (qk_matmul_output) are per head
  }
  // Its attributes are numbers (all Attention-23 has), copied over; heads are set anew.
  for (const ir::Attribute& a : attention.attributes()) {
    if (a.is_reference() ||
        (a.kind() != ir::AttributeKind::kInt && a.kind() != ir::AttributeKind::kFloat))
      return 0;
  }
  ir::Value* out = attention.output(0);
  if (!HasSingleUse(out) || out->uses()[0].node->op_type() != "Transpose") return 0;
  ir::Value* transposed = out->uses()[0].node->output(0);
  const Captures* m =
      HasSingleUse(transposed) ? rw.Match(p.back, transposed->uses()[0].node->output(0)) : nullptr;
  if (m == nullptr) return 0;
  ir::Node* merge = (*m)[p.merge];
  ir::Value* merged = (*m)[p.merged];
  if (merge->input(0) != transposed) return 0;
  int64_t hq = 0, d = 0, hk = 0, dk = 0, hv = 0, dv = 0;
  ir::Value* q = UnsplitHeads(attention.input(0), p.q, rw, &hq, &d);
  ir::Value* k = q != nullptr ? UnsplitHeads(attention.input(1), p.k, rw, &hk, &dk) : nullptr;
  ir::Value* v = k != nullptr ? UnsplitHeads(attention.input(2), p.v, rw, &hv, &dv) : nullptr;
  if (v == nullptr || hk != hv || d != dk) return 0;
  // The merged result is [B, S, Hq * Dv] of Q's B and S.
  const ir::Shape* qs = ShapeOf(q);
  const ir::Shape* ms = ShapeOf(merged);
  if (ms == nullptr || ms->rank() != 3 || !SameDim(ms->dim(0), qs->dim(0)) ||
      !SameDim(ms->dim(1), qs->dim(1)) || !ms->dim(2).is_known() || ms->dim(2).value() != hq * dv) {
    return 0;
  }
  std::vector<ir::Attribute> attributes;
  for (const ir::Attribute& a : attention.attributes()) {
    if (a.name() == "q_num_heads" || a.name() == "kv_num_heads") continue;
    attributes.push_back(a.kind() == ir::AttributeKind::kInt ? ir::Attribute::Int(a.name(), a.i)
                                                             : ir::Attribute::Float(a.name(), a.f));
  }
  attributes.push_back(ir::Attribute::Int("q_num_heads", hq));
  attributes.push_back(ir::Attribute::Int("kv_num_heads", hk));
  // The present outputs move to the new node, placed before `merge`.
  std::vector<ir::Value*> presents;
  for (size_t i = 1; i < std::min<size_t>(attention.num_outputs(), 3); ++i)
    presents.push_back(attention.output(i));
  if (!AllUsesAfter(presents, *merge, rw.graph())) return 0;
  rw.Track(&attention);
  rw.Track(out->uses()[0].node);
  std::vector<ir::Value*> inputs = {q, k, v};
  for (size_t i = 3; i < attention.num_inputs(); ++i) inputs.push_back(attention.input(i));
  absl::StatusOr<ir::Node*> fused = rw.ReplaceWithNode(*merge, "Attention", inputs, "_attention");
  if (!fused.ok() || *fused == nullptr) return OneIfReplaced(fused);
  for (ir::Attribute& a : attributes) rw.SetAttribute(**fused, std::move(a));
  for (ir::Value* present : presents) {
    ir::Value* moved = rw.AddOutput(**fused, rw.names().Fresh(present->name() + "_3d"));
    moved->set_type(present->type());
    if (!rw.ForwardUses(present, moved)) {
      return absl::InternalError(
          absl::StrCat("fuse-attention: cannot move ", present->name(), " to the 3-D form"));
    }
  }
  if (absl::Status s = rw.EraseDeadMatched(); !s.ok()) return s;
  return 1;
}

RewritePattern ScaledDotProductPattern() {
  auto matcher = std::make_shared<const ScaledDotProductMatcher>();
  return {.name = "scaled-dot-product",
          .root_ops = {"MatMul"},
          .needs = {{{"MatMul"}, 2}, {{"Softmax"}}},
          .min_opset = 23,
          .match_and_rewrite = [matcher](ir::Node& matmul, Rewriter& rw) {
            return MatchAndRewrite(*matcher, matmul, rw);
          }};
}

RewritePattern MergeHeadsPattern() {
  auto matcher = std::make_shared<const MergeHeadsMatcher>();
  return {.name = "merge-heads",
          .root_ops = {"Attention"},
          .needs = {{{"Attention"}}, {{"Reshape"}, 4}, {{"Transpose"}, 4}},
          .min_opset = 23,
          .match_and_rewrite = [matcher](ir::Node& attention, Rewriter& rw) {
            return MergeHeads(*matcher, attention, rw);
          }};
}

class FuseAttention final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-attention";
  FuseAttention()
      : PatternPass(kName, [] {
          return std::vector<RewritePattern>{ScaledDotProductPattern(), MergeHeadsPattern()};
        }) {}
};

}  // namespace

REGISTER_PASS(FuseAttention, FuseAttention::kName,
              "turn MatMul-scale-(mask add)-Softmax-MatMul into Attention (opset 23+)");

}  // namespace onnx_opt::passes
