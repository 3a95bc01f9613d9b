// Tensor manipulation: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split, Slice, Pad,
// Tile, Shape, Size, DepthToSpace, SpaceToDepth, Identity, Constant, ConstantOfShape, EyeLike,
// Cast, CastLike, Range.
//
//   Reshape-5 takes the shape as an input (was an attribute); Reshape-14 adds allowzero.
//   Squeeze/Unsqueeze-11 accept negative axes; -13 take axes as an input.
//   Concat-4 makes axis required (default 1 before); Concat-11 accepts a negative axis.
//   Split-2 drops the split input (the attribute stays); Split-11 negative axis; Split-13 moves
//   split to an input; Split-18 adds num_outputs (and uneven last chunks). Slice-10 moves
//   starts/ends/axes to inputs and adds steps; Slice-11 negative axes. Pad-2 renames paddings to
//   pads; Pad-11 moves pads and value to inputs; Pad-18 adds axes; Pad-19 adds mode "wrap". Tile-6
//   replaces (tiles, axis) by a repeats vector. Shape-15 adds start/end; DepthToSpace-11 adds mode
//   (default DCR, the old behaviour). Constant-11 adds sparse_value, Constant-12 the value_*
//   attributes (downgrades densify). Cast-6 takes `to` as an int (was a string); Cast-19 adds
//   saturate and Cast-24 round_mode (both only matter for float8 targets, which older versions do
//   not have). Range-27 adds stash_type (only for float16/bfloat16 inputs, which Range-11 lacks).
//   Every other change adds types (compatible; downgrades validated).
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/constant_value.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

// --- Reshape -------------------------------------------------------------------------------------

absl::Status ReshapeUp1To5(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  n.RemoveAttribute("consumed_inputs");
  ASSIGN_OR_RETURN(const ir::Attribute* a, ctx.Attr("shape"));
  if (a == nullptr) return ctx.Error("Reshape-1 has no shape attribute");
  ctx.SetInput(1, ctx.AddInts(a->ints, "shape"));
  n.RemoveAttribute("shape");
  return absl::OkStatus();
}

absl::Status ReshapeDown14To13(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (IntAttr(ctx, "allowzero", 0) == 0) {
    n.RemoveAttribute("allowzero");
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<int64_t>> shape = ctx.ConstantInts(1, "shape");
  if (!shape.ok()) {
    return ctx.Error(
        "allowzero=1 can only be dropped when the shape is a known constant without zeros");
  }
  for (int64_t d : *shape) {
    if (d == 0)
      return ctx.Error("allowzero=1 with a zero in the shape has no equivalent before opset 14");
  }
  n.RemoveAttribute("allowzero");
  return absl::OkStatus();
}

// --- Split ---------------------------------------------------------------------------------------

absl::Status SplitUp13To18(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (!n.has_input(1)) {
    n.SetAttribute(ir::Attribute::Int("num_outputs", static_cast<int64_t>(n.num_outputs())));
  }
  return absl::OkStatus();
}

absl::Status SplitDown18To13(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* num = n.FindAttribute("num_outputs");
  if (num == nullptr) return absl::OkStatus();
  if (num->is_reference()) return ctx.Error("num_outputs is a function attribute reference");
  const int64_t parts = num->i;
  n.RemoveAttribute("num_outputs");
  std::optional<ir::Shape> shape = ctx.ShapeOf(n.input(0));
  int64_t axis = IntAttr(ctx, "axis", 0);
  if (shape.has_value()) {
    if (axis < 0) axis += static_cast<int64_t>(shape->rank());
    if (axis >= 0 && axis < static_cast<int64_t>(shape->rank()) && shape->dim(axis).is_known()) {
      const int64_t d = shape->dim(axis).value();
      if (parts > 0 && d % parts != 0) {
        // Split-18 makes the last chunk smaller; Split-13 needs the sizes spelled out.
        const int64_t chunk = (d + parts - 1) / parts;
        std::vector<int64_t> sizes;
        int64_t left = d;
        for (int64_t i = 0; i < parts; ++i) {
          sizes.push_back(std::min(chunk, left));
          left -= sizes.back();
        }
        ctx.SetInput(1, ctx.AddInts(sizes, "split"));
      }
    }
  }
  // Otherwise Split-13 splits into equal parts, one per output: the same when the size divides.
  return absl::OkStatus();
}

absl::Status SplitUp1To2(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.FindAttribute("axis") == nullptr) {
    // Split-2 defaults axis to 0; Split-1 declared no default, so an absent axis is ambiguous.
    return ctx.Error("Split-1 declares no default axis, so the axis of this node is not known");
  }
  if (n.has_input(1)) {
    absl::StatusOr<std::vector<int64_t>> v = ctx.ConstantInts(1, "split");
    if (!v.ok()) {
      ASSIGN_OR_RETURN(std::vector<double> d, ctx.ConstantDoubles(1, "split"));
      v = std::vector<int64_t>(d.begin(), d.end());
    }
    n.SetAttribute(ir::Attribute::Ints("split", *v));
    ctx.SetInput(1, nullptr);
  }
  ctx.TrimInputs();
  return absl::OkStatus();
}

