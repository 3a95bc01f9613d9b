// ModelProto -> ir::Model. Names are resolved by scope (a subgraph sees its own values, then those
// of the graphs around it; a function body sees only its own), after all nodes exist, so graphs
// listed out of topological order (or cyclic) still import; the verifier judges order later.
// Everything a ModelProto holds is kept so that export reproduces it field by field.
#ifndef ONNX_OPT_IR_IO_PROTO_IMPORT_H_
#define ONNX_OPT_IR_IO_PROTO_IMPORT_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/buffer.h"
#include "ir/model.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {

struct ImportOptions {
  // The folder external data locations are relative to. Empty: external tensors are an error.
  std::string external_data_dir;
  // A second folder for locations not found in the first (see ExternalDataReader).
  std::string external_data_second_dir;
  // raw_data payloads cut out before parsing (payload_splice.h): views into `spliced_file`.
  std::shared_ptr<const Buffer> spliced_file;
  std::vector<std::string_view> spliced_payloads;
};

// A model's main graph given field by field (streamed_load.h) instead of as a parsed GraphProto:
// its nodes and initializers are parsed one at a time into a message that is reused, so a load
// holds one of them at a time instead of every one of them at once.
class StreamedGraph {
 public:
  virtual ~StreamedGraph() = default;
  // Every field of the GraphProto but node and initializer.
  virtual onnx::GraphProto& shell() = 0;
  virtual size_t num_nodes() const = 0;
  virtual absl::Status ParseNode(size_t i, onnx::NodeProto* node) = 0;
  virtual size_t num_initializers() const = 0;
  virtual absl::Status ParseInitializer(size_t i, onnx::TensorProto* tensor) = 0;
};

// Errors are InvalidArgument (or NotFound/OutOfRange for external data) and name the graph, node
// and value. Tensor bytes are moved out of `proto`, so it is left partly emptied.
absl::StatusOr<std::unique_ptr<Model>> ImportModel(onnx::ModelProto& proto,
                                                   const ImportOptions& options = {});

// The same for `proto` without its graph field, whose main graph is `graph`. The errors are the
// same, except that of two faults in different nodes the first one met is reported, where
// ImportModel reports a node output defined twice before a bad attribute.
absl::StatusOr<std::unique_ptr<Model>> ImportModel(onnx::ModelProto& proto, StreamedGraph& graph,
                                                   const ImportOptions& options = {});

}  // namespace onnx_opt::ir::io

#endif  // ONNX_OPT_IR_IO_PROTO_IMPORT_H_
