#include "passes/rewrite/relu6_pattern.h"

#include <optional>
#include <utility>

#include "passes/rewrite/value_facts.h"
#include "passes/rewrite/scalar_tolerance.h"

namespace onnx_opt::passes::rewrite {

ValuePattern Relu6OfXPlus3(ir::Value** x, int64_t opset) {
  auto bounds_0_6 = [opset](const ir::Node& clip) {
    std::optional<std::pair<double, double>> bounds = ClipBounds(clip, opset);
    return bounds && NearScalar(bounds->first, 0.0) && NearScalar(bounds->second, 6.0);
  };
  return Op("Clip", {Op("Add", {Capture(x), ConstScalar(3.0)}).OneUse()}).OneUse().WhereNode(bounds_0_6);
}

}  // namespace onnx_opt::passes::rewrite
