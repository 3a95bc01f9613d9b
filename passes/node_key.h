// A canonical byte string for "what a node computes" (op, inputs, attributes), so that nodes computing
// the same thing have equal keys. Used by common subexpression elimination.
#ifndef ONNX_OPT_PASSES_NODE_KEY_H_
#define ONNX_OPT_PASSES_NODE_KEY_H_

#include <optional>
#include <string>

#include "ir/attribute.h"
#include "ir/node.h"

namespace onnx_opt::passes {

// Key of an attribute's name, kind and value; nullopt for graph attributes (not compared).
std::optional<std::string> AttributeKey(const ir::Attribute& attr);

// Key of a node: domain, op, overload, input identities, output count and attributes (in name order).
// nullopt when the node holds a subgraph.
std::optional<std::string> NodeKey(const ir::Node& node);

// The same comparison without building the key: a hash that equal nodes share, and the test itself.
// A node's hash reads only its own fields and allocates nothing unless it has attributes, so CSE over
// a large graph costs a hash-set probe per node. nullopt when the node holds a subgraph.
std::optional<size_t> NodeHash(const ir::Node& node);
// True when NodeKey(a) == NodeKey(b) (both must have keys).
bool ComputeSame(const ir::Node& a, const ir::Node& b);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_NODE_KEY_H_
