// One registration function per operator family (one file each: adapters_<family>.cc).
#ifndef ONNX_OPT_CONVERTER_FAMILIES_H_
#define ONNX_OPT_CONVERTER_FAMILIES_H_

#include "converter/adapter.h"

namespace onnx_opt::converter {

void RegisterMathAdapters(AdapterRegistry& r);           // arithmetic, logic, comparison, math functions
void RegisterActivationAdapters(AdapterRegistry& r);     // activations, Softmax/LogSoftmax/Hardmax
void RegisterNormalizationAdapters(AdapterRegistry& r);  // BatchNorm, Dropout, Group/Layer/... norms
void RegisterReductionAdapters(AdapterRegistry& r);      // Reduce*, ArgMax/ArgMin
void RegisterTensorAdapters(AdapterRegistry& r);         // shape manipulation, Cast, Constant, Pad, Slice
void RegisterIndexingAdapters(AdapterRegistry& r);       // Gather*, Scatter*, TopK, OneHot, Compress
void RegisterNnAdapters(AdapterRegistry& r);             // Conv, pooling, RoiAlign, GridSample
void RegisterResizeAdapters(AdapterRegistry& r);         // Upsample, Resize
void RegisterRnnAdapters(AdapterRegistry& r);            // RNN, GRU, LSTM
void RegisterQuantizationAdapters(AdapterRegistry& r);   // QuantizeLinear, DequantizeLinear, QLinear*
void RegisterControlFlowAdapters(AdapterRegistry& r);    // If, Loop, Scan, optionals, sequences
void RegisterMiscAdapters(AdapterRegistry& r);           // random, signal, attention, losses, text
void RegisterMlAdapters(AdapterRegistry& r);             // ai.onnx.ml

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_FAMILIES_H_
