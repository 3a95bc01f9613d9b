#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {
namespace {

std::vector<SweepCase>& Cases() {
  static auto* cases = new std::vector<SweepCase>();
  return *cases;
}

}  // namespace

const std::vector<SweepCase>& SweepCases() { return Cases(); }

bool RegisterSweepCases(std::vector<SweepCase> cases) {
  for (SweepCase& c : cases) Cases().push_back(std::move(c));
  return true;
}

}  // namespace onnx_opt::converter