// --- Slice ---------------------------------------------------------------------------------------

absl::Status SliceUp1To10(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::vector<std::pair<const char*, size_t>> moves = {{"starts", 1}, {"ends", 2}, {"axes", 3}};
  for (auto [name, index] : moves) {
    ASSIGN_OR_RETURN(const ir::Attribute* a, ctx.Attr(name));
    if (a == nullptr) continue;
    ctx.SetInput(index, ctx.AddInts(a->ints, name));
    n.RemoveAttribute(name);
  }
  return absl::OkStatus();
}

absl::Status SliceDown10To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.has_input(4)) {
    ASSIGN_OR_RETURN(std::vector<int64_t> steps, ctx.ConstantInts(4, "steps"));
    for (int64_t s : steps) {
      if (s != 1) return ctx.Error("steps other than 1 have no equivalent before opset 10");
    }
  }
  std::vector<std::pair<const char*, size_t>> moves = {{"starts", 1}, {"ends", 2}, {"axes", 3}};
  for (auto [name, index] : moves) {
    if (!n.has_input(index)) continue;
    ASSIGN_OR_RETURN(std::vector<int64_t> v, ctx.ConstantInts(index, name));
    n.SetAttribute(ir::Attribute::Ints(name, v));
  }
  for (size_t i = 1; i < n.num_inputs(); ++i) ctx.SetInput(i, nullptr);
  ctx.TrimInputs();
  return absl::OkStatus();
}

absl::Status SliceDown11To10(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (!n.has_input(3)) return absl::OkStatus();
  absl::StatusOr<std::vector<int64_t>> axes = ctx.ConstantInts(3, "axes");
  if (!axes.ok()) {
    return ctx.Error(
        "axes are computed at run time, so they cannot be shown to be non-negative as Slice-10 "
        "requires");
  }
  bool negative = false;
  for (int64_t a : *axes) negative = negative || a < 0;
  if (!negative) return absl::OkStatus();
  std::vector<int64_t> fixed;
  for (int64_t a : *axes) {
    ASSIGN_OR_RETURN(int64_t v, NormalizeAxis(ctx, a, ctx.Rank(n.input(0)), "axes"));
    fixed.push_back(v);
  }
  ctx.SetInput(3, ctx.AddInts(fixed, "axes"));
  return absl::OkStatus();
}

// --- Pad -----------------------------------------------------------------------------------------

AdapterFn RenameAttr(std::string from, std::string to) {
  return [=](AdapterContext& ctx) {
    ir::Attribute* a = ctx.node().FindMutableAttribute(from);
    if (a != nullptr) {
      ir::Attribute copy(to, a->kind());
      copy.ints = a->ints;
      copy.set_ref_attr_name(a->ref_attr_name());
      ctx.node().RemoveAttribute(from);
      ctx.node().SetAttribute(std::move(copy));
    }
    return absl::OkStatus();
  };
}

