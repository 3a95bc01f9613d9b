#include "converter/adapter_util.h"

#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "interpreter/tensor.h"
#include "ir/constant_value.h"
#include "ir/forward_value.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

std::string S(std::string_view s) { return std::string(s); }

std::string AttrValueString(const ir::Attribute& a) {
  switch (a.kind()) {
    case ir::AttributeKind::kInt:
      return absl::StrCat(a.i);
    case ir::AttributeKind::kFloat:
      return absl::StrCat(a.f);
    case ir::AttributeKind::kString:
      return absl::StrCat("\"", a.s, "\"");
    case ir::AttributeKind::kInts:
      return absl::StrCat("[", absl::StrJoin(a.ints, ", "), "]");
    case ir::AttributeKind::kFloats:
      return absl::StrCat("[", absl::StrJoin(a.floats, ", "), "]");
    case ir::AttributeKind::kStrings:
      return absl::StrCat("[", absl::StrJoin(a.strings, ", "), "]");
    default:
      return ir::AttributeKindName(a.kind());
  }
}

bool EqualsDefault(const ir::Attribute& a, const schema::AttrValue& d) {
  if (const auto* v = std::get_if<int64_t>(&d))
    return a.kind() == ir::AttributeKind::kInt && a.i == *v;
  if (const auto* v = std::get_if<float>(&d))
    return a.kind() == ir::AttributeKind::kFloat && a.f == *v;
  if (const auto* v = std::get_if<std::string>(&d))
    return a.kind() == ir::AttributeKind::kString && a.s == *v;
  if (const auto* v = std::get_if<std::vector<int64_t>>(&d))
    return a.kind() == ir::AttributeKind::kInts && a.ints == *v;
  if (const auto* v = std::get_if<std::vector<float>>(&d))
    return a.kind() == ir::AttributeKind::kFloats && a.floats == *v;
  if (const auto* v = std::get_if<std::vector<std::string>>(&d))
    return a.kind() == ir::AttributeKind::kStrings && a.strings == *v;
  return false;
}

}  // namespace

// --- Registrar
// -------------------------------------------------------------------------------------

void Registrar::Compatible(std::string_view op, int older, int newer, std::string_view note) {
  r_.Register(domain_, op, older, newer, AdapterKind::kCompatible, note, Nothing());
  r_.Register(domain_, op, newer, older, AdapterKind::kCompatible, note, Nothing());
}

void Registrar::CompatibleAll(const std::vector<std::string_view>& ops, int older, int newer,
                              std::string_view note) {
  for (std::string_view op : ops) Compatible(op, older, newer, note);
}

void Registrar::Up(std::string_view op, int older, int newer, AdapterKind kind,
                   std::string_view note, AdapterFn fn) {
  r_.Register(domain_, op, older, newer, kind, note, std::move(fn));
}

void Registrar::Down(std::string_view op, int newer, int older, AdapterKind kind,
                     std::string_view note, AdapterFn fn) {
  r_.Register(domain_, op, newer, older, kind, note, std::move(fn));
}

void Registrar::Both(std::string_view op, int older, int newer, AdapterKind kind,
                     std::string_view note, AdapterFn up, AdapterFn down) {
  Up(op, older, newer, kind, note, std::move(up));
  Down(op, newer, older, kind, note, std::move(down));
}

void Registrar::Introduced(std::string_view op, int since, std::string_view why, AdapterFn fn) {
  if (fn) {
    r_.Register(domain_, op, since, kNotDefined, AdapterKind::kRewrite, why, std::move(fn));
  } else {
    r_.Register(domain_, op, since, kNotDefined, AdapterKind::kRefuse, why,
                Refuse(absl::StrCat(S(op), " was introduced at opset ", since, " and ", S(why))));
  }
}

// --- Combinators
// -----------------------------------------------------------------------------------

AdapterFn Nothing() {
  return [](AdapterContext&) { return absl::OkStatus(); };
}

AdapterFn Seq(std::vector<AdapterFn> fns) {
  return [fns = std::move(fns)](AdapterContext& ctx) {
    for (const AdapterFn& f : fns) {
      RETURN_IF_ERROR(f(ctx));
      if (ctx.node().is_erased()) break;
    }
    return absl::OkStatus();
  };
}

