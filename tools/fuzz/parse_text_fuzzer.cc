// The ONNX text parser on arbitrary text. What parses must print and parse again.
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "tools/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onnx_opt;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::text::ParseModel(text);
  if (!model.ok()) return 0;
  const std::string printed = ir::text::PrintModel(**model);
  absl::StatusOr<std::unique_ptr<ir::Model>> again = ir::text::ParseModel(printed);
  if (!again.ok()) {
    std::cerr << "fuzz: printed text of a parsed model did not parse: " << again.status() << "\n"
              << printed << "\n";
    std::abort();
  }
  return 0;
}
