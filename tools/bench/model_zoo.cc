#include "tools/bench/model_zoo.h"

#include <cmath>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ir/status_macros.h"
#include "schema/inference/inference.h"

namespace onnx_opt::bench {
namespace {

constexpr int64_t kOpset = 17;
constexpr int64_t kIrVersion = 8;  // the IR version ONNX pairs with opset 17
constexpr float kBnEpsilon = 1e-5f;

// An attribute to set on a new node. ir::Attribute is move-only, which braced lists cannot hold;
// this is its copyable description.
struct Attr {
  std::string name;
  ir::AttributeKind kind;
  int64_t i = 0;
  float f = 0;
  std::vector<int64_t> ints;

  ir::Attribute ToIr() const {
    switch (kind) {
      case ir::AttributeKind::kFloat:
        return ir::Attribute::Float(name, f);
      case ir::AttributeKind::kInts:
        return ir::Attribute::Ints(name, ints);
      default:
        return ir::Attribute::Int(name, i);
    }
  }
};

Attr Int(std::string name, int64_t v) { return {std::move(name), ir::AttributeKind::kInt, v}; }
Attr Float(std::string name, float v) { return {std::move(name), ir::AttributeKind::kFloat, 0, v}; }
Attr Ints(std::string name, std::vector<int64_t> v) {
  return {std::move(name), ir::AttributeKind::kInts, 0, 0, std::move(v)};
}

// Builds a graph the way PyTorch's exporter names things (node "/scope/Conv_1", its output
// "/scope/Conv_1_output_0", weights "scope.weight"), drawing every weight from one generator so a
// model is the same on every run.
class Builder {
 public:
  Builder(ir::Graph& graph, uint64_t seed) : graph_(graph), rng_(seed) {}

  ir::Value* Input(const std::string& name, const std::vector<int64_t>& dims) {
    return graph_.AddInput(name,
                           ir::Type::Tensor(ir::DataType::kFloat, ir::Shape::FromSizes(dims)));
  }

  ir::Value* Floats(const std::string& name, std::vector<int64_t> dims,
                    const std::vector<float>& values) {
    ir::Tensor t = ir::Tensor::FromVector<float>(ir::DataType::kFloat, std::move(dims), values);
    t.set_name(name);
    return graph_.AddInitializer(std::move(t));
  }

  ir::Value* Int64s(const std::string& name, const std::vector<int64_t>& values) {
    ir::Tensor t = ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64,
                                                   {static_cast<int64_t>(values.size())}, values);
    t.set_name(name);
    return graph_.AddInitializer(std::move(t));
  }

  ir::Value* Uint8s(const std::string& name, std::vector<int64_t> dims,
                    const std::vector<uint8_t>& values) {
    ir::Tensor t = ir::Tensor::FromVector<uint8_t>(ir::DataType::kUint8, std::move(dims), values);
    t.set_name(name);
    return graph_.AddInitializer(std::move(t));
  }

  // Uniform random bytes: quantized weights around a zero point of 128.
  ir::Value* RandomBytes(const std::string& name, std::vector<int64_t> dims) {
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    std::uniform_int_distribution<int> dist(0, 255);
    std::vector<uint8_t> values(static_cast<size_t>(count));
    for (uint8_t& v : values) v = static_cast<uint8_t>(dist(rng_));
    return Uint8s(name, std::move(dims), values);
  }

  ir::Value* Normal(const std::string& name, std::vector<int64_t> dims, float mean, float stddev) {
    std::normal_distribution<float> dist(mean, stddev);
    return Random(name, std::move(dims), dist);
  }

  ir::Value* Uniform(const std::string& name, std::vector<int64_t> dims, float low, float high) {
    std::uniform_real_distribution<float> dist(low, high);
    return Random(name, std::move(dims), dist);
  }

  // Appends `op` under `scope`; its outputs are named after the node.
  ir::Node* Node(const std::string& scope, const std::string& op,
                 const std::vector<ir::Value*>& inputs, const std::vector<Attr>& attributes = {},
                 int num_outputs = 1) {
    const std::string name = UniqueNodeName(scope, op);
    std::vector<std::string> outputs;
    for (int i = 0; i < num_outputs; ++i) outputs.push_back(absl::StrCat(name, "_output_", i));
    ir::Node* node = graph_.AddNode(op, inputs, outputs);
    node->set_name(name);
    for (const Attr& a : attributes) node->SetAttribute(a.ToIr());
    return node;
  }

  ir::Value* Op(const std::string& scope, const std::string& op,
                const std::vector<ir::Value*>& inputs, const std::vector<Attr>& attributes = {}) {
    return Node(scope, op, inputs, attributes)->output(0);
  }

 private:
  template <typename Distribution>
  ir::Value* Random(const std::string& name, std::vector<int64_t> dims, Distribution& dist) {
    int64_t count = 1;
    for (int64_t d : dims) count *= d;
    std::vector<float> values(static_cast<size_t>(count));
    for (float& v : values) v = dist(rng_);
    return Floats(name, std::move(dims), values);
  }

