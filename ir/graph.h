// A Graph: inputs, initializers, nodes in a list that stays valid while a walk inserts and erases,
// and outputs (which are uses of values). Subgraphs of If/Loop/Scan use outer values directly.
#ifndef ONNX_OPT_IR_GRAPH_H_
#define ONNX_OPT_IR_GRAPH_H_

#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "ir/explicit_defaults.h"
#include "ir/node.h"
#include "ir/value.h"

namespace onnx_opt::ir {

class Function;

// GraphProto.quantization_annotation entry.
struct TensorAnnotation {
  std::string tensor_name;
  StringPairs quant_parameter_tensor_names;
};

// A graph output's own ValueInfoProto fields, when they differ from its value's (e.g. a subgraph
// that returns an outer value, or the same value returned twice with different types).
struct OutputInfo {
  Type type;
  std::string doc_string;
  StringPairs metadata_props;
};

// A value_info entry whose name matches no value of the graph; kept so load -> save is lossless.
struct DanglingValueInfo {
  std::string name;
  Type type;
  std::string doc_string;
  StringPairs metadata_props;
  uint64_t order = 0;
};

class Graph {
 public:
  // Walks live nodes, first to last (kForward) or last to first; an iterator standing on a node
  // that gets erased still advances correctly.
  template <bool kForward>
  class BasicNodeIterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Node*;
    using difference_type = std::ptrdiff_t;
    using pointer = Node**;
    using reference = Node*;

    explicit BasicNodeIterator(Node* n) : node_(n) {}
    Node* operator*() const { return node_; }
    BasicNodeIterator& operator++();
    bool operator==(const BasicNodeIterator& o) const { return node_ == o.node_; }
    bool operator!=(const BasicNodeIterator& o) const { return node_ != o.node_; }

   private:
    Node* node_;
    // How far the walk has asked for node and value memory ahead of node_ (see operator++).
    uintptr_t node_stream_ = 0;
    uintptr_t value_stream_ = 0;
  };
  using NodeIterator = BasicNodeIterator<true>;
  using ReverseNodeIterator = BasicNodeIterator<false>;
  template <bool kForward>
  struct BasicNodeRange {
    Node* start;
    BasicNodeIterator<kForward> begin() const { return BasicNodeIterator<kForward>(start); }
    BasicNodeIterator<kForward> end() const { return BasicNodeIterator<kForward>(nullptr); }
  };
  using NodeRange = BasicNodeRange<true>;
  using ReverseNodeRange = BasicNodeRange<false>;

  explicit Graph(std::string name = "");
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  const std::string& doc_string() const { return doc_string_; }
  void set_doc_string(std::string d) { doc_string_ = std::move(d); }

  // --- Inputs and initializers -------------------------------------------------------------------
  Value* AddInput(std::string name, Type type = Type());
  const std::vector<Value*>& inputs() const { return inputs_; }
  // Removes a graph input that nothing uses. If it also has an initializer, it stays an
  // initializer.
  absl::Status RemoveInput(Value* input);

  // A constant (not a graph input); the value's type comes from the tensor.
  Value* AddInitializer(Tensor tensor);
  Value* AddSparseInitializer(std::string name, SparseTensor tensor);
  // Gives a graph input a default (IR < 4 style: an initializer that is also an input).
  void SetInitializer(Value* input, Tensor tensor);
  // Initializers and sparse initializers, in the order they were added.
  const std::vector<Value*>& initializers() const { return initializers_; }
  const std::vector<Value*>& sparse_initializers() const { return sparse_initializers_; }
  // Removes an initializer that nothing uses (if it is also a graph input, only the default goes).
  absl::Status RemoveInitializer(Value* value);
  // RemoveInitializer for many at once, in one pass over the lists (removing them one by one costs
  // a scan each). All are checked first: on an error nothing is removed.
  absl::Status RemoveInitializers(const std::vector<Value*>& values);

  // --- Outputs -----------------------------------------------------------------------------------
  void AddOutput(Value* v);
  void SetOutput(size_t i, Value* v);
  void RemoveOutput(size_t i);
  const std::vector<Value*>& outputs() const { return outputs_; }
  // Output i's own description, if it has one (see OutputInfo); SetOutput and RemoveOutput keep
  // these aligned with the outputs, and replacing an output drops its description.
  const std::optional<OutputInfo>& output_info(size_t i) const;
  void set_output_info(size_t i, std::optional<OutputInfo> info);

  // --- Nodes -------------------------------------------------------------------------------------
  NodeRange nodes() const { return NodeRange{head_}; }
  ReverseNodeRange nodes_last_to_first() const { return ReverseNodeRange{tail_}; }
  Node* first_node() const { return head_; }
  Node* last_node() const { return tail_; }
  size_t num_nodes() const { return num_nodes_; }
  bool empty() const { return num_nodes_ == 0; }
  // How many live nodes have op type `op`, in any domain. A pass looking for a pattern skips a
  // graph that cannot hold it without walking the nodes: on large graphs a walk costs a cache miss
  // a node.
  int64_t CountOpType(std::string_view op) const;
  // How many live nodes may hold subgraphs (Node::may_have_subgraphs).
  size_t num_subgraph_holders() const { return subgraph_holders_; }

