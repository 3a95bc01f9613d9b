// fold-shapes: shape arithmetic over shapes that are only partly known. For small integer vectors
// computed from Shape(x) through Cast, Gather, Slice, Concat, Squeeze, Unsqueeze and Identity, it
// tracks what each element is: a known number, or "dim i of x" (symbolic). Then
//   - a vector whose elements are all known becomes an initializer, even when other dims of x are
//     symbolic (Shape(x)[1:] of an [N, 3, 224, 224] input is [3, 224, 224]);
//   - a Reshape whose target is assembled from its own input's shape gets a constant target: "dim p
//     of the input" at position p becomes 0 ("keep this dim", allowzero=0), and at most one element
//     that is still unknown becomes -1 (exporters write Concat(Shape(x)[0:1], [200]) for a symbolic
//     batch; onnxruntime folds it the same way).
// The Shape/Slice/... nodes that fed them die and dead-nodes removes them.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "ir/constant_value.h"
#include "ir/name_generator.h"
#include "optimizer/pass_registry.h"
#include "passes/rewrite/graph_pass.h"
#include "passes/rewrite/rewriter.h"
#include "schema/shape_fold.h"

namespace onnx_opt::passes {
namespace {

// One element of a tracked vector: a known number, or dim `axis` of `source`, or nothing known.
struct Element {
  std::optional<int64_t> value;
  const ir::Value* source = nullptr;
  int64_t axis = 0;
};

struct Facts {
  std::vector<Element> elements;
  bool scalar = false;
  ir::DataType type = ir::DataType::kInt64;

  bool all_known() const {
    for (const Element& e : elements) {
      if (!e.value.has_value()) return false;
    }
    return true;
  }
};

bool IsIndexType(ir::DataType t) { return t == ir::DataType::kInt64 || t == ir::DataType::kInt32; }

// The integers of a constant input, if it is one.
std::optional<std::vector<int64_t>> ConstantInts(const ir::Node& n, size_t i) {
  if (!n.has_input(i)) return std::nullopt;
  const ir::Tensor* t = ir::GetConstantTensor(n.input(i));
  if (t == nullptr) return std::nullopt;
  return ir::ConstantAsInts(*t);
}

class ShapeFacts {
 public:
  explicit ShapeFacts(int64_t opset) : opset_(opset) {}

  const std::optional<Facts>& Of(const ir::Value* v) {
    // Facts are about integer scalars and vectors: a value typed as anything else has none, and is
    // not worth a memo entry (on a large graph of float values, filling this map was most of the
    // pass's time: 10^6 nodes made it rehash its way through tens of MB of fresh memory).
    if (CannotHoldFacts(v->type())) return none_;
    auto it = memo_.find(v);
    if (it != memo_.end()) return it->second;
    std::optional<Facts> facts = Compute(v);
    return memo_.emplace(v, std::move(facts)).first->second;
  }

 private:
  static bool CannotHoldFacts(const ir::Type& type) {
    if (!type.is_tensor()) return false;  // unknown: trace it
    if (type.elem_type() != ir::DataType::kUndefined && !IsIndexType(type.elem_type())) return true;
    return type.shape().has_value() && type.shape()->rank() > 1;
  }

  std::optional<Facts> Compute(const ir::Value* v) {
    if (const ir::Tensor* t = ir::GetConstantTensor(v)) {
      if (!IsIndexType(t->data_type()) || t->dims().size() > 1) return std::nullopt;
      std::optional<std::vector<int64_t>> ints = ir::ConstantAsInts(*t);
      if (!ints.has_value()) return std::nullopt;
      Facts f{{}, t->dims().empty(), t->data_type()};
      for (int64_t x : *ints) f.elements.push_back({x, nullptr, 0});
      return f;
    }
    std::optional<Facts> traced = Trace(v);
    if (traced.has_value()) return traced;
    // Computed some other way (Mul of dims, say): if its type says how long it is, its elements are
    // unknown but it can still be part of a Reshape target (as the one -1).
    const ir::Type& type = v->type();
    if (!type.is_tensor() || !IsIndexType(type.elem_type()) || !type.shape().has_value() ||
        type.shape()->rank() > 1) {
      return std::nullopt;
    }
    Facts f{{}, type.shape()->rank() == 0, type.elem_type()};
    if (!f.scalar) {
      const ir::Dim& length = type.shape()->dims()[0];
      if (!length.is_known() || length.value() > 64) return std::nullopt;
      f.elements.resize(length.value());
    } else {
      f.elements.resize(1);
    }
    return f;
  }

