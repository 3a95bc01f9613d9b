// ir::Model -> ModelProto. By default every tensor is written back the way the file stored it
// (raw_data, typed fields, or its external reference), so load -> export reproduces the ModelProto.
#ifndef ONNX_OPT_IR_IO_PROTO_EXPORT_H_
#define ONNX_OPT_IR_IO_PROTO_EXPORT_H_

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "ir/model.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {

class ExternalDataWriter;

struct ExportOptions {
  // Write inline data as raw_data even where the file used typed fields.
  bool force_raw_data = false;
  // Receives the bytes of external tensors. Null: tensors read from external data keep their
  // references (only right next to the files they came from).
  ExternalDataWriter* external_writer = nullptr;
  // With a writer: inline tensors with at least this many bytes also go to external data.
  uint64_t external_threshold = UINT64_MAX;
};

absl::Status ExportModel(const Model& model, const ExportOptions& options, onnx::ModelProto* out);
// One model-local function, as ExportModel writes it.
absl::Status ExportFunction(const Function& f, const ExportOptions& options,
                            onnx::FunctionProto* out);

// A graph's value_info entries in the order the file listed them: values of the graph listed there,
// and entries naming no value (exactly one of the two is set).
struct ValueInfoEntry {
  const Value* value = nullptr;
  const DanglingValueInfo* dangling = nullptr;
};
std::vector<ValueInfoEntry> ValueInfoInOrder(const Graph& graph);

// Calls `fn` for every dense tensor of the model: initializers, sparse initializer parts, attribute
// tensors, in every graph, subgraph and function.
void ForEachTensor(const Model& model, const std::function<void(const Tensor&)>& fn);

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_PROTO_EXPORT_H_
