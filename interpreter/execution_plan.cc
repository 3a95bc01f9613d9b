#include "interpreter/execution_plan.h"

#include <functional>
#include <queue>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "ir/status_macros.h"

namespace onnx_opt::interpreter {
namespace {

// Values a subgraph (recursively) uses from outside itself.
void CollectCaptures(const ir::Graph& sub, std::vector<const ir::Value*>& out) {
  auto consider = [&](const ir::Value* v) {
    if (v != nullptr && v->graph() != nullptr && !v->graph()->IsWithin(&sub)) out.push_back(v);
  };
  for (const ir::Node* n : sub.nodes()) {
    for (const ir::Value* v : n->inputs()) consider(v);
    for (const ir::Graph* g : n->subgraphs()) {
      std::vector<const ir::Value*> inner;
      CollectCaptures(*g, inner);
      for (const ir::Value* v : inner) consider(v);
    }
  }
  for (const ir::Value* v : sub.outputs()) consider(v);
}

bool IsFoldableActivation(const ir::Node& n) {
  static const absl::flat_hash_set<std::string> kOps = {
      "Relu", "Clip", "LeakyRelu", "HardSigmoid", "HardSwish", "Sigmoid", "Tanh"};
  return n.is_onnx_domain() && kOps.contains(n.op_type());
}

// Whether `conv` is a 1x1 Conv and `next` a depthwise one as far as the graph tells without running
// it (weights that are initializers, a group given as a value), so that pairs the fused kernel
// would decline cost nothing per run.
bool IsPointwiseThenDepthwise(const ir::Node& conv, const ir::Node& next) {
  if (conv.num_inputs() < 2 || next.num_inputs() < 2) return false;
  const ir::Value *w1 = conv.input(1), *w2 = next.input(1);
  if (w1 == nullptr || w2 == nullptr || w1->initializer() == nullptr ||
      w2->initializer() == nullptr) {
    return false;
  }
  const std::vector<int64_t>& d1 = w1->initializer()->dims();
  const std::vector<int64_t>& d2 = w2->initializer()->dims();
  if (d1.size() != 4 || d2.size() != 4 || d1[2] != 1 || d1[3] != 1 || d2[1] != 1 || d1[0] != d2[0])
    return false;
  const ir::Attribute* group = next.FindAttribute("group");
  return group != nullptr && group->i == d2[0];
}

// Finds Conv -> [BatchNormalization] -> [activation] chains for the steps' `folded`.
void PlanFolding(const absl::flat_hash_set<const ir::Value*>& outputs, ExecutionPlan& plan) {
  const size_t n = plan.order.size();
  absl::flat_hash_map<const ir::Node*, size_t> pos;
  for (size_t k = 0; k < n; ++k) pos[plan.order[k]] = k;
  // The only consumer of v (as its input 0, in this graph), or null.
  auto sole_consumer = [&](const ir::Value* v) -> const ir::Node* {
    if (v == nullptr || outputs.contains(v) || v->uses().size() != 1) return nullptr;
    const ir::Use& u = v->uses()[0];
    if (u.is_graph_output() || u.index != 0 || !pos.contains(u.node)) return nullptr;
    return u.node;
  };
  // The folded node's other inputs must exist when the Conv runs (at position k).
  auto inputs_ready = [&](const ir::Node* f, size_t k) {
    for (size_t i = 1; i < f->num_inputs(); ++i) {
      const ir::Value* v = f->input(i);
      if (v == nullptr || v->producer() == nullptr) continue;
      auto it = pos.find(v->producer());
      if (it != pos.end() && it->second >= k) return false;
    }
    for (size_t o = 1; o < f->num_outputs(); ++o) {
      if (!f->output(o)->name().empty()) return false;  // statistics outputs wanted
    }
    return true;
  };
  for (size_t k = 0; k < n; ++k) {
    const ir::Node* conv = plan.order[k];
    if (!conv->is_onnx_domain() || conv->op_type() != "Conv" || conv->num_outputs() != 1) continue;
    const ir::Node* next = sole_consumer(conv->output(0));
    if (next != nullptr && next->is_onnx_domain() && next->op_type() == "BatchNormalization" &&
        inputs_ready(next, k)) {
      plan.steps[k].folded.push_back(pos[next]);
      next = sole_consumer(next->output(0));
    }
    if (next != nullptr && IsFoldableActivation(*next) && inputs_ready(next, k)) {
      plan.steps[k].folded.push_back(pos[next]);
    }
  }
  // 1x1 Conv -> [folded chain] -> depthwise Conv pairs (the kernel checks the rest).
  for (size_t k = 0; k < n; ++k) {
    const ir::Node* conv = plan.order[k];
    if (!conv->is_onnx_domain() || conv->op_type() != "Conv" || conv->num_outputs() != 1) continue;
    const std::vector<size_t>& folded = plan.steps[k].folded;
    const ir::Node* last = folded.empty() ? conv : plan.order[folded.back()];
    const ir::Node* next = sole_consumer(last->output(0));
    if (next == nullptr || !next->is_onnx_domain() || next->op_type() != "Conv" ||
        next->num_outputs() != 1 || !IsPointwiseThenDepthwise(*conv, *next) ||
        !inputs_ready(next, k)) {
      continue;
    }
    const size_t d = pos[next];
    bool ready = true;
    for (size_t f : plan.steps[d].folded) ready = ready && inputs_ready(plan.order[f], k);
    if (ready) plan.steps[k].fused_depthwise = static_cast<int64_t>(d);
  }
}

// Finds DequantizeLinear -> MatMul (as B) and DequantizeLinear -> Gather (as data) pairs for the
// steps' `dequantized_weight`: the DequantizeLinear reads only initializers of this graph (so it
// can run whenever its reader asks) and its output has no other use. The initializers' pages are
// let go after the reader instead.
void PlanDequantizedWeights(const absl::flat_hash_set<const ir::Value*>& outputs,
                            ExecutionPlan& plan) {
  const size_t n = plan.order.size();
  absl::flat_hash_map<const ir::Node*, size_t> pos;
  for (size_t k = 0; k < n; ++k) pos[plan.order[k]] = k;
  for (size_t k = 0; k < n; ++k) {
    const ir::Node* reader = plan.order[k];
    if (!reader->is_onnx_domain() || reader->num_inputs() != 2) continue;
    const bool is_matmul = reader->op_type() == "MatMul";
    if (!is_matmul && reader->op_type() != "Gather") continue;
    const ir::Value* b = reader->input(is_matmul ? 1 : 0);
    const ir::Value* other = reader->input(is_matmul ? 0 : 1);
    if (b == nullptr || b == other || outputs.contains(b) || b->uses().size() != 1) continue;
    const ir::Node* dq = b->producer();
    if (dq == nullptr || !dq->is_onnx_domain() || dq->op_type() != "DequantizeLinear" ||
        dq->num_outputs() != 1)
      continue;
    auto it = pos.find(dq);
    if (it == pos.end()) continue;
    ExecutionPlan::Step& dq_step = plan.steps[it->second];
    bool constants = true;
    for (const ValueRef& r : dq_step.inputs) {
      constants =
          constants && (r.kind == ValueRef::Kind::kConstant || r.kind == ValueRef::Kind::kOmitted);
    }
    if (!constants || dq_step.deferred) continue;
    dq_step.deferred = true;
    plan.steps[k].dequantized_weight = static_cast<int64_t>(it->second);
    std::vector<const ir::Value*>& release = plan.steps[k].release_pages_after;
    release.insert(release.end(), dq_step.release_pages_after.begin(),
                   dq_step.release_pages_after.end());
    dq_step.release_pages_after.clear();
  }
}

// Node indices of g in a topological order (smallest position first among ready nodes), and each
// node's captures; an error for a cycle.
absl::StatusOr<std::vector<size_t>> TopologicalOrder(
    const ir::Graph& g, const std::vector<const ir::Node*>& nodes,
    std::vector<std::vector<const ir::Value*>>& caps) {
  const size_t n = nodes.size();
  absl::flat_hash_map<const ir::Node*, size_t> index;
  for (size_t i = 0; i < n; ++i) index[nodes[i]] = i;
  std::vector<std::vector<size_t>> users(n);
  std::vector<int> pending(n, 0);
  caps.assign(n, {});
  for (size_t i = 0; i < n; ++i) {
    for (const ir::Graph* sg : nodes[i]->subgraphs()) CollectCaptures(*sg, caps[i]);
    auto dep = [&](const ir::Value* v) {
      if (v == nullptr || v->producer() == nullptr || v->graph() != &g) return;
      auto it = index.find(v->producer());
      if (it == index.end() || it->second == i) return;
      users[it->second].push_back(i);
      ++pending[i];
    };
    for (const ir::Value* v : nodes[i]->inputs()) dep(v);
    for (const ir::Value* v : caps[i]) dep(v);
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  std::vector<size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t u : users[i]) {
      if (--pending[u] == 0) ready.push(u);
    }
  }
  if (order.size() != n)
    return absl::InvalidArgumentError(absl::StrCat("graph '", g.name(), "' has a cycle"));
  return order;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ExecutionPlan>> MakeExecutionPlan(const ir::Graph& g) {
  auto plan = std::make_unique<ExecutionPlan>();
  std::vector<const ir::Node*> nodes(g.nodes().begin(), g.nodes().end());
  std::vector<std::vector<const ir::Value*>> caps;
  ASSIGN_OR_RETURN(std::vector<size_t> order, TopologicalOrder(g, nodes, caps));
  const size_t n = nodes.size();
  plan->order.resize(n);
  for (size_t k = 0; k < n; ++k) plan->order[k] = nodes[order[k]];

  // Slots: graph inputs first, then named node outputs in run order.
  auto add_slot = [&](const ir::Value* v) {
    auto [it, added] = plan->slot_of.try_emplace(v, static_cast<uint32_t>(plan->num_slots));
    if (added) ++plan->num_slots;
    return it->second;
  };
  for (const ir::Value* v : g.inputs()) plan->input_slots.push_back(add_slot(v));
  plan->steps.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const ir::Node* node = plan->order[k];
    for (size_t o = 0; o < node->num_outputs(); ++o) {
      const ir::Value* v = node->output(o);
      plan->steps[k].output_slots.push_back(
          v == nullptr || v->name().empty() ? -1 : int64_t{add_slot(v)});
    }
  }
  auto ref = [&](const ir::Value* v) {
    ValueRef r;
    r.value = v;
    if (v == nullptr || v->name().empty()) return r;
    auto it = plan->slot_of.find(v);
    if (it != plan->slot_of.end()) {
      r.kind = ValueRef::Kind::kSlot;
      r.slot = it->second;
    } else if (v->graph() == &g && v->initializer() != nullptr) {
      r.kind = ValueRef::Kind::kConstant;
    } else {
      r.kind = ValueRef::Kind::kOuter;
    }
    return r;
  };
  for (const ir::Value* v : g.outputs()) plan->outputs.push_back(ref(v));

