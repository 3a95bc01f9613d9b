// fuse-rotary-embedding: rotary position embedding in the rotate-half form exporters write,
//   y = x * cos + Concat(-x2, x1, axis = -1) * sin      x1, x2 = the halves of x's last axis (Slice
//                                                       or Split)
// becomes RotaryEmbedding(x, cos_cache, sin_cache, position_ids) where the model's opset has it
// (23+), for x [B, H, S, D] (the 4-D form; not interleaved). cos and sin must be the same half
// repeated (cos[..., i] == cos[..., i + D/2], as cat(freqs, freqs) makes them), taken either
//   - from constant caches by position ids: Unsqueeze(Gather(cache [P, D], ids [B, S]), [1]); or
//   - as constants [S, D] (any leading 1s): then B must be known, and the ids are 0..S-1;
//     the caches become their first halves [P, D/2] (float32 only); or
//   - computed in the graph, as current exporters write them from position_ids:
//     Unsqueeze(e(Concat(f, f, axis = -1)), [1]) with f [B, S, D/2] (Cast, Unsqueeze/Expand, MatMul
//     or Mul with inv_freq, Transpose: anything) and e a chain of elementwise ops (Cos or Sin, Mul
//     by the attention scaling, Cast): e(f) is then the half table itself, [B, S, D/2], which
//     RotaryEmbedding takes without position ids. The position-dependent tables stay computed
//     values (no constant cache of a maximum position), at half the width: the Concat and the
//     Unsqueeze go.
//
// A second pattern takes the partial rotation in (rotary_embedding_dim < head size, as Phi writes
// it): Concat(RotaryEmbedding(Slice(x, 0, r)), Slice(x, r, D), axis = -1) becomes
// RotaryEmbedding(x, ..., rotary_embedding_dim = r).
//
// A third moves the exporter's split into heads after the rotation (RotaryEmbedding's 3-D form
// with num_heads), so that fuse-attention can take the split into Attention (SinkHeadSplit).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/constant_value.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

std::optional<std::vector<int64_t>> ConstInts(const ir::Node& n, size_t i) {
  if (!n.has_input(i)) return std::nullopt;
  const ir::Tensor* t = ir::GetConstantTensor(n.input(i));
  return t == nullptr ? std::nullopt : ir::ConstantAsInts(*t);
}

// Whether Slice-10+ `slice` takes exactly [lo, hi) of the last axis (of 4) with step `step`; `hi`
// may be passed by any end >= `hi` when `hi` is the axis' size `size`.
bool SlicesLastAxis(const ir::Node& slice, int64_t lo, int64_t hi, int64_t size, int64_t step = 1) {
  if (slice.num_inputs() < 4) return false;  // without axes, the Slice is over axis 0
  std::optional<std::vector<int64_t>> starts = ConstInts(slice, 1), ends = ConstInts(slice, 2),
                                      axes = ConstInts(slice, 3);
  if (!starts || !ends || !axes || starts->size() != 1 || ends->size() != 1 || axes->size() != 1)
    return false;
  if ((*axes)[0] != -1 && (*axes)[0] != 3) return false;
  if (slice.num_inputs() > 4 && slice.has_input(4)) {
    std::optional<std::vector<int64_t>> steps = ConstInts(slice, 4);
    if (!steps || *steps != std::vector<int64_t>{step}) return false;
  } else if (step != 1) {
    return false;
  }
  return (*starts)[0] == lo && ((*ends)[0] == hi || (hi == size && (*ends)[0] >= size));
}

// Output `index` of a two-output Split in the matched graph, used once; binds the Split's input to
// `x` (or requires it to be that once bound) and the Split to `split`.
ValuePattern SplitOutput(size_t index, const ValueSlot& x, const NodeSlot& split) {
  return ValuePattern([index, x = &x, split = &split](ir::Value* v, MatchState& state) {
    ir::Node* n = v->producer();
    if (n == nullptr || n->graph() != &state.graph() || !n->is_onnx_domain() ||
        n->op_type() != "Split" || n->num_outputs() != 2 || n->output(index) != v ||
        !HasSingleUse(v) || !n->has_input(0)) {
      return false;
    }
    if (state.captures().has(*x) && state.captures()[*x] != n->input(0)) return false;
    state.AddMatched(n);
    state.Bind(*x, n->input(0));
    state.Bind(*split, n);
    return true;
  });
}

