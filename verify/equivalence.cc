#include "verify/equivalence.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "ir/status_macros.h"

namespace onnx_opt::verify {
namespace {

using interpreter::RuntimeValue;
using interpreter::Tensor;

// The dims of a tensor of `type` for `input` (its own type, or its sequence's or optional's
// element type).
absl::StatusOr<std::vector<int64_t>> ResolveShape(const ir::Value& input, const ir::Type& type,
                                                  const EquivalenceOptions& options) {
  if (auto it = options.shapes.find(input.name()); it != options.shapes.end()) return it->second;
  std::vector<int64_t> dims;
  if (!type.shape().has_value()) {
    return absl::InvalidArgumentError(absl::StrCat("input '", input.name(),
                                                   "' has no declared shape; give one with --shape ",
                                                   input.name(), "=D0,D1,..."));
  }
  for (const ir::Dim& d : type.shape()->dims()) {
    if (d.is_known()) {
      dims.push_back(d.value());
    } else if (d.is_symbolic() && options.dims.count(d.symbol())) {
      dims.push_back(options.dims.at(d.symbol()));
    } else {
      dims.push_back(options.default_dim);
    }
  }
  return dims;
}

absl::StatusOr<Tensor> RandomTensor(ir::DataType type, std::vector<int64_t> dims, std::mt19937_64& rng) {
  const int64_t n = interpreter::NumElements(dims);
  if (n < 0 || n > (int64_t{1} << 28)) {
    return absl::InvalidArgumentError(absl::StrCat("input of ", n, " elements is too large to generate"));
  }
  const bool is_float = ir::IsFloatingPoint(type) || ir::IsComplex(type);
  std::vector<double> values(n);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 3);
  for (int64_t i = 0; i < n; ++i) {
    if (type == ir::DataType::kBool) {
      values[i] = small(rng) & 1;
    } else {
      values[i] = is_float ? real(rng) : small(rng);
    }
  }
  Tensor t = Tensor::FromVector<double>(ir::DataType::kDouble, dims, values);
  if (type == ir::DataType::kDouble) return t;
  return interpreter::CastTensor(t, type);
}

absl::StatusOr<RuntimeValue> RandomValue(const ir::Value& input, const ir::Type& type,
                                         const EquivalenceOptions& options, std::mt19937_64& rng) {
  switch (type.kind()) {
    case ir::Type::Kind::kTensor: {
      ASSIGN_OR_RETURN(std::vector<int64_t> dims, ResolveShape(input, type, options));
      ASSIGN_OR_RETURN(Tensor t, RandomTensor(type.elem_type(), dims, rng));
      return RuntimeValue(std::move(t));
    }
    case ir::Type::Kind::kOptional:
      return RandomValue(input, type.inner(), options, rng);
    case ir::Type::Kind::kSequence: {
      // Two tensors of the element type (sequences of sequences are not generated).
      if (!type.has_inner() || type.inner().kind() != ir::Type::Kind::kTensor) {
        return absl::UnimplementedError(absl::StrCat("cannot generate a random value for input '", input.name(),
                                                     "' of type ", type.ToString(), "; give inputs explicitly"));
      }
      ASSIGN_OR_RETURN(std::vector<int64_t> dims, ResolveShape(input, type.inner(), options));
      std::vector<Tensor> elems;
      for (int i = 0; i < 2; ++i) {
        ASSIGN_OR_RETURN(Tensor t, RandomTensor(type.inner().elem_type(), dims, rng));
        elems.push_back(std::move(t));
      }
      return RuntimeValue::Sequence(std::move(elems), type.inner().elem_type());
    }
    default:
      return absl::UnimplementedError(absl::StrCat("cannot generate a random value for input '",
                                                   input.name(), "' of type ", type.ToString(),
                                                   "; give inputs explicitly"));
  }
}

const Tolerance& ToleranceFor(ir::DataType type, const EquivalenceOptions& options) {
  if (type == ir::DataType::kDouble || type == ir::DataType::kComplex128) return options.float64;
  if (type == ir::DataType::kFloat || type == ir::DataType::kComplex64) return options.float32;
  return options.float16;
}

// Of the finite values: the scale of a tensor's rounding errors.
double RootMeanSquare(const double* v, int64_t n) {
  double sum = 0;
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) continue;
    sum += v[i] * v[i];
    ++count;
  }
  return count == 0 ? 0.0 : std::sqrt(sum / static_cast<double>(count));
}