  // "/scope/Add", then "/scope/Add_1", ... like the exporter, which keeps names unique per scope
  // (an empty scope is the top level: "/Flatten").
  std::string UniqueNodeName(const std::string& scope, const std::string& op) {
    const std::string base =
        scope.empty() ? absl::StrCat("/", op) : absl::StrCat("/", scope, "/", op);
    const int seen = name_counts_[base]++;
    return seen == 0 ? base : absl::StrCat(base, "_", seen);
  }

  ir::Graph& graph_;
  std::mt19937_64 rng_;
  absl::flat_hash_map<std::string, int> name_counts_;
};

std::unique_ptr<ir::Model> NewModel(const std::string& graph_name) {
  auto model = std::make_unique<ir::Model>();
  model->set_ir_version(kIrVersion);
  model->mutable_opset_imports().push_back({"", kOpset});
  model->set_producer_name("onnx-opt model_zoo");
  model->graph().set_name(graph_name);
  return model;
}

// Names and types the graph output, then infers every value's type. Strict inference doubles as a
// check that the generator wired the shapes it meant to: a contradiction with `output_dims` fails.
absl::StatusOr<ZooModel> Finish(std::string name, std::unique_ptr<ir::Model> model,
                                ir::Value* output, const std::vector<int64_t>& output_dims,
                                std::function<NamedInputs(uint64_t)> make_inputs) {
  output->set_name("output");
  output->set_type(ir::Type::Tensor(ir::DataType::kFloat, ir::Shape::FromSizes(output_dims)));
  model->graph().AddOutput(output);
  // Exporters write no value_info for intermediate values; the types stay on the values only.
  RETURN_IF_ERROR(
      schema::inference::InferShapes(*model, {.strict = true, .fill_value_info = false}));
  return ZooModel{std::move(name), std::move(model), std::move(make_inputs)};
}

interpreter::Tensor RandomNormal(std::vector<int64_t> dims, std::mt19937_64& rng) {
  interpreter::Tensor t(ir::DataType::kFloat, std::move(dims));
  std::normal_distribution<float> dist(0.0f, 1.0f);
  float* data = t.mutable_data<float>();
  for (int64_t i = 0; i < t.size(); ++i) data[i] = dist(rng);
  return t;
}

// A single float input of the given dims, drawn from N(0, 1).
std::function<NamedInputs(uint64_t)> NormalInput(std::string name, std::vector<int64_t> dims) {
  return [name = std::move(name), dims = std::move(dims)](uint64_t seed) {
    std::mt19937_64 rng(seed);
    NamedInputs inputs;
    inputs[name] = RandomNormal(dims, rng);
    return inputs;
  };
}

// --- CNN building blocks
// ---------------------------------------------------------------------------

struct ConvSpec {
  int64_t out_channels;
  int64_t kernel;
  int64_t stride = 1;
  int64_t group = 1;
};

// Conv without bias, then BatchNormalization with random statistics: torchvision's conv layers have
// no bias because a BN follows, and an export without fold-bn keeps the two apart. He-initialised
// weights keep activations in range through deep stacks.
ir::Value* ConvBn(Builder& b, const std::string& name, ir::Value* x, int64_t in_channels,
                  const ConvSpec& spec) {
  const int64_t fan_in = in_channels / spec.group * spec.kernel * spec.kernel;
  ir::Value* weight = b.Normal(
      name + ".weight", {spec.out_channels, in_channels / spec.group, spec.kernel, spec.kernel},
      0.0f, std::sqrt(2.0f / static_cast<float>(fan_in)));
  const int64_t pad = spec.kernel / 2;
  ir::Value* conv =
      b.Op(name, "Conv", {x, weight},
           {Ints("dilations", {1, 1}), Int("group", spec.group),
            Ints("kernel_shape", {spec.kernel, spec.kernel}), Ints("pads", {pad, pad, pad, pad}),
            Ints("strides", {spec.stride, spec.stride})});
  const std::vector<int64_t> channels = {spec.out_channels};
  ir::Value* scale = b.Uniform(name + ".bn.weight", channels, 0.5f, 1.0f);
  ir::Value* bias = b.Normal(name + ".bn.bias", channels, 0.0f, 0.1f);
  ir::Value* mean = b.Normal(name + ".bn.running_mean", channels, 0.0f, 0.1f);
  ir::Value* var = b.Uniform(name + ".bn.running_var", channels, 0.5f, 1.5f);
  return b.Op(name + ".bn", "BatchNormalization", {conv, scale, bias, mean, var},
              {Float("epsilon", kBnEpsilon), Float("momentum", 0.9f)});
}

// nn.Linear on a 2-D input as the exporter writes it: Gemm with the [out, in] weight transposed.
// Weights follow PyTorch's init, U(-1/sqrt(in), 1/sqrt(in)).
ir::Value* Dense(Builder& b, const std::string& name, ir::Value* x, int64_t in, int64_t out) {
  const float bound = 1.0f / std::sqrt(static_cast<float>(in));
  ir::Value* weight = b.Uniform(name + ".weight", {out, in}, -bound, bound);
  ir::Value* bias = b.Uniform(name + ".bias", {out}, -bound, bound);
  return b.Op(name, "Gemm", {x, weight, bias},
              {Float("alpha", 1.0f), Float("beta", 1.0f), Int("transB", 1)});
}

// GlobalAveragePool, Flatten and the classifier every torchvision CNN ends with.
ir::Value* Classifier(Builder& b, ir::Value* x, int64_t features, int64_t classes) {
  ir::Value* pooled = b.Op("avgpool", "GlobalAveragePool", {x});
  ir::Value* flat = b.Op("", "Flatten", {pooled}, {Int("axis", 1)});
  return Dense(b, "fc", flat, features, classes);
}

absl::Status CheckImageSize(int64_t image_size) {
  if (image_size <= 0 || image_size % 32 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("image_size must be a positive multiple of 32, got ", image_size));
  }
  return absl::OkStatus();
}