// Whether `split` cuts the last axis (of 4, size `size`) into equal halves.
bool SplitsLastAxisInHalves(const ir::Node& split, int64_t size) {
  const int64_t axis = split.GetInt("axis", 0);
  if (axis != -1 && axis != 3) return false;
  if (split.num_inputs() > 1 && split.has_input(1)) {  // sizes as an input (opset 13+)
    std::optional<std::vector<int64_t>> sizes = ConstInts(split, 1);
    return sizes && *sizes == std::vector<int64_t>{size / 2, size / 2};
  }
  // Without sizes, two outputs are equal halves of an even size (num_outputs says the same).
  const std::vector<int64_t> attr = split.GetInts("split");
  return attr.empty() || attr == std::vector<int64_t>{size / 2, size / 2};
}

// The first half [rows, D/2] of constant `t` (rows of D, with any leading 1s), when its halves are
// equal; with `interleaved`, its even elements when each equals the odd one after it (the table of
// pairs, repeat_interleave(half, 2)); nullopt otherwise.
std::optional<std::vector<double>> RepeatedHalf(const ir::Tensor& t, int64_t d, bool interleaved) {
  if (t.data_type() != ir::DataType::kFloat || t.dims().empty() || t.dims().back() != d)
    return std::nullopt;
  std::optional<std::vector<double>> v = ir::ConstantAsDoubles(t);
  if (!v.has_value()) return std::nullopt;
  const int64_t h = d / 2;
  const int64_t rows = static_cast<int64_t>(v->size()) / d;
  std::vector<double> half;
  half.reserve(rows * h);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < h; ++i) {
      const int64_t first = interleaved ? 2 * i : i, second = interleaved ? 2 * i + 1 : h + i;
      if ((*v)[r * d + first] != (*v)[r * d + second]) return std::nullopt;
      half.push_back((*v)[r * d + first]);
    }
  }
  return half;
}

// Where cos (or sin) comes from: a constant cache indexed by `ids`, or (ids null) a constant [S,
// D].
struct Table {
  const ir::Tensor* cache = nullptr;
  ir::Value* ids = nullptr;
  ir::Node* gather = nullptr;
  ir::Node* unsqueeze = nullptr;
};

std::optional<Table> TableOf(ir::Value* v, const ir::Shape& x, int64_t opset, Rewriter& rw) {
  Table t;
  if (const ir::Tensor* c = ir::GetConstantTensor(v); c != nullptr) {
    // [.., S, D] with leading 1s, at most x's rank, S that of x.
    const std::vector<int64_t>& dims = c->dims();
    if (dims.size() < 2 || dims.size() > 4) return std::nullopt;
    for (size_t i = 0; i + 2 < dims.size(); ++i) {
      if (dims[i] != 1) return std::nullopt;
    }
    if (!x.dim(2).is_known() || x.dim(2).value() != dims[dims.size() - 2]) return std::nullopt;
    t.cache = c;
    return t;
  }
  // Unsqueeze(Gather(cache, ids, axis = 0), axes = [1]): [B, 1, S, D].
  ir::Node* unsqueeze = ProducerOf(v, "Unsqueeze", &rw.graph());
  // cos and sin are often shared by the queries' and the keys' rotations: they go with the last.
  if (unsqueeze == nullptr || !unsqueeze->has_input(0)) return std::nullopt;
  std::optional<std::vector<int64_t>> axes = AxesOf(*unsqueeze, opset);
  if (!axes || *axes != std::vector<int64_t>{1}) return std::nullopt;
  ir::Node* gather = ProducerOf(unsqueeze->input(0), "Gather", &rw.graph());
  if (gather == nullptr || gather->GetInt("axis", 0) != 0 || gather->num_inputs() != 2) {
    return std::nullopt;
  }
  t.cache = ir::GetConstantTensor(gather->input(0));
  t.ids = gather->input(1);
  if (t.cache == nullptr || t.cache->dims().size() != 2) return std::nullopt;
  const ir::Type& ids_type = t.ids->type();
  if (!ids_type.is_tensor() || ids_type.elem_type() != ir::DataType::kInt64 ||
      !ids_type.shape().has_value() || ids_type.shape()->rank() != 2 ||
      !SameDim(ids_type.shape()->dim(0), x.dim(0)) ||
      !SameDim(ids_type.shape()->dim(1), x.dim(2))) {
    return std::nullopt;
  }
  t.gather = gather;
  t.unsqueeze = unsqueeze;
  return t;
}

