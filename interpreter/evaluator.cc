#include "interpreter/evaluator.h"

#include <chrono>

#include <queue>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "interpreter/status_macros.h"
#include "interpreter/tensor_limit.h"
#include "ir/function.h"
#include "ir/opset_import.h"

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

// How to run one graph: node order and which values die after each node.
struct Plan {
  std::vector<const ir::Node*> order;
  std::vector<std::vector<const ir::Value*>> free_after;
  std::vector<uint64_t> dying_inputs;  // per node in order: input slots whose value dies there
  std::vector<std::vector<const ir::Value*>> captures;  // per node in order
  // Per node in order: its kernel and opset version, found on the first run (a graph always runs
  // under the same opset imports) so later runs skip the registry and function lookups.
  struct Kernel {
    const KernelFn* fn = nullptr;
    int64_t version = 0;
  };
  std::vector<Kernel> kernels;
  // Per node in order: for a Conv, the positions of the BatchNormalization and/or activation after it
  // that it may apply as an epilogue (each link's value has no other use), in chain order.
  std::vector<std::vector<size_t>> folded;
  bool constants_loaded = false;  // the graph's initializers are in the evaluator's cache
};

bool IsFoldableActivation(const ir::Node& n) {
  static const absl::flat_hash_set<std::string> kOps = {"Relu", "Clip", "LeakyRelu", "HardSigmoid",
                                                        "HardSwish", "Sigmoid", "Tanh"};
  return n.is_onnx_domain() && kOps.contains(n.op_type());
}

// Finds Conv -> [BatchNormalization] -> [activation] chains for the plan's `folded`.
void PlanFolding(const ir::Graph& g, const absl::flat_hash_set<const ir::Value*>& outputs, Plan& plan) {
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
  plan.folded.assign(n, {});
  for (size_t k = 0; k < n; ++k) {
    const ir::Node* conv = plan.order[k];
    if (!conv->is_onnx_domain() || conv->op_type() != "Conv" || conv->num_outputs() != 1) continue;
    const ir::Node* next = sole_consumer(conv->output(0));
    if (next != nullptr && next->is_onnx_domain() && next->op_type() == "BatchNormalization" &&
        inputs_ready(next, k)) {
      plan.folded[k].push_back(pos[next]);
      next = sole_consumer(next->output(0));
    }
    if (next != nullptr && IsFoldableActivation(*next) && inputs_ready(next, k)) plan.folded[k].push_back(pos[next]);
  }
}

absl::StatusOr<std::unique_ptr<Plan>> MakePlan(const ir::Graph& g) {
  auto plan = std::make_unique<Plan>();
  std::vector<const ir::Node*> nodes;
  absl::flat_hash_map<const ir::Node*, size_t> index;
  for (const ir::Node* n : g.nodes()) {
    index[n] = nodes.size();
    nodes.push_back(n);
  }
  const size_t n = nodes.size();
  std::vector<std::vector<const ir::Value*>> caps(n);
  std::vector<std::vector<size_t>> users(n);
  std::vector<int> pending(n, 0);
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
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t u : users[i]) {
      if (--pending[u] == 0) ready.push(u);
    }
  }
  if (order.size() != n) {
    return absl::InvalidArgumentError(absl::StrCat("graph '", g.name(), "' has a cycle"));
  }
  // Last use of each value defined in this graph.
  absl::flat_hash_map<const ir::Value*, size_t> last;
  absl::flat_hash_set<const ir::Value*> outputs(g.outputs().begin(), g.outputs().end());
  for (size_t k = 0; k < n; ++k) {
    const size_t i = order[k];
    for (const ir::Value* v : nodes[i]->inputs()) {
      if (v != nullptr && v->graph() == &g) last[v] = k;
    }
    for (const ir::Value* v : caps[i]) {
      if (v->graph() == &g) last[v] = k;
    }
    // Outputs nobody uses die right away.
    for (size_t o = 0; o < nodes[i]->num_outputs(); ++o) {
      const ir::Value* v = nodes[i]->output(o);
      if (!last.contains(v)) last[v] = k;
    }
  }
  plan->order.resize(n);
  plan->free_after.resize(n);
  plan->captures.resize(n);
  for (size_t k = 0; k < n; ++k) {
    plan->order[k] = nodes[order[k]];
    plan->captures[k] = std::move(caps[order[k]]);
  }
  for (const auto& [v, k] : last) {
    if (!outputs.contains(v)) plan->free_after[k].push_back(v);
  }
  // An input slot dies at its node when the value is local, not a graph output and last used there.
  plan->kernels.assign(n, {});
  PlanFolding(g, outputs, *plan);
  plan->dying_inputs.assign(n, 0);
  for (size_t k = 0; k < n; ++k) {
    const ir::Node* node = plan->order[k];
    for (size_t i = 0; i < node->num_inputs() && i < 64; ++i) {
      const ir::Value* v = node->input(i);
      // Initializers are shared by every run (and the model): never written in place.
      if (v == nullptr || v->graph() != &g || outputs.contains(v) || v->initializer() != nullptr) continue;
      auto it = last.find(v);
      if (it != last.end() && it->second == k) plan->dying_inputs[k] |= uint64_t{1} << i;
    }
  }
  return plan;
}

}  // namespace

