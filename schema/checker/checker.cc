#include "schema/checker/checker.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/captures.h"
#include "ir/function.h"
#include "ir/opset_import.h"
#include "ir/verifier.h"
#include "schema/checker/control_flow_check.h"
#include "schema/checker/node_check.h"
#include "schema/checker/tensor_check.h"
#include "schema/domains.h"
#include "schema/inference/legacy_broadcast.h"
#include "schema/op_registry.h"
#include "schema/version_table.h"

namespace onnx_opt::schema::checker {
namespace {

// Operators ONNX once had as experimental and removed; its checker only warns about them.
bool IsRemovedExperimentalOp(const ir::Node& n) {
  static const auto* const kOps = new absl::flat_hash_set<std::string>{"ATen",
                                                                       "Affine",
                                                                       "ConstantFill",
                                                                       "Crop",
                                                                       "DynamicSlice",
                                                                       "GRUUnit",
                                                                       "GivenTensorFill",
                                                                       "ImageScaler",
                                                                       "ParametricSoftplus",
                                                                       "Scale",
                                                                       "ScaledTanh"};
  return n.is_onnx_domain() && kOps->contains(n.op_type());
}

std::string DomainName(std::string_view domain) { return std::string(CanonicalDomain(domain)); }

bool IsValidMapKey(ir::DataType t) {
  return ir::IsWholeByteInteger(t) || t == ir::DataType::kString;
}

std::string NodeLabel(const std::string& graph_label, const ir::Node& n, size_t index) {
  std::string out = absl::StrCat(graph_label, ", node ", index);
  if (!n.name().empty()) absl::StrAppend(&out, " '", n.name(), "'");
  absl::StrAppend(&out, " (", n.QualifiedOpType(), ")");
  return out;
}

// A node's label in messages ("graph 'g', node 3 'conv1' (Conv)"), spelled out the first time a
// message needs it: spelling it (and each output's) for every node of a model that passes was
// most of the allocations of a check.
class Where {
 public:
  Where(const std::string& graph_label, const ir::Node& n, size_t index)
      : graph_label_(graph_label), node_(n), index_(index) {}
  const std::string& str() const {
    if (text_.empty()) text_ = NodeLabel(graph_label_, node_, index_);
    return text_;
  }

 private:
  const std::string& graph_label_;
  const ir::Node& node_;
  size_t index_;
  mutable std::string text_;
};

std::string FunctionLabel(const ir::Function& f) {
  return absl::StrCat("function '", f.QualifiedName(), "'");
}

class Checker {
 public:
  Checker(const ir::Model& model, const CheckOptions& options, CheckResult* result)
      : model_(model), options_(options), result_(*result) {}

  void Run() {
    CheckHeader();
    CheckStructure();
    Scope main{&model_opsets_, nullptr, true};
    CheckGraph(model_.graph(), absl::StrCat("graph '", model_.graph().name(), "'"), main);
    CheckFunctions();
  }

 private:
  // Where a graph's nodes are checked: the opsets in force and the enclosing function, if any.
  struct Scope {
    const std::vector<ir::OpsetImport>* opsets;
    const ir::Function* function;
    bool main_graph;
  };

  void Error(std::string message) {
    if (options_.max_errors != 0 && result_.errors.size() >= options_.max_errors) {
      result_.truncated = true;
      return;
    }
    result_.errors.push_back(std::move(message));
  }
  void Warning(std::string message) { result_.warnings.push_back(std::move(message)); }

  // --- Model
  // ---------------------------------------------------------------------------------------

  void CheckHeader() {
    const int64_t ir = model_.ir_version();
    int64_t newest_ir = 0;
    for (const Release& r : Releases()) newest_ir = std::max(newest_ir, r.ir_version);
    if (ir <= 0) {
      Error("model: ir_version is not set (it must be a positive IR version)");
    } else if (ir > newest_ir) {
      Error(absl::StrCat("model: ir_version ", ir, " is newer than the newest IR version known (",
                         newest_ir, ")"));
    }
    model_opsets_ = model_.opset_imports();
    imports_onnx_ml_ = ir::FindOpsetVersion(model_opsets_, "ai.onnx.ml").has_value();
    if (ir >= 3 && model_opsets_.empty()) {
      Error(absl::StrCat("model: IR version ", ir,
                         " requires opset_import to name the operator sets used, but it is empty"));
    } else if (ir > 0 && ir < 3) {
      if (!model_opsets_.empty()) {
        Error(absl::StrCat("model: IR version ", ir, " (< 3) cannot have opset_import entries"));
      } else {
        model_opsets_.push_back(ir::OpsetImport{"", 1, {}});  // IR < 3 implies ai.onnx opset 1
      }
    }
    if (!(ir > 0 && ir < 3)) CheckOpsetImports(model_.opset_imports(), "model");

    absl::flat_hash_set<std::string> keys;
    for (const auto& [key, value] : model_.metadata_props()) {
      if (!keys.insert(key).second) {
        Error(absl::StrCat("model: metadata_props key '", key, "' appears more than once"));
      }
    }
  }

