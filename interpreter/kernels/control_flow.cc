// Control flow: If, Loop, Scan (opset 8 batched form and opset 9+). Bodies run through the
// context's subgraph runner, so they see outer-scope values directly.
#include <algorithm>

#include "interpreter/kernels/common.h"
#include "ir/type.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

StatusOr<bool> ScalarBool(const KernelContext& ctx, size_t i) {
  ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
  if (t->size() != 1) return ctx.Error(absl::StrCat("input ", i, " must hold one element"));
  if (t->dtype() == DataType::kBool) return t->data<bool>()[0];
  ASSIGN_OR_RETURN(double v, ScalarInput(ctx, i, 0));
  return v != 0;
}

Status IfKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(bool cond, ScalarBool(ctx, 0));
  const ir::Graph* g = ctx.GetGraph(cond ? "then_branch" : "else_branch");
  if (g == nullptr) return ctx.Error("missing branch");
  ASSIGN_OR_RETURN(std::vector<RuntimeValue> outs, ctx.RunSubgraph(*g, {}));
  for (size_t i = 0; i < ctx.num_outputs() && i < outs.size(); ++i)
    ctx.set_output(i, std::move(outs[i]));
  return OkStatus();
}

// Stacks per-iteration tensors along a new axis 0 (or an empty tensor typed from `type`).
StatusOr<Tensor> Stack(const std::vector<Tensor>& parts, const ir::Type& type) {
  if (parts.empty()) {
    DataType dt = type.is_tensor() ? type.elem_type() : DataType::kFloat;
    std::vector<int64_t> dims{0};
    if (type.is_tensor() && type.shape()) {
      for (const ir::Dim& d : type.shape()->dims()) dims.push_back(d.is_known() ? d.value() : 0);
    }
    return Tensor(dt, dims);
  }
  std::vector<int64_t> dims{static_cast<int64_t>(parts.size())};
  dims.insert(dims.end(), parts[0].dims().begin(), parts[0].dims().end());
  Tensor out(parts[0].dtype(), dims);
  const int64_t n = parts[0].size();
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].dims() != parts[0].dims() || parts[i].dtype() != parts[0].dtype()) {
      return absl::InvalidArgumentError("scan outputs differ in shape between iterations");
    }
    CopyElements(parts[i], 0, out, i * n, n);
  }
  return out;
}

Status LoopKernel(KernelContext& ctx) {
  const ir::Graph* body = ctx.GetGraph("body");
  if (body == nullptr) return ctx.Error("missing body");
  int64_t max_trip = std::numeric_limits<int64_t>::max();
  if (ctx.has_input(0) && ctx.input(0).size() > 0) {
    // Read exactly (through a double, 2^63 - 1 became 2^63, whose conversion back is undefined).
    ASSIGN_OR_RETURN(max_trip, ScalarIntInput(ctx, 0, 0));
  }
  bool cond = true;
  if (ctx.has_input(1) && ctx.input(1).size() > 0) {
    ASSIGN_OR_RETURN(cond, ScalarBool(ctx, 1));
  }
  const size_t n_carried = ctx.num_inputs() > 2 ? ctx.num_inputs() - 2 : 0;
  std::vector<RuntimeValue> carried;
  for (size_t i = 0; i < n_carried; ++i) carried.push_back(ctx.value(i + 2));
  const size_t n_body_out = body->outputs().size();
  if (n_body_out < 1 + n_carried) return ctx.Error("body has too few outputs");
  const size_t n_scan = n_body_out - 1 - n_carried;
  std::vector<std::vector<Tensor>> scans(n_scan);
  for (int64_t it = 0; it < max_trip && cond; ++it) {
    std::vector<RuntimeValue> args;
    args.push_back(Tensor::Scalar<int64_t>(DataType::kInt64, it));
    args.push_back(Tensor::Scalar<bool>(DataType::kBool, cond));
    for (auto& v : carried) args.push_back(v);
    ASSIGN_OR_RETURN(std::vector<RuntimeValue> outs, ctx.RunSubgraph(*body, std::move(args)));
    if (!outs[0].is_tensor() || outs[0].tensor().size() != 1)
      return ctx.Error("body condition must be a scalar");
    {
      Tensor c = outs[0].tensor();
      ASSIGN_OR_RETURN(Tensor cb, CastTensor(c, DataType::kBool));
      cond = cb.data<bool>()[0];
    }
    for (size_t i = 0; i < n_carried; ++i) carried[i] = std::move(outs[1 + i]);
    for (size_t i = 0; i < n_scan; ++i) {
      const RuntimeValue& v = outs[1 + n_carried + i];
      if (!v.is_tensor()) return ctx.Error("scan outputs must be tensors");
      scans[i].push_back(v.tensor());
    }
  }
  for (size_t i = 0; i < n_carried; ++i) ctx.set_output(i, std::move(carried[i]));
  for (size_t i = 0; i < n_scan; ++i) {
    ASSIGN_OR_RETURN(Tensor t, Stack(scans[i], body->outputs()[1 + n_carried + i]->type()));
    ctx.set_output(n_carried + i, std::move(t));
  }
  return OkStatus();
}

