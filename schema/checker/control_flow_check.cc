#include "schema/checker/control_flow_check.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "ir/attribute.h"
#include "ir/graph.h"
#include "schema/checker/type_spec.h"

namespace onnx_opt::schema::checker {
namespace {

// Debian's abseil has its own string_view type; convert at the StrCat boundary.
absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::string Count(size_t n, std::string_view word) {
  return absl::StrCat(n, " ", Sv(word), n == 1 ? "" : "s");
}

// The subgraph held by attribute `name`, or null when it is missing or not a graph.
const ir::Graph* Subgraph(const ir::Node& node, std::string_view name) {
  const ir::Attribute* a = node.FindAttribute(name);
  if (a == nullptr || a->is_reference() || a->kind() != ir::AttributeKind::kGraph) return nullptr;
  return a->g.get();
}

std::string GraphLabel(std::string_view attribute, const ir::Graph& g) {
  return absl::StrCat(Sv(attribute), " '", g.name(), "'");
}

const ir::Type& NoType() {
  static const ir::Type* const kNone = new ir::Type();
  return *kNone;
}

// A graph output's declared type. (A missing output value is the structure check's to report.)
const ir::Type& OutputType(const ir::Graph& g, size_t i) {
  const std::optional<ir::OutputInfo>& info = g.output_info(i);
  if (info.has_value()) return info->type;
  return g.outputs()[i] != nullptr ? g.outputs()[i]->type() : NoType();
}

std::string OutputName(const ir::Graph& g, size_t i) {
  return g.outputs()[i] != nullptr ? g.outputs()[i]->name() : "";
}

const ir::Type& InputType(const ir::Node& node, size_t i) {
  return node.has_input(i) ? node.input(i)->type() : NoType();
}

const ir::Type& NodeOutputType(const ir::Node& node, size_t i) { return node.output(i)->type(); }

// Inputs at the end of `g` that have an initializer: IR <= 3 constants, which the operator does not
// pass (see the header).
size_t TrailingInitializedInputs(const ir::Graph& g) {
  size_t n = 0;
  for (size_t i = g.inputs().size(); i > 0 && g.inputs()[i - 1]->initializer() != nullptr; --i) ++n;
  return n;
}

// True when the body's inputs can be the `expected` ones the operator passes.
bool TakesInputs(const ir::Graph& g, size_t expected) {
  const size_t n = g.inputs().size();
  return expected <= n && n - TrailingInitializedInputs(g) <= expected;
}

std::string InputCountProblem(std::string_view label, const ir::Graph& g, size_t expected,
                              std::string_view why) {
  return absl::StrCat(Sv(label), " takes ", Count(g.inputs().size(), "input"),
                      " but the node passes ", expected, " (", Sv(why), ")");
}

// A tensor's known element type, or kUndefined.
ir::DataType KnownElementType(const ir::Type& t) {
  return t.kind() == ir::Type::Kind::kTensor ? t.elem_type() : ir::DataType::kUndefined;
}

// An optional's element type, or `t` itself. A loop-carried value may start as optional(T) and come
// back from the body as T (ONNX's own test_loop16_seq_none), so optional-ness is not compared.
const ir::Type& WithoutOptional(const ir::Type& t) {
  return t.kind() == ir::Type::Kind::kOptional && t.has_inner() ? t.inner() : t;
}

// The two sides declare different types (shapes aside; unknown parts agree with anything).
bool TypesDiffer(const ir::Type& a, const ir::Type& b) {
  return !Compatible(WithoutOptional(a), WithoutOptional(b));
}

// Both are tensors of known, different element types (for values that gain or lose an axis between
// the node and its body, where only the element type must agree).
bool ElementTypesDiffer(const ir::Type& a, const ir::Type& b) {
  const ir::DataType ea = KnownElementType(a), eb = KnownElementType(b);
  return ea != ir::DataType::kUndefined && eb != ir::DataType::kUndefined && ea != eb;
}

// `t` is known not to be a tensor of element type `want`.
bool IsNotTensorOf(const ir::Type& t, ir::DataType want) {
  if (t.is_none()) return false;
  if (t.kind() != ir::Type::Kind::kTensor) return true;
  return t.elem_type() != ir::DataType::kUndefined && t.elem_type() != want;
}

class ControlFlowCheck {
 public:
  ControlFlowCheck(const ir::Node& node, bool check_types, std::vector<std::string>* problems)
      : node_(node), check_types_(check_types), problems_(*problems) {}