absl::Status PadUp2To11(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ASSIGN_OR_RETURN(const ir::Attribute* pads, ctx.Attr("pads"));
  if (pads == nullptr) return ctx.Error("Pad-2 has no pads attribute");
  ctx.SetInput(1, ctx.AddInts(pads->ints, "pads"));
  n.RemoveAttribute("pads");
  ASSIGN_OR_RETURN(const ir::Attribute* value, ctx.Attr("value"));
  if (value != nullptr) {
    if (value->f != 0.0f) {
      std::optional<ir::DataType> t = ctx.ElemType(n.input(0));
      if (!t.has_value())
        return ctx.Error("the data's element type must be known to make the constant_value input");
      ctx.SetInput(2, MakeScalar(ctx, *t, value->f, "pad_value"));
    }
    n.RemoveAttribute("value");
  }
  return absl::OkStatus();
}

absl::Status PadDown11To2(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ASSIGN_OR_RETURN(std::vector<int64_t> pads, ctx.ConstantInts(1, "pads"));
  n.SetAttribute(ir::Attribute::Ints("pads", pads));
  if (n.has_input(2)) {
    ASSIGN_OR_RETURN(std::vector<double> v, ctx.ConstantDoubles(2, "constant_value"));
    if (v.size() != 1) return ctx.Error("constant_value must be a scalar");
    n.SetAttribute(ir::Attribute::Float("value", static_cast<float>(v.front())));
  }
  for (size_t i = 1; i < n.num_inputs(); ++i) ctx.SetInput(i, nullptr);
  ctx.TrimInputs();
  return absl::OkStatus();
}

absl::Status PadDown18To13(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (!n.has_input(3)) {
    ctx.TrimInputs();
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, ctx.ConstantInts(3, "axes"));
  ASSIGN_OR_RETURN(std::vector<int64_t> pads, ctx.ConstantInts(1, "pads"));
  std::optional<int64_t> rank = ctx.Rank(n.input(0));
  if (!rank.has_value())
    return ctx.Error("the data rank must be known to spell out pads for every axis");
  const size_t k = axes.size();
  if (pads.size() != 2 * k) return ctx.Error("pads must hold two values per axis");
  std::vector<int64_t> full(2 * *rank, 0);
  for (size_t i = 0; i < k; ++i) {
    ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(ctx, axes[i], rank, "axes"));
    full[a] = pads[i];
    full[a + *rank] = pads[i + k];
  }
  ctx.SetInput(1, ctx.AddInts(full, "pads"));
  ctx.SetInput(3, nullptr);
  ctx.TrimInputs();
  return absl::OkStatus();
}

// --- Tile ----------------------------------------------------------------------------------------

absl::Status TileUp1To6(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ASSIGN_OR_RETURN(std::vector<double> tiles, ctx.ConstantDoubles(1, "tiles"));
  ASSIGN_OR_RETURN(std::vector<double> axis, ctx.ConstantDoubles(2, "axis"));
  std::optional<int64_t> rank = ctx.Rank(n.input(0));
  if (!rank.has_value())
    return ctx.Error("the input rank must be known to build the repeats vector");
  if (tiles.size() != 1 || axis.size() != 1) return ctx.Error("tiles and axis must be scalars");
  ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(ctx, static_cast<int64_t>(axis.front()), rank, "axis"));
  std::vector<int64_t> repeats(*rank, 1);
  repeats[a] = static_cast<int64_t>(tiles.front());
  ctx.SetInput(2, nullptr);
  ctx.TrimInputs();
  ctx.SetInput(1, ctx.AddInts(repeats, "repeats"));
  return absl::OkStatus();
}

// Tile-6 -> Tile-1: Tile-1 types tiles/axis like the data (a defect), so repetitions are spelled
// out with Concat instead (one Concat per repeated axis).
absl::Status TileDown6To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ASSIGN_OR_RETURN(std::vector<int64_t> repeats, ctx.ConstantInts(1, "repeats"));
  int64_t copies = 1;
  for (int64_t r : repeats) {
    if (r < 1) return ctx.Error("repeats must be positive");
    copies *= r;
  }
  if (copies > 1024) return ctx.Error("too many repetitions to spell out with Concat");
  ir::Value* x = n.input(0);
  const std::string base = n.output(0)->name();
  for (size_t axis = 0; axis < repeats.size(); ++axis) {
    if (repeats[axis] == 1) continue;
    ir::Node* c = ctx.InsertBefore("Concat", std::vector<ir::Value*>(repeats[axis], x), 1,
                                   base + "_rep" + std::to_string(axis));
    c->SetAttribute(ir::Attribute::Int("axis", static_cast<int64_t>(axis)));
    x = c->output(0);
  }
  if (x == n.input(0)) x = MakeUnary(ctx, "Identity", x, base + "_same");
  RETURN_IF_ERROR(ctx.ReplaceOutput(0, x));
  return ctx.EraseNode();
}

