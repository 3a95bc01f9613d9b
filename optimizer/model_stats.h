// Size measures of a model that the pass manager records before and after each pass.
#ifndef ONNX_OPT_OPTIMIZER_MODEL_STATS_H_
#define ONNX_OPT_OPTIMIZER_MODEL_STATS_H_

#include <cstdint>
#include <map>
#include <string>

#include "ir/model.h"

namespace onnx_opt::optimizer {

struct ModelSize {
  int64_t nodes = 0;              // every node, in subgraphs and functions too
  int64_t initializer_bytes = 0;  // data bytes of every initializer and Constant-free tensor
  bool operator==(const ModelSize&) const = default;
};

ModelSize MeasureModel(const ir::Model& model);

// Data bytes of one tensor (raw bytes plus string contents).
int64_t TensorBytes(const ir::Tensor& t);

// Node count per op type ("Conv", "com.example::MyOp"), over every graph and function.
std::map<std::string, int64_t> CountOpTypes(const ir::Model& model);

}  // namespace onnx_opt::optimizer

#endif  // ONNX_OPT_OPTIMIZER_MODEL_STATS_H_