  Node* Append(std::unique_ptr<Node> node);
  Node* InsertBefore(Node* pos, std::unique_ptr<Node> node);
  Node* InsertAfter(Node* pos, std::unique_ptr<Node> node);
  // Shorthand: creates and appends a node.
  Node* AddNode(std::string op_type, const std::vector<Value*>& inputs,
                const std::vector<std::string>& output_names, std::string domain = "");
  // Moves a node of this graph to just before/after `pos`.
  void MoveBefore(Node* node, Node* pos);
  void MoveAfter(Node* node, Node* pos);
  // Unlinks a node whose outputs have no uses and drops its inputs. Its memory lives until the
  // graph dies or ReleaseErased() runs, so iterators standing on it stay valid.
  absl::Status Erase(Node* node);
  void ReleaseErased();
  // Takes a live node out of this graph with its inputs, outputs and uses intact, so it can be put
  // into another graph (e.g. when inlining an If branch). The caller must insert it somewhere where
  // everything it uses is in scope.
  std::unique_ptr<Node> Detach(Node* node);
  // Reorders the node list to `order`, which must hold exactly this graph's live nodes.
  void Reorder(const std::vector<Node*>& order);

  // --- Scope -------------------------------------------------------------------------------------
  // The node holding this graph as an attribute (null for a main graph or function body).
  Node* parent_node() const { return parent_node_; }
  // The function whose body this graph is (null otherwise).
  Function* owner_function() const { return owner_function_; }
  // The enclosing graph, or null.
  Graph* parent_graph() const;
  // True if `other` is this graph or encloses it.
  bool IsWithin(const Graph* other) const;

  // --- value_info --------------------------------------------------------------------------------
  // Lists `v` in value_info (at the end of the current order) or removes it.
  void AddValueInfo(Value* v);
  void RemoveValueInfo(Value* v);
  std::vector<DanglingValueInfo>& mutable_dangling_value_info() { return dangling_value_info_; }
  const std::vector<DanglingValueInfo>& dangling_value_info() const { return dangling_value_info_; }
  uint64_t NextValueInfoOrder() { return ++value_info_counter_; }

  // --- Other GraphProto fields -------------------------------------------------------------------
  std::vector<TensorAnnotation>& mutable_quantization_annotation() {
    return quantization_annotation_;
  }
  const std::vector<TensorAnnotation>& quantization_annotation() const {
    return quantization_annotation_;
  }
  const StringPairs& metadata_props() const { return metadata_props_; }
  StringPairs& mutable_metadata_props() { return metadata_props_; }
  // Fields the file wrote with their default value (see explicit_defaults.h).
  const ExplicitDefaults& explicit_defaults() const { return explicit_defaults_; }
  ExplicitDefaults& mutable_explicit_defaults() { return explicit_defaults_; }

  // Drops every reference this graph's nodes and outputs hold (recursively), before destruction.
  void DropAllReferences();

 private:
  friend class Node;
  friend class Value;
  friend class Function;
  friend class Attribute;

  void Link(Node* node, Node* before);  // inserts before `before` (null: at the end)
  void Unlink(Node* node);
  void CountOpTypeChange(const std::string& op, int64_t delta);
  Value* NewOwnedValue(std::string name);

  std::string name_;
  std::string doc_string_;
  std::vector<std::unique_ptr<Value>> owned_values_;  // inputs and initializers
  std::vector<Value*> inputs_;
  std::vector<Value*> initializers_;
  std::vector<Value*> sparse_initializers_;
  std::vector<Value*> outputs_;
  std::vector<uint32_t>
      output_use_positions_;  // parallel to outputs_, as Node::input_use_positions_
  std::vector<std::optional<OutputInfo>> output_info_;  // may be shorter than outputs_

  std::vector<std::unique_ptr<Node>> erased_;
  // The live nodes, in order; the list owns them (an owning vector beside it cost a cache miss per
  // erase, to renumber the node moved into the hole).
  Node* head_ = nullptr;
  Node* tail_ = nullptr;
  size_t num_nodes_ = 0;
  absl::flat_hash_map<std::string, int64_t> op_type_counts_;  // live nodes only; no zero entries
  size_t subgraph_holders_ = 0;

  Node* parent_node_ = nullptr;
  Function* owner_function_ = nullptr;

  uint64_t value_info_counter_ = 0;
  std::vector<DanglingValueInfo> dangling_value_info_;
  std::vector<TensorAnnotation> quantization_annotation_;
  StringPairs metadata_props_;
  ExplicitDefaults explicit_defaults_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_GRAPH_H_