// --- Shape ---------------------------------------------------------------------------------------

absl::Status ShapeDown15To13(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const int64_t start = IntAttr(ctx, "start", 0);
  const ir::Attribute* end = n.FindAttribute("end");
  if (end != nullptr && end->is_reference())
    return ctx.Error("end is a function attribute reference");
  n.RemoveAttribute("start");
  n.RemoveAttribute("end");
  if (start == 0 && end == nullptr) return absl::OkStatus();
  const int64_t e = end != nullptr ? end->i : std::numeric_limits<int64_t>::max();
  ASSIGN_OR_RETURN(ir::Node * s, InsertAfterOutput(ctx, 0, "Slice"));
  // Slice-13 form (this step goes to opset 13 or 14).
  s->AddInput(ctx.AddInts({start}, "shape_start"));
  s->AddInput(ctx.AddInts({e}, "shape_end"));
  s->AddInput(ctx.AddInts({0}, "shape_axes"));
  return absl::OkStatus();
}

// --- Constant ------------------------------------------------------------------------------------

absl::Status ConstantDown12To11(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  struct Form {
    const char* name;
    ir::AttributeKind kind;
  };
  for (const Form& f :
       {Form{"value_float", ir::AttributeKind::kFloat},
        Form{"value_floats", ir::AttributeKind::kFloats},
        Form{"value_int", ir::AttributeKind::kInt}, Form{"value_ints", ir::AttributeKind::kInts},
        Form{"value_string", ir::AttributeKind::kString},
        Form{"value_strings", ir::AttributeKind::kStrings}}) {
    const ir::Attribute* a = n.FindAttribute(f.name);
    if (a == nullptr) continue;
    if (a->is_reference())
      return ctx.Error(absl::StrCat(f.name, " is a function attribute reference"));
    ir::Tensor t;
    switch (f.kind) {
      case ir::AttributeKind::kFloat:
        t = ir::Tensor::FromVector<float>(ir::DataType::kFloat, {}, {a->f});
        break;
      case ir::AttributeKind::kFloats:
        t = ir::Tensor::FromVector<float>(ir::DataType::kFloat,
                                          {static_cast<int64_t>(a->floats.size())}, a->floats);
        break;
      case ir::AttributeKind::kInt:
        t = ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {}, {a->i});
        break;
      case ir::AttributeKind::kInts:
        t = ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64,
                                            {static_cast<int64_t>(a->ints.size())}, a->ints);
        break;
      case ir::AttributeKind::kString:
        t = ir::Tensor(ir::DataType::kString, {});
        t.mutable_strings() = {a->s};
        t.set_storage(ir::Tensor::Storage::kTyped);
        break;
      default:
        t = ir::Tensor(ir::DataType::kString, {static_cast<int64_t>(a->strings.size())});
        t.mutable_strings() = a->strings;
        t.set_storage(ir::Tensor::Storage::kTyped);
        break;
    }
    n.RemoveAttribute(f.name);
    n.SetAttribute(ir::Attribute::FromTensor("value", std::move(t)));
    break;
  }
  return absl::OkStatus();
}

