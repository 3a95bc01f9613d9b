#include "tools/bench/decoder_generator.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ir/numeric/float16.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::bench {
namespace {

constexpr uint64_t kAlignment = 4096;  // every weight starts on a page: mapped tensors stay aligned

using AttributeValue = std::variant<int64_t, float, std::vector<int64_t>>;
struct NamedAttribute {
  const char* name;
  AttributeValue value;
};

// Deterministic weights in [-scale, scale]: splitmix64, one draw per element.
class WeightStream {
 public:
  explicit WeightStream(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  float Next(float scale) {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (static_cast<float>(z >> 40) * (1.0f / 8388608.0f) - 1.0f) *
           scale;  // 24 bits -> [-1, 1)
  }

 private:
  uint64_t state_;
};

// Builds the graph in protobuf and streams the large weights to the data file.
class DecoderWriter {
 public:
  DecoderWriter(const DecoderShape& shape, int data_fd, std::string data_name)
      : shape_(shape), fd_(data_fd), data_name_(std::move(data_name)), weights_(shape.seed) {
    act_ = shape.float16 ? onnx::TensorProto::FLOAT16 : onnx::TensorProto::FLOAT;
    graph_ = model_.mutable_graph();
  }

  onnx::ModelProto& model() { return model_; }
  int64_t weight_bytes() const { return static_cast<int64_t>(offset_); }
  absl::Status status() const { return status_; }

  absl::Status Build();

 private:
  void Ints(const std::string& name, std::vector<int64_t> dims, std::vector<int64_t> values) {
    onnx::TensorProto* t = graph_->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : dims) t->add_dims(d);
    for (int64_t v : values) t->add_int64_data(v);
  }

  // A small inline tensor of `type` (FLOAT or FLOAT16).
  void Floats(const std::string& name, int type, std::vector<int64_t> dims,
              const std::vector<float>& values) {
    onnx::TensorProto* t = graph_->add_initializer();
    t->set_name(name);
    t->set_data_type(type);
    for (int64_t d : dims) t->add_dims(d);
    if (type == onnx::TensorProto::FLOAT16) {
      std::string raw(values.size() * 2, '\0');
      for (size_t i = 0; i < values.size(); ++i) {
        const uint16_t h = ir::FloatToHalf(values[i]);
        std::memcpy(&raw[i * 2], &h, 2);
      }
      t->set_raw_data(raw);
    } else {
      t->set_raw_data(values.data(), values.size() * 4);
    }
  }

  // A weight of the activation type with values `center` + [-scale, scale], written to the data
  // file.
  void Weight(const std::string& name, std::vector<int64_t> dims, float scale,
              float center = 0.0f) {
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    const size_t element = shape_.float16 ? 2 : 4;
    const uint64_t bytes = static_cast<uint64_t>(count) * element;
    std::vector<char> chunk(size_t{4} << 20);
    for (int64_t done = 0; done < count && status_.ok();) {
      const int64_t n =
          std::min<int64_t>(count - done, static_cast<int64_t>(chunk.size() / element));
      for (int64_t i = 0; i < n; ++i) {
        const float v = center + weights_.Next(scale);
        if (shape_.float16) {
          const uint16_t h = ir::FloatToHalf(v);
          std::memcpy(&chunk[i * 2], &h, 2);
        } else {
          std::memcpy(&chunk[i * 4], &v, 4);
        }
      }
      WriteAll(chunk.data(), static_cast<size_t>(n) * element);
      done += n;
    }
    onnx::TensorProto* t = graph_->add_initializer();
    t->set_name(name);
    t->set_data_type(act_);
    for (int64_t d : dims) t->add_dims(d);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    for (const auto& [k, v] : {std::pair<std::string, std::string>{"location", data_name_},
                               {"offset", std::to_string(offset_)},
                               {"length", std::to_string(bytes)}}) {
      onnx::StringStringEntryProto* e = t->add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    offset_ += bytes;
    const uint64_t padded = (offset_ + kAlignment - 1) / kAlignment * kAlignment;
    if (padded > offset_) {
      const std::string zeros(padded - offset_, '\0');
      WriteAll(zeros.data(), zeros.size());
      offset_ = padded;
    }
  }

  void WriteAll(const char* p, size_t n) {
    while (n > 0 && status_.ok()) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        status_ = absl::InternalError(
            absl::StrCat("cannot write ", data_name_, ": ", std::strerror(errno)));
        return;
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
  }

  void Node(const std::string& out, const char* op, std::initializer_list<std::string> inputs,
            std::initializer_list<NamedAttribute> attributes = {}) {
    onnx::NodeProto* n = graph_->add_node();
    n->set_name(out);
    n->set_op_type(op);
    for (const std::string& in : inputs) n->add_input(in);
    n->add_output(out);
    for (const NamedAttribute& a : attributes) {
      onnx::AttributeProto* p = n->add_attribute();
      p->set_name(a.name);
      if (const auto* i = std::get_if<int64_t>(&a.value)) {
        p->set_type(onnx::AttributeProto::INT);
        p->set_i(*i);
      } else if (const auto* f = std::get_if<float>(&a.value)) {
        p->set_type(onnx::AttributeProto::FLOAT);
        p->set_f(*f);
      } else {
        p->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : std::get<std::vector<int64_t>>(a.value)) p->add_ints(v);
      }
    }
  }

