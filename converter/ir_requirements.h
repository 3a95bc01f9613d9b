// The IR version a model's content needs, apart from its opset imports: element types introduced
// by later IR versions, model-local functions, optional/sequence/map types, training info,
// metadata on nodes and values, overloads, multi-device configurations, and initializers that are
// not graph inputs. The converter lowers ir_version on a downgrade only down to this (and to what
// the target opsets need), so a lowered model never loses anything its IR version cannot express.
#ifndef ONNX_OPT_CONVERTER_IR_REQUIREMENTS_H_
#define ONNX_OPT_CONVERTER_IR_REQUIREMENTS_H_

#include <cstdint>
#include <string>

#include "ir/model.h"

namespace onnx_opt::converter {

struct IrRequirement {
  int64_t ir_version = 3;
  std::string reason;  // what needs it ("element type float8e4m3fn", "model-local functions", ...)
};

IrRequirement ContentIrRequirement(const ir::Model& model);

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_IR_REQUIREMENTS_H_