AdapterFn Refuse(std::string why) {
  return [why = std::move(why)](AdapterContext& ctx) { return ctx.Error(why); };
}

AdapterFn DropAttr(std::string name) {
  return [name = std::move(name)](AdapterContext& ctx) {
    ctx.node().RemoveAttribute(name);
    return absl::OkStatus();
  };
}

AdapterFn DropAttrIfDefault(std::string name) {
  return [name = std::move(name)](AdapterContext& ctx) -> absl::Status {
    const ir::Attribute* a = ctx.node().FindAttribute(name);
    if (a == nullptr) return absl::OkStatus();
    if (a->is_reference()) {
      return ctx.Error(absl::StrCat("attribute '", name, "' refers to function attribute '",
                                    a->ref_attr_name(),
                                    "'; its value must be the default, which cannot be checked"));
    }
    const schema::AttributeSpec* spec =
        ctx.from_schema() != nullptr ? ctx.from_schema()->FindAttribute(name) : nullptr;
    if (spec == nullptr || !spec->has_default() || !EqualsDefault(*a, spec->default_value)) {
      return ctx.Error(absl::StrCat(
          "attribute ", name, " = ", AttrValueString(*a),
          " has no equivalent in the older version (only the default is expressible)"));
    }
    ctx.node().RemoveAttribute(name);
    return absl::OkStatus();
  };
}

AdapterFn SetIntIfAbsent(std::string name, int64_t value) {
  return [name = std::move(name), value](AdapterContext& ctx) {
    if (ctx.node().FindAttribute(name) == nullptr)
      ctx.node().SetAttribute(ir::Attribute::Int(name, value));
    return absl::OkStatus();
  };
}

AdapterFn SetFloatIfAbsent(std::string name, float value) {
  return [name = std::move(name), value](AdapterContext& ctx) {
    if (ctx.node().FindAttribute(name) == nullptr)
      ctx.node().SetAttribute(ir::Attribute::Float(name, value));
    return absl::OkStatus();
  };
}

AdapterFn SetStringIfAbsent(std::string name, std::string value) {
  return [name = std::move(name), value = std::move(value)](AdapterContext& ctx) {
    if (ctx.node().FindAttribute(name) == nullptr)
      ctx.node().SetAttribute(ir::Attribute::String(name, value));
    return absl::OkStatus();
  };
}

AdapterFn NonNegativeAxisAttr(std::string attr, size_t input, int64_t extra_rank,
                              bool extra_from_attr_len) {
  return [=](AdapterContext& ctx) -> absl::Status {
    ASSIGN_OR_RETURN(const ir::Attribute* a, ctx.Attr(attr));
    if (a == nullptr) return absl::OkStatus();
    ir::Attribute* m = ctx.node().FindMutableAttribute(attr);
    auto rank = [&]() -> std::optional<int64_t> {
      std::optional<int64_t> r =
          ctx.Rank(input < ctx.node().num_inputs() ? ctx.node().input(input) : nullptr);
      if (!r.has_value()) return std::nullopt;
      return *r + extra_rank + (extra_from_attr_len ? static_cast<int64_t>(m->ints.size()) : 0);
    };
    if (m->kind() == ir::AttributeKind::kInt) {
      if (m->i >= 0) return absl::OkStatus();
      ASSIGN_OR_RETURN(int64_t v, NormalizeAxis(ctx, m->i, rank(), attr));
      m->i = v;
    } else if (m->kind() == ir::AttributeKind::kInts) {
      for (int64_t& x : m->ints) {
        if (x >= 0) continue;
        ASSIGN_OR_RETURN(int64_t v, NormalizeAxis(ctx, x, rank(), attr));
        x = v;
      }
    }
    return absl::OkStatus();
  };
}

AdapterFn RequireAbsentInput(size_t i, std::string what) {
  return [=](AdapterContext& ctx) -> absl::Status {
    if (ctx.node().has_input(i)) {
      return ctx.Error(
          absl::StrCat("input ", i, " (", what, ") is not available in the older version"));
    }
    ctx.TrimInputs();
    return absl::OkStatus();
  };
}

