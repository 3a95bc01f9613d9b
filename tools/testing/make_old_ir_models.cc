// Writes the hand-made old-IR models (old_ir_models.h) as NAME.onnx into a folder, for the
// command-line tools' test.
// Usage: make_old_ir_models OUTPUT_DIR
#include <iostream>
#include <string>

#include "ir/io/model_io.h"
#include "ir/text/parser.h"
#include "tools/testing/old_ir_models.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_old_ir_models OUTPUT_DIR\n";
    return 2;
  }
  for (const auto& [name, text] : onnx_opt::tools::testing::OldIrModels()) {
    auto model = onnx_opt::ir::text::ParseModel(text);
    if (!model.ok()) {
      std::cerr << name << ": " << model.status().message() << "\n";
      return 1;
    }
    const std::string path = std::string(argv[1]) + "/" + name + ".onnx";
    if (auto s = onnx_opt::ir::io::SaveModel(**model, path); !s.ok()) {
      std::cerr << path << ": " << s.message() << "\n";
      return 1;
    }
  }
  return 0;
}
