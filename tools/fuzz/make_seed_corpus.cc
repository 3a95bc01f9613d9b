// make_seed_corpus OUT_DIR INPUT...: the fuzzers' starting corpus, made from .onnx files found in
// the INPUT files and folders (the project's test models, ONNX's node tests). Writes
// OUT_DIR/binary/N.onnx (the file as it is) and OUT_DIR/text/N.txt (the model in ONNX text syntax,
// for the text parser). Files over 1 MiB are left out: big seeds make slow fuzzing.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/io/model_io.h"
#include "ir/text/printer.h"

namespace {

constexpr std::uintmax_t kMaxSeedBytes = 1 << 20;

bool WriteFile(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  return out.good();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: make_seed_corpus OUT_DIR INPUT...\n";
    return 2;
  }
  const std::filesystem::path out(argv[1]);
  std::filesystem::create_directories(out / "binary");
  std::filesystem::create_directories(out / "text");
  std::vector<std::filesystem::path> models;
  for (int i = 2; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file() && entry.path().extension() == ".onnx")
          models.push_back(entry.path());
      }
    } else if (std::filesystem::is_regular_file(arg)) {
      models.push_back(arg);
    } else {
      std::cerr << "make_seed_corpus: no such file or folder: " << arg << "\n";
      return 2;
    }
  }
  int binary = 0;
  int text = 0;
  for (const auto& path : models) {
    if (std::filesystem::file_size(path) > kMaxSeedBytes) continue;
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!WriteFile(out / "binary" / absl::StrCat(binary, ".onnx"), bytes)) {
      std::cerr << "make_seed_corpus: cannot write into " << out << "\n";
      return 1;
    }
    ++binary;
    absl::StatusOr<std::unique_ptr<onnx_opt::ir::Model>> model =
        onnx_opt::ir::io::LoadModelFromString(bytes);
    if (!model.ok()) continue;
    if (!WriteFile(out / "text" / absl::StrCat(text, ".txt"),
                   onnx_opt::ir::text::PrintModel(**model))) {
      std::cerr << "make_seed_corpus: cannot write into " << out << "\n";
      return 1;
    }
    ++text;
  }
  std::cout << "make_seed_corpus: " << binary << " binary and " << text << " text seeds in " << out
            << "\n";
  return 0;
}