// The elementwise ops a computed cos/sin table may pass through between Concat(f, f) and its use:
// each maps the two equal halves to two equal halves. A binary op's other operand must be a
// constant of one element whose rank does not raise the table's.
bool ElementwiseOnTable(const ir::Node& n, const ir::Value* table) {
  if (!n.is_onnx_domain() || n.num_outputs() != 1) return false;
  const std::string& op = n.op_type();
  if (op == "Cos" || op == "Sin" || op == "Neg" || op == "Identity") return n.num_inputs() == 1;
  if (op == "Cast")
    return n.num_inputs() == 1 && n.attributes().size() == 1 && n.FindAttribute("to") != nullptr;
  if (op != "Mul" && op != "Div" && op != "Add" && op != "Sub") return false;
  if (n.num_inputs() != 2) return false;
  const ir::Value* other = n.input(0) == table ? n.input(1) : n.input(0);
  if (other == table) return false;
  const ir::Tensor* c = ir::GetConstantTensor(other);
  std::optional<int64_t> rank = RankOf(table);
  return c != nullptr && rank.has_value() && c->num_elements() == 1 &&
         static_cast<int64_t>(c->dims().size()) <= *rank;
}

// A cos or sin table computed in the graph: v = Unsqueeze(e(Concat(f, f, axis = -1)), [1]), e a
// chain of ElementwiseOnTable ops, f [B, S, D/2] with x's B and S; with `interleaved`, the
// duplication is Reshape(Concat(Unsqueeze(f, -1), Unsqueeze(f, -1), axis = -1), [B, S, D]) instead
// (torch.stack((f, f), -1).flatten(-2): each element twice in a row, as repeat_interleave(f, 2)).
// Nothing of it needs to be used once: the half table is built anew, and the old nodes go when
// nothing uses them any more.
struct ComputedTable {
  ir::Value* freqs = nullptr;
  std::vector<ir::Node*> chain;        // e, from the duplication's user to the Unsqueeze's input
  ir::Value* duplicated = nullptr;     // the [B, S, D] table e takes
  std::vector<ir::Node*> duplication;  // the nodes making it from f
  ir::Node* unsqueeze = nullptr;
};

// f when `v` ([B, S, D]) is Reshape(Concat(Unsqueeze(f, -1), Unsqueeze(f, -1), axis = -1)) of a
// rank-3 f, the nodes into *nodes; null otherwise.
ir::Value* InterleavedTwice(ir::Value* v, Rewriter& rw, std::vector<ir::Node*>* nodes) {
  ir::Node* reshape = ProducerOf(v, "Reshape", &rw.graph());
  if (reshape == nullptr || !reshape->has_input(0) || reshape->GetInt("allowzero", 0) != 0)
    return nullptr;
  ir::Node* concat = ProducerOf(reshape->input(0), "Concat", &rw.graph());
  if (concat == nullptr || concat->num_inputs() != 2 || !concat->has_input(0) ||
      !concat->has_input(1)) {
    return nullptr;
  }
  const int64_t axis = concat->GetInt("axis", 0);
  if (axis != -1 && axis != 3) return nullptr;
  ir::Value* f = nullptr;
  std::vector<ir::Node*> found = {reshape, concat};
  for (size_t i : {0, 1}) {
    ir::Node* u = ProducerOf(concat->input(i), "Unsqueeze", &rw.graph());
    if (u == nullptr || !u->has_input(0) || RankOf(u->input(0)) != 3) return nullptr;
    std::optional<std::vector<int64_t>> axes = AxesOf(*u, rw.opset());
    if (!axes || (*axes != std::vector<int64_t>{-1} && *axes != std::vector<int64_t>{3}))
      return nullptr;
    if (f != nullptr && u->input(0) != f) return nullptr;
    f = u->input(0);
    if (i == 0 || u != found.back()) found.push_back(u);
  }
  *nodes = found;
  return f;
}

