#include "tools/dot/graph_dot.h"

#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "boost/graph/adjacency_list.hpp"
#include "boost/graph/graphviz.hpp"
#include "boost/graph/subgraph.hpp"
#include "ir/captures.h"

namespace onnx_opt::tools {
namespace {

using Attributes = std::map<std::string, std::string>;
// The property layout write_graphviz needs for a subgraph: attributes per vertex, edge and graph,
// an edge index, and a name per (sub)graph: clusters are subgraphs named "cluster...".
using DotGraph = boost::subgraph<boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS,
    boost::property<boost::vertex_attribute_t, Attributes>,
    boost::property<boost::edge_index_t, int, boost::property<boost::edge_attribute_t, Attributes>>,
    boost::property<boost::graph_name_t, std::string,
                    boost::property<boost::graph_graph_attribute_t, Attributes,
                                    boost::property<boost::graph_vertex_attribute_t, Attributes,
                                                    boost::property<boost::graph_edge_attribute_t,
                                                                    Attributes>>>>>>;
using Vertex = boost::graph_traits<DotGraph>::vertex_descriptor;

constexpr size_t kMaxNameLength = 32;
// DOT's line break inside a label (write_graphviz quotes labels but leaves backslashes alone).
constexpr char kLineBreak[] = "\\n";

std::string Shorten(const std::string& name) {
  return name.size() <= kMaxNameLength ? name : name.substr(0, kMaxNameLength - 3) + "...";
}

std::string ShapeOf(const ir::Value& v) {
  if (v.type().is_tensor() && v.type().shape().has_value())
    return ir::ShapeToString(*v.type().shape());
  return v.type().is_none() ? "?" : v.type().ToString();
}

// What identifies a node across a rewrite: its operator and the values it reads and writes.
std::string Signature(const ir::Node& node) {
  std::vector<std::string> inputs, outputs;
  for (size_t i = 0; i < node.num_inputs(); ++i)
    inputs.push_back(node.has_input(i) ? node.input(i)->name() : "");
  for (size_t i = 0; i < node.num_outputs(); ++i) outputs.push_back(node.output(i)->name());
  return absl::StrCat(node.domain(), "::", node.op_type(), "(", absl::StrJoin(inputs, ","), ")->",
                      absl::StrJoin(outputs, ","));
}

class DotBuilder {
 public:
  explicit DotBuilder(const DotOptions& options) : options_(options) {
    boost::get_property(root_, boost::graph_name) = "model";
    boost::get_property(root_, boost::graph_graph_attribute)["compound"] = "true";
    boost::get_property(root_, boost::graph_vertex_attribute)["fontname"] = "Helvetica";
    boost::get_property(root_, boost::graph_vertex_attribute)["fontsize"] = "10";
    if (options.compare_with != nullptr) {
      ir::ForEachNodeRecursive(options.compare_with->graph(),
                               [&](const ir::Node* n) { before_.insert(Signature(*n)); });
    }
  }

  std::string Build(const ir::Model& model) {
    AddVertices(model.graph(), root_);
    AddEdges(model.graph());
    if (options_.compare_with != nullptr) AddRemovedNodes(options_.compare_with->graph());
    std::ostringstream out;
    boost::write_graphviz(out, root_);
    return out.str();
  }

 private:
  Vertex AddVertex(DotGraph& cluster, Attributes attributes) {
    const Vertex local = boost::add_vertex(cluster);
    const Vertex global = cluster.local_to_global(local);
    boost::get(boost::vertex_attribute, root_)[global] = std::move(attributes);
    return global;
  }

  void AddEdge(Vertex from, Vertex to, Attributes attributes = {}) {
    const auto [edge, added] = boost::add_edge(from, to, root_);
    boost::get(boost::edge_index, root_)[edge] = edge_count_++;
    boost::get(boost::edge_attribute, root_)[edge] = std::move(attributes);
  }

