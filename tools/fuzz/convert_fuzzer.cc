// onnx-convert of a model to an opset picked from the input's length (so plain .onnx files are
// seeds as they are): the result, when the conversion succeeds, must pass the checker.
#include <string_view>

#include "converter/convert.h"
#include "tools/fuzz/checked_model.h"
#include "tools/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onnx_opt;
  const int64_t opset =
      1 + static_cast<int64_t>(size % 25);  // past the newest too: refused cleanly
  std::unique_ptr<ir::Model> model =
      fuzz::LoadCheckedModel(std::string_view(reinterpret_cast<const char*>(data), size));
  if (model == nullptr) return 0;
  converter::ConvertOptions options;
  options.onnx_opset = opset;
  absl::StatusOr<std::unique_ptr<ir::Model>> converted = converter::ConvertModel(*model, options);
  if (!converted.ok()) return 0;
  fuzz::RequireValid(**converted, "conversion");
  return 0;
}
