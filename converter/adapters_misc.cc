// Random generators, signal processing, attention and losses.
//
//   Random*/Multinomial/Bernoulli-22: bfloat16 added.
//   DFT-20 takes axis as an optional input (default -2, the last signal axis) instead of an
//     attribute (default 1).
//   Attention-24 added the nonpad_kv_seqlen input; Attention-25 left/right_window_size (default -1,
//     no window).
//   NegativeLogLikelihoodLoss-13, SoftmaxCrossEntropyLoss-13: types (bfloat16) and a corrected
//     function body; no change in the defined result.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

absl::Status DftUp17To20(AdapterContext& ctx) {
  const int64_t axis = IntAttr(ctx, "axis", 1);
  ctx.node().RemoveAttribute("axis");
  ctx.SetInput(2, ctx.AddScalarInt(axis, "dft_axis"));
  return absl::OkStatus();
}

absl::Status DftDown20To17(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  int64_t axis = -2;
  if (n.has_input(2)) {
    ASSIGN_OR_RETURN(std::vector<int64_t> v, ctx.ConstantInts(2, "axis"));
    if (v.size() != 1) return ctx.Error("axis must be a scalar");
    axis = v.front();
  }
  if (axis < 0) {
    ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(ctx, axis, ctx.Rank(n.input(0)), "axis"));
    axis = a;
  }
  n.SetAttribute(ir::Attribute::Int("axis", axis));
  ctx.SetInput(2, nullptr);
  ctx.TrimInputs();
  return absl::OkStatus();
}

}  // namespace

void RegisterMiscAdapters(AdapterRegistry& registry) {
  Registrar r(registry);
  r.CompatibleAll({"RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike"}, 1, 22,
                  "bfloat16 added");
  r.Compatible("Multinomial", 7, 22, "bfloat16 added");
  r.Compatible("Bernoulli", 15, 22, "bfloat16 added");
  r.Both("DFT", 17, 20, AdapterKind::kMove,
         "DFT-20 takes axis as an optional input (default -2; DFT-17: 1)", DftUp17To20,
         DftDown20To17);
  r.Both("Attention", 23, 24, AdapterKind::kAttribute,
         "Attention-24 added the nonpad_kv_seqlen input", Nothing(),
         RequireAbsentInput(6, "nonpad_kv_seqlen"));
  r.Both("Attention", 24, 25, AdapterKind::kAttribute,
         "Attention-25 added left/right_window_size (default -1)", Nothing(),
         Seq({DropAttrIfDefault("left_window_size"), DropAttrIfDefault("right_window_size")}));
  r.Compatible("NegativeLogLikelihoodLoss", 12, 13,
               "the function body was corrected; same defined result");
  r.Compatible("NegativeLogLikelihoodLoss", 13, 22, "bfloat16 added");
  r.Compatible("SoftmaxCrossEntropyLoss", 12, 13, "bfloat16 added");
}

}  // namespace onnx_opt::converter