// --- ResNet-50
// -------------------------------------------------------------------------------------

// A bottleneck block: 1x1 reduce, 3x3 (strided), 1x1 expand by 4, plus a projected shortcut when
// the shape changes.
ir::Value* Bottleneck(Builder& b, const std::string& name, ir::Value* x, int64_t in_channels,
                      int64_t width, int64_t stride) {
  const int64_t out_channels = width * 4;
  ir::Value* y = b.Op(name, "Relu", {ConvBn(b, name + ".conv1", x, in_channels, {width, 1})});
  y = b.Op(name, "Relu", {ConvBn(b, name + ".conv2", y, width, {width, 3, stride})});
  y = ConvBn(b, name + ".conv3", y, width, {out_channels, 1});
  ir::Value* shortcut = x;
  if (stride != 1 || in_channels != out_channels) {
    shortcut = ConvBn(b, name + ".downsample", x, in_channels, {out_channels, 1, stride});
  }
  return b.Op(name, "Relu", {b.Op(name, "Add", {y, shortcut})});
}

}  // namespace

absl::StatusOr<ZooModel> MakeResNet50(const CnnOptions& options) {
  RETURN_IF_ERROR(CheckImageSize(options.image_size));
  std::unique_ptr<ir::Model> model = NewModel("resnet50");
  Builder b(model->graph(), options.weight_seed);
  const std::vector<int64_t> input_dims = {1, 3, options.image_size, options.image_size};
  ir::Value* x = b.Input("input", input_dims);
  x = b.Op("relu", "Relu", {ConvBn(b, "conv1", x, 3, {64, 7, 2})});
  x = b.Op("maxpool", "MaxPool", {x},
           {Int("ceil_mode", 0), Ints("dilations", {1, 1}), Ints("kernel_shape", {3, 3}),
            Ints("pads", {1, 1, 1, 1}), Ints("strides", {2, 2})});
  // Stages of [3, 4, 6, 3] bottlenecks; each but the first halves the resolution in its first
  // block.
  const int64_t blocks_per_stage[] = {3, 4, 6, 3};
  int64_t channels = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t width = int64_t{64} << stage;
    for (int64_t block = 0; block < blocks_per_stage[stage]; ++block) {
      const int64_t stride = (stage > 0 && block == 0) ? 2 : 1;
      x = Bottleneck(b, absl::StrCat("layer", stage + 1, ".", block), x, channels, width, stride);
      channels = width * 4;
    }
  }
  ir::Value* logits = Classifier(b, x, channels, 1000);
  return Finish("resnet50", std::move(model), logits, {1, 1000}, NormalInput("input", input_dims));
}

namespace {

// --- MobileNetV2
// -----------------------------------------------------------------------------------

// ReLU6 as the exporter writes it: Clip with min and max as (shared) scalar inputs.
struct Relu6 {
  ir::Value* min;
  ir::Value* max;
  ir::Value* operator()(Builder& b, const std::string& scope, ir::Value* x) const {
    return b.Op(scope, "Clip", {x, min, max});
  }
};

// An inverted residual block: 1x1 expand (skipped when the ratio is 1), 3x3 depthwise, 1x1 linear
// projection, and a residual Add when input and output shapes match.
ir::Value* InvertedResidual(Builder& b, const Relu6& relu6, const std::string& name, ir::Value* x,
                            int64_t in_channels, int64_t out_channels, int64_t stride,
                            int64_t expand_ratio) {
  const int64_t hidden = in_channels * expand_ratio;
  ir::Value* y = x;
  if (expand_ratio != 1)
    y = relu6(b, name, ConvBn(b, name + ".expand", y, in_channels, {hidden, 1}));
  y = relu6(b, name, ConvBn(b, name + ".depthwise", y, hidden, {hidden, 3, stride, hidden}));
  y = ConvBn(b, name + ".project", y, hidden, {out_channels, 1});
  if (stride == 1 && in_channels == out_channels) y = b.Op(name, "Add", {x, y});
  return y;
}

}  // namespace