  // Facts from the operator that computed `v`, when it is one that is followed.
  std::optional<Facts> Trace(const ir::Value* v) {
    const ir::Node* n = v->producer();
    if (n == nullptr || !n->is_onnx_domain() || v != n->output(0)) return std::nullopt;
    const std::string& op = n->op_type();
    if (op == "Shape") return FromShape(*n);
    if (!n->has_input(0)) return std::nullopt;
    const std::optional<Facts>& in = Of(n->input(0));
    if (!in.has_value()) return std::nullopt;
    if (op == "Identity") return in;
    if (op == "Cast") {
      const auto to = static_cast<ir::DataType>(n->GetInt("to", 0));
      if (!IsIndexType(to)) return std::nullopt;
      Facts f = *in;
      f.type = to;
      return f;
    }
    if (op == "Gather") return FromGather(*n, *in);
    if (op == "Slice") return FromSlice(*n, *in);
    if (op == "Concat") return FromConcat(*n);
    if (op == "Unsqueeze" || op == "Squeeze") {
      // Only the scalar <-> one-element vector steps that shape code uses.
      std::vector<int64_t> axes = opset_ >= 13
                                      ? ConstantInts(*n, 1).value_or(std::vector<int64_t>{-99})
                                      : n->GetInts("axes", {-99});
      if (op == "Squeeze" && opset_ >= 13 && !n->has_input(1)) axes = {0};
      if (op == "Squeeze" && opset_ < 13 && n->FindAttribute("axes") == nullptr) axes = {0};
      if (axes.size() != 1 || (axes[0] != 0 && axes[0] != -1)) return std::nullopt;
      const bool to_vector = op == "Unsqueeze";
      if (in->scalar != to_vector || (!to_vector && in->elements.size() != 1)) return std::nullopt;
      Facts f = *in;
      f.scalar = !to_vector;
      return f;
    }
    return std::nullopt;
  }

  std::optional<Facts> FromShape(const ir::Node& n) {
    if (!n.has_input(0)) return std::nullopt;
    const ir::Value* x = n.input(0);
    if (!x->type().is_tensor() || !x->type().shape().has_value()) return std::nullopt;
    const std::vector<ir::Dim>& dims = x->type().shape()->dims();
    const auto [start, end] = schema::ShapeOpRange(n, static_cast<int64_t>(dims.size()), opset_);
    Facts f;
    for (int64_t i = start; i < end; ++i) {
      if (dims[i].is_known()) {
        f.elements.push_back({dims[i].value(), nullptr, 0});
      } else {
        f.elements.push_back({std::nullopt, x, i});
      }
    }
    return f;
  }

  std::optional<Facts> FromGather(const ir::Node& n, const Facts& data) {
    const int64_t axis = n.GetInt("axis", 0);
    if (data.scalar || (axis != 0 && axis != -1)) return std::nullopt;
    const ir::Tensor* indices = n.has_input(1) ? ir::GetConstantTensor(n.input(1)) : nullptr;
    if (indices == nullptr || indices->dims().size() > 1) return std::nullopt;
    std::optional<std::vector<int64_t>> picks = ir::ConstantAsInts(*indices);
    if (!picks.has_value()) return std::nullopt;
    const int64_t size = static_cast<int64_t>(data.elements.size());
    Facts f{{}, indices->dims().empty(), data.type};
    for (int64_t i : *picks) {
      if (i < 0) i += size;
      if (i < 0 || i >= size) return std::nullopt;  // fails at run time: leave it to fail there
      f.elements.push_back(data.elements[i]);
    }
    return f;
  }

  std::optional<Facts> FromSlice(const ir::Node& n, const Facts& data) {
    if (data.scalar) return std::nullopt;
    std::optional<std::vector<int64_t>> starts, ends, axes, steps;
    if (opset_ >= 10) {
      starts = ConstantInts(n, 1);
      ends = ConstantInts(n, 2);
      axes = n.has_input(3) ? ConstantInts(n, 3) : std::vector<int64_t>{0};
      steps = n.has_input(4) ? ConstantInts(n, 4) : std::vector<int64_t>{1};
    } else {
      starts = n.GetInts("starts");
      ends = n.GetInts("ends");
      axes = n.FindAttribute("axes") != nullptr ? n.GetInts("axes") : std::vector<int64_t>{0};
      steps = std::vector<int64_t>{1};
    }
    if (!starts || !ends || !axes || !steps || starts->size() != 1 || ends->size() != 1 ||
        axes->size() != 1 || steps->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1) ||
        (*steps)[0] == 0) {
      return std::nullopt;
    }
    // Operators.md, Slice: negative bounds count from the back, then clamp to [0, n] for positive
    // steps and [-1, n-1] for negative ones.
    const int64_t size = static_cast<int64_t>(data.elements.size());
    const int64_t step = (*steps)[0];
    int64_t start = (*starts)[0], end = (*ends)[0];
    if (start < 0) start += size;
    if (end < 0) end += size;
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, size);
      end = std::clamp<int64_t>(end, 0, size);
    } else {
      start = std::clamp<int64_t>(start, -1, size - 1);
      end = std::clamp<int64_t>(end, -1, size - 1);
    }
    Facts f{{}, false, data.type};
    for (int64_t i = start; step > 0 ? i < end : i > end; i += step)
      f.elements.push_back(data.elements[i]);
    return f;
  }

  std::optional<Facts> FromConcat(const ir::Node& n) {
    const int64_t axis = n.GetInt("axis", 0);
    if (axis != 0 && axis != -1) return std::nullopt;
    Facts f;
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      if (!n.has_input(i)) return std::nullopt;
      const std::optional<Facts>& part = Of(n.input(i));
      if (!part.has_value() || part->scalar) return std::nullopt;
      if (i == 0) f.type = part->type;
      if (part->type != f.type) return std::nullopt;
      f.elements.insert(f.elements.end(), part->elements.begin(), part->elements.end());
    }
    return f;
  }

  int64_t opset_;
  absl::flat_hash_map<const ir::Value*, std::optional<Facts>> memo_;
  const std::optional<Facts> none_;
};

