// Building blocks for adapters: registration shorthands, common attribute edits, attribute <->
// input moves, axis normalization, and builders that create nodes in the form the target opset
// expects.
#ifndef ONNX_OPT_CONVERTER_ADAPTER_UTIL_H_
#define ONNX_OPT_CONVERTER_ADAPTER_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "converter/adapter.h"

namespace onnx_opt::converter {

// Registration shorthands for one domain.
class Registrar {
 public:
  explicit Registrar(AdapterRegistry& registry, std::string domain = "ai.onnx")
      : r_(registry), domain_(std::move(domain)) {}

  // Nothing to do in either direction; `note` says what changed (types added, clarifications).
  // Downgrades are still validated, so a node using a type the older version lacks is refused.
  void Compatible(std::string_view op, int older, int newer, std::string_view note);
  // Several operators that changed the same way.
  void CompatibleAll(const std::vector<std::string_view>& ops, int older, int newer,
                     std::string_view note);
  void Up(std::string_view op, int older, int newer, AdapterKind kind, std::string_view note,
          AdapterFn fn);
  void Down(std::string_view op, int newer, int older, AdapterKind kind, std::string_view note,
            AdapterFn fn);
  // Up and down with the same note.
  void Both(std::string_view op, int older, int newer, AdapterKind kind, std::string_view note,
            AdapterFn up, AdapterFn down);
  // The operator was introduced at `since`: converting below it rewrites it with `fn`, or is
  // refused with `why` when `fn` is null.
  void Introduced(std::string_view op, int since, std::string_view why, AdapterFn fn = nullptr);

 private:
  AdapterRegistry& r_;
  std::string domain_;
};

// --- Combinators
// -----------------------------------------------------------------------------------
AdapterFn Nothing();
AdapterFn Seq(std::vector<AdapterFn> fns);
AdapterFn Refuse(std::string why);

// Removes an attribute the target version does not have, whatever its value (legacy attributes
// without effect on the result, such as consumed_inputs).
AdapterFn DropAttr(std::string name);
// Downgrade: the attribute the older version lacks may only be absent or hold its default (from the
// newer schema), which reproduces the older behaviour; it is then removed.
AdapterFn DropAttrIfDefault(std::string name);
// Sets an attribute when it is absent (e.g. to keep an old default the new version changed).
AdapterFn SetIntIfAbsent(std::string name, int64_t value);
AdapterFn SetFloatIfAbsent(std::string name, float value);
AdapterFn SetStringIfAbsent(std::string name, std::string value);
// Downgrade to a version without negative axis support: rewrites a negative `attr` (int or ints)
// with the rank of input `input` (+ `extra_rank`, e.g. the number of axes Unsqueeze adds; or, when
// `extra_from_attr_len`, the length of the attribute list itself); refused when negative and the
// rank is unknown.
AdapterFn NonNegativeAxisAttr(std::string attr, size_t input, int64_t extra_rank = 0,
                              bool extra_from_attr_len = false);
// Refuses when input `i` is present (an optional input the older version lacks).
AdapterFn RequireAbsentInput(size_t i, std::string what);
// Refuses a string attribute holding one of `values`.
AdapterFn RefuseStringValues(std::string name, std::vector<std::string> values, std::string why);

// Upgrade: an ints attribute becomes an int64 input at position `input` (absent attribute: no
// input, unless `required`, which refuses). `scalar` makes a 0-D tensor from a single int.
AdapterFn IntsAttrToInput(std::string attr, size_t input, bool scalar = false);
// Downgrade: an int64 input at `input` becomes an ints (or int, when `scalar`) attribute; it must
// be a compile-time constant.
AdapterFn InputToIntsAttr(size_t input, std::string attr, bool scalar = false);

// --- Helpers
// --------------------------------------------------------------------------------------- The
// attribute's int value, or its default from the node's source schema, or `fallback`.
int64_t IntAttr(const AdapterContext& ctx, std::string_view name, int64_t fallback);
std::string StringAttr(const AdapterContext& ctx, std::string_view name, std::string fallback);
// Normalizes `axis` into [0, rank); an error naming `what` when the rank is needed and unknown.
absl::StatusOr<int64_t> NormalizeAxis(const AdapterContext& ctx, int64_t axis,
                                      std::optional<int64_t> rank, std::string_view what);

// Version-aware builders (nodes inserted before the adapted node, in the target opset's form).
ir::Value* MakeUnsqueeze(AdapterContext& ctx, ir::Value* x, const std::vector<int64_t>& axes,
                         std::string_view base);
ir::Value* MakeSqueeze(AdapterContext& ctx, ir::Value* x, const std::vector<int64_t>& axes,
                       std::string_view base);
ir::Value* MakeReshape(AdapterContext& ctx, ir::Value* x, ir::Value* shape, std::string_view base);
ir::Value* MakeTranspose(AdapterContext& ctx, ir::Value* x, const std::vector<int64_t>& perm,
                         std::string_view base);
ir::Value* MakeUnary(AdapterContext& ctx, std::string op, ir::Value* x, std::string_view base);
ir::Value* MakeBinary(AdapterContext& ctx, std::string op, ir::Value* a, ir::Value* b,
                      std::string_view base);
ir::Value* MakeCast(AdapterContext& ctx, ir::Value* x, ir::DataType to, std::string_view base);
// A tensor of any numeric element type holding `values` (converted as Cast would).
ir::Tensor TypedTensor(ir::DataType type, std::vector<int64_t> dims,
                       const std::vector<double>& values);
// A scalar (0-D) constant of a numeric element type.
ir::Value* MakeScalar(AdapterContext& ctx, ir::DataType type, double value, std::string_view base);

// Moves every use of the node's output `i` to a new node after it, which takes the old output as
// input: returns the new node (whose output 0 replaces output i). For inserting conversions after a
// node (e.g. a Cast of a mask output).
absl::StatusOr<ir::Node*> InsertAfterOutput(AdapterContext& ctx, size_t i, std::string op);

}  // namespace onnx_opt::converter

#endif  // ONNX_OPT_CONVERTER_ADAPTER_UTIL_H_
