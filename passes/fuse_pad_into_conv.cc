// fuse-pad-into-conv: a constant-mode Pad with value 0 that pads only spatial axes, feeding a Conv
// or an AveragePool that counts padding (count_include_pad = 1), both with auto_pad NOTSET, becomes
// part of the consumer's own `pads`: they pad with zeros, so the result is the same. Pads are an
// attribute before opset 11 ("paddings" in Pad-1) and inputs from 11 (with optional axes from 18);
// they must be constant and non-negative.
#include <memory>

#include "ir/constant_value.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// Pad's pads over all `rank` axes ([begin..., end...]), if constant and padding with zeros.
std::optional<std::vector<int64_t>> ZeroPads(const ir::Node& pad, int64_t opset, int64_t rank) {
  if (pad.GetString("mode", "constant") != "constant") return std::nullopt;
  std::vector<int64_t> pads;
  if (opset < 11) {
    if (pad.GetFloat("value", 0.0f) != 0.0f) return std::nullopt;
    pads = pad.GetInts(opset < 2 ? "paddings" : "pads");
  } else {
    if (!pad.has_input(1)) return std::nullopt;
    const ir::Tensor* p = ir::GetConstantTensor(pad.input(1));
    std::optional<std::vector<int64_t>> values = p ? ir::ConstantAsInts(*p) : std::nullopt;
    if (!values) return std::nullopt;
    pads = *values;
    if (pad.num_inputs() > 2 && pad.has_input(2)) {
      std::optional<double> v = ScalarConstant(pad.input(2));
      if (!v || *v != 0.0) return std::nullopt;
    }
    if (pad.num_inputs() > 3 && pad.has_input(3)) {
      const ir::Tensor* a = ir::GetConstantTensor(pad.input(3));
      std::optional<std::vector<int64_t>> axes = a ? ir::ConstantAsInts(*a) : std::nullopt;
      if (!axes || pads.size() != 2 * axes->size()) return std::nullopt;
      std::vector<int64_t> full(2 * rank, 0);
      for (size_t i = 0; i < axes->size(); ++i) {
        int64_t axis = (*axes)[i] < 0 ? (*axes)[i] + rank : (*axes)[i];
        if (axis < 0 || axis >= rank) return std::nullopt;
        full[axis] = pads[i];
        full[axis + rank] = pads[i + axes->size()];
      }
      pads = std::move(full);
    }
  }
  if (static_cast<int64_t>(pads.size()) != 2 * rank) return std::nullopt;
  for (int64_t p : pads) {
    if (p < 0) return std::nullopt;
  }
  if (pads[0] != 0 || pads[1] != 0 || pads[rank] != 0 || pads[rank + 1] != 0) return std::nullopt;
  return pads;
}

// The Pad a Conv or AveragePool reads, used once, built once; its data input x and the node are
// bound in the match's captures.
struct PadMatcher {
  ValueSlot x;
  NodeSlot pad;
  const ValuePattern pad_used_once = Op("Pad", {Capture(x)}).OneUse().CaptureNode(pad);
};

RewritePattern PadIntoConvPattern() {
  auto matcher = std::make_shared<const PadMatcher>();
  return {.name = "pad-into-conv",
          .root_ops = {"Conv", "AveragePool"},
          .needs = {{{"Pad"}}, {{"Conv", "AveragePool"}}},
          .match_and_rewrite = [matcher](ir::Node& conv, Rewriter& rw) -> absl::StatusOr<int64_t> {
            // A Conv pads with zeros; an AveragePool only when the padding counts in the average.
            const bool pads_with_zeros =
                conv.op_type() == "Conv" || conv.GetInt("count_include_pad", 0) == 1;
            if (!conv.has_input(0) || !pads_with_zeros ||
                conv.GetString("auto_pad", "NOTSET") != "NOTSET")
              return 0;
            const Captures* m = rw.Match(matcher->pad_used_once, conv.input(0));
            if (m == nullptr) return 0;
            ir::Value* x = (*m)[matcher->x];
            ir::Node* pad = (*m)[matcher->pad];
            if (!x->type().is_tensor() || !x->type().shape()) return 0;
            const int64_t rank = static_cast<int64_t>(x->type().shape()->rank());
            if (rank < 3) return 0;
            std::optional<std::vector<int64_t>> pads = ZeroPads(*pad, rw.opset(), rank);
            if (!pads) return 0;
            const int64_t spatial = rank - 2;
            std::vector<int64_t> conv_pads =
                conv.GetInts("pads", std::vector<int64_t>(2 * spatial, 0));
            if (static_cast<int64_t>(conv_pads.size()) != 2 * spatial) return 0;
            for (int64_t i = 0; i < spatial; ++i) {
              conv_pads[i] += (*pads)[2 + i];
              conv_pads[spatial + i] += (*pads)[rank + 2 + i];
            }
            rw.SetAttribute(conv, ir::Attribute::Ints("pads", conv_pads));
            rw.ReplaceInput(conv, 0, x);
            if (absl::StatusOr<bool> erased = rw.EraseIfDead(*pad); !erased.ok())
              return erased.status();
            return 1;
          }};
}

class FusePadIntoConv final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-pad-into-conv";
  FusePadIntoConv()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{PadIntoConvPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FusePadIntoConv, FusePadIntoConv::kName,
              "fold a zero constant Pad of spatial axes into the Conv (or padding-counting "
              "AveragePool) after it");

}  // namespace onnx_opt::passes
