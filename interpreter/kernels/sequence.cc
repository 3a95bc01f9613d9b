// Sequences and optionals: SequenceConstruct/Empty/Insert/At/Erase/Length, SplitToSequence,
// ConcatFromSequence, SequenceMap, Optional, OptionalHasElement, OptionalGetElement.
#include <algorithm>

#include "interpreter/kernels/common.h"
#include "ir/graph.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

StatusOr<const RuntimeValue*> SeqInput(const KernelContext& ctx, size_t i) {
  if (!ctx.has_input(i) || !ctx.value(i).is_sequence()) {
    return ctx.Error(absl::StrCat("input ", i, " must be a sequence"));
  }
  return &ctx.value(i);
}

StatusOr<int64_t> Position(const KernelContext& ctx, size_t i, int64_t size, bool insert) {
  // Read exactly (through a double, 2^63 - 1 became 2^63, whose conversion back is undefined).
  ASSIGN_OR_RETURN(int64_t pos, ScalarIntInput(ctx, i, insert ? size : size - 1));
  if (pos < 0) pos += size;
  if (pos < 0 || pos > size || (!insert && pos == size)) return ctx.Error("position out of range");
  return pos;
}

Status SequenceConstructKernel(KernelContext& ctx) {
  std::vector<Tensor> elems;
  DataType dt = DataType::kUndefined;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
    elems.push_back(*t);
    dt = t->dtype();
  }
  ctx.set_output(0, RuntimeValue::Sequence(std::move(elems), dt));
  return OkStatus();
}

Status SequenceEmptyKernel(KernelContext& ctx) {
  ctx.set_output(0, RuntimeValue::Sequence({}, static_cast<DataType>(ctx.GetInt("dtype", 1))));
  return OkStatus();
}

Status SequenceInsertKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const RuntimeValue* s, SeqInput(ctx, 0));
  ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(1));
  std::vector<Tensor> elems = s->sequence();
  ASSIGN_OR_RETURN(int64_t pos, Position(ctx, 2, elems.size(), true));
  elems.insert(elems.begin() + pos, *t);
  ctx.set_output(0, RuntimeValue::Sequence(std::move(elems), t->dtype()));
  return OkStatus();
}

Status SequenceAtKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const RuntimeValue* s, SeqInput(ctx, 0));
  if (!ctx.has_input(1)) return ctx.Error("position is required");
  ASSIGN_OR_RETURN(int64_t pos, Position(ctx, 1, s->sequence().size(), false));
  ctx.set_output(0, s->sequence()[pos]);
  return OkStatus();
}

Status SequenceEraseKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const RuntimeValue* s, SeqInput(ctx, 0));
  std::vector<Tensor> elems = s->sequence();
  ASSIGN_OR_RETURN(int64_t pos, Position(ctx, 1, elems.size(), false));
  elems.erase(elems.begin() + pos);
  ctx.set_output(0, RuntimeValue::Sequence(std::move(elems), s->sequence_elem_type()));
  return OkStatus();
}

Status SequenceLengthKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const RuntimeValue* s, SeqInput(ctx, 0));
  ctx.set_output(0, Tensor::Scalar<int64_t>(DataType::kInt64, s->sequence().size()));
  return OkStatus();
}

Status SplitToSequenceKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 0), x->rank()));
  const bool keepdims = ctx.GetInt("keepdims", 1) != 0;
  const int64_t len = x->dim(axis);
  std::vector<int64_t> sizes;
  bool drop_axis = false;
  if (!ctx.has_input(1)) {
    sizes.assign(len, 1);
    drop_axis = !keepdims;
  } else {
    ASSIGN_OR_RETURN(std::vector<int64_t> split, ctx.IntsInput(1));
    if (ctx.input(1).rank() == 0) {
      // Chunks of c, the last one smaller (a c of 0 or less never ends: found by the run fuzzer).
      const int64_t c = split[0];
      if (c <= 0) return ctx.Error(absl::StrCat("a scalar split must be positive, got ", c));
      for (int64_t s = 0; s < len; s += c) sizes.push_back(std::min(c, len - s));
    } else {
      // The parts must tile the axis exactly: anything else would read past the input.
      int64_t total = 0;
      for (int64_t s : split) {
        if (s < 0 || s > len - total) {
          return ctx.Error(absl::StrCat("split ", DimsToString(split),
                                        " does not add up to the axis length ", len));
        }
        total += s;
      }
      if (total != len) {
        return ctx.Error(absl::StrCat("split ", DimsToString(split),
                                      " does not add up to the axis length ", len));
      }
      sizes = split;
    }
  }
  const int64_t outer = DimProduct(x->dims(), 0, axis),
                inner = DimProduct(x->dims(), axis + 1, x->rank());
  std::vector<Tensor> elems;
  int64_t offset = 0;
  for (int64_t s : sizes) {
    std::vector<int64_t> dims = x->dims();
    dims[axis] = s;
    Tensor out(x->dtype(), dims);
    for (int64_t o = 0; o < outer; ++o)
      CopyElements(*x, (o * len + offset) * inner, out, o * s * inner, s * inner);
    offset += s;
    if (drop_axis) {
      dims.erase(dims.begin() + axis);
      out = out.Reshaped(dims);
    }
    elems.push_back(std::move(out));
  }
  ctx.set_output(0, RuntimeValue::Sequence(std::move(elems), x->dtype()));
  return OkStatus();
}