void CompareTensors(const Tensor& expected, const Tensor& actual, const EquivalenceOptions& options,
                    OutputDifference& diff) {
  if (expected.dtype() != actual.dtype()) {
    diff.equal = false;
    diff.detail = absl::StrCat("element type ", ir::DataTypeName(actual.dtype()), ", expected ",
                               ir::DataTypeName(expected.dtype()));
    return;
  }
  if (expected.dims() != actual.dims()) {
    diff.equal = false;
    diff.detail = absl::StrCat("shape ", actual.ShapeString(), ", expected ", expected.ShapeString());
    return;
  }
  const ir::DataType type = expected.dtype();
  const int64_t n = expected.size();
  if (type == ir::DataType::kString) {
    for (int64_t i = 0; i < n; ++i) {
      if (expected.data<std::string>()[i] != actual.data<std::string>()[i]) {
        diff.equal = false;
        diff.detail = absl::StrCat("element ", i, " is \"", actual.data<std::string>()[i], "\", expected \"",
                                   expected.data<std::string>()[i], "\"");
        return;
      }
    }
    return;
  }
  const bool exact = !(ir::IsFloatingPoint(type) || ir::IsComplex(type));
  absl::StatusOr<Tensor> e = interpreter::CastTensor(expected, ir::DataType::kDouble);
  absl::StatusOr<Tensor> a = interpreter::CastTensor(actual, ir::DataType::kDouble);
  if (!e.ok() || !a.ok()) {
    // Types the interpreter cannot widen (complex): compare the bytes.
    const size_t bytes = static_cast<size_t>(n) * expected.element_size();
    if (bytes > 0 && std::memcmp(expected.raw(), actual.raw(), bytes) != 0) {
      diff.equal = false;
      diff.detail = "data differs";
    }
    return;
  }
  const Tolerance& tol = ToleranceFor(type, options);
  const double* ev = e->data<double>();
  const double* av = a->data<double>();
  const double scale = exact ? 0.0 : RootMeanSquare(ev, n);
  int64_t worst = -1;
  double worst_excess = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double x = av[i], y = ev[i];
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x == y) continue;  // also equal infinities
    const double abs_err = std::fabs(x - y);
    const double rel_err = y != 0 ? abs_err / std::fabs(y) : abs_err;
    if (!std::isnan(abs_err)) {
      diff.max_abs_error = std::max(diff.max_abs_error, abs_err);
      diff.max_rel_error = std::max(diff.max_rel_error, rel_err);
    }
    const double allowed = exact ? 0.0 : tol.atol + tol.rtol * std::max(std::fabs(y), scale);
    const double excess = std::isnan(abs_err) ? INFINITY : abs_err - allowed;
    if (excess > 0 && (worst < 0 || excess > worst_excess)) {
      worst = i;
      worst_excess = excess;
    }
  }
  if (worst >= 0) {
    diff.equal = false;
    diff.detail = absl::StrFormat("element %d is %.9g, expected %.9g (max abs error %.3g, max rel error %.3g)",
                                  worst, av[worst], ev[worst], diff.max_abs_error, diff.max_rel_error);
  }
}

