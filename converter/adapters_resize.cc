// Upsample and Resize.
//
//   Upsample-7 replaced height_scale/width_scale with a scales list (and mode "bilinear" became
//     "linear"); Upsample-9 moved scales to an input; Upsample was deprecated at 10 for Resize-10,
//     which computes the same (asymmetric coordinates, nearest rounding down).
//   Resize-11 added roi, sizes and coordinate_transformation_mode/nearest_mode/cubic attributes
//     whose defaults (half_pixel, round_prefer_floor) differ from Resize-10's behaviour, so an
//     upgrade sets asymmetric/floor explicitly and a downgrade requires them.
//   Resize-13 made roi and scales optional and removed coordinate mode tf_half_pixel_for_nn (in
//     nearest mode two of its four roundings become half_pixel ones on an upgrade; the rest are
//     refused); Resize-18 added antialias, axes and
//     keep_aspect_ratio_policy; Resize-19 added coordinate_transformation_mode
//     half_pixel_symmetric.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

ir::Value* EmptyFloats(AdapterContext& ctx, std::string_view base) {
  return ctx.AddConstant(ir::Tensor::FromVector<float>(ir::DataType::kFloat, {0}, {}), base);
}

absl::Status UpsampleUp1To7(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* h = n.FindAttribute("height_scale");
  const ir::Attribute* w = n.FindAttribute("width_scale");
  if (h == nullptr || w == nullptr || h->is_reference() || w->is_reference()) {
    return ctx.Error("height_scale and width_scale must be known values");
  }
  n.SetAttribute(ir::Attribute::Floats("scales", {1.0f, 1.0f, h->f, w->f}));
  n.RemoveAttribute("height_scale");
  n.RemoveAttribute("width_scale");
  if (StringAttr(ctx, "mode", "nearest") == "bilinear")
    n.SetAttribute(ir::Attribute::String("mode", "linear"));
  return absl::OkStatus();
}

absl::Status UpsampleDown7To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* s = n.FindAttribute("scales");
  if (s == nullptr || s->is_reference()) return ctx.Error("scales must be known values");
  if (s->floats.size() != 4 || s->floats[0] != 1.0f || s->floats[1] != 1.0f) {
    return ctx.Error("Upsample-1 only scales the last two axes of a 4-D input");
  }
  // Copies first: adding attributes may move the one `s` points to.
  const float height_scale = s->floats[2], width_scale = s->floats[3];
  n.SetAttribute(ir::Attribute::Float("height_scale", height_scale));
  n.SetAttribute(ir::Attribute::Float("width_scale", width_scale));
  n.RemoveAttribute("scales");
  if (StringAttr(ctx, "mode", "nearest") == "linear")
    n.SetAttribute(ir::Attribute::String("mode", "bilinear"));
  return absl::OkStatus();
}

absl::Status UpsampleUp7To9(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ASSIGN_OR_RETURN(const ir::Attribute* s, ctx.Attr("scales"));
  if (s == nullptr) return ctx.Error("Upsample-7 needs scales");
  const std::vector<float>& f = s->floats;
  ctx.SetInput(1, ctx.AddConstant(ir::Tensor::FromVector<float>(
                                      ir::DataType::kFloat, {static_cast<int64_t>(f.size())}, f),
                                  "scales"));
  n.RemoveAttribute("scales");
  return absl::OkStatus();
}

absl::Status UpsampleDown9To7(AdapterContext& ctx) {
  ASSIGN_OR_RETURN(std::vector<double> s, ctx.ConstantDoubles(1, "scales"));
  ctx.node().SetAttribute(ir::Attribute::Floats("scales", std::vector<float>(s.begin(), s.end())));
  ctx.SetInput(1, nullptr);
  ctx.TrimInputs();
  return absl::OkStatus();
}

AdapterFn RenameOp(std::string to) {
  return [to = std::move(to)](AdapterContext& ctx) {
    ctx.node().set_op_type(to);
    return absl::OkStatus();
  };
}

absl::Status ResizeUp10To11(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ir::Value* scales = n.input(1);
  n.SetInput(1, EmptyFloats(ctx, "roi"));
  ctx.SetInput(2, scales);
  n.SetAttribute(ir::Attribute::String("coordinate_transformation_mode", "asymmetric"));
  if (StringAttr(ctx, "mode", "nearest") == "nearest") {
    n.SetAttribute(ir::Attribute::String("nearest_mode", "floor"));
  }
  return absl::OkStatus();
}