  void If() {
    for (const char* name : {"then_branch", "else_branch"}) {
      const ir::Graph* g = Subgraph(node_, name);
      if (g == nullptr) continue;
      const std::string label = GraphLabel(name, *g);
      if (!TakesInputs(*g, 0)) {
        const ir::Value* first =
            *std::find_if(g->inputs().begin(), g->inputs().end(),
                          [](const ir::Value* v) { return v->initializer() == nullptr; });
        Problem(absl::StrCat(label, " takes ", Count(g->inputs().size(), "input"),
                             " but If passes none (input '", first->name(), "')"));
      }
      if (g->outputs().size() != node_.num_outputs()) {
        Problem(absl::StrCat(label, " produces ", Count(g->outputs().size(), "output"),
                             " but the node has ", Count(node_.num_outputs(), "output"),
                             " (each branch must produce one per node output)"));
        continue;
      }
      for (size_t i = 0; check_types_ && i < g->outputs().size(); ++i) {
        ExpectSameType(OutputType(*g, i),
                       absl::StrCat(label, " output ", i, " '", OutputName(*g, i), "'"),
                       NodeOutputType(node_, i), absl::StrCat("node output ", i));
      }
    }
    const ir::Graph* then_g = Subgraph(node_, "then_branch");
    const ir::Graph* else_g = Subgraph(node_, "else_branch");
    if (!check_types_ || then_g == nullptr || else_g == nullptr) return;
    const size_t n = std::min(then_g->outputs().size(), else_g->outputs().size());
    for (size_t i = 0; i < n; ++i) {
      ExpectSameType(OutputType(*then_g, i), absl::StrCat("then_branch output ", i),
                     OutputType(*else_g, i), absl::StrCat("else_branch output ", i));
    }
  }

  void Loop() {
    const ir::Graph* body = Subgraph(node_, "body");
    if (body == nullptr || node_.num_inputs() < 2) return;  // the schema check reports these
    const std::string label = GraphLabel("body", *body);
    const size_t carried = node_.num_inputs() - 2;
    const bool inputs_fit = TakesInputs(*body, 2 + carried);
    if (!inputs_fit) {
      Problem(InputCountProblem(
          label, *body, 2 + carried,
          absl::StrCat("iteration number, condition and ", Count(carried, "loop-carried value"))));
    }
    if (node_.num_outputs() < carried) {
      Problem(absl::StrCat("has ", Count(carried, "loop-carried input"), " but ",
                           Count(node_.num_outputs(), "output"),
                           "; the first outputs are the final loop-carried values"));
      return;
    }
    const size_t scans = node_.num_outputs() - carried;
    if (body->outputs().size() != 1 + node_.num_outputs()) {
      Problem(absl::StrCat(label, " produces ", Count(body->outputs().size(), "output"),
                           " but the node needs ", 1 + node_.num_outputs(), " (condition, ",
                           Count(carried, "loop-carried value"), " and ",
                           Count(scans, "scan output"), ")"));
      return;
    }
    if (!check_types_) return;
    // Without the right inputs, the body's inputs cannot be matched to the node's.
    const size_t body_inputs = inputs_fit ? body->inputs().size() : 0;
    if (body_inputs > 0 && IsNotTensorOf(body->inputs()[0]->type(), ir::DataType::kInt64)) {
      Problem(absl::StrCat(label, " input 0 '", body->inputs()[0]->name(),
                           "' (iteration number) has type ", TypeName(body->inputs()[0]->type()),
                           " but must be tensor(int64)"));
    }
    if (body_inputs > 1 && IsNotTensorOf(body->inputs()[1]->type(), ir::DataType::kBool)) {
      Problem(absl::StrCat(label, " input 1 '", body->inputs()[1]->name(),
                           "' (condition) has type ", TypeName(body->inputs()[1]->type()),
                           " but must be tensor(bool)"));
    }
    if (IsNotTensorOf(OutputType(*body, 0), ir::DataType::kBool)) {
      Problem(absl::StrCat(label, " output 0 '", OutputName(*body, 0), "' (condition) has type ",
                           TypeName(OutputType(*body, 0)), " but must be tensor(bool)"));
    }
    for (size_t i = 0; i < carried; ++i) {
      const std::string initial = absl::StrCat("node input ", 2 + i);
      if (2 + i < body_inputs) {
        ExpectSameType(body->inputs()[2 + i]->type(), absl::StrCat(label, " input ", 2 + i),
                       InputType(node_, 2 + i), initial);
      }
      ExpectSameType(OutputType(*body, 1 + i), absl::StrCat(label, " output ", 1 + i),
                     InputType(node_, 2 + i), initial);
      ExpectSameType(NodeOutputType(node_, i), absl::StrCat("node output ", i),
                     InputType(node_, 2 + i), initial);
    }
    for (size_t j = 0; j < scans; ++j) {
      ExpectSameElementType(
          OutputType(*body, 1 + carried + j), absl::StrCat(label, " output ", 1 + carried + j),
          NodeOutputType(node_, carried + j), absl::StrCat("node output ", carried + j));
    }
  }

