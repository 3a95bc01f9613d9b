#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {

void RegisterGroupQueryAttentionKernels(KernelRegistry& r) {}

}  // namespace onnx_opt::interpreter::contrib
