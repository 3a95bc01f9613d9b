// If, Loop and Scan: their bodies are inferred with inputs typed from the node, and the node's
// outputs come from the bodies' outputs. Loop-carried values whose shape changes between
// iterations are generalized (dims that change become unknown) before the body is inferred for
// real.
#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

constexpr int kMaxLoopRefinements = 3;

bool IsTensor(const ir::Type& t) { return t.kind() == ir::Type::Kind::kTensor; }

// What both branches agree on. A branch that says nothing leaves the other's element type only.
absl::StatusOr<ir::Type> JoinBranches(const InferenceContext& ctx, const ir::Type& a,
                                      const ir::Type& b, size_t i) {
  if (a.is_none()) return StripShapes(b);
  if (b.is_none()) return StripShapes(a);
  ir::Type u = UnionTypes(a, b);
  if (u.is_none()) {
    return ctx.Error(
        absl::StrCat("branches disagree on output ", i, ": ", a.ToString(), " vs ", b.ToString()));
  }
  return u;
}

absl::Status If(InferenceContext& ctx) {
  // A condition known from shapes (Size(x) == 4, ...) makes one branch dead: it is only tried,
  // so that what cannot happen neither warns nor constrains the outputs.
  std::optional<bool> cond;
  if (auto c = ctx.input_shape_value(0); c && c->elems.size() == 1 && c->elems[0].is_known()) {
    cond = c->elems[0].value() != 0;
  }
  ASSIGN_OR_RETURN(auto then_types, ctx.InferSubgraph("then_branch", {}, /*trial=*/cond && !*cond));
  ASSIGN_OR_RETURN(auto else_types, ctx.InferSubgraph("else_branch", {}, /*trial=*/cond && *cond));
  if (cond) {
    const std::vector<ir::Type>& live = *cond ? then_types : else_types;
    if (live.size() != ctx.num_outputs()) {
      return ctx.Error(absl::StrCat("the branch taken has ", live.size(), " outputs for ",
                                    ctx.num_outputs(), " node outputs"));
    }
    for (size_t i = 0; i < live.size(); ++i) ctx.SetOutputType(i, live[i]);
    return absl::OkStatus();
  }
  if (then_types.size() != ctx.num_outputs() || else_types.size() != ctx.num_outputs()) {
    return ctx.Error(absl::StrCat("branches have ", then_types.size(), " and ", else_types.size(),
                                  " outputs for ", ctx.num_outputs(), " node outputs"));
  }
  for (size_t i = 0; i < ctx.num_outputs(); ++i) {
    ASSIGN_OR_RETURN(auto t, JoinBranches(ctx, then_types[i], else_types[i], i));
    ctx.SetOutputType(i, t);
  }
  return absl::OkStatus();
}

// A loop-carried value starts as `initial` and is replaced by `next` each iteration: what holds for
// both. Unknown `next` keeps the kind and element type of `initial`.
ir::Type Carried(const ir::Type& initial, const ir::Type& next) {
  if (next.is_none()) return StripShapes(initial);
  if (initial.is_none()) return StripShapes(next);
  // An optional initial value replaced by a plain one (or the reverse): the body's type decides.
  if (initial.kind() != next.kind()) return StripShapes(next);
  ir::Type u = UnionTypes(initial, next);
  return u.is_none() ? ir::Type() : u;
}

// The body input type of a carried value for the next refinement round.
ir::Type Loosen(const ir::Type& initial, const ir::Type& next) {
  if (!initial.is_none() && !next.is_none() && initial.kind() != next.kind()) return initial;
  return Carried(initial, next);
}

// Infers `body` with state inputs at [first, first + n) refined until they are stable.
// `inputs` holds every body input type; returns the final body output types.
absl::StatusOr<std::vector<ir::Type>> InferCarried(InferenceContext& ctx, std::string_view body,
                                                   std::vector<ir::Type>& inputs, size_t first,
                                                   size_t n, size_t out_first) {
  for (int round = 0; round < kMaxLoopRefinements; ++round) {
    ASSIGN_OR_RETURN(auto outs, ctx.InferSubgraph(body, inputs, /*trial=*/true));
    bool stable = true;
    for (size_t j = 0; j < n; ++j) {
      if (out_first + j >= outs.size()) break;
      ir::Type next = Loosen(inputs[first + j], outs[out_first + j]);
      if (next != inputs[first + j]) {
        inputs[first + j] = next;
        stable = false;
      }
    }
    if (stable) break;
    if (round + 1 == kMaxLoopRefinements) {
      for (size_t j = 0; j < n; ++j) inputs[first + j] = StripShapes(inputs[first + j]);
    }
  }
  return ctx.InferSubgraph(body, inputs);
}

