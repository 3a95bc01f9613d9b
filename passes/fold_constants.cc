// fold-constants: evaluates with the interpreter every deterministic node whose inputs are all
// constant and replaces its outputs by initializers; turns Constant nodes into initializers; folds
// Shape and Size of values whose shape is static. A fold whose outputs are larger than the size
// limit and larger than its inputs is refused, so folding never blows a model up
// (Expand/Tile/ConstantOfShape of big shapes stay nodes), and a fold that keeps its result next to
// inputs other nodes still use takes from the run's growth budget (PassOptions::fold_growth_limit,
// 0 by default). Initializers that are also graph inputs are defaults a caller may override: not
// constants, unless PassOptions::fold_overridable_initializers, which also drops them from the
// inputs.
#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "ir/constant_value.h"
#include "ir/status_macros.h"
#include "optimizer/model_stats.h"
#include "optimizer/pass_registry.h"
#include "passes/node_key.h"
#include "passes/op_traits.h"
#include "passes/rewrite/graph_pass.h"
#include "passes/rewrite/rewriter.h"
#include "schema/nondeterministic.h"
#include "schema/shape_fold.h"

namespace onnx_opt::passes {
namespace {

using interpreter::RuntimeValue;

// Replaces every use of `out` by a new initializer of `rw`'s graph holding `tensor`, and returns
// it. The initializer takes over the name (graph outputs depend on it); `out` keeps it too until
// its node is erased at the end of the walk (renaming it would mean collecting every name in the
// model).
ir::Value* ReplaceWithInitializer(rewrite::Rewriter& rw, ir::Value* out, ir::Tensor tensor) {
  ir::Graph& g = rw.graph();
  tensor.set_name(out->name());
  tensor.set_storage(ir::Tensor::Storage::kRaw);
  ir::Value* init = g.AddInitializer(std::move(tensor));
  if (out->in_value_info()) g.AddValueInfo(init);
  init->set_doc_string(out->doc_string());
  rw.ReplaceAllUsesWith(out, init);
  return init;
}

// Function bodies are left alone: their nodes follow the function's own opset imports and may take
// attributes from the caller.
class ConstantFolding final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "fold-constants";
  ConstantFolding() : GraphPass(kName, rewrite::GraphScope::kMainGraphTree) {}

  absl::StatusOr<int64_t> BeginRun(rewrite::GraphRun& run) override {
    evaluator_.emplace(run.model);
    if (!run.ctx.options().fold_overridable_initializers) return 0;
    rewrite::Rewriter rw(run.model.graph(), run.opset, run.names, rewrite::TouchedNodes::kIgnore);
    return FreezeInputDefaults(rw);
  }
  void EndRun() override { evaluator_.reset(); }

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun& run) override {
    rewrite::Rewriter rw(g, run.opset, run.names, rewrite::TouchedNodes::kIgnore);
    int64_t folds = 0;
    // Nodes computing the same thing from the same constants (exporters repeat shape arithmetic,
    // say) are evaluated once: later ones take the first one's initializers. Folded nodes stay
    // in the graph, without uses, until the walk ends, so that the memo can compare with them.
    absl::flat_hash_map<size_t, std::vector<FoldedNode>> memo;
    std::vector<ir::Node*> folded_nodes;
    for (ir::Node* n : g.nodes()) {
      if (!n->is_onnx_domain() || schema::IsNondeterministic(*n) || !n->subgraphs().empty())
        continue;
      std::optional<size_t> hash;
      if (n->op_type() != "Constant" && HasOnlyConstantInputs(*n)) hash = NodeHash(*n);
      if (hash.has_value() && TakeEarlierFold(rw, *n, memo[*hash])) {
        folded_nodes.push_back(n);
        ++folds;
        continue;
      }
      std::optional<std::vector<ir::Tensor>> outputs =
          Evaluate(*n, run.opset, *evaluator_, run.ctx);
      if (!outputs.has_value()) continue;
      FoldedNode record{n, std::vector<ir::Value*>(n->num_outputs(), nullptr)};
      for (size_t i = 0; i < n->num_outputs(); ++i) {
        if (!n->output(i)->is_omitted()) {
          record.initializers[i] =
              ReplaceWithInitializer(rw, n->output(i), std::move((*outputs)[i]));
        }
      }
      if (hash.has_value()) memo[*hash].push_back(std::move(record));
      folded_nodes.push_back(n);
      ++folds;
    }
    for (ir::Node* n : folded_nodes) {
      RETURN_IF_ERROR(rw.EraseNode(*n));
    }
    return folds;
  }

 private:
  std::optional<interpreter::Evaluator> evaluator_;  // from BeginRun to EndRun

  // A node already folded, with the initializers that took over its outputs.
  struct FoldedNode {
    ir::Node* node;
    std::vector<ir::Value*> initializers;  // null for omitted outputs
  };

