#include "interpreter/evaluator.h"

#include <chrono>
#include <optional>

#include "absl/cleanup/cleanup.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/node_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "interpreter/constant_steps.h"
#include "interpreter/execution_plan.h"
#include "interpreter/tensor_buffer_pool.h"
#include "interpreter/tensor_limit.h"
#include "ir/function.h"
#include "ir/opset_import.h"
#include "ir/status_macros.h"

namespace onnx_opt::interpreter {

// Initializers as run-time values, keyed by their IR value; nodes keep pointers into it, so the map
// never moves its entries.
using ConstantMap = absl::node_hash_map<const ir::Value*, RuntimeValue>;
struct Scope {
  enum State : uint8_t { kUnset, kSet, kAbsent };

  const Scope* parent = nullptr;
  const ExecutionPlan* plan = nullptr;  // null for a lone node (RunNode)
  std::vector<RuntimeValue> slots;      // the plan's slots
  std::vector<uint8_t> state;           // per slot; kAbsent: a formal input the caller omitted
  const std::vector<ir::OpsetImport>* opsets = nullptr;
  const AttributeScope* attrs = nullptr;
  // Initializers of every graph, loaded once per evaluator and read in place (never copied into a
  // scope); a graph input given by the caller shadows its initializer.
  const ConstantMap* constants = nullptr;