  void CheckOpsetImports(const std::vector<ir::OpsetImport>& imports, const std::string& owner) {
    const int64_t ir = model_.ir_version();
    for (size_t i = 0; i < imports.size(); ++i) {
      const ir::OpsetImport& imp = imports[i];
      const std::string domain = DomainName(imp.domain);
      bool duplicate = false;
      for (size_t j = 0; j < i; ++j) {
        if (!ir::SameDomain(imports[j].domain, imp.domain)) continue;
        // Two versions leave open which one the nodes use; the same one twice ("" and "ai.onnx",
        // say) does not, and ONNX's checker accepts it.
        if (imports[j].version != imp.version) {
          Error(absl::StrCat(owner, ": opset_import lists domain '", domain, "' twice (versions ",
                             imports[j].version, " and ", imp.version, ")"));
        } else {
          Warning(absl::StrCat(owner, ": opset_import lists domain '", domain, "' twice (version ",
                               imp.version, " both times)"));
        }
        duplicate = true;
        break;
      }
      if (duplicate) continue;
      absl::StatusOr<int> max_opset = MaxOpset(domain);
      if (max_opset.ok() &&
          (imp.version < 1 || (imp.version > *max_opset && !IsOpenDomain(domain)))) {
        Error(absl::StrCat(owner, ": imports opset ", imp.version, " of domain '", domain,
                           "', but its known opsets are 1 to ", *max_opset));
        continue;
      }
      if (!max_opset.ok() && imp.version < 1) {
        // Nothing in the spec numbers a custom domain's opsets, and ONNX's checker accepts this.
        Warning(absl::StrCat(owner, ": imports opset ", imp.version, " of domain '", domain,
                             "'; opset versions normally start at 1"));
        continue;
      }
      // ONNX's release table says which IR version an opset was released with. That is history,
      // not a validity rule (ONNX's checker and onnxruntime load IR 3 models at opset 9), so an
      // older ir_version only warns: runtimes of that IR version may not know the opset.
      if (ir <= 0) continue;
      absl::StatusOr<int64_t> max_for_ir = MaxOpsetForIrVersion(domain, ir);
      if (absl::IsNotFound(max_for_ir.status()) && !MinIrVersionForOpset(domain, 1).ok()) {
        continue;  // not a domain of the release table (custom, preview)
      }
      if (!max_for_ir.ok() || imp.version > *max_for_ir) {
        absl::StatusOr<int64_t> released = MinIrVersionForOpset(domain, imp.version);
        Warning(absl::StrCat(owner, ": opset ", imp.version, " of domain '", domain,
                             "' was released with IR version ",
                             released.ok() ? absl::StrCat(*released) : std::string("newer"),
                             ", but the model's ir_version is ", ir,
                             " (accepted; runtimes of IR version ", ir,
                             " may not know the opset)"));
      }
    }
  }

  // SSA, scoping and topological order: ir::Verify. It stops at the first problem; the message
  // names the graph and the node, and we add the node's index when we can find it.
  void CheckStructure() {
    absl::Status s = ir::Verify(model_);
    if (s.ok()) return;
    const std::string message(s.message());
    std::string where;
    auto scan = [&](const ir::Graph& g, const std::string& label, auto&& self) -> void {
      size_t index = 0;
      for (const ir::Node* n : g.nodes()) {
        if (!where.empty()) return;
        if (absl::StrContains(message, n->Describe())) {
          where = NodeLabel(label, *n, index);
          return;
        }
        for (const ir::Attribute& a : n->attributes()) {
          if (a.g) self(*a.g, SubgraphLabel(*a.g, a, NodeLabel(label, *n, index)), self);
          for (const auto& sub : a.graphs) {
            if (sub) self(*sub, SubgraphLabel(*sub, a, NodeLabel(label, *n, index)), self);
          }
        }
        ++index;
      }
    };
    scan(model_.graph(), absl::StrCat("graph '", model_.graph().name(), "'"), scan);
    for (const auto& f : model_.functions()) scan(f->body(), FunctionLabel(*f), scan);
    Error(where.empty() ? absl::StrCat("structure: ", message)
                        : absl::StrCat(where, ": structure: ", message));
  }