  static bool HasOnlyConstantInputs(const ir::Node& n) {
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      if (n.has_input(i) && ir::GetConstantTensor(n.input(i)) == nullptr) return false;
    }
    return true;
  }

  // Gives `n`'s uses the initializers of an earlier fold of the same computation, if there is one.
  // A graph output keeps its own name, so such nodes are folded afresh.
  static bool TakeEarlierFold(rewrite::Rewriter& rw, ir::Node& n,
                              const std::vector<FoldedNode>& candidates) {
    for (size_t i = 0; i < n.num_outputs(); ++i) {
      if (n.output(i)->is_graph_output()) return false;
    }
    for (const FoldedNode& earlier : candidates) {
      if (!ComputeSame(*earlier.node, n)) continue;
      for (size_t i = 0; i < n.num_outputs(); ++i) {
        if (!n.output(i)->has_uses()) continue;
        if (earlier.initializers[i] == nullptr)
          return false;  // cannot happen: same outputs omitted
        rw.ReplaceAllUsesWith(n.output(i), earlier.initializers[i]);
      }
      return true;
    }
    return false;
  }

  // Graph inputs with an initializer become plain constants (only when the user asked for it).
  static int64_t FreezeInputDefaults(rewrite::Rewriter& rw) {
    std::vector<ir::Value*> frozen;
    for (ir::Value* v : rw.graph().inputs()) {
      if (v->initializer() != nullptr) frozen.push_back(v);
    }
    int64_t removed = 0;
    for (ir::Value* v : frozen) removed += rw.RemoveGraphInput(v).ok() ? 1 : 0;
    return removed;
  }

  // The node's outputs as tensors, or nullopt when it cannot or should not be folded.
  static std::optional<std::vector<ir::Tensor>> Evaluate(const ir::Node& n, int64_t opset,
                                                         interpreter::Evaluator& evaluator,
                                                         optimizer::PassContext& ctx) {
    if (n.op_type() == "Shape" || n.op_type() == "Size") {
      // Shape/Size of a value whose shape is static: the answer without running anything.
      if (!n.has_input(0)) return std::nullopt;
      std::optional<ir::Tensor> t = schema::FoldShapeOrSize(n, n.input(0)->type(), opset);
      if (!t.has_value()) return std::nullopt;
      std::vector<ir::Tensor> out;
      out.push_back(std::move(*t));
      return out;
    }
    // Most nodes have a computed input: find out before allocating anything.
    if (!HasOnlyConstantInputs(n)) return std::nullopt;
    std::vector<RuntimeValue> inputs(n.num_inputs());
    std::vector<const RuntimeValue*> input_ptrs(n.num_inputs(), nullptr);
    int64_t input_bytes = 0;
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      if (!n.has_input(i)) continue;
      const ir::Tensor* t = ir::GetConstantTensor(n.input(i));
      if (t == nullptr) return std::nullopt;
      absl::StatusOr<interpreter::Tensor> rt = interpreter::Tensor::FromIr(*t);
      if (!rt.ok()) return std::nullopt;
      input_bytes += optimizer::TensorBytes(*t);
      inputs[i] = RuntimeValue(std::move(*rt));
      input_ptrs[i] = &inputs[i];
    }
    absl::StatusOr<std::vector<RuntimeValue>> results = evaluator.RunNode(n, input_ptrs);
    // Anything the interpreter cannot do (or a node that would fail at run time) stays as it is.
    if (!results.ok() || results->size() < n.num_outputs()) return std::nullopt;
    std::vector<ir::Tensor> out;
    int64_t output_bytes = 0;
    for (size_t i = 0; i < n.num_outputs(); ++i) {
      if (n.output(i)->is_omitted()) {
        out.emplace_back();
        continue;
      }
      if (!(*results)[i].is_tensor()) return std::nullopt;
      ir::Tensor t = (*results)[i].tensor().ToIr();
      output_bytes += optimizer::TensorBytes(t);
      out.push_back(std::move(t));
    }
    // A Constant node is always worth turning into an initializer (same bytes, one node less).
    if (n.op_type() != "Constant") {
      if (output_bytes > ctx.options().fold_size_limit && output_bytes > input_bytes)
        return std::nullopt;
      // A result kept next to inputs that stay (other nodes use them) copies their data: what the
      // model gains beyond the inputs that die with the node, up to the bytes that stay. Growth
      // from expanding small inputs (Range, ConstantOfShape) is the size limit's business.
      const int64_t freed = BytesFreedByFolding(n);
      const int64_t copied = std::min(output_bytes - freed, input_bytes - freed);
      if (copied > optimizer::kSmallFoldBytes && !ctx.TakeFoldGrowth(copied)) return std::nullopt;
    }
    return out;
  }

  // Bytes of the constant inputs that nothing but `n` uses (and that are neither graph inputs nor
  // outputs): folding `n` lets dce drop them.
  static int64_t BytesFreedByFolding(const ir::Node& n) {
    int64_t freed = 0;
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      if (!n.has_input(i)) continue;
      const ir::Value* v = n.input(i);
      bool first = true;  // an input given twice is freed once
      for (size_t j = 0; j < i; ++j) first = first && n.input(j) != v;
      if (!first || v->is_graph_input() || v->is_graph_output()) continue;
      const bool only_here = std::all_of(v->uses().begin(), v->uses().end(), [&](const ir::Use& u) {
        return !u.is_graph_output() && u.node == &n;
      });
      const ir::Tensor* t = ir::GetConstantTensor(v);
      if (only_here && t != nullptr) freed += optimizer::TensorBytes(*t);
    }
    return freed;
  }
};

}  // namespace

REGISTER_PASS(ConstantFolding, ConstantFolding::kName,
              "evaluate nodes whose inputs are all constant");

}  // namespace onnx_opt::passes
