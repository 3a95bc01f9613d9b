// Value types: tensors with known, symbolic or unknown dims; sparse tensors, sequences, maps,
// optionals and opaque types, mirroring TypeProto.
#ifndef ONNX_OPT_IR_TYPE_H_
#define ONNX_OPT_IR_TYPE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/boxed.h"
#include "ir/data_type.h"

namespace onnx_opt::ir {

// One dimension: a known size, a symbol ("N"), or unknown. 24 bytes: the symbol and the denotation,
// which most dims lack, are boxed (shapes are copied all through inference).
class Dim {
 public:
  Dim() = default;
  static Dim Known(int64_t value) { return Dim(value); }
  static Dim Symbolic(std::string symbol);
  static Dim Unknown() { return Dim(); }

  bool is_known() const { return kind_ == Kind::kKnown; }
  bool is_symbolic() const { return kind_ == Kind::kSymbolic; }
  bool is_unknown() const { return kind_ == Kind::kUnknown; }
  int64_t value() const { return value_; }
  // Empty unless is_symbolic().
  const std::string& symbol() const { return text_->symbol; }

  const std::string& denotation() const { return text_->denotation; }
  void set_denotation(std::string d);

  bool operator==(const Dim& other) const;

 private:
  enum class Kind : uint8_t { kUnknown, kKnown, kSymbolic };
  struct Text {
    std::string symbol;
    std::string denotation;
  };
  explicit Dim(int64_t v) : value_(v), kind_(Kind::kKnown) {}

  int64_t value_ = 0;
  Kind kind_ = Kind::kUnknown;
  Boxed<Text> text_;
};

// A tensor shape of known rank. An unknown rank is expressed by the absence of a Shape.
class Shape {
 public:
  Shape() = default;  // rank 0: a scalar
  explicit Shape(std::vector<Dim> dims) : dims_(std::move(dims)) {}
  static Shape FromSizes(const std::vector<int64_t>& sizes);

  size_t rank() const { return dims_.size(); }
  const Dim& dim(size_t i) const { return dims_[i]; }
  Dim& mutable_dim(size_t i) { return dims_[i]; }
  const std::vector<Dim>& dims() const { return dims_; }
  std::vector<Dim>& mutable_dims() { return dims_; }

  bool is_static() const;                       // every dim known
  std::optional<int64_t> num_elements() const;  // only when static (and no overflow)

  bool operator==(const Shape& other) const = default;

 private:
  std::vector<Dim> dims_;
};

// A value's type. Immutable parts are shared, so copying a Type is cheap.
class Type {
 public:
  enum class Kind { kNone, kTensor, kSparseTensor, kSequence, kMap, kOptional, kOpaque };

  Type() = default;  // kNone: the type is not known
  static Type Tensor(DataType elem, std::optional<Shape> shape = std::nullopt);
  static Type SparseTensor(DataType elem, std::optional<Shape> shape = std::nullopt);
  static Type Sequence(Type elem);
  static Type Map(DataType key, Type value);
  static Type Optional(Type elem);
  static Type Opaque(std::string domain, std::string name);

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::kNone; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }

  // Tensor and sparse tensor; also the key type of a map. kUndefined when not given.
  DataType elem_type() const { return elem_type_; }
  void set_elem_type(DataType t) { elem_type_ = t; }
  // Tensor and sparse tensor: the shape, absent when the rank is unknown.
  const std::optional<Shape>& shape() const { return shape_; }
  std::optional<Shape>& mutable_shape() { return shape_; }
  void set_shape(std::optional<Shape> s) { shape_ = std::move(s); }
  // Sequence and optional: the element type; map: the value type.
  const Type& inner() const { return *inner_; }
  bool has_inner() const { return inner_ != nullptr; }
  // Opaque.
  const std::string& opaque_domain() const { return names_->opaque_domain; }
  const std::string& opaque_name() const { return names_->opaque_name; }

  const std::string& denotation() const { return names_->denotation; }
  void set_denotation(std::string d);

  bool operator==(const Type& other) const;
  bool operator!=(const Type& other) const { return !(*this == other); }

  // "tensor(float)[N,3]", "seq(tensor(int64))", "map(string,tensor(float))", ... for messages.
  std::string ToString() const;

 private:
  Kind kind_ = Kind::kNone;
  DataType elem_type_ = DataType::kUndefined;
  std::optional<Shape> shape_;
  std::shared_ptr<const Type> inner_;
  // Rare: boxed, so that a tensor type stays small (every value holds one).
  struct Names {
    std::string opaque_domain;
    std::string opaque_name;
    std::string denotation;
  };
  Boxed<Names> names_;
};

std::string ShapeToString(const Shape& shape);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_TYPE_H_