  // Last use of each value defined in this graph; outputs nobody uses die right away.
  absl::flat_hash_map<const ir::Value*, size_t> last;
  for (size_t k = 0; k < n; ++k) {
    const ir::Node* node = plan->order[k];
    for (const ir::Value* v : node->inputs()) {
      if (v != nullptr && v->graph() == &g) last[v] = k;
    }
    for (const ir::Value* v : caps[order[k]]) {
      if (v->graph() == &g) last[v] = k;
    }
    for (size_t o = 0; o < node->num_outputs(); ++o) {
      const ir::Value* v = node->output(o);
      if (!last.contains(v)) last[v] = k;
    }
  }
  const absl::flat_hash_set<const ir::Value*> outputs(g.outputs().begin(), g.outputs().end());
  for (const auto& [v, k] : last) {
    if (outputs.contains(v)) continue;
    auto slot = plan->slot_of.find(v);
    if (slot != plan->slot_of.end()) plan->steps[k].free_after.push_back(slot->second);
    if (v->initializer() != nullptr) plan->steps[k].release_pages_after.push_back(v);
  }
  for (size_t k = 0; k < n; ++k) {
    const ir::Node* node = plan->order[k];
    ExecutionPlan::Step& step = plan->steps[k];
    for (size_t i = 0; i < node->num_inputs(); ++i) {
      const ir::Value* v = node->input(i);
      step.inputs.push_back(ref(v));
      // An input dies here when it is local, not a graph output and last used here. Initializers
      // are shared by every run (and the model): never written in place.
      if (i >= 64 || v == nullptr || v->graph() != &g || outputs.contains(v) ||
          v->initializer() != nullptr)
        continue;
      auto it = last.find(v);
      if (it != last.end() && it->second == k) step.dying_inputs |= uint64_t{1} << i;
    }
  }
  PlanFolding(outputs, *plan);
  PlanDequantizedWeights(outputs, *plan);
  return plan;
}

}  // namespace onnx_opt::interpreter
