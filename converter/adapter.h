// Adapters: how one operator's node is rewritten when a model moves one opset step.
//
// An adapter is registered for (domain, op, from, to), where `from` and `to` are the since_versions
// of the schemas in force before and after the step, or kNotDefined when the operator does not
// exist on that side (introduced later, or removed by a deprecation). The driver (convert.h) calls
// the adapter with an AdapterContext standing on the node; the adapter edits the graph around it
// (the node itself, new nodes before it, its inputs and attributes) so that the graph computes the
// same values with the target opset's operators. Afterwards the driver validates every node the
// adapter touched against its target schema: attributes known and of the right kind, required
// attributes present, arity, and the element types of typed values allowed by the type
// constraints. So a "type restriction" downgrade is just a compatible adapter: the validation fails
// clearly when a value has a type the older version lacks.
#ifndef ONNX_OPT_CONVERTER_ADAPTER_H_
#define ONNX_OPT_CONVERTER_ADAPTER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/name_generator.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "schema/op_schema.h"

namespace onnx_opt::converter {

// The `to` version of an operator that is not defined at the target opset: not yet introduced
// (kNotDefined), or removed by a deprecation in force there (kRemoved: Scatter at 11, Upsample at
// 10, GroupNormalization at 18..20).
inline constexpr int kNotDefined = 0;
inline constexpr int kRemoved = -1;

// One opset step of one domain.
struct Step {
  std::string domain;  // canonical: "ai.onnx" or "ai.onnx.ml"
  int64_t from_opset = 0;
  int64_t to_opset = 0;
  bool up() const { return to_opset > from_opset; }
};

class Folder;

// Types known for values: the declared ones, else those type inference found (kept aside, so that
// the converted model's declared types stay exactly what they were).
class TypeOracle {
 public:
  const ir::Type& TypeOf(const ir::Value* v) const;
  // What inference reported for the model's values (replacing what was there), keeping only what
  // adds to their declared types.
  void SetInferred(absl::flat_hash_map<const ir::Value*, ir::Type> inferred);
  // Drops what inference said about a value whose meaning an adapter changed.
  void Forget(const ir::Value* v) { inferred_.erase(v); }
  size_t size() const { return inferred_.size(); }

 private:
  absl::flat_hash_map<const ir::Value*, ir::Type> inferred_;
};

class AdapterContext {
 public:
  AdapterContext(ir::Node* node, const Step& step, const schema::OpSchema* from_schema,
                 const schema::OpSchema* to_schema, ir::NameGenerator* names, Folder* folder,
                 TypeOracle* types)
      : node_(node),
        step_(step),
        from_schema_(from_schema),
        to_schema_(to_schema),
        names_(names),
        folder_(folder),
        types_(types) {
    touched_.push_back(node);
  }

  ir::Node& node() const { return *node_; }
  ir::Graph& graph() const { return *node_->graph(); }
  const Step& step() const { return step_; }
  bool up() const { return step_.up(); }
  int64_t from_opset() const { return step_.from_opset; }
  int64_t to_opset() const { return step_.to_opset; }
  // Schemas in force before and after the step; `to_schema` is null when the operator is not
  // defined at the target opset (the adapter must then replace the node).
  const schema::OpSchema* from_schema() const { return from_schema_; }
  const schema::OpSchema* to_schema() const { return to_schema_; }
  int from_version() const { return from_schema_ != nullptr ? from_schema_->since_version() : 0; }
  int to_version() const { return to_schema_ != nullptr ? to_schema_->since_version() : 0; }
  ir::NameGenerator& names() const { return *names_; }
  // True when the node is (possibly nested) in a function body, where initializers do not exist.
  bool in_function() const;

  // An error naming the node, the op and the step: "cannot convert node 'n' (Softmax) from
  // Softmax-13 (opset 13) to Softmax-11 (opset 12): <what>".
  absl::Status Error(std::string_view what) const;
  // A warning for the conversion's report, naming the node and the op as Error does: the node was
  // converted, reading the model in a way the user should know about.
  void Warn(std::string_view what);
  // Where Warn puts its warnings (the driver's report); dropped while unset.
  void set_warnings(std::vector<std::string>* warnings) { warnings_ = warnings; }