  // A graph input or output with symbolic (strings) and fixed (numbers) dims.
  void Io(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
          int type, std::vector<std::variant<int64_t, std::string>> dims) {
    onnx::ValueInfoProto* v = list->Add();
    v->set_name(name);
    onnx::TypeProto::Tensor* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    for (const auto& d : dims) {
      onnx::TensorShapeProto::Dimension* dim = t->mutable_shape()->add_dim();
      if (const auto* s = std::get_if<std::string>(&d)) {
        dim->set_dim_param(*s);
      } else {
        dim->set_dim_value(std::get<int64_t>(d));
      }
    }
  }

  // HF's LlamaRMSNorm: float32 inside (Casts around it in half precision), then weight * x.
  std::string RmsNorm(const std::string& p, const std::string& x) {
    Weight(p + "weight", {shape_.hidden}, 0.1f, 1.0f);
    std::string in = x;
    if (shape_.float16) {
      Node(p + "x32", "Cast", {x}, {{"to", int64_t{onnx::TensorProto::FLOAT}}});
      in = p + "x32";
    }
    Node(p + "sq", "Pow", {in, "two"});
    Node(p + "ms", "ReduceMean", {p + "sq"}, {{"axes", std::vector<int64_t>{-1}}});
    Node(p + "mse", "Add", {p + "ms", "eps"});
    Node(p + "rms", "Sqrt", {p + "mse"});
    Node(p + "inv", "Reciprocal", {p + "rms"});
    Node(p + "n", "Mul", {in, p + "inv"});
    std::string n = p + "n";
    if (shape_.float16) {
      Node(p + "n16", "Cast", {n}, {{"to", int64_t{onnx::TensorProto::FLOAT16}}});
      n = p + "n16";
    }
    Node(p + "out", "Mul", {p + "weight", n});
    return p + "out";
  }

  // x * cos + rotate_half(x) * sin.
  std::string Rotate(const std::string& p, const std::string& x) {
    Node(p + "x1", "Slice", {x, "half_start", "half_mid", "last"});
    Node(p + "x2", "Slice", {x, "half_mid", "half_end", "last"});
    Node(p + "nx2", "Neg", {p + "x2"});
    Node(p + "rot", "Concat", {p + "nx2", p + "x1"}, {{"axis", int64_t{-1}}});
    Node(p + "xc", "Mul", {x, "cos"});
    Node(p + "rs", "Mul", {p + "rot", "sin"});
    Node(p + "out", "Add", {p + "xc", p + "rs"});
    return p + "out";
  }

  // transformers' repeat_kv: [B, kv, T, D] -> [B, kv, rep, T, D] -> [B, heads, T, D].
  std::string RepeatKv(const std::string& p, const std::string& x) {
    Node(p + "shape", "Shape", {x});
    Node(p + "len", "Gather", {p + "shape", "two_i"}, {{"axis", int64_t{0}}});
    Node(p + "len1", "Unsqueeze", {p + "len", "axes0"});
    Node(p + "e_shape", "Concat", {"batch1", "n_kv", "n_rep", p + "len1", "head_dim"},
         {{"axis", int64_t{0}}});
    Node(p + "r_shape", "Concat", {"batch1", "n_heads", p + "len1", "head_dim"},
         {{"axis", int64_t{0}}});
    Node(p + "u", "Unsqueeze", {x, "axes2"});
    Node(p + "e", "Expand", {p + "u", p + "e_shape"});
    Node(p + "r", "Reshape", {p + "e", p + "r_shape"});
    return p + "r";
  }

