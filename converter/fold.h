// Compile-time values for adapters that need an input to be constant (an `axes` input that becomes
// an attribute on a downgrade): constant initializers and Constant nodes directly, small
// computations over them (Concat, Cast, Unsqueeze, Shape of a statically shaped value, ...) by
// running the nodes with the interpreter.
#ifndef ONNX_OPT_CONVERTER_FOLD_H_
#define ONNX_OPT_CONVERTER_FOLD_H_

#include <cstdint>
#include <functional>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "ir/node.h"
#include "ir/opset_import.h"
#include "ir/tensor.h"
#include "ir/type.h"
#include "ir/value.h"

namespace onnx_opt::converter {

class Folder {
 public:
  // `opsets_for(node)`: the opset imports a node is to be evaluated with (during a step, nodes
  // already adapted are at the target opset, the others still at the source).
  // `type_of(v)`: the best known type of a value (declared or inferred); shapes known there let
  // Shape/Size of a value fold.
  Folder(std::function<std::vector<ir::OpsetImport>(const ir::Node&)> opsets_for,
         std::function<const ir::Type&(const ir::Value*)> type_of)
      : opsets_for_(std::move(opsets_for)), type_of_(std::move(type_of)) {}

  // The value `v` always has, or nullopt when it depends on graph inputs, on random operators, on a
  // subgraph, or would be larger than `max_elements`.
  std::optional<ir::Tensor> Fold(const ir::Value* v, int64_t max_elements = 1 << 16);

 private:
  std::optional<ir::Tensor> FoldImpl(const ir::Value* v, int depth, int64_t max_elements);

  std::function<std::vector<ir::OpsetImport>(const ir::Node&)> opsets_for_;
  std::function<const ir::Type&(const ir::Value*)> type_of_;
  absl::flat_hash_map<const ir::Value*, std::optional<ir::Tensor>> memo_;
};

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_FOLD_H_
