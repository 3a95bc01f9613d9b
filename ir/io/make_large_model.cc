// Writes a model larger than 3 GB: <folder>/large.onnx plus <folder>/large.onnx.data, streaming the
// weights (a few MiB in memory at any time). Each external tensor records the hash of its bytes in
// its metadata_props so a reader can check them. Written with protobuf directly, independent of
// our exporter.
//
//   make_large_model FOLDER [GIB]      (default 3.25 GiB of weights)
#include <fcntl.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ir/io/large_model_common.h"
#include "proto/onnx.pb.h"

namespace {

using onnx_opt::ir::io::Fnv1a;

bool WriteAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FOLDER [GIB]\n", argv[0]);
    return 2;
  }
  const std::string folder = argv[1];
  const double gib = argc > 2 ? std::atof(argv[2]) : 3.25;
  constexpr uint64_t kTensorBytes = uint64_t{256} << 20;  // 64 Mi floats each
  const int num_tensors = static_cast<int>(gib * 4 + 0.5);

  const std::string data_path = folder + "/large.onnx.data";
  const int fd = ::open(data_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    std::perror(data_path.c_str());
    return 1;
  }
  onnx::ModelProto model;
  model.set_ir_version(10);
  model.set_producer_name("make_large_model");
  model.add_opset_import()->set_version(21);
  onnx::GraphProto* g = model.mutable_graph();
  g->set_name("large");
  auto* x = g->add_input();
  x->set_name("x");
  auto* tt = x->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_value(kTensorBytes / 4);

  std::vector<float> chunk((uint64_t{4} << 20) / 4);  // 4 MiB
  uint64_t offset = 0;
  std::string prev = "x";
  for (int t = 0; t < num_tensors; ++t) {
    const std::string name = "w" + std::to_string(t);
    uint64_t hash = onnx_opt::ir::io::kFnvSeed;
    for (uint64_t done = 0; done < kTensorBytes; done += chunk.size() * 4) {
      const uint64_t base = done / 4;
      for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = static_cast<float>((base + i) % 9973) * 0.5f + t;
      const char* bytes = reinterpret_cast<const char*>(chunk.data());
      hash = Fnv1a(hash, bytes, chunk.size() * 4);
      if (!WriteAll(fd, bytes, chunk.size() * 4)) {
        std::perror("write");
        return 1;
      }
    }
    onnx::TensorProto* w = g->add_initializer();
    w->set_name(name);
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(kTensorBytes / 4);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    for (auto [k, v] : {std::pair<std::string, std::string>{"location", "large.onnx.data"},
                        {"offset", std::to_string(offset)},
                        {"length", std::to_string(kTensorBytes)}}) {
      auto* e = w->add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016" PRIx64, hash);
    auto* md = w->add_metadata_props();
    md->set_key(onnx_opt::ir::io::kChecksumKey);
    md->set_value(hex);
    offset += kTensorBytes;  // a multiple of 4096: every tensor stays page aligned

    auto* n = g->add_node();
    n->set_op_type("Add");
    n->set_name("add" + std::to_string(t));
    n->add_input(prev);
    n->add_input(name);
    prev = "y" + std::to_string(t);
    n->add_output(prev);
  }
  // One small inline tensor, typed, to mix storage kinds.
  onnx::TensorProto* s = g->add_initializer();
  s->set_name("scale");
  s->set_data_type(onnx::TensorProto::FLOAT);
  s->add_float_data(0.5f);
  auto* n = g->add_node();
  n->set_op_type("Mul");
  n->add_input(prev);
  n->add_input("scale");
  n->add_output("out");
  g->add_output()->set_name("out");
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    std::perror("close");
    return 1;
  }
  const std::string model_path = folder + "/large.onnx";
  const int mfd = ::open(model_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (mfd < 0 || !model.SerializeToFileDescriptor(mfd) || ::close(mfd) != 0) {
    std::perror(model_path.c_str());
    return 1;
  }
  std::printf("wrote %s (%d tensors, %.2f GiB of external data in %s)\n", model_path.c_str(),
              num_tensors, offset / double(uint64_t{1} << 30), data_path.c_str());
  return 0;
}
