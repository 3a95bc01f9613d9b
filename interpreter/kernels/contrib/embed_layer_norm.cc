#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {

void RegisterEmbedLayerNormKernels(KernelRegistry& r) {}

}  // namespace onnx_opt::interpreter::contrib
