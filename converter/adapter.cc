#include "converter/adapter.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "converter/fold.h"
#include "ir/constant_value.h"
#include "ir/forward_value.h"
#include "ir/function.h"
#include "ir/status_macros.h"

namespace onnx_opt::converter {
namespace {

std::string S(std::string_view s) { return std::string(s); }

std::string SchemaLabel(const schema::OpSchema* s, const std::string& op) {
  if (s == nullptr) return absl::StrCat(op, " (not defined)");
  return absl::StrCat(op, "-", s->since_version());
}

}  // namespace

bool AdapterContext::in_function() const {
  for (const ir::Graph* g = node_->graph(); g != nullptr; g = g->parent_graph()) {
    if (g->owner_function() != nullptr) return true;
  }
  return false;
}

absl::Status AdapterContext::Error(std::string_view what) const {
  return absl::InvalidArgumentError(absl::StrCat(
      "cannot convert ", node_->Describe(), " from ", SchemaLabel(from_schema_, node_->op_type()),
      " (", step_.domain, " opset ", step_.from_opset, ") to ",
      SchemaLabel(to_schema_, node_->op_type()), " (opset ", step_.to_opset, "): ", S(what)));
}

void AdapterContext::Warn(std::string_view what) {
  if (warnings_ == nullptr) return;
  warnings_->push_back(absl::StrCat(node_->Describe(), ", ",
                                    SchemaLabel(from_schema_, node_->op_type()), " -> ",
                                    SchemaLabel(to_schema_, node_->op_type()), ": ", S(what)));
}

absl::StatusOr<const ir::Attribute*> AdapterContext::Attr(std::string_view name) const {
  const ir::Attribute* a = node_->FindAttribute(name);
  if (a != nullptr && a->is_reference()) {
    return Error(absl::StrCat("attribute '", S(name), "' refers to function attribute '",
                              a->ref_attr_name(), "', whose value is not known here"));
  }
  return a;
}

void TypeOracle::SetInferred(absl::flat_hash_map<const ir::Value*, ir::Type> inferred) {
  absl::erase_if(inferred, [](const auto& entry) {
    return entry.second.is_none() || entry.second == entry.first->type();
  });
  inferred_ = std::move(inferred);
}

const ir::Type& TypeOracle::TypeOf(const ir::Value* v) const {
  static const ir::Type kNone;
  if (v == nullptr) return kNone;
  if (!v->type().is_none()) {
    // A declared tensor type without element type or shape may be completed by inference.
    const ir::Type& t = v->type();
    if (!(t.is_tensor() && (t.elem_type() == ir::DataType::kUndefined || !t.shape().has_value())))
      return t;
    auto it = inferred_.find(v);
    if (it != inferred_.end() && it->second.is_tensor()) {
      const bool elem_ok =
          t.elem_type() == ir::DataType::kUndefined || t.elem_type() == it->second.elem_type();
      if (elem_ok) return it->second;
    }
    return t;
  }
  auto it = inferred_.find(v);
  return it != inferred_.end() ? it->second : kNone;
}

const ir::Type& AdapterContext::TypeOf(const ir::Value* v) const { return types_->TypeOf(v); }

std::optional<ir::DataType> AdapterContext::ElemType(const ir::Value* v) const {
  if (v == nullptr) return std::nullopt;
  const ir::Type& t = TypeOf(v);
  if ((t.is_tensor() || t.kind() == ir::Type::Kind::kSparseTensor) &&
      t.elem_type() != ir::DataType::kUndefined) {
    return t.elem_type();
  }
  if (const ir::Tensor* c = ir::GetConstantTensor(v)) return c->data_type();
  return std::nullopt;
}

std::optional<int64_t> AdapterContext::Rank(const ir::Value* v) const {
  std::optional<ir::Shape> s = ShapeOf(v);
  if (!s.has_value()) return std::nullopt;
  return static_cast<int64_t>(s->rank());
}

std::optional<ir::Shape> AdapterContext::ShapeOf(const ir::Value* v) const {
  if (v == nullptr) return std::nullopt;
  if (const ir::Tensor* c = ir::GetConstantTensor(v)) return ir::Shape::FromSizes(c->dims());
  const ir::Type& t = TypeOf(v);
  if (t.is_tensor() && t.shape().has_value()) return *t.shape();
  return std::nullopt;
}

std::optional<std::vector<int64_t>> AdapterContext::StaticShape(const ir::Value* v) const {
  if (v == nullptr) return std::nullopt;
  if (const ir::Tensor* c = ir::GetConstantTensor(v)) return c->dims();
  const ir::Type& t = TypeOf(v);
  if (!t.is_tensor() || !t.shape().has_value() || !t.shape()->is_static()) return std::nullopt;
  std::vector<int64_t> dims;
  for (const ir::Dim& d : t.shape()->dims()) dims.push_back(d.value());
  return dims;
}

absl::StatusOr<ir::Tensor> AdapterContext::ConstantInput(size_t i, std::string_view what) const {
  if (!node_->has_input(i)) return Error(absl::StrCat(S(what), " (input ", i, ") is absent"));
  std::optional<ir::Tensor> t = folder_->Fold(node_->input(i));
  if (!t.has_value()) {
    return Error(absl::StrCat(S(what), " (input ", i, ", '", node_->input(i)->name(),
                              "') must be a compile-time constant to become an attribute, and it "
                              "is computed at run time"));
  }
  return *std::move(t);
}

absl::StatusOr<std::vector<int64_t>> AdapterContext::ConstantInts(size_t i,
                                                                  std::string_view what) const {
  ASSIGN_OR_RETURN(ir::Tensor t, ConstantInput(i, what));
  std::optional<std::vector<int64_t>> v = ir::ConstantAsInts(t);
  if (!v.has_value()) {
    return Error(absl::StrCat(S(what), " (input ", i, ") is a ", ir::DataTypeName(t.data_type()),
                              " tensor; expected int32 or int64"));
  }
  return *std::move(v);
}

absl::StatusOr<std::vector<double>> AdapterContext::ConstantDoubles(size_t i,
                                                                    std::string_view what) const {
  ASSIGN_OR_RETURN(ir::Tensor t, ConstantInput(i, what));
  std::optional<std::vector<double>> v = ir::ConstantAsDoubles(t);
  if (!v.has_value()) {
    return Error(absl::StrCat(S(what), " (input ", i, ") is a ", ir::DataTypeName(t.data_type()),
                              " tensor; expected a numeric tensor"));
  }
  return *std::move(v);
}

ir::Value* AdapterContext::AddConstant(ir::Tensor t, std::string_view base, bool as_node) {
  const std::string name = names_->Fresh(base);
  if (as_node || in_function()) {
    ir::Node* c = InsertBefore("Constant", {}, 1, base);
    ir::Value* out = c->output(0);
    out->set_name(name);
    out->set_type(ir::Type::Tensor(t.data_type(), ir::Shape::FromSizes(t.dims())));
    t.set_name("");
    c->SetAttribute(ir::Attribute::FromTensor("value", std::move(t)));
    return out;
  }
  t.set_name(name);
  return graph().AddInitializer(std::move(t));
}

ir::Value* AdapterContext::AddInts(const std::vector<int64_t>& values, std::string_view base) {
  return AddConstant(ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64,
                                                     {static_cast<int64_t>(values.size())}, values),
                     base);
}

