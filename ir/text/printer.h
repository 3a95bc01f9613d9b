// Printer for the ONNX text syntax; the inverse of parser.h.
//
// Output is deterministic, and ParseModel(PrintModel(m)) rebuilds a model structurally equal to m
// (see model_equality.h) except for what the syntax cannot say: doc strings other than the model's
// and functions', metadata_props of graphs, nodes, values and tensors, type and dim denotations,
// quantization annotations, training_info, device configurations, how tensors were stored (raw or
// typed fields), tensor segments, and NaN payloads in float data. Tensors stored externally are
// printed as their external data reference: ["location": "w.bin", "offset": "0", ...].
//
// Values whose type is known are printed with it: graph inputs and outputs in the signature, other
// values in the graph's <...> block (those listed in value_info first, in that order, then other
// typed node outputs in node order).
#ifndef ONNX_OPT_IR_TEXT_PRINTER_H_
#define ONNX_OPT_IR_TEXT_PRINTER_H_

#include <string>

#include "ir/attribute.h"
#include "ir/function.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/type.h"

namespace onnx_opt::ir::text {

std::string PrintModel(const Model& model);
std::string PrintGraph(const Graph& graph);
std::string PrintFunction(const Function& function);
// One node, without a trailing newline (subgraphs held by its attributes span several lines).
std::string PrintNode(const Node& node);
// "name = value" as in a node's attribute list.
std::string PrintAttribute(const Attribute& attribute);
// float[N,3], seq(int64), ...
std::string PrintType(const Type& type);
// float[2] {1.0, 2.0} (with the tensor's name after the type when it has one).
std::string PrintTensor(const Tensor& tensor);

// A name as the syntax writes it: bare when it is an identifier that is not a keyword of the syntax
// (type names, seq, map, inf, ...), otherwise quoted with escapes.
std::string PrintName(std::string_view name);
// A quoted string literal with escapes.
std::string QuoteString(std::string_view s);

}  // namespace onnx_opt::ir::text

#endif  // ONNX_OPT_IR_TEXT_PRINTER_H_
