// The checker, then the default pipeline on whatever passes it: the result must pass the checker
// too (the tools never write an invalid model).
#include <string_view>

#include "optimizer/pass_manager.h"
#include "tools/fuzz/checked_model.h"
#include "tools/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onnx_opt;
  std::unique_ptr<ir::Model> model =
      fuzz::LoadCheckedModel(std::string_view(reinterpret_cast<const char*>(data), size));
  if (model == nullptr) return 0;
  optimizer::PassManagerOptions options;
  options.pass_options.fold_size_limit = 1 << 16;  // keeps folds of hostile shapes small
  optimizer::PassManager manager(options);
  if (!manager.Run(*model, "default").ok()) return 0;
  fuzz::RequireValid(*model, "the default pipeline");
  return 0;
}