struct Scope {
  const Scope* parent = nullptr;
  absl::flat_hash_map<const ir::Value*, RuntimeValue> values;
  absl::flat_hash_set<const ir::Value*> absent;  // formal inputs the caller omitted
  const std::vector<ir::OpsetImport>* opsets = nullptr;
  const AttributeScope* attrs = nullptr;
  // Initializers of every graph, loaded once per evaluator and read in place (never copied into a
  // scope); a graph input given by the caller shadows its initializer through `values`.
  const absl::flat_hash_map<const ir::Value*, RuntimeValue>* constants = nullptr;

  // Returns the value, or null with *omitted set when it is an omitted input.
  const RuntimeValue* Find(const ir::Value* v, bool* omitted) const {
    for (const Scope* s = this; s != nullptr; s = s->parent) {
      auto it = s->values.find(v);
      if (it != s->values.end()) return &it->second;
      if (s->absent.contains(v)) {
        *omitted = true;
        return nullptr;
      }
    }
    if (constants != nullptr && v->initializer() != nullptr) {
      auto it = constants->find(v);
      if (it != constants->end()) return &it->second;
    }
    return nullptr;
  }

  // The values of node's inputs from slot `first` on (null for omitted ones and slots before `first`);
  // an error when one has no value.
  absl::StatusOr<std::vector<const RuntimeValue*>> Inputs(const ir::Node& node, size_t first = 0) const {
    std::vector<const RuntimeValue*> ins(node.num_inputs(), nullptr);
    for (size_t i = first; i < node.num_inputs(); ++i) {
      const ir::Value* v = node.input(i);
      if (v == nullptr || v->name().empty()) continue;
      bool is_omitted = false;
      ins[i] = Find(v, &is_omitted);
      if (ins[i] == nullptr && !is_omitted) {
        return absl::InvalidArgumentError(absl::StrCat(node.Describe(), ": input '", v->name(), "' has no value"));
      }
    }
    return ins;
  }
};

struct Evaluator::Impl {
  const ir::Model* model = nullptr;
  const ir::Graph* main = nullptr;
  std::vector<ir::OpsetImport> main_opsets;
  const KernelRegistry& registry = KernelRegistry::Global();
  absl::flat_hash_map<const ir::Graph*, std::unique_ptr<Plan>> plans;  // kernels filled in as nodes run
  absl::flat_hash_map<const ir::Value*, RuntimeValue> constants;
  int depth = 0;
  std::map<std::string, Evaluator::OpProfile>* profile = nullptr;

  absl::StatusOr<Plan*> GetPlan(const ir::Graph& g) {
    auto it = plans.find(&g);
    if (it != plans.end()) return it->second.get();
    ASSIGN_OR_RETURN(auto p, MakePlan(g));
    Plan* raw = p.get();
    plans[&g] = std::move(p);
    return raw;
  }