Status ConcatFromSequenceKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const RuntimeValue* s, SeqInput(ctx, 0));
  const auto& elems = s->sequence();
  if (elems.empty()) return ctx.Error("empty sequence");
  const bool new_axis = ctx.GetInt("new_axis", 0) != 0;
  const int64_t r = elems[0].rank() + (new_axis ? 1 : 0);
  ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.GetInt("axis", 0), r));
  std::vector<Tensor> parts;
  for (const Tensor& t : elems) {
    if (t.rank() != elems[0].rank()) {
      return ctx.Error(absl::StrCat("sequence elements ", elems[0].ShapeString(), " and ",
                                    t.ShapeString(), " differ in rank"));
    }
    if (new_axis) {
      std::vector<int64_t> d = t.dims();
      d.insert(d.begin() + axis, 1);
      parts.push_back(t.Reshaped(d));
    } else {
      parts.push_back(t);
    }
  }
  // The parts must agree on type, rank and every dim but the axis (a sequence may hold tensors of
  // any shapes): others were read or written past their ends.
  for (const Tensor& t : parts) {
    bool fits = t.rank() == r && t.dtype() == parts[0].dtype();
    for (int64_t d = 0; fits && d < r; ++d) fits = d == axis || t.dim(d) == parts[0].dim(d);
    if (!fits) {
      return ctx.Error(absl::StrCat("sequence elements ", parts[0].ShapeString(), " and ",
                                    t.ShapeString(), " cannot be concatenated on axis ", axis));
    }
  }
  std::vector<int64_t> dims = parts[0].dims();
  dims[axis] = 0;
  for (const Tensor& t : parts) dims[axis] += t.dim(axis);
  Tensor out(parts[0].dtype(), dims);
  const int64_t outer = DimProduct(dims, 0, axis), inner = DimProduct(dims, axis + 1, r);
  int64_t offset = 0;
  for (const Tensor& t : parts) {
    const int64_t chunk = t.dim(axis) * inner;
    for (int64_t o = 0; o < outer; ++o)
      CopyElements(t, o * chunk, out, o * dims[axis] * inner + offset, chunk);
    offset += chunk;
  }
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

Status SequenceMapKernel(KernelContext& ctx) {
  const ir::Graph* body = ctx.GetGraph("body");
  if (body == nullptr) return ctx.Error("missing body");
  if (body->inputs().size() != ctx.num_inputs() || body->outputs().size() != ctx.num_outputs()) {
    return ctx.Error(absl::StrCat("the body takes ", body->inputs().size(), " inputs and returns ",
                                  body->outputs().size(), " outputs; the node has ",
                                  ctx.num_inputs(), " and ", ctx.num_outputs()));
  }
  ASSIGN_OR_RETURN(const RuntimeValue* s, SeqInput(ctx, 0));
  const size_t n = s->sequence().size();
  std::vector<std::vector<Tensor>> outs(ctx.num_outputs());
  for (size_t i = 0; i < n; ++i) {
    std::vector<RuntimeValue> args{s->sequence()[i]};
    for (size_t j = 1; j < ctx.num_inputs(); ++j) {
      const RuntimeValue& v = ctx.value(j);
      if (v.is_sequence()) {
        if (i >= v.sequence().size()) return ctx.Error("sequences differ in length");
        args.push_back(v.sequence()[i]);
      } else {
        args.push_back(v);
      }
    }
    ASSIGN_OR_RETURN(std::vector<RuntimeValue> r, ctx.RunSubgraph(*body, std::move(args)));
    for (size_t k = 0; k < outs.size(); ++k) {
      if (k >= r.size() || !r[k].is_tensor())
        return ctx.Error("the body must return one tensor per output");
      outs[k].push_back(r[k].tensor());
    }
  }
  for (size_t k = 0; k < outs.size(); ++k) {
    DataType dt = outs[k].empty() ? body->outputs()[k]->type().elem_type() : outs[k][0].dtype();
    ctx.set_output(k, RuntimeValue::Sequence(std::move(outs[k]), dt));
  }
  return OkStatus();
}

Status OptionalKernel(KernelContext& ctx) {
  ctx.set_output(0, ctx.has_input(0) ? ctx.value(0) : RuntimeValue::None());
  return OkStatus();
}

Status OptionalHasElementKernel(KernelContext& ctx) {
  const bool has = ctx.has_input(0) && !ctx.value(0).is_none();
  ctx.set_output(0, Tensor::Scalar<bool>(DataType::kBool, has));
  return OkStatus();
}

Status OptionalGetElementKernel(KernelContext& ctx) {
  if (!ctx.has_input(0) || ctx.value(0).is_none()) return ctx.Error("the optional is empty");
  ctx.set_output(0, ctx.value(0));
  return OkStatus();
}

}  // namespace

void RegisterSequenceKernels(KernelRegistry& r) {
  r.Register("", "SequenceConstruct", 11, SequenceConstructKernel);
  r.Register("", "SequenceEmpty", 11, SequenceEmptyKernel);
  r.Register("", "SequenceInsert", 11, SequenceInsertKernel);
  r.Register("", "SequenceAt", 11, SequenceAtKernel);
  r.Register("", "SequenceErase", 11, SequenceEraseKernel);
  r.Register("", "SequenceLength", 11, SequenceLengthKernel);
  r.Register("", "SplitToSequence", 11, SplitToSequenceKernel);
  r.Register("", "ConcatFromSequence", 11, ConcatFromSequenceKernel);
  r.Register("", "SequenceMap", 17, SequenceMapKernel);
  r.Register("", "Optional", 15, OptionalKernel);
  r.Register("", "OptionalHasElement", 15, OptionalHasElementKernel);
  r.Register("", "OptionalGetElement", 15, OptionalGetElementKernel);
}

}  // namespace onnx_opt::interpreter
