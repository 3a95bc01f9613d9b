// quantize-weights (lossy): stores the float32 weights of MatMul, Gemm and Gather as 8- or 4-bit
// integers with float scales (and zero points), read back by a DequantizeLinear in standard ONNX
// (opset 21: blocked scales and int4/uint4, which onnxruntime runs too). The graph still computes
// in float; only the weights lose precision.
//
// Arguments (`quantize-weights(bits=4,block=32)`):
//   bits=8|4           int8 / int4, or uint8 / uint4 with zero points (default 8)
//   block=0|N          0: one scale per output channel; N (>= 16, a power of 2): one per N weights
//                      along the reduction axis, the last block possibly short (default 0)
//   symmetric=1|0      1: signed, no zero point; 0: unsigned with zero points (default 1)
//   min_elements=N     smaller weights stay float (default 4096)
//   keep_ends=1|0      1: the first and last quantizable weights (embeddings, output heads: the
//   most
//                      sensitive) stay float (default 1)
//   exclude=P[:P...]   weights whose name matches a shell pattern (fnmatch) stay float
//
// A weight is quantized when it is a 2-D float32 initializer (not a graph input or output) whose
// every use is MatMul's B, Gemm's B or Gather's data (axis 0), all reducing along the same axis.
// Models below opset 21 are refused with a message naming convert(21).
#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "interpreter/tensor.h"
#include "ir/name_generator.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/graph_pass.h"
#include "passes/stored_weight.h"

namespace onnx_opt::passes {
namespace {

struct QuantizeOptions {
  int bits = 8;
  int64_t block = 0;
  bool symmetric = true;
  int64_t min_elements = 4096;
  bool keep_ends = true;
  std::vector<std::string> exclude;
};

// "key=value" arguments; nullopt for anything else (the registry reports invalid arguments).
std::optional<QuantizeOptions> ParseOptions(const std::vector<std::string>& args) {
  QuantizeOptions o;
  for (const std::string& arg : args) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) return std::nullopt;
    const std::string key = arg.substr(0, eq), value = arg.substr(eq + 1);
    int64_t n = 0;
    const bool number = absl::SimpleAtoi(value, &n);
    if (key == "bits" && number && (n == 8 || n == 4)) {
      o.bits = static_cast<int>(n);
    } else if (key == "block" && number && (n == 0 || (n >= 16 && (n & (n - 1)) == 0))) {
      o.block = n;
    } else if (key == "symmetric" && number && (n == 0 || n == 1)) {
      o.symmetric = n == 1;
    } else if (key == "min_elements" && number && n >= 0) {
      o.min_elements = n;
    } else if (key == "keep_ends" && number && (n == 0 || n == 1)) {
      o.keep_ends = n == 1;
    } else if (key == "exclude" && !value.empty()) {
      for (absl::string_view p : absl::StrSplit(value, ':')) o.exclude.emplace_back(p);
    } else {
      return std::nullopt;
    }
  }
  return o;
}

// The axis a weight's consumers reduce over (0 for MatMul's B [K, N]; Gemm's B by transB; a Gather
// table [V, H] is read by rows, so its blocks run along H), or nullopt when a use is anything else.
std::optional<int64_t> ReductionAxis(const ir::Value& w) {
  std::optional<int64_t> axis;
  for (const ir::Use& use : w.uses()) {
    if (use.is_graph_output() || !use.node->is_onnx_domain()) return std::nullopt;
    const ir::Node& n = *use.node;
    int64_t a;
    if (n.op_type() == "MatMul" && use.index == 1) {
      a = 0;
    } else if (n.op_type() == "Gemm" && use.index == 1) {
      a = n.GetInt("transB", 0) != 0 ? 1 : 0;
    } else if (n.op_type() == "Gather" && use.index == 0 && n.GetInt("axis", 0) == 0) {
      a = 1;
    } else {
      return std::nullopt;
    }
    if (axis && *axis != a) return std::nullopt;
    axis = a;
  }
  return axis;
}

struct Quantized {
  ir::Tensor values;  // int8/uint8/int4/uint4, W's dims
  ir::Tensor scale;   // float
  std::optional<ir::Tensor> zero_point;
  int64_t axis = 0;   // DequantizeLinear's
  int64_t block = 0;  // its block_size (0: per channel)
};