  absl::StatusOr<Tensor> Constant(const ir::Value* v) {
    auto it = constants.find(v);
    if (it != constants.end()) return it->second.tensor();
    if (v->initializer() == nullptr) {
      return absl::UnimplementedError(absl::StrCat("sparse initializer '", v->name(), "' is not supported"));
    }
    ASSIGN_OR_RETURN(Tensor t, Tensor::FromIr(*v->initializer()));
    constants[v] = t;
    return t;
  }

  absl::StatusOr<std::vector<RuntimeValue>> RunGraph(const ir::Graph& g, std::vector<RuntimeValue> inputs,
                                                     const std::vector<bool>* omitted, Scope* parent,
                                                     const std::vector<ir::OpsetImport>* opsets,
                                                     const AttributeScope* attrs);
  // `cached`, when given, holds the node's kernel from an earlier run, or receives it. `epilogue`,
  // when given, is offered to the kernel; *applied says whether it took it.
  absl::Status RunNodeIn(const ir::Node& node, Scope& scope, std::vector<const RuntimeValue*> inputs,
                         std::vector<RuntimeValue>& outputs, uint64_t dying_inputs = 0,
                         Plan::Kernel* cached = nullptr, const ChannelEpilogue* epilogue = nullptr,
                         bool* applied = nullptr);
  absl::Status RunKernel(const KernelFn& kernel, int64_t version, const ir::Node& node, Scope& scope,
                         std::vector<const RuntimeValue*> inputs, std::vector<RuntimeValue>& outputs,
                         uint64_t dying_inputs, const ChannelEpilogue* epilogue, bool* applied);
  // Builds the epilogue of the chain folded after node k (its Conv inputs are `conv_inputs`); returns
  // how many of the folded nodes it covers (a prefix of the chain; 0: none).
  absl::StatusOr<size_t> BuildEpilogue(const Plan& plan, size_t k, Scope& scope,
                                       const std::vector<const RuntimeValue*>& conv_inputs, ChannelEpilogue& e);
};

namespace {

// Forgets the values that die after node k. An initializer's bytes stay, but if they are mapped from a
// file its pages are let go, so running a model larger than memory keeps only the weights in use
// resident (the next run reads them from the file again).
void ReleaseDead(const Plan& plan, size_t k, Scope& scope) {
  for (const ir::Value* v : plan.free_after[k]) {
    scope.values.erase(v);
    if (v->initializer() != nullptr) v->initializer()->ReleasePages();
  }
}

class ScopedRunner final : public SubgraphRunner {
 public:
  ScopedRunner(Evaluator::Impl* impl, Scope* scope) : impl_(impl), scope_(scope) {}
  absl::StatusOr<std::vector<RuntimeValue>> RunSubgraph(const ir::Graph& graph,
                                                        std::vector<RuntimeValue> inputs) override {
    return impl_->RunGraph(graph, std::move(inputs), nullptr, scope_, scope_->opsets, scope_->attrs);
  }

 private:
  Evaluator::Impl* impl_;
  Scope* scope_;
};

}  // namespace