// Slice `t` at index `i` along `axis` (dropping the axis).
Tensor SliceAt(const Tensor& t, int64_t axis, int64_t i) {
  std::vector<int64_t> dims = t.dims();
  const int64_t len = dims[axis];
  dims.erase(dims.begin() + axis);
  Tensor out(t.dtype(), dims);
  const int64_t outer = DimProduct(t.dims(), 0, axis),
                inner = DimProduct(t.dims(), axis + 1, t.rank());
  for (int64_t o = 0; o < outer; ++o) CopyElements(t, (o * len + i) * inner, out, o * inner, inner);
  return out;
}

// `t` with `n` entries along axis 0: its first n, or all of them followed by zeros (empty strings).
Tensor WithLength(const Tensor& t, int64_t n) {
  std::vector<int64_t> dims = t.dims();
  dims[0] = n;
  Tensor out(t.dtype(), dims);
  CopyElements(t, 0, out, 0, std::min(t.size(), out.size()));
  return out;
}

// One Scan over unbatched inputs (opset 9 form). `input_directions` names the attribute giving each
// scan input's direction: "scan_input_directions" from opset 9, "directions" in opset 8.
Status ScanOnce(KernelContext& ctx, const ir::Graph& body, std::vector<RuntimeValue> states,
                const std::vector<Tensor>& scan_in, const char* input_directions,
                std::vector<RuntimeValue>& final_states, std::vector<Tensor>& scan_out) {
  const size_t n_state = states.size(), m = scan_in.size();
  if (body.outputs().size() < n_state) {
    return ctx.Error(absl::StrCat("body has ", body.outputs().size(), " outputs for ", n_state,
                                  " state variables"));
  }
  const size_t k = body.outputs().size() - n_state;
  // One entry per scan input (output): the loops below index them so.
  auto per = [&](const char* name, size_t count) -> StatusOr<std::vector<int64_t>> {
    std::vector<int64_t> v = ctx.GetInts(name, std::vector<int64_t>(count, 0));
    if (v.size() != count) {
      return ctx.Error(absl::StrCat(name, " has ", v.size(), " entries for ", count,
                                    count == m ? " scan inputs" : " scan outputs"));
    }
    return v;
  };
  ASSIGN_OR_RETURN(std::vector<int64_t> in_axes, per("scan_input_axes", m));
  ASSIGN_OR_RETURN(std::vector<int64_t> in_dirs, per(input_directions, m));
  ASSIGN_OR_RETURN(std::vector<int64_t> out_axes, per("scan_output_axes", k));
  ASSIGN_OR_RETURN(std::vector<int64_t> out_dirs, per("scan_output_directions", k));
  int64_t len = -1;
  for (size_t j = 0; j < m; ++j) {
    ASSIGN_OR_RETURN(in_axes[j], NormalizeAxis(in_axes[j], scan_in[j].rank()));
    const int64_t l = scan_in[j].dim(in_axes[j]);
    if (len >= 0 && l != len) return ctx.Error("scan inputs differ in length");
    len = l;
  }
  if (len < 0) len = 0;
  std::vector<std::vector<Tensor>> parts(k);
  for (int64_t it = 0; it < len; ++it) {
    std::vector<RuntimeValue> args = states;
    for (size_t j = 0; j < m; ++j) {
      const int64_t idx = in_dirs[j] ? len - 1 - it : it;
      args.push_back(SliceAt(scan_in[j], in_axes[j], idx));
    }
    ASSIGN_OR_RETURN(std::vector<RuntimeValue> outs, ctx.RunSubgraph(body, std::move(args)));
    for (size_t i = 0; i < k; ++i) {
      if (!outs[n_state + i].is_tensor())
        return ctx.Error(absl::StrCat("scan output ", i, " must be a tensor"));
    }
    for (size_t i = 0; i < n_state; ++i) states[i] = std::move(outs[i]);
    for (size_t i = 0; i < k; ++i) parts[i].push_back(outs[n_state + i].tensor());
  }
  final_states = std::move(states);
  scan_out.clear();
  for (size_t i = 0; i < k; ++i) {
    if (out_dirs[i]) std::reverse(parts[i].begin(), parts[i].end());
    ASSIGN_OR_RETURN(Tensor st, Stack(parts[i], body.outputs()[n_state + i]->type()));
    const int64_t r = st.rank();
    ASSIGN_OR_RETURN(int64_t ax, NormalizeAxis(out_axes[i], r));
    if (ax != 0) {
      std::vector<int64_t> perm;
      for (int64_t d = 1; d <= ax; ++d) perm.push_back(d);
      perm.push_back(0);
      for (int64_t d = ax + 1; d < r; ++d) perm.push_back(d);
      ASSIGN_OR_RETURN(st, TransposeTensor(st, perm));
    }
    scan_out.push_back(std::move(st));
  }
  return OkStatus();
}

