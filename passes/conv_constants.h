// Reading and rewriting the constant weights and bias of a Conv, for the passes that fold
// per-channel constants into them (fuse-add-into-conv, fuse-scale-into-conv,
// fuse-input-affine-into-conv; fuse-bn-into-conv writes through it too).
#ifndef ONNX_OPT_PASSES_CONV_CONSTANTS_H_
#define ONNX_OPT_PASSES_CONV_CONSTANTS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/node.h"
#include "ir/tensor.h"
#include "passes/rewrite/rewriter.h"

namespace onnx_opt::passes {

// The per-channel values of constant `c` broadcast against a tensor of rank `rank` (-1: unknown)
// whose axis 1 has `channels` entries, or nullopt if `c` does not broadcast per channel without
// changing that tensor's shape: [channels, 1, ...] with rank-1 dims, [1, channels, 1, ...] with
// rank dims, or one element of rank <= `rank`.
std::optional<std::vector<double>> PerChannel(const ir::Tensor& c, int64_t channels, int64_t rank);

// A Conv's constant float32/float64 weights W [M, C/group, k...] and bias [M] (zeros when absent).
struct ConvConstants {
  ir::DataType type;
  std::vector<int64_t> dims;  // W's dims
  int64_t group = 1;
  std::vector<double> weights;
  std::vector<double> bias;
  int64_t out_channels() const { return dims[0]; }
  int64_t in_channels() const { return dims[1] * group; }
  int64_t rank() const {
    return static_cast<int64_t>(dims.size());
  }  // that of the Conv's input and output
  // Elements of W per output channel: C/group * kernel size.
  int64_t per_out_channel() const { return static_cast<int64_t>(weights.size()) / dims[0]; }
};

// The constants of ai.onnx Conv `conv`, or nullopt when W (or B) is not a float32/float64 constant
// of a consistent shape.
std::optional<ConvConstants> ReadConvConstants(const ir::Node& conv);

// Whether the Conv's input `i` (weights or bias) is used by nothing else, so that replacing it by a
// rewritten copy does not keep both.
bool OwnsInput(const ir::Node& conv, size_t i);

// Gives `conv` a new weights initializer holding `w`, named after the old one with `suffix`.
void ReplaceConvWeights(rewrite::Rewriter& rw, ir::Node& conv, ir::Tensor w, const char* suffix);

// Gives `conv` a new bias initializer holding `b`, named after the old bias with `suffix` (or, when
// the conv has none, added and named after its output with "_bias").
void ReplaceConvBias(rewrite::Rewriter& rw, ir::Node& conv, ir::Tensor b, const char* suffix);

// Gives `conv` new initializers holding `c`'s weights (when `weights_changed`) and bias (when
// `bias_changed`), as the two above do.
void WriteConvConstants(rewrite::Rewriter& rw, ir::Node& conv, const ConvConstants& c,
                        bool weights_changed, bool bias_changed, const char* suffix);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_CONV_CONSTANTS_H_