absl::StatusOr<std::vector<RuntimeValue>> Evaluator::Impl::RunGraph(
    const ir::Graph& g, std::vector<RuntimeValue> inputs, const std::vector<bool>* omitted,
    Scope* parent, const std::vector<ir::OpsetImport>* opsets, const AttributeScope* attrs) {
  if (++depth > 64) {
    --depth;
    return absl::ResourceExhaustedError("graph nesting deeper than 64 (recursive function?)");
  }
  struct DepthGuard {
    int* d;
    ~DepthGuard() { --*d; }
  } guard{&depth};

  Scope scope;
  scope.parent = parent;
  scope.opsets = opsets;
  scope.attrs = attrs;
  scope.constants = &constants;
  ASSIGN_OR_RETURN(Plan* plan, GetPlan(g));
  if (!plan->constants_loaded) {
    for (const ir::Value* v : g.initializers()) RETURN_IF_ERROR(Constant(v).status());
    plan->constants_loaded = true;
  }
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    const ir::Value* v = g.inputs()[i];
    if (omitted != nullptr && i < omitted->size() && (*omitted)[i]) {
      scope.values.erase(v);
      scope.absent.insert(v);
      continue;
    }
    if (i < inputs.size()) {
      scope.values[v] = std::move(inputs[i]);
    } else if (v->initializer() == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("graph '", g.name(), "': no value for input '",
                                                     v->name(), "'"));
    }
  }
  std::vector<bool> computed(plan->order.size(), false);  // folded into an earlier node's kernel
  for (size_t k = 0; k < plan->order.size(); ++k) {
    const ir::Node& node = *plan->order[k];
    if (computed[k]) {
      ReleaseDead(*plan, k, scope);
      continue;
    }
    ASSIGN_OR_RETURN(std::vector<const RuntimeValue*> ins, scope.Inputs(node));
    const auto start = profile != nullptr ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    ChannelEpilogue epilogue;
    size_t folded = 0;
    if (!plan->folded[k].empty()) {
      ASSIGN_OR_RETURN(folded, BuildEpilogue(*plan, k, scope, ins, epilogue));
    }
    std::vector<RuntimeValue> outs;
    bool applied = false;
    RETURN_IF_ERROR(RunNodeIn(node, scope, std::move(ins), outs, plan->dying_inputs[k], &plan->kernels[k],
                              folded > 0 ? &epilogue : nullptr, &applied));
    if (profile != nullptr) {
      Evaluator::OpProfile& p = (*profile)[node.QualifiedOpType()];
      ++p.calls;
      p.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (applied) {
      // The kernel's output is the last folded node's; the folded nodes are done.
      for (size_t f = 0; f < folded; ++f) computed[plan->folded[k][f]] = true;
      const ir::Value* v = plan->order[plan->folded[k][folded - 1]]->output(0);
      if (!outs.empty()) scope.values[v] = std::move(outs[0]);
    } else {
      for (size_t o = 0; o < node.num_outputs() && o < outs.size(); ++o) {
        const ir::Value* v = node.output(o);
        if (!v->name().empty()) scope.values[v] = std::move(outs[o]);
      }
    }
    ReleaseDead(*plan, k, scope);
  }
  std::vector<RuntimeValue> results;
  results.reserve(g.outputs().size());
  for (const ir::Value* v : g.outputs()) {
    bool is_omitted = false;
    const RuntimeValue* r = scope.Find(v, &is_omitted);
    if (r == nullptr) {
      if (is_omitted) {
        results.emplace_back();
        continue;
      }
      return absl::InvalidArgumentError(absl::StrCat("graph '", g.name(), "': output '", v->name(),
                                                     "' was not computed"));
    }
    results.push_back(*r);
  }
  return results;
}

absl::StatusOr<size_t> Evaluator::Impl::BuildEpilogue(const Plan& plan, size_t k, Scope& scope,
                                                       const std::vector<const RuntimeValue*>& conv_inputs,
                                                       ChannelEpilogue& e) {
  if (conv_inputs.size() < 2 || conv_inputs[1] == nullptr || !conv_inputs[1]->is_tensor() ||
      conv_inputs[1]->tensor().rank() < 1) {
    return 0;
  }
  const int64_t channels = conv_inputs[1]->tensor().dim(0);
  const std::vector<ir::OpsetImport>& opsets = scope.opsets ? *scope.opsets : main_opsets;
  const std::optional<int64_t> version = ir::FindOpsetVersion(opsets, "");
  if (!version) return 0;
  size_t covered = 0;
  for (size_t f : plan.folded[k]) {
    const ir::Node& node = *plan.order[f];
    // Input 0 is the Conv's output, not computed yet; a missing input is left to the node, which reports it.
    absl::StatusOr<std::vector<const RuntimeValue*>> ins = scope.Inputs(node, 1);
    if (!ins.ok()) return covered;
    KernelContext ctx(node, *version, std::move(*ins), scope.attrs, nullptr);
    absl::StatusOr<bool> added = node.op_type() == "BatchNormalization" ? AppendBatchNormEpilogue(ctx, channels, e)
                                                                        : AppendActivationEpilogue(ctx, e);
    if (!added.ok() || !*added) return covered;  // the node runs on its own and reports any error
    ++covered;
  }
  return covered;
}

