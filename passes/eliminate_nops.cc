// nops: removes nodes that return their (first) input unchanged: Transpose with the identity
// permutation, inference Dropout, Pad with all-zero pads, single-input Concat/Sum/Max/Min/Mean,
// one-way Split, Cast to the input's own type, Reshape/Expand/Flatten/Slice/Tile/Squeeze/Unsqueeze
// that keep a statically known shape, and x+0, x-0, x*1, x/1, x^1 with a constant that cannot
// broadcast the result to a bigger shape. Shapes come from the values' types; unknown means "keep".
#include <optional>

#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/constant.h"
#include "passes/forward_value.h"
#include "passes/graph_walk.h"
#include "passes/pattern.h"

namespace onnx_opt::passes {
namespace {

const ir::Shape* StaticShape(const ir::Value* v) {
  if (v == nullptr || !v->type().is_tensor() || !v->type().shape().has_value()) return nullptr;
  const ir::Shape& s = *v->type().shape();
  return s.is_static() ? &s : nullptr;
}

bool AllEqual(const ir::Tensor& t, double value) {
  // Float constants (the usual neutral operand) are read in place: converting them to a vector of
  // doubles cost an allocation for every Add/Mul by a constant, on every run of the pass.
  if (t.data_type() == ir::DataType::kFloat) {
    const std::optional<uint64_t> n = t.num_elements();
    if (n.has_value() && *n > 0 && t.raw_size() == *n * sizeof(float) && t.raw_data() != nullptr) {
      for (uint64_t i = 0; i < *n; ++i) {
        if (t.at<float>(i) != value) return false;
      }
      return true;
    }
  }
  std::optional<std::vector<double>> v = ConstantAsDoubles(t);
  if (!v.has_value() || v->empty()) return false;
  for (double x : *v) {
    if (x != value) return false;
  }
  return true;
}

// For a binary op with a neutral constant: the index of the other input, which the node returns
// unchanged, provided broadcasting the constant against it leaves its shape alone.
std::optional<size_t> NeutralBinary(const ir::Node& n, int64_t opset, double neutral,
                                    bool constant_may_be_first) {
  if (n.num_inputs() != 2 || !n.has_input(0) || !n.has_input(1)) return std::nullopt;
  if (opset < 7 && n.GetInt("broadcast", 0) != 0) return std::nullopt;
  for (size_t side : {1, 0}) {
    if (side == 0 && !constant_may_be_first) break;
    const ir::Tensor* c = GetConstantTensor(n.input(side));
    const ir::Value* x = n.input(1 - side);
    if (c == nullptr || !AllEqual(*c, neutral)) continue;
    // A scalar never broadcasts x, and ONNX requires both inputs to have the same element type, so
    // the result is x whatever x's declared type.
    if (c->dims().empty()) return 1 - side;
    if (!x->type().is_tensor() || x->type().elem_type() != c->data_type()) continue;
    std::optional<int64_t> rank = RankOf(x);
    if (!rank.has_value() || c->dims().size() > *rank) continue;
    bool all_ones = true;
    for (int64_t d : c->dims()) all_ones &= (d == 1);
    if (all_ones) return 1 - side;
    // A constant with non-1 dims is neutral only if x has those dims already.
    const ir::Shape* xs = StaticShape(x);
    if (xs == nullptr) continue;
    bool fits = true;
    for (size_t i = 0; i < c->dims().size(); ++i) {
      const int64_t cd = c->dims()[c->dims().size() - 1 - i];
      fits &= (cd == 1 || cd == xs->dim(xs->rank() - 1 - i).value());
    }
    if (fits) return 1 - side;
  }
  return std::nullopt;
}

// Index of the input the node passes through unchanged, or nullopt.
std::optional<size_t> PassThroughInput(const ir::Node& n, int64_t opset) {
  const std::string& op = n.op_type();
  if (n.num_inputs() == 0 || !n.has_input(0) || n.num_outputs() == 0) return std::nullopt;
  for (size_t i = 1; i < n.num_outputs(); ++i) {
    if (n.output(i)->has_uses()) return std::nullopt;
  }
  const ir::Value* x = n.input(0);
  const ir::Value* y = n.output(0);
  auto same_static_shape = [&] {
    const ir::Shape* a = StaticShape(x);
    const ir::Shape* b = StaticShape(y);
    return a != nullptr && b != nullptr && *a == *b;
  };
  // Identity too, so that one walk removes both (the identity pass then has nothing left to do).
  if (op == "Identity") return n.num_outputs() == 1 ? std::optional<size_t>(0) : std::nullopt;
  if (op == "Transpose") {
    std::vector<int64_t> perm = n.GetInts("perm");
    if (perm.empty()) {
      // Default: reverse the dims; a no-op only for rank <= 1.
      std::optional<int64_t> r = RankOf(x);
      return r.has_value() && *r <= 1 ? std::optional<size_t>(0) : std::nullopt;
    }
    for (size_t i = 0; i < perm.size(); ++i) {
      if (perm[i] != static_cast<int64_t>(i)) return std::nullopt;
    }
    return 0;
  }
  if (op == "Dropout") {
    if (opset < 7) return n.GetInt("is_test", 0) != 0 ? std::optional<size_t>(0) : std::nullopt;
    if (opset >= 12 && n.num_inputs() >= 3 && n.has_input(2)) {
      const ir::Tensor* mode = GetConstantTensor(n.input(2));
      if (mode == nullptr || !AllEqual(*mode, 0.0)) return std::nullopt;
    }
    return 0;
  }
  if (op == "Pad") {
    std::vector<int64_t> pads;
    if (opset < 11) {
      pads = n.GetInts(opset < 2 ? "paddings" : "pads");
    } else {
      if (n.num_inputs() < 2 || !n.has_input(1)) return std::nullopt;
      const ir::Tensor* t = GetConstantTensor(n.input(1));
      if (t == nullptr) return std::nullopt;
      std::optional<std::vector<int64_t>> v = ConstantAsInts(*t);
      if (!v.has_value()) return std::nullopt;
      pads = *v;
    }
    if (pads.empty()) return std::nullopt;
    for (int64_t p : pads) {
      if (p != 0) return std::nullopt;
    }
    return 0;
  }
  if (op == "Concat" || op == "Sum" || op == "Max" || op == "Min" || op == "Mean") {
    return n.num_inputs() == 1 ? std::optional<size_t>(0) : std::nullopt;
  }
  if (op == "Split") return n.num_outputs() == 1 && same_static_shape() ? std::optional<size_t>(0) : std::nullopt;
  if (op == "Cast") {
    return x->type().is_tensor() && x->type().elem_type() != ir::DataType::kUndefined &&
                   static_cast<int64_t>(x->type().elem_type()) == n.GetInt("to", -1)
               ? std::optional<size_t>(0)
               : std::nullopt;
  }
  if (op == "Reshape" || op == "Expand" || op == "Flatten" || op == "Slice" || op == "Tile" ||
      op == "Squeeze" || op == "Unsqueeze") {
    return same_static_shape() ? std::optional<size_t>(0) : std::nullopt;
  }
  if (op == "Add") return NeutralBinary(n, opset, 0.0, true);
  if (op == "Mul") return NeutralBinary(n, opset, 1.0, true);
  if (op == "Sub") return NeutralBinary(n, opset, 0.0, false);
  if (op == "Div" || op == "Pow") return NeutralBinary(n, opset, 1.0, false);
  return std::nullopt;
}

class EliminateNops final : public optimizer::Pass {
 public:
  std::string_view name() const override { return "nops"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    const int64_t opset = model.OpsetVersion("").value_or(0);
    return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
      bool changed = false;
      for (ir::Node* n : g.nodes()) {
        if (!n->is_onnx_domain()) continue;
        std::optional<size_t> through = PassThroughInput(*n, opset);
        if (!through.has_value()) continue;
        if (!ForwardValue(n->output(0), n->input(*through))) continue;
        RETURN_IF_ERROR(g.Erase(n));
        ctx.CountRewrite();
        changed = true;
      }
      g.ReleaseErased();
      return changed;
    });
  }
};

}  // namespace

REGISTER_PASS(EliminateNops, "nops", "remove nodes that return their input unchanged");

}  // namespace onnx_opt::passes
