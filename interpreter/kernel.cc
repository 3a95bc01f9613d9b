#include "interpreter/kernel.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "ir/opset_import.h"
#include "ir/status_macros.h"

namespace onnx_opt::interpreter {
namespace {

const Tensor& EmptyTensor() {
  static const Tensor* t = new Tensor();
  return *t;
}
const RuntimeValue& NoneValue() {
  static const RuntimeValue* v = new RuntimeValue();
  return *v;
}
std::string Key(std::string_view domain, std::string_view op) {
  return absl::StrCat(ir::IsOnnxDomain(domain) ? std::string() : std::string(domain),
                      "::", std::string(op));
}

}  // namespace

std::string RuntimeValue::DebugString() const {
  switch (kind_) {
    case Kind::kNone:
      return "none";
    case Kind::kTensor:
      return absl::StrCat("tensor ", tensor_.ShapeString());
    case Kind::kSequence:
      return absl::StrCat("sequence(", sequence().size(), " x ",
                          ir::DataTypeName(sequence_elem_type()), ")");
    case Kind::kMap:
      return absl::StrCat("map(", ir::DataTypeName(tensor_.dtype()), " -> ",
                          map_values().ShapeString(), ")");
  }
  return "?";
}

const RuntimeValue& KernelContext::value(size_t i) const {
  return has_input(i) ? *inputs_[i] : NoneValue();
}

const Tensor& KernelContext::input(size_t i) const {
  if (!has_input(i) || !inputs_[i]->is_tensor()) return EmptyTensor();
  return inputs_[i]->tensor();
}

void ChannelEpilogue::Apply(int64_t channel, float* y, int64_t n, const float* bias) const {
  // In L1-sized pieces, so the steps after the first find the values in cache (a channel of an
  // early CNN layer is 50 KB and more: whole-row passes would stream it from L2 up to three times).
  constexpr int64_t kPiece = 2048;
  for (int64_t begin = 0; begin < n; begin += kPiece) {
    float* p = y + begin;
    const int64_t len = std::min(kPiece, n - begin);
    if (bias != nullptr) Vec().binary_f32(BinaryOp::kAdd, Operands::kVectorScalar, p, bias, p, len);
    if (!scale.empty()) Vec().scale_shift_f32(p, scale[channel], shift[channel], p, len);
    if (has_activation) Vec().unary_f32(activation, p, p, len, p0, p1);
  }
}

Tensor KernelContext::OutputBuffer(size_t i, DataType type, std::vector<int64_t> dims) const {
  if (i < 64 && (dying_inputs_ >> i & 1) != 0 && has_input(i) && inputs_[i]->is_tensor()) {
    const Tensor& in = inputs_[i]->tensor();
    if (in.has_unique_buffer() &&
        in.size() * in.element_size() == NumElements(dims) * StorageSize(type)) {
      return in.ReusedAs(type, std::move(dims));
    }
  }
  return Tensor::Uninitialized(type, std::move(dims));
}

absl::StatusOr<const Tensor*> KernelContext::TensorInput(size_t i) const {
  if (!has_input(i)) return Error(absl::StrCat("input ", i, " is missing"));
  if (!inputs_[i]->is_tensor()) {
    return Error(absl::StrCat("input ", i, " must be a tensor, got ", inputs_[i]->DebugString()));
  }
  return &inputs_[i]->tensor();
}

absl::StatusOr<std::vector<int64_t>> KernelContext::IntsInput(size_t i) const {
  ASSIGN_OR_RETURN(auto t, TensorInput(i));
  const Tensor& x = *t;
  std::vector<int64_t> out(x.size());
  if (x.dtype() == DataType::kInt64) {
    std::copy(x.data<int64_t>(), x.data<int64_t>() + x.size(), out.begin());
  } else if (x.dtype() == DataType::kInt32) {
    std::copy(x.data<int32_t>(), x.data<int32_t>() + x.size(), out.begin());
  } else {
    return Error(absl::StrCat("input ", i, " must be int32 or int64, got ", x.ShapeString()));
  }
  return out;
}

const ir::Attribute* KernelContext::attr(std::string_view name) const {
  const ir::Attribute* a = node_.FindAttribute(name);
  if (a == nullptr || !a->is_reference()) return a;
  if (attr_scope_ == nullptr) return nullptr;
  auto it = attr_scope_->find(a->ref_attr_name());
  return it == attr_scope_->end() ? nullptr : it->second;
}

int64_t KernelContext::GetInt(std::string_view name, int64_t fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->i : fallback;
}
float KernelContext::GetFloat(std::string_view name, float fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->f : fallback;
}
std::string KernelContext::GetString(std::string_view name, std::string fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->s : fallback;
}
std::vector<int64_t> KernelContext::GetInts(std::string_view name,
                                            std::vector<int64_t> fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->ints : fallback;
}
std::vector<float> KernelContext::GetFloats(std::string_view name,
                                            std::vector<float> fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->floats : fallback;
}
std::vector<std::string> KernelContext::GetStrings(std::string_view name) const {
  const ir::Attribute* a = attr(name);
  return a ? a->strings : std::vector<std::string>{};
}
const ir::Graph* KernelContext::GetGraph(std::string_view name) const {
  const ir::Attribute* a = attr(name);
  return a ? a->g.get() : nullptr;
}

bool KernelContext::wants_output(size_t i) const {
  return i < node_.num_outputs() && !node_.output(i)->name().empty();
}

absl::Status KernelContext::Error(std::string_view msg) const {
  return absl::InvalidArgumentError(absl::StrCat(node_.Describe(), ": ", std::string(msg)));
}

void KernelRegistry::Register(std::string_view domain, std::string_view op_type, int since_version,
                              KernelFn fn) {
  auto& v = kernels_[Key(domain, op_type)];
  v.push_back({since_version, std::move(fn)});
  std::sort(v.begin(), v.end(),
            [](const Entry& a, const Entry& b) { return a.since_version < b.since_version; });
}

const KernelFn* KernelRegistry::Find(std::string_view domain, std::string_view op_type,
                                     int64_t opset) const {
  auto it = kernels_.find(Key(domain, op_type));
  if (it == kernels_.end()) return nullptr;
  const KernelFn* best = nullptr;
  for (const Entry& e : it->second) {
    if (e.since_version <= opset) best = &e.fn;
  }
  return best;
}

bool KernelRegistry::HasOp(std::string_view domain, std::string_view op_type) const {
  return kernels_.contains(Key(domain, op_type));
}

std::vector<std::string> KernelRegistry::OpNames() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : kernels_) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

const KernelRegistry& KernelRegistry::Global() {
  static const KernelRegistry* r = [] {
    auto* reg = new KernelRegistry();
    RegisterElementwiseKernels(*reg);
    RegisterReductionKernels(*reg);
    RegisterLinalgKernels(*reg);
    RegisterConvPoolKernels(*reg);
    RegisterNormalizationKernels(*reg);
    RegisterShapeKernels(*reg);
    RegisterIndexingKernels(*reg);
    RegisterControlFlowKernels(*reg);
    RegisterSequenceKernels(*reg);
    RegisterMiscKernels(*reg);
    RegisterLossKernels(*reg);
    RegisterAttentionKernels(*reg);
    RegisterQuantizationKernels(*reg);
    RegisterImageKernels(*reg);
    RegisterRecurrentKernels(*reg);
    RegisterSignalKernels(*reg);
    RegisterMlKernels(*reg);
    RegisterRandomKernels(*reg);
    RegisterContribKernels(*reg);
    return reg;
  }();
  return *r;
}

}  // namespace onnx_opt::interpreter
