#include "equivalence/equivalence.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "interpreter/evaluator.h"
#include "interpreter/tensor.h"
#include "ir/status_macros.h"

namespace onnx_opt::equivalence {
namespace {

using interpreter::RuntimeValue;
using interpreter::Tensor;

// A second run at other sizes is made when the model is this small (weights) and its inputs at the
// first sizes are this small (elements): it costs about as much as the first.
constexpr uint64_t kCheapWeightBytes = uint64_t{64} << 20;
constexpr int64_t kCheapInputElements = int64_t{1} << 22;

// The tensor type of an input (its own, or its sequence's or optional's element type).
const ir::Type* TensorTypeOf(const ir::Type& type) {
  const ir::Type* t = &type;
  while ((t->kind() == ir::Type::Kind::kOptional || t->kind() == ir::Type::Kind::kSequence) &&
         t->has_inner()) {
    t = &t->inner();
  }
  return t->kind() == ir::Type::Kind::kTensor ? t : nullptr;
}

// The dims of a tensor of `type` for `input`.
absl::StatusOr<std::vector<int64_t>> ResolveShape(const ir::Value& input, const ir::Type& type,
                                                  const EquivalenceOptions& options) {
  if (auto it = options.shapes.find(input.name()); it != options.shapes.end()) return it->second;
  std::vector<int64_t> dims;
  if (!type.shape().has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("input '", input.name(), "' has no declared shape; give one with --shape ",
                     input.name(), "=D0,D1,..."));
  }
  for (const ir::Dim& d : type.shape()->dims()) {
    if (d.is_known()) {
      dims.push_back(d.value());
    } else if (d.is_symbolic() && options.dims.count(d.symbol())) {
      dims.push_back(options.dims.at(d.symbol()));
    } else {
      dims.push_back(options.default_dim.value_or(1));
    }
  }
  return dims;
}

absl::StatusOr<Tensor> RandomTensor(ir::DataType type, std::vector<int64_t> dims,
                                    std::mt19937_64& rng) {
  const int64_t n = interpreter::NumElements(dims);
  if (n < 0 || n > (int64_t{1} << 28)) {
    return absl::InvalidArgumentError(
        absl::StrCat("input of ", n, " elements is too large to generate"));
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
        return absl::UnimplementedError(absl::StrCat("cannot generate a random value for input '",
                                                     input.name(), "' of type ", type.ToString(),
                                                     "; give inputs explicitly"));
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

// The inputs a caller feeds: those without an initializer, and not given a whole shape.
std::vector<const ir::Value*> FedInputs(const ir::Model& model, const EquivalenceOptions& options) {
  std::vector<const ir::Value*> fed;
  for (const ir::Value* v : model.graph().inputs()) {
    if (!v->is_initializer() && !options.shapes.contains(v->name())) fed.push_back(v);
  }
  return fed;
}

// The symbolic dims of the fed inputs that the user left free, in order of first appearance, and
// whether some dim is unknown (no symbol: it takes default_dim too).
struct FreeDims {
  std::vector<std::string> symbols;
  bool unknown = false;
  bool empty() const { return symbols.empty() && !unknown; }
};

FreeDims FindFreeDims(const ir::Model& model, const EquivalenceOptions& options) {
  FreeDims free;
  std::set<std::string> seen;
  for (const ir::Value* v : FedInputs(model, options)) {
    const ir::Type* t = TensorTypeOf(v->type());
    if (t == nullptr || !t->shape().has_value()) continue;
    for (const ir::Dim& d : t->shape()->dims()) {
      if (d.is_known()) continue;
      if (!d.is_symbolic()) {
        free.unknown = true;
      } else if (!options.dims.contains(d.symbol()) && seen.insert(d.symbol()).second) {
        free.symbols.push_back(d.symbol());
      }
    }
  }
  return free;
}

uint64_t WeightBytes(const ir::Model& model) {
  uint64_t bytes = 0;
  for (const ir::Value* v : model.graph().initializers()) {
    const ir::Tensor& t = *v->initializer();
    bytes +=
        t.num_elements().value_or(0) * std::max<int>(ir::ElementBitWidth(t.data_type()), 8) / 8;
  }
  return bytes;
}

int64_t InputElements(const std::vector<RuntimeValue>& inputs) {
  int64_t n = 0;
  for (const RuntimeValue& v : inputs) {
    if (v.kind() == RuntimeValue::Kind::kTensor) n += v.tensor().size();
    if (v.kind() == RuntimeValue::Kind::kSequence) {
      for (const Tensor& t : v.sequence()) n += t.size();
    }
  }
  return n;
}

// One choice of sizes for the free dims.
struct Sizes {
  std::map<std::string, int64_t> symbols;
  int64_t others = 1;  // every other free dim (unknown ones)
};

std::string Describe(const Sizes& sizes, const FreeDims& free) {
  std::vector<std::string> parts;
  for (const std::string& s : free.symbols)
    parts.push_back(absl::StrCat(s, "=", sizes.symbols.at(s)));
  if (free.unknown) parts.push_back(absl::StrCat("unnamed dims=", sizes.others));
  return absl::StrJoin(parts, ", ");
}

Sizes AllAt(const FreeDims& free, int64_t value) {
  Sizes s;
  for (const std::string& sym : free.symbols) s.symbols[sym] = value;
  s.others = value;
  return s;
}

EquivalenceOptions WithSizes(const EquivalenceOptions& options, const Sizes& sizes) {
  EquivalenceOptions o = options;
  for (const auto& [sym, v] : sizes.symbols) o.dims[sym] = v;
  o.default_dim = sizes.others;
  return o;
}

// Whether the outputs have the sizes their declared shapes give the symbols bound in `options`:
// sizes that run but break the model's own declarations (a KV cache's total length run at other
// than past + new) are no test of a rewrite, which may rely on those declarations.
absl::Status CheckDeclaredShapes(const ir::Model& model, const std::vector<RuntimeValue>& outputs,
                                 const EquivalenceOptions& options) {
  for (size_t i = 0; i < outputs.size() && i < model.graph().outputs().size(); ++i) {
    const ir::Value* out = model.graph().outputs()[i];
    const ir::Type* t = TensorTypeOf(out->type());
    if (t == nullptr || !t->shape().has_value() || outputs[i].kind() != RuntimeValue::Kind::kTensor)
      continue;
    const std::vector<int64_t>& got = outputs[i].tensor().dims();
    const std::vector<ir::Dim>& declared = t->shape()->dims();
    if (declared.size() != got.size()) continue;
    for (size_t k = 0; k < got.size(); ++k) {
      if (!declared[k].is_symbolic()) continue;
      auto it = options.dims.find(declared[k].symbol());
      if (it != options.dims.end() && it->second != got[k]) {
        return absl::InvalidArgumentError(
            absl::StrCat("output '", out->name(), "' has ", got[k], " on axis ", k,
                         " where its declared shape says ", declared[k].symbol(), "=", it->second));
      }
    }
  }
  return absl::OkStatus();
}

// The original on random inputs at `sizes` (or why it does not run there), and whether its outputs
// agree with their declared shapes there.
struct Attempt {
  absl::StatusOr<Reference> ref;
  absl::Status declared;
  bool fits() const { return ref.ok() && declared.ok(); }
  // Why these sizes do not fit.
  absl::Status why() const { return ref.ok() ? declared : ref.status(); }
};

Attempt RunAt(const ir::Model& original, const EquivalenceOptions& options, const Sizes& sizes,
              const FreeDims& free) {
  const EquivalenceOptions sized = WithSizes(options, sizes);
  Attempt a{[&]() -> absl::StatusOr<Reference> {
              Reference ref;
              ref.sizes = Describe(sizes, free);
              ASSIGN_OR_RETURN(ref.inputs, MakeRandomInputs(original, sized));
              ASSIGN_OR_RETURN(ref.outputs, RunModel(original, ref.inputs));
              return ref;
            }(),
            absl::OkStatus()};
  if (a.ref.ok()) a.declared = CheckDeclaredShapes(original, a.ref->outputs, sized);
  return a;
}

References Named(const ir::Model& original) {
  References refs;
  for (const ir::Value* v : original.graph().inputs()) refs.input_names.push_back(v->name());
  for (const ir::Value* v : original.graph().outputs()) refs.output_names.push_back(v->name());
  return refs;
}

std::vector<std::string> Names(const std::vector<ir::Value*>& values) {
  std::vector<std::string> names;
  for (const ir::Value* v : values) names.push_back(v->name());
  return names;
}

// The reference's inputs for `model`: as they are when its inputs start like the original's, else
// by name (an input with an initializer keeps it).
absl::StatusOr<std::vector<RuntimeValue>> InputsFor(const ir::Model& model, const References& refs,
                                                    const Reference& ref) {
  const std::vector<ir::Value*>& inputs = model.graph().inputs();
  bool same = inputs.size() >= ref.inputs.size() && refs.input_names.size() >= ref.inputs.size();
  for (size_t i = 0; same && i < ref.inputs.size(); ++i)
    same = inputs[i]->name() == refs.input_names[i];
  if (same) return ref.inputs;
  std::map<std::string, const RuntimeValue*> by_name;
  for (size_t i = 0; i < ref.inputs.size() && i < refs.input_names.size(); ++i) {
    if (ref.inputs[i].kind() != RuntimeValue::Kind::kNone)
      by_name[refs.input_names[i]] = &ref.inputs[i];
  }
  std::vector<RuntimeValue> out;
  for (const ir::Value* v : inputs) {
    auto it = by_name.find(v->name());
    if (it != by_name.end()) {
      out.push_back(*it->second);
    } else if (v->is_initializer()) {
      out.emplace_back();
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "the rewritten model has an input '", v->name(), "' that the original does not feed"));
    }
  }
  return out;
}

absl::Status DoesNotRun(const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat("the original model does not run: ", s.message()));
}

