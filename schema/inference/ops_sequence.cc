// Sequences and optionals: SequenceEmpty/Construct/Insert/At/Erase/Length, SplitToSequence,
// ConcatFromSequence, SequenceMap (its body is inferred per element), Optional,
// OptionalGetElement, OptionalHasElement.
#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

bool IsSeq(const ir::Type& t) { return t.kind() == ir::Type::Kind::kSequence && t.has_inner(); }

absl::Status SequenceEmpty(InferenceContext& ctx) {
  ASSIGN_OR_RETURN(auto dt, DataTypeAttr(ctx, ctx.GetInt("dtype", 1)));
  ctx.SetOutputType(0, ir::Type::Sequence(ir::Type::Tensor(dt)));
  return absl::OkStatus();
}

absl::Status SequenceConstruct(InferenceContext& ctx) {
  ir::Type elem;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const ir::Type& t = ctx.input_type(i);
    if (t.is_none()) return absl::OkStatus();
    if (i == 0) {
      elem = t;
      continue;
    }
    if (t.elem_type() != elem.elem_type()) return ctx.Error("inputs differ in element type");
    elem = UnionTypes(elem, t);
  }
  if (!elem.is_none()) ctx.SetOutputType(0, ir::Type::Sequence(elem));
  return absl::OkStatus();
}

absl::Status SequenceInsert(InferenceContext& ctx) {
  const ir::Type& seq = ctx.input_type(0);
  const ir::Type& t = ctx.input_type(1);
  if (!IsSeq(seq)) {
    if (!t.is_none()) ctx.SetOutputType(0, ir::Type::Sequence(StripShapes(t)));
    return absl::OkStatus();
  }
  if (t.is_none()) {
    ctx.SetOutputType(0, ir::Type::Sequence(StripShapes(seq.inner())));
    return absl::OkStatus();
  }
  if (t.elem_type() != seq.inner().elem_type() &&
      seq.inner().elem_type() != ir::DataType::kUndefined) {
    return ctx.Error("tensor and sequence differ in element type");
  }
  // An empty sequence's element shape says nothing about what it will hold.
  ir::Type u = UnionTypes(seq.inner(), t);
  ctx.SetOutputType(0, ir::Type::Sequence(u.is_none() ? StripShapes(t) : u));
  return absl::OkStatus();
}

absl::Status SequenceAt(InferenceContext& ctx) {
  const ir::Type& seq = ctx.input_type(0);
  if (IsSeq(seq)) ctx.SetOutputType(0, seq.inner());
  return absl::OkStatus();
}

absl::Status SequenceErase(InferenceContext& ctx) {
  ctx.PropagateType(0, 0);
  return absl::OkStatus();
}

absl::Status SequenceLength(InferenceContext& ctx) {
  ctx.SetOutputType(0, ir::Type::Tensor(ir::DataType::kInt64, Shape()));
  return absl::OkStatus();
}

absl::Status SplitToSequence(InferenceContext& ctx) {
  ir::DataType elem = ctx.input_elem_type(0);
  const Shape* in = ctx.input_shape(0);
  ir::Type out = ir::Type::Tensor(elem);
  if (in != nullptr) {
    ASSIGN_OR_RETURN(auto axis,
                     CheckAxis(ctx, ctx.GetInt("axis", 0), static_cast<int64_t>(in->rank())));
    std::vector<Dim> dims(in->dims());
    if (!ctx.has_input(1)) {
      if (ctx.GetInt("keepdims", 1) != 0) {
        dims[axis] = Dim::Known(1);
      } else {
        dims.erase(dims.begin() + axis);
      }
    } else {
      Dim len;
      const Shape* ss = ctx.input_shape(1);
      auto split = ctx.input_ints(1);
      if (split && ss != nullptr && ss->rank() == 0 && split->size() == 1) {
        const Dim& d = in->dim(static_cast<size_t>(axis));
        if (d.is_known() && (*split)[0] > 0 && d.value() % (*split)[0] == 0) {
          len = Dim::Known((*split)[0]);
        }
      } else if (split && !split->empty()) {
        bool same = true;
        for (int64_t s : *split) same = same && s == (*split)[0];
        if (same) len = Dim::Known((*split)[0]);
      }
      dims[axis] = len;
    }
    out.set_shape(Shape(dims));
  }
  ctx.SetOutputType(0, ir::Type::Sequence(out));
  return absl::OkStatus();
}