bool IsTrackedOp(const std::string& op) {
  return op == "Shape" || op == "Cast" || op == "Gather" || op == "Slice" || op == "Concat" ||
         op == "Squeeze" || op == "Unsqueeze" || op == "Identity";
}

ir::Tensor MakeIndexTensor(ir::DataType type, std::vector<int64_t> dims,
                           const std::vector<int64_t>& values) {
  if (type == ir::DataType::kInt32) {
    std::vector<int32_t> narrow(values.begin(), values.end());
    return ir::Tensor::FromVector<int32_t>(type, std::move(dims), narrow);
  }
  return ir::Tensor::FromVector<int64_t>(type, std::move(dims), values);
}

// The constant target for Reshape `n` of `data`, if its tracked target can be written as one.
std::optional<std::vector<int64_t>> ConstantReshapeTarget(const ir::Node& n, const Facts& target,
                                                          int64_t opset) {
  const bool allowzero = opset >= 14 && n.GetInt("allowzero", 0) != 0;
  const ir::Value* data = n.input(0);
  std::vector<int64_t> out;
  int inferred = 0;
  for (size_t p = 0; p < target.elements.size(); ++p) {
    const Element& e = target.elements[p];
    if (e.value.has_value()) {
      out.push_back(*e.value);
      inferred += *e.value == -1;
    } else if (!allowzero && e.source == data && e.axis == static_cast<int64_t>(p)) {
      out.push_back(0);  // the input's own dim at its own position
    } else {
      // Whatever it is at run time, the other elements fix it (a zero-size dim here, which the
      // original would read as "keep", is the one case where -1 is not the same).
      out.push_back(-1);
      ++inferred;
    }
  }
  if (inferred > 1) return std::nullopt;
  return out;
}

// Function bodies are left alone: their nodes follow the function's own opset imports.
class FoldShapes final : public rewrite::GraphPass {
 public:
  static constexpr char kName[] = "fold-shapes";
  FoldShapes() : GraphPass(kName, rewrite::GraphScope::kMainGraphTree) {}

  absl::StatusOr<int64_t> RunOnGraph(ir::Graph& g, rewrite::GraphRun& run) override {
    const int64_t opset = run.opset;
    ir::NameGenerator& names = run.names;
    ShapeFacts facts(opset);
    rewrite::Rewriter rw(g, opset, names, rewrite::TouchedNodes::kIgnore);
    int64_t folds = 0;
    for (ir::Node* n : g.nodes()) {
      if (!n->is_onnx_domain() || n->num_outputs() == 0) continue;
      ir::Value* out = n->output(0);
      if (IsTrackedOp(n->op_type()) && out->has_uses() && !out->is_graph_output()) {
        const std::optional<Facts>& f = facts.Of(out);
        if (f.has_value() && f->all_known()) {
          std::vector<int64_t> values;
          for (const Element& e : f->elements) values.push_back(*e.value);
          std::vector<int64_t> dims;
          if (!f->scalar) dims.push_back(static_cast<int64_t>(values.size()));
          ir::Tensor t = MakeIndexTensor(f->type, std::move(dims), values);
          t.set_name(names.Fresh(out->name() + "_folded"));
          rw.ReplaceAllUsesWith(out, g.AddInitializer(std::move(t)));
          ++folds;
        }
      }
      if (n->op_type() == "Reshape" && n->has_input(0) && n->has_input(1) &&
          ir::GetConstantTensor(n->input(1)) == nullptr) {
        const std::optional<Facts>& f = facts.Of(n->input(1));
        if (!f.has_value() || f->scalar) continue;
        std::optional<std::vector<int64_t>> target = ConstantReshapeTarget(*n, *f, opset);
        if (!target.has_value()) continue;
        ir::Tensor t =
            MakeIndexTensor(ir::DataType::kInt64, {static_cast<int64_t>(target->size())}, *target);
        t.set_name(names.Fresh(n->input(1)->name() + "_folded"));
        rw.ReplaceInput(*n, 1, g.AddInitializer(std::move(t)));
        ++folds;
      }
    }
    return folds;
  }
};

}  // namespace

REGISTER_PASS(FoldShapes, FoldShapes::kName,
              "fold shape arithmetic over partly known shapes; give Reshape a constant target "
              "built from its input's dims");

}  // namespace onnx_opt::passes
