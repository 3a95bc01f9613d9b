// What flows along a graph edge at run time: a tensor, a sequence of tensors, a map, or nothing (an
// empty optional). An optional holding a value is represented by the value itself.
#ifndef ONNX_OPT_INTERPRETER_VALUE_H_
#define ONNX_OPT_INTERPRETER_VALUE_H_

#include <memory>
#include <string>
#include <vector>

#include "interpreter/tensor.h"

namespace onnx_opt::interpreter {

class RuntimeValue {
 public:
  enum class Kind { kNone, kTensor, kSequence, kMap };

  RuntimeValue() = default;                                                // an empty optional
  RuntimeValue(Tensor t) : kind_(Kind::kTensor), tensor_(std::move(t)) {}  // NOLINT: implicit
  RuntimeValue(const RuntimeValue& other)
      : kind_(other.kind_),
        tensor_(other.tensor_),
        composite_(other.composite_ ? std::make_unique<Composite>(*other.composite_) : nullptr) {}
  RuntimeValue& operator=(const RuntimeValue& other) {
    if (this != &other) *this = RuntimeValue(other);
    return *this;
  }
  RuntimeValue(RuntimeValue&&) noexcept = default;
  RuntimeValue& operator=(RuntimeValue&&) noexcept = default;

  static RuntimeValue Sequence(std::vector<Tensor> elems, DataType elem_type) {
    RuntimeValue v;
    v.kind_ = Kind::kSequence;
    v.composite_ = std::make_unique<Composite>();
    v.composite_->sequence = std::move(elems);
    v.composite_->elem_type = elem_type;
    return v;
  }
  // keys: 1-D tensor; values: tensor with the same length in dim 0.
  static RuntimeValue Map(Tensor keys, Tensor values) {
    RuntimeValue v;
    v.kind_ = Kind::kMap;
    v.tensor_ = std::move(keys);
    v.composite_ = std::make_unique<Composite>();
    v.composite_->map_values = std::move(values);
    return v;
  }
  // An empty optional that remembers the type it would hold (for messages and writing).
  static RuntimeValue None() { return RuntimeValue(); }

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::kNone; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  bool is_sequence() const { return kind_ == Kind::kSequence; }
  bool is_map() const { return kind_ == Kind::kMap; }

  const Tensor& tensor() const { return tensor_; }
  Tensor& mutable_tensor() { return tensor_; }
  const std::vector<Tensor>& sequence() const { return composite().sequence; }
  std::vector<Tensor>& mutable_sequence() { return mutable_composite().sequence; }
  // Element type of a sequence (kept for empty sequences).
  DataType sequence_elem_type() const { return composite().elem_type; }
  const Tensor& map_keys() const { return tensor_; }
  const Tensor& map_values() const { return composite().map_values; }

  // "tensor float[2,3]", "sequence(3 x float)", "none", ... for messages.
  std::string DebugString() const;

 private:
  // What only sequences and maps carry, kept out of line: tensors, by far the most common values,
  // then move and free as a few words (the evaluator moves every node output at least twice).
  struct Composite {
    std::vector<Tensor> sequence;
    DataType elem_type = DataType::kUndefined;
    Tensor map_values;
  };
  static const Composite& EmptyComposite() {
    static const Composite* empty = new Composite();
    return *empty;
  }
  const Composite& composite() const { return composite_ ? *composite_ : EmptyComposite(); }
  Composite& mutable_composite() {
    if (!composite_) composite_ = std::make_unique<Composite>();
    return *composite_;
  }

  Kind kind_ = Kind::kNone;
  Tensor tensor_;
  std::unique_ptr<Composite> composite_;
};

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_VALUE_H_
