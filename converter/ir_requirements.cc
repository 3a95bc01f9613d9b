#include "converter/ir_requirements.h"

#include "absl/strings/str_cat.h"
#include "ir/attribute.h"
#include "ir/function.h"
#include "ir/graph.h"

namespace onnx_opt::converter {
namespace {

class Collector {
 public:
  IrRequirement result;

  void Need(int64_t ir, const std::string& why) {
    if (ir > result.ir_version) result = {ir, why};
  }
  void DataType(ir::DataType t, const std::string& where) {
    const int64_t ir = IrVersionForDataType(t);
    if (ir > result.ir_version) Need(ir, absl::StrCat("element type ", ir::DataTypeName(t), " (", where, ")"));
  }
  void Type(const ir::Type& t, const std::string& where) {
    using K = ir::Type::Kind;
    switch (t.kind()) {
      case K::kTensor:
        DataType(t.elem_type(), where);
        break;
      case K::kSparseTensor:
        Need(6, absl::StrCat("sparse tensor type (", where, ")"));
        DataType(t.elem_type(), where);
        break;
      case K::kSequence:
      case K::kMap:
        Need(6, absl::StrCat(t.kind() == K::kSequence ? "sequence" : "map", " type (", where, ")"));
        if (t.kind() == K::kMap) DataType(t.elem_type(), where);
        if (t.has_inner()) Type(t.inner(), where);
        break;
      case K::kOptional:
        Need(8, absl::StrCat("optional type (", where, ")"));
        if (t.has_inner()) Type(t.inner(), where);
        break;
      default:
        break;
    }
  }
  void Tensor(const ir::Tensor& t, const std::string& where) {
    DataType(t.data_type(), where);
    if (!t.metadata_props().empty()) Need(10, absl::StrCat("tensor metadata_props (", where, ")"));
  }
  void Value(const ir::Value& v, const std::string& where) {
    Type(v.type(), where);
    if (!v.metadata_props().empty()) Need(10, absl::StrCat("value metadata_props (", where, ")"));
  }
  void Attribute(const ir::Attribute& a, const std::string& where) {
    if (a.kind() == ir::AttributeKind::kTensor) Tensor(a.t, where);
    for (const ir::Tensor& t : a.tensors) Tensor(t, where);
    if (a.kind() == ir::AttributeKind::kSparseTensor || !a.sparse_tensors.empty()) {
      Need(6, absl::StrCat("sparse tensor attribute (", where, ")"));
      DataType(a.sparse_tensor->values.data_type(), where);
    }
    if (a.kind() == ir::AttributeKind::kTypeProto || a.kind() == ir::AttributeKind::kTypeProtos) {
      Type(a.tp, where);
      for (const ir::Type& t : a.type_protos) Type(t, where);
    }
    if (a.g) Graph(*a.g);
    for (const auto& g : a.graphs) {
      if (g) Graph(*g);
    }
  }
  void Graph(const ir::Graph& g) {
    const std::string where = absl::StrCat("graph '", g.name(), "'");
    if (!g.metadata_props().empty()) Need(10, absl::StrCat("graph metadata_props (", where, ")"));
    for (const ir::Value* v : g.inputs()) Value(*v, where);
    for (const ir::Value* v : g.initializers()) {
      Value(*v, where);
      if (v->initializer() != nullptr) Tensor(*v->initializer(), where);
      if (!v->is_graph_input() && g.owner_function() == nullptr) {
        Need(4, absl::StrCat("initializer '", v->name(), "' that is not a graph input"));
      }
    }
    for (const ir::Value* v : g.sparse_initializers()) {
      Value(*v, where);
      Need(6, absl::StrCat("sparse initializer '", v->name(), "'"));
    }
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      if (g.output_info(i).has_value()) Type(g.output_info(i)->type, where);
    }
    for (const ir::DanglingValueInfo& d : g.dangling_value_info()) Type(d.type, where);
    for (const ir::Node* n : g.nodes()) {
      const std::string nw = absl::StrCat(n->Describe(), " in ", where);
      if (!n->overload().empty()) Need(10, absl::StrCat("an overload on ", nw));
      if (!n->metadata_props().empty()) Need(10, absl::StrCat("metadata_props on ", nw));
      if (!n->device_configurations().empty()) Need(11, absl::StrCat("device configurations on ", nw));
      for (size_t i = 0; i < n->num_outputs(); ++i) Value(*n->output(i), nw);
      for (const ir::Attribute& a : n->attributes()) Attribute(a, nw);
      if (n->op_type() == "Cast" || n->op_type() == "CastLike" || n->op_type() == "ConstantOfShape" ||
          n->op_type() == "EyeLike" || n->op_type() == "RandomNormal" || n->op_type() == "RandomUniform" ||
          n->op_type() == "RandomNormalLike" || n->op_type() == "RandomUniformLike" ||
          n->op_type() == "Multinomial" || n->op_type() == "Bernoulli") {
        for (const char* name : {"to", "dtype"}) {
          const ir::Attribute* a = n->FindAttribute(name);
          if (a != nullptr && a->kind() == ir::AttributeKind::kInt && !a->is_reference()) {
            DataType(static_cast<ir::DataType>(a->i), nw);
          }
        }
      }
    }
  }
};

}  // namespace

int64_t IrVersionForDataType(ir::DataType type) {
  switch (type) {
    case ir::DataType::kFloat8E4M3FN:
    case ir::DataType::kFloat8E4M3FNUZ:
    case ir::DataType::kFloat8E5M2:
    case ir::DataType::kFloat8E5M2FNUZ:
      return 9;
    case ir::DataType::kUint4:
    case ir::DataType::kInt4:
      return 10;
    case ir::DataType::kFloat4E2M1:
      return 11;
    case ir::DataType::kFloat8E8M0:
      return 12;
    case ir::DataType::kUint2:
    case ir::DataType::kInt2:
      return 13;
    default:
      return 3;
  }
}

IrRequirement ContentIrRequirement(const ir::Model& model) {
  Collector c;
  if (!model.functions().empty()) c.Need(8, "model-local functions");
  if (!model.training_info().empty()) c.Need(7, "training_info");
  if (!model.configuration().empty()) c.Need(11, "multi-device configuration");
  c.Graph(model.graph());
  for (const auto& f : model.functions()) {
    if (!f->overload().empty()) c.Need(10, absl::StrCat("overload of function ", f->QualifiedName()));
    if (!f->metadata_props().empty()) c.Need(10, absl::StrCat("metadata_props of function ", f->QualifiedName()));
    for (const ir::Attribute& a : f->attribute_defaults()) c.Attribute(a, f->QualifiedName());
    c.Graph(f->body());
  }
  return c.result;
}

}  // namespace onnx_opt::converter
