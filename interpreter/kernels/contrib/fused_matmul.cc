// FusedMatMul (com.microsoft): alpha * matmul(op(A), op(B)) with numpy.matmul's batching, where op
// moves the first dim behind the other batch dims (transBatchA/B: [d0, d1, ..., dn-2, dn-1] ->
// [d1, ..., dn-2, d0, dn-1]) and then swaps the last two dims (transA/B).
#include <numeric>
#include <utility>
#include <vector>

#include "interpreter/kernels/batched_matmul.h"
#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;
using absl::StatusOr;

StatusOr<Tensor> Operand(const KernelContext& ctx, Tensor t, bool trans, bool trans_batch,
                         std::string_view name) {
  if (t.rank() < 2) {
    if (trans_batch)
      return ctx.Error(
          absl::StrCat("transBatch needs input '", std::string(name), "' of rank 2 or more"));
    return t;  // a 1-D operand is not transposed
  }
  const int64_t r = t.rank();
  std::vector<int64_t> perm(r);
  std::iota(perm.begin(), perm.end(), 0);
  if (trans_batch) {
    for (int64_t i = 0; i + 2 < r; ++i) perm[i] = i + 1;
    perm[r - 2] = 0;
  }
  if (trans) std::swap(perm[r - 2], perm[r - 1]);
  bool identity = true;
  for (int64_t i = 0; i < r; ++i) identity &= perm[i] == i;
  if (identity) return t;
  return TransposeTensor(t, perm);
}

Status FusedMatMulKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(Tensor a, FloatInput(ctx, 0, "A"));
  ASSIGN_OR_RETURN(Tensor b, FloatInput(ctx, 1, "B"));
  ASSIGN_OR_RETURN(a, Operand(ctx, std::move(a), ctx.GetInt("transA", 0) != 0,
                              ctx.GetInt("transBatchA", 0) != 0, "A"));
  ASSIGN_OR_RETURN(b, Operand(ctx, std::move(b), ctx.GetInt("transB", 0) != 0,
                              ctx.GetInt("transBatchB", 0) != 0, "B"));
  StatusOr<Tensor> y = BatchedMatMul(a, b);
  if (!y.ok()) return ctx.Error(std::string(y.status().message()));
  const float alpha = ctx.GetFloat("alpha", 1.0f);
  if (alpha != 1.0f) {
    float* p = y->mutable_data<float>();
    for (int64_t i = 0; i < y->size(); ++i) p[i] *= alpha;
  }
  return SetFloatOutput(ctx, 0, std::move(*y), ctx.input(0).dtype());
}

}  // namespace

void RegisterFusedMatMulKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "FusedMatMul", 1, FusedMatMulKernel);
}

}  // namespace onnx_opt::interpreter::contrib