std::optional<ComputedTable> ComputedTableOf(ir::Value* v, const ir::Shape& x, int64_t d,
                                             bool interleaved, Rewriter& rw) {
  ComputedTable t;
  t.unsqueeze = ProducerOf(v, "Unsqueeze", &rw.graph());
  if (t.unsqueeze == nullptr || !t.unsqueeze->has_input(0)) return std::nullopt;
  std::optional<std::vector<int64_t>> axes = AxesOf(*t.unsqueeze, rw.opset());
  if (!axes || *axes != std::vector<int64_t>{1}) return std::nullopt;
  ir::Value* cur = t.unsqueeze->input(0);
  // Walk back through the elementwise ops to the duplication (a bound keeps a cycle-free walk
  // short).
  for (int steps = 0; steps < 16; ++steps) {
    ir::Node* n = cur->producer();
    if (n == nullptr || n->graph() != &rw.graph()) return std::nullopt;
    if (n->is_onnx_domain() && n->op_type() == (interleaved ? "Reshape" : "Concat")) {
      t.duplicated = cur;
      break;
    }
    ir::Value* table = nullptr;
    for (ir::Value* in : n->inputs()) {
      if (in != nullptr && ir::GetConstantTensor(in) == nullptr) table = in;
    }
    if (table == nullptr || !ElementwiseOnTable(*n, table)) return std::nullopt;
    t.chain.insert(t.chain.begin(), n);
    cur = table;
  }
  if (t.duplicated == nullptr || t.chain.empty()) return std::nullopt;
  if (interleaved) {
    t.freqs = InterleavedTwice(t.duplicated, rw, &t.duplication);
    // The Reshape gives back [B, S, D] (not some other shape of the same elements).
    const ir::Shape* ds = ShapeOf(t.duplicated);
    if (t.freqs == nullptr || ds == nullptr || ds->rank() != 3 || !ds->dim(2).is_known() ||
        ds->dim(2).value() != d) {
      return std::nullopt;
    }
  } else {
    ir::Node* concat = t.duplicated->producer();
    if (concat->num_inputs() != 2 || concat->input(0) != concat->input(1)) return std::nullopt;
    const int64_t axis = concat->GetInt("axis", 0);
    if (axis != -1 && axis != 2) return std::nullopt;
    t.freqs = concat->input(0);
    t.duplication = {concat};
  }
  const ir::Type& ft = t.freqs->type();
  if (!ft.is_tensor() || !ft.shape().has_value() || ft.shape()->rank() != 3) return std::nullopt;
  const ir::Shape& fs = *ft.shape();
  if (!SameDim(fs.dim(0), x.dim(0)) || !SameDim(fs.dim(1), x.dim(2)) || !fs.dim(2).is_known() ||
      fs.dim(2).value() * 2 != d) {
    return std::nullopt;
  }
  if (interleaved) {
    const ir::Shape& ds = *ShapeOf(t.duplicated);
    if (!SameDim(ds.dim(0), fs.dim(0)) || !SameDim(ds.dim(1), fs.dim(1))) return std::nullopt;
  }
  return t;
}

// e(f) for computed table `t`: the chain built again on f, before `pos`; the new nodes are listed
// in *added. The result is [B, S, D/2].
ir::Value* HalfTable(const ComputedTable& t, ir::Node& pos, Rewriter& rw,
                     std::vector<ir::Node*>* added) {
  ir::Value* cur = t.freqs;
  ir::Value* prev = t.duplicated;
  std::vector<ir::Dim> dims = t.freqs->type().shape()->dims();
  for (const ir::Node* n : t.chain) {
    std::vector<ir::Value*> inputs;
    for (ir::Value* in : n->inputs()) inputs.push_back(in == prev ? cur : in);
    ir::Node* copy = rw.InsertOpBefore(pos, n->op_type(), inputs,
                                       rw.names().Fresh(n->output(0)->name() + "_half"));
    if (n->op_type() == "Cast") {
      rw.SetAttribute(*copy, ir::Attribute::Int("to", n->GetInt("to", 1)));
    }
    if (n->output(0)->type().is_tensor()) {
      copy->output(0)->set_type(
          ir::Type::Tensor(n->output(0)->type().elem_type(), ir::Shape(dims)));
    }
    added->push_back(copy);
    prev = n->output(0);
    cur = copy->output(0);
  }
  return cur;
}

