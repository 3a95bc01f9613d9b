#include "passes/rewrite/scalar_tolerance.h"

#include <algorithm>
#include <cmath>

namespace onnx_opt::passes::rewrite {

bool NearScalar(double actual, double wanted) {
  return std::fabs(actual - wanted) <= 1e-6 * std::max(1.0, std::fabs(wanted));
}

}  // namespace onnx_opt::passes::rewrite
