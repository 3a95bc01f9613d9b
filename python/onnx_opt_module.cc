// _onnx_opt, the native layer of the onnx_opt Python module: a thin pybind11 binding over the calls
// the tools make (tools/lib/model_steps.h for onnx-opt and onnx-convert, the checker, inference,
// the interpreter, the text syntax). Models cross as bytes (a serialized ModelProto) or a path;
// python/onnx_opt/__init__.py turns onnx.ModelProto and os.PathLike into those and back, and checks
// argument types. absl::Status becomes a Python exception here and nowhere else, with the message
// the tools print. Loading, rewriting, checking and running happen with the GIL released; Python
// objects are read and made only before and after.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "interpreter/value.h"
#include "ir/io/model_io.h"
#include "ir/model.h"
#include "ir/resident_weights.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "optimizer/pass_registry.h"
#include "schema/checker/checker.h"
#include "schema/inference/inference.h"
#include "tools/cli/version.h"
#include "tools/dot/graph_dot.h"
#include "tools/lib/model_check.h"
#include "tools/lib/model_compare.h"
#include "tools/lib/model_source.h"
#include "tools/lib/model_steps.h"
#include "tools/lib/verification.h"

namespace onnx_opt::python {
namespace {

namespace py = pybind11;

// ---------------------------------------------------------------------------------------------
// Errors. Code running without the GIL throws Error; the translator registered in the module turns
// it into the Python exception of its kind once the GIL is held again.

enum class ErrorKind {
  kInvalidModel,
  kValue,
  kType,
  kFileNotFound,
  kNotImplemented,
  kMemory,
  kRuntime
};

class Error : public std::exception {
 public:
  Error(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  ErrorKind kind() const { return kind_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  ErrorKind kind_;
  std::string message_;
};

// onnx_opt.InvalidModelError, made at import (a new reference kept for the process's life).
PyObject* invalid_model_error = nullptr;

PyObject* PythonTypeOf(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidModel:
      return invalid_model_error;
    case ErrorKind::kValue:
      return PyExc_ValueError;
    case ErrorKind::kType:
      return PyExc_TypeError;
    case ErrorKind::kFileNotFound:
      return PyExc_FileNotFoundError;
    case ErrorKind::kNotImplemented:
      return PyExc_NotImplementedError;
    case ErrorKind::kMemory:
      return PyExc_MemoryError;
    case ErrorKind::kRuntime:
      return PyExc_RuntimeError;
  }
  return PyExc_RuntimeError;
}

[[noreturn]] void Fail(ErrorKind kind, std::string message) {
  throw Error(kind, std::move(message));
}

// A failure of the interpreter on given inputs, by its status code.
ErrorKind RunErrorKind(const absl::Status& status) {
  if (absl::IsInvalidArgument(status)) return ErrorKind::kValue;
  if (absl::IsUnimplemented(status)) return ErrorKind::kNotImplemented;
  if (absl::IsResourceExhausted(status)) return ErrorKind::kMemory;
  return ErrorKind::kRuntime;
}

// ---------------------------------------------------------------------------------------------
// Models in and out.

// A model argument: bytes (viewed, not copied: the caller's object outlives the call) or a path.
struct ModelArg {
  std::string label;  // how messages name it, as the tools name their input: the path, or "input"
  std::optional<std::string> path;
  std::string_view bytes;
};

ModelArg ToModelArg(const py::object& model) {
  if (py::isinstance<py::bytes>(model)) {
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(model.ptr(), &data, &size) != 0) throw py::error_already_set();
    return {"input", std::nullopt, std::string_view(data, static_cast<size_t>(size))};
  }
  if (py::isinstance<py::str>(model)) {
    std::string path = model.cast<std::string>();
    return {path, path, {}};
  }
  throw py::type_error(
      absl::StrCat("a model is bytes (a serialized ModelProto), a path or an onnx.ModelProto, not ",
                   std::string(py::str(model.get_type().attr("__name__")))));
}

// Without the GIL.
std::unique_ptr<ir::Model> Load(const ModelArg& arg) {
  // tools::ReadModel reads standard input for "-"; from Python that is a file of that name.
  absl::StatusOr<std::unique_ptr<ir::Model>> model =
      arg.path ? tools::ReadModel(*arg.path == "-" ? "./-" : *arg.path)
               : ir::io::LoadModelFromString(arg.bytes);
  if (model.ok()) return std::move(*model);
  const bool missing = arg.path && !std::filesystem::exists(*arg.path);
  Fail(missing ? ErrorKind::kFileNotFound : ErrorKind::kInvalidModel,
       absl::StrCat(arg.label, ": ", model.status().message()));
}

// Bytes of the input as given: the file's size for a path (external data not counted).
int64_t InputBytes(const ModelArg& arg) {
  if (!arg.path) return static_cast<int64_t>(arg.bytes.size());
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(*arg.path, ec);
  return ec ? -1 : static_cast<int64_t>(size);
}

// Without the GIL. Tensors read from external data keep their references (ir/io/model_io.h).
std::string Serialize(const ir::Model& model, const ir::io::SaveOptions& options = {}) {
  absl::StatusOr<std::string> bytes = ir::io::SerializeModel(model, options);
  if (!bytes.ok())
    Fail(ErrorKind::kValue,
         absl::StrCat("cannot serialize the result: ", bytes.status().message()));
  return std::move(*bytes);
}

schema::checker::CheckResult CheckInput(const ir::Model& model, const ModelArg& arg,
                                        std::vector<std::string>& warnings) {
  absl::StatusOr<schema::checker::CheckResult> check = tools::CheckInputModel(
      model, arg.label, [&](const std::string& w) { warnings.push_back(w); });
  if (!check.ok()) Fail(ErrorKind::kInvalidModel, std::string(check.status().message()));
  return std::move(*check);
}

py::list ToList(const std::vector<std::string>& strings) {
  py::list out;
  for (const std::string& s : strings) out.append(py::str(s));
  return out;
}

// ---------------------------------------------------------------------------------------------
// optimize, convert, check, infer_shapes, text.

py::dict StatsDict(const optimizer::PipelineResult& result, int64_t bytes_before,
                   int64_t bytes_after, const tools::Verification* verification_done) {
  // The figures of onnx-opt --stats-json, under the same names, plus the serialized sizes.
  py::list runs;
  for (const optimizer::PassRun& r : result.runs) {
    py::dict run;
    run["pass"] = r.pass;
    run["seconds"] = r.seconds;
    run["rewrites"] = r.rewrites;
    run["changed"] = r.changed;
    run["nodes_before"] = r.before.nodes;
    run["nodes_after"] = r.after.nodes;
    run["initializer_bytes_before"] = r.before.initializer_bytes;
    run["initializer_bytes_after"] = r.after.initializer_bytes;
    py::dict pattern_rewrites;
    for (const auto& [pattern, count] : r.pattern_rewrites)
      pattern_rewrites[py::str(pattern)] = count;
    run["pattern_rewrites"] = pattern_rewrites;
    runs.append(run);
  }
  py::dict rewrites;          // per pass, summed over its runs
  py::dict pattern_rewrites;  // per "pass/pattern", likewise
  for (const optimizer::PassRun& r : optimizer::SummarizeRuns(result.runs)) {
    rewrites[py::str(r.pass)] = r.rewrites;
    for (const auto& [pattern, count] : r.pattern_rewrites)
      pattern_rewrites[py::str(pattern)] = count;
  }
  py::dict stats;
  stats["changed"] = result.changed;
  stats["runs"] = runs;
  stats["rewrites"] = rewrites;
  stats["pattern_rewrites"] = pattern_rewrites;
  stats["nodes_before"] = result.before.nodes;
  stats["nodes_after"] = result.after.nodes;
  stats["initializer_bytes_before"] = result.before.initializer_bytes;
  stats["initializer_bytes_after"] = result.after.initializer_bytes;
  stats["bytes_before"] = bytes_before;
  stats["bytes_after"] = bytes_after;
  stats["initializers_listed_as_inputs"] = result.listed_as_inputs.count;
  stats["folds_refused_for_growth"] = result.folds_refused_for_growth;
  stats["fixed_points_at_limit"] = result.fixed_points_at_limit;
  if (verification_done != nullptr) {
    py::list outputs;
    for (const equivalence::OutputDifference& d : verification_done->differences) {
      py::dict o;
      o["output"] = d.output;
      o["max_abs_error"] = d.max_abs_error;
      o["max_rel_error"] = d.max_rel_error;
      o["rel_l2_error"] = d.rel_l2_error;
      o["cosine"] = d.cosine;
      outputs.append(o);
    }
    py::dict verification;
    verification["summary"] = tools::DescribeMatch(*verification_done);
    verification["outputs"] = outputs;
    verification["sizes"] = ToList(verification_done->sizes);
    verification["notes"] = ToList(verification_done->notes);
    stats["verification"] = verification;
  }
  return stats;
}

// Returns (model bytes, stats, warnings).
py::tuple Optimize(const py::object& model, const std::string& passes, bool verify,
                   std::optional<int64_t> fold_size_limit, std::optional<int64_t> fold_growth_limit,
                   const std::map<std::string, int64_t>& dims) {
  const ModelArg arg = ToModelArg(model);
  tools::OptimizeRequest request;
  request.pipeline = passes;
  request.verify = verify;
  if (fold_size_limit) request.manager.pass_options.fold_size_limit = *fold_size_limit;
  if (fold_growth_limit) request.manager.pass_options.fold_growth_limit = *fold_growth_limit;
  request.equivalence.dims = dims;
  std::vector<std::string> warnings;
  std::string bytes;
  tools::OptimizeOutcome outcome;
  {
    py::gil_scoped_release release;
    std::unique_ptr<ir::Model> loaded = Load(arg);
    const schema::checker::CheckResult input_check = CheckInput(*loaded, arg, warnings);
    bool usage_error = false;
    absl::StatusOr<tools::OptimizeOutcome> optimized = tools::OptimizeCheckedModel(
        *loaded, input_check, request, [&](const std::string& w) { warnings.push_back(w); },
        &usage_error);
    if (!optimized.ok()) {
      Fail(usage_error ? ErrorKind::kValue : ErrorKind::kInvalidModel,
           std::string(optimized.status().message()));
    }
    outcome = std::move(*optimized);
    ir::io::SaveOptions save;
    save.force_raw_data = true;  // as onnx-opt writes
    bytes = Serialize(*loaded, save);
  }
  const int64_t bytes_after = static_cast<int64_t>(bytes.size());
  py::dict stats = StatsDict(outcome.pipeline, InputBytes(arg), bytes_after,
                             outcome.verification.ran ? &outcome.verification : nullptr);
  return py::make_tuple(py::bytes(bytes), stats, ToList(warnings));
}

// Returns (model bytes, report, warnings).
py::tuple Convert(const py::object& model, std::optional<int64_t> opset,
                  std::optional<int64_t> ml_opset, bool verify) {
  const ModelArg arg = ToModelArg(model);
  tools::ConvertRequest request;
  request.options.onnx_opset = opset;
  request.options.ml_opset = ml_opset;
  request.verify = verify;
  std::vector<std::string> warnings;
  std::string bytes;
  tools::ConvertOutcome outcome;
  {
    py::gil_scoped_release release;
    std::unique_ptr<ir::Model> loaded = Load(arg);
    const schema::checker::CheckResult input_check = CheckInput(*loaded, arg, warnings);
    absl::StatusOr<tools::ConvertOutcome> converted =
        tools::ConvertCheckedModel(std::move(loaded), input_check, request,
                                   [&](const std::string& w) { warnings.push_back(w); });
    if (!converted.ok()) Fail(ErrorKind::kInvalidModel, std::string(converted.status().message()));
    outcome = std::move(*converted);
    for (const std::string& w : outcome.report.warnings) warnings.push_back(w);
    bytes = Serialize(*outcome.model);
  }
  const converter::ConvertReport& r = outcome.report;
  py::dict report;
  report["ir_version_before"] = r.ir_from;
  report["ir_version_after"] = r.ir_to;
  report["nodes_adapted"] = r.nodes_adapted;
  report["nodes_rewritten"] = r.nodes_rewritten;
  report["nodes_folded"] = r.nodes_folded;
  if (verify) report["verification"] = tools::DescribeMatch(outcome.verification);
  return py::make_tuple(py::bytes(bytes), report, ToList(warnings));
}

// Returns (verdict, warnings): onnx-compare's check (tools/lib/model_compare.h).
py::tuple Compare(const py::object& a, const py::object& b,
                  const std::map<std::string, int64_t>& dims, uint64_t seed,
                  std::optional<std::pair<double, double>> tolerance) {
  const ModelArg args[2] = {ToModelArg(a), ToModelArg(b)};
  tools::CompareRequest request;
  request.equivalence.dims = dims;
  request.equivalence.seed = seed;
  if (tolerance) request.equivalence.tolerances.float32 = {tolerance->first, tolerance->second};
  std::vector<std::string> warnings;
  tools::CompareOutcome outcome;
  {
    py::gil_scoped_release release;
    std::unique_ptr<ir::Model> models[2];
    for (int i = 0; i < 2; ++i) {
      models[i] = Load(args[i]);
      CheckInput(*models[i], args[i], warnings);
    }
    absl::StatusOr<tools::CompareOutcome> compared =
        tools::CompareModels(*models[0], *models[1], request);
    if (!compared.ok()) Fail(ErrorKind::kInvalidModel, std::string(compared.status().message()));
    outcome = std::move(*compared);
  }
  py::list outputs;
  for (const equivalence::OutputDifference& d : outcome.verification.differences) {
    py::dict o;
    o["output"] = d.output;
    o["equal"] = d.equal;
    o["detail"] = d.detail;
    o["max_abs_error"] = d.max_abs_error;
    o["max_rel_error"] = d.max_rel_error;
    outputs.append(o);
  }
  py::dict verdict;
  verdict["equal"] = outcome.equal;
  verdict["outputs"] = outputs;
  verdict["sizes"] = ToList(outcome.verification.sizes);
  verdict["notes"] = ToList(outcome.verification.notes);
  return py::make_tuple(verdict, ToList(warnings));
}

// Returns (errors, warnings). A model that does not load is one error, as onnx-check reports it.
py::tuple Check(const py::object& model) {
  const ModelArg arg = ToModelArg(model);
  schema::checker::CheckResult result;
  {
    py::gil_scoped_release release;
    try {
      std::unique_ptr<ir::Model> loaded = Load(arg);
      result = schema::checker::Check(*loaded);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kInvalidModel) throw;
      result.errors.push_back(e.what());
    }
  }
  return py::make_tuple(ToList(result.errors), ToList(result.warnings));
}

// Returns (model bytes, warnings).
py::tuple InferShapes(const py::object& model) {
  const ModelArg arg = ToModelArg(model);
  std::vector<std::string> warnings;
  std::string bytes;
  {
    py::gil_scoped_release release;
    std::unique_ptr<ir::Model> loaded = Load(arg);
    CheckInput(*loaded, arg, warnings);
    schema::inference::InferOptions options;
    options.warnings = &warnings;
    if (absl::Status s = schema::inference::InferShapes(*loaded, options); !s.ok()) {
      Fail(ErrorKind::kInvalidModel, absl::StrCat("inference failed: ", s.message()));
    }
    bytes = Serialize(*loaded);
  }
  return py::make_tuple(py::bytes(bytes), ToList(warnings));
}

py::bytes ParseText(const std::string& text) {
  std::string bytes;
  {
    py::gil_scoped_release release;
    absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::text::ParseModel(text);
    if (!model.ok()) Fail(ErrorKind::kInvalidModel, std::string(model.status().message()));
    bytes = Serialize(**model);
  }
  return py::bytes(bytes);
}

std::string ToText(const py::object& model) {
  const ModelArg arg = ToModelArg(model);
  py::gil_scoped_release release;
  return ir::text::PrintModel(*Load(arg));
}

std::string ToDot(const py::object& model, const py::object& compare_with) {
  const ModelArg arg = ToModelArg(model);
  std::optional<ModelArg> before_arg;
  if (!compare_with.is_none()) before_arg = ToModelArg(compare_with);
  py::gil_scoped_release release;
  std::unique_ptr<ir::Model> loaded = Load(arg);
  std::unique_ptr<ir::Model> before = before_arg ? Load(*before_arg) : nullptr;
  return tools::ToDot(*loaded, {.compare_with = before.get()});
}

py::list ListPasses() {
  py::list out;
  for (const auto& [name, group] : optimizer::PassRegistry::Global().groups()) {
    py::dict entry;
    entry["name"] = name;
    entry["kind"] = "group";
    entry["summary"] = group.summary;
    entry["pipeline"] = group.pipeline;
    out.append(entry);
  }
  for (const optimizer::PassInfo* pass : tools::ListedPasses()) {
    py::dict entry;
    entry["name"] = pass->name;
    entry["kind"] = "pass";
    entry["summary"] = pass->summary;
    out.append(entry);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// run: numpy arrays in, numpy arrays out.

// Views a numpy array's bytes without copying or owning them. Run keeps the arrays and these views
// alive until every interpreter value is gone, and its own reference to each view means no kernel
// ever finds the buffer unshared, so none writes its output over the caller's array.
class ArrayBytes final : public ir::Buffer {
 public:
  ArrayBytes(const char* data, size_t size) : data_(data), size_(size) {}
  const char* data() const override { return data_; }
  size_t size() const override { return size_; }

 private:
  const char* data_;
  size_t size_;
};

// The ONNX element type of a numpy dtype; nullopt for dtypes ONNX has no type for.
std::optional<ir::DataType> DataTypeOf(const py::dtype& dtype) {
  const char kind = dtype.kind();
  const py::ssize_t size = dtype.itemsize();
  using ir::DataType;
  switch (kind) {
    case 'b':
      return DataType::kBool;
    case 'f':
      if (size == 2) return DataType::kFloat16;
      if (size == 4) return DataType::kFloat;
      if (size == 8) return DataType::kDouble;
      return std::nullopt;
    case 'i':
      if (size == 1) return DataType::kInt8;
      if (size == 2) return DataType::kInt16;
      if (size == 4) return DataType::kInt32;
      if (size == 8) return DataType::kInt64;
      return std::nullopt;
    case 'u':
      if (size == 1) return DataType::kUint8;
      if (size == 2) return DataType::kUint16;
      if (size == 4) return DataType::kUint32;
      if (size == 8) return DataType::kUint64;
      return std::nullopt;
    case 'c':
      if (size == 8) return DataType::kComplex64;
      if (size == 16) return DataType::kComplex128;
      return std::nullopt;
    case 'U':
    case 'S':
    case 'O':
      return DataType::kString;
    default:
      return std::nullopt;
  }
}

// The numpy dtype name of an ONNX element type; nullopt where numpy has none (bfloat16, float8,
// int4...).
std::optional<std::string> NumpyDtypeOf(ir::DataType type) {
  using ir::DataType;
  switch (type) {
    case DataType::kBool:
      return "bool";
    case DataType::kFloat16:
      return "float16";
    case DataType::kFloat:
      return "float32";
    case DataType::kDouble:
      return "float64";
    case DataType::kInt8:
      return "int8";
    case DataType::kInt16:
      return "int16";
    case DataType::kInt32:
      return "int32";
    case DataType::kInt64:
      return "int64";
    case DataType::kUint8:
      return "uint8";
    case DataType::kUint16:
      return "uint16";
    case DataType::kUint32:
      return "uint32";
    case DataType::kUint64:
      return "uint64";
    case DataType::kComplex64:
      return "complex64";
    case DataType::kComplex128:
      return "complex128";
    case DataType::kString:
      return "object";
    default:
      return std::nullopt;
  }
}

// The declared tensor type of a graph input (an optional's element), or null when it holds no
// tensor.
const ir::Type* DeclaredTensorType(const ir::Value& input) {
  const ir::Type* type = &input.type();
  if (type->kind() == ir::Type::Kind::kOptional && type->has_inner()) type = &type->inner();
  return type->is_tensor() || type->is_none() ? type : nullptr;
}

// Checks `array` against the input's declared type (element type: TypeError; rank and known dims:
// ValueError) so that a model never runs on what it does not declare.
void CheckAgainstDeclared(const ir::Value& input, ir::DataType type,
                          const std::vector<int64_t>& dims) {
  const ir::Type* declared = DeclaredTensorType(input);
  if (declared == nullptr) {
    Fail(ErrorKind::kType, absl::StrCat("input '", input.name(), "' is a ", input.type().ToString(),
                                        "; run takes numpy arrays for tensor inputs only"));
  }
  if (declared->is_none()) return;
  if (declared->elem_type() != ir::DataType::kUndefined && declared->elem_type() != type) {
    Fail(ErrorKind::kType,
         absl::StrCat("input '", input.name(), "' is ", ir::DataTypeName(type),
                      ", but the model declares ", ir::DataTypeName(declared->elem_type())));
  }
  if (!declared->shape()) return;
  const std::vector<ir::Dim>& want = declared->shape()->dims();
  bool fits = want.size() == dims.size();
  for (size_t i = 0; fits && i < want.size(); ++i)
    fits = !want[i].is_known() || want[i].value() == dims[i];
  if (!fits) {
    Fail(ErrorKind::kValue,
         absl::StrCat("input '", input.name(), "' has shape ", interpreter::DimsToString(dims),
                      ", but the model declares ", ir::ShapeToString(*declared->shape())));
  }
}

// With the GIL: the array as an interpreter tensor, sharing its bytes when they are aligned (see
// ArrayBytes); strings are copied. `views` keeps what the tensor shares.
interpreter::Tensor ToTensor(const ir::Value& input, const py::array& array,
                             std::vector<std::shared_ptr<const ir::Buffer>>& views) {
  const std::optional<ir::DataType> type = DataTypeOf(array.dtype());
  if (!type) {
    Fail(ErrorKind::kType,
         absl::StrCat("input '", input.name(), "' has numpy dtype ",
                      std::string(py::str(array.dtype())), ", which has no ONNX element type"));
  }
  std::vector<int64_t> dims(array.shape(), array.shape() + array.ndim());
  CheckAgainstDeclared(input, *type, dims);
  if (*type == ir::DataType::kString) {
    interpreter::Tensor t(*type, dims);
    std::string* out = t.mutable_data<std::string>();
    int64_t i = 0;
    for (py::handle item : array.attr("ravel")()) {
      if (py::isinstance<py::bytes>(item)) {
        out[i++] = item.cast<std::string>();
      } else if (py::isinstance<py::str>(item)) {
        out[i++] = item.cast<std::string>();  // UTF-8
      } else {
        Fail(ErrorKind::kType,
             absl::StrCat("input '", input.name(), "' is a string tensor, but holds a ",
                          std::string(py::str(item.get_type().attr("__name__")))));
      }
    }
    return t;
  }
  // The wrapper passes C-contiguous arrays in native byte order.
  if (!(array.flags() & py::array::c_style) || !array.dtype().attr("isnative").cast<bool>()) {
    Fail(ErrorKind::kValue,
         absl::StrCat("input '", input.name(), "' must be C-contiguous in native byte order"));
  }
  auto view = std::make_shared<ArrayBytes>(static_cast<const char*>(array.data()),
                                           static_cast<size_t>(array.nbytes()));
  views.push_back(view);
  ir::Tensor bytes(*type, dims);
  bytes.SetRawView(view, 0, view->size());
  absl::StatusOr<interpreter::Tensor> tensor = interpreter::Tensor::FromIr(bytes);
  if (!tensor.ok())
    Fail(ErrorKind::kValue,
         absl::StrCat("input '", input.name(), "': ", tensor.status().message()));
  return std::move(*tensor);
}

// With the GIL: a copy of the tensor in a new numpy array (the one copy of an output's data; the
// interpreter's buffers may be shared with the model's weights or reused, so they are not lent
// out).
py::object ToArray(const std::string& name, const interpreter::Tensor& tensor) {
  const std::optional<std::string> dtype_name = NumpyDtypeOf(tensor.dtype());
  if (!dtype_name) {
    Fail(ErrorKind::kType,
         absl::StrCat("output '", name, "' has element type ", ir::DataTypeName(tensor.dtype()),
                      ", which numpy has no dtype for"));
  }
  const std::vector<py::ssize_t> shape(tensor.dims().begin(), tensor.dims().end());
  if (tensor.is_string()) {
    py::list flat;
    const std::string* strings = tensor.data<std::string>();
    for (int64_t i = 0; i < tensor.size(); ++i) {
      PyObject* text = PyUnicode_DecodeUTF8(strings[i].data(),
                                            static_cast<Py_ssize_t>(strings[i].size()), "strict");
      if (text != nullptr) {
        flat.append(py::reinterpret_steal<py::object>(text));
      } else {  // not UTF-8: the bytes as they are
        PyErr_Clear();
        flat.append(py::bytes(strings[i]));
      }
    }
    py::object numpy = py::module_::import("numpy");
    return numpy.attr("array")(flat, py::arg("dtype") = "object")
        .attr("reshape")(py::tuple(py::cast(shape)));
  }
  py::array out(py::dtype::from_args(py::str(*dtype_name)), shape);
  if (tensor.size() > 0) {
    std::memcpy(out.mutable_data(), tensor.raw(),
                static_cast<size_t>(tensor.size()) * tensor.element_size());
  }
  return std::move(out);
}

py::object ToPython(const std::string& name, const interpreter::RuntimeValue& value) {
  switch (value.kind()) {
    case interpreter::RuntimeValue::Kind::kNone:
      return py::none();
    case interpreter::RuntimeValue::Kind::kTensor:
      return ToArray(name, value.tensor());
    case interpreter::RuntimeValue::Kind::kSequence: {
      py::list items;
      for (const interpreter::Tensor& t : value.sequence()) items.append(ToArray(name, t));
      return std::move(items);
    }
    case interpreter::RuntimeValue::Kind::kMap: {
      py::list keys = ToArray(name, value.map_keys()).attr("tolist")();
      py::object values = ToArray(name, value.map_values());
      py::dict map;
      for (size_t i = 0; i < keys.size(); ++i) map[keys[i]] = values[py::int_(i)];
      return std::move(map);
    }
  }
  return py::none();
}

// With the GIL: `inputs` as interpreter values by input name, checked against `graph`'s inputs
// (every input without an initializer given, no unknown names). `arrays` and `views` keep what the
// values share (see ArrayBytes) and must outlive them.
absl::flat_hash_map<std::string, interpreter::RuntimeValue> ToInputValues(
    const ir::Graph& graph, const py::dict& inputs, std::vector<py::array>& arrays,
    std::vector<std::shared_ptr<const ir::Buffer>>& views) {
  const std::vector<ir::Value*>& graph_inputs = graph.inputs();
  absl::flat_hash_map<std::string, interpreter::RuntimeValue> values;
  for (const auto& [key, value] : inputs) {
    const std::string name = py::cast<std::string>(key);
    const ir::Value* input = nullptr;
    for (const ir::Value* v : graph_inputs) {
      if (v->name() == name) input = v;
    }
    if (input == nullptr) {
      std::vector<std::string> names;
      for (const ir::Value* v : graph_inputs) names.push_back(v->name());
      Fail(ErrorKind::kValue, absl::StrCat("the model has no input named '", name,
                                           "' (its inputs: ", absl::StrJoin(names, ", "), ")"));
    }
    if (!py::isinstance<py::array>(value)) {
      Fail(ErrorKind::kType, absl::StrCat("input '", name, "' is not a numpy array"));
    }
    arrays.push_back(py::reinterpret_borrow<py::array>(value));
    values[name] = ToTensor(*input, arrays.back(), views);
  }
  for (const ir::Value* v : graph_inputs) {
    if (!v->is_initializer() && !values.contains(v->name())) {
      Fail(ErrorKind::kValue, absl::StrCat("no value for graph input '", v->name(), "'"));
    }
  }
  return values;
}

// With the GIL: {output name: value} in graph-output order, copied out of the interpreter's
// buffers.
py::dict ToOutputs(const ir::Graph& graph, const std::vector<interpreter::RuntimeValue>& results) {
  py::dict outputs;
  const std::vector<ir::Value*>& graph_outputs = graph.outputs();
  for (size_t i = 0; i < results.size() && i < graph_outputs.size(); ++i) {
    outputs[py::str(graph_outputs[i]->name())] = ToPython(graph_outputs[i]->name(), results[i]);
  }
  return outputs;
}

py::dict Run(const py::object& model, const py::dict& inputs) {
  const ModelArg arg = ToModelArg(model);
  std::unique_ptr<ir::Model> loaded;
  std::vector<std::string> warnings;
  {
    py::gil_scoped_release release;
    loaded = Load(arg);
    CheckInput(*loaded, arg, warnings);
  }
  // Kept until the outputs are copied: the arrays and views the input tensors share.
  std::vector<py::array> arrays;
  std::vector<std::shared_ptr<const ir::Buffer>> views;
  absl::flat_hash_map<std::string, interpreter::RuntimeValue> values =
      ToInputValues(loaded->graph(), inputs, arrays, views);
  absl::StatusOr<std::vector<interpreter::RuntimeValue>> results;
  {
    py::gil_scoped_release release;
    interpreter::Evaluator evaluator(*loaded);  // one run: no constants kept (see Session)
    results = evaluator.RunByName(values);
    values.clear();
  }
  if (!results.ok()) Fail(RunErrorKind(results.status()), std::string(results.status().message()));
  return ToOutputs(loaded->graph(), *results);  // `results` goes first, then the views and arrays
}

// A model loaded and checked once and run many times on one evaluator, as onnxruntime's
// InferenceSession: plans are made and constant-only nodes computed on the first run, and later
// runs reuse them. Runs of one session take turns (the evaluator keeps state between runs); the GIL
// is released while they run or wait.
class Session {
 public:
  explicit Session(const py::object& model) {
    const ModelArg arg = ToModelArg(model);
    py::gil_scoped_release release;
    model_ = Load(arg);
    CheckInput(*model_, arg, warnings_);
    // Every run streams every weight: read them into memory once (huge pages), off their mapping.
    if (absl::Status s = ir::ReadMappedWeightsIntoMemory(model_->graph()).status(); !s.ok())
      Fail(ErrorKind::kRuntime, std::string(s.message()));
    evaluator_ = std::make_unique<interpreter::Evaluator>(
        *model_, interpreter::EvaluatorOptions{
                     .cache_constants = true, .keep_weight_pages = true, .pack_weights = true});
  }

  py::list warnings() const { return ToList(warnings_); }

  // The graph inputs a caller must give (those without an initializer), in order.
  py::list input_names() const {
    std::vector<std::string> names;
    for (const ir::Value* v : model_->graph().inputs()) {
      if (!v->is_initializer()) names.push_back(v->name());
    }
    return ToList(names);
  }

  py::list output_names() const {
    std::vector<std::string> names;
    for (const ir::Value* v : model_->graph().outputs()) names.push_back(v->name());
    return ToList(names);
  }

  py::dict Run(const py::dict& inputs) {
    std::vector<py::array> arrays;
    std::vector<std::shared_ptr<const ir::Buffer>> views;
    absl::flat_hash_map<std::string, interpreter::RuntimeValue> values =
        ToInputValues(model_->graph(), inputs, arrays, views);
    absl::StatusOr<std::vector<interpreter::RuntimeValue>> results;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex_);
      results = evaluator_->RunByName(values);
      values.clear();
    }
    if (!results.ok())
      Fail(RunErrorKind(results.status()), std::string(results.status().message()));
    return ToOutputs(model_->graph(), *results);
  }

 private:
  std::unique_ptr<ir::Model> model_;
  std::unique_ptr<interpreter::Evaluator> evaluator_;  // declared after model_: destroyed first
  std::vector<std::string> warnings_;
  std::mutex mutex_;
};

void DefineModule(py::module_& m) {
  m.doc() = "Native layer of onnx_opt; use the onnx_opt package instead.";
  invalid_model_error = PyErr_NewExceptionWithDoc(
      "onnx_opt.InvalidModelError",
      "The model does not load, is not valid, or a rewrite of it failed or was not verified.",
      PyExc_ValueError, nullptr);
  if (invalid_model_error == nullptr) throw py::error_already_set();
  m.attr("InvalidModelError") = py::handle(invalid_model_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(PythonTypeOf(e.kind()), e.what());
    }
  });
  m.attr("__version__") = cli::kVersion;
  m.def("optimize", &Optimize, py::arg("model"), py::arg("passes"), py::arg("verify"),
        py::arg("fold_size_limit"), py::arg("fold_growth_limit"), py::arg("dims"));
  m.def("convert", &Convert, py::arg("model"), py::arg("opset"), py::arg("ml_opset"),
        py::arg("verify"));
  m.def("check", &Check, py::arg("model"));
  m.def("compare", &Compare, py::arg("a"), py::arg("b"), py::arg("dims"), py::arg("seed"),
        py::arg("tolerance"));
  m.def("infer_shapes", &InferShapes, py::arg("model"));
  m.def("run", &Run, py::arg("model"), py::arg("inputs"));
  py::class_<Session>(m, "Session")
      .def(py::init<const py::object&>(), py::arg("model"))
      .def("warnings", &Session::warnings)
      .def("input_names", &Session::input_names)
      .def("output_names", &Session::output_names)
      .def("run", &Session::Run, py::arg("inputs"));
  m.def("parse_text", &ParseText, py::arg("text"));
  m.def("to_text", &ToText, py::arg("model"));
  m.def("to_dot", &ToDot, py::arg("model"), py::arg("compare_with"));
  m.def("list_passes", &ListPasses);
}

}  // namespace
}  // namespace onnx_opt::python

PYBIND11_MODULE(_onnx_opt, m) { onnx_opt::python::DefineModule(m); }