// x * cos + rotate_half(x) * sin, rotate_half as Concat(-second half, first half) of Slices or of a
// Split; or interleaved, x * cos + rotate_every_two(x) * sin with rotate_every_two as GPT-J's
// torch.stack((-x[..., 1::2], x[..., ::2]), -1).flatten(-2) exports it:
// Reshape(Concat(Unsqueeze(Neg(Slice(x, 1, end, step 2)), -1), Unsqueeze(Slice(x, 0, end, step 2),
// -1), axis = -1)). Built once, what it binds is in the captures.
struct RotateHalfMatcher {
  ValueSlot x, cos, sin;
  NodeSlot first, second, split;
  NodeSlot even, odd, even_u, odd_u, pairs, flatten;
  const ValuePattern halves = OneOf(
      {Op("Concat", {Op("Neg", {Op("Slice", {Capture(x)}).OneUse().CaptureNode(second)}).OneUse(),
                     Op("Slice", {Capture(x)}).OneUse().CaptureNode(first)}),
       Op("Concat", {Op("Neg", {SplitOutput(1, x, split)}).OneUse(), SplitOutput(0, x, split)})});
  const ValuePattern rotated = halves.OneUse().WhereNode([](const ir::Node& concat) {
    const int64_t axis = concat.GetInt("axis", 0);
    return concat.num_inputs() == 2 && (axis == -1 || axis == 3);
  });
  const ValuePattern every_two =
      Op("Reshape",
         {Op("Concat",
             {Op("Unsqueeze",
                 {Op("Neg", {Op("Slice", {Capture(x)}).OneUse().CaptureNode(odd)}).OneUse()})
                  .OneUse()
                  .CaptureNode(odd_u),
              Op("Unsqueeze", {Op("Slice", {Capture(x)}).OneUse().CaptureNode(even)})
                  .OneUse()
                  .CaptureNode(even_u)})
              .OneUse()
              .CaptureNode(pairs)})
          .OneUse()
          .CaptureNode(flatten);
  // The rotated product first, so that x is bound before x * cos is matched.
  const ValuePattern root =
      Op("Add", {Op("Mul", {OneOf({rotated, every_two}), Capture(sin)}).OneUse(),
                 Op("Mul", {Capture(x), Capture(cos)}).OneUse()});
};

// Whether the interleaved rotation matched by `p` is rotate_every_two on x [B, H, S, D]: the odd
// and even elements of the last axis (Slices from 1 and 0 with step 2), each Unsqueezed at the end,
// paired (-odd, even) by a Concat on that axis and flattened back to x's shape by the Reshape.
bool EveryTwoFits(const Captures& m, const RotateHalfMatcher& p, const ir::Shape& xs, int64_t d,
                  int64_t opset) {
  // Any end from d - 1 on takes all of them.
  if (!SlicesLastAxis(*m[p.even], 0, d - 1, d - 1, 2) ||
      !SlicesLastAxis(*m[p.odd], 1, d - 1, d - 1, 2)) {
    return false;
  }
  for (const NodeSlot* u : {&p.odd_u, &p.even_u}) {
    std::optional<std::vector<int64_t>> axes = AxesOf(*m[*u], opset);
    if (!axes || (*axes != std::vector<int64_t>{-1} && *axes != std::vector<int64_t>{4}))
      return false;
  }
  const int64_t axis = m[p.pairs]->GetInt("axis", 0);
  if (m[p.pairs]->num_inputs() != 2 || (axis != -1 && axis != 4)) return false;
  const ir::Node& flatten = *m[p.flatten];
  const ir::Shape* fs = ShapeOf(flatten.output(0));
  if (flatten.GetInt("allowzero", 0) != 0 || fs == nullptr || fs->rank() != 4) return false;
  for (size_t i = 0; i < 4; ++i) {
    if (!SameDim(fs->dim(i), xs.dim(i))) return false;
  }
  return true;
}

