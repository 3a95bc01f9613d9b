// A Node: one operator application. Inputs are Values (null for an omitted optional input); outputs
// are Values created with and owned by the node. Every input change keeps both sides of the use-def
// chain.
#ifndef ONNX_OPT_IR_NODE_H_
#define ONNX_OPT_IR_NODE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "ir/attribute.h"
#include "ir/boxed.h"
#include "ir/explicit_defaults.h"
#include "ir/object_allocator.h"
#include "ir/value.h"

namespace onnx_opt::ir {

class Graph;

// A stamp no node carries yet (see Node::walk_stamp).
uint64_t NewWalkStamp();

class Node final {
 public:
  // A detached node; outputs get the given names ("" for an omitted optional output).
  static std::unique_ptr<Node> Create(std::string domain, std::string op_type,
                                      const std::vector<Value*>& inputs,
                                      const std::vector<std::string>& output_names);
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const std::string& domain() const { return domain_; }
  void set_domain(std::string d) {
    domain_ = std::move(d);
    onnx_domain_ = domain_.empty() || domain_ == "ai.onnx";
  }
  const std::string& op_type() const { return op_type_; }
  // Keeps the graph's op type counts (Graph::CountOpType) in step.
  void set_op_type(std::string t);
  const std::string& overload() const { return rare_->overload; }
  void set_overload(std::string o) { rare_.SetField(&Rare::overload, std::move(o)); }
  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  const std::string& doc_string() const { return rare_->doc_string; }
  void set_doc_string(std::string d) { rare_.SetField(&Rare::doc_string, std::move(d)); }
  // True for the default domain, whether spelled "" or "ai.onnx".
  bool is_onnx_domain() const { return onnx_domain_; }
  // "Relu" or "com.example::MyOp" (for messages).
  std::string QualifiedOpType() const;
  // "node 'name' (Relu)" or "node #3 (Relu)" style description for error messages.
  std::string Describe() const;

  // Inputs.
  size_t num_inputs() const { return inputs_.size(); }
  Value* input(size_t i) const { return inputs_[i]; }
  // Up to three inputs live inside the node: walks that look at inputs read no other memory.
  using InputList = absl::InlinedVector<Value*, 3>;
  const InputList& inputs() const { return inputs_; }
  bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i] != nullptr; }
  void SetInput(size_t i, Value* v);
  void AddInput(Value* v);
  // Removes input i; later inputs shift down by one.
  void RemoveInput(size_t i);
  void RemoveAllInputs();

  // Outputs.
  size_t num_outputs() const { return outputs_.size(); }
  Value* output(size_t i) const { return outputs_[i].get(); }
  Value* AddOutput(std::string name);
  // Removes the last output; it must have no uses.
  absl::Status RemoveLastOutput();

  // Attributes, in order.
  const std::vector<Attribute>& attributes() const { return attributes_; }
  const Attribute* FindAttribute(std::string_view name) const;
  Attribute* FindMutableAttribute(std::string_view name);
  // Adds or replaces (keeping the position of a replaced one).
  void SetAttribute(Attribute attr);
  // Room for `n` attributes, so that adding them moves none (an Attribute is a few hundred bytes).
  void ReserveAttributes(size_t n) { attributes_.reserve(n); }
  bool RemoveAttribute(std::string_view name);
  // Typed getters that fall back to a default when the attribute is absent.
  int64_t GetInt(std::string_view name, int64_t fallback) const;
  float GetFloat(std::string_view name, float fallback) const;
  std::string GetString(std::string_view name, std::string fallback) const;
  std::vector<int64_t> GetInts(std::string_view name, std::vector<int64_t> fallback = {}) const;
  // Every subgraph held by an attribute (graph and graphs kinds).
  std::vector<Graph*> subgraphs() const;
  // False only when the node holds no subgraph; walks over a graph use it (and the graph's count of
  // such nodes) to skip nodes without attributes to look at. FindMutableAttribute sets it for good,
  // since the caller may store a graph through the pointer.
  bool may_have_subgraphs() const { return may_have_subgraphs_; }

  // NodeProto fields kept for round trips.
  const StringPairs& metadata_props() const { return rare_->metadata_props; }
  StringPairs& mutable_metadata_props() { return rare_->metadata_props; }
  void set_metadata_props(StringPairs p) { rare_.SetField(&Rare::metadata_props, std::move(p)); }
  // Serialized NodeDeviceConfigurationProto messages (multi-device annotations, passed through).
  const std::vector<std::string>& device_configurations() const {
    return rare_->device_configurations;
  }
  std::vector<std::string>& mutable_device_configurations() { return rare_->device_configurations; }
  // Fields the file wrote with their default value (see explicit_defaults.h).
  const ExplicitDefaults& explicit_defaults() const { return explicit_defaults_; }
  ExplicitDefaults& mutable_explicit_defaults() { return explicit_defaults_; }

  // The graph the node is in (null while detached), and its neighbours in that graph's node list.
  Graph* graph() const { return graph_; }
  bool is_erased() const { return erased_; }
  Node* next() const;
  Node* prev() const;

  // Drops every input of this node and of every node in its subgraphs (and subgraph outputs), so
  // that nothing outside still lists them as uses. Used when a node dies.
  void DropAllReferences();

  // Scratch for one walk at a time (TopologicalOrder, cse): the walk takes a fresh stamp from
  // NewWalkStamp() and stamps the nodes it has passed, instead of keeping a hash set of them, which
  // on large graphs costs a cache miss per lookup.
  uint64_t walk_stamp() const { return walk_stamp_; }
  void set_walk_stamp(uint64_t stamp) const { walk_stamp_ = stamp; }

  // Nodes come from the allocator a tool may choose (ir/object_allocator.h).
  static void* operator new(size_t size) { return AllocateObject(ObjectKind::kNode, size); }
  static void operator delete(void* p, size_t size) { FreeObject(ObjectKind::kNode, p, size); }

 private:
  friend class Graph;
  friend class Value;
  Node() = default;

  void SetSubgraphParent(Attribute& attr);
  // Recomputes may_have_subgraphs_ (true when `force`), telling the graph if it changed.
  void UpdateSubgraphFlag(bool force = false);

  // What a walk over the node list reads comes first, in one cache line: the links, the flags and
  // the op type (walks over large graphs are bound by memory access, see tools/bench).
  Node* next_ = nullptr;
  Node* prev_ = nullptr;
  Graph* graph_ = nullptr;
  bool erased_ = false;
  bool may_have_subgraphs_ = false;
  bool onnx_domain_ = true;  // domain_ is "" or "ai.onnx"; every pass asks, so it sits here
  std::string op_type_;
  // Second cache line: the inputs and outputs (inline for the common counts) and the walk stamp.
  InputList inputs_;
  absl::InlinedVector<std::unique_ptr<Value>, 1> outputs_;
  mutable uint64_t walk_stamp_ = 0;
  std::string domain_;
  std::vector<Attribute> attributes_;
  std::string name_;
  // What few nodes carry, boxed so that every node does not pay for it.
  struct Rare {
    std::string overload;
    std::string doc_string;
    StringPairs metadata_props;
    std::vector<std::string> device_configurations;
  };
  Boxed<Rare> rare_;
  ExplicitDefaults explicit_defaults_;
  // Parallel to inputs_: where each input's use sits in the input value's use list, kept only for
  // values with many uses (see Value::uses_indexed_). Last: only such removals read it.
  absl::InlinedVector<uint32_t, 3> input_use_positions_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NODE_H_
