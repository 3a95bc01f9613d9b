// Rules for constant tensors as the IR holds them (initializers and tensor attributes): a defined
// element type, non-negative dims, data that matches type and dims, external data references that
// stay inside the model's folder (onnx/docs/ExternalData.md), and valid sparse tensor indices.
#ifndef ONNX_OPT_SCHEMA_CHECKER_TENSOR_CHECK_H_
#define ONNX_OPT_SCHEMA_CHECKER_TENSOR_CHECK_H_

#include <string>
#include <vector>

#include "ir/tensor.h"

namespace onnx_opt::schema::checker {

// Appends one message per problem of `tensor` (named in messages by `what`, e.g.
// "initializer 'W'") to `problems`.
void CheckTensor(const ir::Tensor& tensor, const std::string& what,
                 std::vector<std::string>* problems);

void CheckSparseTensor(const ir::SparseTensor& tensor, const std::string& what,
                       std::vector<std::string>* problems);

}  // namespace onnx_opt::schema::checker

#endif  // ONNX_OPT_SCHEMA_CHECKER_TENSOR_CHECK_H_
