// The binary model loader on arbitrary bytes. What loads must also serialize and load again (the
// loader accepts only what the writer can write back).
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "ir/io/model_io.h"
#include "ir/verifier.h"
#include "tools/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onnx_opt;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::io::LoadModelFromString(bytes);
  if (!model.ok()) return 0;
  if (absl::Status s = ir::Verify(**model); !s.ok()) return 0;  // loaded but broken: the checker's job
  absl::StatusOr<std::string> written = ir::io::SerializeModel(**model);
  if (!written.ok()) return 0;
  absl::StatusOr<std::unique_ptr<ir::Model>> again = ir::io::LoadModelFromString(*written);
  if (!again.ok()) {
    std::cerr << "fuzz: a loaded model did not load again after saving: " << again.status() << "\n";
    std::abort();
  }
  return 0;
}