absl::Status Loop(InferenceContext& ctx) {
  size_t n_carried = ctx.num_inputs() >= 2 ? ctx.num_inputs() - 2 : 0;
  std::vector<ir::Type> inputs{ir::Type::Tensor(ir::DataType::kInt64, Shape()),
                               ir::Type::Tensor(ir::DataType::kBool, Shape())};
  for (size_t j = 0; j < n_carried; ++j) inputs.push_back(ctx.input_type(2 + j));
  ASSIGN_OR_RETURN(auto outs, InferCarried(ctx, "body", inputs, 2, n_carried, 1));
  if (outs.size() < 1 + n_carried) return ctx.Error("body has too few outputs");
  for (size_t j = 0; j < n_carried && j < ctx.num_outputs(); ++j) {
    ctx.SetOutputType(j, Carried(inputs[2 + j], outs[1 + j]));
  }
  // Scan outputs: one more leading dim, the number of iterations.
  for (size_t k = 1 + n_carried; k < outs.size(); ++k) {
    size_t out = k - 1;
    if (out >= ctx.num_outputs()) break;
    const ir::Type& t = outs[k];
    if (IsTensor(t)) {
      ir::Type o = ir::Type::Tensor(t.elem_type());
      if (t.shape()) {
        std::vector<Dim> dims{Dim::Unknown()};
        dims.insert(dims.end(), t.shape()->dims().begin(), t.shape()->dims().end());
        o.set_shape(Shape(dims));
      }
      ctx.SetOutputType(out, o);
    } else if (!t.is_none()) {
      ctx.SetOutputType(out, StripShapes(t));
    }
  }
  return absl::OkStatus();
}

// Removes dim `axis` (or nothing when the rank is unknown).
ir::Type Slice(const ir::Type& t, int64_t axis) {
  if (!IsTensor(t)) return StripShapes(t);
  ir::Type o = ir::Type::Tensor(t.elem_type());
  if (t.shape()) {
    auto a = NormalizeAxis(axis, static_cast<int64_t>(t.shape()->rank()));
    if (a) {
      std::vector<Dim> dims(t.shape()->dims());
      dims.erase(dims.begin() + *a);
      o.set_shape(Shape(dims));
    }
  }
  return o;
}

absl::Status Scan(InferenceContext& ctx) {
  int64_t m = ctx.GetInt("num_scan_inputs", 0);
  bool v8 = ctx.since_version() < 9;
  size_t first = v8 ? 1 : 0;  // Scan-8 starts with sequence_lens
  if (m <= 0 || ctx.num_inputs() < first + static_cast<size_t>(m)) {
    return ctx.Error("num_scan_inputs does not match the inputs");
  }
  size_t n_states = ctx.num_inputs() - first - static_cast<size_t>(m);
  std::vector<int64_t> in_axes = ctx.GetInts("scan_input_axes");
  std::vector<int64_t> out_axes = ctx.GetInts("scan_output_axes");
  std::vector<ir::Type> inputs;
  Dim batch;
  for (size_t j = 0; j < n_states; ++j) {
    ir::Type t = ctx.input_type(first + j);
    if (v8) {
      if (IsTensor(t) && t.shape() && t.shape()->rank() >= 1) {
        batch = MergeDims(batch, t.shape()->dim(0));
      }
      t = Slice(t, 0);
    }
    inputs.push_back(t);
  }
  Dim seq_len;
  for (int64_t k = 0; k < m; ++k) {
    ir::Type t = ctx.input_type(first + n_states + k);
    int64_t axis = v8 ? 1 : (static_cast<size_t>(k) < in_axes.size() ? in_axes[k] : 0);
    if (IsTensor(t) && t.shape()) {
      auto a = NormalizeAxis(axis, static_cast<int64_t>(t.shape()->rank()));
      if (!a) return ctx.Error("scan_input_axes is out of range");
      if (k == 0) seq_len = t.shape()->dim(static_cast<size_t>(*a));
      if (v8) batch = MergeDims(batch, t.shape()->dim(0));
    }
    if (v8) t = Slice(t, 0);  // drop batch, then the sequence axis (now 0)
    inputs.push_back(Slice(t, v8 ? 0 : axis));
  }
  ASSIGN_OR_RETURN(auto outs, InferCarried(ctx, "body", inputs, 0, n_states, 0));
  for (size_t j = 0; j < n_states && j < ctx.num_outputs() && j < outs.size(); ++j) {
    ir::Type t = Carried(inputs[j], outs[j]);
    if (v8 && IsTensor(t)) {
      ir::Type o = ir::Type::Tensor(t.elem_type());
      if (t.shape()) {
        std::vector<Dim> dims{batch};
        dims.insert(dims.end(), t.shape()->dims().begin(), t.shape()->dims().end());
        o.set_shape(Shape(dims));
      }
      t = o;
    }
    ctx.SetOutputType(j, t);
  }
  for (size_t k = n_states; k < outs.size() && k < ctx.num_outputs(); ++k) {
    const ir::Type& t = outs[k];
    if (!IsTensor(t)) {
      if (!t.is_none()) ctx.SetOutputType(k, StripShapes(t));
      continue;
    }
    ir::Type o = ir::Type::Tensor(t.elem_type());
    if (t.shape()) {
      std::vector<Dim> dims(t.shape()->dims());
      if (v8) {
        dims.insert(dims.begin(), seq_len);
        dims.insert(dims.begin(), batch);
      } else {
        size_t idx = k - n_states;
        int64_t axis = idx < out_axes.size() ? out_axes[idx] : 0;
        auto a = NormalizeAxis(axis, static_cast<int64_t>(dims.size() + 1));
        if (!a) return ctx.Error("scan_output_axes is out of range");
        dims.insert(dims.begin() + *a, seq_len);
      }
      o.set_shape(Shape(dims));
    }
    ctx.SetOutputType(k, o);
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterControlFlowOps(InferenceRegistry& r) {
  r.Register("If", If);
  r.Register("Loop", Loop);
  r.Register("Scan", Scan);
}

}  // namespace onnx_opt::schema::inference