absl::StatusOr<int64_t> MatchAndRewrite(const RotateHalfMatcher& p, ir::Node& add, Rewriter& rw) {
  const Captures* m = rw.Match(p.root, add.output(0));
  if (m == nullptr) return 0;
  ir::Value* x = (*m)[p.x];
  ir::Value* cos = (*m)[p.cos];
  ir::Value* sin = (*m)[p.sin];
  ir::Node* first = (*m)[p.first];
  ir::Node* second = (*m)[p.second];
  ir::Node* split = (*m)[p.split];
  ir::Node* flatten = (*m)[p.flatten];
  const bool interleaved = flatten != nullptr;
  std::optional<ir::DataType> type = FloatElemType(x);
  if (!type.has_value() || !x->type().shape().has_value()) return 0;
  const ir::Shape& xs = *x->type().shape();
  if (xs.rank() != 4 || !xs.dim(3).is_known()) return 0;
  const int64_t d = xs.dim(3).value();
  if (d < 2 || d % 2 != 0) return 0;
  if (interleaved) {
    if (!EveryTwoFits(*m, p, xs, d, rw.opset())) return 0;
  } else if (split != nullptr
                 ? !SplitsLastAxisInHalves(*split, d)
                 : !SlicesLastAxis(*first, 0, d / 2, d) || !SlicesLastAxis(*second, d / 2, d, d)) {
    return 0;
  }

  // Tables computed in the graph: their halves, and no position ids.
  std::optional<ComputedTable> cc = ComputedTableOf(cos, xs, d, interleaved, rw);
  std::optional<ComputedTable> sc =
      cc ? ComputedTableOf(sin, xs, d, interleaved, rw) : std::nullopt;
  if (cc && sc) {
    if (FloatElemType(cos) != type || FloatElemType(sin) != type) return 0;
    std::vector<ir::Node*> added;
    ir::Value* cos_half = HalfTable(*cc, add, rw, &added);
    ir::Value* sin_half = HalfTable(*sc, add, rw, &added);
    for (const ComputedTable* t : {&*cc, &*sc}) {
      rw.Track(t->unsqueeze);
      for (auto it = t->chain.rbegin(); it != t->chain.rend(); ++it) rw.Track(*it);
      for (ir::Node* n : t->duplication) rw.Track(n);
    }
    absl::StatusOr<ir::Node*> fused =
        rw.ReplaceWithNode(add, "RotaryEmbedding", {x, cos_half, sin_half}, "_rotary");
    if (fused.ok() && *fused != nullptr && interleaved) {
      rw.SetAttribute(**fused, ir::Attribute::Int("interleaved", 1));
    }
    if (fused.ok() && *fused == nullptr) {
      for (auto it = added.rbegin(); it != added.rend(); ++it) {
        rw.RemoveAllInputs(**it);
        if (absl::Status s = rw.EraseNode(**it); !s.ok()) return s;
      }
    }
    return OneIfReplaced(fused);
  }
  if (*type != ir::DataType::kFloat) return 0;

  std::optional<Table> ct = TableOf(cos, xs, rw.opset(), rw);
  std::optional<Table> st = TableOf(sin, xs, rw.opset(), rw);
  if (!ct || !st || ct->ids != st->ids) return 0;
  std::optional<std::vector<double>> cos_half = RepeatedHalf(*ct->cache, d, interleaved);
  std::optional<std::vector<double>> sin_half = RepeatedHalf(*st->cache, d, interleaved);
  if (!cos_half || !sin_half || cos_half->size() != sin_half->size()) return 0;
  const int64_t rows = static_cast<int64_t>(cos_half->size()) / (d / 2);

  ir::Value* ids = ct->ids;
  if (ids == nullptr) {
    // Constant tables of S rows: the ids are 0..S-1 for each of B (known) batches.
    if (!xs.dim(0).is_known()) return 0;
    const int64_t batch = xs.dim(0).value();
    std::vector<int64_t> positions;
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t s = 0; s < rows; ++s) positions.push_back(s);
    }
    ids = rw.AddInitializer(
        ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {batch, rows}, positions),
        add.output(0)->name() + "_position_ids");
  } else {
    for (ir::Node* n : {ct->gather, ct->unsqueeze, st->gather, st->unsqueeze}) rw.Track(n);
  }
  ir::Value* cos_cache = rw.AddInitializer(
      ir::MakeFloatTensor(ir::DataType::kFloat, {rows, d / 2}, *cos_half), cos->name() + "_cache");
  ir::Value* sin_cache = rw.AddInitializer(
      ir::MakeFloatTensor(ir::DataType::kFloat, {rows, d / 2}, *sin_half), sin->name() + "_cache");
  absl::StatusOr<ir::Node*> fused =
      rw.ReplaceWithNode(add, "RotaryEmbedding", {x, cos_cache, sin_cache, ids}, "_rotary");
  if (fused.ok() && *fused != nullptr && interleaved) {
    rw.SetAttribute(**fused, ir::Attribute::Int("interleaved", 1));
  }
  if (fused.ok() && *fused == nullptr) {
    std::vector<ir::Value*> unused = {cos_cache, sin_cache};
    if (ids != ct->ids) unused.push_back(ids);
    if (absl::Status s = rw.graph().RemoveInitializers(unused); !s.ok()) return s;
  }
  return OneIfReplaced(fused);
}

// Concat(RotaryEmbedding(Slice(x, 0, r)), Slice(x, r, D), axis = -1) on x [B, H, S, D] (the
// rotated part first, the rest passed through, as Phi writes a partial rotation) becomes
// RotaryEmbedding(x, ..., rotary_embedding_dim = r).
struct PartialRotationMatcher {
  ValueSlot x;
  NodeSlot rotary, rotated, passed;
  const ValuePattern root =
      Op("Concat", {Op("RotaryEmbedding", {Op("Slice", {Capture(x)}).OneUse().CaptureNode(rotated)})
                        .OneUse()
                        .CaptureNode(rotary),
                    Op("Slice", {Capture(x)}).OneUse().CaptureNode(passed)});
};