ir::Value* AdapterContext::AddScalarInt(int64_t value, std::string_view base) {
  return AddConstant(ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, {}, {value}), base);
}

ir::Value* AdapterContext::AddFloats(ir::DataType type, const std::vector<double>& values,
                                     std::vector<int64_t> dims, std::string_view base) {
  return AddConstant(ir::MakeFloatTensor(type, std::move(dims), values), base);
}

ir::Node* AdapterContext::InsertBefore(std::string op, const std::vector<ir::Value*>& inputs,
                                       size_t num_outputs, std::string_view base) {
  std::vector<std::string> outs;
  for (size_t i = 0; i < num_outputs; ++i) outs.push_back(names_->Fresh(base));
  const std::string domain = step_.domain == "ai.onnx" ? "" : step_.domain;
  ir::Node* n = graph().InsertBefore(node_, ir::Node::Create(domain, std::move(op), inputs, outs));
  touched_.push_back(n);
  return n;
}

ir::Node* AdapterContext::InsertAfter(ir::Node* pos, std::string op,
                                      const std::vector<ir::Value*>& inputs, size_t num_outputs,
                                      std::string_view base) {
  std::vector<std::string> outs;
  for (size_t i = 0; i < num_outputs; ++i) outs.push_back(names_->Fresh(base));
  const std::string domain = step_.domain == "ai.onnx" ? "" : step_.domain;
  ir::Node* n = graph().InsertAfter(pos, ir::Node::Create(domain, std::move(op), inputs, outs));
  touched_.push_back(n);
  return n;
}

void AdapterContext::SetInput(size_t i, ir::Value* v) {
  while (node_->num_inputs() <= i) node_->AddInput(nullptr);
  ir::Value* old = node_->input(i);
  node_->SetInput(i, v);
  if (old != nullptr && old != v) CleanupDead(old);
}