AdapterFn RefuseStringValues(std::string name, std::vector<std::string> values, std::string why) {
  return [=](AdapterContext& ctx) -> absl::Status {
    const ir::Attribute* a = ctx.node().FindAttribute(name);
    if (a == nullptr) return absl::OkStatus();
    if (a->is_reference())
      return ctx.Error(absl::StrCat("attribute '", name, "' is a function attribute reference"));
    for (const std::string& v : values) {
      if (a->s == v) return ctx.Error(absl::StrCat(name, " = \"", v, "\": ", why));
    }
    return absl::OkStatus();
  };
}

AdapterFn IntsAttrToInput(std::string attr, size_t input, bool scalar) {
  return [=](AdapterContext& ctx) -> absl::Status {
    ASSIGN_OR_RETURN(const ir::Attribute* a, ctx.Attr(attr));
    if (a == nullptr) return absl::OkStatus();
    ir::Value* v;
    if (scalar || a->kind() == ir::AttributeKind::kInt) {
      const int64_t x = a->kind() == ir::AttributeKind::kInt ? a->i : a->ints.at(0);
      v = scalar ? ctx.AddScalarInt(x, attr) : ctx.AddInts({x}, attr);
    } else {
      v = ctx.AddInts(a->ints, attr);
    }
    ctx.SetInput(input, v);
    ctx.node().RemoveAttribute(attr);
    return absl::OkStatus();
  };
}

AdapterFn InputToIntsAttr(size_t input, std::string attr, bool scalar) {
  return [=](AdapterContext& ctx) -> absl::Status {
    if (!ctx.node().has_input(input)) {
      ctx.TrimInputs();
      return absl::OkStatus();
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> v, ctx.ConstantInts(input, attr));
    if (scalar) {
      if (v.size() != 1) return ctx.Error(absl::StrCat(attr, " must hold exactly one value"));
      ctx.node().SetAttribute(ir::Attribute::Int(attr, v.front()));
    } else {
      ctx.node().SetAttribute(ir::Attribute::Ints(attr, v));
    }
    ctx.SetInput(input, nullptr);
    ctx.TrimInputs();
    return absl::OkStatus();
  };
}

// --- Helpers
// ---------------------------------------------------------------------------------------

int64_t IntAttr(const AdapterContext& ctx, std::string_view name, int64_t fallback) {
  const ir::Attribute* a = ctx.node().FindAttribute(name);
  if (a != nullptr && a->kind() == ir::AttributeKind::kInt && !a->is_reference()) return a->i;
  if (a == nullptr && ctx.from_schema() != nullptr) {
    const schema::AttributeSpec* spec = ctx.from_schema()->FindAttribute(name);
    if (spec != nullptr) {
      if (const auto* v = std::get_if<int64_t>(&spec->default_value)) return *v;
    }
  }
  return fallback;
}

std::string StringAttr(const AdapterContext& ctx, std::string_view name, std::string fallback) {
  const ir::Attribute* a = ctx.node().FindAttribute(name);
  if (a != nullptr && a->kind() == ir::AttributeKind::kString && !a->is_reference()) return a->s;
  if (a == nullptr && ctx.from_schema() != nullptr) {
    const schema::AttributeSpec* spec = ctx.from_schema()->FindAttribute(name);
    if (spec != nullptr) {
      if (const auto* v = std::get_if<std::string>(&spec->default_value)) return *v;
    }
  }
  return fallback;
}

absl::StatusOr<int64_t> NormalizeAxis(const AdapterContext& ctx, int64_t axis,
                                      std::optional<int64_t> rank, std::string_view what) {
  if (axis >= 0) return axis;
  if (!rank.has_value()) {
    return ctx.Error(absl::StrCat(S(what), " = ", axis,
                                  " is negative, which the older version does not "
                                  "accept, and the input rank is unknown"));
  }
  if (axis < -*rank) {
    return ctx.Error(absl::StrCat(S(what), " = ", axis, " is out of range for rank ", *rank));
  }
  return axis + *rank;
}