  // --- Reading the node
  // ---------------------------------------------------------------------------- The attribute, or
  // null; an error when it is a reference to a function attribute (its value is not known here) and
  // `need_value` is set.
  absl::StatusOr<const ir::Attribute*> Attr(std::string_view name) const;
  // The type of a value: declared, or inferred before the conversion.
  const ir::Type& TypeOf(const ir::Value* v) const;
  // Forgets the inferred type of a value whose meaning the adapter changed.
  void ForgetType(const ir::Value* v) { types_->Forget(v); }
  // The element type of a tensor value when known.
  std::optional<ir::DataType> ElemType(const ir::Value* v) const;
  // The rank of a tensor value when known.
  std::optional<int64_t> Rank(const ir::Value* v) const;
  // The shape of a tensor value when its rank is known.
  std::optional<ir::Shape> ShapeOf(const ir::Value* v) const;
  // The static shape of a value when every dim is known.
  std::optional<std::vector<int64_t>> StaticShape(const ir::Value* v) const;
  // The constant tensor input `i` holds: a constant initializer, a Constant node, or a small
  // computation over those (and over static shapes) folded with the interpreter. An error naming
  // `what` when the input is not a compile-time constant.
  absl::StatusOr<ir::Tensor> ConstantInput(size_t i, std::string_view what) const;
  absl::StatusOr<std::vector<int64_t>> ConstantInts(size_t i, std::string_view what) const;
  absl::StatusOr<std::vector<double>> ConstantDoubles(size_t i, std::string_view what) const;

  // --- Editing
  // ------------------------------------------------------------------------------------- A
  // constant value usable by the node: an initializer, or a Constant node before the node when in
  // a function body (or when `as_node`).
  ir::Value* AddConstant(ir::Tensor t, std::string_view base, bool as_node = false);
  ir::Value* AddInts(const std::vector<int64_t>& values, std::string_view base);
  ir::Value* AddScalarInt(int64_t value, std::string_view base);
  ir::Value* AddFloats(ir::DataType type, const std::vector<double>& values,
                       std::vector<int64_t> dims, std::string_view base);
  // A new node of the step's domain inserted before (or after) the adapted node, with fresh output
  // names made from `base`. It is validated against the target opset like the adapted node.
  ir::Node* InsertBefore(std::string op, const std::vector<ir::Value*>& inputs, size_t num_outputs,
                         std::string_view base);
  ir::Node* InsertAfter(ir::Node* pos, std::string op, const std::vector<ir::Value*>& inputs,
                        size_t num_outputs, std::string_view base);
  // Sets input i, growing the input list with omitted inputs as needed.
  void SetInput(size_t i, ir::Value* v);
  // Removes input i (later inputs shift down) and erases whatever computed it if nothing else uses
  // it (so that a constant axes input does not survive as a dead Constant node of the wrong opset).
  void RemoveInput(size_t i);
  // Drops trailing omitted inputs.
  void TrimInputs();
  // Replaces every use of node output `i` by `v` (keeping graph output names), so that the node can
  // be erased. Used when an adapter replaces the node by a different computation.
  absl::Status ReplaceOutput(size_t i, ir::Value* v);
  // Erases the node once nothing uses its outputs; then also its dead producers.
  absl::Status EraseNode();
  // Erases `v`'s producer (recursively) if nothing uses its outputs any more; constant initializers
  // made unused are removed too.
  void CleanupDead(ir::Value* v);

  // Removes the constant initializers CleanupDead found unused (called by the driver).
  void FlushDeadInitializers();

  // Nodes to validate against the target schemas (the adapted node unless erased, and new nodes).
  const std::vector<ir::Node*>& touched() const { return touched_; }
  void Touch(ir::Node* n) { touched_.push_back(n); }

