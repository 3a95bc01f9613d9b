// A Value: something a node consumes. Produced by exactly one of: a node output, a graph input, or
// an initializer (a graph input may also carry an initializer: its default). Knows every use.
#ifndef ONNX_OPT_IR_VALUE_H_
#define ONNX_OPT_IR_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/hash/hash.h"
#include "ir/boxed.h"
#include "ir/object_allocator.h"
#include "ir/tensor.h"
#include "ir/type.h"

namespace onnx_opt::ir {

class Graph;
class Node;

// One use of a value: input `index` of `node`, or, when node is null, output `index` of `graph`.
struct Use {
  Node* node = nullptr;
  Graph* graph = nullptr;
  size_t index = 0;

  bool is_graph_output() const { return node == nullptr; }
  bool operator==(const Use& other) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const Use& u) {
    return H::combine(std::move(h), u.node, u.graph, u.index);
  }
};

class Value {
 public:
  ~Value();
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string name) {
    name_ = std::move(name);
    name_hash_ = HashName(name_);
  }
  // absl::Hash of the name (this process's), kept with it: a check that puts every name in a set
  // (ir::Verify) then reads no name's characters, which on a model just loaded are mostly cache
  // misses (~0.3 ms of a 10 ms onnx-convert on a 750-node model).
  size_t name_hash() const { return name_hash_; }
  static size_t HashName(std::string_view name) { return absl::Hash<std::string_view>{}(name); }
  const Type& type() const { return type_; }
  Type& mutable_type() { return type_; }
  void set_type(Type type) { type_ = std::move(type); }

  // ValueInfoProto's other fields, kept for round trips.
  const std::string& doc_string() const { return rare_->doc_string; }
  void set_doc_string(std::string d) { rare_.SetField(&Rare::doc_string, std::move(d)); }
  const StringPairs& metadata_props() const { return rare_->metadata_props; }
  StringPairs& mutable_metadata_props() { return rare_->metadata_props; }
  void set_metadata_props(StringPairs p) { rare_.SetField(&Rare::metadata_props, std::move(p)); }

  // The node whose output this is, or null for graph inputs and initializers.
  Node* producer() const { return producer_; }
  size_t output_index() const { return output_index_; }
  // The graph (or function body) in whose scope the value is defined.
  Graph* graph() const { return graph_; }

  bool is_graph_input() const { return is_graph_input_; }
  bool is_initializer() const { return initializer_ != nullptr || sparse_initializer_ != nullptr; }
  // A constant is an initializer that a caller cannot override (not also a graph input).
  bool is_constant_initializer() const { return initializer_ != nullptr && !is_graph_input_; }
  const Tensor* initializer() const { return initializer_.get(); }
  Tensor* mutable_initializer() { return initializer_.get(); }
  const SparseTensor* sparse_initializer() const { return sparse_initializer_.get(); }
  // An omitted optional node output (written as "" in ONNX).
  bool is_omitted() const { return producer_ != nullptr && name_.empty(); }

  // Every use, once. The order is deterministic: the order uses were made, except that on values
  // with many uses a removed use's place is taken by the last one (so removal stays O(1)). Graph
  // outputs are uses too. The first two live inside the value: most values have one or two.
  using UseList = absl::InlinedVector<Use, 2>;
  const UseList& uses() const { return uses_; }
  bool has_uses() const { return !uses_.empty(); }
  bool is_graph_output() const;

  // Every use of this value (node inputs, graph outputs, captures in subgraphs) now uses `other`.
  void ReplaceAllUsesWith(Value* other);

  // Values come from the allocator a tool may choose (ir/object_allocator.h).
  static void* operator new(size_t size) { return AllocateObject(ObjectKind::kValue, size); }
  static void operator delete(void* p, size_t size) { FreeObject(ObjectKind::kValue, p, size); }

  // Whether the value is listed in the graph's value_info, and where (for a stable order on
  // export).
  bool in_value_info() const { return value_info_order_ != 0; }
  uint64_t value_info_order() const { return value_info_order_; }

 private:
  friend class Graph;
  friend class Node;

  Value(Graph* graph, Node* producer, size_t output_index, std::string name)
      : graph_(graph),
        producer_(producer),
        output_index_(output_index),
        name_(std::move(name)),
        name_hash_(HashName(name_)) {}

  void AddUse(const Use& use);
  void RemoveUse(const Use& use);
  void RenumberUse(const Use& from, size_t new_index);
  // Where `use` sits in uses_ (CHECKs that it is there); UsePosition keeps it on values with
  // uses_indexed_.
  size_t PositionOf(const Use& use) const;
  static uint32_t& UsePosition(const Use& use);

  // What passes read on every visit comes first (one cache line): where the value comes from and
  // who uses it. Walks over large graphs are bound by memory access (see tools/bench).
  Graph* graph_;
  Node* producer_;
  size_t output_index_;
  bool is_graph_input_ = false;
  std::unique_ptr<Tensor> initializer_;
  UseList uses_;
  size_t graph_output_uses_ = 0;
  // Values with many uses (shared constants) keep each use's position in uses_ at the use itself
  // (Node::input_use_positions_, Graph::output_use_positions_), where a linear search per removal
  // would make passes quadratic. The node a removal edits is at hand already, so a removal costs
  // the write to uses_ and one to the node whose use moves: a hash index here cost ~5 cache misses
  // per removal on a constant with 250K uses (a third of nops on the 10^6-node pipeline benchmark).
  bool uses_indexed_ = false;
  Type type_;
  std::string name_;
  size_t name_hash_;
  std::unique_ptr<SparseTensor> sparse_initializer_;
  // What few values carry, boxed so that every value does not pay for it.
  struct Rare {
    std::string doc_string;
    StringPairs metadata_props;
  };
  Boxed<Rare> rare_;
  uint64_t value_info_order_ = 0;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_VALUE_H_
