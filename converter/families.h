// One registration function per operator family (one file each: adapters_<family>.cc), and the
// operators each one registers adapters for: the global registry registers a family only when a
// conversion first asks about one of its operators (most conversions meet a few of the ~160).
#ifndef ONNX_OPT_CONVERTER_FAMILIES_H_
#define ONNX_OPT_CONVERTER_FAMILIES_H_

#include <string_view>

#include "absl/types/span.h"
#include "converter/adapter.h"

namespace onnx_opt::converter {

void RegisterMathAdapters(AdapterRegistry& r);  // arithmetic, logic, comparison, math functions
void RegisterActivationAdapters(AdapterRegistry& r);  // activations, Softmax/LogSoftmax/Hardmax
void RegisterNormalizationAdapters(
    AdapterRegistry& r);                             // BatchNorm, Dropout, Group/Layer/... norms
void RegisterReductionAdapters(AdapterRegistry& r);  // Reduce*, ArgMax/ArgMin
void RegisterTensorAdapters(AdapterRegistry& r);  // shape manipulation, Cast, Constant, Pad, Slice
void RegisterIndexingAdapters(AdapterRegistry& r);  // Gather*, Scatter*, TopK, OneHot, Compress
void RegisterNnAdapters(AdapterRegistry& r);        // Conv, pooling, RoiAlign, GridSample
void RegisterResizeAdapters(AdapterRegistry& r);    // Upsample, Resize
void RegisterRnnAdapters(AdapterRegistry& r);       // RNN, GRU, LSTM
void RegisterQuantizationAdapters(
    AdapterRegistry& r);                               // QuantizeLinear, DequantizeLinear, QLinear*
void RegisterControlFlowAdapters(AdapterRegistry& r);  // If, Loop, Scan, optionals, sequences
void RegisterMiscAdapters(AdapterRegistry& r);         // random, signal, attention, losses, text
void RegisterMlAdapters(AdapterRegistry& r);           // ai.onnx.ml

struct AdapterFamily {
  void (*register_adapters)(AdapterRegistry& r);
  // Every operator it registers an adapter for, sorted; an operator belongs to one family.
  absl::Span<const std::string_view> ops;
};

// The families, in the order a full registration runs them.
absl::Span<const AdapterFamily> AdapterFamilies();

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_FAMILIES_H_
