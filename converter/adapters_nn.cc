// Convolution, pooling and related operators.
//
//   Conv/ConvTranspose-11 and the pools at 10/11: the description of auto_pad and pads was
//     clarified (no change in behaviour); ConvTranspose with auto_pad SAME_* and output_shape is
//     refused across that step because the documented split of the padding changed.
//   AveragePool-7 added count_include_pad (a downgrade pads explicitly with zeros when it is 1);
//   AveragePool-10, MaxPool-10 added ceil_mode; MaxPool-10, AveragePool-19, LpPool-18 dilations;
//   MaxPool-8 added the Indices output and storage_order; LpPool/GlobalLpPool-2 made p an int;
//   RoiAlign-16 added coordinate_transformation_mode whose default (half_pixel) differs from the
//     old behaviour (output_half_pixel); GridSample-20 renamed the modes (bilinear -> linear,
//     bicubic -> cubic) and accepts N-D input. bfloat16 at 22 is compatible.
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"

namespace onnx_opt::converter {
namespace {

// Downgrade: the attribute (ints) may only be absent or all ones.
AdapterFn DropIfAllOnes(std::string name) {
  return [name = std::move(name)](AdapterContext& ctx) -> absl::Status {
    const ir::Attribute* a = ctx.node().FindAttribute(name);
    if (a == nullptr) return absl::OkStatus();
    if (a->is_reference())
      return ctx.Error(absl::StrCat(name, " is a function attribute reference"));
    for (int64_t v : a->ints) {
      if (v != 1)
        return ctx.Error(
            absl::StrCat(name, " other than 1 has no equivalent in the older version"));
    }
    ctx.node().RemoveAttribute(name);
    return absl::OkStatus();
  };
}

absl::Status ConvTransposeAcross11(AdapterContext& ctx) {
  const std::string auto_pad = StringAttr(ctx, "auto_pad", "NOTSET");
  if ((auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") &&
      ctx.node().FindAttribute("output_shape") != nullptr) {
    return ctx.Error(
        "auto_pad SAME_* with output_shape: the documented split of odd padding changed at opset "
        "11");
  }
  return absl::OkStatus();
}

// AveragePool-7 count_include_pad=1 -> AveragePool-1 with the padding done by a Pad of zeros.
absl::Status AveragePoolDown7To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const int64_t include = IntAttr(ctx, "count_include_pad", 0);
  n.RemoveAttribute("count_include_pad");
  if (include == 0) return absl::OkStatus();
  const std::string auto_pad = StringAttr(ctx, "auto_pad", "NOTSET");
  const ir::Attribute* pads = n.FindAttribute("pads");
  bool any = false;
  if (pads != nullptr) {
    for (int64_t p : pads->ints) any = any || p != 0;
  }
  if (auto_pad == "VALID" || ((auto_pad == "NOTSET" || auto_pad.empty()) && !any))
    return absl::OkStatus();
  if (auto_pad != "NOTSET") {
    return ctx.Error("count_include_pad=1 with auto_pad SAME_* has no equivalent before opset 7");
  }
  const size_t spatial = pads->ints.size() / 2;
  std::vector<int64_t> full(2 * (spatial + 2), 0);
  for (size_t i = 0; i < spatial; ++i) {
    full[2 + i] = pads->ints[i];
    full[spatial + 4 + i] = pads->ints[spatial + i];
  }
  ir::Node* pad = ctx.InsertBefore("Pad", {n.input(0)}, 1, n.input(0)->name() + "_padded");
  if (ctx.to_opset() >= 2) {
    pad->SetAttribute(ir::Attribute::Ints("pads", full));
  } else {
    pad->SetAttribute(ir::Attribute::Ints("paddings", full));
  }
  n.SetInput(0, pad->output(0));
  n.RemoveAttribute("pads");
  return absl::OkStatus();
}

absl::Status MaxPoolDown8To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  if (n.num_outputs() > 1 && !n.output(1)->is_omitted() && n.output(1)->has_uses()) {
    return ctx.Error("the Indices output has no equivalent before opset 8");
  }
  while (n.num_outputs() > 1) {
    absl::Status s = n.RemoveLastOutput();
    if (!s.ok()) return ctx.Error(std::string(s.message()));
  }
  n.RemoveAttribute("storage_order");
  return absl::OkStatus();
}

absl::Status PFloatToInt(AdapterContext& ctx) {
  const ir::Attribute* p = ctx.node().FindAttribute("p");
  if (p == nullptr) return absl::OkStatus();
  if (p->is_reference()) return ctx.Error("p is a function attribute reference");
  if (p->f != std::floor(p->f)) return ctx.Error(absl::StrCat("p=", p->f, " is not an integer"));
  ctx.node().SetAttribute(ir::Attribute::Int("p", static_cast<int64_t>(p->f)));
  return absl::OkStatus();
}

absl::Status PIntToFloat(AdapterContext& ctx) {
  const ir::Attribute* p = ctx.node().FindAttribute("p");
  if (p == nullptr) return absl::OkStatus();
  if (p->is_reference()) return ctx.Error("p is a function attribute reference");
  ctx.node().SetAttribute(ir::Attribute::Float("p", static_cast<float>(p->i)));
  return absl::OkStatus();
}

absl::Status RoiAlignDown16To10(AdapterContext& ctx) {
  const std::string mode = StringAttr(ctx, "coordinate_transformation_mode", "half_pixel");
  if (mode != "output_half_pixel") {
    return ctx.Error(absl::StrCat("coordinate_transformation_mode=\"", mode,
                                  "\"; RoiAlign-10 always behaves as \"output_half_pixel\""));
  }
  ctx.node().RemoveAttribute("coordinate_transformation_mode");
  return absl::OkStatus();
}

AdapterFn MapStringAttr(std::string name, std::vector<std::pair<std::string, std::string>> map) {
  return [=](AdapterContext& ctx) -> absl::Status {
    const ir::Attribute* a = ctx.node().FindAttribute(name);
    if (a == nullptr) return absl::OkStatus();
    if (a->is_reference())
      return ctx.Error(absl::StrCat(name, " is a function attribute reference"));
    for (const auto& [from, to] : map) {
      if (a->s == from) {
        ctx.node().SetAttribute(ir::Attribute::String(name, to));
        return absl::OkStatus();
      }
    }
    return absl::OkStatus();
  };
}

absl::Status GridSampleDown20To16(AdapterContext& ctx) {
  std::optional<int64_t> r = ctx.Rank(ctx.node().input(0));
  if (r.has_value() && *r != 4) return ctx.Error("GridSample-16 only takes 4-D input");
  return MapStringAttr("mode", {{"linear", "bilinear"}, {"cubic", "bicubic"}})(ctx);
}

}  // namespace

void RegisterNnAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  r.Compatible("Conv", 1, 11, "the description of auto_pad/pads was clarified");
  r.Both("ConvTranspose", 1, 11, AdapterKind::kAttribute,
         "the description of auto_pad/output_shape changed", ConvTransposeAcross11,
         ConvTransposeAcross11);
  r.CompatibleAll({"Conv", "ConvTranspose"}, 11, 22, "bfloat16 added");
  r.Compatible("DeformConv", 19, 22, "bfloat16 added");

  r.Both("AveragePool", 1, 7, AdapterKind::kRewrite,
         "AveragePool-7 added count_include_pad (default 0)", Nothing(), AveragePoolDown7To1);
  r.Both("AveragePool", 7, 10, AdapterKind::kAttribute,
         "AveragePool-10 added ceil_mode (default 0)", Nothing(), DropAttrIfDefault("ceil_mode"));
  r.Compatible("AveragePool", 10, 11, "the description of pads/auto_pad was clarified");
  r.Both("AveragePool", 11, 19, AdapterKind::kAttribute, "AveragePool-19 added dilations",
         Nothing(), DropIfAllOnes("dilations"));
  r.Compatible("AveragePool", 19, 22, "bfloat16 added");

  r.Both("MaxPool", 1, 8, AdapterKind::kAttribute,
         "MaxPool-8 added the Indices output and storage_order", Nothing(), MaxPoolDown8To1);
  r.Both("MaxPool", 8, 10, AdapterKind::kAttribute, "MaxPool-10 added ceil_mode and dilations",
         Nothing(), Seq({DropAttrIfDefault("ceil_mode"), DropIfAllOnes("dilations")}));
  r.Compatible("MaxPool", 10, 11, "the description of pads/auto_pad was clarified");
  r.Compatible("MaxPool", 11, 12, "int8 and uint8 added");
  r.Compatible("MaxPool", 12, 22, "bfloat16 added");

  r.Both("LpPool", 1, 2, AdapterKind::kAttribute,
         "LpPool-2 takes p as an int and requires kernel_shape", PFloatToInt, PIntToFloat);
  r.Compatible("LpPool", 2, 11, "the description of pads/auto_pad was clarified");
  r.Both("LpPool", 11, 18, AdapterKind::kAttribute, "LpPool-18 added ceil_mode and dilations",
         Nothing(), Seq({DropAttrIfDefault("ceil_mode"), DropIfAllOnes("dilations")}));
  r.Compatible("LpPool", 18, 22, "bfloat16 added");
  r.Both("GlobalLpPool", 1, 2, AdapterKind::kAttribute, "GlobalLpPool-2 takes p as an int",
         PFloatToInt, PIntToFloat);
  r.Compatible("GlobalLpPool", 2, 22, "bfloat16 added");
  r.CompatibleAll({"GlobalAveragePool", "GlobalMaxPool", "MaxRoiPool"}, 1, 22, "bfloat16 added");
  r.Compatible("MaxUnpool", 9, 11, "the description of pads and output_shape was clarified");
  r.Compatible("MaxUnpool", 11, 22, "bfloat16 added");

  r.Both("RoiAlign", 10, 16, AdapterKind::kAttribute,
         "RoiAlign-16 added coordinate_transformation_mode; its default half_pixel differs from "
         "the old "
         "behaviour, so upgrades set output_half_pixel",
         SetStringIfAbsent("coordinate_transformation_mode", "output_half_pixel"),
         RoiAlignDown16To10);
  r.Compatible("RoiAlign", 16, 22, "bfloat16 added");
  r.Both("GridSample", 16, 20, AdapterKind::kAttribute,
         "GridSample-20 renamed modes bilinear/bicubic to linear/cubic and accepts N-D input",
         MapStringAttr("mode", {{"bilinear", "linear"}, {"bicubic", "cubic"}}),
         GridSampleDown20To16);
  r.Compatible("GridSample", 20, 22, "bfloat16 added");
  r.Compatible("NonMaxSuppression", 10, 11, "the description was clarified");
}

}  // namespace onnx_opt::converter
