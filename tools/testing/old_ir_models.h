// Hand-made models of old IR versions, in the ONNX text syntax, for the tools' tests:
//   ir3_cnn    IR 3 at opset 9 (newer than IR 3's release, as exporters wrote them): Conv, Relu,
//              MaxPool, a Reshape whose shape is a Constant node, Gemm; every initializer is also a
//              graph input, as IR 3 requires
//   ir3_fold   IR 3 at opset 9: a Constant -> Add -> Mul chain that folds, feeding a computation on
//              the input x (and a weight listed as an input)
//   ir4_fold   the same at IR 4, where the weight is a plain initializer
//   ir3_loop   IR 3 at opset 9: a Loop whose body adds a Constant node (which folds)
//   ir3_dropout                IR 3 at opset 9 as Caffe2 wrote the zoo CNNs: weights listed as
//   graph
//                              inputs before the data input `data_0`, Conv, then a Dropout-7 whose
//                              mask output (typed as the data before opset 10) nothing reads
//   ir3_dropout_mask_used      the same with the mask read by a Mul
//   ir3_dropout_mask_output    the same with the mask read and a graph output too
//   opset6_size1_broadcast     IR 3 at opset 6: Add and Mul with broadcast=1 and B of shapes [2,1]
//                              and [1,3] against A of shape [2,3] (read as numpy broadcasting)
#ifndef ONNX_OPT_TOOLS_TESTING_OLD_IR_MODELS_H_
#define ONNX_OPT_TOOLS_TESTING_OLD_IR_MODELS_H_

#include <string>
#include <vector>

namespace onnx_opt::tools::testing {

struct ModelText {
  std::string name;  // file stem: "ir3_cnn"
  std::string text;
};

std::vector<ModelText> OldIrModels();

}  // namespace onnx_opt::tools::testing

#endif  // ONNX_OPT_TOOLS_TESTING_OLD_IR_MODELS_H_