// Neither all-2 nor all-1 suits the model: its free dims depend on each other.
absl::Status NoSizesFit(const absl::Status& s, const FreeDims& free) {
  return absl::Status(s.code(), absl::StrCat("the original model does not run with its free dims (",
                                             absl::StrJoin(free.symbols, ", "),
                                             ") all at 2 nor all at 1: ", s.message(),
                                             "; give their sizes with --dim NAME=VALUE,..."));
}

}  // namespace

absl::StatusOr<std::vector<RuntimeValue>> MakeRandomInputs(const ir::Model& model,
                                                           const EquivalenceOptions& options) {
  std::mt19937_64 rng(options.seed);
  const std::vector<ir::Value*>& graph_inputs = model.graph().inputs();
  // Up to the last input without an initializer: the ones after it keep their initializers.
  size_t needed = 0;
  for (size_t i = 0; i < graph_inputs.size(); ++i) {
    if (!graph_inputs[i]->is_initializer()) needed = i + 1;
  }
  std::vector<RuntimeValue> inputs;
  for (size_t i = 0; i < needed; ++i) {
    const ir::Value* input = graph_inputs[i];
    if (input->is_initializer()) {
      inputs.emplace_back();
      continue;
    }
    ASSIGN_OR_RETURN(RuntimeValue v, RandomValue(*input, input->type(), options, rng));
    inputs.push_back(std::move(v));
  }
  return inputs;
}

