#include "converter/convert.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "converter/adapter.h"
#include "converter/fold.h"
#include "converter/ir_requirements.h"
#include "equivalence/equivalence.h"
#include "glog/logging.h"
#include "ir/clone.h"
#include "ir/function.h"
#include "ir/name_generator.h"
#include "ir/status_macros.h"
#include "optimizer/initializers_as_inputs.h"
#include "schema/checker/node_check.h"
#include "schema/inference/inference.h"
#include "schema/op_registry.h"
#include "schema/version_table.h"

namespace onnx_opt::converter {
namespace {

constexpr char kOnnx[] = "ai.onnx";
constexpr char kMl[] = "ai.onnx.ml";

bool InDomain(const ir::Node& n, const std::string& domain) {
  if (domain == kOnnx) return n.is_onnx_domain();
  return n.domain() == domain;
}

// The schema in force at `opset`, deprecated ones included (a deprecated schema marks a removal).
const schema::OpSchema* InForce(const std::string& domain, const std::string& op, int64_t opset) {
  const schema::OpSchema* best = nullptr;
  for (int v : schema::Versions(domain, op)) {
    if (v <= opset) best = schema::Find(domain, op, v);
  }
  return best;
}

std::string VersionLabel(const schema::OpSchema* s, const std::string& op) {
  if (s == nullptr) return absl::StrCat(op, " (not yet defined)");
  if (s->deprecated()) return absl::StrCat(op, " (removed at opset ", s->since_version(), ")");
  return absl::StrCat(op, "-", s->since_version());
}

// "graph 'body' (in node 'loop' (Loop)) > " style location of a node, for error messages.
std::string Location(const ir::Node& node) {
  std::string out;
  for (const ir::Graph* g = node.graph(); g != nullptr; g = g->parent_graph()) {
    if (g->parent_node() != nullptr) {
      out = absl::StrCat("in graph '", g->name(), "' of ", g->parent_node()->Describe(), ": ", out);
    } else if (g->owner_function() != nullptr) {
      out = absl::StrCat("in function ", g->owner_function()->QualifiedName(), ": ", out);
    }
  }
  return out;
}

absl::Status WithLocation(const ir::Node& node, const absl::Status& s) {
  const std::string loc = Location(node);
  if (loc.empty() || s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(loc, s.message()));
}

// One graph scope being converted: the main graph or a function body, with its imports.
struct Scope {
  ir::Graph* graph;
  std::vector<ir::OpsetImport>* imports;
};

class Converter {
 public:
  Converter(ir::Model& model, const ConvertOptions& options, ConvertReport& report)
      : model_(model), options_(options), report_(report), names_(model) {}

  absl::Status Run();

 private:
  absl::Status ConvertScope(Scope& scope, const std::string& domain, int64_t from, int64_t to);
  // Whether nodes of `op` need AdaptNode at the current step: their schema changes there, or the
  // operator is unknown (AdaptNode says so). Cached per step: a model has a few dozen op types.
  bool Changes(const std::string& op, const Step& step);
  // Indexes the scope's nodes of `domain` (bodies included) by operator, in walk order, afresh.
  void Reindex(ir::Graph& g, const std::string& domain);
  void IndexNodes(ir::Graph& g, const std::string& domain);
  absl::Status RunStep(Scope& scope, const Step& step);
  absl::Status AdaptNode(ir::Node& node, const Step& step);
  absl::Status Validate(ir::Node& node, AdapterContext& ctx, const Step& step);
  bool FoldAway(ir::Node& node, AdapterContext& ctx, Folder& folder);
  void UpdateIrVersion(bool any_down, bool any_up);