absl::Status Evaluator::Impl::RunKernel(const KernelFn& kernel, int64_t version, const ir::Node& node,
                                        Scope& scope, std::vector<const RuntimeValue*> inputs,
                                        std::vector<RuntimeValue>& outputs, uint64_t dying_inputs,
                                        const ChannelEpilogue* epilogue, bool* applied) {
  ScopedRunner runner(this, &scope);
  KernelContext ctx(node, version, std::move(inputs), scope.attrs, &runner, dying_inputs);
  ctx.set_epilogue(epilogue);
  absl::Status st;
  try {
    st = kernel(ctx);
  } catch (const TensorTooLarge& e) {
    st = absl::ResourceExhaustedError(e.what());
  }
  if (applied != nullptr) *applied = st.ok() && epilogue != nullptr && ctx.epilogue_applied();
  if (!st.ok()) {
    const std::string desc = node.Describe();
    if (absl::StrContains(st.message(), desc)) return st;
    return absl::Status(st.code(), absl::StrCat(desc, ": ", st.message()));
  }
  outputs = std::move(ctx.outputs());
  return absl::OkStatus();
}

absl::Status Evaluator::Impl::RunNodeIn(const ir::Node& node, Scope& scope,
                                        std::vector<const RuntimeValue*> inputs,
                                        std::vector<RuntimeValue>& outputs, uint64_t dying_inputs,
                                        Plan::Kernel* cached, const ChannelEpilogue* epilogue, bool* applied) {
  if (applied != nullptr) *applied = false;
  if (cached != nullptr && cached->fn != nullptr) {
    return RunKernel(*cached->fn, cached->version, node, scope, std::move(inputs), outputs, dying_inputs,
                     epilogue, applied);
  }
  const std::vector<ir::OpsetImport>& opsets = scope.opsets ? *scope.opsets : main_opsets;
  std::optional<int64_t> version = ir::FindOpsetVersion(opsets, node.domain());
  if (!version && scope.opsets != &main_opsets) version = ir::FindOpsetVersion(main_opsets, node.domain());
  const bool onnx = node.is_onnx_domain();
  const ir::Function* fn = nullptr;
  if (model != nullptr) fn = model->FindFunction(node.domain(), node.op_type(), node.overload());
  const KernelFn* kernel = nullptr;
  if (fn == nullptr || onnx) {
    if (!version && (onnx || node.domain() == "ai.onnx.ml")) version = onnx ? 28 : 5;
    if (version) kernel = registry.Find(node.domain(), node.op_type(), *version);
  }
  if (kernel != nullptr) {
    if (cached != nullptr) *cached = {kernel, *version};
    return RunKernel(*kernel, *version, node, scope, std::move(inputs), outputs, dying_inputs, epilogue, applied);
  }
  if (fn != nullptr) {
    // Attributes visible in the body: the function's defaults, overridden by the call's attributes.
    AttributeScope attrs;
    for (const ir::Attribute& a : fn->attribute_defaults()) attrs[a.name()] = &a;
    for (const ir::Attribute& a : node.attributes()) {
      const ir::Attribute* resolved = &a;
      if (a.is_reference()) {
        resolved = nullptr;
        if (scope.attrs != nullptr) {
          auto it = scope.attrs->find(a.ref_attr_name());
          if (it != scope.attrs->end()) resolved = it->second;
        }
      }
      if (resolved != nullptr) attrs[a.name()] = resolved;
    }
    std::vector<RuntimeValue> args;
    std::vector<bool> omitted(fn->body().inputs().size(), true);
    for (size_t i = 0; i < inputs.size() && i < omitted.size(); ++i) {
      args.push_back(inputs[i] ? *inputs[i] : RuntimeValue());
      omitted[i] = inputs[i] == nullptr;
    }
    const std::vector<ir::OpsetImport>* fn_opsets =
        fn->opset_imports().empty() ? &main_opsets : &fn->opset_imports();
    ASSIGN_OR_RETURN(outputs, RunGraph(fn->body(), std::move(args), &omitted, nullptr, fn_opsets, &attrs));
    return absl::OkStatus();
  }
  if (!version) {
    return absl::UnimplementedError(absl::StrCat(node.Describe(), ": domain '", node.domain(),
                                                 "' is not imported"));
  }
  if (registry.HasOp(node.domain(), node.op_type())) {
    return absl::UnimplementedError(absl::StrCat(node.Describe(), ": no kernel for opset ", *version,
                                                 " of ", node.QualifiedOpType()));
  }
  return absl::UnimplementedError(absl::StrCat(node.Describe(), ": operator ", node.QualifiedOpType(),
                                               " is not supported by the interpreter"));
}

