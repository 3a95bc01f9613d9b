// quantize-weights (lossy): stores the float32 or float16 weights of MatMul, Gemm and Gather as 8-
// or 4-bit integers with float scales (and zero points), read back by a DequantizeLinear in
// standard ONNX (opset 21: blocked scales and int4/uint4, which onnxruntime runs too). The graph
// still computes in float; only the weights lose precision.
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
// A weight is quantized when it is a 2-D float32 or float16 initializer (not a graph input or
// output) whose every use is MatMul's B, Gemm's B or Gather's data (axis 0), all reducing along the
// same axis. Models below opset 21 are refused with a message naming convert(21). A float16 weight
// gets float16 scales, so its DequantizeLinear computes float16 as the weight did.
#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "interpreter/tensor.h"
#include "ir/name_generator.h"
#include "ir/numeric/float16.h"
#include "ir/spill_file.h"
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

// Element i of a float32 or float16 weight.
float WeightAt(const ir::Tensor& w, size_t i) {
  return w.data_type() == ir::DataType::kFloat16 ? ir::HalfToFloat(w.at<uint16_t>(i))
                                                 : w.at<float>(i);
}

// Quantizes W [R, C] (float32 or float16) reducing along `reduction`: per channel (a scale per
// index of the other axis) or in blocks along `reduction`. Round half to even, as QuantizeLinear
// does. The scales have W's element type (DequantizeLinear's output type is its scale's), so a
// float16 scale is rounded to float16 first and the weights are quantized by the rounded one. W is
// read row by row (a MatMul's B [K, N] a block of rows at a time with every column's range kept),
// never down a column: a mapped weight streams from the file once.
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
  const ir::DataType stype = w.data_type();
  const double qmax = o.symmetric ? (o.bits == 8 ? 127 : 7) : (o.bits == 8 ? 255 : 15);
  interpreter::Tensor q(qtype, {dims[0], dims[1]});
  interpreter::Tensor scale(stype, scale_dims);
  interpreter::Tensor zero(qtype, scale_dims);
  int8_t* qs = q.mutable_data<int8_t>();  // one byte per element, packed by ToIr
  uint8_t* qu = q.mutable_data<uint8_t>();
  uint8_t* zv = zero.mutable_data<uint8_t>();
  auto at = [&](int64_t c, int64_t r) {  // element c of the other axis, r of the reduction axis
    return reduction == 0 ? r * dims[1] + c : c * dims[1] + r;
  };
  // The scale (as stored, and as the weights are divided by) and zero point of a range [lo, hi].
  auto scale_of = [&](double lo, double hi, int64_t si) -> std::pair<float, double> {
    double s = o.symmetric ? std::max(-lo, hi) / qmax : (hi - lo) / qmax;
    float fs = static_cast<float>(s);
    if (stype == ir::DataType::kFloat16) {
      const uint16_t h = ir::FloatToHalf(fs);
      fs = ir::HalfToFloat(h);
    }
    // All zeros (or a range below float16's least step): any scale is as good.
    if (!(fs > 0) || !std::isfinite(fs)) fs = 1;
    if (stype == ir::DataType::kFloat16) {
      scale.mutable_data<uint16_t>()[si] = ir::FloatToHalf(fs);
    } else {
      scale.mutable_data<float>()[si] = fs;
    }
    const double z = o.symmetric ? 0 : std::clamp(std::nearbyint(-lo / fs), 0.0, qmax);
    zv[si] = static_cast<uint8_t>(z);
    return {fs, z};
  };
  auto put = [&](int64_t i, float v, float s, double z) {
    const double x = std::nearbyint(v / s) + z;
    if (o.symmetric) {
      qs[i] = static_cast<int8_t>(std::clamp(x, -qmax, qmax));
    } else {
      qu[i] = static_cast<uint8_t>(std::clamp(x, 0.0, qmax));
    }
  };
  auto scale_index = [&](int64_t c, int64_t b) {
    return o.block == 0 ? c : (reduction == 0 ? b * dims[1] + c : c * blocks + b);
  };
  if (reduction == 0) {
    // [K, N] along K: a block of rows at a time, each column's range over it, then its values.
    const int64_t n = dims[1];
    std::vector<double> lo(n), hi(n), z(n);
    std::vector<float> s(n);
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t r0 = b * block, r1 = std::min(dims[0], r0 + block);
      std::fill(lo.begin(), lo.end(), 0.0);
      std::fill(hi.begin(), hi.end(), 0.0);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = 0; c < n; ++c) {
          const double v = WeightAt(w, r * n + c);
          lo[c] = std::min(lo[c], v);
          hi[c] = std::max(hi[c], v);
        }
      }
      for (int64_t c = 0; c < n; ++c)
        std::tie(s[c], z[c]) = scale_of(lo[c], hi[c], scale_index(c, b));
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = 0; c < n; ++c) put(r * n + c, WeightAt(w, r * n + c), s[c], z[c]);
      }
    }
  } else {
    for (int64_t c = 0; c < dims[other]; ++c) {
      for (int64_t b = 0; b < blocks; ++b) {
        const int64_t r0 = b * block, r1 = std::min(dims[reduction], r0 + block);
        double lo = 0, hi = 0;
        for (int64_t r = r0; r < r1; ++r) {
          const double v = WeightAt(w, at(c, r));
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
        const auto [s, z] = scale_of(lo, hi, scale_index(c, b));
        for (int64_t r = r0; r < r1; ++r) put(at(c, r), WeightAt(w, at(c, r)), s, z);
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
        if ((t.data_type() != ir::DataType::kFloat && t.data_type() != ir::DataType::kFloat16) ||
            t.dims().size() != 2) {
          continue;
        }
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
          t.raw_size() != ir::RawByteSize(t.data_type(), *count)) {
        continue;
      }
      if (Excluded(w->name())) continue;
      Quantized q = Quantize(t, axis, options_);
      t.ReleasePages();  // a weight mapped from a file is read once: its pages go before the next
                         // one's
      // A weight mapped from a file gives file-backed quantized bytes where the tool allows: all
      // of a 7B model's (3.8 GB at 4 bits) would otherwise stay in memory until the save.
      if (t.storage() == ir::Tensor::Storage::kExternal &&
          !run.ctx.options().spill_directory.empty()) {
        if (spill_ == nullptr) {
          ASSIGN_OR_RETURN(spill_, ir::SpillFile::Create(run.ctx.options().spill_directory));
        }
        RETURN_IF_ERROR(Spill(*spill_, q.values));
        RETURN_IF_ERROR(Spill(*spill_, q.scale));
        if (q.zero_point) RETURN_IF_ERROR(Spill(*spill_, *q.zero_point));
      }
      RETURN_IF_ERROR(Replace(rw, *w, std::move(q)));
      ++quantized;
    }
    spill_.reset();  // the tensors written keep it open
    return quantized;
  }

 private:
  // `t`'s bytes moved to `file`, `t` a view of them there.
  static absl::Status Spill(ir::SpillFile& file, ir::Tensor& t) {
    const size_t size = t.raw_size();
    ASSIGN_OR_RETURN(std::shared_ptr<const ir::Buffer> bytes, file.Write(t.raw_view()));
    t.SetRawView(std::move(bytes), 0, size);
    return absl::OkStatus();
  }

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
  std::shared_ptr<ir::SpillFile> spill_;  // during a run that spills
};

}  // namespace

REGISTER_PASS_WITH_ARGS(
    QuantizeWeights, QuantizeWeights::kName,
    "LOSSY: store MatMul/Gemm/Gather weights as int8 or int4 with scales, read by "
    "DequantizeLinear-21 (bits=8|4, block=0|N, symmetric=1|0, min_elements=N, keep_ends=1|0, "
    "exclude=PATTERN)");
}  // namespace onnx_opt::passes
