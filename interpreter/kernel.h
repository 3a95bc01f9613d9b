// Kernels and their registry. A kernel is a function of a KernelContext: it reads inputs and
// attributes (defaults given at the call), may run subgraphs through the context, and sets outputs.
#ifndef ONNX_OPT_INTERPRETER_KERNEL_H_
#define ONNX_OPT_INTERPRETER_KERNEL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "interpreter/cpu/vector_kernels.h"
#include "interpreter/kernel_cache.h"
#include "interpreter/value.h"
#include "ir/attribute.h"
#include "ir/graph.h"
#include "ir/node.h"

namespace onnx_opt::interpreter {

class KernelContext;
using KernelFn = std::function<absl::Status(KernelContext&)>;

// Per-output-channel work the evaluator folds into a producing kernel (a Conv followed by inference
// BatchNormalization and/or Relu/Clip): y = activation(y * scale[c] + shift[c]), in float, in that
// order, exactly as the separate nodes would compute it. A kernel that supports it applies it while
// its output is still in cache and calls mark_epilogue_applied(); otherwise the evaluator runs the
// folded nodes as usual.
struct ChannelEpilogue {
  std::vector<float> scale, shift;  // one per channel; empty: no affine step
  bool has_activation = false;
  UnaryOp activation = UnaryOp::kRelu;
  float p0 = 0, p1 = 0;  // the activation's parameters (Clip: min, max)

  // Applies the epilogue of `channel` to n contiguous values in place, after adding *bias (the
  // convolution's own bias of that channel) when given.
  void Apply(int64_t channel, float* y, int64_t n, const float* bias = nullptr) const;
};

// Runs a subgraph (If/Loop/Scan bodies) in the scope of the node being evaluated.
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  virtual absl::StatusOr<std::vector<RuntimeValue>> RunSubgraph(
      const ir::Graph& graph, std::vector<RuntimeValue> inputs) = 0;
};

// Resolves attribute references (`ref_attr_name`) inside function bodies.
using AttributeScope = absl::flat_hash_map<std::string, const ir::Attribute*>;

// One address per type of value a kernel derives (KernelContext::Derived): the kind it is kept
// under.
template <typename T>
inline constexpr char kDerivedKind = 0;

class KernelContext {
 public:
  // `dying_inputs` has bit i set when input i's value is not used after this node (the evaluator's
  // liveness plan), so an output may take over its buffer (see OutputBuffer).
  // `inputs` must outlive the context (the evaluator's per-graph buffer).
  KernelContext(const ir::Node& node, int64_t opset, absl::Span<const RuntimeValue* const> inputs,
                const AttributeScope* attr_scope, SubgraphRunner* runner, uint64_t dying_inputs = 0)
      : node_(node),
        opset_(opset),
        inputs_(inputs),
        attr_scope_(attr_scope),
        runner_(runner),
        outputs_(node.num_outputs()),
        dying_inputs_(dying_inputs) {}

  const ir::Node& node() const { return node_; }
  int64_t opset() const { return opset_; }

