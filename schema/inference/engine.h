// The inference walk (internal to schema/inference): scopes of known facts about values, graph and
// node traversal, subgraphs and function calls, and merging with declared types.
#ifndef ONNX_OPT_SCHEMA_INFERENCE_ENGINE_H_
#define ONNX_OPT_SCHEMA_INFERENCE_ENGINE_H_

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/function.h"
#include "ir/model.h"
#include "schema/inference/context.h"
#include "schema/inference/inference.h"
#include "schema/inference/registry.h"

namespace onnx_opt::schema::inference {

// Facts about values of one graph (main graph, subgraph, or one call of a function body).
// Lookups walk to the parent scope, so a subgraph sees what its enclosing graphs know.
struct Scope {
  Scope* parent = nullptr;
  // Types are written to the values themselves (main graph and its subgraphs) or kept here (a
  // function body, whose types depend on the call site).
  bool commit = true;
  const std::vector<ir::OpsetImport>* imports = nullptr;
  // Set on the scope of a function call: attribute references resolve against the caller.
  const ir::Node* caller = nullptr;
  const ir::Function* function = nullptr;
  const Scope* caller_scope = nullptr;

  absl::flat_hash_map<const ir::Value*, ir::Type> types;
  absl::flat_hash_map<const ir::Value*, ShapeValue> shape_values;
  absl::flat_hash_map<const ir::Value*, const ir::Tensor*> constants;
};

class Engine {
 public:
  Engine(ir::Model& model, const InferOptions& options) : model_(model), options_(options) {}

  absl::Status Run();

  const ir::Type& GetType(const Scope& scope, const ir::Value* v) const;
  // Graph output i: its value's type, with the output's own description (if any) merged in.
  ir::Type OutputType(const Scope& scope, const ir::Graph& graph, size_t i) const;
  const ir::Tensor* GetConstant(const Scope& scope, const ir::Value* v) const;
  std::optional<ShapeValue> GetShapeValue(const Scope& scope, const ir::Value* v) const;
  // A node attribute with any function-body reference resolved (null if it resolves to nothing).
  const ir::Attribute* Resolve(const Scope& scope, const ir::Attribute* attr) const;
  const ir::Tensor* Own(ir::Tensor t);

  // Infers `graph` (a subgraph of a node in `parent`) with its inputs typed as given and returns
  // its output types. A trial run records nothing (types, value_info, warnings): it lets Loop and
  // Scan find how loop-carried values change before the real run.
  absl::StatusOr<std::vector<ir::Type>> InferSubgraph(Scope& parent, ir::Graph& graph,
                                                      const std::vector<ir::Type>& input_types,
                                                      bool trial);

 private:
  absl::StatusOr<std::vector<ir::Type>> InferSubgraphImpl(Scope& parent, ir::Graph& graph,
                                                          const std::vector<ir::Type>& input_types,
                                                          bool trial);
  absl::Status InferGraph(Scope& scope, ir::Graph& graph);
  // InferGraph's walk over the nodes: in list order while each node's producers came first; from
  // the first node whose did not, in topological order.
  absl::Status InferNodes(Scope& scope, ir::Graph& graph);
  absl::Status InferNode(Scope& scope, ir::Node& node);
  absl::Status InferFunctionCall(Scope& scope, ir::Node& node, const ir::Function& fn);
  // Merges `inferred` into the value's type and records what else is known about it.
  absl::Status Commit(Scope& scope, ir::Node& node, ir::Value* v, const ir::Type& inferred,
                      const std::optional<ShapeValue>& value, const ir::Tensor* constant);
  void SetType(Scope& scope, ir::Value* v, ir::Type t);
  // An error in strict mode, a warning otherwise.
  absl::Status Problem(std::string message);

  // The schema and inference function in force for an operator at an opset, resolved once per
  // (op type, domain, opset) instead of once per node: the two registry lookups (one building a
  // string key) were about a fifth of inference on large graphs (perf, 10^6 nodes). Keyed by op
  // type, then a short list of domains and opsets. Only successful lookups are kept.
  struct OpEntry {
    std::string domain;
    int64_t opset = 0;
    const OpSchema* schema = nullptr;
    const InferFn* fn = nullptr;
  };
  absl::flat_hash_map<std::string, std::vector<OpEntry>> op_cache_;

  ir::Model& model_;
  InferOptions options_;
  std::deque<ir::Tensor> owned_;
  int function_depth_ = 0;
  int trial_depth_ = 0;
};

}  // namespace onnx_opt::schema::inference

#endif  // ONNX_OPT_SCHEMA_INFERENCE_ENGINE_H_