absl::StatusOr<int64_t> MatchPartialRotation(const PartialRotationMatcher& p, ir::Node& concat,
                                             Rewriter& rw) {
  const Captures* m = concat.num_inputs() == 2 ? rw.Match(p.root, concat.output(0)) : nullptr;
  if (m == nullptr) return 0;
  ir::Value* x = (*m)[p.x];
  ir::Node* rotary = (*m)[p.rotary];
  ir::Node* rotated = (*m)[p.rotated];
  ir::Node* passed = (*m)[p.passed];
  const int64_t axis = concat.GetInt("axis", 0);
  if (axis != -1 && axis != 3) return 0;
  const std::optional<int64_t> rank = RankOf(x);
  if (!rank || *rank != 4 || !x->type().shape().has_value() ||
      !x->type().shape()->dim(3).is_known())
    return 0;
  const int64_t d = x->type().shape()->dim(3).value();
  // The RotaryEmbedding: 4-D, every input but x its own, rotating all of the slice.
  for (const ir::Attribute& a : rotary->attributes()) {
    if (a.is_reference() || a.kind() != ir::AttributeKind::kInt) return 0;
    if (a.name() != "interleaved" && a.name() != "rotary_embedding_dim" && a.name() != "num_heads")
      return 0;
  }
  const std::optional<int64_t> rotated_rank = RankOf(rotated->output(0));
  if (!rotated_rank || *rotated_rank != 4 || !rotated->output(0)->type().shape()->dim(3).is_known())
    return 0;
  const int64_t r = rotated->output(0)->type().shape()->dim(3).value();
  const int64_t own = rotary->GetInt("rotary_embedding_dim", 0);
  if (r <= 0 || r >= d || r % 2 != 0 || (own != 0 && own != r)) return 0;
  if (!SlicesLastAxis(*rotated, 0, r, d) || !SlicesLastAxis(*passed, r, d, d)) return 0;
  std::vector<ir::Value*> inputs = {x};
  for (size_t i = 1; i < rotary->num_inputs(); ++i) inputs.push_back(rotary->input(i));
  const int64_t interleaved = rotary->GetInt("interleaved", 0);
  absl::StatusOr<ir::Node*> fused =
      rw.ReplaceWithNode(concat, "RotaryEmbedding", inputs, "_rotary");
  if (fused.ok() && *fused != nullptr) {
    if (interleaved != 0) rw.SetAttribute(**fused, ir::Attribute::Int("interleaved", interleaved));
    rw.SetAttribute(**fused, ir::Attribute::Int("rotary_embedding_dim", r));
  }
  return OneIfReplaced(fused);
}

// RotaryEmbedding(Transpose(Reshape(x, [B, S, N, E]), [0, 2, 1, 3])) on heads split from x
// [B, S, N*E] (the exporter's split, each used once) becomes
// Transpose(Reshape(RotaryEmbedding(x, ..., num_heads = N), the same shape), [0, 2, 1, 3]): the
// 3-D form rotates each head the same way. The split then sits right before the attention, which
// fuse-attention takes into Attention's 3-D form.
struct HeadSplitMatcher {
  ValueSlot x;
  NodeSlot reshape, transpose;
  const ValuePattern split =
      Op("Transpose", {Op("Reshape", {Capture(x)}).OneUse().CaptureNode(reshape)})
          .OneUse()
          .CaptureNode(transpose);
};