  ir::Model& model_;
  const ConvertOptions& options_;
  ConvertReport& report_;
  ir::NameGenerator names_;
  TypeOracle types_;
  // Nodes of the current step whose operator changes and that are not yet adapted; every other
  // node is at the target opset already (unchanged by the step, created by it, or adapted).
  absl::flat_hash_set<const ir::Node*> pending_;
  absl::flat_hash_map<std::string, bool> changes_;  // Changes(), for the current step
  // The scope's nodes by operator, each with its place in a walk of the scope (a node before its
  // bodies): a step looks only at the operators whose schema changes there, and most steps of a
  // conversion change none a model uses. Rebuilt after a step that adapted something.
  struct Placed {
    size_t place;
    ir::Node* node;
  };
  absl::flat_hash_map<std::string, std::vector<Placed>> by_op_;
  size_t places_ = 0;
  const Scope* scope_ = nullptr;
  const Step* step_ = nullptr;
};

absl::Status Converter::Run() {
  // Source opsets.
  const bool implicit_imports =
      model_.opset_imports().empty() && model_.ir_version() > 0 && model_.ir_version() < 3;
  if (implicit_imports) model_.mutable_opset_imports().push_back(ir::OpsetImport{"", 1, {}});

  struct Target {
    const char* domain;
    std::optional<int64_t> version;
  };
  std::vector<Target> targets = {{kOnnx, options_.onnx_opset}, {kMl, options_.ml_opset}};
  for (const Target& t : targets) {
    if (!t.version.has_value()) continue;
    ASSIGN_OR_RETURN(int max, schema::MaxOpset(t.domain));
    if (*t.version < 1 || *t.version > max) {
      return absl::InvalidArgumentError(
          absl::StrCat("target opset ", *t.version, " of ", t.domain, " is outside 1..", max));
    }
  }

  if (options_.infer_types) {
    // Inference reports its types to the side: the model is not touched and not copied.
    absl::flat_hash_map<const ir::Value*, ir::Type> inferred;
    inferred.reserve(model_.graph().num_nodes() + model_.graph().inputs().size());
    std::vector<std::string> warnings;
    schema::inference::InferOptions io;
    io.strict = false;
    io.fill_value_info = false;
    io.warnings = &warnings;
    io.types_out = &inferred;
    absl::Status s = schema::inference::InferShapes(model_, io);
    if (!s.ok()) {
      report_.warnings.push_back(
          absl::StrCat("type inference failed (types of intermediate values "
                       "are unknown): ",
                       s.message()));
    } else {
      for (std::string& w : warnings)
        report_.warnings.push_back(absl::StrCat("type inference: ", w));
      types_.SetInferred(std::move(inferred));
    }
  }

  bool any_down = false, any_up = false;
  std::vector<Scope> scopes;
  scopes.push_back({&model_.graph(), &model_.mutable_opset_imports()});
  for (auto& f : model_.mutable_functions())
    scopes.push_back({&f->body(), &f->mutable_opset_imports()});
  for (const Target& t : targets) {
    if (!t.version.has_value()) continue;
    std::optional<int64_t> main_from = ir::FindOpsetVersion(model_.opset_imports(), t.domain);
    if (t.domain == std::string(kOnnx)) {
      report_.onnx_from = main_from;
      report_.onnx_to = main_from.has_value() ? t.version : std::nullopt;
    } else {
      report_.ml_from = main_from;
      report_.ml_to = main_from.has_value() ? t.version : std::nullopt;
    }
    for (Scope& scope : scopes) {
      std::optional<int64_t> from = ir::FindOpsetVersion(*scope.imports, t.domain);
      if (!from.has_value() || *from == *t.version) continue;
      if (*t.version < *from)
        any_down = true;
      else
        any_up = true;
      RETURN_IF_ERROR(ConvertScope(scope, t.domain, *from, *t.version));
    }
  }
  UpdateIrVersion(any_down, any_up);
  return absl::OkStatus();
}

absl::Status Converter::ConvertScope(Scope& scope, const std::string& domain, int64_t from,
                                     int64_t to) {
  ASSIGN_OR_RETURN(int max, schema::MaxOpset(domain));
  if (from < 1 || from > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("the model imports ", domain, " opset ", from, ", which is outside 1..", max));
  }
  const int64_t dir = to > from ? 1 : -1;
  Reindex(*scope.graph, domain);
  for (int64_t v = from; v != to; v += dir) {
    Step step{domain, v, v + dir};
    RETURN_IF_ERROR(RunStep(scope, step));
    for (ir::OpsetImport& imp : *scope.imports) {
      if (ir::SameDomain(imp.domain, domain)) imp.version = v + dir;
    }
  }
  return absl::OkStatus();
}

bool Converter::Changes(const std::string& op, const Step& step) {
  auto [it, inserted] = changes_.try_emplace(op, false);
  if (inserted) {
    it->second =
        schema::Versions(step.domain, op).empty() ||
        InForce(step.domain, op, step.from_opset) != InForce(step.domain, op, step.to_opset);
  }
  return it->second;
}

void Converter::Reindex(ir::Graph& g, const std::string& domain) {
  by_op_.clear();
  places_ = 0;
  IndexNodes(g, domain);
}

void Converter::IndexNodes(ir::Graph& g, const std::string& domain) {
  for (ir::Node* n : g.nodes()) {
    if (InDomain(*n, domain)) by_op_[n->op_type()].push_back(Placed{places_, n});
    ++places_;
    for (ir::Graph* sub : n->subgraphs()) IndexNodes(*sub, domain);
  }
}

// Whether a node is still part of the model: neither it nor a node whose body holds it is erased.
bool Live(const ir::Node& node) {
  for (const ir::Node* n = &node; n != nullptr; n = n->graph()->parent_node()) {
    if (n->is_erased()) return false;
  }
  return true;
}

absl::Status Converter::RunStep(Scope& scope, const Step& step) {
  pending_.clear();
  changes_.clear();
  std::vector<Placed> changing;
  for (const auto& [op, nodes] : by_op_) {
    if (!Changes(op, step)) continue;
    for (const Placed& p : nodes) {
      if (Live(*p.node)) changing.push_back(p);
    }
  }
  for (const Placed& p : changing) pending_.insert(p.node);
  if (options_.before_step)
    options_.before_step(step.domain, step.from_opset, step.to_opset, pending_.size());
  VLOG(1) << "opset step " << step.domain << " " << step.from_opset << " -> " << step.to_opset
          << ": " << pending_.size() << " nodes";
  if (changing.empty()) return absl::OkStatus();
  // In walk order, as the model runs: an adapter sees the nodes before its own adapted already.
  std::sort(changing.begin(), changing.end(),
            [](const Placed& a, const Placed& b) { return a.place < b.place; });
  scope_ = &scope;
  step_ = &step;
  absl::Status s;
  for (const Placed& p : changing) {
    // An adapter before may have removed it (or the node whose body held it).
    if (!pending_.contains(p.node) || !Live(*p.node)) continue;
    s = AdaptNode(*p.node, step);
    if (!s.ok()) {
      s = WithLocation(*p.node, s);
      break;
    }
    pending_.erase(p.node);
  }
  pending_.clear();
  Reindex(*scope.graph, step.domain);  // adapters made and removed nodes
  return s;
}

absl::Status Converter::AdaptNode(ir::Node& node, const Step& step) {
  const std::string& op = node.op_type();
  if (schema::Versions(step.domain, op).empty()) {
    return absl::InvalidArgumentError(absl::StrCat(node.Describe(), ": operator ", op,
                                                   " is not defined in domain ", step.domain));
  }
  const schema::OpSchema* from = InForce(step.domain, op, step.from_opset);
  const schema::OpSchema* to = InForce(step.domain, op, step.to_opset);
  if (from == to) return absl::OkStatus();
  if (from == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(node.Describe(), ": operator ", op, " is not defined at ", step.domain,
                     " opset ", step.from_opset, " (the model is invalid before conversion)"));
  }
  const int from_v = from->since_version();
  const int to_v = to == nullptr ? kNotDefined : to->deprecated() ? kRemoved : to->since_version();
  const AdapterEntry* entry = AdapterRegistry::Global().Find(step.domain, op, from_v, to_v);
  if (entry == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("cannot convert ", node.Describe(), " from ", VersionLabel(from, op), " (",
                     step.domain, " opset ", step.from_opset, ") to ", VersionLabel(to, op),
                     " (opset ", step.to_opset, "): no adapter is registered for this change"));
  }
  const schema::OpSchema* target = (to != nullptr && !to->deprecated()) ? to : nullptr;
  Folder folder(
      [this, &step](const ir::Node& n) {
        std::vector<ir::OpsetImport> imports = *scope_->imports;
        const bool done = !pending_.contains(&n);
        for (ir::OpsetImport& imp : imports) {
          if (ir::SameDomain(imp.domain, step.domain))
            imp.version = done ? step.to_opset : step.from_opset;
        }
        return imports;
      },
      [this](const ir::Value* v) -> const ir::Type& { return types_.TypeOf(v); });
  AdapterContext ctx(&node, step, from, target, &names_, &folder, &types_);
  ctx.set_warnings(&report_.warnings);
  absl::Status s = entry->fn(ctx);
  if (s.ok()) s = Validate(node, ctx, step);
  NotifyAdapterObserver(*entry, s.ok());
  if (!s.ok()) {
    // A node whose outputs are compile-time constants need not be expressed at all: it is replaced
    // by its values (computed with the interpreter at the source opset). Only where the adapter
    // made no change (refusals, and compatible adapters failing the validation).
    const bool unchanged =
        entry->kind == AdapterKind::kRefuse || entry->kind == AdapterKind::kCompatible;
    if (unchanged && !node.is_erased() && FoldAway(node, ctx, folder)) {
      ctx.FlushDeadInitializers();
      ++report_.nodes_adapted;
      ++report_.nodes_rewritten;
      ++report_.nodes_folded;
      return absl::OkStatus();
    }
    return s;
  }
  ctx.FlushDeadInitializers();
  ++report_.nodes_adapted;
  if (entry->kind != AdapterKind::kCompatible) ++report_.nodes_rewritten;
  return absl::OkStatus();
}