 private:
  ir::Node* node_;
  Step step_;
  const schema::OpSchema* from_schema_;
  const schema::OpSchema* to_schema_;
  ir::NameGenerator* names_;
  Folder* folder_;
  TypeOracle* types_;
  std::vector<ir::Node*> touched_;
  std::vector<ir::Value*> dead_initializers_;
  std::vector<std::string>* warnings_ = nullptr;
};

using AdapterFn = std::function<absl::Status(AdapterContext&)>;

// What an adapter does, for coverage reports.
enum class AdapterKind {
  kCompatible,  // nothing to do (the validation checks types on downgrades)
  kAttribute,   // attribute added/removed/renamed/retyped, or a value check
  kMove,        // attribute <-> input
  kRewrite,     // a different op or several nodes
  kRefuse,      // registered so the error says why the change cannot be expressed
};

struct AdapterEntry {
  std::string domain;
  std::string op;
  int from = 0;
  int to = 0;
  AdapterKind kind = AdapterKind::kCompatible;
  std::string note;  // what changed, from the spec's change log
  AdapterFn fn;
};

class AdapterRegistry {
 public:
  // Every adapter. Each family (converter/families.h) is registered the first time Find or an
  // entry listing asks about one of its operators.
  static const AdapterRegistry& Global();

  // Not synchronized: a registry is filled before it is shared (the global one fills itself under
  // its lock).
  void Register(std::string_view domain, std::string_view op, int from, int to, AdapterKind kind,
                std::string_view note, AdapterFn fn);
  // The registered adapter, else the implied refusal: an operator introduced after opset 1 that no
  // family rewrites into older operators refuses the downgrade below its first version. Refusals
  // are made on first use (listing them up front would build every operator's schemas on every
  // run).
  const AdapterEntry* Find(std::string_view domain, std::string_view op, int from, int to) const;
  // Every entry, implied refusals included, sorted by (domain, op, from, to). Registers every
  // family and builds every operator's schemas: for tests and listings.
  std::vector<const AdapterEntry*> AllEntries() const;
  // The entries registered so far, in registration order (no implied refusals, no family registered
  // by asking).
  std::vector<const AdapterEntry*> RegisteredEntries() const;

 private:
  // Registers the family of `op` unless it is registered already (the global registry only).
  void RegisterFamilyOf(std::string_view op) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RegisterAllFamilies() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Registers AdapterFamilies()[i] unless it is registered already.
  void RegisterFamily(size_t i) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Appends an entry holding copies of the strings.
  static const AdapterEntry& Append(std::deque<AdapterEntry>& entries, std::string_view domain,
                                    std::string_view op, int from, int to, AdapterKind kind,
                                    std::string_view note, AdapterFn fn);
  // (domain, op, from, to), viewing the entry's own strings (or the caller's, to look one up).
  using Key = std::tuple<std::string_view, std::string_view, int, int>;
  // Entries never move (a deque), so the index can view their strings. Registration is a few
  // thousand appends and hash inserts: a sorted map with string keys took a third of a small
  // conversion's time to build.
  std::deque<AdapterEntry> entries_;
  absl::flat_hash_map<Key, const AdapterEntry*> index_;
  mutable absl::Mutex mu_;
  // The global registry's families: which ones are registered (bit i: AdapterFamilies()[i]) and,
  // made on first use, the family of each operator that has adapters.
  bool families_on_demand_ = false;
  mutable uint64_t families_registered_ ABSL_GUARDED_BY(mu_) = 0;
  mutable absl::flat_hash_map<std::string_view, size_t> family_of_op_ ABSL_GUARDED_BY(mu_);
  mutable std::deque<AdapterEntry> refusals_ ABSL_GUARDED_BY(mu_);
  mutable absl::flat_hash_map<Key, const AdapterEntry*> refusal_index_ ABSL_GUARDED_BY(mu_);
};

// Test instrumentation: called by the driver with every adapter it runs and whether the node then
// converted (adapter and validation succeeded). Tests use it to know which adapters they exercised.
// Set it before converting and clear it (nullptr) after; it is not synchronized.
using AdapterObserver = std::function<void(const AdapterEntry& entry, bool converted)>;
void SetAdapterObserver(AdapterObserver observer);
void NotifyAdapterObserver(const AdapterEntry& entry, bool converted);

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_ADAPTER_H_
