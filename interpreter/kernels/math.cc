#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {

void RegisterMathKernels(KernelRegistry& r) {}

}  // namespace onnx_opt::interpreter