Status ScanKernel(KernelContext& ctx) {
  const ir::Graph* body = ctx.GetGraph("body");
  if (body == nullptr) return ctx.Error("missing body");
  const int64_t m = ctx.GetInt("num_scan_inputs", 0);
  const bool v8 = ctx.opset() < 9;
  const size_t first = v8 ? 1 : 0;
  if (m < 0 || ctx.num_inputs() < first || static_cast<uint64_t>(m) > ctx.num_inputs() - first) {
    return ctx.Error(
        absl::StrCat("num_scan_inputs ", m, " does not fit the ", ctx.num_inputs(), " inputs"));
  }
  const size_t n_state = ctx.num_inputs() - first - m;
  if (!v8) {
    std::vector<RuntimeValue> states;
    for (size_t i = 0; i < n_state; ++i) states.push_back(ctx.value(first + i));
    std::vector<Tensor> scan_in;
    for (int64_t j = 0; j < m; ++j) scan_in.push_back(ctx.input(first + n_state + j));
    std::vector<RuntimeValue> fs;
    std::vector<Tensor> so;
    RETURN_IF_ERROR(ScanOnce(ctx, *body, states, scan_in, "scan_input_directions", fs, so));
    for (size_t i = 0; i < n_state; ++i) ctx.set_output(i, std::move(fs[i]));
    for (size_t i = 0; i < so.size(); ++i) ctx.set_output(n_state + i, std::move(so[i]));
    return OkStatus();
  }
  // Opset 8: states and scan inputs carry a batch axis 0, scan inputs then a sequence axis 1, and
  // the optional sequence_lens (input 0) says how many steps of each batch entry are real: those
  // are scanned (in the given direction), the final state is the one after them, and each scan
  // output is padded with zeros to the full length (the spec leaves those positions unspecified).
  if (first >= ctx.num_inputs()) return ctx.Error("Scan has no states or scan inputs");
  const int64_t batch = ctx.input(first).rank() > 0 ? ctx.input(first).dim(0) : 0;
  // Every state and scan input is sliced along its batch axis 0.
  for (size_t i = first; i < ctx.num_inputs(); ++i) {
    ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
    if (t->rank() < 1 || t->dim(0) != batch) {
      return ctx.Error(absl::StrCat("input ", i, " of shape ", DimsToString(t->dims()),
                                    " has no batch axis of ", batch));
    }
  }
  int64_t max_len = 0;
  for (int64_t j = 0; j < m; ++j) {
    const Tensor& t = ctx.input(first + n_state + j);
    if (t.rank() < 2) {
      return ctx.Error(absl::StrCat("scan input ", j, " of shape ", DimsToString(t.dims()),
                                    " has no sequence axis 1"));
    }
    if (j > 0 && t.dim(1) != max_len) return ctx.Error("scan inputs differ in length");
    max_len = t.dim(1);
  }
  std::vector<int64_t> lengths(static_cast<size_t>(batch), max_len);
  if (ctx.has_input(0)) {
    ASSIGN_OR_RETURN(const Tensor* lens, ctx.TensorInput(0));
    if (lens->dtype() != DataType::kInt64 || lens->rank() != 1 || lens->dim(0) != batch) {
      return ctx.Error(
          absl::StrCat("sequence_lens must be int64[", batch, "], got ", lens->ShapeString()));
    }
    lengths = lens->ToVector<int64_t>();
    for (int64_t len : lengths) {
      if (len < 0 || len > max_len) {
        return ctx.Error(absl::StrCat("sequence length ", len, " is outside 0..", max_len));
      }
    }
  }
  std::vector<std::vector<Tensor>> state_parts(n_state), scan_parts;
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t len = lengths[static_cast<size_t>(b)];
    std::vector<RuntimeValue> states;
    for (size_t i = 0; i < n_state; ++i) states.push_back(SliceAt(ctx.input(first + i), 0, b));
    std::vector<Tensor> scan_in;
    for (int64_t j = 0; j < m; ++j) {
      Tensor steps = SliceAt(ctx.input(first + n_state + j), 0, b);
      scan_in.push_back(len == max_len ? std::move(steps) : WithLength(steps, len));
    }
    std::vector<RuntimeValue> fs;
    std::vector<Tensor> so;
    RETURN_IF_ERROR(ScanOnce(ctx, *body, states, scan_in, "directions", fs, so));
    for (size_t i = 0; i < n_state; ++i) state_parts[i].push_back(fs[i].tensor());
    scan_parts.resize(so.size());
    for (size_t i = 0; i < so.size(); ++i) {
      // Opset 8 has no scan_output_axes; a node that sets it anyway must not move the steps' axis.
      if (so[i].rank() < 1 || so[i].dim(0) != len) {
        return ctx.Error(absl::StrCat("scan output ", i, " of shape ", DimsToString(so[i].dims()),
                                      " does not have its ", len, " steps on axis 0"));
      }
      scan_parts[i].push_back(len == max_len ? std::move(so[i]) : WithLength(so[i], max_len));
    }
  }
  // An entry with no steps has no step to give its outputs' shape (only the body's declaration,
  // which may leave dims unknown): it takes the shape of an entry that ran.
  for (std::vector<Tensor>& parts : scan_parts) {
    const auto ran =
        std::find_if(lengths.begin(), lengths.end(), [](int64_t len) { return len > 0; });
    if (ran == lengths.end()) break;
    const Tensor& shaped = parts[static_cast<size_t>(ran - lengths.begin())];
    for (size_t b = 0; b < parts.size(); ++b) {
      if (lengths[b] == 0) parts[b] = Tensor(shaped.dtype(), shaped.dims());
    }
  }
  for (size_t i = 0; i < n_state; ++i) {
    ASSIGN_OR_RETURN(Tensor t, Stack(state_parts[i], ir::Type()));
    ctx.set_output(i, std::move(t));
  }
  for (size_t i = 0; i < scan_parts.size(); ++i) {
    ASSIGN_OR_RETURN(Tensor t, Stack(scan_parts[i], ir::Type()));
    ctx.set_output(n_state + i, std::move(t));
  }
  return OkStatus();
}

}  // namespace

void RegisterControlFlowKernels(KernelRegistry& r) {
  r.Register("", "If", 1, IfKernel);
  r.Register("", "Loop", 1, LoopKernel);
  r.Register("", "Scan", 8, ScanKernel);
}

}  // namespace onnx_opt::interpreter
