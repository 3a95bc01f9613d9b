// fuse-casts: Cast(Cast(x, T1), T2) becomes Cast(x, T2) when T1 holds every value of x's type T0
// exactly (a widening such as float -> double or int8 -> int32): the second cast then sees the very
// value x had, so casting x directly gives the same result. When T2 is T0 the pair is dropped.
// Targets whose conversion depends on more than the value are left alone: string (a float prints
// differently as a double) and the float8/float4 types (saturate and rounding attributes).
#include <memory>

#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/pattern_pass.h"

namespace onnx_opt::passes {
namespace {

using ir::DataType;
using namespace rewrite;  // NOLINT(build/namespaces): the pattern vocabulary

// True when every value of `from` is exactly a value of `to`.
bool Widens(DataType from, DataType to) {
  if (from == to) return true;
  auto in = [&](std::initializer_list<DataType> types) {
    for (DataType t : types) {
      if (t == to) return true;
    }
    return false;
  };
  switch (from) {
    case DataType::kBool:
      return in({DataType::kUint8, DataType::kInt8, DataType::kUint16, DataType::kInt16,
                 DataType::kUint32, DataType::kInt32, DataType::kUint64, DataType::kInt64,
                 DataType::kFloat16, DataType::kBfloat16, DataType::kFloat, DataType::kDouble});
    case DataType::kUint8:
      return in({DataType::kUint16, DataType::kInt16, DataType::kUint32, DataType::kInt32,
                 DataType::kUint64, DataType::kInt64, DataType::kFloat16, DataType::kBfloat16,
                 DataType::kFloat, DataType::kDouble});
    case DataType::kInt8:
      return in({DataType::kInt16, DataType::kInt32, DataType::kInt64, DataType::kFloat16,
                 DataType::kBfloat16, DataType::kFloat, DataType::kDouble});
    case DataType::kUint16:
      return in({DataType::kUint32, DataType::kInt32, DataType::kUint64, DataType::kInt64,
                 DataType::kFloat, DataType::kDouble});
    case DataType::kInt16:
      return in({DataType::kInt32, DataType::kInt64, DataType::kFloat, DataType::kDouble});
    case DataType::kUint32:
      return in({DataType::kUint64, DataType::kInt64, DataType::kDouble});
    case DataType::kInt32:
      return in({DataType::kInt64, DataType::kDouble});
    case DataType::kFloat16:
    case DataType::kBfloat16:
      return in({DataType::kFloat, DataType::kDouble});
    case DataType::kFloat:
      return in({DataType::kDouble});
    default:
      return false;
  }
}

// Targets whose Cast result depends only on the input value.
bool PlainTarget(DataType t) {
  switch (t) {
    case DataType::kBool:
    case DataType::kUint8:
    case DataType::kInt8:
    case DataType::kUint16:
    case DataType::kInt16:
    case DataType::kUint32:
    case DataType::kInt32:
    case DataType::kUint64:
    case DataType::kInt64:
    case DataType::kFloat16:
    case DataType::kBfloat16:
    case DataType::kFloat:
    case DataType::kDouble:
      return true;
    default:
      return false;
  }
}

// The Cast an outer Cast reads, built once; its input x and the node are bound in the captures.
struct InnerCastMatcher {
  ValueSlot x;
  NodeSlot inner;
  const ValuePattern cast = Op("Cast", {Capture(x)}).CaptureNode(inner);
};

RewritePattern ConsecutiveCastsPattern() {
  auto inner_cast = std::make_shared<const InnerCastMatcher>();
  return {
      .name = "consecutive-casts",
      .root_ops = {"Cast"},
      .needs = {{{"Cast"}, 2}},
      .match_and_rewrite = [inner_cast](ir::Node& outer, Rewriter& rw) -> absl::StatusOr<int64_t> {
        const Captures* m =
            outer.has_input(0) ? rw.Match(inner_cast->cast, outer.input(0)) : nullptr;
        if (m == nullptr) return 0;
        ir::Value* x = (*m)[inner_cast->x];
        ir::Node* inner = (*m)[inner_cast->inner];
        if (!x->type().is_tensor()) return 0;
        const DataType t0 = x->type().elem_type();
        const auto t1 = static_cast<DataType>(inner->GetInt("to", 0));
        const auto t2 = static_cast<DataType>(outer.GetInt("to", 0));
        if (t0 == DataType::kUndefined || !Widens(t0, t1) || !PlainTarget(t2)) return 0;
        rw.ReplaceInput(outer, 0, x);
        // Cast back to where it started: the pair is the identity (unless the result is a graph
        // output that cannot take x's place; then a Cast to x's own type stays).
        if (t2 == t0) {
          if (absl::StatusOr<bool> replaced = rw.ReplaceWithValue(outer, x); !replaced.ok()) {
            return replaced.status();
          }
        }
        // The inner Cast goes once nothing else reads it.
        RETURN_IF_ERROR(rw.EraseDeadMatched());
        return 1;
      }};
}

class FuseConsecutiveCasts final : public PatternPass {
 public:
  static constexpr char kName[] = "fuse-casts";
  FuseConsecutiveCasts()
      : PatternPass(kName, [] { return std::vector<RewritePattern>{ConsecutiveCastsPattern()}; }) {}
};

}  // namespace

REGISTER_PASS(FuseConsecutiveCasts, FuseConsecutiveCasts::kName,
              "Cast of a widening Cast becomes one Cast (or none when it casts back)");

}  // namespace onnx_opt::passes