  static std::string SubgraphLabel(const ir::Graph& g, const ir::Attribute& a,
                                   const std::string& node_label) {
    return absl::StrCat("graph '", g.name(), "' (attribute '", a.name(), "' of ", node_label, ")");
  }

  // --- Graphs
  // --------------------------------------------------------------------------------------

  void CheckGraph(const ir::Graph& g, const std::string& label, const Scope& scope) {
    const bool function_body = g.owner_function() != nullptr;
    const int64_t ir = model_.ir_version();
    if (!function_body && g.name().empty()) Error(absl::StrCat(label, ": the graph has no name"));

    for (const ir::Value* v : g.inputs()) {
      CheckInterfaceType(v->type(), absl::StrCat(label, ": input '", v->name(), "'"), scope);
    }
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      const ir::Value* v = g.outputs()[i];
      if (v == nullptr) continue;  // reported by the structure check
      const std::optional<ir::OutputInfo>& info = g.output_info(i);
      CheckInterfaceType(info.has_value() ? info->type : v->type(),
                         absl::StrCat(label, ": output '", v->name(), "'"), scope);
    }
    if (function_body) {
      absl::flat_hash_set<const ir::Value*> seen;
      for (const ir::Value* v : g.outputs()) {
        if (v != nullptr && !seen.insert(v).second) {
          Error(absl::StrCat(label, ": output '", v->name(), "' is listed more than once"));
        }
      }
    }

    for (const ir::Value* v : g.initializers()) {
      if (v->initializer() != nullptr) {
        std::vector<std::string> problems;
        CheckTensor(*v->initializer(), absl::StrCat(label, ": initializer '", v->name(), "'"),
                    &problems);
        for (std::string& p : problems) Error(std::move(p));
        CheckElemTypeIr(v->initializer()->data_type(),
                        [&] { return absl::StrCat(label, ": initializer '", v->name(), "'"); });
      }
      if (ir > 0 && ir < 4 && !v->is_graph_input()) {
        Error(absl::StrCat(label, ": initializer '", v->name(),
                           "' is not a graph input; IR version ", ir,
                           " (< 4) requires every initializer to be listed as an input too"));
      } else if (ir >= 4 && !scope.main_graph && !function_body && v->is_graph_input()) {
        // IR.md: from IR 4, a subgraph initializer MUST NOT share its name with a subgraph input
        // unless the operator allows it. ONNX's checker does not enforce it, so we only warn.
        Warning(absl::StrCat(label, ": initializer '", v->name(),
                             "' is also a subgraph input, which IR version >= 4 discourages"));
      }
    }
    for (const ir::Value* v : g.sparse_initializers()) {
      if (v->sparse_initializer() == nullptr) continue;
      std::vector<std::string> problems;
      CheckSparseTensor(*v->sparse_initializer(),
                        absl::StrCat(label, ": sparse initializer '", v->name(), "'"), &problems);
      for (std::string& p : problems) Error(std::move(p));
      CheckElemTypeIr(v->sparse_initializer()->values.data_type(), [&] {
        return absl::StrCat(label, ": sparse initializer '", v->name(), "'");
      });
    }

    // Keyed by views of the nodes' own names: copying every name was a tenth of the check.
    absl::flat_hash_map<absl::string_view, size_t> node_names;
    node_names.reserve(g.num_nodes());
    size_t index = 0;
    for (const ir::Node* n : g.nodes()) {
      const Where where(label, *n, index);
      if (!n->name().empty()) {
        auto [it, inserted] = node_names.emplace(absl::string_view(n->name()), index);
        if (!inserted) {
          Warning(absl::StrCat(where.str(), ": node name '", n->name(), "' is also used by node ",
                               it->second, " (node names should be unique in a graph)"));
        }
      }
      for (size_t i = 0; i < n->num_outputs(); ++i) {
        const ir::Value* out = n->output(i);
        // Graph outputs were checked above, as part of the graph's interface.
        if (!out->is_omitted() && !out->type().is_none() && !out->is_graph_output()) {
          CheckDeclaredType(
              out->type(),
              [&] { return absl::StrCat(where.str(), ": output '", out->name(), "'"); },
              /*strict=*/false);
        }
      }
      CheckNode(*n, where, scope);
      ++index;
    }
  }