  std::string Layer(int64_t i, const std::string& x);

  DecoderShape shape_;
  int fd_;
  std::string data_name_;
  WeightStream weights_;
  int act_ = onnx::TensorProto::FLOAT;
  onnx::ModelProto model_;
  onnx::GraphProto* graph_ = nullptr;
  uint64_t offset_ = 0;
  absl::Status status_;
};

std::string DecoderWriter::Layer(int64_t i, const std::string& x) {
  const std::string p = absl::StrCat("l", i, "_");
  const int64_t hidden = shape_.hidden;
  const int64_t kv_width = shape_.kv_heads * shape_.head_dim();
  const float fan_in = 1.0f / std::sqrt(static_cast<float>(hidden));
  const std::string h = RmsNorm(p + "ln1_", x);
  for (const auto& [w, shape_name, width] :
       {std::tuple<const char*, const char*, int64_t>{"q", "q_shape", hidden},
        {"k", "kv_shape", kv_width},
        {"v", "kv_shape", kv_width}}) {
    const std::string name = p + w;
    Weight(name + "_proj", {hidden, width}, fan_in);
    Node(name + "0", "MatMul", {h, name + "_proj"});
    Node(name + "1", "Reshape", {name + "0", shape_name});
    Node(name, "Transpose", {name + "1"}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  }
  const std::string q = Rotate(p + "qr_", p + "q");
  std::string k = Rotate(p + "kr_", p + "k");
  std::string v = p + "v";
  if (shape_.cache) {
    const std::string suffix = std::to_string(i);
    Node("present_key_" + suffix, "Concat", {"past_key_" + suffix, k}, {{"axis", int64_t{-2}}});
    Node("present_value_" + suffix, "Concat", {"past_value_" + suffix, v}, {{"axis", int64_t{-2}}});
    k = "present_key_" + suffix;
    v = "present_value_" + suffix;
  }
  k = RepeatKv(p + "krep_", k);
  v = RepeatKv(p + "vrep_", v);
  Node(p + "kt", "Transpose", {k}, {{"perm", std::vector<int64_t>{0, 1, 3, 2}}});
  Node(p + "s", "MatMul", {q, p + "kt"});
  Node(p + "scaled", "Mul", {p + "s", "inv_sqrt_d"});
  Node(p + "masked", "Add", {p + "scaled", "mask"});
  std::string probs = p + "probs";
  if (shape_.float16) {
    // softmax(..., dtype=torch.float32).to(query.dtype)
    Node(p + "masked32", "Cast", {p + "masked"}, {{"to", int64_t{onnx::TensorProto::FLOAT}}});
    Node(p + "probs32", "Softmax", {p + "masked32"}, {{"axis", int64_t{-1}}});
    Node(probs, "Cast", {p + "probs32"}, {{"to", int64_t{onnx::TensorProto::FLOAT16}}});
  } else {
    Node(probs, "Softmax", {p + "masked"}, {{"axis", int64_t{-1}}});
  }
  Node(p + "ctx", "MatMul", {probs, v});
  Node(p + "ctx_t", "Transpose", {p + "ctx"}, {{"perm", std::vector<int64_t>{0, 2, 1, 3}}});
  Node(p + "ctx_m", "Reshape", {p + "ctx_t", "merged_shape"});
  Weight(p + "o_proj", {hidden, hidden}, fan_in);
  Node(p + "o", "MatMul", {p + "ctx_m", p + "o_proj"});
  Node(p + "r1", "Add", {x, p + "o"});
  const std::string h2 = RmsNorm(p + "ln2_", p + "r1");
  const int64_t inter = shape_.intermediate;
  Weight(p + "gate_proj", {hidden, inter}, fan_in);
  Weight(p + "up_proj", {hidden, inter}, fan_in);
  Weight(p + "down_proj", {inter, hidden}, 1.0f / std::sqrt(static_cast<float>(inter)));
  Node(p + "g", "MatMul", {h2, p + "gate_proj"});
  Node(p + "gs", "Sigmoid", {p + "g"});
  Node(p + "silu", "Mul", {p + "g", p + "gs"});
  Node(p + "u", "MatMul", {h2, p + "up_proj"});
  Node(p + "gu", "Mul", {p + "silu", p + "u"});
  Node(p + "d", "MatMul", {p + "gu", p + "down_proj"});
  Node(p + "out", "Add", {p + "r1", p + "d"});
  return p + "out";
}

absl::Status DecoderWriter::Build() {
  const DecoderShape& s = shape_;
  const int64_t head = s.head_dim();
  model_.set_ir_version(8);
  model_.set_producer_name("onnx-opt make_decoder");
  model_.add_opset_import()->set_version(17);
  graph_->set_name("decoder");

  // Graph inputs and outputs.
  const std::string total = s.cache ? "total" : "seq";
  Io(graph_->mutable_input(), "input_ids", onnx::TensorProto::INT64, {"batch", "seq"});
  Io(graph_->mutable_input(), "position_ids", onnx::TensorProto::INT64, {"batch", "seq"});
  Io(graph_->mutable_input(), "mask", act_, {"batch", int64_t{1}, "seq", total});
  if (s.cache) {
    for (int64_t i = 0; i < s.layers; ++i) {
      for (const char* kind : {"past_key_", "past_value_"}) {
        Io(graph_->mutable_input(), kind + std::to_string(i), act_,
           {"batch", s.kv_heads, "past", head});
      }
    }
  }
  Io(graph_->mutable_output(), "logits", act_, {"batch", "seq", s.vocab});
  if (s.cache) {
    for (int64_t i = 0; i < s.layers; ++i) {
      for (const char* kind : {"present_key_", "present_value_"}) {
        Io(graph_->mutable_output(), kind + std::to_string(i), act_,
           {"batch", s.kv_heads, "total", head});
      }
    }
  }

  // Constants shared by the layers.
  Ints("zero", {}, {0});
  Ints("one", {}, {1});
  Ints("two_i", {}, {2});
  Ints("axes0", {1}, {0});
  Ints("axes1", {1}, {1});
  Ints("axes2", {1}, {2});
  Ints("ones1", {1}, {1});
  Ints("n_heads", {1}, {s.heads});
  Ints("n_kv", {1}, {s.kv_heads});
  Ints("n_rep", {1}, {s.heads / s.kv_heads});
  Ints("head_dim", {1}, {head});
  Ints("hidden_dim", {1}, {s.hidden});
  Ints("half_start", {1}, {0});
  Ints("half_mid", {1}, {head / 2});
  Ints("half_end", {1}, {std::numeric_limits<int64_t>::max()});
  Ints("last", {1}, {-1});
  Floats("two", onnx::TensorProto::FLOAT, {}, {2.0f});
  Floats("eps", onnx::TensorProto::FLOAT, {}, {1e-5f});
  Floats("attention_scaling", onnx::TensorProto::FLOAT, {}, {1.0f});
  Floats("inv_sqrt_d", act_, {}, {1.0f / std::sqrt(static_cast<float>(head))});
  std::vector<float> inv_freq(head / 2);
  for (int64_t i = 0; i < head / 2; ++i) {
    inv_freq[i] = static_cast<float>(
        1.0 / std::pow(10000.0, 2.0 * static_cast<double>(i) / static_cast<double>(head)));
  }
  Floats("inv_freq", onnx::TensorProto::FLOAT, {head / 2}, inv_freq);

  // Token embedding.
  Weight("embed_tokens", {s.vocab, s.hidden}, 1.0f);
  Node("h0", "Gather", {"embed_tokens", "input_ids"}, {{"axis", int64_t{0}}});

  // Head split/merge shapes from the hidden state's shape.
  Node("x_shape", "Shape", {"h0"});
  Node("batch", "Gather", {"x_shape", "zero"}, {{"axis", int64_t{0}}});
  Node("seqlen", "Gather", {"x_shape", "one"}, {{"axis", int64_t{0}}});
  Node("batch1", "Unsqueeze", {"batch", "axes0"});
  Node("seq1", "Unsqueeze", {"seqlen", "axes0"});
  Node("q_shape", "Concat", {"batch1", "seq1", "n_heads", "head_dim"}, {{"axis", int64_t{0}}});
  Node("kv_shape", "Concat", {"batch1", "seq1", "n_kv", "head_dim"}, {{"axis", int64_t{0}}});
  Node("merged_shape", "Concat", {"batch1", "seq1", "hidden_dim"}, {{"axis", int64_t{0}}});

  // Rotary tables from the position ids, once for all layers (LlamaRotaryEmbedding.forward).
  Node("inv_u0", "Unsqueeze", {"inv_freq", "axes0"});
  Node("inv_u", "Unsqueeze", {"inv_u0", "axes2"});
  Node("pos_shape", "Shape", {"position_ids"});
  Node("pos_batch", "Gather", {"pos_shape", "zero"}, {{"axis", int64_t{0}}});
  Node("pos_batch1", "Unsqueeze", {"pos_batch", "axes0"});
  Node("inv_shape", "Concat", {"pos_batch1", "ones1", "ones1"}, {{"axis", int64_t{0}}});
  Node("inv_e", "Expand", {"inv_u", "inv_shape"});
  Node("inv_f", "Cast", {"inv_e"}, {{"to", int64_t{onnx::TensorProto::FLOAT}}});
  Node("pos_u", "Unsqueeze", {"position_ids", "axes1"});
  Node("pos_f", "Cast", {"pos_u"}, {{"to", int64_t{onnx::TensorProto::FLOAT}}});
  Node("freqs_t", "MatMul", {"inv_f", "pos_f"});
  Node("freqs", "Transpose", {"freqs_t"}, {{"perm", std::vector<int64_t>{0, 2, 1}}});
  Node("emb", "Concat", {"freqs", "freqs"}, {{"axis", int64_t{-1}}});
  Node("cos_e", "Cos", {"emb"});
  Node("cos_s", "Mul", {"cos_e", "attention_scaling"});
  Node("cos_c", "Cast", {"cos_s"}, {{"to", int64_t{act_}}});
  Node("sin_e", "Sin", {"emb"});
  Node("sin_s", "Mul", {"sin_e", "attention_scaling"});
  Node("sin_c", "Cast", {"sin_s"}, {{"to", int64_t{act_}}});
  Node("cos", "Unsqueeze", {"cos_c", "axes1"});
  Node("sin", "Unsqueeze", {"sin_c", "axes1"});

  std::string x = "h0";
  for (int64_t i = 0; i < s.layers && status_.ok(); ++i) x = Layer(i, x);
  const std::string normed = RmsNorm("final_norm_", x);
  Weight("lm_head", {s.hidden, s.vocab}, 1.0f / std::sqrt(static_cast<float>(s.hidden)));
  Node("logits", "MatMul", {normed, "lm_head"});
  return status_;
}

}  // namespace

int64_t DecoderShape::parameters() const {
  const int64_t kv_width = kv_heads * head_dim();
  const int64_t per_layer =
      hidden * (hidden + 2 * kv_width + hidden) + 3 * hidden * intermediate + 2 * hidden;
  return layers * per_layer + 2 * vocab * hidden + hidden;
}

absl::StatusOr<WrittenDecoder> WriteDecoder(const DecoderShape& shape, const std::string& folder,
                                            const std::string& name) {
  if (shape.layers < 1 || shape.hidden < 2 || shape.heads < 1 || shape.kv_heads < 1 ||
      shape.intermediate < 1 || shape.vocab < 1) {
    return absl::InvalidArgumentError("every size of the decoder must be positive");
  }
  if (shape.hidden % shape.heads != 0 || shape.head_dim() % 2 != 0) {
    return absl::InvalidArgumentError(absl::StrCat("hidden ", shape.hidden, " does not split into ",
                                                   shape.heads, " heads of an even size"));
  }
  if (shape.heads % shape.kv_heads != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        shape.kv_heads, " key/value heads do not divide ", shape.heads, " query heads"));
  }
  WrittenDecoder written;
  written.model_path = folder + "/" + name + ".onnx";
  written.data_path = written.model_path + ".data";
  const int fd = ::open(written.data_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return absl::NotFoundError(
        absl::StrCat("cannot create ", written.data_path, ": ", std::strerror(errno)));
  DecoderWriter writer(shape, fd, name + ".onnx.data");
  absl::Status built = writer.Build();
  if (::close(fd) != 0 && built.ok())
    built = absl::InternalError("cannot close " + written.data_path);
  if (!built.ok()) return built;
  written.weight_bytes = writer.weight_bytes();
  written.nodes = writer.model().graph().node_size();
  const int mfd =
      ::open(written.model_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (mfd < 0)
    return absl::NotFoundError(
        absl::StrCat("cannot create ", written.model_path, ": ", std::strerror(errno)));
  const bool serialized = writer.model().SerializeToFileDescriptor(mfd);
  if (::close(mfd) != 0 || !serialized)
    return absl::InternalError("cannot write " + written.model_path);
  return written;
}

}  // namespace onnx_opt::bench
