#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {

void RegisterGatherBlockQuantizedKernels(KernelRegistry& r) {}

}  // namespace onnx_opt::interpreter::contrib
