// A model-local function (FunctionProto): a body graph plus the function's identity and attributes.
#ifndef ONNX_OPT_IR_FUNCTION_H_
#define ONNX_OPT_IR_FUNCTION_H_

#include <memory>
#include <string>
#include <vector>

#include "ir/attribute.h"
#include "ir/explicit_defaults.h"
#include "ir/graph.h"
#include "ir/opset_import.h"

namespace onnx_opt::ir {

class Function {
 public:
  Function(std::string domain, std::string name, std::string overload = "");
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;

  const std::string& domain() const { return domain_; }
  void set_domain(std::string d) { domain_ = std::move(d); }
  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  const std::string& overload() const { return overload_; }
  void set_overload(std::string o) { overload_ = std::move(o); }
  const std::string& doc_string() const { return doc_string_; }
  void set_doc_string(std::string d) { doc_string_ = std::move(d); }
  // "domain::name" or "domain::name:overload".
  std::string QualifiedName() const;

  // The body: graph inputs are the function's formal inputs, graph outputs its formal outputs.
  Graph& body() { return *body_; }
  const Graph& body() const { return *body_; }

  // Attributes without a default (FunctionProto.attribute) and with one (attribute_proto).
  std::vector<std::string>& mutable_attribute_names() { return attribute_names_; }
  const std::vector<std::string>& attribute_names() const { return attribute_names_; }
  std::vector<Attribute>& mutable_attribute_defaults() { return attribute_defaults_; }
  const std::vector<Attribute>& attribute_defaults() const { return attribute_defaults_; }

  std::vector<OpsetImport>& mutable_opset_imports() { return opset_imports_; }
  const std::vector<OpsetImport>& opset_imports() const { return opset_imports_; }

  const StringPairs& metadata_props() const { return metadata_props_; }
  StringPairs& mutable_metadata_props() { return metadata_props_; }
  // Fields the file wrote with their default value (see explicit_defaults.h).
  const ExplicitDefaults& explicit_defaults() const { return explicit_defaults_; }
  ExplicitDefaults& mutable_explicit_defaults() { return explicit_defaults_; }

 private:
  std::string domain_;
  std::string name_;
  std::string overload_;
  std::string doc_string_;
  std::unique_ptr<Graph> body_;
  std::vector<std::string> attribute_names_;
  std::vector<Attribute> attribute_defaults_;
  std::vector<OpsetImport> opset_imports_;
  StringPairs metadata_props_;
  ExplicitDefaults explicit_defaults_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_FUNCTION_H_
