// Proto2 remembers whether a field was written even when it holds its default value (`domain: ""`).
// So that load -> save reproduces such files field by field, IR objects keep the numbers of the
// fields that were present with a default value. Only import and export look at this.
#ifndef ONNX_OPT_IR_EXPLICIT_DEFAULTS_H_
#define ONNX_OPT_IR_EXPLICIT_DEFAULTS_H_

#include <cstdint>

namespace onnx_opt::ir {

class ExplicitDefaults {
 public:
  // `field` is the proto field number (every ONNX message numbers its fields below 64).
  bool has(int field) const { return field >= 0 && field < 64 && ((bits_ >> field) & 1) != 0; }
  void set(int field) {
    if (field >= 0 && field < 64) bits_ |= uint64_t{1} << field;
  }
  bool empty() const { return bits_ == 0; }

 private:
  uint64_t bits_ = 0;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_EXPLICIT_DEFAULTS_H_
