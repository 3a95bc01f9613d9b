#include "interpreter/constant_steps.h"

#include "ir/captures.h"
#include "ir/function.h"
#include "schema/nondeterministic.h"

namespace onnx_opt::interpreter {
namespace {

// Whether running `node` may give other outputs on the same inputs: a nondeterministic operator
// (schema/nondeterministic.h) in it, its subgraphs or the model-local functions it calls (to any
// depth; a deeper call chain counts as nondeterministic).
bool MayVary(const ir::Node& node, const ir::Model* model, int depth = 0) {
  if (depth > 64 || schema::IsNondeterministic(node)) return true;
  if (model != nullptr) {
    if (const ir::Function* fn =
            model->FindFunction(node.domain(), node.op_type(), node.overload())) {
      for (const ir::Node* inner : fn->body().nodes()) {
        if (MayVary(*inner, model, depth + 1)) return true;
      }
    }
  }
  for (const ir::Graph* sub : node.subgraphs()) {
    for (const ir::Node* inner : sub->nodes()) {
      if (MayVary(*inner, model, depth + 1)) return true;
    }
  }
  return false;
}

}  // namespace

ConstantSteps PlanConstantSteps(const ir::Graph& g, const ir::Model* model, ExecutionPlan& plan) {
  const size_t n = plan.steps.size();
  ConstantSteps result;
  result.constant.assign(n, 0);
  result.kept.assign(plan.num_slots, 0);
  std::vector<uint8_t> constant_slot(plan.num_slots, 0);
  // The slot of v, or -1 for an initializer that is not a graph input (or an outer value).
  auto slot_of = [&](const ir::Value* v) -> int64_t {
    auto it = plan.slot_of.find(v);
    return it == plan.slot_of.end() ? -1 : int64_t{it->second};
  };
  auto is_constant = [&](const ir::Value* v) {
    if (v == nullptr || v->name().empty()) return true;  // an omitted input
    const int64_t slot = slot_of(v);
    if (slot >= 0) return constant_slot[slot] != 0;
    return v->graph() == &g && v->initializer() != nullptr;
  };
  // Captures of each node's subgraphs, worked out once.
  std::vector<std::vector<const ir::Value*>> captures(n);
  for (size_t k = 0; k < n; ++k) {
    for (const ir::Graph* sub : plan.order[k]->subgraphs()) {
      for (const ir::Value* v : ir::CapturedValues(*sub)) captures[k].push_back(v);
    }
  }
  for (size_t k = 0; k < n; ++k) {
    const ir::Node& node = *plan.order[k];
    const ExecutionPlan::Step& step = plan.steps[k];
    bool constant = !step.deferred && step.dequantized_weight < 0 && !MayVary(node, model);
    for (size_t i = 0; constant && i < node.num_inputs(); ++i) {
      constant = is_constant(node.input(i));
    }
    for (const ir::Value* v : captures[k]) constant = constant && is_constant(v);
    if (!constant) continue;
    result.constant[k] = 1;
    ++result.num_constant;
    for (int64_t slot : step.output_slots) {
      if (slot >= 0) constant_slot[slot] = 1;
    }
  }
  // What the rest reads of the constants. A folded node reads its inputs when its Conv runs, and is
  // itself a step, so the steps' inputs cover it.
  auto read = [&](const ir::Value* v) {
    const int64_t slot = v == nullptr ? -1 : slot_of(v);
    if (slot >= 0 && constant_slot[slot]) result.kept[slot] = 1;
  };
  for (size_t k = 0; k < n; ++k) {
    ExecutionPlan::Step& step = plan.steps[k];
    if (result.constant[k]) {
      // A constant Conv applies only the constant part of its chain: a non-constant
      // BatchNormalization or activation after it needs the Conv's own output, kept for later runs.
      size_t prefix = 0;
      while (prefix < step.folded.size() && result.constant[step.folded[prefix]]) ++prefix;
      step.folded.resize(prefix);
      continue;
    }
    for (const ir::Value* v : plan.order[k]->inputs()) read(v);
    for (const ir::Value* v : captures[k]) read(v);
  }
  for (const ValueRef& r : plan.outputs) {
    if (r.kind == ValueRef::Kind::kSlot && constant_slot[r.slot]) result.kept[r.slot] = 1;
  }
  return result;
}

}  // namespace onnx_opt::interpreter
