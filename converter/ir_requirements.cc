#include "converter/ir_requirements.h"

#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "ir/attribute.h"
#include "ir/function.h"
#include "ir/graph.h"

namespace onnx_opt::converter {
namespace {

// Where a requirement was found, spelled only when it raises the result: most models raise it a
// few times, and spelling every node's label took a tenth of a small conversion.
using Where = absl::FunctionRef<std::string()>;

// Operators with an element type among their attributes ("to", "dtype").
bool ChoosesElementType(const std::string& op) {
  static const auto* const kOps = new absl::flat_hash_set<std::string_view>{
      "Cast",          "CastLike",         "ConstantOfShape",   "EyeLike",     "RandomNormal",
      "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli"};
  return kOps->contains(std::string_view(op));
}

class Collector {
 public:
  IrRequirement result;

  void Need(int64_t ir, Where why) {
    if (ir > result.ir_version) result = {ir, why()};
  }
  void Need(int64_t ir, const char* why) {
    Need(ir, [why] { return std::string(why); });
  }
  void DataType(ir::DataType t, Where where) {
    const int64_t ir = ir::IrVersionForDataType(t);
    if (ir > result.ir_version) {
      Need(ir,
           [&] { return absl::StrCat("element type ", ir::DataTypeName(t), " (", where(), ")"); });
    }
  }
  void Type(const ir::Type& t, Where where) {
    using K = ir::Type::Kind;
    switch (t.kind()) {
      case K::kTensor:
        DataType(t.elem_type(), where);
        break;
      case K::kSparseTensor:
        Need(6, [&] { return absl::StrCat("sparse tensor type (", where(), ")"); });
        DataType(t.elem_type(), where);
        break;
      case K::kSequence:
      case K::kMap:
        Need(6, [&] {
          return absl::StrCat(t.kind() == K::kSequence ? "sequence" : "map", " type (", where(),
                              ")");
        });
        if (t.kind() == K::kMap) DataType(t.elem_type(), where);
        if (t.has_inner()) Type(t.inner(), where);
        break;
      case K::kOptional:
        Need(8, [&] { return absl::StrCat("optional type (", where(), ")"); });
        if (t.has_inner()) Type(t.inner(), where);
        break;
      default:
        break;
    }
  }
  void Tensor(const ir::Tensor& t, Where where) {
    DataType(t.data_type(), where);
    if (!t.metadata_props().empty()) {
      Need(10, [&] { return absl::StrCat("tensor metadata_props (", where(), ")"); });
    }
  }
  void Value(const ir::Value& v, Where where) {
    Type(v.type(), where);
    if (!v.metadata_props().empty()) {
      Need(10, [&] { return absl::StrCat("value metadata_props (", where(), ")"); });
    }
  }
  void Attribute(const ir::Attribute& a, Where where) {
    if (a.kind() == ir::AttributeKind::kTensor) Tensor(a.t, where);
    for (const ir::Tensor& t : a.tensors) Tensor(t, where);
    if (a.kind() == ir::AttributeKind::kSparseTensor || !a.sparse_tensors.empty()) {
      Need(6, [&] { return absl::StrCat("sparse tensor attribute (", where(), ")"); });
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
    const auto graph_label = [&g] { return absl::StrCat("graph '", g.name(), "'"); };
    const Where where = graph_label;
    if (!g.metadata_props().empty()) {
      Need(10, [&] { return absl::StrCat("graph metadata_props (", where(), ")"); });
    }
    for (const ir::Value* v : g.inputs()) Value(*v, where);
    for (const ir::Value* v : g.initializers()) {
      Value(*v, where);
      if (v->initializer() != nullptr) Tensor(*v->initializer(), where);
      if (!v->is_graph_input() && g.owner_function() == nullptr) {
        Need(4, [&] {
          return absl::StrCat("initializer '", v->name(), "' that is not a graph input");
        });
      }
    }
    for (const ir::Value* v : g.sparse_initializers()) {
      Value(*v, where);
      Need(6, [&] { return absl::StrCat("sparse initializer '", v->name(), "'"); });
    }
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      if (g.output_info(i).has_value()) Type(g.output_info(i)->type, where);
    }
    for (const ir::DanglingValueInfo& d : g.dangling_value_info()) Type(d.type, where);
    for (const ir::Node* n : g.nodes()) {
      const auto node_label = [n, where] { return absl::StrCat(n->Describe(), " in ", where()); };
      const Where nw = node_label;
      if (!n->overload().empty()) Need(10, [&] { return absl::StrCat("an overload on ", nw()); });
      if (!n->metadata_props().empty())
        Need(10, [&] { return absl::StrCat("metadata_props on ", nw()); });
      if (!n->device_configurations().empty()) {
        Need(11, [&] { return absl::StrCat("device configurations on ", nw()); });
      }
      for (size_t i = 0; i < n->num_outputs(); ++i) Value(*n->output(i), nw);
      for (const ir::Attribute& a : n->attributes()) Attribute(a, nw);
      if (ChoosesElementType(n->op_type())) {
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

IrRequirement ContentIrRequirement(const ir::Model& model) {
  Collector c;
  if (!model.functions().empty()) c.Need(8, "model-local functions");
  if (!model.training_info().empty()) c.Need(7, "training_info");
  if (!model.configuration().empty()) c.Need(11, "multi-device configuration");
  c.Graph(model.graph());
  for (const auto& f : model.functions()) {
    if (!f->overload().empty()) {
      c.Need(10, [&] { return absl::StrCat("overload of function ", f->QualifiedName()); });
    }
    if (!f->metadata_props().empty()) {
      c.Need(10, [&] { return absl::StrCat("metadata_props of function ", f->QualifiedName()); });
    }
    for (const ir::Attribute& a : f->attribute_defaults())
      c.Attribute(a, [&] { return f->QualifiedName(); });
    c.Graph(f->body());
  }
  return c.result;
}

}  // namespace onnx_opt::converter
