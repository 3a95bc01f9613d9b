// EmbedLayerNormalization (com.microsoft): BERT's embedding layer. For token (b, s):
//   sum = word_embedding[input_ids[b, s]] + position_embedding[p] (+
//   segment_embedding[segment_ids[b, s]])
// with p = position_ids[b or 0, s] when given, else s; output = LayerNormalization(sum, gamma,
// beta) over the hidden dim (epsilon 1e-12 by default). mask_index[b] counts the 1s of mask row b
// (0 when there is no mask), embedding_sum is `sum`. An id outside its table is an error naming the
// input.
#include <string>

#include "interpreter/kernels/common.h"
#include "interpreter/kernels/contrib/contrib.h"

namespace onnx_opt::interpreter::contrib {
namespace {

using absl::Status;
using absl::StatusOr;

// Input i as int32 ids of shape [B, S] (or [1, S] when `broadcast_ok`).
StatusOr<const Tensor*> Ids(const KernelContext& ctx, size_t i, std::string_view name, int64_t b,
                            int64_t s, bool broadcast_ok) {
  ASSIGN_OR_RETURN(const Tensor* t, ctx.TensorInput(i));
  if (t->dtype() != DataType::kInt32) {
    return ctx.Error(
        absl::StrCat("input '", std::string(name), "' must be int32, got ", t->ShapeString()));
  }
  const bool full = t->rank() == 2 && t->dim(0) == b && t->dim(1) == s;
  const bool one = broadcast_ok && t->rank() == 2 && t->dim(0) == 1 && t->dim(1) == s;
  if (!full && !one) {
    return ctx.Error(absl::StrCat("input '", std::string(name), "' must have shape [", b, ",", s,
                                  "]", broadcast_ok ? absl::StrCat(" or [1,", s, "]") : "",
                                  ", got ", DimsToString(t->dims())));
  }
  return t;
}

// A [rows, hidden] table.
Status ExpectTable(const KernelContext& ctx, const Tensor& t, std::string_view name,
                   int64_t hidden) {
  if (t.rank() != 2 || t.dim(1) != hidden) {
    return ctx.Error(absl::StrCat("input '", std::string(name), "' must have shape [?,", hidden,
                                  "], got ", DimsToString(t.dims())));
  }
  return absl::OkStatus();
}

Status EmbedLayerNormKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* ids0, ctx.TensorInput(0));
  if (ids0->rank() != 2)
    return ctx.Error(
        absl::StrCat("input 'input_ids' must be 2-D, got ", DimsToString(ids0->dims())));
  const int64_t batch = ids0->dim(0), seq = ids0->dim(1);
  ASSIGN_OR_RETURN(const Tensor* ids, Ids(ctx, 0, "input_ids", batch, seq, false));
  ASSIGN_OR_RETURN(Tensor word, FloatInput(ctx, 2, "word_embedding"));
  ASSIGN_OR_RETURN(Tensor pos, FloatInput(ctx, 3, "position_embedding"));
  ASSIGN_OR_RETURN(Tensor gamma, FloatInput(ctx, 5, "gamma"));
  ASSIGN_OR_RETURN(Tensor beta, FloatInput(ctx, 6, "beta"));
  if (word.rank() != 2)
    return ctx.Error(
        absl::StrCat("input 'word_embedding' must be 2-D, got ", DimsToString(word.dims())));
  const int64_t hidden = word.dim(1);
  RETURN_IF_ERROR(ExpectTable(ctx, pos, "position_embedding", hidden));
  RETURN_IF_ERROR(ExpectVector(ctx, gamma, "gamma", hidden));
  RETURN_IF_ERROR(ExpectVector(ctx, beta, "beta", hidden));
  const Tensor* segment_ids = nullptr;
  Tensor seg;
  if (ctx.has_input(1) != ctx.has_input(4)) {
    return ctx.Error("inputs 'segment_ids' and 'segment_embedding' must be given together");
  }
  if (ctx.has_input(1)) {
    ASSIGN_OR_RETURN(segment_ids, Ids(ctx, 1, "segment_ids", batch, seq, false));
    ASSIGN_OR_RETURN(seg, FloatInput(ctx, 4, "segment_embedding"));
    RETURN_IF_ERROR(ExpectTable(ctx, seg, "segment_embedding", hidden));
  }
  const Tensor* mask = nullptr;
  if (ctx.has_input(7)) {
    ASSIGN_OR_RETURN(mask, Ids(ctx, 7, "mask", batch, seq, false));
  }
  const Tensor* position_ids = nullptr;
  if (ctx.has_input(8)) {
    ASSIGN_OR_RETURN(position_ids, Ids(ctx, 8, "position_ids", batch, seq, true));
  }
  Tensor sum(DataType::kFloat, {batch, seq, hidden});
  float* psum = sum.mutable_data<float>();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < seq; ++s) {
      const int64_t token = b * seq + s;
      const int64_t w = ids->data<int32_t>()[token];
      if (w < 0 || w >= word.dim(0)) {
        return ctx.Error(absl::StrCat("input 'input_ids' holds ", w, ", outside word_embedding's ",
                                      word.dim(0), " rows"));
      }
      int64_t p = s;
      if (position_ids != nullptr)
        p = position_ids->data<int32_t>()[(position_ids->dim(0) == 1 ? 0 : b * seq) + s];
      if (p < 0 || p >= pos.dim(0)) {
        return ctx.Error(
            absl::StrCat("position ", p, " is outside position_embedding's ", pos.dim(0), " rows"));
      }
      const float* pw = word.data<float>() + w * hidden;
      const float* pp = pos.data<float>() + p * hidden;
      float* out = psum + token * hidden;
      for (int64_t h = 0; h < hidden; ++h) out[h] = pw[h] + pp[h];
      if (segment_ids != nullptr) {
        const int64_t g = segment_ids->data<int32_t>()[token];
        if (g < 0 || g >= seg.dim(0)) {
          return ctx.Error(absl::StrCat("input 'segment_ids' holds ", g,
                                        ", outside segment_embedding's ", seg.dim(0), " rows"));
        }
        const float* pg = seg.data<float>() + g * hidden;
        for (int64_t h = 0; h < hidden; ++h) out[h] += pg[h];
      }
    }
  }
  Tensor y = Tensor::Uninitialized(DataType::kFloat, sum.dims());
  Vec().layer_norm_rows_f32(psum, gamma.data<float>(), beta.data<float>(), y.mutable_data<float>(),
                            batch * seq, hidden, ctx.GetFloat("epsilon", 1e-12f), nullptr, nullptr);
  const DataType type = ctx.input(2).dtype();
  RETURN_IF_ERROR(SetFloatOutput(ctx, 0, std::move(y), type));
  if (ctx.num_outputs() > 1 && ctx.wants_output(1)) {
    Tensor mask_index(DataType::kInt32, {batch});
    if (mask != nullptr) {
      for (int64_t b = 0; b < batch; ++b) {
        int32_t count = 0;
        for (int64_t s = 0; s < seq; ++s) count += mask->data<int32_t>()[b * seq + s] == 1 ? 1 : 0;
        mask_index.mutable_data<int32_t>()[b] = count;
      }
    }
    ctx.set_output(1, std::move(mask_index));
  }
  if (ctx.num_outputs() > 2) RETURN_IF_ERROR(SetFloatOutput(ctx, 2, std::move(sum), type));
  return absl::OkStatus();
}

}  // namespace

void RegisterEmbedLayerNormKernels(KernelRegistry& r) {
  r.Register(kMsDomain, "EmbedLayerNormalization", 1, EmbedLayerNormKernel);
}

}  // namespace onnx_opt::interpreter::contrib