Evaluator::Evaluator(const ir::Model& model) : impl_(std::make_unique<Impl>()) {
  impl_->model = &model;
  impl_->main = &model.graph();
  impl_->main_opsets = model.opset_imports();
}

Evaluator::Evaluator(const ir::Graph& graph, std::vector<ir::OpsetImport> opsets)
    : impl_(std::make_unique<Impl>()) {
  impl_->main = &graph;
  impl_->main_opsets = std::move(opsets);
}

Evaluator::~Evaluator() = default;

absl::StatusOr<std::vector<RuntimeValue>> Evaluator::Run(std::vector<RuntimeValue> inputs) {
  if (inputs.size() > impl_->main->inputs().size()) {
    return absl::InvalidArgumentError(absl::StrCat("got ", inputs.size(), " inputs for a graph with ",
                                                   impl_->main->inputs().size()));
  }
  try {
    return impl_->RunGraph(*impl_->main, std::move(inputs), nullptr, nullptr, &impl_->main_opsets, nullptr);
  } catch (const TensorTooLarge& e) {  // outside any kernel: loading initializers, graph plumbing
    return absl::ResourceExhaustedError(e.what());
  }
}

absl::StatusOr<std::vector<RuntimeValue>> Evaluator::RunByName(
    const absl::flat_hash_map<std::string, RuntimeValue>& inputs) {
  std::vector<RuntimeValue> ordered;
  const auto& gin = impl_->main->inputs();
  size_t needed = 0;
  for (size_t i = 0; i < gin.size(); ++i) {
    if (inputs.contains(gin[i]->name())) needed = i + 1;
  }
  for (size_t i = 0; i < needed; ++i) {
    auto it = inputs.find(gin[i]->name());
    if (it != inputs.end()) {
      ordered.push_back(it->second);
    } else if (gin[i]->initializer() != nullptr) {
      ASSIGN_OR_RETURN(Tensor t, impl_->Constant(gin[i]));
      ordered.push_back(std::move(t));
    } else {
      return absl::InvalidArgumentError(absl::StrCat("no value for graph input '", gin[i]->name(), "'"));
    }
  }
  return Run(std::move(ordered));
}

absl::StatusOr<std::vector<RuntimeValue>> Evaluator::RunNode(
    const ir::Node& node, const std::vector<const RuntimeValue*>& inputs) {
  Scope scope;
  scope.opsets = &impl_->main_opsets;
  std::vector<RuntimeValue> outs;
  try {
    RETURN_IF_ERROR(impl_->RunNodeIn(node, scope, inputs, outs));
  } catch (const TensorTooLarge& e) {
    return absl::ResourceExhaustedError(e.what());
  }
  return outs;
}

void Evaluator::EnableProfiling(std::map<std::string, OpProfile>* sink) { impl_->profile = sink; }

}  // namespace onnx_opt::interpreter