  // Inputs (an omitted optional input is absent).
  size_t num_inputs() const { return inputs_.size(); }
  bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i] != nullptr; }
  const RuntimeValue& value(size_t i) const;
  // The tensor at input i; an empty, undefined tensor when absent or not a tensor.
  const Tensor& input(size_t i) const;
  // Input i as a tensor, or an error naming the node.
  absl::StatusOr<const Tensor*> TensorInput(size_t i) const;
  // Reads an integer tensor input (int32/int64) as int64s.
  absl::StatusOr<std::vector<int64_t>> IntsInput(size_t i) const;
  // Storage for an output of `type` and `dims` whose element k the kernel computes from element k
  // of input i alone (or before any later element of it is read): input i's buffer when the input
  // dies here, nothing else holds that buffer and the byte sizes match (the output is then written
  // in place, saving an allocation and a pass over fresh memory); otherwise a new, unset tensor.
  Tensor OutputBuffer(size_t i, DataType type, std::vector<int64_t> dims) const;

  // Attributes (references resolved); null when absent.
  const ir::Attribute* attr(std::string_view name) const;
  bool has_attr(std::string_view name) const { return attr(name) != nullptr; }
  int64_t GetInt(std::string_view name, int64_t fallback) const;
  float GetFloat(std::string_view name, float fallback) const;
  std::string GetString(std::string_view name, std::string fallback = "") const;
  std::vector<int64_t> GetInts(std::string_view name, std::vector<int64_t> fallback = {}) const;
  std::vector<float> GetFloats(std::string_view name, std::vector<float> fallback = {}) const;
  std::vector<std::string> GetStrings(std::string_view name) const;
  const ir::Graph* GetGraph(std::string_view name) const;

  // Outputs.
  size_t num_outputs() const { return outputs_.size(); }
  // Whether output i is wanted (present and not omitted).
  bool wants_output(size_t i) const;
  void set_output(size_t i, RuntimeValue v) {
    if (i < outputs_.size()) outputs_[i] = std::move(v);
  }
  absl::InlinedVector<RuntimeValue, 2>& outputs() { return outputs_; }

  absl::StatusOr<std::vector<RuntimeValue>> RunSubgraph(const ir::Graph& g,
                                                        std::vector<RuntimeValue> inputs) {
    return runner_->RunSubgraph(g, std::move(inputs));
  }

  // An InvalidArgument error prefixed with the node's description.
  absl::Status Error(std::string_view msg) const;

  // The epilogue the evaluator asks this node to apply to its output 0 (null: none).
  const ChannelEpilogue* epilogue() const { return epilogue_; }
  void set_epilogue(const ChannelEpilogue* e) { epilogue_ = e; }
  void mark_epilogue_applied() { epilogue_applied_ = true; }
  bool epilogue_applied() const { return epilogue_applied_; }

  // What the kernel derives from input i (weights reordered for its inner loop): make()'s result
  // (a T), kept in the node's plan step and returned again by later runs while input i is the same
  // tensor, when the evaluator says input i is the same on every run (`constant_inputs`, bit i);
  // made for this call alone otherwise. Values of each type are kept apart: a node may derive
  // several types from one input (a convolution's Winograd filters, its weights cropped to the
  // cells that read X).
  template <typename T, typename Make>
  std::shared_ptr<const T> Derived(size_t i, Make&& make) {
    const bool keep = cache_ != nullptr && i < 64 && ((constant_inputs_ >> i) & 1) != 0;
    if (keep) {
      if (std::shared_ptr<const void> kept = cache_->Find(i, &kDerivedKind<T>, input(i)))
        return std::static_pointer_cast<const T>(kept);
    }
    auto made = std::make_shared<const T>(make());
    if (keep) cache_->Keep(i, &kDerivedKind<T>, input(i), made);
    return made;
  }
  void set_cache(KernelCache* cache, uint64_t constant_inputs, bool pack_weights = false) {
    cache_ = cache;
    constant_inputs_ = constant_inputs;
    pack_weights_ = pack_weights;
  }
  // Whether the kernel should copy input i into its own layout once (with Derived) instead of
  // reading it in place: it is the same on every run and the evaluator runs many
  // (EvaluatorOptions::pack_weights).
  bool PacksWeight(size_t i) const {
    return pack_weights_ && cache_ != nullptr && i < 64 && ((constant_inputs_ >> i) & 1) != 0;
  }

 private:
  const ir::Node& node_;
  int64_t opset_;
  absl::Span<const RuntimeValue* const> inputs_;
  const AttributeScope* attr_scope_;
  SubgraphRunner* runner_;
  absl::InlinedVector<RuntimeValue, 2> outputs_;  // no allocation for the usual one or two outputs
  uint64_t dying_inputs_;
  const ChannelEpilogue* epilogue_ = nullptr;
  bool epilogue_applied_ = false;
  KernelCache* cache_ = nullptr;
  uint64_t constant_inputs_ = 0;
  bool pack_weights_ = false;
};

class KernelRegistry {
 public:
  // The registry with every kernel this library has (built once).
  static const KernelRegistry& Global();

  void Register(std::string_view domain, std::string_view op_type, int since_version, KernelFn fn);
  // The kernel with the largest since_version <= opset, or null.
  const KernelFn* Find(std::string_view domain, std::string_view op_type, int64_t opset) const;
  // Whether any version of the operator has a kernel.
  bool HasOp(std::string_view domain, std::string_view op_type) const;
  std::vector<std::string> OpNames() const;

 private:
  struct Entry {
    int since_version;
    KernelFn fn;
  };
  absl::flat_hash_map<std::string, std::vector<Entry>> kernels_;  // "domain::op" -> sorted entries
};

// Epilogue builders for the evaluator's folding (a Conv's consumer chain): each reads the folded
// node's attributes and its inputs other than input 0 from `node_ctx`, appends its step to `e`, and
// returns false (changing nothing) when the node cannot be folded exactly.
// Inference BatchNormalization on `channels` float channels (normalization.cc).
absl::StatusOr<bool> AppendBatchNormEpilogue(const KernelContext& node_ctx, int64_t channels,
                                             ChannelEpilogue& e);