absl::StatusOr<ZooModel> MakeMobileNetV2(const CnnOptions& options) {
  RETURN_IF_ERROR(CheckImageSize(options.image_size));
  std::unique_ptr<ir::Model> model = NewModel("mobilenetv2");
  Builder b(model->graph(), options.weight_seed);
  const Relu6 relu6{b.Floats("relu6.min", {}, {0.0f}), b.Floats("relu6.max", {}, {6.0f})};
  const std::vector<int64_t> input_dims = {1, 3, options.image_size, options.image_size};
  ir::Value* x = b.Input("input", input_dims);
  if (options.width_percent < 1 || options.depth < 1) {
    return absl::InvalidArgumentError("MobileNetV2 needs width_percent >= 1 and depth >= 1");
  }
  // Channel counts scaled and rounded up to a multiple of 8, as the paper's width multiplier does.
  const auto width = [&](int64_t c) { return (c * options.width_percent / 100 + 7) / 8 * 8; };
  x = relu6(b, "features.0", ConvBn(b, "features.0", x, 3, {width(32), 3, 2}));
  // The MobileNetV2 paper's table: expansion t, output channels c, repeats n, first stride s.
  struct Stage {
    int64_t t, c, n, s;
  };
  const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                          {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  int64_t channels = width(32);
  int feature = 1;
  for (const Stage& stage : stages) {
    for (int64_t i = 0; i < stage.n * options.depth; ++i) {
      x = InvertedResidual(b, relu6, absl::StrCat("features.", feature++), x, channels,
                           width(stage.c), i == 0 ? stage.s : 1, stage.t);
      channels = width(stage.c);
    }
  }
  const std::string last = absl::StrCat("features.", feature);
  const int64_t features = width(1280);
  x = relu6(b, last, ConvBn(b, last, x, channels, {features, 1}));
  ir::Value* logits = Classifier(b, x, features, 1000);
  return Finish("mobilenetv2", std::move(model), logits, {1, 1000},
                NormalInput("input", input_dims));
}

namespace {

// --- LSTM
// ------------------------------------------------------------------------------------------

constexpr int64_t kLstmInput = 64;
constexpr int64_t kLstmHidden = 128;
constexpr int64_t kLstmClasses = 10;

// One forward LSTM layer over x [T, 1, input]; outputs Y [T, 1, 1, H], Y_h [1, 1, H], Y_c [1, 1,
// H]. Weights follow PyTorch's init, U(-1/sqrt(H), 1/sqrt(H)), which keeps the gates out of
// saturation.
ir::Node* LstmLayer(Builder& b, const std::string& name, ir::Value* x, int64_t input_size) {
  const int64_t gates = 4 * kLstmHidden;
  const float bound = 1.0f / std::sqrt(static_cast<float>(kLstmHidden));
  ir::Value* w = b.Uniform(name + ".W", {1, gates, input_size}, -bound, bound);
  ir::Value* r = b.Uniform(name + ".R", {1, gates, kLstmHidden}, -bound, bound);
  ir::Value* bias = b.Uniform(name + ".B", {1, 2 * gates}, -bound, bound);
  return b.Node(name, "LSTM", {x, w, r, bias}, {Int("hidden_size", kLstmHidden)},
                /*num_outputs=*/3);
}

}  // namespace

absl::StatusOr<ZooModel> MakeLstm(const SequenceOptions& options) {
  const int64_t steps = options.sequence_length > 0 ? options.sequence_length : 100;
  std::unique_ptr<ir::Model> model = NewModel("lstm");
  Builder b(model->graph(), options.weight_seed);
  const std::vector<int64_t> input_dims = {steps, 1, kLstmInput};
  ir::Value* x = b.Input("input", input_dims);
  ir::Value* direction_axis = b.Int64s("axes_direction", {1});
  ir::Node* layer0 = LstmLayer(b, "lstm.layer0", x, kLstmInput);
  // Y is [T, directions, 1, H]; the next layer reads [T, 1, H].
  ir::Value* layer0_out = b.Op("lstm.layer0", "Squeeze", {layer0->output(0), direction_axis});
  ir::Node* layer1 = LstmLayer(b, "lstm.layer1", layer0_out, kLstmHidden);
  // Y_h of the last layer is the last step's hidden state, [directions, 1, H].
  ir::Value* last_step =
      b.Op("lstm.layer1", "Squeeze", {layer1->output(1), b.Int64s("axes_layer", {0})});
  ir::Value* logits = Dense(b, "fc", last_step, kLstmHidden, kLstmClasses);
  return Finish("lstm", std::move(model), logits, {1, kLstmClasses},
                NormalInput("input", input_dims));
}

namespace {

// --- BERT-base encoder layer
// -----------------------------------------------------------------------

// Sizes of one encoder layer (BERT-base: 768, 12 heads, 3072).
struct BertDims {
  int64_t hidden;
  int64_t heads;
  int64_t head_size() const { return hidden / heads; }
  int64_t ffn() const { return 4 * hidden; }
};

constexpr float kBertInitStddev = 0.02f;  // BERT's initializer_range

// x [1, T, in] @ W [in, out] + b, as the exporter writes nn.Linear on a 3-D input.
ir::Value* Linear(Builder& b, const std::string& name, ir::Value* x, int64_t in, int64_t out) {
  ir::Value* w = b.Normal(name + ".weight", {in, out}, 0.0f, kBertInitStddev);
  ir::Value* bias = b.Normal(name + ".bias", {out}, 0.0f, kBertInitStddev);
  return b.Op(name, "Add", {b.Op(name, "MatMul", {x, w}), bias});
}

ir::Value* LayerNorm(Builder& b, const std::string& name, ir::Value* x, int64_t hidden) {
  ir::Value* scale = b.Uniform(name + ".weight", {hidden}, 0.9f, 1.1f);
  ir::Value* bias = b.Normal(name + ".bias", {hidden}, 0.0f, kBertInitStddev);
  return b.Op(name, "LayerNormalization", {x, scale, bias},
              {Int("axis", -1), Float("epsilon", 1e-12f)});
}

// [1, T, 768] -> [1, 12, T, 64] (or [1, 12, 64, T] for keys, so QK^T is a plain MatMul).
ir::Value* SplitHeads(Builder& b, const std::string& name, ir::Value* x, ir::Value* heads_shape,
                      bool transposed) {
  ir::Value* split = b.Op(name, "Reshape", {x, heads_shape});
  const std::vector<int64_t> perm =
      transposed ? std::vector<int64_t>{0, 2, 3, 1} : std::vector<int64_t>{0, 2, 1, 3};
  return b.Op(name, "Transpose", {split}, {Ints("perm", perm)});
}

ir::Value* SelfAttention(Builder& b, const std::string& prefix, ir::Value* x, ir::Value* mask,
                         int64_t steps, const BertDims& d) {
  const std::string scope = prefix + "attention.self";
  ir::Value* heads_shape = b.Int64s(scope + ".heads_shape", {1, steps, d.heads, d.head_size()});
  ir::Value* q = SplitHeads(b, scope + ".query", Linear(b, scope + ".query", x, d.hidden, d.hidden),
                            heads_shape, false);
  ir::Value* k = SplitHeads(b, scope + ".key", Linear(b, scope + ".key", x, d.hidden, d.hidden),
                            heads_shape, true);
  ir::Value* v = SplitHeads(b, scope + ".value", Linear(b, scope + ".value", x, d.hidden, d.hidden),
                            heads_shape, false);
  ir::Value* scores = b.Op(scope, "MatMul", {q, k});
  ir::Value* scaled = b.Op(scope, "Div",
                           {scores, b.Floats(scope + ".sqrt_head_size", {},
                                             {std::sqrt(static_cast<float>(d.head_size()))})});
  ir::Value* probs =
      b.Op(scope, "Softmax", {b.Op(scope, "Add", {scaled, mask})}, {Int("axis", -1)});
  ir::Value* context = b.Op(scope, "MatMul", {probs, v});
  context = b.Op(scope, "Transpose", {context}, {Ints("perm", {0, 2, 1, 3})});
  return b.Op(scope, "Reshape", {context, b.Int64s(scope + ".merged_shape", {1, steps, d.hidden})});
}

// Gelu as HF BERT's exported erf form, x * 0.5 * (1 + erf(x / sqrt(2))): opset 17 has no Gelu op.
ir::Value* Gelu(Builder& b, const std::string& scope, ir::Value* x) {
  ir::Value* erf = b.Op(
      scope, "Erf", {b.Op(scope, "Div", {x, b.Floats(scope + ".sqrt2", {}, {std::sqrt(2.0f)})})});
  ir::Value* one_plus = b.Op(scope, "Add", {erf, b.Floats(scope + ".one", {}, {1.0f})});
  ir::Value* half_x = b.Op(scope, "Mul", {x, b.Floats(scope + ".half", {}, {0.5f})});
  return b.Op(scope, "Mul", {half_x, one_plus});
}

// hidden_states from N(0, 1); the mask attends to the first 7/8 of the steps and pads the rest, as
// a batch of uneven sentences does.
std::function<NamedInputs(uint64_t)> BertInputs(int64_t steps, int64_t hidden) {
  return [steps, hidden](uint64_t seed) {
    std::mt19937_64 rng(seed);
    NamedInputs inputs;
    inputs["hidden_states"] = RandomNormal({1, steps, hidden}, rng);
    interpreter::Tensor mask(ir::DataType::kFloat, {1, 1, 1, steps});
    float* m = mask.mutable_data<float>();
    for (int64_t i = 0; i < steps; ++i) m[i] = i < steps - steps / 8 ? 0.0f : -10000.0f;
    inputs["attention_mask"] = std::move(mask);
    return inputs;
  };
}

}  // namespace

absl::StatusOr<ZooModel> MakeBertLayer(const SequenceOptions& options) {
  const int64_t steps = options.sequence_length > 0 ? options.sequence_length : 128;
  std::unique_ptr<ir::Model> model = NewModel("bert_layer");
  if (options.layers < 1 || options.heads < 1 || options.hidden < 1 ||
      options.hidden % options.heads != 0) {
    return absl::InvalidArgumentError("BERT needs layers >= 1 and heads dividing hidden");
  }
  const BertDims d{options.hidden, options.heads};
  Builder b(model->graph(), options.weight_seed);
  ir::Value* x = b.Input("hidden_states", {1, steps, d.hidden});
  ir::Value* mask = b.Input("attention_mask", {1, 1, 1, steps});
  for (int64_t layer = 0; layer < options.layers; ++layer) {
    const std::string p = options.layers == 1 ? "" : absl::StrCat("layer.", layer, ".");
    ir::Value* attention = SelfAttention(b, p, x, mask, steps, d);
    attention = Linear(b, p + "attention.output.dense", attention, d.hidden, d.hidden);
    attention = LayerNorm(b, p + "attention.output.LayerNorm",
                          b.Op(p + "attention.output", "Add", {attention, x}), d.hidden);
    ir::Value* ffn = Gelu(b, p + "intermediate.gelu",
                          Linear(b, p + "intermediate.dense", attention, d.hidden, d.ffn()));
    ffn = Linear(b, p + "output.dense", ffn, d.ffn(), d.hidden);
    x = LayerNorm(b, p + "output.LayerNorm", b.Op(p + "output", "Add", {ffn, attention}), d.hidden);
  }
  return Finish("bert_layer", std::move(model), x, {1, steps, d.hidden},
                BertInputs(steps, d.hidden));
}

constexpr int64_t kSmallOpsWidth = 64;

absl::StatusOr<ZooModel> MakeSmallOps(const SmallOpsOptions& options) {
  std::unique_ptr<ir::Model> model = NewModel("small_ops");
  Builder b(model->graph(), options.weight_seed);
  const std::vector<int64_t> dims = {1, kSmallOpsWidth};
  ir::Value* x = b.Input("input", dims);
  ir::Value* shape = b.Int64s("shape", dims);
  ir::Value* half = b.Floats("half", {}, {0.5f});
  // A gated residual step per block, as streaming audio models do on each frame: five tiny
  // elementwise nodes, and a Reshape every tenth block as exporters leave them.
  for (int64_t i = 0; i < options.blocks; ++i) {
    const std::string scope = absl::StrCat("block", i);
    ir::Value* w = b.Normal(scope + ".weight", {kSmallOpsWidth}, 0.0f, 0.5f);
    ir::Value* bias = b.Normal(scope + ".bias", {kSmallOpsWidth}, 0.0f, 0.1f);
    ir::Value* pre = b.Op(scope, "Add", {b.Op(scope, "Mul", {x, w}), bias});
    ir::Value* gate = b.Op(scope, "Sigmoid", {pre});
    x = b.Op(
        scope, "Add",
        {x, b.Op(scope, "Mul", {b.Op(scope, "Mul", {gate, b.Op(scope, "Tanh", {pre})}), half})});
    if (i % 10 == 9) x = b.Op(scope, "Reshape", {x, shape});
  }
  return Finish("small_ops", std::move(model), x, dims, NormalInput("input", dims));
}

namespace {

// --- Dynamically quantized CNN
// ---------------------------------------------------------------------

// A 3x3 conv as onnxruntime's quantize_dynamic writes it: the activation is quantized on the fly
// (DynamicQuantizeLinear), multiplied in integers (ConvInteger against uint8 weights with zero
// point 128), and the int32 sums scaled back to float by the product of the two scales; bias and
// Relu follow.
ir::Value* QuantizedConv(Builder& b, const std::string& name, ir::Value* x, int64_t in_channels,
                         int64_t out_channels, int64_t stride) {
  constexpr int64_t kKernel = 3;
  // Uniform bytes have a standard deviation of about 73.6 steps: scale them to He's initialisation.
  const float fan_in = static_cast<float>(in_channels * kKernel * kKernel);
  const float weight_scale = std::sqrt(2.0f / fan_in) / 73.6f;
  ir::Node* quantize = b.Node(name, "DynamicQuantizeLinear", {x}, {}, /*num_outputs=*/3);
  ir::Value* weight =
      b.RandomBytes(name + ".weight_quantized", {out_channels, in_channels, kKernel, kKernel});
  ir::Value* weight_zero_point = b.Uint8s(name + ".weight_zero_point", {}, {128});
  ir::Value* conv = b.Op(
      name, "ConvInteger", {quantize->output(0), weight, quantize->output(2), weight_zero_point},
      {Ints("dilations", {1, 1}), Int("group", 1), Ints("kernel_shape", {kKernel, kKernel}),
       Ints("pads", {1, 1, 1, 1}), Ints("strides", {stride, stride})});
  ir::Value* sums =
      b.Op(name, "Cast", {conv}, {Int("to", static_cast<int64_t>(ir::DataType::kFloat))});
  ir::Value* scale = b.Op(
      name, "Mul", {quantize->output(1), b.Floats(name + ".weight_scale", {}, {weight_scale})});
  ir::Value* y = b.Op(name, "Mul", {sums, scale});
  y = b.Op(name, "Add", {y, b.Normal(name + ".bias", {out_channels, 1, 1}, 0.0f, 0.1f)});
  return b.Op(name, "Relu", {y});
}

}  // namespace

absl::StatusOr<ZooModel> MakeQuantizedCnn(const CnnOptions& options) {
  RETURN_IF_ERROR(CheckImageSize(options.image_size));
  std::unique_ptr<ir::Model> model = NewModel("quantized_cnn");
  Builder b(model->graph(), options.weight_seed);
  const std::vector<int64_t> input_dims = {1, 3, options.image_size, options.image_size};
  ir::Value* x = b.Input("input", input_dims);
  // A VGG-style encoder: each stage halves the image and doubles the channels, then refines.
  struct Layer {
    int64_t out_channels, stride;
  };
  const Layer layers[] = {{16, 1},  {32, 2},  {32, 1},  {64, 2}, {64, 1},
                          {128, 2}, {128, 1}, {256, 2}, {256, 1}};
  int64_t channels = 3;
  int index = 0;
  for (const Layer& layer : layers) {
    x = QuantizedConv(b, absl::StrCat("encoder.conv", index++), x, channels, layer.out_channels,
                      layer.stride);
    channels = layer.out_channels;
  }
  ir::Value* logits = Classifier(b, x, channels, 10);
  return Finish("quantized_cnn", std::move(model), logits, {1, 10},
                NormalInput("input", input_dims));
}

namespace {

// --- Streaming step with If branches -------------------------------------------------------------

constexpr int64_t kBranchWidth = 64;

// One branch of a block: Relu(x * w + b) with the branch's own weights (initializers of the
// branch).
std::unique_ptr<ir::Graph> BranchGraph(const std::string& scope, ir::Value* x, uint64_t seed) {
  auto graph = std::make_unique<ir::Graph>(scope);
  Builder b(*graph, seed);
  ir::Value* w = b.Normal(scope + ".weight", {kBranchWidth}, 0.0f, 0.5f);
  ir::Value* bias = b.Normal(scope + ".bias", {kBranchWidth}, 0.0f, 0.1f);
  ir::Value* y = b.Op(scope, "Relu", {b.Op(scope, "Add", {b.Op(scope, "Mul", {x, w}), bias})});
  y->set_type(ir::Type::Tensor(ir::DataType::kFloat, ir::Shape::FromSizes({1, kBranchWidth})));
  graph->AddOutput(y);
  return graph;
}

}  // namespace

absl::StatusOr<ZooModel> MakeBranchySteps(const BranchyOptions& options) {
  std::unique_ptr<ir::Model> model = NewModel("branchy_steps");
  Builder b(model->graph(), options.weight_seed);
  const std::vector<int64_t> dims = {1, kBranchWidth};
  ir::Value* x = b.Input("input", dims);
  ir::Value* rate = model->graph().AddInput(
      "sr", ir::Type::Tensor(ir::DataType::kInt64, ir::Shape::FromSizes({})));
  ir::Tensor rate_16k = ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {}, {16000});
  rate_16k.set_name("sr_16k");
  ir::Value* is_16k = b.Op("", "Equal", {rate, model->graph().AddInitializer(std::move(rate_16k))});
  for (int64_t i = 0; i < options.blocks; ++i) {
    const std::string scope = absl::StrCat("block", i);
    ir::Node* branch = b.Node(scope, "If", {is_16k});
    const uint64_t seed = options.weight_seed * 1000 + static_cast<uint64_t>(i);
    branch->SetAttribute(
        ir::Attribute::FromGraph("then_branch", BranchGraph(scope + "/then", x, 2 * seed)));
    branch->SetAttribute(
        ir::Attribute::FromGraph("else_branch", BranchGraph(scope + "/else", x, 2 * seed + 1)));
    x = b.Op(scope, "Add", {x, branch->output(0)});
  }
  auto make_inputs = [dims](uint64_t seed) {
    std::mt19937_64 rng(seed);
    NamedInputs inputs;
    inputs["input"] = RandomNormal(dims, rng);
    interpreter::Tensor rate(ir::DataType::kInt64, {});
    rate.mutable_data<int64_t>()[0] = 16000;
    inputs["sr"] = std::move(rate);
    return inputs;
  };
  return Finish("branchy_steps", std::move(model), x, dims, make_inputs);
}

