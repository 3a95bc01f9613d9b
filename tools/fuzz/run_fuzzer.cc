// onnx-run on models that pass the checker, with small random inputs (symbolic dims 2, seed from
// the input's length): any outcome but a crash is fine.
#include <string_view>

#include "equivalence/equivalence.h"
#include "interpreter/evaluator.h"
#include "tools/fuzz/checked_model.h"
#include "tools/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onnx_opt;
  std::unique_ptr<ir::Model> model =
      fuzz::LoadCheckedModel(std::string_view(reinterpret_cast<const char*>(data), size));
  if (model == nullptr) return 0;
  equivalence::EquivalenceOptions options;
  options.default_dim = 2;
  options.seed = 1 + size % 16;
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> inputs =
      equivalence::MakeRandomInputs(*model, options);
  if (!inputs.ok()) return 0;
  interpreter::Evaluator evaluator(*model);
  (void)evaluator.Run(*std::move(inputs));  // errors are fine; crashes are not
  return 0;
}