ir::Value* MakeUnsqueeze(AdapterContext& ctx, ir::Value* x, const std::vector<int64_t>& axes,
                         std::string_view base) {
  if (ctx.to_opset() >= 13) {
    return ctx
        .InsertBefore("Unsqueeze", {x, ctx.AddInts(axes, absl::StrCat(S(base), "_axes"))}, 1, base)
        ->output(0);
  }
  ir::Node* n = ctx.InsertBefore("Unsqueeze", {x}, 1, base);
  n->SetAttribute(ir::Attribute::Ints("axes", axes));
  return n->output(0);
}

ir::Value* MakeSqueeze(AdapterContext& ctx, ir::Value* x, const std::vector<int64_t>& axes,
                       std::string_view base) {
  if (ctx.to_opset() >= 13) {
    return ctx
        .InsertBefore("Squeeze", {x, ctx.AddInts(axes, absl::StrCat(S(base), "_axes"))}, 1, base)
        ->output(0);
  }
  ir::Node* n = ctx.InsertBefore("Squeeze", {x}, 1, base);
  n->SetAttribute(ir::Attribute::Ints("axes", axes));
  return n->output(0);
}

ir::Value* MakeReshape(AdapterContext& ctx, ir::Value* x, ir::Value* shape, std::string_view base) {
  return ctx.InsertBefore("Reshape", {x, shape}, 1, base)->output(0);
}

ir::Value* MakeTranspose(AdapterContext& ctx, ir::Value* x, const std::vector<int64_t>& perm,
                         std::string_view base) {
  ir::Node* n = ctx.InsertBefore("Transpose", {x}, 1, base);
  n->SetAttribute(ir::Attribute::Ints("perm", perm));
  return n->output(0);
}

ir::Value* MakeUnary(AdapterContext& ctx, std::string op, ir::Value* x, std::string_view base) {
  return ctx.InsertBefore(std::move(op), {x}, 1, base)->output(0);
}

ir::Value* MakeBinary(AdapterContext& ctx, std::string op, ir::Value* a, ir::Value* b,
                      std::string_view base) {
  return ctx.InsertBefore(std::move(op), {a, b}, 1, base)->output(0);
}

ir::Value* MakeCast(AdapterContext& ctx, ir::Value* x, ir::DataType to, std::string_view base) {
  ir::Node* n = ctx.InsertBefore("Cast", {x}, 1, base);
  n->SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(to)));
  n->output(0)->set_type(ir::Type::Tensor(to));
  return n->output(0);
}

ir::Tensor TypedTensor(ir::DataType type, std::vector<int64_t> dims,
                       const std::vector<double>& values) {
  interpreter::Tensor d =
      interpreter::Tensor::FromVector<double>(ir::DataType::kDouble, dims, values);
  absl::StatusOr<interpreter::Tensor> t = interpreter::CastTensor(d, type);
  // A type Cast cannot produce (string, ...) gives a float constant, which the schema validation of
  // the node using it then reports.
  if (!t.ok()) return ir::MakeFloatTensor(ir::DataType::kFloat, std::move(dims), values);
  return t->ToIr();
}

ir::Value* MakeScalar(AdapterContext& ctx, ir::DataType type, double value, std::string_view base) {
  return ctx.AddConstant(TypedTensor(type, {}, {value}), base);
}

absl::StatusOr<ir::Node*> InsertAfterOutput(AdapterContext& ctx, size_t i, std::string op) {
  ir::Value* old = ctx.node().output(i);
  const ir::Type type = old->type();
  const bool listed = old->in_value_info();
  ir::Node* n = ctx.InsertAfter(&ctx.node(), std::move(op), {nullptr}, 1, old->name());
  if (!ir::ForwardValue(old, n->output(0))) {
    return ctx.Error(
        absl::StrCat("cannot insert ", n->op_type(), " after output '", old->name(), "'"));
  }
  n->SetInput(0, old);
  // The declared type describes what the consumers see, now the new node's output; the node's own
  // output has changed meaning, so its type is no longer known.
  n->output(0)->set_type(type);
  old->set_type(ir::Type());
  ctx.ForgetType(old);
  if (listed) {
    ctx.graph().RemoveValueInfo(old);
    ctx.graph().AddValueInfo(n->output(0));
  }
  return n;
}

}  // namespace onnx_opt::converter