  // Graph inputs and outputs. The main graph must declare types: tensors with an element type and
  // a shape giving at least the rank (IR.md, "Graphs": "The main graph inputs and outputs are
  // required to have a shape, indicating the rank"; ONNX's checker enforces both). Subgraphs and
  // functions may leave them out.
  void CheckInterfaceType(const ir::Type& t, const std::string& what, const Scope& scope) {
    if (t.is_none()) {
      if (scope.main_graph)
        Error(absl::StrCat(what, " has no type; main graph inputs and outputs need one"));
      return;
    }
    CheckDeclaredType(
        t, [&] { return what; }, scope.main_graph);
  }

  // A declared type: known element types, non-negative dims, and the IR version that introduced
  // sequences and maps (6) and optionals (8). `strict`: everything a main graph interface needs.
  // `what` names the value, for messages only.
  void CheckDeclaredType(const ir::Type& t, absl::FunctionRef<std::string()> what, bool strict) {
    using K = ir::Type::Kind;
    const int64_t ir = model_.ir_version();
    switch (t.kind()) {
      case K::kNone:
        if (strict) Error(absl::StrCat(what(), ": a type is missing"));
        return;
      case K::kTensor:
      case K::kSparseTensor: {
        const char* kind = t.kind() == K::kTensor ? "tensor" : "sparse tensor";
        if (t.elem_type() == ir::DataType::kUndefined) {
          if (strict) Error(absl::StrCat(what(), ": ", kind, " type has no element type"));
        } else if (!ir::IsKnownDataType(t.elem_type())) {
          Error(absl::StrCat(what(), ": unknown element type ", static_cast<int>(t.elem_type())));
        } else {
          CheckElemTypeIr(t.elem_type(), what);
        }
        if (!t.shape().has_value()) {
          if (strict && options_.require_main_graph_shapes) {
            Error(absl::StrCat(what(), ": ", kind,
                               " type has no shape; main graph inputs and outputs need at least "
                               "a rank"));
          }
        } else {
          for (const ir::Dim& d : t.shape()->dims()) {
            if (d.is_known() && d.value() < 0) {
              Error(absl::StrCat(what(), ": shape ", ir::ShapeToString(*t.shape()),
                                 " has a negative dimension"));
              break;
            }
          }
        }
        return;
      }
      case K::kSequence:
      case K::kOptional: {
        const bool seq = t.kind() == K::kSequence;
        const int64_t since = seq ? 6 : 8;
        if (ir > 0 && ir < since && !(seq && imports_onnx_ml_)) {
          Error(absl::StrCat(what(), ": ", seq ? "sequence" : "optional",
                             " types need IR version >= ", since, " (the model has ", ir, ")"));
        }
        if (!t.has_inner() || t.inner().is_none()) {
          if (strict)
            Error(absl::StrCat(what(), ": ", seq ? "sequence" : "optional",
                               " type has no element type"));
          return;
        }
        CheckDeclaredType(t.inner(), what, false);
        return;
      }
      case K::kMap: {
        if (ir > 0 && ir < 6 && !imports_onnx_ml_) {
          Error(absl::StrCat(what(), ": map types need IR version >= 6 (the model has ", ir, ")"));
        }
        if (t.elem_type() == ir::DataType::kUndefined) {
          if (strict) Error(absl::StrCat(what(), ": map type has no key type"));
        } else if (!IsValidMapKey(t.elem_type())) {
          Error(absl::StrCat(what(), ": map key type ", ir::DataTypeName(t.elem_type()),
                             " is not allowed (integers or string)"));
        }
        if (!t.has_inner() || t.inner().is_none()) {
          if (strict) Error(absl::StrCat(what(), ": map type has no value type"));
          return;
        }
        CheckDeclaredType(t.inner(), what, false);
        return;
      }
      case K::kOpaque:
        return;
    }
  }

  // An element type the model's IR version has (float8 came with IR 9, int4 with 10, float4e2m1
  // with 11, ...: ir/data_type.h). Runtimes refuse the newer ones in an older IR (onnxruntime does
  // float8 in IR 8), unlike an opset newer than the IR version, which only warns.
  void CheckElemTypeIr(ir::DataType t, absl::FunctionRef<std::string()> what) {
    const int64_t ir = model_.ir_version();
    const int64_t need = ir::IrVersionForDataType(t);
    if (ir <= 0 || ir >= need) return;
    Error(absl::StrCat(what(), ": element type ", ir::DataTypeName(t),
                       " needs IR version >= ", need, " (the model has ", ir, ")"));
  }

