// nops: removes nodes that return their (first) input unchanged: Transpose with the identity
// permutation, inference Dropout, Pad with all-zero pads, single-input Concat/Sum/Max/Min/Mean,
// one-way Split, Cast to the input's own type, Reshape/Expand/Flatten/Slice/Tile/Squeeze/Unsqueeze
// that keep a statically known shape, and x+0, x-0, x*1, x/1, x^1 with a constant that cannot
// broadcast the result to a bigger shape. Shapes come from the values' types; unknown means "keep".
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/constant_value.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// Input 0 when `holds`.
std::optional<size_t> FirstInputIf(bool holds) {
  return holds ? std::optional<size_t>(0) : std::nullopt;
}

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
  std::optional<std::vector<double>> v = ir::ConstantAsDoubles(t);
  if (!v.has_value() || v->empty()) return false;
  for (double x : *v) {
    if (x != value) return false;
  }
  return true;
}

// For a binary op with a neutral constant: the index of the other input, which the node returns
// unchanged, provided broadcasting the constant against it leaves its shape alone.
std::optional<size_t> NeutralBinary(const ir::Node& n, int64_t opset, double neutral,
                                    bool commutative) {
  if (n.num_inputs() != 2 || !n.has_input(0) || !n.has_input(1)) return std::nullopt;
  if (opset < 7 && n.GetInt("broadcast", 0) != 0) return std::nullopt;
  for (size_t side : {1, 0}) {
    if (side == 0 && !commutative) break;
    const ir::Tensor* c = ir::GetConstantTensor(n.input(side));
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

bool SameStaticShape(const ir::Node& n) {
  const ir::Shape* a = StaticShape(n.input(0));
  const ir::Shape* b = StaticShape(n.output(0));
  return a != nullptr && b != nullptr && *a == *b;
}

std::optional<size_t> IdentityPermutation(const ir::Node& n, int64_t /*opset*/) {
  std::vector<int64_t> perm = n.GetInts("perm");
  if (perm.empty()) {
    // Default: reverse the dims; a no-op only for rank <= 1.
    std::optional<int64_t> r = RankOf(n.input(0));
    return FirstInputIf(r.has_value() && *r <= 1);
  }
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return std::nullopt;
  }
  return 0;
}

std::optional<size_t> InferenceDropout(const ir::Node& n, int64_t opset) {
  if (opset < 7) return FirstInputIf(n.GetInt("is_test", 0) != 0);
  if (opset >= 12 && n.num_inputs() >= 3 && n.has_input(2)) {
    const ir::Tensor* mode = ir::GetConstantTensor(n.input(2));
    if (mode == nullptr || !AllEqual(*mode, 0.0)) return std::nullopt;
  }
  return 0;
}

std::optional<size_t> ZeroPad(const ir::Node& n, int64_t opset) {
  std::vector<int64_t> pads;
  if (opset < 11) {
    pads = n.GetInts(opset < 2 ? "paddings" : "pads");
  } else {
    if (n.num_inputs() < 2 || !n.has_input(1)) return std::nullopt;
    const ir::Tensor* t = ir::GetConstantTensor(n.input(1));
    if (t == nullptr) return std::nullopt;
    std::optional<std::vector<int64_t>> v = ir::ConstantAsInts(*t);
    if (!v.has_value()) return std::nullopt;
    pads = *v;
  }
  if (pads.empty()) return std::nullopt;
  for (int64_t p : pads) {
    if (p != 0) return std::nullopt;
  }
  return 0;
}

std::optional<size_t> CastToOwnType(const ir::Node& n, int64_t /*opset*/) {
  const ir::Type& t = n.input(0)->type();
  return FirstInputIf(t.is_tensor() && t.elem_type() != ir::DataType::kUndefined &&
                      static_cast<int64_t>(t.elem_type()) == n.GetInt("to", -1));
}

// Which input a node of `ops` returns unchanged (nullopt: none), given the ai.onnx opset.
using PassThrough = std::function<std::optional<size_t>(const ir::Node& n, int64_t opset)>;

// Forwards the input `through` names to the node's users. The node's outputs other than the first
// must be unused, since they go with it. `name` names the pattern in the statistics.
RewritePattern Nop(std::string name, std::vector<std::string> ops, PassThrough through) {
  std::vector<OpCount> needs = {{ops}};
  return {.name = std::move(name),
          .root_ops = std::move(ops),
          .needs = std::move(needs),
          .match_and_rewrite = [through = std::move(through)](
                                   ir::Node& n, Rewriter& rw) -> absl::StatusOr<int64_t> {
            if (n.num_inputs() == 0 || !n.has_input(0) || n.num_outputs() == 0) return 0;
            for (size_t i = 1; i < n.num_outputs(); ++i) {
              if (n.output(i)->has_uses()) return 0;
            }
            const std::optional<size_t> input = through(n, rw.opset());
            if (!input.has_value()) return 0;
            return OneIfReplaced(rw.ReplaceWithValue(n, n.input(*input)));
          }};
}

// x op c returns x when c is `neutral` everywhere; `commutative`: also c op x.
RewritePattern NeutralOperand(std::string name, std::vector<std::string> ops, double neutral,
                              bool commutative) {
  return Nop(std::move(name), std::move(ops),
             [neutral, commutative](const ir::Node& n, int64_t opset) {
               return NeutralBinary(n, opset, neutral, commutative);
             });
}

std::vector<RewritePattern> NopPatterns() {
  return {
      // Identity too, so that one walk removes both (the identity pass then has nothing left to
      // do).
      Nop("identity", {"Identity"},
          [](const ir::Node& n, int64_t) { return FirstInputIf(n.num_outputs() == 1); }),
      Nop("identity-transpose", {"Transpose"}, IdentityPermutation),
      Nop("inference-dropout", {"Dropout"}, InferenceDropout),
      Nop("zero-pad", {"Pad"}, ZeroPad),
      Nop("one-operand", {"Concat", "Sum", "Max", "Min", "Mean"},
          [](const ir::Node& n, int64_t) { return FirstInputIf(n.num_inputs() == 1); }),
      Nop("one-part-split", {"Split"},
          [](const ir::Node& n, int64_t) {
            return FirstInputIf(n.num_outputs() == 1 && SameStaticShape(n));
          }),
      Nop("cast-to-own-type", {"Cast"}, CastToOwnType),
      Nop("same-shape", {"Reshape", "Expand", "Flatten", "Slice", "Tile", "Squeeze", "Unsqueeze"},
          [](const ir::Node& n, int64_t) { return FirstInputIf(SameStaticShape(n)); }),
      NeutralOperand("add-zero", {"Add"}, 0.0, /*commutative=*/true),
      NeutralOperand("mul-one", {"Mul"}, 1.0, /*commutative=*/true),
      NeutralOperand("sub-zero", {"Sub"}, 0.0, /*commutative=*/false),
      NeutralOperand("div-or-pow-one", {"Div", "Pow"}, 1.0, /*commutative=*/false),
  };
}

class EliminateNops final : public PatternPass {
 public:
  static constexpr char kName[] = "nops";
  EliminateNops() : PatternPass(kName, &NopPatterns) {}
};

}  // namespace

REGISTER_PASS(EliminateNops, EliminateNops::kName,
              "remove nodes that return their input unchanged");

}  // namespace onnx_opt::passes
