#include "ir/attribute.h"

#include "ir/graph.h"

namespace onnx_opt::ir {

std::string AttributeKindName(AttributeKind kind) {
  switch (kind) {
    case AttributeKind::kUndefined:
      return "undefined";
    case AttributeKind::kFloat:
      return "float";
    case AttributeKind::kInt:
      return "int";
    case AttributeKind::kString:
      return "string";
    case AttributeKind::kTensor:
      return "tensor";
    case AttributeKind::kGraph:
      return "graph";
    case AttributeKind::kFloats:
      return "floats";
    case AttributeKind::kInts:
      return "ints";
    case AttributeKind::kStrings:
      return "strings";
    case AttributeKind::kTensors:
      return "tensors";
    case AttributeKind::kGraphs:
      return "graphs";
    case AttributeKind::kSparseTensor:
      return "sparse_tensor";
    case AttributeKind::kSparseTensors:
      return "sparse_tensors";
    case AttributeKind::kTypeProto:
      return "type_proto";
    case AttributeKind::kTypeProtos:
      return "type_protos";
  }
  return "kind<" + std::to_string(static_cast<int32_t>(kind)) + ">";
}

Attribute::Attribute() = default;
Attribute::Attribute(std::string name, AttributeKind kind) : name_(std::move(name)), kind_(kind) {}
Attribute::~Attribute() = default;
Attribute::Attribute(Attribute&&) noexcept = default;
Attribute& Attribute::operator=(Attribute&&) noexcept = default;

Attribute Attribute::Float(std::string name, float v) {
  Attribute a(std::move(name), AttributeKind::kFloat);
  a.f = v;
  return a;
}

Attribute Attribute::Int(std::string name, int64_t v) {
  Attribute a(std::move(name), AttributeKind::kInt);
  a.i = v;
  return a;
}

Attribute Attribute::String(std::string name, std::string v) {
  Attribute a(std::move(name), AttributeKind::kString);
  a.s = std::move(v);
  return a;
}

Attribute Attribute::Floats(std::string name, std::vector<float> v) {
  Attribute a(std::move(name), AttributeKind::kFloats);
  a.floats = std::move(v);
  return a;
}

Attribute Attribute::Ints(std::string name, std::vector<int64_t> v) {
  Attribute a(std::move(name), AttributeKind::kInts);
  a.ints = std::move(v);
  return a;
}

Attribute Attribute::Strings(std::string name, std::vector<std::string> v) {
  Attribute a(std::move(name), AttributeKind::kStrings);
  a.strings = std::move(v);
  return a;
}

Attribute Attribute::FromTensor(std::string name, Tensor t) {
  Attribute a(std::move(name), AttributeKind::kTensor);
  a.t = std::move(t);
  return a;
}

Attribute Attribute::FromGraph(std::string name, std::unique_ptr<Graph> g) {
  Attribute a(std::move(name), AttributeKind::kGraph);
  a.g = std::move(g);
  return a;
}

Attribute Attribute::Reference(std::string name, AttributeKind kind, std::string ref) {
  Attribute a(std::move(name), kind);
  a.set_ref_attr_name(std::move(ref));
  return a;
}

}  // namespace onnx_opt::ir
