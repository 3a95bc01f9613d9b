// The named pass groups. `default` is what onnx-opt runs when --passes is not given.
#include "optimizer/pass_registry.h"

namespace onnx_opt::passes {

REGISTER_PASS_GROUP(fold_group, "fold", "evaluate constant subgraphs and take constant If branches",
                    "fold-constants,fold-shapes,fold-if");
REGISTER_PASS_GROUP(
    dce, "dce", "remove dead nodes, unused initializers, value_info, functions and opset imports",
    "dead-nodes,unused-initializers,unused-value-info,unused-functions,unused-opsets");
REGISTER_PASS_GROUP(
    fuse, "fuse", "fuse operator patterns into fewer nodes",
    "fuse-pad-into-conv,fuse-bn-into-conv,fuse-add-into-conv,fuse-scale-into-conv,fuse-input-"
    "affine-into-conv,fuse-transposes,fuse-reshapes,fuse-slices,fuse-concats,fuse-casts,fuse-log-"
    "softmax,fuse-layernorm,fuse-rmsnorm,fuse-gelu,fuse-attention,fuse-rotary-embedding,fuse-hard-"
    "sigmoid,fuse-hard-swish,fuse-softplus,fuse-mish,fuse-matmul-add,fuse-transpose-gemm,fuse-"
    "reduce-keepdims,merge-constants");
REGISTER_PASS_GROUP(cleanup, "cleanup", "remove no-op nodes and merge duplicates",
                    "nops,identity,redundant-expands,dedup-initializers,cse");
REGISTER_PASS_GROUP(default_pipeline, "default", "the standard pipeline, to a fixed point",
                    "fixed(infer-shapes,fold,cleanup,fuse,dce)");

}  // namespace onnx_opt::passes
