// Writes the benchmark zoo (tools/bench/model_zoo.h) as .onnx files with one set of inputs each, in
// the layout of ONNX's node tests, so that other runtimes can be timed on the very same models:
//   bazel run -c opt //tools/bench:write_model_zoo -- /tmp/zoo
//   -> /tmp/zoo/resnet50/model.onnx, /tmp/zoo/resnet50/test_data_set_0/input_0.pb, ...
#include <filesystem>
#include <iostream>
#include <string>

#include "absl/status/status.h"
#include "ir/io/model_io.h"
#include "ir/status_macros.h"
#include "tools/bench/model_zoo.h"

namespace onnx_opt::bench {
namespace {

absl::Status WriteZoo(const std::filesystem::path& dir) {
  ASSIGN_OR_RETURN(std::vector<ZooModel> zoo, MakeModelZoo());
  for (const ZooModel& z : zoo) {
    const std::filesystem::path folder = dir / z.name / "test_data_set_0";
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error)
      return absl::InternalError("cannot create " + folder.string() + ": " + error.message());
    RETURN_IF_ERROR(ir::io::SaveModel(*z.model, (dir / z.name / "model.onnx").string()));
    const NamedInputs inputs = z.make_inputs(1);
    const auto& graph_inputs = z.model->graph().inputs();
    for (size_t i = 0; i < graph_inputs.size(); ++i) {
      auto it = inputs.find(graph_inputs[i]->name());
      if (it == inputs.end()) continue;  // an input with an initializer
      ir::Tensor t = it->second.tensor().ToIr();
      t.set_name(graph_inputs[i]->name());
      RETURN_IF_ERROR(ir::io::SaveTensorProtoFile(
          t, (folder / ("input_" + std::to_string(i) + ".pb")).string()));
    }
    std::cout << (dir / z.name).string() << "\n";
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace onnx_opt::bench

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]).rfind("-", 0) == 0) {
    std::cerr << "usage: write_model_zoo DIR\n";
    return 2;
  }
  const absl::Status st = onnx_opt::bench::WriteZoo(argv[1]);
  if (!st.ok()) {
    std::cerr << "write_model_zoo: " << st.message() << "\n";
    return 1;
  }
  return 0;
}
