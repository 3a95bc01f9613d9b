#include "equivalence/compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "interpreter/tensor.h"

namespace onnx_opt::equivalence {
namespace {

using interpreter::RuntimeValue;
using interpreter::Tensor;

const Tolerance& ToleranceFor(ir::DataType type, const Tolerances& tolerances) {
  if (type == ir::DataType::kDouble || type == ir::DataType::kComplex128) return tolerances.float64;
  if (type == ir::DataType::kFloat || type == ir::DataType::kComplex64) return tolerances.float32;
  return tolerances.float16;
}

// The elements of a float tensor as doubles; of a complex tensor, its real and imaginary parts.
std::vector<double> FloatValues(const Tensor& t) {
  std::vector<double> out;
  if (ir::IsComplex(t.dtype())) {
    const int64_t parts = t.size() * 2;
    out.resize(parts);
    if (t.dtype() == ir::DataType::kComplex64) {
      const float* p = reinterpret_cast<const float*>(t.raw());
      for (int64_t i = 0; i < parts; ++i) out[i] = p[i];
    } else if (parts > 0) {
      std::memcpy(out.data(), t.raw(), parts * sizeof(double));
    }
    return out;
  }
  out.resize(t.size());
  if (t.dtype() == ir::DataType::kDouble) {
    if (t.size() > 0) std::memcpy(out.data(), t.raw(), t.size() * sizeof(double));
    return out;
  }
  const Tensor f = interpreter::WidenToFloat(t);  // float16, bfloat16, float8, float4 -> float
  const float* p = f.data<float>();
  for (int64_t i = 0; i < t.size(); ++i) out[i] = p[i];
  return out;
}

// The root mean square of the finite values, scaled by their largest magnitude first so that
// squares of large doubles do not overflow.
double RootMeanSquare(const std::vector<double>& v) {
  double largest = 0;
  int64_t count = 0;
  for (double x : v) {
    if (std::isfinite(x)) {
      largest = std::max(largest, std::fabs(x));
      ++count;
    }
  }
  if (count == 0 || largest == 0) return 0;
  double sum = 0;
  for (double x : v) {
    if (std::isfinite(x)) sum += (x / largest) * (x / largest);
  }
  return largest * std::sqrt(sum / static_cast<double>(count));
}

void CompareFloats(const Tensor& expected, const Tensor& actual, const Tolerances& tolerances,
                   OutputDifference& diff) {
  const std::vector<double> ev = FloatValues(expected);
  const std::vector<double> av = FloatValues(actual);
  const Tolerance& tol = ToleranceFor(expected.dtype(), tolerances);
  const bool lossy = tolerances.lossy.has_value();
  const double scale = tolerances.output_scale && !lossy ? RootMeanSquare(ev) : 0.0;
  int64_t worst = -1;
  double worst_excess = 0;
  double max_abs = 0, max_rel = 0, err2 = 0, exp2 = 0, act2 = 0, dot = 0;
  for (size_t i = 0; i < ev.size(); ++i) {
    const double y = ev[i], x = av[i];
    double excess;
    if (!std::isfinite(y) || !std::isfinite(x)) {
      // NaN only matches NaN, an infinity only the same infinity: no tolerance applies.
      if ((std::isnan(x) && std::isnan(y)) || x == y) continue;
      excess = std::numeric_limits<double>::infinity();
    } else {
      const double abs_err = std::fabs(x - y);
      max_abs = std::max(max_abs, abs_err);
      max_rel = std::max(max_rel, y != 0 ? abs_err / std::fabs(y) : abs_err);
      err2 += (x - y) * (x - y);
      exp2 += y * y;
      act2 += x * x;
      dot += x * y;
      if (lossy) continue;
      excess = abs_err - (tol.atol + tol.rtol * std::max(std::fabs(y), scale));
    }
    if (excess > 0 && (worst < 0 || excess > worst_excess)) {
      worst = static_cast<int64_t>(i);
      worst_excess = excess;
    }
  }
  // All-zero sides: equal zeros have no error and point the same way.
  const double rel_l2 = exp2 > 0 ? std::sqrt(err2 / exp2) : (err2 > 0 ? INFINITY : 0.0);
  const double cosine =
      exp2 > 0 && act2 > 0 ? dot / std::sqrt(exp2 * act2) : (exp2 == act2 ? 1.0 : 0.0);
  diff.max_abs_error = std::max(diff.max_abs_error, max_abs);
  diff.max_rel_error = std::max(diff.max_rel_error, max_rel);
  diff.rel_l2_error = std::max(diff.rel_l2_error, rel_l2);
  diff.cosine = std::min(diff.cosine, cosine);
  if (worst >= 0) {
    diff.equal = false;
    const bool complex = ir::IsComplex(expected.dtype());
    diff.detail = absl::StrFormat(
        "%s %d is %.9g, expected %.9g (max abs error %.3g, max rel error %.3g)",
        complex ? "part" : "element", worst, av[worst], ev[worst], max_abs, max_rel);
    return;
  }
  if (lossy) {
    const LossyTolerance& l = *tolerances.lossy;
    std::vector<std::string> over;
    if (!(rel_l2 <= l.max_rel_l2))
      over.push_back(absl::StrFormat("relative L2 error %.3g > %.3g", rel_l2, l.max_rel_l2));
    if (!(cosine >= l.min_cosine))
      over.push_back(absl::StrFormat("cosine similarity %.6f < %.6f", cosine, l.min_cosine));
    if (!(max_abs <= l.max_abs))
      over.push_back(absl::StrFormat("max abs error %.3g > %.3g", max_abs, l.max_abs));
    if (!over.empty()) {
      diff.equal = false;
      diff.detail = absl::StrJoin(over, ", ");
    }
  }
}

// Integers and booleans, bit for bit (an int64 above 2^53 must not be rounded to equality).
void CompareExactly(const Tensor& expected, const Tensor& actual, OutputDifference& diff) {
  const int es = expected.element_size();
  for (int64_t i = 0; i < expected.size(); ++i) {
    if (std::memcmp(expected.raw() + i * es, actual.raw() + i * es, es) == 0) continue;
    diff.equal = false;
    absl::StatusOr<Tensor> e = interpreter::CastTensor(expected, ir::DataType::kInt64);
    absl::StatusOr<Tensor> a = interpreter::CastTensor(actual, ir::DataType::kInt64);
    diff.detail = e.ok() && a.ok() ? absl::StrCat("element ", i, " is ", a->data<int64_t>()[i],
                                                  ", expected ", e->data<int64_t>()[i])
                                   : absl::StrCat("element ", i, " differs");
    return;
  }
}

void CompareTensors(const Tensor& expected, const Tensor& actual, const Tolerances& tolerances,
                    OutputDifference& diff) {
  if (expected.dtype() != actual.dtype()) {
    diff.equal = false;
    diff.detail = absl::StrCat("element type ", ir::DataTypeName(actual.dtype()), ", expected ",
                               ir::DataTypeName(expected.dtype()));
    return;
  }
  if (expected.dims() != actual.dims()) {
    diff.equal = false;
    diff.detail =
        absl::StrCat("shape ", actual.ShapeString(), ", expected ", expected.ShapeString());
    return;
  }
  const ir::DataType type = expected.dtype();
  if (type == ir::DataType::kString) {
    for (int64_t i = 0; i < expected.size(); ++i) {
      if (expected.data<std::string>()[i] != actual.data<std::string>()[i]) {
        diff.equal = false;
        diff.detail = absl::StrCat("element ", i, " is \"", actual.data<std::string>()[i],
                                   "\", expected \"", expected.data<std::string>()[i], "\"");
        return;
      }
    }
    return;
  }
  if (ir::IsFloatingPoint(type) || ir::IsComplex(type)) {
    CompareFloats(expected, actual, tolerances, diff);
  } else {
    CompareExactly(expected, actual, diff);
  }
}

void CompareValues(const RuntimeValue& expected, const RuntimeValue& actual,
                   const Tolerances& tolerances, OutputDifference& diff) {
  if (expected.kind() != actual.kind()) {
    diff.equal = false;
    diff.detail = absl::StrCat("is ", actual.DebugString(), ", expected ", expected.DebugString());
    return;
  }
  switch (expected.kind()) {
    case RuntimeValue::Kind::kNone:
      return;
    case RuntimeValue::Kind::kTensor:
      CompareTensors(expected.tensor(), actual.tensor(), tolerances, diff);
      return;
    case RuntimeValue::Kind::kSequence:
      if (expected.sequence().size() != actual.sequence().size()) {
        diff.equal = false;
        diff.detail = absl::StrCat("sequence of ", actual.sequence().size(), " tensors, expected ",
                                   expected.sequence().size());
        return;
      }
      for (size_t i = 0; i < expected.sequence().size() && diff.equal; ++i) {
        CompareTensors(expected.sequence()[i], actual.sequence()[i], tolerances, diff);
        if (!diff.equal) diff.detail = absl::StrCat("sequence element ", i, ": ", diff.detail);
      }
      return;
    case RuntimeValue::Kind::kMap:
      CompareTensors(expected.map_keys(), actual.map_keys(), tolerances, diff);
      if (!diff.equal) {
        diff.detail = absl::StrCat("map keys: ", diff.detail);
        return;
      }
      CompareTensors(expected.map_values(), actual.map_values(), tolerances, diff);
      if (!diff.equal) diff.detail = absl::StrCat("map values: ", diff.detail);
      return;
  }
}

}  // namespace

OutputDifference CompareValue(const std::string& name, const RuntimeValue& expected,
                              const RuntimeValue& actual, const Tolerances& tolerances) {
  OutputDifference diff;
  diff.output = name;
  CompareValues(expected, actual, tolerances, diff);
  return diff;
}

std::vector<OutputDifference> CompareOutputs(const std::vector<std::string>& names,
                                             const std::vector<RuntimeValue>& expected,
                                             const std::vector<RuntimeValue>& actual,
                                             const Tolerances& tolerances) {
  std::vector<OutputDifference> out;
  for (size_t i = 0; i < expected.size(); ++i) {
    const std::string name = i < names.size() ? names[i] : absl::StrCat("#", i);
    if (i >= actual.size()) {
      OutputDifference diff;
      diff.output = name;
      diff.equal = false;
      diff.detail = "missing";
      out.push_back(std::move(diff));
      continue;
    }
    out.push_back(CompareValue(name, expected[i], actual[i], tolerances));
  }
  if (actual.size() > expected.size()) {
    OutputDifference diff;
    diff.output = "(extra outputs)";
    diff.equal = false;
    diff.detail = absl::StrCat(actual.size(), " outputs, expected ", expected.size());
    out.push_back(std::move(diff));
  }
  return out;
}

absl::Status FirstDifference(const std::vector<OutputDifference>& diffs) {
  for (const OutputDifference& d : diffs) {
    if (!d.equal)
      return absl::FailedPreconditionError(
          absl::StrCat("output '", d.output, "' differs: ", d.detail));
  }
  return absl::OkStatus();
}

}  // namespace onnx_opt::equivalence