bool Converter::FoldAway(ir::Node& node, AdapterContext& ctx, Folder& folder) {
  if (!node.subgraphs().empty()) return false;
  std::vector<std::optional<ir::Tensor>> values;
  for (size_t i = 0; i < node.num_outputs(); ++i) {
    ir::Value* out = node.output(i);
    if (out->is_omitted() || !out->has_uses()) {
      values.emplace_back();
      continue;
    }
    std::optional<ir::Tensor> t = folder.Fold(out);
    if (!t.has_value()) return false;
    values.push_back(std::move(t));
  }
  if (ctx.in_function()) return false;  // would need Constant nodes of the target opset
  for (size_t i = 0; i < node.num_outputs(); ++i) {
    if (!values[i].has_value()) continue;
    ir::Value* c = ctx.AddConstant(*std::move(values[i]), node.output(i)->name() + "_folded");
    if (!ctx.ReplaceOutput(i, c).ok()) return false;
  }
  return ctx.EraseNode().ok();
}

absl::Status Converter::Validate(ir::Node& node, AdapterContext& ctx, const Step& step) {
  absl::flat_hash_set<const ir::Node*> seen;
  for (ir::Node* n : ctx.touched()) {
    if (n->is_erased() || !seen.insert(n).second || !InDomain(*n, step.domain)) continue;
    absl::StatusOr<const schema::OpSchema*> schema =
        schema::FindInForce(step.domain, n->op_type(), step.to_opset);
    const std::string who = n == &node ? std::string("the node") : n->Describe();
    if (!schema.ok()) {
      return ctx.Error(absl::StrCat("after conversion ", who, " uses ", n->op_type(),
                                    ", which is not defined at opset ", step.to_opset));
    }
    schema::checker::NodeCheckOptions check;
    check.type_of = [this](const ir::Value* v) -> const ir::Type& { return types_.TypeOf(v); };
    check.implied_output_types = true;
    std::vector<std::string> problems;
    schema::checker::CheckNodeAgainstSchema(*n, **schema, check, &problems);
    if (!problems.empty()) {
      return ctx.Error(n == &node ? problems[0] : absl::StrCat(who, ": ", problems[0]));
    }
  }
  return absl::OkStatus();
}