absl::StatusOr<int64_t> SinkHeadSplit(const HeadSplitMatcher& p, ir::Node& rotary, Rewriter& rw) {
  const Captures* m = rotary.num_inputs() >= 3 && rotary.num_outputs() == 1
                          ? rw.Match(p.split, rotary.input(0))
                          : nullptr;
  if (m == nullptr) return 0;
  ir::Value* x = (*m)[p.x];
  ir::Node* reshape = (*m)[p.reshape];
  ir::Node* transpose = (*m)[p.transpose];
  if (transpose->GetInts("perm") != std::vector<int64_t>{0, 2, 1, 3} ||
      reshape->num_inputs() != 2 || reshape->GetInt("allowzero", 0) != 0) {
    return 0;
  }
  for (const ir::Attribute& a : rotary.attributes()) {
    if (a.is_reference() || a.kind() != ir::AttributeKind::kInt) return 0;
  }
  const ir::Value* heads = reshape->output(0);
  if (!x->type().is_tensor() || !x->type().shape().has_value() || !heads->type().is_tensor() ||
      !heads->type().shape().has_value()) {
    return 0;
  }
  const ir::Shape& xs = *x->type().shape();
  const ir::Shape& hs = *heads->type().shape();
  if (xs.rank() != 3 || hs.rank() != 4 || !SameDim(xs.dim(0), hs.dim(0)) ||
      !SameDim(xs.dim(1), hs.dim(1)) || !xs.dim(2).is_known() || !hs.dim(2).is_known() ||
      !hs.dim(3).is_known() || hs.dim(2).value() * hs.dim(3).value() != xs.dim(2).value()) {
    return 0;
  }
  std::vector<ir::Value*> inputs = {x};
  for (size_t i = 1; i < rotary.num_inputs(); ++i) inputs.push_back(rotary.input(i));
  ir::Node* rotated = rw.InsertOpBefore(rotary, "RotaryEmbedding", inputs,
                                        rw.names().Fresh(rotary.output(0)->name() + "_3d"));
  for (const ir::Attribute& a : rotary.attributes()) {
    if (a.name() != "num_heads") rw.SetAttribute(*rotated, ir::Attribute::Int(a.name(), a.i));
  }
  rw.SetAttribute(*rotated, ir::Attribute::Int("num_heads", hs.dim(2).value()));
  rotated->output(0)->set_type(x->type());
  ir::Node* split_again =
      rw.InsertOpBefore(rotary, "Reshape", {rotated->output(0), reshape->input(1)},
                        rw.names().Fresh(rotary.output(0)->name() + "_heads"));
  split_again->output(0)->set_type(heads->type());
  ir::Node* transposed = rw.InsertOpBefore(rotary, "Transpose", {split_again->output(0)},
                                           rw.names().Fresh(rotary.output(0)->name() + "_split"));
  rw.SetAttribute(*transposed, ir::Attribute::Ints("perm", {0, 2, 1, 3}));
  transposed->output(0)->set_type(rotary.output(0)->type());
  absl::StatusOr<bool> replaced = rw.ReplaceWithValue(rotary, transposed->output(0));
  if (replaced.ok() && !*replaced) {
    for (ir::Node* n : {transposed, split_again, rotated}) {
      rw.RemoveAllInputs(*n);
      if (absl::Status s = rw.EraseNode(*n); !s.ok()) return s;
    }
  }
  return OneIfReplaced(replaced);
}

// A pattern's match_and_rewrite over a matcher built once, here.
template <typename Matcher>
auto WithMatcher(absl::StatusOr<int64_t> (*match_and_rewrite)(const Matcher&, ir::Node&,
                                                              Rewriter&)) {
  return [matcher = std::make_shared<const Matcher>(), match_and_rewrite](
             ir::Node& root, Rewriter& rw) { return match_and_rewrite(*matcher, root, rw); };
}

std::vector<RewritePattern> RotaryEmbeddingPatterns() {
  return {{.name = "rotate-half",
           .root_ops = {"Add"},
           .needs = {{{"Concat"}}, {{"Neg"}}, {{"Slice", "Split"}}},
           .min_opset = 23,
           .match_and_rewrite = WithMatcher<RotateHalfMatcher>(MatchAndRewrite)},
          // A Neg may become the RotaryEmbedding in this same sweep.
          {.name = "partial-rotation",
           .root_ops = {"Concat"},
           .needs = {{{"RotaryEmbedding", "Neg"}}, {{"Slice"}, 2}},
           .min_opset = 23,
           .match_and_rewrite = WithMatcher<PartialRotationMatcher>(MatchPartialRotation)},
          {.name = "sink-head-split",
           .root_ops = {"RotaryEmbedding"},
           .needs = {{{"RotaryEmbedding"}}, {{"Reshape"}}, {{"Transpose"}}},
           .min_opset = 23,
           .match_and_rewrite = WithMatcher<HeadSplitMatcher>(SinkHeadSplit)}};
}

class FuseRotaryEmbedding final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-rotary-embedding";
  FuseRotaryEmbedding() : PatternPass(kName, &RotaryEmbeddingPatterns) {}
};

}  // namespace

REGISTER_PASS(FuseRotaryEmbedding, FuseRotaryEmbedding::kName,
              "turn x * cos + rotate_half(x) * sin into RotaryEmbedding (opset 23+)");

}  // namespace onnx_opt::passes
