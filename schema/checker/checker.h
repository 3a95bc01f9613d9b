// The model checker: everything the ONNX IR spec (onnx/docs/IR.md) and the operator schemas require
// of a model, its graphs, subgraphs and model-local functions. Passes run it before export so that
// nothing invalid is ever written; `onnx-check` prints its result.
//
// What is checked (each error names the graph, the node by index and name, the op and the rule):
//   model      ir_version set and known; opset imports present (IR >= 3), unique, known versions;
//              metadata keys unique; model-local functions need IR >= 8 and unique (domain, name,
//              overload) ids
//   structure  SSA, every use defined in scope and before its user (ir::Verify)
//   graphs     non-empty names; initializers also graph inputs when IR < 4; main graph inputs and
//              outputs typed, tensors with an element type and a shape (a rank); declared types
//              well-formed (known element types, dims >= 0, seq/map need IR 6 unless the model
//              imports ai.onnx.ml, which had them from its start; optional IR 8)
//   types      element types the model's IR version has (float8 from IR 9, int4/uint4 10,
//              float4e2m1 11, float8e8m0 12, int2/uint2 13): in declared types, initializers,
//              tensor and type attributes, and the output types attributes give (Cast's `to`, ...)
//   nodes      op_type set; some input or output; domain imported; the op defined at that opset
//              (custom domains: accepted when imported, not checked beyond structure; calls of
//              model-local functions resolved by domain, name and overload); input and output arity
//              (optional, variadic, minimum arity); omitted inputs/outputs only where optional;
//              attributes unique, known to the schema, of the schema's type, required ones present;
//              type constraints: every typed input/output allowed by its constraint and bound
//              consistently across the node (untyped values are not guessed); If, Loop and Scan
//              bodies against the node (control_flow_check.h)
//   attributes well-formed payloads; tensors' data consistent with type and dims; external data
//              locations relative, inside the model's folder, with valid offset/length; sparse
//              tensors' indices valid; ref_attr_name only in functions, naming a function attribute
//   functions  body checked with the function's own opset imports, which must agree with the
//              model's; unique attribute and output names; no recursive calls
// Warnings (never failures): an opset newer than the ir_version by ONNX's release table (it says
// which IR version an opset was released with, which is not a validity rule), ONNX's removed
// experimental ops, duplicate node names, a subgraph initializer that is also a subgraph input
// (IR >= 4), and legacy broadcasting (before opset 7) where the declared shapes show B's size-1
// dims expanded over A's, read as numpy does (schema/inference/legacy_broadcast.h). Attributes with
// more than one value field are refused when the model is imported (ir/io), since ir::Attribute
// keeps one.
#ifndef ONNX_OPT_SCHEMA_CHECKER_CHECKER_H_
#define ONNX_OPT_SCHEMA_CHECKER_CHECKER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ir/model.h"

namespace onnx_opt::schema::checker {

struct CheckOptions {
  // Main graph tensor inputs and outputs must have a shape (at least a rank), as IR.md and ONNX's
  // checker require. Off: an element type is enough.
  bool require_main_graph_shapes = true;
  // Check typed inputs and outputs against the schemas' type constraints.
  bool check_type_constraints = true;
  // Fail nodes of imported custom domains that are neither known schemas nor model-local functions
  // (ONNX's check_custom_domain). Off: they pass unchecked.
  bool check_custom_domains = false;
  // Skip the check that a function's opset imports agree with the model's for the ops it uses.
  bool skip_opset_compatibility_check = false;
  // Stop collecting errors after this many (0: no limit).
  size_t max_errors = 200;
};

struct CheckResult {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  // True when errors were dropped because of CheckOptions::max_errors.
  bool truncated = false;

  bool ok() const { return errors.empty(); }
  // OK, or InvalidArgument listing the errors one per line.
  absl::Status status() const;
};

// Runs every check and collects all errors and warnings.
CheckResult Check(const ir::Model& model, const CheckOptions& options = {});

// OK when the model is valid; warnings, when wanted, go to `warnings`.
absl::Status CheckModel(const ir::Model& model, const CheckOptions& options = {},
                        std::vector<std::string>* warnings = nullptr);

}  // namespace onnx_opt::schema::checker

#endif  // ONNX_OPT_SCHEMA_CHECKER_CHECKER_H_