// Quantizes W [R, C] reducing along `reduction`: per channel (a scale per index of the other axis)
// or in blocks along `reduction`. Round half to even, as QuantizeLinear does.
Quantized Quantize(const ir::Tensor& w, int64_t reduction, const QuantizeOptions& o) {
  const int64_t dims[2] = {w.dims()[0], w.dims()[1]};
  const int64_t other = 1 - reduction;
  const int64_t block = o.block == 0 ? dims[reduction] : o.block;
  const int64_t blocks = (dims[reduction] + block - 1) / block;
  // The scale's dims: per channel [dims[other]]; blocked, W's dims with `blocks` on the reduction
  // axis.
  std::vector<int64_t> scale_dims;
  if (o.block == 0) {
    scale_dims = {dims[other]};
  } else {
    scale_dims = {dims[0], dims[1]};
    scale_dims[reduction] = blocks;
  }
  const ir::DataType qtype = o.bits == 8
                                 ? (o.symmetric ? ir::DataType::kInt8 : ir::DataType::kUint8)
                                 : (o.symmetric ? ir::DataType::kInt4 : ir::DataType::kUint4);
  const double qmax = o.symmetric ? (o.bits == 8 ? 127 : 7) : (o.bits == 8 ? 255 : 15);
  interpreter::Tensor q(qtype, {dims[0], dims[1]});
  interpreter::Tensor scale(ir::DataType::kFloat, scale_dims);
  interpreter::Tensor zero(qtype, scale_dims);
  int8_t* qs = q.mutable_data<int8_t>();  // one byte per element, packed by ToIr
  uint8_t* qu = q.mutable_data<uint8_t>();
  float* sv = scale.mutable_data<float>();
  uint8_t* zv = zero.mutable_data<uint8_t>();
  auto at = [&](int64_t c, int64_t r) {  // element c of the other axis, r of the reduction axis
    return reduction == 0 ? r * dims[1] + c : c * dims[1] + r;
  };
  for (int64_t c = 0; c < dims[other]; ++c) {
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t r0 = b * block, r1 = std::min(dims[reduction], r0 + block);
      double lo = 0, hi = 0;
      for (int64_t r = r0; r < r1; ++r) {
        const double v = w.at<float>(at(c, r));
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      double s = o.symmetric ? std::max(-lo, hi) / qmax : (hi - lo) / qmax;
      if (!(s > 0) || !std::isfinite(s)) s = 1;  // all zeros: any scale is exact
      const double z = o.symmetric ? 0 : std::clamp(std::nearbyint(-lo / s), 0.0, qmax);
      const int64_t si = o.block == 0 ? c : (reduction == 0 ? b * dims[1] + c : c * blocks + b);
      sv[si] = static_cast<float>(s);
      zv[si] = static_cast<uint8_t>(z);
      for (int64_t r = r0; r < r1; ++r) {
        const double v = std::nearbyint(w.at<float>(at(c, r)) / static_cast<float>(s)) + z;
        if (o.symmetric) {
          qs[at(c, r)] = static_cast<int8_t>(std::clamp(v, -qmax, qmax));
        } else {
          qu[at(c, r)] = static_cast<uint8_t>(std::clamp(v, 0.0, qmax));
        }
      }
    }
  }
  Quantized out{q.ToIr(), scale.ToIr(), std::nullopt, o.block == 0 ? other : reduction, o.block};
  if (!o.symmetric) out.zero_point = zero.ToIr();
  return out;
}

