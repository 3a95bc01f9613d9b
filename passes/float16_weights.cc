// float16-weights (lossy): stores large float32 constant initializers as float16 and inserts a Cast
// back to float32 where they are used, halving their bytes. The graph still computes in float32;
// only the weights lose precision (about 3 decimal digits), so onnx-opt runs this pass only when
// asked, last, and always verifies the result: by each output's relative L2 error and cosine
// similarity (the lossy tolerance it registers with), or element by element when the user says so.
//
// Left as they are: tensors under kMinElements (the Cast would cost more than it saves), tensors
// with a finite value beyond float16's range (65504), graph inputs with defaults and graph outputs
// (they are the model's interface), and models without an ai.onnx opset import (no Cast to use).
// Constant folding undoes this pass (it folds the Cast), which is why it must run last.
#include <cmath>
#include <cstring>

#include "ir/name_generator.h"
#include "ir/numeric/float16.h"
#include "ir/status_macros.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/graph_pass.h"
#include "passes/stored_weight.h"

namespace onnx_opt::passes {
namespace {

constexpr uint64_t kMinElements = 128;
constexpr float kHalfMax = 65504.0f;

// The float16 copy of `t`, or nullopt if some finite value would overflow.
std::optional<ir::Tensor> ToHalf(const ir::Tensor& t) {
  const size_t n = t.raw_size() / sizeof(float);
  ir::Tensor half(ir::DataType::kFloat16, t.dims());
  char* bytes = half.AllocateRaw(n * sizeof(uint16_t));
  for (size_t i = 0; i < n; ++i) {
    const float f = t.at<float>(i);
    if (std::isfinite(f) && std::fabs(f) > kHalfMax) return std::nullopt;
    const uint16_t h = ir::FloatToHalf(f);
    std::memcpy(bytes + i * sizeof(uint16_t), &h, sizeof(h));
  }
  return half;
}

// The Cast it inserts is an ai.onnx op: models without ai.onnx (opset 0) are left alone.
class Float16Weights final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "float16-weights";
  Float16Weights() : GraphPass(kName, rewrite::GraphScope::kMainGraphTree, /*min_opset=*/1) {}

  // float16 keeps 11 significant bits: a weight moves by at most 2^-12 of itself, and an output by
  // a relative L2 error of that order (~1e-4 on the CNNs of the tests), well inside these bounds.
  std::optional<equivalence::LossyTolerance> lossy_tolerance() const override {
    return equivalence::LossyTolerance{.max_rel_l2 = 1e-2, .min_cosine = 0.9999};
  }

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun& run) override {
    ir::NameGenerator& names = run.names;
    rewrite::Rewriter rw(g, run.opset, names, rewrite::TouchedNodes::kIgnore);
    int64_t converted = 0;
    const std::vector<ir::Value*> inits = g.initializers();
    for (ir::Value* v : inits) {
      if (!v->is_constant_initializer() || v->is_graph_output() || !v->has_uses()) continue;
      const ir::Tensor& t = *v->initializer();
      if (t.data_type() != ir::DataType::kFloat) continue;
      const std::optional<uint64_t> count = t.num_elements();
      if (!count || *count < kMinElements || t.raw_size() != *count * sizeof(float)) continue;
      std::optional<ir::Tensor> half = ToHalf(t);
      if (!half) continue;

      half->set_name(names.Fresh(v->name() + "_float16"));
      ir::Value* stored = g.AddInitializer(std::move(*half));
      auto cast = ir::Node::Create("", "Cast", {stored}, {names.Fresh(v->name() + "_float32")});
      cast->SetAttribute(ir::Attribute::Int("to", static_cast<int64_t>(ir::DataType::kFloat)));
      RETURN_IF_ERROR(ComputeWeightWith(rw, *v, std::move(cast)));
      ++converted;
    }
    return converted;
  }
};

}  // namespace

REGISTER_PASS(
    Float16Weights, Float16Weights::kName,
    "LOSSY: store float32 weights of 128+ elements as float16 with a Cast (run last, verify)");

}  // namespace onnx_opt::passes