absl::Status ResizeDown11To10(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const std::string mode = StringAttr(ctx, "mode", "nearest");
  const std::string ctm = StringAttr(ctx, "coordinate_transformation_mode", "half_pixel");
  if (mode != "nearest" && mode != "linear")
    return ctx.Error(absl::StrCat("mode \"", mode, "\" is not in Resize-10"));
  if (ctm != "asymmetric") {
    return ctx.Error(absl::StrCat("coordinate_transformation_mode \"", ctm,
                                  "\": Resize-10 always maps coordinates as \"asymmetric\""));
  }
  if (mode == "nearest" && StringAttr(ctx, "nearest_mode", "round_prefer_floor") != "floor") {
    return ctx.Error("nearest_mode must be \"floor\" (Resize-10 rounds down)");
  }
  if (IntAttr(ctx, "exclude_outside", 0) != 0)
    return ctx.Error("exclude_outside=1 has no equivalent");
  for (const char* a : {"coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a",
                        "exclude_outside", "extrapolation_value"}) {
    n.RemoveAttribute(a);
  }
  // scales (input 2), or scales derived from sizes (input 3) when that is exact.
  ir::Value* scales = nullptr;
  if (n.has_input(2)) {
    absl::StatusOr<ir::Tensor> s = ctx.ConstantInput(2, "scales");
    const bool empty = s.ok() && s->num_elements().value_or(1) == 0;
    if (!empty) scales = n.input(2);
  }
  if (scales == nullptr) {
    if (!n.has_input(3)) return ctx.Error("neither scales nor sizes is given");
    ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ctx.ConstantInts(3, "sizes"));
    std::optional<std::vector<int64_t>> in = ctx.StaticShape(n.input(0));
    if (!in.has_value() || in->size() != sizes.size()) {
      return ctx.Error("sizes can only become scales when the input shape is static");
    }
    std::vector<float> f;
    for (size_t i = 0; i < in->size(); ++i) {
      const float s =
          static_cast<float>(static_cast<double>(sizes[i]) / static_cast<double>((*in)[i]));
      if (static_cast<int64_t>(std::floor(static_cast<double>(s) * (*in)[i])) != sizes[i] ||
          static_cast<double>(s) * (*in)[i] != static_cast<double>(sizes[i])) {
        return ctx.Error(absl::StrCat("size ", sizes[i], " / ", (*in)[i],
                                      " is not exactly representable as a "
                                      "float scale"));
      }
      f.push_back(s);
    }
    scales = ctx.AddConstant(
        ir::Tensor::FromVector<float>(ir::DataType::kFloat, {static_cast<int64_t>(f.size())}, f),
        "scales");
  }
  ir::Value* old_roi = n.input(1);
  n.SetInput(1, scales);
  while (n.num_inputs() > 2) ctx.RemoveInput(n.num_inputs() - 1);
  if (old_roi != scales) ctx.CleanupDead(old_roi);
  return absl::OkStatus();
}

// tf_half_pixel_for_nn maps output position o to x = (o + 0.5) / scale, half_pixel to h = x - 0.5.
// Rounding x is rounding h another way:
//   floor(x)              = floor(h + 0.5)     = round_prefer_ceil(h)
//   round_prefer_floor(x) = ceil(x - 0.5)      = ceil(h)
//   round_prefer_ceil(x)  = floor(h + 1)       = floor(h) + 1
//   ceil(x)               = ceil(h + 0.5)      = round_prefer_floor(h) + 1
// x > 0, so h > -0.5 never reaches a negative tie. Both sides are clamped to [0, in - 1] alike, so
// the first two are exact, ties included (in doubles too: x - 0.5 is exact for x >= 0.25, and below
// that both sides give 0). The last two read one element past half_pixel with floor or
// round_prefer_floor (on every axis, even at scale 1), which no coordinate mode of Resize-13
// reproduces with clamped edges.
absl::Status ResizeUp11To13(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  ASSIGN_OR_RETURN(const ir::Attribute* ctm, ctx.Attr("coordinate_transformation_mode"));
  if (ctm == nullptr || ctm->s != "tf_half_pixel_for_nn") return absl::OkStatus();
  for (const char* a : {"mode", "nearest_mode"}) {
    RETURN_IF_ERROR(ctx.Attr(a).status());
  }
  const std::string mode = StringAttr(ctx, "mode", "nearest");
  if (mode != "nearest") {
    return ctx.Error(
        absl::StrCat("coordinate_transformation_mode = \"tf_half_pixel_for_nn\" with mode \"", mode,
                     "\": this coordinate mode was removed at opset 13, and only nearest mode "
                     "has an equivalent there"));
  }
  const std::string rounding = StringAttr(ctx, "nearest_mode", "round_prefer_floor");
  std::string equivalent;
  if (rounding == "floor") equivalent = "round_prefer_ceil";
  if (rounding == "round_prefer_floor") equivalent = "ceil";
  if (equivalent.empty()) {
    return ctx.Error(absl::StrCat(
        "coordinate_transformation_mode = \"tf_half_pixel_for_nn\" with nearest_mode \"", rounding,
        "\": this coordinate mode was removed at opset 13, and with this "
        "rounding it reads one element past half_pixel (at scale 1, element o + 1 "
        "for output o), which has no equivalent there"));
  }
  n.SetAttribute(ir::Attribute::String("coordinate_transformation_mode", "half_pixel"));
  n.SetAttribute(ir::Attribute::String("nearest_mode", equivalent));
  return absl::OkStatus();
}

