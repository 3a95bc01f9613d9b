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

  RuntimeValue() = default;  // an empty optional
  RuntimeValue(Tensor t) : kind_(Kind::kTensor), tensor_(std::move(t)) {}  // NOLINT: implicit
  static RuntimeValue Sequence(std::vector<Tensor> elems, DataType elem_type) {
    RuntimeValue v;
    v.kind_ = Kind::kSequence;
    v.sequence_ = std::move(elems);
    v.elem_type_ = elem_type;
    return v;
  }
  // keys: 1-D tensor; values: tensor with the same length in dim 0.
  static RuntimeValue Map(Tensor keys, Tensor values) {
    RuntimeValue v;
    v.kind_ = Kind::kMap;
    v.tensor_ = std::move(keys);
    v.map_values_ = std::move(values);
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
  const std::vector<Tensor>& sequence() const { return sequence_; }
  std::vector<Tensor>& mutable_sequence() { return sequence_; }
  // Element type of a sequence (kept for empty sequences).
  DataType sequence_elem_type() const { return elem_type_; }
  const Tensor& map_keys() const { return tensor_; }
  const Tensor& map_values() const { return map_values_; }

  // "tensor float[2,3]", "sequence(3 x float)", "none", ... for messages.
  std::string DebugString() const;

 private:
  Kind kind_ = Kind::kNone;
  Tensor tensor_;
  std::vector<Tensor> sequence_;
  DataType elem_type_ = DataType::kUndefined;
  Tensor map_values_;
};

}  // namespace onnx_opt::interpreter

#endif  // ONNX_OPT_INTERPRETER_VALUE_H_