absl::StatusOr<References> MakeReferences(const ir::Model& original,
                                          const EquivalenceOptions& options) {
  References refs = Named(original);
  const FreeDims free = FindFreeDims(original, options);
  if (options.default_dim.has_value() || free.empty()) {
    // The user's sizes (or none to choose): used as they are, declared shapes or not.
    Attempt given = RunAt(original, options, AllAt(free, options.default_dim.value_or(1)), free);
    if (!given.ref.ok()) return DoesNotRun(given.ref.status());
    refs.runs.push_back(*std::move(given.ref));
    return refs;
  }
  // Every free dim at 2; a model that refuses that (a dim it needs at 1) runs at 1, with a note.
  Attempt first = RunAt(original, options, AllAt(free, 2), free);
  if (!first.fits()) {
    Attempt at_one = RunAt(original, options, AllAt(free, 1), free);
    if (at_one.fits()) {
      refs.notes.push_back(absl::StrCat("free dims run at 1 (", at_one.ref->sizes, "): at 2 ",
                                        first.why().message()));
      refs.runs.push_back(*std::move(at_one.ref));
      return refs;
    }
    if (!first.ref.ok()) {
      // At 2 it does not run; at 1 it runs against its own declarations, or not at all.
      return free.symbols.size() > 1 ? NoSizesFit(first.why(), free) : DoesNotRun(first.why());
    }
    // It runs at 2 against its declared output shapes, and no better at 1: the declarations are
    // likely stale; verified at 2, said.
    refs.notes.push_back(absl::StrCat("at ", first.ref->sizes, " ", first.declared.message(),
                                      " (the declared output shapes may be stale)"));
  }
  refs.runs.push_back(*std::move(first.ref));
  const bool cheap = WeightBytes(original) <= kCheapWeightBytes &&
                     InputElements(refs.runs[0].inputs) <= kCheapInputElements;
  if (!cheap) return refs;
  // Again at other sizes, the symbols alternating between 3 and 4 (so that two of them mixed up
  // show); a model that needs its symbols equal runs with all at 3.
  Sizes mixed = AllAt(free, 3);
  for (size_t k = 0; k < free.symbols.size(); ++k)
    mixed.symbols[free.symbols[k]] = 3 + static_cast<int64_t>(k % 2);
  Attempt second = RunAt(original, options, mixed, free);
  if (!second.fits() && free.symbols.size() > 1)
    second = RunAt(original, options, AllAt(free, 3), free);
  if (second.fits()) {
    refs.runs.push_back(*std::move(second.ref));
  } else {
    refs.notes.push_back(absl::StrCat("no second run at other sizes: with its free dims at 3, ",
                                      second.why().message()));
  }
  return refs;
}

