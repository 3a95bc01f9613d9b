#include "schema/inference/inference.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "ir/captures.h"
#include "ir/opset_import.h"
#include "ir/status_macros.h"
#include "ir/topological_sort.h"
#include "schema/domains.h"
#include "schema/inference/engine.h"
#include "schema/inference/registry.h"
#include "schema/inference/shape_utils.h"
#include "schema/op_registry.h"

namespace onnx_opt::schema::inference {
namespace {

// Functions calling functions deeper than this are left uninferred (a recursive function is
// invalid anyway).
constexpr int kMaxFunctionDepth = 16;
// Shape values are only tracked for small tensors.
constexpr uint64_t kMaxShapeValueElements = 1024;

bool IsSchemaDomain(std::string_view domain) {
  std::string_view d = CanonicalDomain(domain);
  return d == kOnnxDomain || d == kMlDomain || d == kPreviewTrainingDomain || d == kPreviewDomain ||
         d == kMicrosoftDomain;
}

bool HasNegativeDim(const ir::Type& t) {
  if (t.kind() == ir::Type::Kind::kTensor || t.kind() == ir::Type::Kind::kSparseTensor) {
    if (!t.shape()) return false;
    for (const ir::Dim& d : t.shape()->dims()) {
      if (d.is_known() && d.value() < 0) return true;
    }
    return false;
  }
  return t.has_inner() && HasNegativeDim(t.inner());
}

}  // namespace

absl::Status InferShapes(ir::Model& model, const InferOptions& options) {
  Engine engine(model, options);
  return engine.Run();
}

absl::Status Engine::Run() {
  Scope root;
  root.commit = true;
  root.imports = &model_.opset_imports();
  return InferGraph(root, model_.graph());
}

const ir::Type& Engine::GetType(const Scope& scope, const ir::Value* v) const {
  for (const Scope* s = &scope; s != nullptr; s = s->parent) {
    if (s->types.empty()) continue;
    auto it = s->types.find(v);
    if (it != s->types.end()) return it->second;
  }
  if (options_.types_out != nullptr) {
    auto it = options_.types_out->find(v);
    if (it != options_.types_out->end()) return it->second;
  }
  return v->type();
}

const ir::Tensor* Engine::GetConstant(const Scope& scope, const ir::Value* v) const {
  for (const Scope* s = &scope; s != nullptr; s = s->parent) {
    auto it = s->constants.find(v);
    if (it != s->constants.end()) return it->second;
  }
  if (v->is_constant_initializer()) return v->initializer();
  return nullptr;
}

std::optional<ShapeValue> Engine::GetShapeValue(const Scope& scope, const ir::Value* v) const {
  for (const Scope* s = &scope; s != nullptr; s = s->parent) {
    auto it = s->shape_values.find(v);
    if (it != s->shape_values.end()) return it->second;
  }
  const ir::Tensor* t = GetConstant(scope, v);
  if (t == nullptr || t->dims().size() > 1) return std::nullopt;
  auto n = t->num_elements();
  if (!n || *n > kMaxShapeValueElements) return std::nullopt;
  auto ints = TensorToInts(*t);
  if (!ints) return std::nullopt;
  ShapeValue sv;
  sv.scalar = t->dims().empty();
  for (int64_t x : *ints) sv.elems.push_back(ir::Dim::Known(x));
  return sv;
}

const ir::Attribute* Engine::Resolve(const Scope& scope, const ir::Attribute* attr) const {
  if (attr == nullptr || !attr->is_reference()) return attr;
  const Scope* s = &scope;
  while (s != nullptr && s->function == nullptr) s = s->parent;
  if (s == nullptr) return nullptr;
  const ir::Attribute* a = s->caller->FindAttribute(attr->ref_attr_name());
  if (a != nullptr) return Resolve(*s->caller_scope, a);
  for (const ir::Attribute& d : s->function->attribute_defaults()) {
    if (d.name() == attr->ref_attr_name()) return &d;
  }
  return nullptr;
}

const ir::Tensor* Engine::Own(ir::Tensor t) {
  owned_.push_back(std::move(t));
  return &owned_.back();
}

void Engine::SetType(Scope& scope, ir::Value* v, ir::Type t) {
  if (scope.commit && options_.types_out != nullptr) {
    (*options_.types_out)[v] = std::move(t);
  } else if (scope.commit) {
    v->set_type(std::move(t));
  } else {
    scope.types[v] = std::move(t);
  }
}

absl::Status Engine::Problem(std::string message) {
  if (trial_depth_ > 0) return absl::OkStatus();
  if (options_.strict) return absl::InvalidArgumentError(message);
  if (options_.warnings != nullptr) options_.warnings->push_back(std::move(message));
  return absl::OkStatus();
}

absl::Status Engine::InferNodes(Scope& scope, ir::Graph& graph) {
  // Node lists are nearly always in topological order already, so the nodes are inferred as listed,
  // checking on the way that each one's producers came first; no order is built (on a large graph,
  // building one was a walk and a fresh array of its own). The nodes before the first one out of
  // order are exactly how the sorted order begins (it keeps sorted nodes where they are), so the
  // rest of that order continues the walk with the same result as sorting first.
  const uint64_t inferred = ir::NewWalkStamp();
  auto available = [&](const ir::Value* v) {
    return v == nullptr || v->producer() == nullptr || v->producer()->graph() != &graph ||
           v->producer()->walk_stamp() == inferred;
  };
  auto ready = [&](const ir::Node& n) {
    if (!std::all_of(n.inputs().begin(), n.inputs().end(), available)) return false;
    if (!n.may_have_subgraphs()) return true;
    for (const ir::Graph* sub : n.subgraphs()) {
      const std::vector<ir::Value*> captured = ir::CapturedValues(*sub);
      if (!std::all_of(captured.begin(), captured.end(), available)) return false;
    }
    return true;
  };
  size_t done = 0;
  for (ir::Node* node : graph.nodes()) {
    if (!ready(*node)) break;
    RETURN_IF_ERROR(InferNode(scope, *node));
    node->set_walk_stamp(inferred);
    ++done;
  }
  if (done == graph.num_nodes()) return absl::OkStatus();

  std::vector<ir::Node*> order;
  auto sorted = ir::TopologicalOrder(graph);
  if (sorted.ok()) {
    order = *std::move(sorted);
  } else {
    if (options_.warnings != nullptr && trial_depth_ == 0) {
      options_.warnings->push_back(absl::StrCat(
          "graph '", graph.name(), "': ", sorted.status().message(), "; inferring in list order"));
    }
    for (ir::Node* n : graph.nodes()) order.push_back(n);
  }
#ifndef NDEBUG
  const ir::Node* listed = graph.first_node();
  for (size_t i = 0; i < done; ++i, listed = listed->next()) CHECK_EQ(order[i], listed);
#endif
  for (size_t i = done; i < order.size(); ++i) {
    RETURN_IF_ERROR(InferNode(scope, *order[i]));
  }
  return absl::OkStatus();
}

absl::Status Engine::InferGraph(Scope& scope, ir::Graph& graph) {
  RETURN_IF_ERROR(InferNodes(scope, graph));
  // Outputs described apart from their values (an outer value returned by a subgraph, a value
  // returned twice with different types) must agree with what the value turned out to be.
  for (size_t i = 0; i < graph.outputs().size(); ++i) {
    const std::optional<ir::OutputInfo>& info = graph.output_info(i);
    if (!info) continue;
    std::string conflict;
    ir::Type merged = MergeTypes(info->type, GetType(scope, graph.outputs()[i]), &conflict);
    if (!conflict.empty()) {
      RETURN_IF_ERROR(Problem(absl::StrCat("graph '", graph.name(), "' output ", i, " ('",
                                           graph.outputs()[i]->name(), "'): ", conflict)));
    }
    if (scope.commit && options_.types_out == nullptr && merged != info->type) {
      ir::OutputInfo updated = *info;
      updated.type = std::move(merged);
      graph.set_output_info(i, std::move(updated));
    }
  }
  return absl::OkStatus();
}

ir::Type Engine::OutputType(const Scope& scope, const ir::Graph& graph, size_t i) const {
  const ir::Type& value = GetType(scope, graph.outputs()[i]);
  const std::optional<ir::OutputInfo>& info = graph.output_info(i);
  if (!info) return value;
  std::string ignored;
  return MergeTypes(info->type, value, &ignored);
}

absl::Status Engine::InferNode(Scope& scope, ir::Node& node) {
  const std::string& domain = node.domain();
  const ir::Function* function = model_.FindFunction(domain, node.op_type(), node.overload());
  if (!IsSchemaDomain(domain)) {
    if (function != nullptr) return InferFunctionCall(scope, node, *function);
    return absl::OkStatus();  // a custom operator: nothing is known about it
  }
  std::optional<int64_t> opset = ir::FindOpsetVersion(*scope.imports, domain);
  if (!opset && IsSchemaDomain(domain) && CanonicalDomain(domain) == kOnnxDomain) {
    opset = ir::FindOpsetVersion(*scope.imports, kOnnxDomain);
  }
  if (!opset) {
    if (function != nullptr) return InferFunctionCall(scope, node, *function);
    if (options_.warnings != nullptr && trial_depth_ == 0) {
      options_.warnings->push_back(absl::StrCat(DescribeNode(node), ": domain '", domain,
                                                "' is not imported; outputs not inferred"));
    }
    return absl::OkStatus();
  }
  // Copied out of the cache: inferring a subgraph below may add entries and move them.
  const OpSchema* schema = nullptr;
  const InferFn* fn = nullptr;
  std::vector<OpEntry>& cached = op_cache_[node.op_type()];
  for (const OpEntry& e : cached) {
    if (e.opset == *opset && e.domain == domain) {
      schema = e.schema;
      fn = e.fn;
      break;
    }
  }
  if (schema == nullptr) {
    auto found = FindInForce(domain, node.op_type(), *opset);
    if (!found.ok()) {
      if (function != nullptr) return InferFunctionCall(scope, node, *function);
      // An operator of an open domain we have no schema for: a custom operator.
      if (IsOpenDomain(domain) && Versions(domain, node.op_type()).empty()) return absl::OkStatus();
      if (options_.warnings != nullptr && trial_depth_ == 0) {
        options_.warnings->push_back(absl::StrCat(
            DescribeNode(node), ": ", found.status().message(), "; outputs not inferred"));
      }
      return absl::OkStatus();
    }
    schema = *found;
    fn = InferenceRegistry::Get().Find(domain, node.op_type(), schema->since_version());
    cached.push_back(OpEntry{domain, *opset, schema, fn});
  }

  InferenceContext ctx(*this, scope, node, *schema, *opset);
  ctx.InitFromSchema();
  if (fn != nullptr) {
    absl::Status s = (*fn)(ctx);
    if (!s.ok()) {
      RETURN_IF_ERROR(Problem(std::string(s.message())));
      // Keep only what the schema alone says.
      InferenceContext plain(*this, scope, node, *schema, *opset);
      plain.InitFromSchema();
      for (size_t i = 0; i < node.num_outputs() && i < plain.num_outputs(); ++i) {
        RETURN_IF_ERROR(
            Commit(scope, node, node.output(i), plain.outputs()[i], std::nullopt, nullptr));
      }
      return absl::OkStatus();
    }
  }
  for (size_t i = 0; i < node.num_outputs() && i < ctx.num_outputs(); ++i) {
    RETURN_IF_ERROR(Commit(scope, node, node.output(i), ctx.outputs()[i],
                           ctx.output_shape_values()[i], ctx.output_constants()[i]));
  }
  return absl::OkStatus();
}

absl::Status Engine::InferFunctionCall(Scope& scope, ir::Node& node, const ir::Function& fn) {
  if (function_depth_ >= kMaxFunctionDepth) {
    if (options_.warnings != nullptr && trial_depth_ == 0) {
      options_.warnings->push_back(absl::StrCat(DescribeNode(node),
                                                ": functions nested deeper than ",
                                                kMaxFunctionDepth, "; outputs not inferred"));
    }
    return absl::OkStatus();
  }
  // The body is shared by every call, so its types live in this call's scope only.
  ir::Graph& body = const_cast<ir::Function&>(fn).body();
  Scope call;
  call.commit = false;
  call.imports = &fn.opset_imports();
  call.caller = &node;
  call.function = &fn;
  call.caller_scope = &scope;
  for (size_t i = 0; i < body.inputs().size(); ++i) {
    const ir::Value* formal = body.inputs()[i];
    if (!node.has_input(i)) continue;
    const ir::Value* actual = node.input(i);
    std::string conflict;
    call.types[formal] = MergeTypes(formal->type(), GetType(scope, actual), &conflict);
    if (const ir::Tensor* t = GetConstant(scope, actual)) call.constants[formal] = t;
    if (auto sv = GetShapeValue(scope, actual)) call.shape_values[formal] = *sv;
  }
  ++function_depth_;
  absl::Status s = InferGraph(call, body);
  --function_depth_;
  if (!s.ok()) {
    return absl::Status(s.code(), absl::StrCat("in function ", fn.QualifiedName(), " called by ",
                                               DescribeNode(node), ": ", s.message()));
  }
  for (size_t i = 0; i < node.num_outputs() && i < body.outputs().size(); ++i) {
    const ir::Value* out = body.outputs()[i];
    RETURN_IF_ERROR(Commit(scope, node, node.output(i), OutputType(call, body, i),
                           GetShapeValue(call, out), GetConstant(call, out)));
  }
  return absl::OkStatus();
}

absl::Status Engine::Commit(Scope& scope, ir::Node& node, ir::Value* v, const ir::Type& inferred,
                            const std::optional<ShapeValue>& value, const ir::Tensor* constant) {
  if (v == nullptr || v->is_omitted()) return absl::OkStatus();
  const ir::Type& declared = GetType(scope, v);
  // A negative dimension means the operator's inputs make no sense (a negative size, ...).
  if (HasNegativeDim(inferred)) {
    RETURN_IF_ERROR(
        Problem(absl::StrCat(DescribeNode(node), ": output '", v->name(),
                             "' would have a negative dimension: ", inferred.ToString())));
    return Commit(scope, node, v, StripShapes(inferred), std::nullopt, nullptr);
  }
  // When a value already has the inferred type (every value, the second time a pipeline infers),
  // merging would only copy the type twice to find nothing new.
  if (inferred != declared) {
    std::string conflict;
    ir::Type merged = MergeTypes(declared, inferred, &conflict);
    if (!conflict.empty()) {
      RETURN_IF_ERROR(
          Problem(absl::StrCat(DescribeNode(node), ": output '", v->name(), "': ", conflict)));
    }
    if (merged != declared) SetType(scope, v, std::move(merged));
  }
  const bool writes_model = scope.commit && options_.types_out == nullptr;
  if (writes_model && options_.fill_value_info && !v->type().is_none() && !v->is_graph_output() &&
      !v->in_value_info() && node.graph() != nullptr) {
    node.graph()->AddValueInfo(v);
  }
  if (value) scope.shape_values[v] = *value;
  if (constant != nullptr) scope.constants[v] = constant;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ir::Type>> Engine::InferSubgraph(
    Scope& parent, ir::Graph& graph, const std::vector<ir::Type>& input_types, bool trial) {
  if (trial) ++trial_depth_;
  absl::StatusOr<std::vector<ir::Type>> result =
      InferSubgraphImpl(parent, graph, input_types, trial);
  if (trial) --trial_depth_;
  return result;
}

absl::StatusOr<std::vector<ir::Type>> Engine::InferSubgraphImpl(
    Scope& parent, ir::Graph& graph, const std::vector<ir::Type>& input_types, bool trial) {
  Scope sub;
  sub.parent = &parent;
  sub.commit = parent.commit && !trial;
  sub.imports = parent.imports;
  for (size_t i = 0; i < graph.inputs().size() && i < input_types.size(); ++i) {
    if (input_types[i].is_none()) continue;
    ir::Value* in = graph.inputs()[i];
    const ir::Type& declared = GetType(sub, in);
    std::string conflict;
    ir::Type merged = MergeTypes(declared, input_types[i], &conflict);
    if (!conflict.empty()) {
      RETURN_IF_ERROR(Problem(
          absl::StrCat("subgraph '", graph.name(), "' input '", in->name(), "': ", conflict)));
    }
    if (merged != declared) SetType(sub, in, std::move(merged));
  }
  RETURN_IF_ERROR(InferGraph(sub, graph));
  std::vector<ir::Type> out;
  for (size_t i = 0; i < graph.outputs().size(); ++i) out.push_back(OutputType(sub, graph, i));
  return out;
}

}  // namespace onnx_opt::schema::inference