  // The element types anywhere in a type (a type proto attribute's).
  void CheckTypeElemIr(const ir::Type& t, absl::FunctionRef<std::string()> what) {
    using K = ir::Type::Kind;
    if (t.kind() == K::kTensor || t.kind() == K::kSparseTensor || t.kind() == K::kMap) {
      CheckElemTypeIr(t.elem_type(), what);
    }
    if (t.has_inner()) CheckTypeElemIr(t.inner(), what);
  }

  // --- Nodes
  // ---------------------------------------------------------------------------------------

  void CheckNode(const ir::Node& n, const Where& where, const Scope& scope) {
    if (n.op_type().empty()) {
      Error(absl::StrCat(where.str(), ": op_type is empty"));
      return;
    }
    if (n.num_inputs() == 0 && n.num_outputs() == 0) {
      Error(absl::StrCat(where.str(), ": the node has no inputs and no outputs"));
    }
    // A node has a handful of attributes: comparing pairs beats hashing copies of their names.
    const auto& attrs = n.attributes();
    for (size_t i = 0; i < attrs.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (attrs[j].name() == attrs[i].name()) {
          Error(absl::StrCat(where.str(), ": attribute '", attrs[i].name(),
                             "' appears more than once"));
          break;
        }
      }
      CheckAttribute(attrs[i], where, scope);
    }
    CheckImpliedOutputTypeIr(n, where);

    const std::string domain = DomainName(n.domain());
    const std::optional<int64_t> version = ir::FindOpsetVersion(*scope.opsets, n.domain());
    if (!version.has_value()) {
      Error(absl::StrCat(
          where.str(), ": domain '", domain, "' is not imported (no opset_import entry in ",
          scope.function ? FunctionLabel(*scope.function) : std::string("the model"), ")"));
      return;
    }
    if (IsRemovedExperimentalOp(n)) {
      Warning(absl::StrCat(where.str(), ": ", n.op_type(),
                           " is a removed experimental ONNX operator; it is not checked"));
      return;
    }
    if (const ir::Function* f = FindLocalFunction(n)) {
      CheckFunctionCall(n, *f, where);
      return;
    }
    if (!n.overload().empty()) {
      Error(absl::StrCat(where.str(), ": calls function '", domain, "::", n.op_type(), ":",
                         n.overload(), "', which the model does not define"));
      return;
    }
    if (!MaxOpset(domain).ok() || (IsOpenDomain(domain) && Versions(domain, n.op_type()).empty())) {
      // A custom domain, or an operator of an open domain we have no schema for: accepted when
      // imported, not checked beyond structure.
      if (options_.check_custom_domains) {
        Error(absl::StrCat(where.str(), ": ", n.QualifiedOpType(),
                           " is neither a known operator nor a model-local function"));
      }
      return;
    }
    absl::StatusOr<const OpSchema*> schema = FindInForce(domain, n.op_type(), *version);
    if (!schema.ok()) {
      Error(absl::StrCat(where.str(), ": ", schema.status().message()));
      return;
    }
    if (scope.function != nullptr && !options_.skip_opset_compatibility_check) {
      CheckOpsetCompatibility(n, **schema, *version, where);
    }
    std::vector<std::string> problems;
    NodeCheckOptions node_options;
    node_options.check_types = options_.check_type_constraints;
    CheckNodeAgainstSchema(n, **schema, node_options, &problems);
    CheckControlFlowNode(n, **schema, options_.check_type_constraints, &problems);
    for (const std::string& p : problems) Error(absl::StrCat(where.str(), ": ", p));
    if (schema::inference::UsesLegacyBroadcast(n.op_type(), (*schema)->since_version())) {
      WarnLegacyExpansion(n, where);
    }
  }

