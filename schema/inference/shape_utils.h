// Small helpers shared by the inference functions: dimension arithmetic that never guesses,
// broadcasting, merging of types, reading constant tensors, and parsing schema type strings.
#ifndef ONNX_OPT_SCHEMA_INFERENCE_SHAPE_UTILS_H_
#define ONNX_OPT_SCHEMA_INFERENCE_SHAPE_UTILS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/tensor.h"
#include "ir/type.h"

namespace onnx_opt::schema::inference {

using ir::Dim;
using ir::Shape;

// --- Dimension arithmetic ------------------------------------------------------------------------
// Known op known gives a known result; x*1, x+0, x-0, x/1 keep x (symbol included); anything else
// involving a symbol or an unknown dim is unknown. Negative or overflowing results are unknown.
Dim DimAdd(const Dim& a, const Dim& b);
Dim DimSub(const Dim& a, const Dim& b);
Dim DimMul(const Dim& a, const Dim& b);
Dim DimFloorDiv(const Dim& a, const Dim& b);  // only for non-negative known values
Dim DimCeilDiv(const Dim& a, const Dim& b);
// Product of dims (N*1*1 = N).
Dim DimProduct(const std::vector<Dim>& dims);
// a == b is certain (equal known values or equal symbols).
bool DimsSurelyEqual(const Dim& a, const Dim& b);
// Both known and different.
bool DimsConflict(const Dim& a, const Dim& b);
// The more specific of two dims that must be equal (known beats symbolic beats unknown).
Dim MergeDims(const Dim& a, const Dim& b);
// A dim that may be either a or b (equal: it; otherwise unknown).
Dim UnionDims(const Dim& a, const Dim& b);
std::optional<Shape> UnionShapes(const std::optional<Shape>& a, const std::optional<Shape>& b);
// Types that may be either; element types must agree (else kNone is returned).
ir::Type UnionTypes(const ir::Type& a, const ir::Type& b);

// --- Symbolic products: coefficient * symbols, used by Reshape's -1
// --------------------------------
struct SymbolicProduct {
  int64_t coefficient = 1;
  std::vector<std::string> symbols;  // sorted
  bool has_unknown = false;
};
SymbolicProduct ProductOf(const std::vector<Dim>& dims);
// total / part, or unknown when it cannot be told exactly.
Dim DivideProducts(const SymbolicProduct& total, const SymbolicProduct& part);

// --- Broadcasting ----------------------------------------------------------------------------
// Numpy-style multidirectional broadcast. Error (InvalidArgument) on known, incompatible dims.
absl::StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b);

// --- Axes ------------------------------------------------------------------------------------
// Normalizes `axis` into [0, rank); nullopt when out of range.
std::optional<int64_t> NormalizeAxis(int64_t axis, int64_t rank);

// --- Merging declared and inferred types --------------------------------------------------------
// Combines two descriptions of the same value, keeping the most specific facts of both. On a
// contradiction (different kinds or element types, ranks, or known dims), `conflict` receives a
// description and the declared type's facts win.
ir::Type MergeTypes(const ir::Type& declared, const ir::Type& inferred, std::string* conflict);
// True when `t` says nothing (kNone, or a tensor with undefined element type and no shape).
bool IsEmptyType(const ir::Type& t);
// Drops shapes (recursively), keeping kinds and element types.
ir::Type StripShapes(const ir::Type& t);

// --- Constant tensors
// ----------------------------------------------------------------------------- Elements of an
// integer or bool tensor (nullopt for other types or missing data).
std::optional<std::vector<int64_t>> TensorToInts(const ir::Tensor& t);

// --- Schema type strings
// --------------------------------------------------------------------------- "tensor(float)",
// "seq(tensor(int64))", "map(string, tensor(float))", "optional(...)", "sparse_tensor(float)".
// Shapes are absent. nullopt when the string does not parse.
std::optional<ir::Type> ParseTypeString(std::string_view s);

}  // namespace onnx_opt::schema::inference

#endif  // ONNX_OPT_SCHEMA_INFERENCE_SHAPE_UTILS_H_