absl::Status ConcatFromSequence(InferenceContext& ctx) {
  const ir::Type& seq = ctx.input_type(0);
  if (!IsSeq(seq)) return absl::OkStatus();
  const ir::Type& e = seq.inner();
  ctx.SetOutputType(0, ir::Type::Tensor(e.elem_type()));
  if (!e.shape()) return absl::OkStatus();
  bool new_axis = ctx.GetInt("new_axis", 0) != 0;
  int64_t rank = static_cast<int64_t>(e.shape()->rank()) + (new_axis ? 1 : 0);
  ASSIGN_OR_RETURN(auto axis, CheckAxis(ctx, ctx.GetInt("axis", 0), rank));
  std::vector<Dim> dims(e.shape()->dims());
  if (new_axis) {
    dims.insert(dims.begin() + axis, Dim::Unknown());
  } else {
    dims[axis] = Dim::Unknown();
  }
  ctx.SetOutputShape(0, Shape(dims));
  return absl::OkStatus();
}

absl::Status SequenceMap(InferenceContext& ctx) {
  std::vector<ir::Type> inputs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const ir::Type& t = ctx.input_type(i);
    inputs.push_back(IsSeq(t) ? t.inner() : t.kind() == ir::Type::Kind::kSequence ? ir::Type() : t);
  }
  ASSIGN_OR_RETURN(auto outs, ctx.InferSubgraph("body", inputs));
  for (size_t i = 0; i < outs.size() && i < ctx.num_outputs(); ++i) {
    if (!outs[i].is_none()) ctx.SetOutputType(i, ir::Type::Sequence(outs[i]));
  }
  return absl::OkStatus();
}

absl::Status Optional(InferenceContext& ctx) {
  if (const ir::Attribute* a = ctx.attr("type"); a != nullptr && !a->tp->is_none()) {
    ctx.SetOutputType(0, ir::Type::Optional(a->tp));
  } else if (!ctx.input_type(0).is_none()) {
    ctx.SetOutputType(0, ir::Type::Optional(ctx.input_type(0)));
  }
  return absl::OkStatus();
}

absl::Status OptionalGetElement(InferenceContext& ctx) {
  const ir::Type& t = ctx.input_type(0);
  if (t.kind() == ir::Type::Kind::kOptional && t.has_inner()) {
    ctx.SetOutputType(0, t.inner());
  } else if (!t.is_none() && t.kind() != ir::Type::Kind::kOptional) {
    ctx.SetOutputType(0, t);
  }
  return absl::OkStatus();
}

absl::Status OptionalHasElement(InferenceContext& ctx) {
  ctx.SetOutputType(0, ir::Type::Tensor(ir::DataType::kBool, Shape()));
  return absl::OkStatus();
}

}  // namespace

void RegisterSequenceOps(InferenceRegistry& r) {
  r.Register("SequenceEmpty", SequenceEmpty);
  r.Register("SequenceConstruct", SequenceConstruct);
  r.Register("SequenceInsert", SequenceInsert);
  r.Register("SequenceAt", SequenceAt);
  r.Register("SequenceErase", SequenceErase);
  r.Register("SequenceLength", SequenceLength);
  r.Register("SplitToSequence", SplitToSequence);
  r.Register("ConcatFromSequence", ConcatFromSequence);
  r.Register("SequenceMap", SequenceMap);
  r.Register("Optional", Optional);
  r.Register("OptionalGetElement", OptionalGetElement);
  r.Register("OptionalHasElement", OptionalHasElement);
}

}  // namespace onnx_opt::schema::inference
