// Matrix products (MatMul, Gemm, Einsum and the quantized forms), Det, signal processing (DFT,
// STFT, windows, MelWeightMatrix) and the losses.
#include <algorithm>
#include <map>

#include "schema/inference/ops_util.h"

namespace onnx_opt::schema::inference {
namespace {

using ir::Dim;
using ir::Shape;

absl::Status MatMulShapes(InferenceContext& ctx, size_t a_idx, size_t b_idx) {
  const Shape* a = ctx.input_shape(a_idx);
  const Shape* b = ctx.input_shape(b_idx);
  if (a == nullptr || b == nullptr) return absl::OkStatus();
  if (a->rank() == 0 || b->rank() == 0) return ctx.Error("inputs must not be scalars");
  std::vector<Dim> ad(a->dims());
  std::vector<Dim> bd(b->dims());
  bool a_vec = ad.size() == 1;
  bool b_vec = bd.size() == 1;
  if (a_vec) ad.insert(ad.begin(), Dim::Known(1));
  if (b_vec) bd.push_back(Dim::Known(1));
  if (DimsConflict(ad.back(), bd[bd.size() - 2])) {
    return ctx.Error(absl::StrCat("inner dimensions differ: ", ir::ShapeToString(*a), " x ",
                                  ir::ShapeToString(*b)));
  }
  Shape abatch(std::vector<Dim>(ad.begin(), ad.end() - 2));
  Shape bbatch(std::vector<Dim>(bd.begin(), bd.end() - 2));
  auto batch = BroadcastShapes(abatch, bbatch);
  if (!batch.ok()) return ctx.Error(batch.status().message());
  std::vector<Dim> out(batch->dims());
  if (!a_vec) out.push_back(ad[ad.size() - 2]);
  if (!b_vec) out.push_back(bd.back());
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status MatMul(InferenceContext& ctx) { return MatMulShapes(ctx, 0, 1); }
absl::Status QLinearMatMul(InferenceContext& ctx) { return MatMulShapes(ctx, 0, 3); }

absl::Status Gemm(InferenceContext& ctx) {
  const Shape* a = ctx.input_shape(0);
  const Shape* b = ctx.input_shape(1);
  if (a == nullptr || b == nullptr) {
    ctx.SetOutputRank(0, 2);
    return absl::OkStatus();
  }
  if (a->rank() != 2 || b->rank() != 2) return ctx.Error("A and B must be matrices");
  bool ta = ctx.GetInt("transA", 0) != 0;
  bool tb = ctx.GetInt("transB", 0) != 0;
  Dim m = a->dim(ta ? 1 : 0), ka = a->dim(ta ? 0 : 1);
  Dim kb = b->dim(tb ? 1 : 0), n = b->dim(tb ? 0 : 1);
  if (DimsConflict(ka, kb)) return ctx.Error("inner dimensions differ");
  ctx.SetOutputShape(0, Shape({m, n}));
  // Gemm-1/6 broadcast C only with broadcast=1; without, C is M x N.
  const Shape* c = ctx.has_input(2) ? ctx.input_shape(2) : nullptr;
  if (ctx.since_version() < 7 && ctx.GetInt("broadcast", 0) == 0 && c != nullptr &&
      (c->rank() != 2 || DimsConflict(c->dim(0), m) || DimsConflict(c->dim(1), n))) {
    return ctx.Error(
        absl::StrCat("without broadcast=1, C must have the shape of A * B before opset 7; C is ",
                     ir::ShapeToString(*c), ", A * B is ", ir::ShapeToString(Shape({m, n}))));
  }
  return absl::OkStatus();
}

absl::Status Einsum(InferenceContext& ctx) {
  std::string eq;
  for (char c : ctx.GetString("equation")) {
    if (c != ' ') eq += c;
  }
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ctx.num_inputs()) {
    return ctx.Error(
        absl::StrCat("equation has ", terms.size(), " operands for ", ctx.num_inputs(), " inputs"));
  }
  std::map<char, Dim> letters;
  std::map<char, int> counts;
  std::optional<Shape> ellipsis;
  bool any_ellipsis = false;
  for (size_t i = 0; i < terms.size(); ++i) {
    const Shape* s = ctx.input_shape(i);
    if (s == nullptr) return absl::OkStatus();
    const std::string& t = terms[i];
    size_t dots = t.find("...");
    size_t n_letters = t.size() - (dots == std::string::npos ? 0 : 3);
    if (n_letters > s->rank() || (dots == std::string::npos && n_letters != s->rank())) {
      return ctx.Error(absl::StrCat("operand ", i, " '", t, "' does not match rank ", s->rank()));
    }
    size_t n_ell = s->rank() - n_letters;
    size_t dim = 0;
    for (size_t j = 0; j < t.size(); ++j) {
      if (j == dots) {
        any_ellipsis = true;
        Shape e(std::vector<Dim>(s->dims().begin() + dim, s->dims().begin() + dim + n_ell));
        if (!ellipsis) {
          ellipsis = e;
        } else {
          auto b = BroadcastShapes(*ellipsis, e);
          if (!b.ok()) return ctx.Error(b.status().message());
          ellipsis = *b;
        }
        dim += n_ell;
        j += 2;
        continue;
      }
      char c = t[j];
      const Dim& d = s->dim(dim++);
      auto it = letters.find(c);
      if (it == letters.end()) {
        letters[c] = d;
      } else if (!(d.is_known() && d.value() == 1) &&
                 !(it->second.is_known() && it->second.value() == 1)) {
        if (DimsConflict(it->second, d)) {
          return ctx.Error(absl::StrCat("label '", std::string(1, c), "' has different sizes"));
        }
        it->second = MergeDims(it->second, d);
      } else if (it->second.is_known() && it->second.value() == 1) {
        it->second = d;  // a size-1 label broadcasts
      }
      ++counts[c];
    }
  }
  std::vector<Dim> out;
  if (arrow != std::string::npos) {
    std::string rhs = eq.substr(arrow + 2);
    for (size_t j = 0; j < rhs.size(); ++j) {
      if (rhs.compare(j, 3, "...") == 0) {
        if (ellipsis) out.insert(out.end(), ellipsis->dims().begin(), ellipsis->dims().end());
        j += 2;
        continue;
      }
      auto it = letters.find(rhs[j]);
      if (it == letters.end()) {
        return ctx.Error(
            absl::StrCat("output label '", std::string(1, rhs[j]), "' is not in any operand"));
      }
      out.push_back(it->second);
    }
  } else {
    if (any_ellipsis && ellipsis) out = ellipsis->dims();
    for (const auto& [c, n] : counts) {
      if (n == 1) out.push_back(letters[c]);
    }
  }
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Det(InferenceContext& ctx) {
  const Shape* s = ctx.input_shape(0);
  if (s == nullptr) return absl::OkStatus();
  if (s->rank() < 2) return ctx.Error("input must have rank >= 2");
  if (DimsConflict(s->dim(s->rank() - 1), s->dim(s->rank() - 2))) {
    return ctx.Error("matrices are not square");
  }
  ctx.SetOutputShape(0, Shape(std::vector<Dim>(s->dims().begin(), s->dims().end() - 2)));
  return absl::OkStatus();
}

// --- Signal ------------------------------------------------------------------------------------

absl::Status Dft(InferenceContext& ctx) {
  const Shape* s = ctx.input_shape(0);
  if (s == nullptr) return absl::OkStatus();
  int64_t rank = static_cast<int64_t>(s->rank());
  if (rank < 2) return ctx.Error("input must have rank >= 2");
  int64_t axis_value;
  if (ctx.since_version() >= 20) {
    axis_value = -2;
    if (ctx.has_input(2)) {
      auto a = ctx.input_ints(2);
      if (!a || a->size() != 1) {
        ctx.SetOutputRank(0, s->rank());
        return absl::OkStatus();
      }
      axis_value = (*a)[0];
    }
  } else {
    axis_value = ctx.GetInt("axis", 1);
  }
  ASSIGN_OR_RETURN(auto axis, CheckAxis(ctx, axis_value, rank));
  std::vector<Dim> out(s->dims());
  Dim len = out[axis];
  if (ctx.has_input(1)) {
    auto l = ctx.input_ints(1);
    len = l && l->size() == 1 ? Dim::Known((*l)[0]) : Dim::Unknown();
  }
  bool onesided = ctx.GetInt("onesided", 0) != 0;
  bool inverse = ctx.GetInt("inverse", 0) != 0;
  Dim last = Dim::Known(2);
  if (onesided && inverse) {
    // A onesided spectrum in, a real signal out: n bins stand for 2 * (n - 1) samples.
    if (!ctx.has_input(1)) {
      len = len.is_known() && len.value() > 0 ? Dim::Known(2 * (len.value() - 1)) : Dim::Unknown();
    }
    last = Dim::Known(1);
  } else if (onesided) {
    len = len.is_known() ? Dim::Known(len.value() / 2 + 1) : Dim::Unknown();
  }
  out[axis] = len;
  out.back() = last;
  ctx.SetOutputShape(0, Shape(out));
  return absl::OkStatus();
}

absl::Status Stft(InferenceContext& ctx) {
  const Shape* s = ctx.input_shape(0);
  Dim batch, frames, bins;
  Dim frame_length;
  if (ctx.has_input(3)) {
    if (auto fl = ctx.input_ints(3); fl && fl->size() == 1) frame_length = Dim::Known((*fl)[0]);
  }
  if (ctx.has_input(2)) {
    if (const Shape* w = ctx.input_shape(2); w != nullptr && w->rank() == 1) {
      frame_length = MergeDims(frame_length, w->dim(0));
    }
  }
  auto step = ctx.input_ints(1);
  if (s != nullptr && s->rank() == 3) {
    batch = s->dim(0);
    const Dim& len = s->dim(1);
    if (len.is_known() && frame_length.is_known() && step && step->size() == 1 && (*step)[0] > 0 &&
        len.value() >= frame_length.value()) {
      frames = Dim::Known((len.value() - frame_length.value()) / (*step)[0] + 1);
    }
  }
  if (frame_length.is_known()) {
    bins = ctx.GetInt("onesided", 1) != 0 ? Dim::Known(frame_length.value() / 2 + 1) : frame_length;
  }
  ctx.SetOutputShape(0, Shape({batch, frames, bins, Dim::Known(2)}));
  return absl::OkStatus();
}

absl::Status Window(InferenceContext& ctx) {
  ASSIGN_OR_RETURN(auto t, DataTypeAttr(ctx, ctx.GetInt("output_datatype", 1)));
  ctx.SetOutputElemType(0, t);
  auto size = ctx.input_ints(0);
  ctx.SetOutputShape(0, Shape({size && size->size() == 1 ? Dim::Known((*size)[0]) : Dim()}));
  return absl::OkStatus();
}

absl::Status MelWeightMatrix(InferenceContext& ctx) {
  ASSIGN_OR_RETURN(auto t, DataTypeAttr(ctx, ctx.GetInt("output_datatype", 1)));
  ctx.SetOutputElemType(0, t);
  auto bins = ctx.input_ints(0);
  auto dft = ctx.input_ints(1);
  ctx.SetOutputShape(0, Shape({dft && dft->size() == 1 ? Dim::Known((*dft)[0] / 2 + 1) : Dim(),
                               bins && bins->size() == 1 ? Dim::Known((*bins)[0]) : Dim()}));
  return absl::OkStatus();
}

// --- Losses ------------------------------------------------------------------------------------

absl::Status NllLoss(InferenceContext& ctx) {
  if (ctx.GetString("reduction", "mean") == "none") {
    ctx.PropagateShape(1, 0);
  } else {
    ctx.SetOutputShape(0, Shape());
  }
  return absl::OkStatus();
}

absl::Status SoftmaxCrossEntropyLoss(InferenceContext& ctx) {
  RETURN_IF_ERROR(NllLoss(ctx));
  if (ctx.num_outputs() > 1) ctx.PropagateShape(0, 1);
  return absl::OkStatus();
}

}  // namespace

void RegisterMathOps(InferenceRegistry& r) {
  r.Register("MatMul", MatMul);
  r.Register("MatMulInteger", MatMul);
  r.Register("QLinearMatMul", QLinearMatMul);
  r.Register("Gemm", Gemm);
  r.Register("Einsum", Einsum);
  r.Register("Det", Det);
  r.Register("DFT", Dft);
  r.Register("STFT", Stft);
  r.Register("HannWindow", Window);
  r.Register("HammingWindow", Window);
  r.Register("BlackmanWindow", Window);
  r.Register("MelWeightMatrix", MelWeightMatrix);
  r.Register("NegativeLogLikelihoodLoss", NllLoss);
  r.Register("SoftmaxCrossEntropyLoss", SoftmaxCrossEntropyLoss);
}

}  // namespace onnx_opt::schema::inference
