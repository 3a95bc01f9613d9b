// redundant-expands: removes y = Expand(x, shape) when every user of y broadcasts its operands
// itself and, given x instead, surely computes the same: the elementwise ops with multidirectional
// broadcasting (Add, Sub, Mul, Div, Pow, Mod, BitShift, the comparisons, And/Or/Xor, the Bitwise
// ops, Where, Max/Min/Sum/Mean) and MatMul, whose batch dims broadcast (as exporters write the
// rotary tables: Expand(inv_freq [1, D/2, 1], [B, D/2, 1]) @ positions [B, 1, S]).
//
// Exact by shapes: each user's output, computed from x and its other operands by the broadcasting
// rule (schema/inference's BroadcastShapes, dims known or symbolic), must be surely the output
// inference gave it (every dim the same known size or symbol). Then the values are the same too:
// Expand only repeats x along its dims of size 1 (or in front of them), and broadcasting x to the
// user's output reads, at every output element, the element of x that broadcasting y did (a dim of
// x is 1 or y's, and one of y is 1 or the output's).
//
// Kept: an Expand whose result is a graph output or feeds any other op (or a node of another
// graph); one that would leave a user's output shape different (x repeated along a dim no other
// operand has, a rank no other operand reaches); a MatMul operand whose rows or columns the Expand
// makes, or that x would make 1-D (MatMul treats vectors differently), or whose contraction dim x
// would not surely keep; anything whose shape or rank inference left unknown (run infer-shapes
// first, as the default pipeline does).
#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"
#include "schema/inference/shape_utils.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// ai.onnx ops whose inputs all broadcast to the output (multidirectionally) wherever Expand exists
// (opset 8 on; the variadic ones broadcast from 8, the others from 7 or their first version).
constexpr std::string_view kBroadcastingOps[] = {
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Pow",
    "Mod",
    "BitShift",
    "Equal",
    "Greater",
    "Less",
    "GreaterOrEqual",
    "LessOrEqual",
    "And",
    "Or",
    "Xor",
    "BitwiseAnd",
    "BitwiseOr",
    "BitwiseXor",
    "Where",
    "Max",
    "Min",
    "Sum",
    "Mean",
};

bool BroadcastsAllInputs(std::string_view op) {
  return std::find(std::begin(kBroadcastingOps), std::end(kBroadcastingOps), op) !=
         std::end(kBroadcastingOps);
}

// Every dim of `a` is surely that of `b` (same rank, same known size or symbol).
bool SurelySameShape(const std::vector<ir::Dim>& a, const ir::Shape& b) {
  if (a.size() != b.rank()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!SameDim(a[i], b.dim(i))) return false;
  }
  return true;
}

// The broadcast of `shapes` (none: a scalar), or nullopt when they surely cannot broadcast.
std::optional<ir::Shape> Broadcast(const std::vector<ir::Shape>& shapes) {
  ir::Shape out;
  for (const ir::Shape& s : shapes) {
    absl::StatusOr<ir::Shape> b = schema::inference::BroadcastShapes(out, s);
    if (!b.ok()) return std::nullopt;
    out = *std::move(b);
  }
  return out;
}

// The dims before the last two of a MatMul operand (none for a vector).
ir::Shape BatchDims(const ir::Shape& s) {
  if (s.rank() < 2) return ir::Shape();
  return ir::Shape(std::vector<ir::Dim>(s.dims().begin(), s.dims().end() - 2));
}

// Whether `user` surely computes the same when its uses of `y` = Expand(x, ...) take x instead.
bool SameWith(const ir::Node& user, const ir::Value* y, const ir::Value* x) {
  if (!user.is_onnx_domain() || user.num_outputs() != 1) return false;
  const ir::Shape* out = ShapeOf(user.output(0));
  const ir::Shape* xs = ShapeOf(x);
  const ir::Shape* ys = ShapeOf(y);  // may be unknown: the users' results decide
  if (out == nullptr || xs == nullptr) return false;
  // The operands' shapes with x in y's place.
  std::vector<ir::Shape> operands;
  for (size_t i = 0; i < user.num_inputs(); ++i) {
    if (!user.has_input(i)) return false;
    const ir::Shape* s = user.input(i) == y ? xs : ShapeOf(user.input(i));
    if (s == nullptr) return false;
    operands.push_back(*s);
  }
  const std::string& op = user.op_type();
  if (BroadcastsAllInputs(op)) {
    std::optional<ir::Shape> b = Broadcast(operands);
    return b.has_value() && SurelySameShape(b->dims(), *out);
  }
  if (op != "MatMul" || operands.size() != 2) return false;
  // x must be a matrix (or a stack of them): a vector drops its dim from the result.
  const ir::Shape& a = operands[0];
  const ir::Shape& b = operands[1];
  if (xs->rank() < 2 || a.rank() == 0 || b.rank() == 0) return false;
  // The contraction dims must still agree: surely, or because x's is y's.
  const ir::Dim& ka = a.dim(a.rank() - 1);
  const ir::Dim& kb = b.dim(b.rank() == 1 ? 0 : b.rank() - 2);
  if (!SameDim(ka, kb)) {
    if (ys == nullptr || ys->rank() < 2) return false;
    for (size_t i = 0; i < 2; ++i) {
      const size_t k = i == 0 ? 1 : 2;  // A's last dim, B's second last
      if (user.input(i) == y && !SameDim(xs->dim(xs->rank() - k), ys->dim(ys->rank() - k)))
        return false;
    }
  }
  // The result as MatMul's inference computes it: the batch dims broadcast, then A's rows and B's
  // columns (each dropped for a vector).
  std::optional<ir::Shape> batch = Broadcast({BatchDims(a), BatchDims(b)});
  if (!batch.has_value()) return false;
  std::vector<ir::Dim> dims = batch->dims();
  if (a.rank() >= 2) dims.push_back(a.dim(a.rank() - 2));
  if (b.rank() >= 2) dims.push_back(b.dim(b.rank() - 1));
  return SurelySameShape(dims, *out);
}

RewritePattern RedundantExpandPattern() {
  return {.name = "broadcast-user",
          .root_ops = {"Expand"},
          .needs = {{{"Expand"}}},
          .match_and_rewrite = [](ir::Node& expand, Rewriter& rw) -> absl::StatusOr<int64_t> {
            if (expand.num_inputs() != 2 || !expand.has_input(0) || expand.num_outputs() != 1)
              return 0;
            ir::Value* x = expand.input(0);
            const ir::Value* y = expand.output(0);
            if (!y->has_uses()) return 0;
            for (const ir::Use& use : y->uses()) {
              if (use.is_graph_output() || use.node->graph() != &rw.graph() ||
                  !SameWith(*use.node, y, x)) {
                return 0;
              }
            }
            return OneIfReplaced(rw.ReplaceWithValue(expand, x));
          }};
}

class RedundantExpands final : public PatternPass {
 public:
  static constexpr char kName[] = "redundant-expands";
  RedundantExpands()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{RedundantExpandPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(RedundantExpands, RedundantExpands::kName,
              "remove Expands whose users broadcast to the same result themselves");

}  // namespace onnx_opt::passes