absl::Span<const GeneratedModel> GeneratedModels() {
  static constexpr GeneratedModel kModels[] = {
      {"cnn-700",
       [] { return MakeMobileNetV2({.image_size = 64, .width_percent = 25, .depth = 5}); }},
      {"transformer-700",
       [] {
         return MakeBertLayer({.sequence_length = 32, .layers = 20, .hidden = 64, .heads = 2});
       }},
      {"cnn-2k",
       [] { return MakeMobileNetV2({.image_size = 64, .width_percent = 25, .depth = 13}); }},
      {"cnn-4k",
       [] { return MakeMobileNetV2({.image_size = 64, .width_percent = 25, .depth = 27}); }},
      {"cnn-10k",
       [] { return MakeMobileNetV2({.image_size = 64, .width_percent = 25, .depth = 70}); }},
      {"transformer-10k",
       [] {
         return MakeBertLayer({.sequence_length = 32, .layers = 290, .hidden = 80, .heads = 2});
       }},
  };
  return kModels;
}

absl::Span<const NamedModelMaker> ModelZooMakers() {
  static constexpr NamedModelMaker kModels[] = {
      {"resnet50", [] { return MakeResNet50(); }},
      {"mobilenetv2", [] { return MakeMobileNetV2(); }},
      {"lstm", [] { return MakeLstm(); }},
      {"bert_layer", [] { return MakeBertLayer(); }},
      {"small_ops", [] { return MakeSmallOps(); }},
      {"quantized_cnn", [] { return MakeQuantizedCnn(); }},
      {"branchy_steps", [] { return MakeBranchySteps(); }},
  };
  return kModels;
}

