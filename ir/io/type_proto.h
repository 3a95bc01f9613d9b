// TypeProto <-> ir::Type, including denotations of types and dims.
#ifndef ONNX_OPT_IR_IO_TYPE_PROTO_H_
#define ONNX_OPT_IR_IO_TYPE_PROTO_H_

#include "ir/type.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {

// Never fails: every TypeProto has a meaning (an empty one is an unknown type).
Type ImportType(const onnx::TypeProto& proto);
void ExportType(const Type& type, onnx::TypeProto* out);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_TYPE_PROTO_H_