  // Scan-8 (`batched`) has sequence_lens first and a batch axis on every input and output.
  void Scan(bool batched) {
    const ir::Graph* body = Subgraph(node_, "body");
    const ir::Attribute* m_attr = node_.FindAttribute("num_scan_inputs");
    if (body == nullptr || m_attr == nullptr || m_attr->kind() != ir::AttributeKind::kInt) return;
    const std::string label = GraphLabel("body", *body);
    const size_t first = batched ? 1 : 0;
    const int64_t m = m_attr->i;
    const size_t values = node_.num_inputs() > first ? node_.num_inputs() - first : 0;
    if (m < 0 || static_cast<uint64_t>(m) > values) {
      Problem(absl::StrCat("num_scan_inputs is ", m, " but the node has ", Count(values, "input"),
                           batched ? " after sequence_lens" : "",
                           " (the scan inputs are the last ones)"));
      return;
    }
    const size_t scan_inputs = static_cast<size_t>(m);
    const size_t states = values - scan_inputs;
    const bool inputs_fit = TakesInputs(*body, values);
    if (!inputs_fit) {
      Problem(InputCountProblem(
          label, *body, values,
          absl::StrCat(Count(states, "state value"), " and ", Count(scan_inputs, "scan input"))));
    }
    if (node_.num_outputs() < states) {
      Problem(absl::StrCat("has ", Count(states, "state input"), " but ",
                           Count(node_.num_outputs(), "output"),
                           "; the first outputs are the final state values"));
      return;
    }
    const size_t scan_outputs = node_.num_outputs() - states;
    if (body->outputs().size() != node_.num_outputs()) {
      Problem(absl::StrCat(label, " produces ", Count(body->outputs().size(), "output"),
                           " but the node has ", node_.num_outputs(), " (",
                           Count(states, "state value"), " and ",
                           Count(scan_outputs, "scan output"), ")"));
      return;
    }
    for (const char* name :
         batched ? std::vector<const char*>{"directions"}
                 : std::vector<const char*>{"scan_input_directions", "scan_input_axes"}) {
      ExpectListLength(name, scan_inputs, "scan input");
    }
    if (!batched) {
      for (const char* name : {"scan_output_directions", "scan_output_axes"}) {
        ExpectListLength(name, scan_outputs, "scan output");
      }
    }
    if (!check_types_) return;
    const size_t body_inputs = inputs_fit ? body->inputs().size() : 0;
    for (size_t i = 0; i < values; ++i) {
      if (i >= body_inputs) break;
      const ir::Type& outer = InputType(node_, first + i);
      const std::string what = absl::StrCat(label, " input ", i);
      const std::string outer_what = absl::StrCat("node input ", first + i);
      // Scan inputs lose their scan axis in the body, and Scan-8 values their batch axis.
      if (batched || i >= states) {
        ExpectSameElementType(body->inputs()[i]->type(), what, outer, outer_what);
      } else {
        ExpectSameType(body->inputs()[i]->type(), what, outer, outer_what);
      }
    }
    for (size_t i = 0; i < node_.num_outputs(); ++i) {
      const std::string what = absl::StrCat(label, " output ", i);
      const std::string outer_what = absl::StrCat("node output ", i);
      if (batched || i >= states) {
        ExpectSameElementType(OutputType(*body, i), what, NodeOutputType(node_, i), outer_what);
      } else {
        ExpectSameType(OutputType(*body, i), what, NodeOutputType(node_, i), outer_what);
        ExpectSameType(OutputType(*body, i), what, InputType(node_, first + i),
                       absl::StrCat("node input ", first + i));
      }
    }
  }

 private:
  void Problem(std::string p) { problems_.push_back(std::move(p)); }

  void ExpectSameType(const ir::Type& a, const std::string& a_what, const ir::Type& b,
                      const std::string& b_what) {
    if (TypesDiffer(a, b)) {
      Problem(
          absl::StrCat(a_what, " has type ", TypeName(a), " but ", b_what, " has ", TypeName(b)));
    }
  }

  void ExpectSameElementType(const ir::Type& a, const std::string& a_what, const ir::Type& b,
                             const std::string& b_what) {
    if (ElementTypesDiffer(a, b)) {
      Problem(absl::StrCat(a_what, " has element type ", ir::DataTypeName(a.elem_type()), " but ",
                           b_what, " has ", ir::DataTypeName(b.elem_type())));
    }
  }

  void ExpectListLength(const char* attribute, size_t expected, std::string_view per) {
    const ir::Attribute* a = node_.FindAttribute(attribute);
    if (a == nullptr || a->is_reference() || a->kind() != ir::AttributeKind::kInts) return;
    if (a->ints.size() != expected) {
      Problem(absl::StrCat("attribute '", attribute, "' lists ", a->ints.size(),
                           " values but needs one per ", Sv(per), " (", expected, ")"));
    }
  }

  const ir::Node& node_;
  const bool check_types_;
  std::vector<std::string>& problems_;
};

}  // namespace

void CheckControlFlowNode(const ir::Node& node, const OpSchema& schema, bool check_types,
                          std::vector<std::string>* problems) {
  if (!node.is_onnx_domain()) return;
  ControlFlowCheck check(node, check_types, problems);
  if (node.op_type() == "If") {
    check.If();
  } else if (node.op_type() == "Loop") {
    check.Loop();
  } else if (node.op_type() == "Scan") {
    check.Scan(/*batched=*/schema.since_version() < 9);
  }
}

}  // namespace onnx_opt::schema::checker
