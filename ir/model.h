// A Model: the main graph, model-local functions, opset imports and ModelProto's metadata.
#ifndef ONNX_OPT_IR_MODEL_H_
#define ONNX_OPT_IR_MODEL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/explicit_defaults.h"
#include "ir/function.h"
#include "ir/graph.h"
#include "ir/opset_import.h"

namespace onnx_opt::ir {

class Model {
 public:
  Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  int64_t ir_version() const { return ir_version_; }
  void set_ir_version(int64_t v) { ir_version_ = v; }
  std::vector<OpsetImport>& mutable_opset_imports() { return opset_imports_; }
  const std::vector<OpsetImport>& opset_imports() const { return opset_imports_; }
  std::optional<int64_t> OpsetVersion(std::string_view domain) const {
    return FindOpsetVersion(opset_imports_, domain);
  }
  // Sets (or adds) the imported version of `domain`.
  void SetOpsetVersion(std::string_view domain, int64_t version);

  const std::string& producer_name() const { return producer_name_; }
  void set_producer_name(std::string s) { producer_name_ = std::move(s); }
  const std::string& producer_version() const { return producer_version_; }
  void set_producer_version(std::string s) { producer_version_ = std::move(s); }
  const std::string& domain() const { return domain_; }
  void set_domain(std::string s) { domain_ = std::move(s); }
  // Absent unless the file or the user set it.
  const std::optional<int64_t>& model_version() const { return model_version_; }
  void set_model_version(std::optional<int64_t> v) { model_version_ = v; }
  const std::string& doc_string() const { return doc_string_; }
  void set_doc_string(std::string s) { doc_string_ = std::move(s); }
  const StringPairs& metadata_props() const { return metadata_props_; }
  StringPairs& mutable_metadata_props() { return metadata_props_; }

  Graph& graph() { return *graph_; }
  const Graph& graph() const { return *graph_; }
  void set_graph(std::unique_ptr<Graph> g) { graph_ = std::move(g); }
  // Hands the graph over, leaving an empty one (a model always has a graph).
  std::unique_ptr<Graph> TakeGraph() { return std::exchange(graph_, std::make_unique<Graph>()); }

  std::vector<std::unique_ptr<Function>>& mutable_functions() { return functions_; }
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }
  Function* FindFunction(std::string_view domain, std::string_view name,
                         std::string_view overload = "") const;

  // TrainingInfoProto and DeviceConfigurationProto messages, serialized: passed through untouched.
  std::vector<std::string>& mutable_training_info() { return training_info_; }
  const std::vector<std::string>& training_info() const { return training_info_; }
  std::vector<std::string>& mutable_configuration() { return configuration_; }
  const std::vector<std::string>& configuration() const { return configuration_; }
  // Fields the file wrote with their default value (see explicit_defaults.h).
  const ExplicitDefaults& explicit_defaults() const { return explicit_defaults_; }
  ExplicitDefaults& mutable_explicit_defaults() { return explicit_defaults_; }

 private:
  int64_t ir_version_ = 0;
  std::vector<OpsetImport> opset_imports_;
  std::string producer_name_;
  std::string producer_version_;
  std::string domain_;
  std::optional<int64_t> model_version_;
  std::string doc_string_;
  StringPairs metadata_props_;
  std::unique_ptr<Graph> graph_;
  std::vector<std::unique_ptr<Function>> functions_;
  std::vector<std::string> training_info_;
  std::vector<std::string> configuration_;
  ExplicitDefaults explicit_defaults_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_MODEL_H_