absl::StatusOr<std::vector<ZooModel>> MakeModelZoo() {
  std::vector<ZooModel> zoo;
  for (const NamedModelMaker& maker : ModelZooMakers()) {
    ASSIGN_OR_RETURN(ZooModel model, maker.make());
    zoo.push_back(std::move(model));
  }
  return zoo;
}

namespace {

// --- FLOP counting
// ---------------------------------------------------------------------------------

absl::StatusOr<std::vector<int64_t>> StaticDims(const ir::Node& node, const ir::Value* value) {
  const ir::Type& type = value->type();
  if (!type.is_tensor() || !type.shape() || !type.shape()->is_static()) {
    return absl::FailedPreconditionError(absl::StrCat("cannot count the FLOPs of ", node.Describe(),
                                                      ": ", value->name(), " has no static shape (",
                                                      type.ToString(), ")"));
  }
  std::vector<int64_t> dims;
  for (const ir::Dim& d : type.shape()->dims()) dims.push_back(d.value());
  return dims;
}

int64_t Product(const std::vector<int64_t>& dims, size_t first = 0) {
  int64_t p = 1;
  for (size_t i = first; i < dims.size(); ++i) p *= dims[i];
  return p;
}

int64_t IntAttribute(const ir::Node& node, std::string_view name, int64_t default_value) {
  const ir::Attribute* a = node.FindAttribute(name);
  return a ? a->i : default_value;
}

// Multiply-adds of one node: each output element of a Conv (or ConvInteger) sums over C/group * kH
// * kW products, each of a MatMul/Gemm over the shared dimension K, and each LSTM step multiplies
// every direction's W and R.
absl::StatusOr<int64_t> MultiplyAdds(const ir::Node& node) {
  const std::string& op = node.op_type();
  if (op == "Conv" || op == "ConvInteger") {
    ASSIGN_OR_RETURN(std::vector<int64_t> out, StaticDims(node, node.output(0)));
    ASSIGN_OR_RETURN(std::vector<int64_t> weight, StaticDims(node, node.input(1)));
    return Product(out) * Product(weight, 1);
  }
  if (op == "MatMul" || op == "Gemm") {
    ASSIGN_OR_RETURN(std::vector<int64_t> out, StaticDims(node, node.output(0)));
    ASSIGN_OR_RETURN(std::vector<int64_t> a, StaticDims(node, node.input(0)));
    const bool a_transposed = op == "Gemm" && IntAttribute(node, "transA", 0) != 0;
    const int64_t k = a.empty() ? 1 : (a_transposed ? a.front() : a.back());
    return Product(out) * k;
  }
  if (op == "LSTM") {
    ASSIGN_OR_RETURN(std::vector<int64_t> x, StaticDims(node, node.input(0)));
    ASSIGN_OR_RETURN(std::vector<int64_t> w, StaticDims(node, node.input(1)));
    ASSIGN_OR_RETURN(std::vector<int64_t> r, StaticDims(node, node.input(2)));
    return x[0] * x[1] * (Product(w) + Product(r));
  }
  return 0;
}

}  // namespace

absl::StatusOr<double> CountMatrixFlops(const ir::Model& model) {
  double flops = 0;
  for (const ir::Node* node : model.graph().nodes()) {
    ASSIGN_OR_RETURN(int64_t macs, MultiplyAdds(*node));
    flops += 2.0 * static_cast<double>(macs);
  }
  return flops;
}

}  // namespace onnx_opt::bench