absl::Status ResizeDown13To11(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (!n.has_input(1)) ctx.SetInput(1, EmptyFloats(ctx, "roi"));
  if (!n.has_input(2)) ctx.SetInput(2, EmptyFloats(ctx, "scales"));
  return absl::OkStatus();
}

absl::Status ResizeDown18To13(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (IntAttr(ctx, "antialias", 0) != 0)
    return ctx.Error("antialias=1 has no equivalent before opset 18");
  if (StringAttr(ctx, "keep_aspect_ratio_policy", "stretch") != "stretch" && n.has_input(3)) {
    return ctx.Error(
        "keep_aspect_ratio_policy other than \"stretch\" has no equivalent before opset 18");
  }
  n.RemoveAttribute("antialias");
  n.RemoveAttribute("keep_aspect_ratio_policy");
  const ir::Attribute* axes = n.FindAttribute("axes");
  if (axes == nullptr) return absl::OkStatus();
  if (axes->is_reference()) return ctx.Error("axes is a function attribute reference");
  std::optional<int64_t> rank = ctx.Rank(n.input(0));
  if (!rank.has_value())
    return ctx.Error("axes can only be spelled out when the input rank is known");
  if (n.has_input(1)) {
    absl::StatusOr<ir::Tensor> roi = ctx.ConstantInput(1, "roi");
    if (!roi.ok() || roi->num_elements().value_or(1) != 0) {
      return ctx.Error("a roi given for some axes has no equivalent before opset 18");
    }
  }
  std::vector<int64_t> ax = axes->ints;
  for (int64_t& a : ax) {
    ASSIGN_OR_RETURN(int64_t v, NormalizeAxis(ctx, a, rank, "axes"));
    a = v;
  }
  if (n.has_input(2)) {
    ASSIGN_OR_RETURN(std::vector<double> s, ctx.ConstantDoubles(2, "scales"));
    if (!s.empty()) {
      std::vector<float> full(*rank, 1.0f);
      for (size_t i = 0; i < ax.size() && i < s.size(); ++i) full[ax[i]] = static_cast<float>(s[i]);
      ctx.SetInput(
          2, ctx.AddConstant(ir::Tensor::FromVector<float>(ir::DataType::kFloat, {*rank}, full),
                             "scales"));
    }
  }
  if (n.has_input(3)) {
    ASSIGN_OR_RETURN(std::vector<int64_t> sz, ctx.ConstantInts(3, "sizes"));
    std::optional<std::vector<int64_t>> in = ctx.StaticShape(n.input(0));
    if (!in.has_value())
      return ctx.Error("sizes for some axes need a static input shape to be spelled out");
    std::vector<int64_t> full = *in;
    for (size_t i = 0; i < ax.size() && i < sz.size(); ++i) full[ax[i]] = sz[i];
    ctx.SetInput(3, ctx.AddInts(full, "sizes"));
  }
  n.RemoveAttribute("axes");
  return absl::OkStatus();
}

}  // namespace

void RegisterResizeAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  r.Both("Upsample", 1, 7, AdapterKind::kAttribute,
         "Upsample-7 replaced height_scale/width_scale with scales; mode bilinear became linear",
         UpsampleUp1To7, UpsampleDown7To1);
  r.Both("Upsample", 7, 9, AdapterKind::kMove, "Upsample-9 takes scales as an input",
         UpsampleUp7To9, UpsampleDown9To7);
  registry.Register("ai.onnx", "Upsample", 9, kRemoved, AdapterKind::kRewrite,
                    "Upsample was deprecated at opset 10 for Resize-10, which computes the same",
                    RenameOp("Resize"));
  r.Introduced("Resize", 10, "is renamed to Upsample-9, which computes the same",
               RenameOp("Upsample"));
  r.Both("Resize", 10, 11, AdapterKind::kMove,
         "Resize-11 added roi, sizes and coordinate modes with new defaults (asymmetric/floor are "
         "made explicit)",
         ResizeUp10To11, ResizeDown11To10);
  r.Both("Resize", 11, 13, AdapterKind::kMove,
         "Resize-13 made roi and scales optional, added bfloat16 and removed the coordinate mode "
         "tf_half_pixel_for_nn (nearest_mode floor and round_prefer_floor of it become half_pixel "
         "with "
         "round_prefer_ceil and ceil)",
         ResizeUp11To13, ResizeDown13To11);
  r.Both("Resize", 13, 18, AdapterKind::kAttribute,
         "Resize-18 added antialias, axes and keep_aspect_ratio_policy", Nothing(),
         ResizeDown18To13);
  r.Both("Resize", 18, 19, AdapterKind::kAttribute,
         "Resize-19 added coordinate mode half_pixel_symmetric", Nothing(),
         RefuseStringValues("coordinate_transformation_mode", {"half_pixel_symmetric"},
                            "this coordinate mode has no equivalent before opset 19"));
}

}  // namespace onnx_opt::converter