absl::StatusOr<References> ReferenceOn(const ir::Model& original,
                                       std::vector<RuntimeValue> inputs) {
  References refs = Named(original);
  Reference ref;
  ref.inputs = std::move(inputs);
  absl::StatusOr<std::vector<RuntimeValue>> outputs = RunModel(original, ref.inputs);
  if (!outputs.ok()) return DoesNotRun(outputs.status());
  ref.outputs = *std::move(outputs);
  refs.runs.push_back(std::move(ref));
  return refs;
}

absl::StatusOr<std::vector<RuntimeValue>> RunModel(const ir::Model& model,
                                                   const std::vector<RuntimeValue>& inputs) {
  interpreter::Evaluator evaluator(model);
  return evaluator.Run(inputs);
}

absl::Status CheckOutputs(const ir::Model& model, const References& references,
                          const Tolerances& tolerances, std::vector<OutputDifference>* report) {
  // Outputs by name when the model names the original's outputs in another order.
  const std::vector<std::string> names = Names(model.graph().outputs());
  std::vector<size_t> order(names.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (names != references.output_names &&
      std::is_permutation(names.begin(), names.end(), references.output_names.begin(),
                          references.output_names.end())) {
    for (size_t i = 0; i < order.size(); ++i) {
      order[i] = std::find(names.begin(), names.end(), references.output_names[i]) - names.begin();
    }
  }
  std::vector<OutputDifference> merged;
  for (const Reference& ref : references.runs) {
    ASSIGN_OR_RETURN(std::vector<RuntimeValue> inputs, InputsFor(model, references, ref));
    absl::StatusOr<std::vector<RuntimeValue>> actual = RunModel(model, inputs);
    if (!actual.ok()) {
      return absl::Status(actual.status().code(),
                          absl::StrCat("the rewritten model does not run",
                                       ref.sizes.empty() ? "" : absl::StrCat(" at ", ref.sizes),
                                       ": ", actual.status().message()));
    }
    if (order.size() == actual->size()) {
      std::vector<RuntimeValue> ordered;
      for (size_t i : order) ordered.push_back(std::move((*actual)[i]));
      *actual = std::move(ordered);
    }
    const std::vector<std::string>& expected_names =
        references.output_names.empty() ? names : references.output_names;
    std::vector<OutputDifference> diffs =
        CompareOutputs(expected_names, ref.outputs, *actual, tolerances);
    for (OutputDifference& d : diffs) {
      if (!d.equal && !ref.sizes.empty() && references.runs.size() > 1) {
        d.detail = absl::StrCat("at ", ref.sizes, ": ", d.detail);
      }
    }
    if (merged.empty()) {
      merged = std::move(diffs);
      continue;
    }
    for (size_t i = 0; i < merged.size() && i < diffs.size(); ++i) {
      OutputDifference& m = merged[i];
      m.max_abs_error = std::max(m.max_abs_error, diffs[i].max_abs_error);
      m.max_rel_error = std::max(m.max_rel_error, diffs[i].max_rel_error);
      m.rel_l2_error = std::max(m.rel_l2_error, diffs[i].rel_l2_error);
      m.cosine = std::min(m.cosine, diffs[i].cosine);
      if (m.equal && !diffs[i].equal) {
        m.equal = false;
        m.detail = diffs[i].detail;
      }
    }
  }
  const absl::Status first = FirstDifference(merged);
  if (report != nullptr) *report = std::move(merged);
  return first;
}

absl::Status CheckEquivalent(const ir::Model& original, const ir::Model& rewritten,
                             const EquivalenceOptions& options,
                             std::vector<OutputDifference>* report) {
  ASSIGN_OR_RETURN(References refs, MakeReferences(original, options));
  return CheckOutputs(rewritten, refs, options.tolerances, report);
}

}  // namespace onnx_opt::equivalence