absl::Status ConstantDown11To9(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* a = n.FindAttribute("sparse_value");
  if (a == nullptr) return absl::OkStatus();
  if (a->is_reference()) return ctx.Error("sparse_value is a function attribute reference");
  const ir::SparseTensor& sp = a->sparse_tensor;
  const ir::DataType type = sp.values.data_type();
  const int bits = ir::ElementBitWidth(type);
  if (bits < 8 || bits % 8 != 0) {
    return ctx.Error(
        absl::StrCat("a sparse ", ir::DataTypeName(type), " constant cannot be densified here"));
  }
  const size_t esize = bits / 8;
  int64_t total = 1;
  for (int64_t d : sp.dims) total *= d;
  if (total > (int64_t{1} << 26)) return ctx.Error("the densified constant would be too large");
  std::optional<std::vector<int64_t>> idx = ir::ConstantAsInts(sp.indices);
  if (!idx.has_value()) return ctx.Error("the sparse constant's indices are not integers");
  const int64_t nnz = sp.values.dims().empty() ? 0 : sp.values.dims()[0];
  const int64_t rank = static_cast<int64_t>(sp.dims.size());
  const bool coords = sp.indices.dims().size() == 2;
  std::string bytes(static_cast<size_t>(total) * esize, '\0');
  for (int64_t i = 0; i < nnz; ++i) {
    int64_t flat = 0;
    if (coords) {
      for (int64_t k = 0; k < rank; ++k) flat = flat * sp.dims[k] + (*idx)[i * rank + k];
    } else {
      flat = (*idx)[i];
    }
    if (flat < 0 || flat >= total) return ctx.Error("a sparse index is out of range");
    std::memcpy(bytes.data() + flat * esize, sp.values.raw_data() + i * esize, esize);
  }
  ir::Tensor dense(type, sp.dims);
  dense.SetRawData(std::move(bytes));
  n.RemoveAttribute("sparse_value");
  n.SetAttribute(ir::Attribute::FromTensor("value", std::move(dense)));
  return absl::OkStatus();
}

// --- Cast ----------------------------------------------------------------------------------------

struct CastName {
  ir::DataType type;
  const char* name;
};
constexpr CastName kCastNames[] = {{ir::DataType::kFloat, "FLOAT"},
                                   {ir::DataType::kUint8, "UINT8"},
                                   {ir::DataType::kInt8, "INT8"},
                                   {ir::DataType::kUint16, "UINT16"},
                                   {ir::DataType::kInt16, "INT16"},
                                   {ir::DataType::kInt32, "INT32"},
                                   {ir::DataType::kInt64, "INT64"},
                                   {ir::DataType::kString, "STRING"},
                                   {ir::DataType::kBool, "BOOL"},
                                   {ir::DataType::kFloat16, "FLOAT16"},
                                   {ir::DataType::kDouble, "DOUBLE"},
                                   {ir::DataType::kUint32, "UINT32"},
                                   {ir::DataType::kUint64, "UINT64"},
                                   {ir::DataType::kComplex64, "COMPLEX64"},
                                   {ir::DataType::kComplex128, "COMPLEX128"}};

absl::Status CastUp1To6(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ASSIGN_OR_RETURN(const ir::Attribute* a, ctx.Attr("to"));
  if (a == nullptr || a->kind() != ir::AttributeKind::kString)
    return ctx.Error("Cast-1 needs a string `to`");
  std::string upper = a->s;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const CastName& c : kCastNames) {
    if (upper == c.name) {
      n.SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(c.type)));
      return absl::OkStatus();
    }
  }
  return ctx.Error(absl::StrCat("unknown type name to=\"", a->s, "\""));
}

absl::Status CastDown6To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ASSIGN_OR_RETURN(const ir::Attribute* a, ctx.Attr("to"));
  if (a == nullptr) return ctx.Error("Cast needs `to`");
  for (const CastName& c : kCastNames) {
    if (static_cast<int64_t>(c.type) == a->i) {
      n.SetAttribute(ir::Attribute::String("to", c.name));
      return absl::OkStatus();
    }
  }
  return ctx.Error(absl::StrCat("to=", ir::DataTypeName(static_cast<ir::DataType>(a->i)),
                                " has no name in Cast-1"));
}

// CastLike(x, like) -> Cast(x, to = like's element type).
absl::Status CastLikeToCast(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::optional<ir::DataType> t = ctx.ElemType(n.input(1));
  if (!t.has_value()) return ctx.Error("the element type of target_type must be known to use Cast");
  ir::Node* cast = ctx.InsertBefore("Cast", {n.input(0)}, 1, n.output(0)->name());
  cast->SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(*t)));
  RETURN_IF_ERROR(ctx.ReplaceOutput(0, cast->output(0)));
  return ctx.EraseNode();
}