  // Before opset 7, B of broadcast=1 with size-1 dims where A has others ("1-dim expansion doesn't
  // work yet"): accepted, as ONNX's checker does, and read as numpy reads it (legacy_broadcast.h);
  // a warning says so where the declared shapes show it. Shapes that break the rule otherwise are
  // left to the interpreter and the converter, which refuse them (ONNX's checker does not look).
  void WarnLegacyExpansion(const ir::Node& n, const Where& where) {
    const ir::Attribute* broadcast = n.FindAttribute("broadcast");
    if (broadcast == nullptr || broadcast->is_reference() ||
        broadcast->kind() != ir::AttributeKind::kInt || broadcast->i == 0 || n.num_inputs() < 2 ||
        !n.has_input(0) || !n.has_input(1)) {
      return;
    }
    const ir::Type& ta = n.input(0)->type();
    const ir::Type& tb = n.input(1)->type();
    if (ta.kind() != ir::Type::Kind::kTensor || tb.kind() != ir::Type::Kind::kTensor ||
        !ta.shape().has_value() || !tb.shape().has_value()) {
      return;
    }
    std::optional<int64_t> axis;
    if (const ir::Attribute* a = n.FindAttribute("axis");
        a != nullptr && !a->is_reference() && a->kind() == ir::AttributeKind::kInt) {
      axis = a->i;
    }
    std::vector<int64_t> expanded;
    if (!schema::inference::LegacyBroadcastShape(*ta.shape(), *tb.shape(), true, axis, &expanded)
             .ok() ||
        expanded.empty()) {
      return;
    }
    Warning(absl::StrCat(
        where.str(), ": ",
        schema::inference::DescribeLegacyExpansion(*ta.shape(), *tb.shape(), expanded)));
  }

  // The element type an attribute gives output 0 (Cast's `to`, RandomNormal's `dtype`, ...), where
  // the output does not declare one (a declared one is checked with the value). Constant's and
  // ConstantOfShape's come from tensors, checked as attributes.
  void CheckImpliedOutputTypeIr(const ir::Node& n, const Where& where) {
    if (n.num_outputs() == 0 || n.output(0)->is_omitted() || n.op_type() == "Constant" ||
        n.op_type() == "ConstantOfShape") {
      return;
    }
    const ir::Type& declared = n.output(0)->type();
    if ((declared.is_tensor() || declared.kind() == ir::Type::Kind::kSparseTensor) &&
        declared.elem_type() != ir::DataType::kUndefined) {
      return;
    }
    if (std::optional<ir::DataType> t = ImpliedOutputElemType(n)) {
      CheckElemTypeIr(*t, [&] {
        return absl::StrCat(where.str(), ": output 0, as the node's attributes type it");
      });
    }
  }

  // ONNX's check_opset_compatibility: an op of a function body must mean the same under the
  // function's opset import as under the model's, when the model imports the domain too.
  void CheckOpsetCompatibility(const ir::Node& n, const OpSchema& schema, int64_t function_version,
                               const Where& where) {
    const std::optional<int64_t> model_version = ir::FindOpsetVersion(model_opsets_, n.domain());
    if (!model_version.has_value() || *model_version == function_version) return;
    absl::StatusOr<const OpSchema*> model_schema =
        FindInForce(n.domain(), n.op_type(), *model_version);
    if (model_schema.ok() && (*model_schema)->since_version() == schema.since_version()) return;
    Error(absl::StrCat(where.str(), ": the function imports opset ", function_version,
                       " of domain '", DomainName(n.domain()), "' but the model imports ",
                       *model_version, ", and ", n.op_type(), " differs between them (",
                       schema.DebugName(), " vs ",
                       model_schema.ok() ? (*model_schema)->DebugName()
                                         : std::string(model_schema.status().message()),
                       ")"));
  }

