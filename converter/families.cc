#include "converter/families.h"

namespace onnx_opt::converter {
namespace {

// Sorted by name within a family; converter/families_test checks each list against what its
// family registers.
constexpr std::string_view kMathOps[] = {
    "Abs",   "Acos",  "Acosh", "Add",         "And",   "Asin",   "Asinh",      "Atan",
    "Atanh", "Ceil",  "Clip",  "Cos",         "Cosh",  "CumSum", "Det",        "Div",
    "Equal", "Erf",   "Exp",   "Expand",      "Floor", "Gemm",   "Greater",    "GreaterOrEqual",
    "IsInf", "IsNaN", "Less",  "LessOrEqual", "Log",   "MatMul", "Max",        "Mean",
    "Min",   "Mod",   "Mul",   "Neg",         "Or",    "Pow",    "Reciprocal", "Round",
    "Sign",  "Sin",   "Sinh",  "Sqrt",        "Sub",   "Sum",    "Tan",        "Where",
    "Xor",
};
constexpr std::string_view kActivationOps[] = {
    "Celu",
    "Elu",
    "Gelu",
    "HardSigmoid",
    "HardSwish",
    "Hardmax",
    "LeakyRelu",
    "LogSoftmax",
    "Mish",
    "PRelu",
    "Relu",
    "Selu",
    "Sigmoid",
    "Softmax",
    "Softplus",
    "Softsign",
    "Swish",
    "Tanh",
    "ThresholdedRelu",
};
constexpr std::string_view kNormalizationOps[] = {
    "BatchNormalization",
    "Dropout",
    "GroupNormalization",
    "InstanceNormalization",
    "LRN",
    "LayerNormalization",
    "LpNormalization",
    "MeanVarianceNormalization",
    "RMSNormalization",
};
constexpr std::string_view kReductionOps[] = {
    "ArgMax",    "ArgMin",     "ReduceL1",  "ReduceL2",   "ReduceLogSum", "ReduceLogSumExp",
    "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum",    "ReduceSumSquare",
};
constexpr std::string_view kTensorOps[] = {
    "Cast",    "CastLike",  "Concat",    "Constant",     "ConstantOfShape", "DepthToSpace",
    "EyeLike", "Flatten",   "Identity",  "Pad",          "Range",           "Reshape",
    "Shape",   "Size",      "Slice",     "SpaceToDepth", "Split",           "Squeeze",
    "Tile",    "Transpose", "Unsqueeze",
};
constexpr std::string_view kIndexingOps[] = {
    "Compress", "Gather",  "GatherElements",  "GatherND",  "NonZero",
    "OneHot",   "Scatter", "ScatterElements", "ScatterND", "TopK",
};
constexpr std::string_view kNnOps[] = {
    "AveragePool",  "Conv",          "ConvTranspose",     "DeformConv", "GlobalAveragePool",
    "GlobalLpPool", "GlobalMaxPool", "GridSample",        "LpPool",     "MaxPool",
    "MaxRoiPool",   "MaxUnpool",     "NonMaxSuppression", "RoiAlign",
};
constexpr std::string_view kResizeOps[] = {
    "Resize",
    "Upsample",
};
constexpr std::string_view kRnnOps[] = {
    "GRU",
    "LSTM",
    "RNN",
};
constexpr std::string_view kQuantizationOps[] = {
    "DequantizeLinear",
    "QLinearMatMul",
    "QuantizeLinear",
};
constexpr std::string_view kControlFlowOps[] = {
    "If", "Loop", "OptionalGetElement", "OptionalHasElement", "Scan", "SplitToSequence",
};
constexpr std::string_view kMiscOps[] = {
    "Attention",
    "Bernoulli",
    "DFT",
    "Multinomial",
    "NegativeLogLikelihoodLoss",
    "RandomNormal",
    "RandomNormalLike",
    "RandomUniform",
    "RandomUniformLike",
    "SoftmaxCrossEntropyLoss",
};
constexpr std::string_view kMlOps[] = {
    "LabelEncoder",
    "TreeEnsembleClassifier",
    "TreeEnsembleRegressor",
};

constexpr AdapterFamily kFamilies[] = {
    {RegisterMathAdapters, kMathOps},
    {RegisterActivationAdapters, kActivationOps},
    {RegisterNormalizationAdapters, kNormalizationOps},
    {RegisterReductionAdapters, kReductionOps},
    {RegisterTensorAdapters, kTensorOps},
    {RegisterIndexingAdapters, kIndexingOps},
    {RegisterNnAdapters, kNnOps},
    {RegisterResizeAdapters, kResizeOps},
    {RegisterRnnAdapters, kRnnOps},
    {RegisterQuantizationAdapters, kQuantizationOps},
    {RegisterControlFlowAdapters, kControlFlowOps},
    {RegisterMiscAdapters, kMiscOps},
    {RegisterMlAdapters, kMlOps},
};

}  // namespace

absl::Span<const AdapterFamily> AdapterFamilies() { return kFamilies; }

}  // namespace onnx_opt::converter
