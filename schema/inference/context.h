// What an inference function sees of one node: its inputs' types, constant values and tracked
// shape values, its attributes (function-body references resolved, schema defaults applied), and
// the output types it is filling in. Output types start out as the schema's type constraints imply
// (see InitFromSchema), so most functions only need to set shapes.
#ifndef ONNX_OPT_SCHEMA_INFERENCE_CONTEXT_H_
#define ONNX_OPT_SCHEMA_INFERENCE_CONTEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ir/graph.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/type.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::inference {

class Engine;
struct Scope;

// The value of a small integer tensor (rank 0 or 1) as far as it is known, element by element:
// what Shape(x) produces, carried through Gather, Slice, Concat, Unsqueeze, arithmetic, ...
// Elements may be known numbers, symbols (a symbolic dim of some shape) or unknown.
struct ShapeValue {
  std::vector<ir::Dim> elems;
  bool scalar = false;  // rank 0 (then elems has exactly one entry)

  bool all_known() const;
  std::optional<std::vector<int64_t>> known() const;
};

class InferenceContext {
 public:
  InferenceContext(Engine& engine, Scope& scope, ir::Node& node, const OpSchema& schema,
                   int64_t opset);

  const ir::Node& node() const { return node_; }
  const OpSchema& schema() const { return schema_; }
  // The since_version of the schema in force, and the opset imported for the node's domain.
  int since_version() const { return schema_.since_version(); }
  int64_t opset() const { return opset_; }

  // --- Inputs ------------------------------------------------------------------------------------
  size_t num_inputs() const { return node_.num_inputs(); }
  bool has_input(size_t i) const { return node_.has_input(i); }
  // kNone for an absent input or an unknown type.
  const ir::Type& input_type(size_t i) const;
  ir::DataType input_elem_type(size_t i) const;
  // Null unless the input is a tensor of known rank.
  const ir::Shape* input_shape(size_t i) const;
  std::optional<int64_t> input_rank(size_t i) const;
  // The constant tensor feeding input i (initializer or Constant), or null.
  const ir::Tensor* input_constant(size_t i) const;
  // The integer values of input i: from a constant, or from a fully known shape value.
  std::optional<std::vector<int64_t>> input_ints(size_t i) const;
  // Numeric constant values of input i as doubles.
  std::optional<std::vector<double>> input_doubles(size_t i) const;
  // The tracked value of a small integer input (rank 0 or 1), possibly with symbolic elements.
  std::optional<ShapeValue> input_shape_value(size_t i) const;

  // --- Attributes --------------------------------------------------------------------------------
  // The node's attribute (a reference inside a function body is resolved), or null.
  const ir::Attribute* attr(std::string_view name) const;
  bool has_attr(std::string_view name) const { return attr(name) != nullptr; }
  // Node attribute, else the schema's default, else `fallback`.
  int64_t GetInt(std::string_view name, int64_t fallback = 0) const;
  float GetFloat(std::string_view name, float fallback = 0.0f) const;
  std::string GetString(std::string_view name, std::string fallback = "") const;
  std::vector<int64_t> GetInts(std::string_view name, std::vector<int64_t> fallback = {}) const;
  std::vector<float> GetFloats(std::string_view name, std::vector<float> fallback = {}) const;
  // Node attribute or schema default; nullopt when neither exists.
  std::optional<std::vector<int64_t>> FindInts(std::string_view name) const;

  // --- Outputs -----------------------------------------------------------------------------------
  size_t num_outputs() const { return outputs_.size(); }
  // The output exists and is not omitted.
  bool has_output(size_t i) const;
  const ir::Type& output_type(size_t i) const { return outputs_[i]; }
  void SetOutputType(size_t i, ir::Type type);
  // Makes output i a tensor (if it is not one) with this element type, keeping its shape.
  void SetOutputElemType(size_t i, ir::DataType elem);
  // Makes output i a tensor (if it is not one) with this shape, keeping its element type.
  void SetOutputShape(size_t i, std::optional<ir::Shape> shape);
  void SetOutputRank(size_t i, size_t rank);  // every dim unknown
  // Output i is a small integer tensor whose value is (partly) known.
  void SetOutputShapeValue(size_t i, ShapeValue value);
  // Output i is this constant (held by the node or the engine).
  void SetOutputConstant(size_t i, const ir::Tensor* tensor);
  // Keeps `t` alive for as long as inference runs and returns it.
  const ir::Tensor* OwnTensor(ir::Tensor t);

  // Shorthands: output `out` gets input `in`'s element type / shape / whole type.
  void PropagateElemType(size_t in, size_t out);
  void PropagateShape(size_t in, size_t out);
  void PropagateType(size_t in, size_t out);

  // --- Subgraphs ---------------------------------------------------------------------------------
  // Infers the graph held by attribute `name` with its inputs typed as given (a kNone entry keeps
  // the declared type) and returns the types of its outputs. A trial run records nothing.
  absl::StatusOr<std::vector<ir::Type>> InferSubgraph(std::string_view name,
                                                      const std::vector<ir::Type>& input_types,
                                                      bool trial = false);

  // --- Errors ------------------------------------------------------------------------------------
  // InvalidArgument naming the node: "node 'n' (Reshape): <message>".
  absl::Status Error(absl::string_view message) const;

  // Used by the engine.
  void InitFromSchema();
  const std::vector<ir::Type>& outputs() const { return outputs_; }
  const std::vector<std::optional<ShapeValue>>& output_shape_values() const { return values_; }
  const std::vector<const ir::Tensor*>& output_constants() const { return constants_; }

 private:
  Engine& engine_;
  Scope& scope_;
  ir::Node& node_;
  const OpSchema& schema_;
  int64_t opset_;
  std::vector<ir::Type> outputs_;
  std::vector<std::optional<ShapeValue>> values_;
  std::vector<const ir::Tensor*> constants_;
};

// "node 'n' (Relu) in graph 'g'", for messages.
std::string DescribeNode(const ir::Node& node);

}  // namespace onnx_opt::schema::inference

#endif  // ONNX_OPT_SCHEMA_INFERENCE_CONTEXT_H_
