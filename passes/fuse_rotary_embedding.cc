// fuse-rotary-embedding: rotary position embedding in the rotate-half form exporters write,
//   y = x * cos + Concat(-x2, x1, axis = -1) * sin      x1, x2 = the halves of x's last axis (Slice
//                                                       or Split)
// becomes RotaryEmbedding(x, cos_cache, sin_cache, position_ids) where the model's opset has it (23+),
// for x [B, H, S, D] (the 4-D form; not interleaved, the whole head rotated). cos and sin must be
// the same half repeated (cos[..., i] == cos[..., i + D/2], as cat(freqs, freqs) makes them), taken
// either
//   - from constant caches by position ids: Unsqueeze(Gather(cache [P, D], ids [B, S]), [1]); or
//   - as constants [S, D] (any leading 1s): then B must be known, and the ids are 0..S-1.
// The caches become their first halves [P, D/2]. float32 only.
#include <optional>
#include <string>
#include <vector>

#include "ir/constant_value.h"
#include "optimizer/pass_registry.h"
#include "passes/pattern.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

bool SameDim(const ir::Dim& a, const ir::Dim& b) {
  if (a.is_known() && b.is_known()) return a.value() == b.value();
  return a.is_symbolic() && b.is_symbolic() && a.symbol() == b.symbol();
}

std::optional<std::vector<int64_t>> ConstInts(const ir::Node& n, size_t i) {
  if (!n.has_input(i)) return std::nullopt;
  const ir::Tensor* t = ir::GetConstantTensor(n.input(i));
  return t == nullptr ? std::nullopt : ir::ConstantAsInts(*t);
}

// Whether Slice-10+ `slice` takes exactly [lo, hi) of the last axis (of 4) with step 1; `hi` may be
// passed by any end >= `hi` when `hi` is the axis' size `size`.
bool SlicesLastAxis(const ir::Node& slice, int64_t lo, int64_t hi, int64_t size) {
  if (slice.num_inputs() < 4) return false;  // without axes, the Slice is over axis 0
  std::optional<std::vector<int64_t>> starts = ConstInts(slice, 1), ends = ConstInts(slice, 2),
                                      axes = ConstInts(slice, 3);
  if (!starts || !ends || !axes || starts->size() != 1 || ends->size() != 1 || axes->size() != 1) return false;
  if ((*axes)[0] != -1 && (*axes)[0] != 3) return false;
  if (slice.num_inputs() > 4 && slice.has_input(4)) {
    std::optional<std::vector<int64_t>> steps = ConstInts(slice, 4);
    if (!steps || *steps != std::vector<int64_t>{1}) return false;
  }
  return (*starts)[0] == lo && ((*ends)[0] == hi || (hi == size && (*ends)[0] >= size));
}

// Output `index` of a two-output Split in the matched graph, used once; binds the Split's input to
// *x (or requires it to be *x once bound) and the Split to *split.
ValuePattern SplitOutput(size_t index, ir::Value** x, ir::Node** split) {
  return ValuePattern([=](ir::Value* v, MatchState& state) {
    ir::Node* n = v->producer();
    if (n == nullptr || n->graph() != &state.graph() || !n->is_onnx_domain() || n->op_type() != "Split" ||
        n->num_outputs() != 2 || n->output(index) != v || !HasSingleUse(v) || !n->has_input(0)) {
      return false;
    }
    if (*x != nullptr && *x != n->input(0)) return false;
    state.AddMatched(n);
    state.Bind(x, n->input(0));
    state.Bind(split, n);
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
// equal; nullopt otherwise.
std::optional<std::vector<double>> RepeatedHalf(const ir::Tensor& t, int64_t d) {
  if (t.data_type() != ir::DataType::kFloat || t.dims().empty() || t.dims().back() != d) return std::nullopt;
  std::optional<std::vector<double>> v = ir::ConstantAsDoubles(t);
  if (!v.has_value()) return std::nullopt;
  const int64_t h = d / 2;
  const int64_t rows = static_cast<int64_t>(v->size()) / d;
  std::vector<double> half;
  half.reserve(rows * h);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < h; ++i) {
      if ((*v)[r * d + i] != (*v)[r * d + h + i]) return std::nullopt;
      half.push_back((*v)[r * d + i]);
    }
  }
  return half;
}

// Where cos (or sin) comes from: a constant cache indexed by `ids`, or (ids null) a constant [S, D].
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
  if (gather == nullptr || gather->GetInt("axis", 0) != 0 ||
      gather->num_inputs() != 2) {
    return std::nullopt;
  }
  t.cache = ir::GetConstantTensor(gather->input(0));
  t.ids = gather->input(1);
  if (t.cache == nullptr || t.cache->dims().size() != 2) return std::nullopt;
  const ir::Type& ids_type = t.ids->type();
  if (!ids_type.is_tensor() || ids_type.elem_type() != ir::DataType::kInt64 || !ids_type.shape().has_value() ||
      ids_type.shape()->rank() != 2 || !SameDim(ids_type.shape()->dim(0), x.dim(0)) ||
      !SameDim(ids_type.shape()->dim(1), x.dim(2))) {
    return std::nullopt;
  }
  t.gather = gather;
  t.unsqueeze = unsqueeze;
  return t;
}

