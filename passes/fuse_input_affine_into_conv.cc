// fuse-input-affine-into-conv: a per-input-channel constant applied to a Conv's input (shape
// [C,1,...], [1,C,1,...], [1] or a scalar) folds into the Conv's constants:
//   Conv(x * s) = Conv'(x) with W'[m, j, ...] = W[m, j, ...] * s[c(m, j)]   (also x / s, s != 0)
//   Conv(x + a) = Conv'(x) with b'[m] = b[m] + sum_{j,k} W[m, j, k] * a[c(m, j)]   (also x - a)
// where c(m, j) is the input channel that weight column j of output channel m reads (groups).
// The scale is exact with any zero padding (a padded zero stays zero); the shift only without
// padding (all pads zero and auto_pad NOTSET or VALID), where every window sees real input only.
#include <memory>
#include <string>

#include "optimizer/pass_registry.h"
#include "passes/conv_constants.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

bool HasNoPadding(const ir::Node& conv) {
  for (int64_t p : conv.GetInts("pads")) {
    if (p != 0) return false;
  }
  const std::string auto_pad = conv.GetString("auto_pad", "NOTSET");
  return auto_pad == "NOTSET" || auto_pad == "VALID";
}

// x op c (op one of Mul, Div, Add, Sub; c constant) used once, built once; x, c and the node are
// bound in the match's captures.
struct AffineMatcher {
  ValueSlot x;
  TensorSlot c;
  NodeSlot op;
  const ValuePattern affine =
      OneOf({Op("Mul", {Capture(x), Constant(c)}), Op("Div", {Capture(x), Constant(c)}),
             Op("Add", {Capture(x), Constant(c)}), Op("Sub", {Capture(x), Constant(c)})})
          .OneUse()
          .CaptureNode(op);
};

absl::StatusOr<int64_t> MatchAndRewrite(const AffineMatcher& matcher, ir::Node& conv,
                                        Rewriter& rw) {
  if (conv.num_inputs() < 2 || !conv.has_input(0)) return 0;
  const Captures* m = rw.Match(matcher.affine, conv.input(0));
  if (m == nullptr) return 0;
  ir::Value* x = (*m)[matcher.x];
  const ir::Tensor* c = (*m)[matcher.c];
  ir::Node* op = (*m)[matcher.op];
  if (op->FindAttribute("broadcast") != nullptr || op->FindAttribute("axis") != nullptr) return 0;
  // Decoding the weights costs more than the match: only once the input pattern is there.
  std::optional<ConvConstants> k = ReadConvConstants(conv);
  if (!k.has_value()) return 0;
  if (c->data_type() != k->type) return 0;
  std::optional<std::vector<double>> per_channel = PerChannel(*c, k->in_channels(), k->rank());
  if (!per_channel.has_value()) return 0;

  const int64_t out_per_group = k->out_channels() / k->group;
  const int64_t columns = k->dims[1];  // input channels per group
  const int64_t kernel = k->per_out_channel() / columns;
  auto input_channel = [&](int64_t m, int64_t j) { return (m / out_per_group) * columns + j; };
  const bool scale = op->op_type() == "Mul" || op->op_type() == "Div";
  // What is rewritten must not be shared with another node, which would keep the original too.
  if (!OwnsInput(conv, scale ? 1 : 2)) return 0;
  if (scale) {
    if (op->op_type() == "Div") {
      for (double& f : *per_channel) {
        if (f == 0) return 0;
        f = 1.0 / f;
      }
    }
    for (int64_t m = 0; m < k->out_channels(); ++m) {
      for (int64_t j = 0; j < columns; ++j) {
        const double f = (*per_channel)[input_channel(m, j)];
        for (int64_t i = 0; i < kernel; ++i) k->weights[(m * columns + j) * kernel + i] *= f;
      }
    }
  } else {
    if (!HasNoPadding(conv)) return 0;
    const double sign = op->op_type() == "Sub" ? -1.0 : 1.0;
    for (int64_t m = 0; m < k->out_channels(); ++m) {
      double sum = 0;
      for (int64_t j = 0; j < columns; ++j) {
        double column = 0;
        for (int64_t i = 0; i < kernel; ++i) column += k->weights[(m * columns + j) * kernel + i];
        sum += column * (*per_channel)[input_channel(m, j)];
      }
      k->bias[m] += sign * sum;
    }
  }
  rw.ReplaceInput(conv, 0, x);
  WriteConvConstants(rw, conv, *k, /*weights_changed=*/scale, /*bias_changed=*/!scale, "_folded");
  if (absl::Status s = rw.EraseDeadMatched(); !s.ok()) return s;
  return 1;
}

RewritePattern InputAffineIntoConvPattern() {
  auto matcher = std::make_shared<const AffineMatcher>();
  return {.name = "input-affine-into-conv",
          .root_ops = {"Conv"},
          .needs = {{{"Conv"}}, {{"Mul", "Div", "Add", "Sub"}}},
          .match_and_rewrite = [matcher](ir::Node& conv, Rewriter& rw) {
            return MatchAndRewrite(*matcher, conv, rw);
          }};
}

class FuseInputAffineIntoConv final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-input-affine-into-conv";
  FuseInputAffineIntoConv()
      : PatternPass(kName,
                    [] { return std::vector<RewritePattern>{InputAffineIntoConvPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseInputAffineIntoConv, FuseInputAffineIntoConv::kName,
              "fold a per-input-channel constant Mul/Div (or, without padding, Add/Sub) before a "
              "Conv into it");

}  // namespace onnx_opt::passes
