// The largest tensor the interpreter will allocate. A hostile or mistaken model (ConstantOfShape of
// [10^6, 10^6], an Expand to a huge shape) must end in an error, not in an abort or the OOM killer.
//
// Kernels allocate through Tensor's constructor, which cannot return a status; past the limit it
// throws TensorTooLarge, and the evaluator turns that into a RESOURCE_EXHAUSTED status at the
// kernel that asked (Evaluator::Run and RunNode never let it out of the interpreter).
#ifndef ONNX_OPT_INTERPRETER_TENSOR_LIMIT_H_
#define ONNX_OPT_INTERPRETER_TENSOR_LIMIT_H_

#include <cstdint>
#include <stdexcept>
#include <string>

namespace onnx_opt::interpreter {

// Default: the machine's physical memory (no single tensor can be larger and still be computed).
uint64_t MaxTensorBytes();
void SetMaxTensorBytes(uint64_t bytes);

class TensorTooLarge : public std::length_error {
 public:
  explicit TensorTooLarge(const std::string& what) : std::length_error(what) {}
};

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_TENSOR_LIMIT_H_
