// A node (or function) attribute, mirroring AttributeProto. Subgraph attributes own their Graph.
#ifndef ONNX_OPT_IR_ATTRIBUTE_H_
#define ONNX_OPT_IR_ATTRIBUTE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/attribute_kind.h"
#include "ir/boxed.h"
#include "ir/tensor.h"
#include "ir/type.h"

namespace onnx_opt::ir {

class Graph;

// "float", "ints", "graph", ... as the text syntax and messages spell them.
std::string AttributeKindName(AttributeKind kind);

class Attribute {
 public:
  Attribute();
  Attribute(std::string name, AttributeKind kind);
  ~Attribute();
  Attribute(Attribute&&) noexcept;
  Attribute& operator=(Attribute&&) noexcept;
  Attribute(const Attribute&) = delete;
  Attribute& operator=(const Attribute&) = delete;

  static Attribute Float(std::string name, float v);
  static Attribute Int(std::string name, int64_t v);
  static Attribute String(std::string name, std::string v);
  static Attribute Floats(std::string name, std::vector<float> v);
  static Attribute Ints(std::string name, std::vector<int64_t> v);
  static Attribute Strings(std::string name, std::vector<std::string> v);
  static Attribute FromTensor(std::string name, Tensor t);
  static Attribute FromGraph(std::string name, std::unique_ptr<Graph> g);
  // Inside a function body: the value comes from the calling node's attribute `ref`.
  static Attribute Reference(std::string name, AttributeKind kind, std::string ref);

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  AttributeKind kind() const { return kind_; }
  void set_kind(AttributeKind k) { kind_ = k; }
  const std::string& ref_attr_name() const { return rare_->ref_attr_name; }
  void set_ref_attr_name(std::string r) { rare_.SetField(&Rare::ref_attr_name, std::move(r)); }
  bool is_reference() const { return rare_.is_set() && !rare_->ref_attr_name.empty(); }
  const std::string& doc_string() const { return rare_->doc_string; }
  void set_doc_string(std::string d) { rare_.SetField(&Rare::doc_string, std::move(d)); }

  // The payload; only the member matching kind() is meaningful. Lists are public because they are
  // plain data with no invariant to protect. The tensor, sparse tensor and type are boxed (made on
  // first write; see boxed.h): they are most of an Attribute's size and rarely used.
  float f = 0.0f;
  int64_t i = 0;
  std::string s;
  Boxed<Tensor> t;
  std::unique_ptr<Graph> g;
  Boxed<SparseTensor> sparse_tensor;
  Boxed<Type> tp;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::vector<Tensor> tensors;
  std::vector<std::unique_ptr<Graph>> graphs;
  std::vector<SparseTensor> sparse_tensors;
  std::vector<Type> type_protos;

 private:
  std::string name_;
  AttributeKind kind_ = AttributeKind::kUndefined;
  // Function-body references and doc strings are rare: boxed.
  struct Rare {
    std::string ref_attr_name;
    std::string doc_string;
  };
  Boxed<Rare> rare_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_ATTRIBUTE_H_
