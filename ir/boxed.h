// A T kept out of line and made only when first written. For members that are large and rarely set:
// an Attribute's tensor, sparse tensor and type are 900 of its 1,200 bytes, and a model's thousands
// of int and float attributes never use them (loading a 700-node model spent a tenth of its time
// allocating, zeroing and destroying them).
//
// Reading an unset Boxed gives a default T without allocating; writing through it (operator->,
// operator*, mutable_get on a non-const Boxed) makes one.
#ifndef ONNX_OPT_IR_BOXED_H_
#define ONNX_OPT_IR_BOXED_H_

#include <memory>
#include <utility>

namespace onnx_opt::ir {

template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT: implicit, like T
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(Boxed&&) noexcept = default;
  // A copy copies the value (for copyable T; only instantiated where used).
  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(T value) {
    if (value_ == nullptr) {
      value_ = std::make_unique<T>(std::move(value));
    } else {
      *value_ = std::move(value);
    }
    return *this;
  }

  // Writes `value` into one field of the T, except that a default value (empty string or list,
  // nullopt) is not worth making the T for: setters of rarely used fields call this.
  template <typename V>
  void SetField(V T::*field, V value) {
    if (value_ == nullptr && value == V()) return;
    mutable_get().*field = std::move(value);
  }

  // Whether a value was ever written (a written default T counts).
  bool is_set() const { return value_ != nullptr; }
  const T& get() const { return value_ != nullptr ? *value_ : Default(); }
  T& mutable_get() {
    if (value_ == nullptr) value_ = std::make_unique<T>();
    return *value_;
  }
  // Moves the value out, leaving the Boxed unset.
  T take() {
    if (value_ == nullptr) return T();
    T out = std::move(*value_);
    value_.reset();
    return out;
  }

  const T& operator*() const { return get(); }
  T& operator*() { return mutable_get(); }
  const T* operator->() const { return &get(); }
  T* operator->() { return &mutable_get(); }
  operator const T&() const { return get(); }  // NOLINT: reads like the T it holds

 private:
  static const T& Default() {
    static const T* const kDefault = new T();  // never destroyed: usable during static destruction
    return *kDefault;
  }

  std::unique_ptr<T> value_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_BOXED_H_
