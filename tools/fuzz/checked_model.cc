#include "tools/fuzz/checked_model.h"

#include <cstdlib>
#include <iostream>

#include "interpreter/tensor_limit.h"
#include "ir/io/model_io.h"
#include "schema/checker/checker.h"
#include "schema/inference/inference.h"

namespace onnx_opt::fuzz {
namespace {

// Folding and running allocate what a model asks for: keep each tensor well under libFuzzer's
// -malloc_limit_mb, so that a huge shape is the interpreter's clean error, not a finding.
const bool kTensorLimitSet = (interpreter::SetMaxTensorBytes(uint64_t{256} << 20), true);

}  // namespace

std::unique_ptr<ir::Model> LoadCheckedModel(std::string_view bytes) {
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::io::LoadModelFromString(bytes);
  if (!model.ok()) return nullptr;
  if (!schema::checker::Check(**model).ok()) return nullptr;
  if (!schema::inference::InferShapes(**model, {.strict = true}).ok()) return nullptr;
  if (!schema::checker::Check(**model).ok()) return nullptr;
  return *std::move(model);
}

void RequireValid(const ir::Model& model, std::string_view what) {
  const schema::checker::CheckResult check = schema::checker::Check(model);
  if (check.ok()) return;
  std::cerr << "fuzz: " << what << " made an invalid model: " << check.errors[0] << "\n";
  std::abort();
}

}  // namespace onnx_opt::fuzz