// Relu, Clip, LeakyRelu, HardSigmoid, HardSwish, Sigmoid or Tanh on float (elementwise.cc).
absl::StatusOr<bool> AppendActivationEpilogue(const KernelContext& node_ctx, ChannelEpilogue& e);

// A 2-D int4/uint4 weight as ONNX stores it, two a byte (the low nibble first), read in place
// (from a mapped model file) instead of unpacked to a byte each. Rows must start on a byte: an
// even number of columns.
struct PackedFourBitWeight {
  DataType dtype;  // kInt4 or kUint4
  int64_t rows, cols;
  const uint8_t* data;
};

// A MatMul whose B is DequantizeLinear of a constant weight, computed from the quantized bytes a
// few rows at a time, never the whole float weight (quantized_matmul.cc). `matmul_ctx` has input 0
// (A) only, `dequantize_ctx` the DequantizeLinear's inputs; with `packed`, the weight (input 0) is
// that instead and `dequantize_ctx` need not have it. True with the MatMul's output set; false
// (nothing done) for shapes, types or quantization layouts it does not take: the evaluator then
// runs both nodes.
absl::StatusOr<bool> ComputeQuantizedMatMul(KernelContext& matmul_ctx,
                                            const KernelContext& dequantize_ctx,
                                            const PackedFourBitWeight* packed = nullptr);

// A 1x1 Conv (stride 1, no padding, one group) and the 2-D depthwise Conv that alone reads its
// output (an inverted residual block's expansion and depthwise convolution) in one pass
// (conv_pool.cc): the expansion's output is computed band by band inside the depthwise kernel and
// never stored whole. Each context has its node's inputs (the depthwise one's input 0 is not read)
// and the epilogue folded into it, which must be one the kernels apply in registers. True with the
// depthwise Conv's output set in `depthwise_ctx`, its value as the two nodes would compute it;
// false (nothing done) for types, shapes and epilogues it does not take: the evaluator then runs
// the nodes one by one.
absl::StatusOr<bool> ComputePointwiseDepthwise(KernelContext& pointwise_ctx,
                                               KernelContext& depthwise_ctx);

// The inputs of a DequantizeLinear over only the rows a Gather (axis 0) takes from its constant
// quantized table, and the Gather's output shape (quantized_gather.cc): dequantizing them and
// reshaping gives the Gather's output, without the table in float. `gather_ctx` has input 1 (the
// indices), `dequantize_ctx` the DequantizeLinear's inputs (input 0 may be `packed` instead). None
// for what it does not take (another axis, indices out of range, blocks along axis 0): the
// evaluator then runs both nodes.
struct QuantizedGatherInputs {
  Tensor x, scale, zero;  // zero undefined when the DequantizeLinear has none
  std::vector<int64_t> output_dims;
};
absl::StatusOr<std::optional<QuantizedGatherInputs>> GatherQuantizedRows(
    const KernelContext& gather_ctx, const KernelContext& dequantize_ctx,
    const PackedFourBitWeight* packed = nullptr);

// Family registration functions (kernels/*.cc).
void RegisterElementwiseKernels(KernelRegistry& r);
void RegisterReductionKernels(KernelRegistry& r);
void RegisterLinalgKernels(KernelRegistry& r);
void RegisterConvPoolKernels(KernelRegistry& r);
void RegisterNormalizationKernels(KernelRegistry& r);
void RegisterShapeKernels(KernelRegistry& r);
void RegisterIndexingKernels(KernelRegistry& r);
void RegisterControlFlowKernels(KernelRegistry& r);
void RegisterSequenceKernels(KernelRegistry& r);
void RegisterMiscKernels(KernelRegistry& r);
void RegisterLossKernels(KernelRegistry& r);
void RegisterAttentionKernels(KernelRegistry& r);
void RegisterQuantizationKernels(KernelRegistry& r);
void RegisterImageKernels(KernelRegistry& r);
void RegisterRecurrentKernels(KernelRegistry& r);
void RegisterSignalKernels(KernelRegistry& r);
void RegisterMlKernels(KernelRegistry& r);
void RegisterRandomKernels(KernelRegistry& r);
// onnxruntime's com.microsoft operators (kernels/contrib/).
void RegisterContribKernels(KernelRegistry& r);

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_KERNEL_H_
