// Writes a model larger than 3 GB: <folder>/large.onnx plus <folder>/large.onnx.data, streaming the
// weights (a few MiB in memory at any time). Each external tensor records the hash of its bytes in
// its metadata_props so a reader can check them. Written with protobuf directly, independent of
// our exporter.
//
// The model is a valid MLP the tools accept: x[1, W] -> (MatMul by an external W x W weight, Add of
// a small inline bias, Relu) per layer -> Mul by an inline scale. The weights are small, so the
// outputs stay finite and verification compares real numbers.
//
//   make_large_model FOLDER [GIB [W]]   (default 3.25 GiB of weights, W = 8192: 256 MiB layers;
//                                        rounded to whole layers)
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ir/io/testing/large_model_common.h"
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
  const int64_t kWidth = argc > 3 ? std::atoll(argv[3]) : 8192;
  if (kWidth < 1024 || kWidth % 1024 != 0) {
    std::fprintf(stderr, "W must be a multiple of 1024\n");  // keeps every layer page aligned
    return 2;
  }
  const uint64_t kTensorBytes = uint64_t(kWidth) * kWidth * 4;
  const int num_tensors =
      std::max(1, static_cast<int>(gib * double(uint64_t{1} << 30) / kTensorBytes + 0.5));

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
  auto set_row_type = [&](onnx::ValueInfoProto* v) {
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(1);
    tt->mutable_shape()->add_dim()->set_dim_value(kWidth);
  };
  set_row_type(x);

  std::vector<float> chunk((uint64_t{4} << 20) / 4);  // 4 MiB, a divisor of every layer's size
  uint64_t offset = 0;
  std::string prev = "x";
  for (int t = 0; t < num_tensors; ++t) {
    const std::string name = "w" + std::to_string(t);
    uint64_t hash = onnx_opt::ir::io::kFnvSeed;
    for (uint64_t done = 0; done < kTensorBytes; done += chunk.size() * 4) {
      const uint64_t base = done / 4;
      for (size_t i = 0; i < chunk.size(); ++i) {
        chunk[i] = (static_cast<float>((base + i) % 9973) - 4986.0f + t) * 4e-6f;
      }
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
    w->add_dims(kWidth);
    w->add_dims(kWidth);
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

    onnx::TensorProto* b = g->add_initializer();
    b->set_name("b" + std::to_string(t));
    b->set_data_type(onnx::TensorProto::FLOAT);
    b->add_dims(kWidth);
    std::vector<float> bias(kWidth);
    for (int64_t i = 0; i < kWidth; ++i) bias[i] = static_cast<float>((i + t) % 7) * 0.01f;
    b->set_raw_data(bias.data(), bias.size() * 4);

    const std::string layer = std::to_string(t);
    auto add_node = [&](const char* op, const std::string& a, const std::string& c,
                        const std::string& out) {
      auto* n = g->add_node();
      n->set_op_type(op);
      n->set_name(out);
      n->add_input(a);
      if (!c.empty()) n->add_input(c);
      n->add_output(out);
    };
    add_node("MatMul", prev, name, "mm" + layer);
    add_node("Add", "mm" + layer, "b" + layer, "pre" + layer);
    add_node("Relu", "pre" + layer, "", "h" + layer);
    prev = "h" + layer;
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
  auto* out = g->add_output();
  out->set_name("out");
  set_row_type(out);
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
