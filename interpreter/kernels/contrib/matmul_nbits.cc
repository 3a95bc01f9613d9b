#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {

void RegisterMatMulNBitsKernels(KernelRegistry& r) {}

}  // namespace onnx_opt::interpreter::contrib