  // Vertices first, for every graph, so that edges may come from anywhere (a body reads outer
  // values).
  void AddVertices(const ir::Graph& graph, DotGraph& cluster) {
    for (const ir::Value* input : graph.inputs()) {
      if (input->is_initializer()) continue;  // a weight, shown in its consumers' labels
      producers_[input] = AddVertex(
          cluster, {{"shape", "ellipse"},
                    {"label", absl::StrCat(Shorten(input->name()), kLineBreak, ShapeOf(*input))}});
    }
    for (const ir::Node* node : graph.nodes()) {
      std::vector<std::string> lines = {node->op_type()};
      for (size_t i = 0; i < node->num_outputs(); ++i) {
        if (!node->output(i)->is_omitted()) lines.push_back(ShapeOf(*node->output(i)));
      }
      for (size_t i = 0; i < node->num_inputs(); ++i) {
        const ir::Value* input = node->has_input(i) ? node->input(i) : nullptr;
        if (input != nullptr && input->is_initializer()) {
          lines.push_back(absl::StrCat(Shorten(input->name()), " ", ShapeOf(*input)));
        }
      }
      Attributes attributes = {{"shape", "box"}, {"label", absl::StrJoin(lines, kLineBreak)}};
      if (!node->name().empty()) attributes["tooltip"] = node->name();
      if (options_.compare_with != nullptr && !before_.contains(Signature(*node))) {
        attributes["style"] = "filled";
        attributes["fillcolor"] = "palegreen";
      }
      const Vertex v = AddVertex(cluster, std::move(attributes));
      node_vertices_[node] = v;
      if (options_.compare_with != nullptr) after_.insert(Signature(*node));
      for (size_t i = 0; i < node->num_outputs(); ++i) producers_[node->output(i)] = v;
      for (const ir::Graph* body : node->subgraphs()) {
        DotGraph& child = cluster.create_subgraph();
        const std::string name = absl::StrCat("cluster_", cluster_count_++);
        boost::get_property(child, boost::graph_name) = name;
        boost::get_property(child, boost::graph_graph_attribute)["label"] =
            absl::StrCat(node->op_type(), ": ", body->name());
        boost::get_property(child, boost::graph_graph_attribute)["style"] = "rounded";
        AddVertices(*body, child);
        bodies_.push_back({v, &child, name});
      }
    }
    for (const ir::Value* output : graph.outputs()) {
      outputs_.push_back(
          {output, AddVertex(cluster, {{"shape", "ellipse"},
                                       {"label", absl::StrCat(Shorten(output->name()), kLineBreak,
                                                              ShapeOf(*output))}})});
    }
  }

  void AddEdges(const ir::Graph& graph) {
    ir::ForEachNodeRecursive(graph, [&](const ir::Node* node) {
      const Vertex to = node_vertices_.at(node);
      for (size_t i = 0; i < node->num_inputs(); ++i) {
        if (!node->has_input(i)) continue;
        if (auto from = producers_.find(node->input(i)); from != producers_.end())
          AddEdge(from->second, to);
      }
    });
    for (const auto& [value, vertex] : outputs_) {
      if (auto from = producers_.find(value); from != producers_.end())
        AddEdge(from->second, vertex);
    }
    // The node holding a body points into its cluster.
    for (const Body& body : bodies_) {
      if (boost::num_vertices(*body.cluster) == 0) continue;
      const Vertex first = body.cluster->local_to_global(*boost::vertices(*body.cluster).first);
      AddEdge(body.holder, first, {{"style", "dashed"}, {"lhead", body.name}});
    }
  }

  // The input's main-graph nodes the result no longer has, wired to what produced their inputs.
  void AddRemovedNodes(const ir::Graph& before) {
    std::unordered_map<std::string, Vertex> by_name;
    for (const auto& [value, vertex] : producers_) by_name.emplace(value->name(), vertex);
    std::unordered_map<std::string, Vertex> removed_outputs;
    for (const ir::Node* node : before.nodes()) {
      if (after_.contains(Signature(*node))) continue;
      const Vertex v =
          AddVertex(root_, {{"shape", "box"},
                            {"style", "dashed"},
                            {"color", "red"},
                            {"fontcolor", "red"},
                            {"label", absl::StrCat(node->op_type(), kLineBreak, "(removed)")}});
      for (size_t i = 0; i < node->num_inputs(); ++i) {
        if (!node->has_input(i) || node->input(i)->is_initializer()) continue;
        const std::string& name = node->input(i)->name();
        if (auto from = removed_outputs.find(name); from != removed_outputs.end()) {
          AddEdge(from->second, v, {{"style", "dashed"}, {"color", "red"}});
        } else if (auto kept = by_name.find(name); kept != by_name.end()) {
          AddEdge(kept->second, v, {{"style", "dashed"}, {"color", "red"}});
        }
      }
      for (size_t i = 0; i < node->num_outputs(); ++i) removed_outputs[node->output(i)->name()] = v;
    }
  }

  struct Body {
    Vertex holder;
    DotGraph* cluster;
    std::string name;
  };

  const DotOptions& options_;
  DotGraph root_;
  int edge_count_ = 0;
  int cluster_count_ = 0;
  std::unordered_set<std::string> before_;
  std::unordered_map<const ir::Value*, Vertex> producers_;
  std::vector<std::pair<const ir::Value*, Vertex>> outputs_;
  std::vector<Body> bodies_;
  std::unordered_set<std::string> after_;  // signatures of the result's nodes, when comparing
  std::unordered_map<const ir::Node*, Vertex> node_vertices_;
};

}  // namespace

std::string ToDot(const ir::Model& model, const DotOptions& options) {
  return DotBuilder(options).Build(model);
}

}  // namespace onnx_opt::tools