void Converter::UpdateIrVersion(bool any_down, bool any_up) {
  const int64_t old_ir = model_.ir_version();
  int64_t needed = 3;
  std::string reason = "opset imports need IR 3";
  for (const ir::OpsetImport& imp : model_.opset_imports()) {
    absl::StatusOr<int64_t> ir = schema::MinIrVersionForOpset(imp.domain, imp.version);
    if (ir.ok() && *ir > needed) {
      needed = *ir;
      reason = absl::StrCat(ir::IsOnnxDomain(imp.domain) ? std::string(kOnnx) : imp.domain,
                            " opset ", imp.version, " needs IR ", *ir);
    }
  }
  // What the content needs (new initializers, types, ...) counts in every direction.
  IrRequirement content = ContentIrRequirement(model_);
  if (content.ir_version > needed) {
    needed = content.ir_version;
    reason = absl::StrCat(content.reason, " needs IR ", content.ir_version);
  }
  int64_t result;
  if (any_down && !any_up && options_.lower_ir_version) {
    result = needed;
    if (result > old_ir && old_ir > 0) reason += absl::StrCat(" (raised from ", old_ir, ")");
  } else if (needed > old_ir) {
    result = needed;
  } else {
    result = old_ir;
    reason = absl::StrCat("kept the model's IR ", old_ir, " (", reason, ")");
  }
  model_.set_ir_version(result);
  if (old_ir > 0 && old_ir < 4 && result >= 4) optimizer::UnlistSubgraphInitializerInputs(model_);
  report_.ir_from = old_ir;
  report_.ir_to = result;
  report_.ir_reason = reason;
}

}  // namespace

