#include "tools/testing/old_ir_models.h"

#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace onnx_opt::tools::testing {
namespace {

// `count` reproducible weights in [-0.5, 0.5], written as a text-syntax list.
std::string Weights(int count, int salt) {
  std::string out = "{";
  for (int i = 0; i < count; ++i) {
    absl::StrAppendFormat(&out, "%s%.4f", i ? ", " : "", 0.5 * std::sin(1.7 * i + 0.3 * salt));
  }
  return out + "}";
}

std::string Ir3Cnn() {
  return absl::StrCat(R"(<ir_version: 3, opset_import: ["" : 9], producer_name: "hand-made">
cnn (float[1,1,4,4] x,
     float[2,1,3,3] conv_w = )",
                      Weights(18, 1), R"(,
     float[2] conv_b = )",
                      Weights(2, 2), R"(,
     float[8,3] fc_w = )",
                      Weights(24, 3), R"(,
     float[3] fc_b = )",
                      Weights(3, 4), R"()
  => (float[1,3] y) {
  c = Conv<kernel_shape = [3, 3], pads = [1, 1, 1, 1]>(x, conv_w, conv_b)
  r = Relu(c)
  p = MaxPool<kernel_shape = [2, 2], strides = [2, 2]>(r)
  shape = Constant<value = int64[2] {1, 8}>()
  f = Reshape(p, shape)
  y = Gemm(f, fc_w, fc_b)
})");
}

// A Constant -> Add -> Mul chain (k = (a + b) * b) that folds to one constant, applied to x.
std::string FoldChain(int ir_version) {
  const bool ir3 = ir_version < 4;
  const std::string weight = "float[3] w = {0.25, -0.5, 1.0}";
  return absl::StrCat("<ir_version: ", ir_version, R"(, opset_import: ["" : 9]>
fold (float[2,3] x)",
                      ir3 ? ", " + weight : "", R"() => (float[2,3] y) )",
                      ir3 ? "" : "<" + weight + "> ", R"({
  a = Constant<value = float[3] {1.0, 2.0, 3.0}>()
  b = Constant<value = float[3] {0.5, 0.5, 2.0}>()
  s = Add(a, b)
  k = Mul(s, b)
  t = Mul(x, k)
  y = Add(t, w)
})");
}

// A Loop whose body adds a Constant: folding turns it into a body initializer, which IR 3 lists as
// a body input after the ones Loop passes.
std::string Ir3Loop() {
  return R"(<ir_version: 3, opset_import: ["" : 9]>
loop (int64 n, bool c, float[2] x) => (float[2] y, float[?,2] ys) {
  y, ys = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in) => (bool c_out, float[2] x_out, float[2] s) {
    c_out = Identity(c_in)
    k = Constant<value = float[2] {0.5, -0.25}>()
    x_out = Add(x_in, k)
    s = Identity(x_out)
  }>
})";
}

// As Caffe2 exported the zoo CNNs (DenseNet-121, SqueezeNet, VGG-19, Inception-v1): IR 3 at opset
// 9, the weights listed as graph inputs before the data input, and a Dropout-7 (no is_test) with
// its second output, the mask, which has the data's type before opset 10. `mask`: "unused" (nothing
// reads it, as in the zoo models), "used" (a Mul reads it) or "output" (read and a graph output
// too).
std::string Ir3Dropout(const std::string& mask) {
  const bool used = mask != "unused";
  const bool output = mask == "output";
  return absl::StrCat(R"(<ir_version: 3, opset_import: ["" : 9], producer_name: "hand-made">
dropout (float[2,1,3,3] conv_w = )",
                      Weights(18, 5), R"(,
         float[2] conv_b = )",
                      Weights(2, 6), R"(,
         float[1,1,4,4] data_0)
  => (float[1,2,4,4] y)",
                      output ? ", float[1,2,4,4] mask" : "", R"() {
  c = Conv<kernel_shape = [3, 3], pads = [1, 1, 1, 1]>(data_0, conv_w, conv_b)
  )",
                      used ? "d" : "y", R"(, mask = Dropout<ratio = 0.5>(c)
)",
                      used ? "  y = Mul(d, mask)\n" : "", "}");
}

// Opset 6 with B's size-1 dims broadcast over A's, which the opset-6 text said "doesn't work yet"
// but exporters wrote: a column [2,1] added to a [2,3] input, then the sum times a row [1,3] (the
// sum's shape known only to inference).
std::string Opset6SizeOneBroadcast() {
  return R"(<ir_version: 3, opset_import: ["" : 6]>
legacy (float[2,3] a, float[2,1] col, float[1,3] row) => (float[2,3] y) {
  s = Add<broadcast = 1>(a, col)
  y = Mul<broadcast = 1>(s, row)
})";
}

}  // namespace

std::vector<ModelText> OldIrModels() {
  return {{"ir3_cnn", Ir3Cnn()},
          {"ir3_fold", FoldChain(3)},
          {"ir4_fold", FoldChain(4)},
          {"ir3_loop", Ir3Loop()},
          {"ir3_dropout", Ir3Dropout("unused")},
          {"ir3_dropout_mask_used", Ir3Dropout("used")},
          {"ir3_dropout_mask_output", Ir3Dropout("output")},
          {"opset6_size1_broadcast", Opset6SizeOneBroadcast()}};
}

}  // namespace onnx_opt::tools::testing