void AdapterContext::RemoveInput(size_t i) {
  if (i >= node_->num_inputs()) return;
  ir::Value* old = node_->input(i);
  node_->RemoveInput(i);
  if (old != nullptr) CleanupDead(old);
}

void AdapterContext::TrimInputs() {
  while (node_->num_inputs() > 0 && node_->input(node_->num_inputs() - 1) == nullptr) {
    node_->RemoveInput(node_->num_inputs() - 1);
  }
}

absl::Status AdapterContext::ReplaceOutput(size_t i, ir::Value* v) {
  ir::Value* from = node_->output(i);
  if (!from->has_uses()) return absl::OkStatus();
  if (!v->type().is_none() || from->type().is_none()) {
    // keep v's own type
  } else {
    v->set_type(from->type());
  }
  if (from->is_graph_output() &&
      (v->producer() == nullptr || v->is_graph_output() || v->graph() != from->graph())) {
    // A graph output keeps its name: it must be produced by a node of this graph, so route the
    // value through an Identity.
    ir::Node* id = InsertBefore("Identity", {v}, 1, from->name());
    id->output(0)->set_type(from->type());
    v = id->output(0);
  }
  if (from->in_value_info() && !v->in_value_info()) v->graph()->AddValueInfo(v);
  if (!ir::ForwardValue(from, v)) {
    return Error(absl::StrCat("cannot redirect the uses of output '", from->name(), "' to '",
                              v->name(), "'"));
  }
  return absl::OkStatus();
}

namespace {

// The distinct inputs of a node, in order (a value may feed several inputs; after the first
// cleanup removed it, a second visit would touch freed memory).
std::vector<ir::Value*> DistinctInputs(const ir::Node& n) {
  std::vector<ir::Value*> out;
  for (ir::Value* v : n.inputs()) {
    if (v != nullptr && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

}  // namespace

absl::Status AdapterContext::EraseNode() {
  std::vector<ir::Value*> inputs = DistinctInputs(*node_);
  absl::Status s = graph().Erase(node_);
  if (!s.ok()) return Error(std::string(s.message()));
  for (ir::Value* v : inputs) {
    if (v != nullptr) CleanupDead(v);
  }
  return absl::OkStatus();
}

void AdapterContext::CleanupDead(ir::Value* v) {
  if (v == nullptr || v->has_uses()) return;
  if (ir::Node* p = v->producer()) {
    if (p == node_ || p->is_erased()) return;
    for (size_t i = 0; i < p->num_outputs(); ++i) {
      if (p->output(i)->has_uses()) return;
    }
    std::vector<ir::Value*> inputs = DistinctInputs(*p);
    if (!p->graph()->Erase(p).ok()) return;
    for (ir::Value* in : inputs) CleanupDead(in);
    return;
  }
  // Removing an initializer frees it; other pending cleanups may still hold it, so that happens
  // in FlushDeadInitializers, once the adapter is done.
  if (v->is_constant_initializer()) dead_initializers_.push_back(v);
}

void AdapterContext::FlushDeadInitializers() {
  std::vector<ir::Value*> done;
  for (ir::Value* v : dead_initializers_) {
    if (std::find(done.begin(), done.end(), v) != done.end()) continue;
    done.push_back(v);
    if (!v->has_uses() && v->is_constant_initializer()) {
      types_->Forget(v);  // the memory may be reused by a new value
      (void)v->graph()->RemoveInitializer(v);
    }
  }
  dead_initializers_.clear();
}

void AdapterRegistry::Register(std::string_view domain, std::string_view op, int from, int to,
                               AdapterKind kind, std::string_view note, AdapterFn fn) {
  const AdapterEntry& e = Append(entries_, domain, op, from, to, kind, note, std::move(fn));
  // A later registration of the same change replaces the earlier one.
  index_.insert_or_assign(Key{e.domain, e.op, from, to}, &e);
}

const AdapterEntry& AdapterRegistry::Append(std::deque<AdapterEntry>& entries,
                                            std::string_view domain, std::string_view op, int from,
                                            int to, AdapterKind kind, std::string_view note,
                                            AdapterFn fn) {
  AdapterEntry& e = entries.emplace_back();
  e.domain = S(domain);
  e.op = S(op);
  e.from = from;
  e.to = to;
  e.kind = kind;
  e.note = S(note);
  e.fn = std::move(fn);
  return e;
}

namespace {
AdapterObserver& Observer() {
  static auto* observer = new AdapterObserver();
  return *observer;
}
}  // namespace

void SetAdapterObserver(AdapterObserver observer) { Observer() = std::move(observer); }

void NotifyAdapterObserver(const AdapterEntry& entry, bool converted) {
  if (Observer()) Observer()(entry, converted);
}

}  // namespace onnx_opt::converter
