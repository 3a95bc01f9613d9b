// "What a node computes" (op, inputs, attributes), compared between nodes: a byte key per
// attribute, and a hash and an equality test per node. Used by common subexpression elimination and
// by constant folding (a repeated computation is evaluated once).
#ifndef ONNX_OPT_PASSES_NODE_KEY_H_
#define ONNX_OPT_PASSES_NODE_KEY_H_

#include <optional>
#include <string>

#include "ir/attribute.h"
#include "ir/node.h"

namespace onnx_opt::passes {

// Key of an attribute's name, kind and value; nullopt for graph attributes (not compared).
std::optional<std::string> AttributeKey(const ir::Attribute& attr);

// Whether two nodes compute the same thing: same domain, op, overload, input identities, output
// count and attributes (by AttributeKey, in any order). NodeHash is equal for such nodes; it reads
// only the node's own fields and allocates nothing unless the node has attributes. nullopt when the
// node holds a subgraph (such nodes are never the same).
std::optional<size_t> NodeHash(const ir::Node& node);
bool ComputeSame(const ir::Node& a, const ir::Node& b);

}  // namespace onnx_opt::passes

#endif  // ONNX_OPT_PASSES_NODE_KEY_H_