  void CheckAttribute(const ir::Attribute& a, const Where& where, const Scope& scope) {
    // Spelled out only where it is used: most attributes are plain numbers that pass.
    const auto what = [&] { return absl::StrCat(where.str(), ": attribute '", a.name(), "'"); };
    if (a.name().empty()) Error(absl::StrCat(where.str(), ": an attribute has no name"));
    if (a.kind() == ir::AttributeKind::kUndefined) {
      Error(absl::StrCat(what(), " has no type"));
      return;
    }
    if (a.is_reference()) {
      if (scope.function == nullptr) {
        Error(absl::StrCat(what(), " refers to '", a.ref_attr_name(),
                           "' (ref_attr_name), which is only allowed inside a function body"));
      } else if (!FunctionDeclaresAttribute(*scope.function, a.ref_attr_name())) {
        Error(absl::StrCat(what(), " refers to attribute '", a.ref_attr_name(), "', which ",
                           FunctionLabel(*scope.function), " does not declare"));
      }
      return;
    }
    std::vector<std::string> problems;
    switch (a.kind()) {
      case ir::AttributeKind::kTensor:
        CheckTensor(a.t, what(), &problems);
        CheckElemTypeIr(a.t->data_type(), what);
        break;
      case ir::AttributeKind::kTensors:
        for (size_t i = 0; i < a.tensors.size(); ++i) {
          CheckTensor(a.tensors[i], absl::StrCat(what(), " tensor ", i), &problems);
          CheckElemTypeIr(a.tensors[i].data_type(),
                          [&] { return absl::StrCat(what(), " tensor ", i); });
        }
        break;
      case ir::AttributeKind::kSparseTensor:
        CheckSparseTensor(a.sparse_tensor, what(), &problems);
        CheckElemTypeIr(a.sparse_tensor->values.data_type(), what);
        break;
      case ir::AttributeKind::kSparseTensors:
        for (size_t i = 0; i < a.sparse_tensors.size(); ++i) {
          CheckSparseTensor(a.sparse_tensors[i], absl::StrCat(what(), " tensor ", i), &problems);
          CheckElemTypeIr(a.sparse_tensors[i].values.data_type(),
                          [&] { return absl::StrCat(what(), " tensor ", i); });
        }
        break;
      case ir::AttributeKind::kTypeProto:
        CheckTypeElemIr(*a.tp, what);
        break;
      case ir::AttributeKind::kTypeProtos:
        for (size_t i = 0; i < a.type_protos.size(); ++i) {
          CheckTypeElemIr(a.type_protos[i], [&] { return absl::StrCat(what(), " type ", i); });
        }
        break;
      case ir::AttributeKind::kGraph:
        if (a.g == nullptr) {
          problems.push_back(absl::StrCat(what(), " has type GRAPH but holds no graph"));
        } else {
          CheckGraph(*a.g, SubgraphLabel(*a.g, a, where.str()),
                     Scope{scope.opsets, scope.function, false});
        }
        break;
      case ir::AttributeKind::kGraphs:
        for (const auto& g : a.graphs) {
          if (g == nullptr) {
            problems.push_back(absl::StrCat(what(), " holds a missing graph"));
          } else {
            CheckGraph(*g, SubgraphLabel(*g, a, where.str()),
                       Scope{scope.opsets, scope.function, false});
          }
        }
        break;
      default:
        break;
    }
    for (std::string& p : problems) Error(std::move(p));
  }

  // --- Functions
  // -----------------------------------------------------------------------------------

  const ir::Function* FindLocalFunction(const ir::Node& n) const {
    for (const auto& f : model_.functions()) {
      if (ir::SameDomain(f->domain(), n.domain()) && f->name() == n.op_type() &&
          f->overload() == n.overload()) {
        return f.get();
      }
    }
    return nullptr;
  }

  static bool FunctionDeclaresAttribute(const ir::Function& f, std::string_view name) {
    for (const std::string& a : f.attribute_names()) {
      if (a == name) return true;
    }
    for (const ir::Attribute& a : f.attribute_defaults()) {
      if (a.name() == name) return true;
    }
    return false;
  }

  // A call of a model-local function: no more actual inputs and outputs than formal ones (missing
  // trailing ones are absent), and only attributes the function declares.
  void CheckFunctionCall(const ir::Node& n, const ir::Function& f, const Where& where) {
    const size_t formal_in = f.body().inputs().size();
    const size_t formal_out = f.body().outputs().size();
    if (n.num_inputs() > formal_in) {
      Error(absl::StrCat(where.str(), ": has ", n.num_inputs(), " inputs but ", FunctionLabel(f),
                         " takes at most ", formal_in));
    }
    if (n.num_outputs() > formal_out) {
      Error(absl::StrCat(where.str(), ": has ", n.num_outputs(), " outputs but ", FunctionLabel(f),
                         " produces at most ", formal_out));
    }
    for (const ir::Attribute& a : n.attributes()) {
      if (!FunctionDeclaresAttribute(f, a.name())) {
        std::vector<std::string> declared(f.attribute_names());
        for (const ir::Attribute& d : f.attribute_defaults()) declared.push_back(d.name());
        Error(absl::StrCat(
            where.str(), ": attribute '", a.name(), "' is not declared by ", FunctionLabel(f),
            declared.empty() ? " (it has no attributes)"
                             : absl::StrCat(" (it has: ", absl::StrJoin(declared, ", "), ")")));
      }
    }
  }