void CompareValues(const RuntimeValue& expected, const RuntimeValue& actual, const EquivalenceOptions& options,
                   OutputDifference& diff) {
  if (expected.kind() != actual.kind()) {
    diff.equal = false;
    diff.detail = absl::StrCat("is ", actual.DebugString(), ", expected ", expected.DebugString());
    return;
  }
  switch (expected.kind()) {
    case RuntimeValue::Kind::kNone:
      return;
    case RuntimeValue::Kind::kTensor:
      CompareTensors(expected.tensor(), actual.tensor(), options, diff);
      return;
    case RuntimeValue::Kind::kSequence:
      if (expected.sequence().size() != actual.sequence().size()) {
        diff.equal = false;
        diff.detail = absl::StrCat("sequence of ", actual.sequence().size(), " tensors, expected ",
                                   expected.sequence().size());
        return;
      }
      for (size_t i = 0; i < expected.sequence().size() && diff.equal; ++i) {
        CompareTensors(expected.sequence()[i], actual.sequence()[i], options, diff);
        if (!diff.equal) diff.detail = absl::StrCat("sequence element ", i, ": ", diff.detail);
      }
      return;
    case RuntimeValue::Kind::kMap:
      CompareTensors(expected.map_keys(), actual.map_keys(), options, diff);
      if (diff.equal) CompareTensors(expected.map_values(), actual.map_values(), options, diff);
      return;
  }
}

}  // namespace

absl::StatusOr<std::vector<RuntimeValue>> MakeRandomInputs(const ir::Model& model,
                                                          const EquivalenceOptions& options) {
  std::mt19937_64 rng(options.seed);
  std::vector<RuntimeValue> inputs;
  for (const ir::Value* input : model.graph().inputs()) {
    // Inputs with a default keep it; the evaluator fills trailing ones in.
    if (input->is_initializer()) break;
    ASSIGN_OR_RETURN(RuntimeValue v, RandomValue(*input, input->type(), options, rng));
    inputs.push_back(std::move(v));
  }
  return inputs;
}

std::vector<OutputDifference> CompareOutputs(const std::vector<std::string>& names,
                                             const std::vector<RuntimeValue>& expected,
                                             const std::vector<RuntimeValue>& actual,
                                             const EquivalenceOptions& options) {
  std::vector<OutputDifference> out;
  for (size_t i = 0; i < expected.size(); ++i) {
    OutputDifference diff;
    diff.output = i < names.size() ? names[i] : absl::StrCat("#", i);
    if (i >= actual.size()) {
      diff.equal = false;
      diff.detail = "missing";
    } else {
      CompareValues(expected[i], actual[i], options, diff);
    }
    out.push_back(std::move(diff));
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

absl::StatusOr<std::vector<RuntimeValue>> RunModel(const ir::Model& model,
                                                  const std::vector<RuntimeValue>& inputs) {
  interpreter::Evaluator evaluator(model);
  return evaluator.Run(inputs);
}

absl::Status CheckOutputs(const ir::Model& model, const std::vector<RuntimeValue>& inputs,
                          const std::vector<RuntimeValue>& expected, const EquivalenceOptions& options,
                          std::vector<OutputDifference>* report) {
  absl::StatusOr<std::vector<RuntimeValue>> actual = RunModel(model, inputs);
  if (!actual.ok()) {
    return absl::Status(actual.status().code(),
                        absl::StrCat("the rewritten model does not run: ", actual.status().message()));
  }
  std::vector<std::string> names;
  for (const ir::Value* v : model.graph().outputs()) names.push_back(v->name());
  std::vector<OutputDifference> diffs = CompareOutputs(names, expected, *actual, options);
  if (report != nullptr) *report = diffs;
  for (const OutputDifference& d : diffs) {
    if (!d.equal) {
      return absl::FailedPreconditionError(absl::StrCat("output '", d.output, "' differs: ", d.detail));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckEquivalent(const ir::Model& original, const ir::Model& rewritten,
                             const EquivalenceOptions& options, std::vector<OutputDifference>* report) {
  ASSIGN_OR_RETURN(std::vector<RuntimeValue> inputs, MakeRandomInputs(original, options));
  absl::StatusOr<std::vector<RuntimeValue>> expected = RunModel(original, inputs);
  if (!expected.ok()) {
    return absl::Status(expected.status().code(),
                        absl::StrCat("the original model does not run: ", expected.status().message()));
  }
  return CheckOutputs(rewritten, inputs, *expected, options, report);
}

}  // namespace onnx_opt::verify