class QuantizeWeights final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "quantize-weights";
  explicit QuantizeWeights(QuantizeOptions options)
      : GraphPass(kName, rewrite::GraphScope::kMainGraphTree, /*min_opset=*/1),
        options_(std::move(options)) {}

  static std::unique_ptr<optimizer::Pass> Create(const std::vector<std::string>& args) {
    std::optional<QuantizeOptions> o = ParseOptions(args);
    if (!o) return nullptr;
    return std::make_unique<QuantizeWeights>(*std::move(o));
  }

  // Blocked 4-bit weights move each weight by up to half a step of 1/7 of its block's largest:
  // outputs land at a relative L2 error of ~0.1 per layer; 8 bits, ~0.01.
  std::optional<equivalence::LossyTolerance> lossy_tolerance() const override {
    if (options_.bits == 4)
      return equivalence::LossyTolerance{.max_rel_l2 = 0.25, .min_cosine = 0.97};
    return equivalence::LossyTolerance{.max_rel_l2 = 0.05, .min_cosine = 0.998};
  }

 protected:
  absl::StatusOr<int64_t> BeginRun(rewrite::GraphRun& run) override {
    if (run.opset < 21) {
      return absl::FailedPreconditionError(absl::StrCat(
          "quantize-weights writes DequantizeLinear-21 (blocked scales, 4-bit weights), but the "
          "model is at "
          "opset ",
          run.opset,
          " of ai.onnx: convert it first, e.g. --passes='convert(21),quantize-weights'"));
    }
    return 0;
  }

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun& run) override {
    rewrite::Rewriter rw(g, run.opset, run.names, rewrite::TouchedNodes::kIgnore);
    // The candidates in the order their first consumer runs.
    std::vector<std::pair<ir::Value*, int64_t>> candidates;
    std::vector<ir::Value*> seen;
    for (ir::Node* n : g.nodes()) {
      for (ir::Value* in : n->inputs()) {
        if (in == nullptr || !in->is_constant_initializer() || in->is_graph_output()) continue;
        if (std::find(seen.begin(), seen.end(), in) != seen.end()) continue;
        seen.push_back(in);
        const ir::Tensor& t = *in->initializer();
        if (t.data_type() != ir::DataType::kFloat || t.dims().size() != 2) continue;
        std::optional<int64_t> axis = ReductionAxis(*in);
        if (axis) candidates.emplace_back(in, *axis);
      }
    }
    if (options_.keep_ends && !candidates.empty()) {
      candidates.erase(candidates.begin());
      if (!candidates.empty()) candidates.pop_back();
    }
    int64_t quantized = 0;
    for (const auto& [w, axis] : candidates) {
      const ir::Tensor& t = *w->initializer();
      const std::optional<uint64_t> count = t.num_elements();
      if (!count || *count < static_cast<uint64_t>(options_.min_elements) ||
          t.raw_size() != *count * sizeof(float)) {
        continue;
      }
      if (Excluded(w->name())) continue;
      Quantized q = Quantize(t, axis, options_);
      t.ReleasePages();  // a weight mapped from a file is read once: its pages go before the next
                         // one's
      RETURN_IF_ERROR(Replace(rw, *w, std::move(q)));
      ++quantized;
    }
    return quantized;
  }

 private:
  bool Excluded(const std::string& name) const {
    for (const std::string& p : options_.exclude) {
      if (fnmatch(p.c_str(), name.c_str(), 0) == 0) return true;
    }
    return false;
  }

  // W becomes DequantizeLinear(values, scale[, zero point]) under W's own name.
  static absl::Status Replace(rewrite::Rewriter& rw, ir::Value& w, Quantized q) {
    ir::Graph& g = rw.graph();
    ir::NameGenerator& names = rw.names();
    // A weight that was external data stays there: the saver writes the quantized one to the side
    // file (at the location it finds for it) instead of inline.
    if (const ir::Tensor& old = *w.initializer(); old.storage() == ir::Tensor::Storage::kExternal) {
      q.values.set_storage(ir::Tensor::Storage::kExternal);
      for (const auto& [key, value] : old.external_data()) {
        if (key == "location") q.values.mutable_external_data().emplace_back(key, value);
      }
    }
    auto add = [&](ir::Tensor t, const std::string& suffix) {
      t.set_name(names.Fresh(w.name() + suffix));
      return g.AddInitializer(std::move(t));
    };
    std::vector<ir::Value*> inputs = {add(std::move(q.values), "_quantized"),
                                      add(std::move(q.scale), "_scale")};
    if (q.zero_point) inputs.push_back(add(std::move(*q.zero_point), "_zero_point"));
    auto node =
        ir::Node::Create("", "DequantizeLinear", inputs, {names.Fresh(w.name() + "_dequantized")});
    node->SetAttribute(ir::Attribute::Int("axis", q.axis));
    if (q.block > 0) node->SetAttribute(ir::Attribute::Int("block_size", q.block));
    return ComputeWeightWith(rw, w, std::move(node));
  }

  QuantizeOptions options_;
};

}  // namespace

REGISTER_PASS_WITH_ARGS(
    QuantizeWeights, QuantizeWeights::kName,
    "LOSSY: store MatMul/Gemm/Gather weights as int8 or int4 with scales, read by "
    "DequantizeLinear-21 (bits=8|4, block=0|N, symmetric=1|0, min_elements=N, keep_ends=1|0, "
    "exclude=PATTERN)");
}  // namespace onnx_opt::passes
