// What one match of a pattern bound. A pattern is built once and never changes: it names the places
// it binds to (slots), and the captures of each match hold what they were bound to.
//
//   ValueSlot x;                                   // lives as long as the pattern (it is its name)
//   const ValuePattern square = Op("Mul", {Capture(x), Capture(x)});
//   if (const Captures* m = rw.Match(square, v)) ... (*m)[x] ...
#ifndef ONNX_OPT_PASSES_REWRITE_CAPTURES_H_
#define ONNX_OPT_PASSES_REWRITE_CAPTURES_H_

#include <optional>
#include <variant>

#include "absl/container/inlined_vector.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"

namespace onnx_opt::passes::rewrite {

// A place a pattern binds a T to, known by its address: neither copied nor moved.
template <typename T>
class Slot {
 public:
  Slot() = default;
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

 private:
  char identity_ = 0;  // gives each slot an address of its own
};

using ValueSlot = Slot<ir::Value*>;
using NodeSlot = Slot<ir::Node*>;
using ScalarSlot = Slot<double>;
using TensorSlot = Slot<const ir::Tensor*>;

class Captures {
 public:
  using Bound = std::variant<ir::Value*, ir::Node*, double, const ir::Tensor*>;

  // What `slot` is bound to: null (or 0) when the match did not bind it.
  template <typename T>
  T operator[](const Slot<T>& slot) const {
    const Bound* b = Lookup(&slot);
    return b == nullptr ? T{} : std::get<T>(*b);
  }
  template <typename T>
  bool has(const Slot<T>& slot) const {
    return Lookup(&slot) != nullptr;
  }

  // For MatchState, which binds and takes bindings back.
  std::optional<Bound> Find(const void* slot) const {
    const Bound* b = Lookup(slot);
    return b == nullptr ? std::nullopt : std::optional<Bound>(*b);
  }
  void Set(const void* slot, std::optional<Bound> value) {
    for (size_t i = 0; i < bound_.size(); ++i) {
      if (bound_[i].slot != slot) continue;
      if (value.has_value()) {
        bound_[i].value = *value;
      } else {
        bound_[i] = bound_.back();
        bound_.pop_back();
      }
      return;
    }
    if (value.has_value()) bound_.push_back({slot, *value});
  }
  void Clear() { bound_.clear(); }

 private:
  struct Entry {
    const void* slot;
    Bound value;
  };
  const Bound* Lookup(const void* slot) const {
    for (const Entry& e : bound_) {
      if (e.slot == slot) return &e.value;
    }
    return nullptr;
  }

  // A pattern binds a handful of slots: a short list searched in order costs less than a hash map,
  // and clearing it for the next candidate keeps its memory (no allocation per match attempt).
  absl::InlinedVector<Entry, 8> bound_;
};

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_CAPTURES_H_