  void CheckFunctions() {
    const auto& functions = model_.functions();
    if (functions.empty()) return;
    const int64_t ir = model_.ir_version();
    if (ir > 0 && ir < 8) {
      Error(absl::StrCat("model: model-local functions need IR version >= 8 (the model has ", ir,
                         ")"));
    }
    for (size_t i = 0; i < functions.size(); ++i) {
      const ir::Function& f = *functions[i];
      const std::string label = FunctionLabel(f);
      for (size_t j = 0; j < i; ++j) {
        const ir::Function& o = *functions[j];
        if (ir::SameDomain(o.domain(), f.domain()) && o.name() == f.name() &&
            o.overload() == f.overload()) {
          Error(absl::StrCat(label,
                             ": defined more than once (domain, name and overload must be "
                             "unique)"));
          break;
        }
      }
      if (f.name().empty()) Error(absl::StrCat(label, ": the function has no name"));
      absl::flat_hash_set<std::string> attrs;
      for (const std::string& a : f.attribute_names()) {
        if (a.empty()) Error(absl::StrCat(label, ": an attribute has no name"));
        if (!attrs.insert(a).second) {
          Error(absl::StrCat(label, ": attribute '", a, "' is declared more than once"));
        }
      }
      for (const ir::Attribute& a : f.attribute_defaults()) {
        if (a.name().empty()) Error(absl::StrCat(label, ": an attribute has no name"));
        if (!attrs.insert(a.name()).second) {
          Error(absl::StrCat(label, ": attribute '", a.name(), "' is declared more than once"));
        }
        if (a.kind() == ir::AttributeKind::kUndefined) {
          Error(absl::StrCat(label, ": default of attribute '", a.name(), "' has no type"));
        }
      }
      CheckOpsetImports(f.opset_imports(), label);
      CheckGraph(f.body(), label, Scope{&f.opset_imports(), &f, false});
    }
    CheckRecursion();
  }

  // Functions may call functions, but not themselves, directly or through others.
  void CheckRecursion() {
    absl::flat_hash_map<const ir::Function*, std::vector<const ir::Function*>> calls;
    for (const auto& f : model_.functions()) {
      auto& callees = calls[f.get()];
      ir::ForEachNodeRecursive(f->body(), [&](const ir::Node* n) {
        if (const ir::Function* callee = FindLocalFunction(*n)) callees.push_back(callee);
      });
    }
    enum State { kNew, kActive, kDone };
    absl::flat_hash_map<const ir::Function*, State> state;
    std::vector<const ir::Function*> path;
    std::function<bool(const ir::Function*)> visit = [&](const ir::Function* f) {
      State& s = state[f];
      if (s == kDone) return false;
      if (s == kActive) {
        std::vector<std::string> names;
        auto start = std::find(path.begin(), path.end(), f);
        for (auto it = start; it != path.end(); ++it) names.push_back((*it)->QualifiedName());
        names.push_back(f->QualifiedName());
        Error(absl::StrCat(FunctionLabel(*f), ": calls itself (", absl::StrJoin(names, " -> "),
                           "); recursive functions cannot be expanded"));
        return true;
      }
      s = kActive;
      path.push_back(f);
      for (const ir::Function* callee : calls[f]) {
        if (visit(callee)) return true;
      }
      path.pop_back();
      state[f] = kDone;
      return false;
    };
    for (const auto& f : model_.functions()) {
      path.clear();
      if (visit(f.get())) return;
    }
  }

  const ir::Model& model_;
  const CheckOptions& options_;
  CheckResult& result_;
  std::vector<ir::OpsetImport> model_opsets_;
  // ONNX-ML had sequence and map types (ZipMap's output) before ONNX proper got them in IR 6.
  bool imports_onnx_ml_ = false;
};

}  // namespace

absl::Status CheckResult::status() const {
  if (errors.empty()) return absl::OkStatus();
  std::string message = absl::StrJoin(errors, "\n");
  if (errors.size() > 1) message = absl::StrCat(errors.size(), " errors:\n", message);
  if (truncated) absl::StrAppend(&message, "\n(more errors not shown)");
  return absl::InvalidArgumentError(message);
}

CheckResult Check(const ir::Model& model, const CheckOptions& options) {
  CheckResult result;
  Checker(model, options, &result).Run();
  return result;
}

absl::Status CheckModel(const ir::Model& model, const CheckOptions& options,
                        std::vector<std::string>* warnings) {
  CheckResult result = Check(model, options);
  if (warnings != nullptr) {
    warnings->insert(warnings->end(), result.warnings.begin(), result.warnings.end());
  }
  return result.status();
}

}  // namespace onnx_opt::schema::checker
