// Hand-written models for the adapter sweep (adapter_sweep_test.cc): nodes the sweep cannot make up
// from a schema alone (required attributes, constant inputs, particular shapes). Each case is a
// model in the ONNX text syntax at the opset it is written for; the sweep converts it to every
// version boundary of its operators and checks each result numerically. Files sweep_cases_*.cc add
// cases with REGISTER_SWEEP_CASES.
#ifndef ONNX_OPT_CONVERTER_SWEEP_CASES_H_
#define ONNX_OPT_CONVERTER_SWEEP_CASES_H_

#include <string>
#include <vector>

namespace onnx_opt::converter {

struct SweepCase {
  std::string name;
  std::string model;
  // For operators the interpreter cannot run (image codecs, ...): the model is only checked, and
  // converting it below the opset its operators came in must be refused. Nothing is run.
  bool refusal_only = false;
};

const std::vector<SweepCase>& SweepCases();
bool RegisterSweepCases(std::vector<SweepCase> cases);

#define REGISTER_SWEEP_CASES(id, ...)                   \
  [[maybe_unused]] static const bool sweep_cases_##id = \
      ::onnx_opt::converter::RegisterSweepCases(__VA_ARGS__)

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_SWEEP_CASES_H_