  // Returns the value, or null with *omitted set when it is an omitted input. Looks through the
  // enclosing scopes (subgraphs capture outer values), then the initializers.
  const RuntimeValue* Find(const ir::Value* v, bool* omitted) const {
    for (const Scope* s = this; s != nullptr; s = s->parent) {
      if (s->plan == nullptr) continue;
      auto it = s->plan->slot_of.find(v);
      if (it == s->plan->slot_of.end()) continue;
      if (s->state[it->second] == kSet) return &s->slots[it->second];
      if (s->state[it->second] == kAbsent) {
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

  // The value `r` refers to (see Find); the common cases without hashing.
  const RuntimeValue* Resolve(const ValueRef& r, bool* omitted) const {
    switch (r.kind) {
      case ValueRef::Kind::kOmitted:
        return nullptr;
      case ValueRef::Kind::kSlot:
        if (state[r.slot] == kSet) return &slots[r.slot];
        if (state[r.slot] == kAbsent) {
          *omitted = true;
          return nullptr;
        }
        break;
      case ValueRef::Kind::kConstant:
        if (r.constant != nullptr) return r.constant;
        break;
      case ValueRef::Kind::kOuter:
        break;
    }
    return Find(r.value, omitted);
  }

  void Set(int64_t slot, RuntimeValue v) {
    if (slot < 0) return;
    slots[slot] = std::move(v);
    state[slot] = kSet;
  }
};

// A 2-D int4/uint4 initializer with an even number of columns, as its bytes lie (packed, often in a
// mapped file): what RunDequantizedReader reads in place. None for anything else.
std::optional<PackedFourBitWeight> PackedWeight(const ir::Value* v) {
  const ir::Tensor* t = v->initializer();
  if (t == nullptr || (t->data_type() != DataType::kInt4 && t->data_type() != DataType::kUint4) ||
      t->dims().size() != 2 || t->dims()[0] < 0 || t->dims()[1] < 0 || t->dims()[1] % 2 != 0 ||
      t->raw_data() == nullptr ||
      t->raw_size() != ir::RawByteSize(t->data_type(), t->dims()[0] * t->dims()[1])) {
    return std::nullopt;
  }
  return PackedFourBitWeight{t->data_type(), t->dims()[0], t->dims()[1],
                             reinterpret_cast<const uint8_t*>(t->raw_data())};
}

struct Evaluator::Impl {
  const ir::Model* model = nullptr;
  const ir::Graph* main = nullptr;
  std::vector<ir::OpsetImport> main_opsets;
  const KernelRegistry& registry = KernelRegistry::Global();
  absl::flat_hash_map<const ir::Graph*, std::unique_ptr<ExecutionPlan>>
      plans;  // kernels filled in as nodes run
  ConstantMap constants;
  EvaluatorOptions options;
  // A graph's constant steps and, once a run of it has gone through, the values later runs reuse.
  struct ConstantCache {
    bool planned = false;
    bool filled = false;
    ConstantSteps steps;
    std::vector<std::pair<uint32_t, RuntimeValue>> values;  // by slot
  };
  // Per graph: the main one and its nodes' subgraphs (If branches, Loop and Scan bodies: a body's
  // constants are then computed once, not on every run or iteration).
  // Node-based: a run holds its graph's entry while its subgraphs' entries are added.
  absl::node_hash_map<const ir::Graph*, ConstantCache> constant_caches;
  int depth = 0;
  std::map<std::string, Evaluator::OpProfile>* profile = nullptr;
  // What runs allocate tensors from (see tensor_buffer_pool.h); closed when the evaluator dies.
  std::shared_ptr<TensorBufferPool> buffers = TensorBufferPool::Create();
  ~Impl() { buffers->Close(); }

  absl::StatusOr<ExecutionPlan*> GetPlan(const ir::Graph& g) {
    auto it = plans.find(&g);
    if (it != plans.end()) return it->second.get();
    ASSIGN_OR_RETURN(auto p, MakeExecutionPlan(g));
    ExecutionPlan* raw = p.get();
    plans[&g] = std::move(p);
    return raw;
  }

  absl::StatusOr<const RuntimeValue*> Constant(const ir::Value* v) {
    auto it = constants.find(v);
    if (it != constants.end()) return &it->second;
    if (v->initializer() == nullptr) {
      return absl::UnimplementedError(
          absl::StrCat("sparse initializer '", v->name(), "' is not supported"));
    }
    ASSIGN_OR_RETURN(Tensor t, Tensor::FromIr(*v->initializer()));
    return &constants.emplace(v, std::move(t)).first->second;
  }

  // Loads g's initializers and points the plan's references at them (the map keeps them in place).
  // A 4-bit weight read only by DequantizeLinears that their readers (MatMul, Gather) compute from
  // is left in the file, packed, for RunDequantizedReader to read in place (PackedWeight); it is
  // loaded only if such a reader declines it (RunDeferred).
  absl::Status LoadConstants(const ir::Graph& g, ExecutionPlan& plan) {
    absl::flat_hash_set<const ir::Node*> deferred;
    for (size_t k = 0; k < plan.steps.size(); ++k) {
      if (plan.steps[k].deferred) deferred.insert(plan.order[k]);
    }
    auto read_in_place = [&](const ir::Value* v) {
      if (!PackedWeight(v).has_value() || v->uses().empty()) return false;
      for (const ir::Use& use : v->uses()) {
        if (use.index != 0 || !deferred.contains(use.node)) return false;
      }
      return true;
    };
    for (const ir::Value* v : g.initializers()) {
      if (!read_in_place(v)) RETURN_IF_ERROR(Constant(v).status());
    }
    auto fill = [&](ValueRef& r) {
      if (r.value == nullptr || r.value->initializer() == nullptr) return;
      auto it = constants.find(r.value);
      if (it != constants.end()) r.constant = &it->second;
    };
    for (ExecutionPlan::Step& step : plan.steps) {
      for (ValueRef& r : step.inputs) fill(r);
    }
    for (ValueRef& r : plan.outputs) fill(r);
    plan.constants_loaded = true;
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<RuntimeValue>> RunGraph(
      const ir::Graph& g, std::vector<RuntimeValue> inputs, const std::vector<bool>* omitted,
      Scope* parent, const std::vector<ir::OpsetImport>* opsets, const AttributeScope* attrs);
  // `step`, when given, holds the node's kernel from an earlier run, or receives it. `epilogue`,
  // when given, is offered to the kernel; *applied says whether it took it.
  absl::Status RunNodeIn(const ir::Node& node, Scope& scope,
                         absl::Span<const RuntimeValue* const> inputs,
                         std::vector<RuntimeValue>& outputs, uint64_t dying_inputs = 0,
                         ExecutionPlan::Step* step = nullptr,
                         const ChannelEpilogue* epilogue = nullptr, bool* applied = nullptr,
                         uint64_t constant_inputs = 0);
  // `step`, when given, lends the kernel its cache for the inputs set in `constant_inputs`.
  absl::Status RunKernel(const KernelFn& kernel, int64_t version, const ir::Node& node,
                         Scope& scope, absl::Span<const RuntimeValue* const> inputs,
                         std::vector<RuntimeValue>& outputs, uint64_t dying_inputs,
                         const ChannelEpilogue* epilogue, bool* applied, ExecutionPlan::Step* step,
                         uint64_t constant_inputs);
  // The epilogue of the chain folded after node k (its Conv inputs are `conv_inputs`): built into
  // `built`, or the one an earlier run kept (Step::folded_epilogue), set in *e; returns how many of
  // the folded nodes it covers (a prefix of the chain; 0: none, *e null).
  absl::StatusOr<size_t> BuildEpilogue(ExecutionPlan& plan, size_t k, Scope& scope,
                                       absl::Span<const RuntimeValue* const> conv_inputs,
                                       ChannelEpilogue& built, const ChannelEpilogue** e);
  // Step k, a MatMul or Gather with `dequantized_weight`: computes it from the quantized weight
  // into outputs[0] and returns true, or returns false having done nothing (no such shapes, types
  // or layouts taken).
  absl::StatusOr<bool> RunDequantizedReader(ExecutionPlan& plan, size_t k, Scope& scope,
                                            std::vector<RuntimeValue>& outputs);
  // Step k, a Conv with `fused_depthwise`, and that Conv run as one (with their folded chains)
  // into outputs[0] when ComputePointwiseDepthwise takes them; false (nothing done) otherwise.
  absl::StatusOr<bool> RunPointwiseDepthwise(ExecutionPlan& plan, size_t k, Scope& scope,
                                             std::vector<RuntimeValue>& outputs);
  // Runs the deferred DequantizeLinear at position d (its inputs are constants) into its slot.
  absl::Status RunDeferred(ExecutionPlan& plan, size_t d, Scope& scope,
                           std::vector<RuntimeValue>& outputs);
  // The constant cache for a run of `g` (null when caching is off, nothing in `g` is constant, or
  // `g` runs with an attribute scope: the body of a model-local function, or a subgraph in one,
  // whose constants may come from the caller's attributes); plans its steps the first time.
  ConstantCache* CacheFor(const ir::Graph& g, const AttributeScope* attrs, ExecutionPlan& plan);
  // The inputs of `step` that are the same on every run (bit i for input i): initializers (also
  // those an old model lists among its inputs: a caller who gives one passes another tensor, which
  // the kernel cache tells apart) and the constant values `cache` keeps between runs.
  static uint64_t ConstantInputs(const ExecutionPlan::Step& step, const ConstantCache* cache) {
    uint64_t bits = 0;
    for (size_t i = 0; i < step.inputs.size() && i < 64; ++i) {
      const ValueRef& r = step.inputs[i];
      const bool constant =
          r.kind == ValueRef::Kind::kConstant ||
          (r.kind == ValueRef::Kind::kSlot &&
           ((r.value != nullptr && r.value->initializer() != nullptr) ||
            (cache != nullptr && r.slot < cache->steps.kept.size() && cache->steps.kept[r.slot])));
      if (constant) bits |= uint64_t{1} << i;
    }
    return bits;
  }
};

namespace {

// Forgets the values that die after step k. An initializer's bytes stay, but if they are mapped
// from a file its pages are let go (unless EvaluatorOptions::keep_weight_pages), so running a model
// larger than memory keeps only the weights in use resident (the next run reads them from the file
// again). A skipped constant step leaves the pages alone: it read them on the run that filled the
// cache, and a kept value may view them.
void ReleaseDead(const ExecutionPlan::Step& step, Scope& scope, bool release_pages = true) {
  for (uint32_t slot : step.free_after) {
    scope.slots[slot] = RuntimeValue();
    if (scope.state[slot] == Scope::kSet) scope.state[slot] = Scope::kUnset;
  }
  if (!release_pages) return;
  for (const ir::Value* v : step.release_pages_after) v->initializer()->ReleasePages();
}

// The values of `refs` in `scope` into `out` (null for omitted ones and those before `first`); an
// error naming the node when one has no value.
absl::Status ResolveInputs(const ir::Node& node, const std::vector<ValueRef>& refs,
                           const Scope& scope, std::vector<const RuntimeValue*>& out,
                           size_t first = 0) {
  out.assign(refs.size(), nullptr);
  for (size_t i = first; i < refs.size(); ++i) {
    bool is_omitted = false;
    out[i] = scope.Resolve(refs[i], &is_omitted);
    if (out[i] == nullptr && !is_omitted && refs[i].kind != ValueRef::Kind::kOmitted) {
      return absl::InvalidArgumentError(
          absl::StrCat(node.Describe(), ": input '", refs[i].value->name(), "' has no value"));
    }
  }
  return absl::OkStatus();
}

// Keeps the values of constant step k (and of the first `folded` nodes folded into it) that later
// runs read.
void KeepConstants(const ExecutionPlan& plan, size_t k, size_t folded, const Scope& scope,
                   const ConstantSteps& steps,
                   std::vector<std::pair<uint32_t, RuntimeValue>>& kept) {
  auto keep = [&](const ExecutionPlan::Step& step) {
    for (int64_t slot : step.output_slots) {
      if (slot >= 0 && steps.kept[slot] && scope.state[slot] == Scope::kSet) {
        kept.emplace_back(static_cast<uint32_t>(slot), scope.slots[slot]);
      }
    }
  };
  keep(plan.steps[k]);
  for (size_t f = 0; f < folded; ++f) keep(plan.steps[plan.steps[k].folded[f]]);
}

class ScopedRunner final : public SubgraphRunner {
 public:
  ScopedRunner(Evaluator::Impl* impl, Scope* scope) : impl_(impl), scope_(scope) {}
  absl::StatusOr<std::vector<RuntimeValue>> RunSubgraph(const ir::Graph& graph,
                                                        std::vector<RuntimeValue> inputs) override {
    return impl_->RunGraph(graph, std::move(inputs), nullptr, scope_, scope_->opsets,
                           scope_->attrs);
  }

 private:
  Evaluator::Impl* impl_;
  Scope* scope_;
};

}  // namespace

Evaluator::Impl::ConstantCache* Evaluator::Impl::CacheFor(const ir::Graph& g,
                                                          const AttributeScope* attrs,
                                                          ExecutionPlan& plan) {
  if (!options.cache_constants || attrs != nullptr) return nullptr;
  ConstantCache& cache = constant_caches[&g];
  if (!cache.planned) {
    cache.steps = PlanConstantSteps(g, model, plan);
    cache.planned = true;
  }
  return cache.steps.num_constant > 0 ? &cache : nullptr;
}

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

  ASSIGN_OR_RETURN(ExecutionPlan * plan, GetPlan(g));
  if (!plan->constants_loaded) RETURN_IF_ERROR(LoadConstants(g, *plan));
  // A run that fills the cache computes everything; later ones (replays) skip the constant steps.
  ConstantCache* cache = CacheFor(g, attrs, *plan);
  const bool replay = cache != nullptr && cache->filled;
  const bool release_pages = !options.keep_weight_pages;
  if (cache != nullptr && !replay) cache->values.clear();  // what a failed run left
  Scope scope;
  scope.parent = parent;
  scope.plan = plan;
  scope.slots.resize(plan->num_slots);
  scope.state.assign(plan->num_slots, Scope::kUnset);
  scope.opsets = opsets;
  scope.attrs = attrs;
  scope.constants = &constants;
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    const ir::Value* v = g.inputs()[i];
    const uint32_t slot = plan->input_slots[i];
    if (omitted != nullptr && i < omitted->size() && (*omitted)[i]) {
      scope.slots[slot] = RuntimeValue();
      scope.state[slot] = Scope::kAbsent;
      continue;
    }
    // An empty value for an input with an initializer keeps the initializer (IR < 4 lists weights
    // among the inputs, often before the data).
    const bool given = i < inputs.size() && !(inputs[i].kind() == RuntimeValue::Kind::kNone &&
                                              v->initializer() != nullptr);
    if (given) {
      scope.Set(slot, std::move(inputs[i]));
    } else if (v->initializer() == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("graph '", g.name(), "': no value for input '", v->name(), "'"));
    }
  }
  if (replay) {
    for (const auto& [slot, value] : cache->values) scope.Set(slot, value);  // shares the buffers
  }
  const size_t n = plan->order.size();
  std::vector<uint8_t> computed(n, 0);  // folded into an earlier node's kernel
  // Reused by every node: no allocation per node once they have grown.
  std::vector<const RuntimeValue*> ins;
  std::vector<RuntimeValue> outs;
  for (size_t k = 0; k < n; ++k) {
    const ir::Node& node = *plan->order[k];
    ExecutionPlan::Step& step = plan->steps[k];
    if (replay && cache->steps.constant[k]) {
      ReleaseDead(step, scope, /*release_pages=*/false);
      continue;
    }
    if (computed[k]) {
      ReleaseDead(step, scope, release_pages);
      continue;
    }
    if (step.deferred) {  // a DequantizeLinear that the node reading it runs, if at all
      ReleaseDead(step, scope, release_pages);
      continue;
    }
    auto start = profile != nullptr ? std::chrono::steady_clock::now()
                                    : std::chrono::steady_clock::time_point();
    if (step.fused_depthwise >= 0 && !(cache != nullptr && cache->steps.constant[k])) {
      ASSIGN_OR_RETURN(const bool pair, RunPointwiseDepthwise(*plan, k, scope, outs));
      if (pair) {
        if (profile != nullptr) {
          Evaluator::OpProfile& p = (*profile)[node.QualifiedOpType()];
          ++p.calls;
          p.seconds +=
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
        // The depthwise Conv's output (or its last folded node's) is set; the rest are done.
        const size_t d = static_cast<size_t>(step.fused_depthwise);
        const std::vector<size_t>& d_folded = plan->steps[d].folded;
        for (size_t f : step.folded) computed[f] = 1;
        computed[d] = 1;
        for (size_t f : d_folded) computed[f] = 1;
        const ExecutionPlan::Step& last = plan->steps[d_folded.empty() ? d : d_folded.back()];
        if (!last.output_slots.empty() && last.output_slots[0] >= 0)
          scope.Set(last.output_slots[0], std::move(outs[0]));
        ReleaseDead(step, scope, release_pages);
        continue;
      }
    }
    bool fused = false;
    if (step.dequantized_weight >= 0) {
      ASSIGN_OR_RETURN(fused, RunDequantizedReader(*plan, k, scope, outs));
      if (!fused) {
        RETURN_IF_ERROR(
            RunDeferred(*plan, static_cast<size_t>(step.dequantized_weight), scope, outs));
        if (profile != nullptr) start = std::chrono::steady_clock::now();
      }
    }
    ChannelEpilogue built;
    const ChannelEpilogue* epilogue = nullptr;
    size_t folded = 0;
    bool applied = false;
    if (!fused) {
      RETURN_IF_ERROR(ResolveInputs(node, step.inputs, scope, ins));
      if (!step.folded.empty()) {
        ASSIGN_OR_RETURN(folded, BuildEpilogue(*plan, k, scope, ins, built, &epilogue));
      }
      RETURN_IF_ERROR(RunNodeIn(node, scope, ins, outs, step.dying_inputs, &step, epilogue,
                                &applied, ConstantInputs(step, cache)));
    }
    if (profile != nullptr) {
      Evaluator::OpProfile& p = (*profile)[node.QualifiedOpType()];
      ++p.calls;
      p.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (applied) {
      // The kernel's output is the last folded node's; the folded nodes are done.
      for (size_t f = 0; f < folded; ++f) computed[step.folded[f]] = 1;
      const ExecutionPlan::Step& last = plan->steps[step.folded[folded - 1]];
      if (!outs.empty() && !last.output_slots.empty())
        scope.Set(last.output_slots[0], std::move(outs[0]));
    } else {
      for (size_t o = 0; o < step.output_slots.size() && o < outs.size(); ++o) {
        scope.Set(step.output_slots[o], std::move(outs[o]));
      }
    }
    if (cache != nullptr && !replay && cache->steps.constant[k]) {
      KeepConstants(*plan, k, applied ? folded : 0, scope, cache->steps, cache->values);
    }
    ReleaseDead(step, scope, release_pages);
  }
  if (cache != nullptr) cache->filled = true;
  std::vector<RuntimeValue> results;
  results.reserve(plan->outputs.size());
  for (const ValueRef& r : plan->outputs) {
    bool is_omitted = false;
    const RuntimeValue* v = scope.Resolve(r, &is_omitted);
    if (v == nullptr) {
      if (is_omitted || r.kind == ValueRef::Kind::kOmitted) {
        results.emplace_back();
        continue;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("graph '", g.name(), "': output '", r.value->name(), "' was not computed"));
    }
    results.push_back(*v);
  }
  return results;
}

absl::StatusOr<size_t> Evaluator::Impl::BuildEpilogue(
    ExecutionPlan& plan, size_t k, Scope& scope, absl::Span<const RuntimeValue* const> conv_inputs,
    ChannelEpilogue& built, const ChannelEpilogue** e) {
  *e = nullptr;
  if (conv_inputs.size() < 2 || conv_inputs[1] == nullptr || !conv_inputs[1]->is_tensor() ||
      conv_inputs[1]->tensor().rank() < 1) {
    return 0;
  }
  const int64_t channels = conv_inputs[1]->tensor().dim(0);
  ExecutionPlan::Step& step = plan.steps[k];
  if (const auto& kept = step.folded_epilogue; kept != nullptr && kept->channels == channels) {
    *e = &kept->epilogue;
    return kept->covered;
  }
  const std::vector<ir::OpsetImport>& opsets = scope.opsets ? *scope.opsets : main_opsets;
  const std::optional<int64_t> version = ir::FindOpsetVersion(opsets, "");
  if (!version) return 0;
  size_t covered = 0;
  bool constant = scope.attrs == nullptr;  // what it reads cannot change between runs
  std::vector<const RuntimeValue*> ins;
  for (size_t f : step.folded) {
    const ir::Node& node = *plan.order[f];
    // Input 0 is the Conv's output, not computed yet; a missing input is left to the node, which
    // reports it.
    if (!ResolveInputs(node, plan.steps[f].inputs, scope, ins, 1).ok()) break;
    KernelContext ctx(node, *version, ins, scope.attrs, nullptr);
    absl::StatusOr<bool> added = node.op_type() == "BatchNormalization"
                                     ? AppendBatchNormEpilogue(ctx, channels, built)
                                     : AppendActivationEpilogue(ctx, built);
    if (!added.ok() || !*added) break;  // the node runs on its own and reports any error
    for (size_t i = 1; i < plan.steps[f].inputs.size(); ++i) {
      const ValueRef::Kind kind = plan.steps[f].inputs[i].kind;
      constant =
          constant && (kind == ValueRef::Kind::kConstant || kind == ValueRef::Kind::kOmitted);
    }
    ++covered;
  }
  if (covered == 0) return 0;
  if (constant) {
    auto kept = std::make_shared<ExecutionPlan::Step::FoldedEpilogue>();
    kept->epilogue = std::move(built);
    kept->covered = covered;
    kept->channels = channels;
    step.folded_epilogue = std::move(kept);
    *e = &step.folded_epilogue->epilogue;
  } else {
    *e = &built;
  }
  return covered;
}

absl::StatusOr<bool> Evaluator::Impl::RunDequantizedReader(ExecutionPlan& plan, size_t k,
                                                           Scope& scope,
                                                           std::vector<RuntimeValue>& outputs) {
  const ir::Node& reader = *plan.order[k];
  const size_t d = static_cast<size_t>(plan.steps[k].dequantized_weight);
  const ir::Node& dequantize = *plan.order[d];
  const std::vector<ir::OpsetImport>& opsets = scope.opsets ? *scope.opsets : main_opsets;
  const std::optional<int64_t> version = ir::FindOpsetVersion(opsets, "");
  if (!version) return false;
  // A weight LoadConstants left in the file is read packed, in place.
  const ValueRef& x = plan.steps[d].inputs[0];
  std::optional<PackedFourBitWeight> packed;
  if (x.kind == ValueRef::Kind::kConstant && x.constant == nullptr) packed = PackedWeight(x.value);
  std::vector<const RuntimeValue*> dq_inputs, reader_inputs;
  if (!ResolveInputs(dequantize, plan.steps[d].inputs, scope, dq_inputs, packed ? 1 : 0).ok())
    return false;
  // The reader's other input: a MatMul's A (input 0), a Gather's indices (input 1).
  const bool is_matmul = reader.op_type() == "MatMul";
  const size_t other = is_matmul ? 0 : 1;
  bool omitted = false;
  reader_inputs.assign(2, nullptr);
  reader_inputs[other] = scope.Resolve(plan.steps[k].inputs[other], &omitted);
  if (reader_inputs[other] == nullptr) return false;  // the reader runs on its own and reports it
  KernelContext reader_ctx(reader, *version, reader_inputs, scope.attrs, nullptr);
  KernelContext dq_ctx(dequantize, *version, dq_inputs, scope.attrs, nullptr);
  const PackedFourBitWeight* in_place = packed ? &*packed : nullptr;
  absl::StatusOr<bool> done;
  try {
    if (is_matmul) {
      done = ComputeQuantizedMatMul(reader_ctx, dq_ctx, in_place);
      if (done.ok() && *done) {
        outputs.resize(1);
        outputs[0] = std::move(reader_ctx.outputs()[0]);
      }
    } else {
      absl::StatusOr<std::optional<QuantizedGatherInputs>> rows =
          GatherQuantizedRows(reader_ctx, dq_ctx, in_place);
      if (!rows.ok()) {
        done = rows.status();
      } else if (!rows->has_value()) {
        done = false;
      } else {
        // The DequantizeLinear itself, on the rows taken; its output reshaped as Gather's.
        const RuntimeValue rx((*rows)->x), rs((*rows)->scale), rz((*rows)->zero);
        const std::vector<const RuntimeValue*> ins = {&rx, &rs,
                                                      (*rows)->zero.is_defined() ? &rz : nullptr};
        std::vector<RuntimeValue> dq_out;
        RETURN_IF_ERROR(RunNodeIn(dequantize, scope, ins, dq_out, 0, &plan.steps[d]));
        outputs.resize(1);
        outputs[0] = dq_out[0].tensor().Reshaped(std::move((*rows)->output_dims));
        done = true;
      }
    }
  } catch (const TensorTooLarge& e) {
    done = absl::ResourceExhaustedError(e.what());
  }
  if (!done.ok())
    return absl::Status(done.status().code(),
                        absl::StrCat(reader.Describe(), ": ", done.status().message()));
  return *done;
}

absl::StatusOr<bool> Evaluator::Impl::RunPointwiseDepthwise(ExecutionPlan& plan, size_t k,
                                                            Scope& scope,
                                                            std::vector<RuntimeValue>& outputs) {
  const size_t d = static_cast<size_t>(plan.steps[k].fused_depthwise);
  const ir::Node &pointwise = *plan.order[k], &depthwise = *plan.order[d];
  const std::vector<ir::OpsetImport>& opsets = scope.opsets ? *scope.opsets : main_opsets;
  const std::optional<int64_t> version = ir::FindOpsetVersion(opsets, "");
  if (!version) return false;
  // Inputs (the depthwise Conv's input 0 is the pointwise one's output: never computed), and
  // each chain's epilogue, which must cover all of it.
  std::vector<const RuntimeValue*> pointwise_ins, depthwise_ins;
  if (!ResolveInputs(pointwise, plan.steps[k].inputs, scope, pointwise_ins).ok() ||
      !ResolveInputs(depthwise, plan.steps[d].inputs, scope, depthwise_ins, 1).ok()) {
    return false;  // each node runs on its own and reports it
  }
  ChannelEpilogue pointwise_built, depthwise_built;
  const ChannelEpilogue *pointwise_epilogue = nullptr, *depthwise_epilogue = nullptr;
  ASSIGN_OR_RETURN(const size_t covered, BuildEpilogue(plan, k, scope, pointwise_ins,
                                                       pointwise_built, &pointwise_epilogue));
  if (covered != plan.steps[k].folded.size()) return false;
  ASSIGN_OR_RETURN(
      const size_t depthwise_covered,
      BuildEpilogue(plan, d, scope, depthwise_ins, depthwise_built, &depthwise_epilogue));
  if (depthwise_covered != plan.steps[d].folded.size()) return false;
  KernelContext pointwise_ctx(pointwise, *version, pointwise_ins, scope.attrs, nullptr);
  KernelContext depthwise_ctx(depthwise, *version, depthwise_ins, scope.attrs, nullptr);
  if (covered > 0) pointwise_ctx.set_epilogue(pointwise_epilogue);
  if (depthwise_covered > 0) depthwise_ctx.set_epilogue(depthwise_epilogue);
  absl::StatusOr<bool> done;
  try {
    done = ComputePointwiseDepthwise(pointwise_ctx, depthwise_ctx);
  } catch (const TensorTooLarge& e) {
    done = absl::ResourceExhaustedError(e.what());
  }
  if (!done.ok()) {
    return absl::Status(done.status().code(),
                        absl::StrCat(depthwise.Describe(), ": ", done.status().message()));
  }
  if (*done) {
    outputs.resize(1);
    outputs[0] = std::move(depthwise_ctx.outputs()[0]);
  }
  return *done;
}

absl::Status Evaluator::Impl::RunDeferred(ExecutionPlan& plan, size_t d, Scope& scope,
                                          std::vector<RuntimeValue>& outputs) {
  const ir::Node& node = *plan.order[d];
  ExecutionPlan::Step& step = plan.steps[d];
  // Its reader declined: a weight left packed in the file is loaded now, for this step only
  // unless the evaluator is kept for many runs (keep_weight_pages): unpacked a byte per element, a
  // float16 model's 4-bit weights (which the fused path declines) would otherwise pile up to twice
  // their file's size over one run (6.7 GB for a 7B model).
  std::vector<ValueRef*> loaded;
  for (ValueRef& r : step.inputs) {
    if (r.kind == ValueRef::Kind::kConstant && r.constant == nullptr) {
      ASSIGN_OR_RETURN(r.constant, Constant(r.value));
      loaded.push_back(&r);
    }
  }
  absl::Cleanup unload = [&] {
    if (options.keep_weight_pages) return;
    for (ValueRef* r : loaded) {
      constants.erase(r->value);
      r->constant = nullptr;
    }
  };
  std::vector<const RuntimeValue*> inputs;
  RETURN_IF_ERROR(ResolveInputs(node, step.inputs, scope, inputs));
  const auto start = profile != nullptr ? std::chrono::steady_clock::now()
                                        : std::chrono::steady_clock::time_point();
  RETURN_IF_ERROR(RunNodeIn(node, scope, inputs, outputs, 0, &step));
  if (profile != nullptr) {
    Evaluator::OpProfile& p = (*profile)[node.QualifiedOpType()];
    ++p.calls;
    p.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  for (size_t o = 0; o < step.output_slots.size() && o < outputs.size(); ++o) {
    scope.Set(step.output_slots[o], std::move(outputs[o]));
  }
  return absl::OkStatus();
}

absl::Status Evaluator::Impl::RunKernel(const KernelFn& kernel, int64_t version,
                                        const ir::Node& node, Scope& scope,
                                        absl::Span<const RuntimeValue* const> inputs,
                                        std::vector<RuntimeValue>& outputs, uint64_t dying_inputs,
                                        const ChannelEpilogue* epilogue, bool* applied,
                                        ExecutionPlan::Step* step, uint64_t constant_inputs) {
  ScopedRunner runner(this, &scope);
  KernelContext ctx(node, version, inputs, scope.attrs, &runner, dying_inputs);
  ctx.set_epilogue(epilogue);
  if (step != nullptr) {
    ctx.set_cache(step->kernel_cache.get(), constant_inputs, options.pack_weights);
  }
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
  // Moved element by element into the caller's vector, which keeps its capacity from node to node.
  auto& produced = ctx.outputs();
  outputs.resize(produced.size());
  for (size_t i = 0; i < produced.size(); ++i) outputs[i] = std::move(produced[i]);
  return absl::OkStatus();
}

absl::Status Evaluator::Impl::RunNodeIn(const ir::Node& node, Scope& scope,
                                        absl::Span<const RuntimeValue* const> inputs,
                                        std::vector<RuntimeValue>& outputs, uint64_t dying_inputs,
                                        ExecutionPlan::Step* step, const ChannelEpilogue* epilogue,
                                        bool* applied, uint64_t constant_inputs) {
  if (applied != nullptr) *applied = false;
  if (step != nullptr && step->kernel != nullptr) {
    return RunKernel(*step->kernel, step->version, node, scope, inputs, outputs, dying_inputs,
                     epilogue, applied, step, constant_inputs);
  }
  const std::vector<ir::OpsetImport>& opsets = scope.opsets ? *scope.opsets : main_opsets;
  std::optional<int64_t> version = ir::FindOpsetVersion(opsets, node.domain());
  if (!version && scope.opsets != &main_opsets)
    version = ir::FindOpsetVersion(main_opsets, node.domain());
  const bool onnx = node.is_onnx_domain();
  const ir::Function* fn = nullptr;
  if (model != nullptr) fn = model->FindFunction(node.domain(), node.op_type(), node.overload());
  const KernelFn* kernel = nullptr;
  if (fn == nullptr || onnx) {
    if (!version && (onnx || node.domain() == "ai.onnx.ml")) version = onnx ? 28 : 5;
    if (version) kernel = registry.Find(node.domain(), node.op_type(), *version);
  }
  if (kernel != nullptr) {
    if (step != nullptr) {
      step->kernel = kernel;
      step->version = *version;
    }
    return RunKernel(*kernel, *version, node, scope, inputs, outputs, dying_inputs, epilogue,
                     applied, step, constant_inputs);
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
    ASSIGN_OR_RETURN(outputs,
                     RunGraph(fn->body(), std::move(args), &omitted, nullptr, fn_opsets, &attrs));
    return absl::OkStatus();
  }
  if (!version) {
    return absl::UnimplementedError(
        absl::StrCat(node.Describe(), ": domain '", node.domain(), "' is not imported"));
  }
  if (registry.HasOp(node.domain(), node.op_type())) {
    return absl::UnimplementedError(absl::StrCat(node.Describe(), ": no kernel for opset ",
                                                 *version, " of ", node.QualifiedOpType()));
  }
  return absl::UnimplementedError(absl::StrCat(node.Describe(), ": operator ",
                                               node.QualifiedOpType(),
                                               " is not supported by the interpreter"));
}

Evaluator::Evaluator(const ir::Model& model, EvaluatorOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->model = &model;
  impl_->main = &model.graph();
  impl_->main_opsets = model.opset_imports();
}

Evaluator::Evaluator(const ir::Graph& graph, std::vector<ir::OpsetImport> opsets,
                     EvaluatorOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->main = &graph;
  impl_->main_opsets = std::move(opsets);
}

Evaluator::~Evaluator() = default;

absl::StatusOr<std::vector<RuntimeValue>> Evaluator::Run(std::vector<RuntimeValue> inputs) {
  if (inputs.size() > impl_->main->inputs().size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "got ", inputs.size(), " inputs for a graph with ", impl_->main->inputs().size()));
  }
  TensorBufferPool::Use use(impl_->buffers.get());
  try {
    return impl_->RunGraph(*impl_->main, std::move(inputs), nullptr, nullptr, &impl_->main_opsets,
                           nullptr);
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
      ordered.emplace_back();  // keeps the initializer
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("no value for graph input '", gin[i]->name(), "'"));
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