// Constant-1 only produces float types: another type becomes an initializer (outside functions).
absl::Status ConstantDown9To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* v = n.FindAttribute("value");
  if (v == nullptr || v->is_reference()) return absl::OkStatus();
  const ir::DataType t = v->t->data_type();
  if (t == ir::DataType::kFloat || t == ir::DataType::kDouble || t == ir::DataType::kFloat16) {
    return absl::OkStatus();
  }
  if (ctx.in_function()) {
    return ctx.Error(absl::StrCat("Constant-1 cannot produce ", ir::DataTypeName(t),
                                  " and a function body has no initializers"));
  }
  ir::Tensor tensor = v->t;
  ir::Value* init = ctx.AddConstant(std::move(tensor), n.output(0)->name() + "_value");
  RETURN_IF_ERROR(ctx.ReplaceOutput(0, init));
  return ctx.EraseNode();
}

// ConstantOfShape(shape) = Expand(value as a scalar, shape), with Expand-8.
absl::Status ConstantOfShapeToExpand(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* a = n.FindAttribute("value");
  ir::Tensor value;
  if (a == nullptr) {
    value = ir::Tensor::FromVector<float>(ir::DataType::kFloat, {}, {0.0f});
  } else {
    if (a->is_reference()) return ctx.Error("value is a function attribute reference");
    value = a->t;
    if (value.num_elements().value_or(0) != 1) return ctx.Error("value must hold one element");
    value.set_dims({});
  }
  ir::Value* scalar = ctx.AddConstant(std::move(value), n.output(0)->name() + "_value");
  ir::Node* e = ctx.InsertBefore("Expand", {scalar, n.input(0)}, 1, n.output(0)->name());
  RETURN_IF_ERROR(ctx.ReplaceOutput(0, e->output(0)));
  return ctx.EraseNode();
}

}  // namespace

void RegisterTensorAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  // Reshape.
  r.Both("Reshape", 1, 5, AdapterKind::kMove,
         "Reshape-5 takes the shape as an input; consumed_inputs removed", ReshapeUp1To5,
         InputToIntsAttr(1, "shape"));
  r.Compatible("Reshape", 5, 13, "bfloat16 added");
  r.Both("Reshape", 13, 14, AdapterKind::kAttribute,
         "Reshape-14 added allowzero (default 0: as before)", Nothing(), ReshapeDown14To13);
  r.Compatible("Reshape", 14, 19, "float8 types added");
  r.Compatible("Reshape", 19, 21, "int4/uint4 added");
  r.Compatible("Reshape", 21, 23, "float4e2m1 added");
  r.Compatible("Reshape", 23, 24, "float8e8m0 added");
  r.Compatible("Reshape", 24, 25, "int2/uint2 added");
  // Flatten.
  r.Compatible("Flatten", 1, 9, "all tensor types added");
  r.Both("Flatten", 9, 11, AdapterKind::kAttribute, "Flatten-11 accepts a negative axis", Nothing(),
         NonNegativeAxisAttr("axis", 0));
  r.Compatible("Flatten", 11, 13, "bfloat16 added");
  r.Compatible("Flatten", 13, 21, "float8 and int4/uint4 types added");
  r.Compatible("Flatten", 21, 23, "float4e2m1 added");
  r.Compatible("Flatten", 23, 24, "float8e8m0 added");
  r.Compatible("Flatten", 24, 25, "int2/uint2 added");
  // Squeeze / Unsqueeze.
  r.Both("Squeeze", 1, 11, AdapterKind::kAttribute, "Squeeze-11 accepts negative axes", Nothing(),
         NonNegativeAxisAttr("axes", 0));
  r.Both("Squeeze", 11, 13, AdapterKind::kMove,
         "Squeeze-13 takes axes as an optional input; bfloat16 added", IntsAttrToInput("axes", 1),
         InputToIntsAttr(1, "axes"));
  r.Both("Unsqueeze", 1, 11, AdapterKind::kAttribute, "Unsqueeze-11 accepts negative axes",
         Nothing(), NonNegativeAxisAttr("axes", 0, 0, /*extra_from_attr_len=*/true));
  r.Both("Unsqueeze", 11, 13, AdapterKind::kMove,
         "Unsqueeze-13 takes axes as an input; bfloat16 added", IntsAttrToInput("axes", 1),
         InputToIntsAttr(1, "axes"));
  for (const char* op : {"Squeeze", "Unsqueeze", "Transpose"}) {
    r.Compatible(op, 13, 21, "float8 and int4/uint4 types added");
    r.Compatible(op, 21, 23, "float4e2m1 added");
    r.Compatible(op, 23, 24, "float8e8m0 added");
    r.Compatible(op, 24, 25, "int2/uint2 added");
  }
  r.Compatible("Transpose", 1, 13, "bfloat16 added");
  // Concat.
  r.Both("Concat", 1, 4, AdapterKind::kAttribute,
         "Concat-4 requires axis (Concat-1 defaulted to 1); more types", SetIntIfAbsent("axis", 1),
         Nothing());
  r.Both("Concat", 4, 11, AdapterKind::kAttribute, "Concat-11 accepts a negative axis", Nothing(),
         NonNegativeAxisAttr("axis", 0));
  r.Compatible("Concat", 11, 13, "bfloat16 added");
  // Split.
  r.Both("Split", 1, 2, AdapterKind::kMove,
         "Split-2 dropped the split input (the attribute remains); more types", SplitUp1To2,
         Nothing());
  r.Both("Split", 2, 11, AdapterKind::kAttribute, "Split-11 accepts a negative axis", Nothing(),
         NonNegativeAxisAttr("axis", 0));
  r.Both("Split", 11, 13, AdapterKind::kMove,
         "Split-13 takes split as an optional input; bfloat16 added", IntsAttrToInput("split", 1),
         InputToIntsAttr(1, "split"));
  r.Both("Split", 13, 18, AdapterKind::kAttribute,
         "Split-18 added num_outputs (one of split or num_outputs is required; uneven last chunk "
         "allowed)",
         SplitUp13To18, SplitDown18To13);
  // Slice.
  r.Both("Slice", 1, 10, AdapterKind::kMove,
         "Slice-10 takes starts/ends/axes as inputs and adds steps", SliceUp1To10, SliceDown10To1);
  r.Both("Slice", 10, 11, AdapterKind::kAttribute, "Slice-11 accepts negative axes", Nothing(),
         SliceDown11To10);
  r.Compatible("Slice", 11, 13, "bfloat16 added");
  // Pad.
  r.Both("Pad", 1, 2, AdapterKind::kAttribute, "Pad-2 renamed paddings to pads",
         RenameAttr("paddings", "pads"), RenameAttr("pads", "paddings"));
  r.Both("Pad", 2, 11, AdapterKind::kMove,
         "Pad-11 takes pads and constant_value as inputs; integer types added", PadUp2To11,
         PadDown11To2);
  r.Compatible("Pad", 11, 13, "bfloat16, string, bool and complex types added");
  r.Both("Pad", 13, 18, AdapterKind::kMove, "Pad-18 added the optional axes input", Nothing(),
         PadDown18To13);
  r.Both("Pad", 18, 19, AdapterKind::kAttribute, "Pad-19 added mode \"wrap\"", Nothing(),
         RefuseStringValues("mode", {"wrap"}, "wrap padding has no equivalent before opset 19"));
  r.Compatible("Pad", 19, 21, "float8 and int4/uint4 types added");
  r.Compatible("Pad", 21, 23, "float4e2m1 added");
  r.Compatible("Pad", 23, 24, "float8e8m0 added");
  r.Compatible("Pad", 24, 25, "int2/uint2 added");
  // Tile.
  r.Up("Tile", 1, 6, AdapterKind::kMove, "Tile-6 takes a repeats vector instead of (tiles, axis)",
       TileUp1To6);
  r.Down(
      "Tile", 6, 1, AdapterKind::kRewrite,
      "Tile-1 types its tiles/axis inputs like the data (a defect of that version), so repetitions "
      "become Concats",
      TileDown6To1);
  r.Compatible("Tile", 6, 13, "bfloat16 added");
  // Shape and Size.
  r.Compatible("Shape", 1, 13, "bfloat16 added");
  r.Both("Shape", 13, 15, AdapterKind::kRewrite, "Shape-15 added start and end", Nothing(),
         ShapeDown15To13);
  r.Compatible("Shape", 15, 19, "float8 types added");
  r.Compatible("Size", 1, 13, "bfloat16 added");
  r.Compatible("Size", 13, 19, "float8 types added");
  for (const char* op : {"Shape", "Size"}) {
    r.Compatible(op, 19, 21, "int4/uint4 added");
    r.Compatible(op, 21, 23, "float4e2m1 added");
    r.Compatible(op, 23, 24, "float8e8m0 added");
    r.Compatible(op, 24, 25, "int2/uint2 added");
  }
  // DepthToSpace / SpaceToDepth.
  r.Both("DepthToSpace", 1, 11, AdapterKind::kAttribute,
         "DepthToSpace-11 added mode (default DCR, the earlier behaviour)", Nothing(),
         DropAttrIfDefault("mode"));
  r.Compatible("DepthToSpace", 11, 13, "bfloat16 added");
  r.Compatible("SpaceToDepth", 1, 13, "bfloat16 added");
  // Identity.
  r.Compatible("Identity", 1, 13, "bfloat16 added");
  r.Compatible("Identity", 13, 14, "sequence types added");
  r.Compatible("Identity", 14, 16, "optional types added");
  r.Compatible("Identity", 16, 19, "float8 types added");
  // Constant and friends.
  r.Both("Constant", 1, 9, AdapterKind::kRewrite,
         "all tensor types added (below 9 a non-float constant becomes an initializer)", Nothing(),
         ConstantDown9To1);
  r.Both("Constant", 9, 11, AdapterKind::kAttribute,
         "Constant-11 added sparse_value (downgrades densify it)", Nothing(), ConstantDown11To9);
  r.Both("Constant", 11, 12, AdapterKind::kAttribute,
         "Constant-12 added value_float(s)/value_int(s)/value_string(s) (downgrades make a tensor)",
         Nothing(), ConstantDown12To11);
  r.Compatible("Constant", 12, 13, "bfloat16 added");
  r.Compatible("Constant", 13, 19, "float8 types added");
  r.Compatible("ConstantOfShape", 9, 20, "bfloat16 and float8 types added");
  r.Introduced("ConstantOfShape", 9, "is replaced by Expand of its value", ConstantOfShapeToExpand);
  r.Compatible("ConstantOfShape", 20, 21, "int4/uint4 added");
  r.Compatible("EyeLike", 9, 22, "bfloat16 added");
  // Cast.
  r.Both("Cast", 1, 6, AdapterKind::kAttribute,
         "Cast-6 takes `to` as a data type number (Cast-1: a name)", CastUp1To6, CastDown6To1);
  r.Compatible("Cast", 6, 9, "string added");
  r.Compatible("Cast", 9, 13, "bfloat16 added");
  r.Both("Cast", 13, 19, AdapterKind::kAttribute,
         "Cast-19 added float8 types and saturate (which only affects float8 targets)", Nothing(),
         DropAttr("saturate"));
  r.Both("CastLike", 15, 19, AdapterKind::kAttribute,
         "CastLike-19 added float8 types and saturate (which only affects float8 targets)",
         Nothing(), DropAttr("saturate"));
  for (const char* op : {"Cast", "CastLike", "Constant", "ConstantOfShape", "Identity"}) {
    if (std::string(op) != "ConstantOfShape") r.Compatible(op, 19, 21, "int4/uint4 added");
    r.Compatible(op, 21, 23, "float4e2m1 added");
    r.Compatible(op, 24, 25, "int2/uint2 added");
  }
  for (const char* op : {"Cast", "CastLike"}) {
    r.Both(op, 23, 24, AdapterKind::kAttribute,
           "opset 24 added float8e8m0 and round_mode (which only affects float8e8m0 targets)",
           Nothing(), DropAttr("round_mode"));
  }
  for (const char* op : {"Constant", "ConstantOfShape", "Identity"}) {
    r.Compatible(op, 23, 24, "float8e8m0 added");
  }
  r.Introduced("CastLike", 15, "is replaced by Cast to the target's element type", CastLikeToCast);
  // Range.
  r.Both("Range", 11, 27, AdapterKind::kAttribute,
         "Range-27 added float16/bfloat16 and stash_type, which only affects those types",
         Nothing(), DropAttr("stash_type"));
}

}  // namespace onnx_opt::converter
