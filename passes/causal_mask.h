// Recognizes the causal attention mask as exporters compute it in the graph, for fuse-attention's
// is_causal: a value added to scores [.., Sq, Skv] that is 0 where key position j <= query position
// i and at most kCausalMaskLowest where j > i, for every i < Sq and j < Skv.
#ifndef ONNX_OPT_PASSES_CAUSAL_MASK_H_
#define ONNX_OPT_PASSES_CAUSAL_MASK_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/graph.h"
#include "ir/node.h"
#include "ir/type.h"
#include "ir/value.h"

namespace onnx_opt::passes {

// A masked score: at or below the lowest float16 (what finfo(float16).min masks with; float32's
// finfo.min and -inf are below it) the score's exp underflows to 0 next to any unmasked one, as
// Attention's own -inf makes it.
inline constexpr double kCausalMaskLowest = -65504.0;

// Whether `mask` is surely the causal mask over its last two axes for `queries` (Sq) query and
// `keys` (Skv) key positions, upper-left aligned (j <= i keeps); its leading axes are not looked
// at. Proven from how it is computed, not from values at run time:
//   - a constant whose last two axes are [Sq, Skv] (both known) with those values; or
//   - a grid over row indices r and column indices c, built from Range(0, n, 1) with n a dim of
//     some value (Gather of Shape, Shape with start/end, or a constant) that is surely Sq for the
//     rows and Skv for the columns, by:
//       index arithmetic: Add/Sub of an integer constant, Cast; Unsqueeze or Reshape to [n, 1]
//       (rows) or [1, n] (columns; a 1-D index also broadcasts as columns);
//       comparisons Less, LessOrEqual, Greater, GreaterOrEqual of a row and a column index, Not;
//       Where(condition, 0, low) or Where(condition, low, 0) (low a constant or ConstantOfShape);
//       Trilu(ConstantOfShape(low), upper = 1, k); Mul of such a float grid by Cast(condition);
//       the lower triangle Trilu(fill, upper = 0, k) of a ConstantOfShape or an Expand of a scalar
//       (as torch's scaled_dot_product_attention exports is_causal) as a condition: boolean, or
//       by Equal to 0 or to the fill, or Cast to bool;
//     then Unsqueeze of leading axes, Expand, Cast between float types, Identity, and Slices
//     from 0 of the last axis to its own length (transformers' mask[:, :, :, :key_len]) or of a
//     constant grid to a dim's length (GPT-2's bias[:, :, k - q : k, :k] without a past).
// `graph` is the graph the mask is computed in; `opset` that of its ai.onnx ops.
bool IsCausalMask(const ir::Value* mask, const ir::Dim& queries, const ir::Dim& keys,
                  const ir::Graph& graph, int64_t opset);

// Whether boolean `condition` is surely true exactly where key j <= query i (`keep`), or exactly
// where j > i (not `keep`), over its last two axes for `queries` and `keys` positions; proven as
// IsCausalMask proves a mask (a constant lower triangle of trues among the forms, sliced to the
// lengths as GPT-2 slices its `bias` buffer).
bool IsCausalCondition(const ir::Value* condition, bool keep, const ir::Dim& queries,
                       const ir::Dim& keys, const ir::Graph& graph, int64_t opset);

// The dims a Shape node reads off its input (between its start and end), when the input's rank is
// known.
std::optional<std::vector<ir::Dim>> DimsReadByShape(const ir::Node& shape);

// The shape of a mask as inference gives it, with the dims that an Expand making it says where
// inference left them unknown (an Expand to a target of computed dims, as exporters broadcast a
// mask to [B, 1, Sq, Skv], keeps a target dim that is not 1); nullopt when neither knows the rank.
std::optional<ir::Shape> MaskShape(const ir::Value* mask, const ir::Graph& graph);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_CAUSAL_MASK_H_