std::optional<int64_t> OnnxOpsetOf(const ir::Model& model) {
  std::optional<int64_t> v = model.OpsetVersion("");
  if (!v.has_value() && model.opset_imports().empty() && model.ir_version() > 0 &&
      model.ir_version() < 3) {
    return 1;
  }
  return v;
}

absl::StatusOr<std::unique_ptr<ir::Model>> ConvertOwnedModel(std::unique_ptr<ir::Model> model,
                                                             const ConvertOptions& options,
                                                             ConvertReport* report) {
  if (options.verify) {
    return absl::InvalidArgumentError("ConvertOwnedModel cannot verify: it keeps no original");
  }
  ConvertReport local;
  Converter c(*model, options, report != nullptr ? *report : local);
  RETURN_IF_ERROR(c.Run());
  return model;
}

absl::StatusOr<std::unique_ptr<ir::Model>> ConvertModel(const ir::Model& model,
                                                        const ConvertOptions& options,
                                                        ConvertReport* report) {
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> copy, ir::CloneModel(model));
  ConvertOptions unverified = options;
  unverified.verify = false;
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> converted,
                   ConvertOwnedModel(std::move(copy), unverified, report));
  if (options.verify) {
    std::vector<equivalence::OutputDifference> diffs;
    absl::Status e =
        equivalence::CheckEquivalent(model, *converted, options.verify_options, &diffs);
    if (!e.ok()) {
      return absl::Status(
          e.code(), absl::StrCat("the converted model was not proven equivalent: ", e.message()));
    }
  }
  return converted;
}

absl::Status ConvertModelInPlace(ir::Model& model, const ConvertOptions& options,
                                 ConvertReport* report) {
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> converted, ConvertModel(model, options, report));
  model.set_graph(converted->TakeGraph());
  model.mutable_functions().swap(converted->mutable_functions());
  model.mutable_opset_imports() = converted->opset_imports();
  model.set_ir_version(converted->ir_version());
  return absl::OkStatus();
}

absl::StatusOr<LowestResult> ConvertToLowestOpset(const ir::Model& model,
                                                  const ConvertOptions& options) {
  std::optional<int64_t> start = OnnxOpsetOf(model);
  if (!start.has_value()) return absl::InvalidArgumentError("the model does not import ai.onnx");
  LowestResult result;
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> current, ir::CloneModel(model));
  result.model = std::move(current);
  result.opset = *start;
  while (result.opset > 1) {
    ConvertOptions o = options;
    o.onnx_opset = result.opset - 1;
    o.ml_opset.reset();
    absl::StatusOr<std::unique_ptr<ir::Model>> next = ConvertModel(*result.model, o);
    if (!next.ok()) {
      result.refusal = std::string(next.status().message());
      break;
    }
    result.model = *std::move(next);
    --result.opset;
  }
  return result;
}

}  // namespace onnx_opt::converter
