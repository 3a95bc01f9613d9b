// What the model-consuming fuzz targets share: bytes -> a loaded model that the checker accepts, or
// nothing. Hostile bytes must end here with a status, never a crash.
#ifndef ONNX_OPT_TOOLS_FUZZ_CHECKED_MODEL_H_
#define ONNX_OPT_TOOLS_FUZZ_CHECKED_MODEL_H_

#include <memory>
#include <string_view>

#include "ir/model.h"

namespace onnx_opt::fuzz {

// The model in `bytes` if it loads, passes strict type and shape inference and then the checker
// (ONNX's full check), else null. The model returned carries the inferred types: only then can the
// checker see type errors that a rewrite would merely make visible (an untyped value that inference
// or folding types as int8 where an operator needs int64).
std::unique_ptr<ir::Model> LoadCheckedModel(std::string_view bytes);

// Aborts (a finding for the fuzzer) with `what` and the checker's first error if `model` is not
// valid: everything the tools write must pass the checker.
void RequireValid(const ir::Model& model, std::string_view what);

}  // namespace onnx_opt::fuzz

#endif  // ONNX_OPT_TOOLS_FUZZ_CHECKED_MODEL_H_
