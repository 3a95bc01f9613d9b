// The kinds of attribute value, numbered as AttributeProto.AttributeType. A header of its own so
// that the schema tables, which do not depend on the IR, name attribute types with the same enum.
#ifndef ONNX_OPT_IR_ATTRIBUTE_KIND_H_
#define ONNX_OPT_IR_ATTRIBUTE_KIND_H_

#include <cstdint>

namespace onnx_opt::ir {

enum class AttributeKind : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kInt = 2,
  kString = 3,
  kTensor = 4,
  kGraph = 5,
  kFloats = 6,
  kInts = 7,
  kStrings = 8,
  kTensors = 9,
  kGraphs = 10,
  kSparseTensor = 11,
  kSparseTensors = 12,
  kTypeProto = 13,
  kTypeProtos = 14,
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_ATTRIBUTE_KIND_H_
