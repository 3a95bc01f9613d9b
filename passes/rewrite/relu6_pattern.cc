#include "passes/rewrite/relu6_pattern.h"

#include <optional>
#include <utility>

#include "passes/rewrite/scalar_tolerance.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes::rewrite {

ValuePattern Relu6OfXPlus3(const ValueSlot& x) {
  auto bounds_0_6 = [](const ir::Node& clip, const MatchState& state) {
    std::optional<std::pair<double, double>> bounds = ClipBounds(clip, state.opset());
    return bounds && NearScalar(bounds->first, 0.0) && NearScalar(bounds->second, 6.0);
  };
  return Op("Clip", {Op("Add", {Capture(x), ConstScalar(3.0)}).OneUse()})
      .OneUse()
      .WhereNode(bounds_0_6);
}

}  // namespace onnx_opt::passes::rewrite