absl::StatusOr<int64_t> MatchAndRewrite(ir::Node& add, Rewriter& rw) {
  ir::Value* x = nullptr;
  ir::Value* cos = nullptr;
  ir::Value* sin = nullptr;
  ir::Node* first = nullptr;
  ir::Node* second = nullptr;
  ir::Node* split = nullptr;
  const ValuePattern halves =
      OneOf({Op("Concat", {Op("Neg", {Op("Slice", {Capture(&x)}).OneUse().CaptureNode(&second)}).OneUse(),
                           Op("Slice", {Capture(&x)}).OneUse().CaptureNode(&first)}),
             Op("Concat", {Op("Neg", {SplitOutput(1, &x, &split)}).OneUse(), SplitOutput(0, &x, &split)})});
  const ValuePattern rotated = halves.OneUse()
                                   .WhereNode([](const ir::Node& concat) {
                                     const int64_t axis = concat.GetInt("axis", 0);
                                     return concat.num_inputs() == 2 && (axis == -1 || axis == 3);
                                   });
  // The rotated product first, so that x is bound before x * cos is matched.
  if (!rw.Match(Op("Add", {Op("Mul", {rotated, Capture(&sin)}).OneUse(), Op("Mul", {Capture(&x), Capture(&cos)}).OneUse()}),
                add.output(0))) {
    return 0;
  }
  if (!x->type().is_tensor() || x->type().elem_type() != ir::DataType::kFloat || !x->type().shape().has_value()) {
    return 0;
  }
  const ir::Shape& xs = *x->type().shape();
  if (xs.rank() != 4 || !xs.dim(3).is_known()) return 0;
  const int64_t d = xs.dim(3).value();
  if (d < 2 || d % 2 != 0) return 0;
  if (split != nullptr ? !SplitsLastAxisInHalves(*split, d)
                       : !SlicesLastAxis(*first, 0, d / 2, d) || !SlicesLastAxis(*second, d / 2, d, d)) {
    return 0;
  }

  std::optional<Table> ct = TableOf(cos, xs, rw.opset(), rw);
  std::optional<Table> st = TableOf(sin, xs, rw.opset(), rw);
  if (!ct || !st || ct->ids != st->ids) return 0;
  std::optional<std::vector<double>> cos_half = RepeatedHalf(*ct->cache, d);
  std::optional<std::vector<double>> sin_half = RepeatedHalf(*st->cache, d);
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
    ids = rw.AddInitializer(ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {batch, rows}, positions),
                            add.output(0)->name() + "_position_ids");
  } else {
    for (ir::Node* n : {ct->gather, ct->unsqueeze, st->gather, st->unsqueeze}) rw.Track(n);
  }
  ir::Value* cos_cache =
      rw.AddInitializer(ir::MakeFloatTensor(ir::DataType::kFloat, {rows, d / 2}, *cos_half), cos->name() + "_cache");
  ir::Value* sin_cache =
      rw.AddInitializer(ir::MakeFloatTensor(ir::DataType::kFloat, {rows, d / 2}, *sin_half), sin->name() + "_cache");
  absl::StatusOr<ir::Node*> fused = rw.ReplaceWithNode(add, "RotaryEmbedding", {x, cos_cache, sin_cache, ids}, "_rotary");
  if (fused.ok() && *fused == nullptr) {
    std::vector<ir::Value*> unused = {cos_cache, sin_cache};
    if (ids != ct->ids) unused.push_back(ids);
    if (absl::Status s = rw.graph().RemoveInitializers(unused); !s.ok()) return s;
  }
  return OneIfReplaced(fused);
}

class FuseRotaryEmbedding final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-rotary-embedding";
  FuseRotaryEmbedding()
      : PatternPass(kName, {{.root_ops = {"Add"},
                             .needs = {{{"Concat"}}, {{"Neg"}}, {{"Slice", "Split"}}},
                             .min_opset = 23,
                             .match_and_rewrite = MatchAndRewrite}}) {}
};

}  // namespace

REGISTER_PASS(FuseRotaryEmbedding, FuseRotaryEmbedding::kName,
              "turn x * cos + rotate_half(x) * sin into RotaryEmbedding (opset 23+)");

}  // namespace onnx_opt::passes
