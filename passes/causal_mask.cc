#include "passes/causal_mask.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ir/constant_value.h"
#include "ir/node.h"
#include "passes/rewrite/value_facts.h"

namespace onnx_opt::passes {
namespace {

using rewrite::AxesOf;
using rewrite::ProducerOf;
using rewrite::RankOf;
using rewrite::SameDim;
using rewrite::ScalarConstant;
using rewrite::ShapeOf;

// A bound on how far back a mask's computation is followed.
constexpr int kMaxDepth = 24;

bool IsOne(const ir::Dim& d) { return d.is_known() && d.value() == 1; }

// The integer a one-element constant holds.
std::optional<int64_t> IntConstant(const ir::Value* v) {
  const ir::Tensor* t = ir::GetConstantTensor(v);
  if (t == nullptr || t->num_elements() != 1) return std::nullopt;
  std::optional<std::vector<int64_t>> ints = ir::ConstantAsInts(*t);
  if (!ints.has_value() || ints->size() != 1) return std::nullopt;
  return (*ints)[0];
}

// The dims of `t` from Shape's start/end attributes (opset 15; all of them before).
std::optional<std::vector<ir::Dim>> ShapeOpDims(const ir::Node& shape) {
  const ir::Shape* s = ShapeOf(shape.input(0));
  if (s == nullptr) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(s->rank());
  auto clamp = [rank](int64_t i) { return std::clamp(i < 0 ? i + rank : i, int64_t{0}, rank); };
  const int64_t start = clamp(shape.GetInt("start", 0));
  const int64_t end = clamp(shape.GetInt("end", rank));
  std::vector<ir::Dim> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(s->dim(i));
  return dims;
}

// The dim a one-element integer value holds: a constant, or a dim of some value read by Shape
// (and Gather or Slice), through Squeeze, Unsqueeze, Cast, Reshape and Identity.
std::optional<ir::Dim> DimOfScalar(const ir::Value* v, const ir::Graph& graph, int depth = 0) {
  if (depth > kMaxDepth || v == nullptr) return std::nullopt;
  if (std::optional<int64_t> c = IntConstant(v)) return ir::Dim::Known(*c);
  const ir::Node* n = v->producer();
  if (n == nullptr || n->graph() != &graph || !n->is_onnx_domain() || n->num_inputs() < 1 ||
      !n->has_input(0)) {
    return std::nullopt;
  }
  const std::string& op = n->op_type();
  if (op == "Squeeze" || op == "Unsqueeze" || op == "Cast" || op == "Reshape" || op == "Identity") {
    return DimOfScalar(n->input(0), graph, depth + 1);
  }
  if (op == "Shape") {
    std::optional<std::vector<ir::Dim>> dims = ShapeOpDims(*n);
    if (!dims || dims->size() != 1) return std::nullopt;
    return (*dims)[0];
  }
  const ir::Node* shape = ProducerOf(n->input(0), "Shape", &graph);
  if (shape == nullptr) return std::nullopt;
  std::optional<std::vector<ir::Dim>> dims = ShapeOpDims(*shape);
  if (!dims) return std::nullopt;
  const int64_t size = static_cast<int64_t>(dims->size());
  int64_t index = 0;
  if (op == "Gather" && n->num_inputs() == 2 && n->GetInt("axis", 0) == 0) {
    std::optional<int64_t> i = IntConstant(n->input(1));
    if (!i) return std::nullopt;
    index = *i;
  } else if (op == "Slice" && n->num_inputs() >= 3) {
    std::optional<int64_t> start = IntConstant(n->input(1)), end = IntConstant(n->input(2));
    if (!start || !end) return std::nullopt;
    if (n->num_inputs() > 3 && n->has_input(3) && IntConstant(n->input(3)).value_or(1) != 0)
      return std::nullopt;
    if (n->num_inputs() > 4 && n->has_input(4) && IntConstant(n->input(4)).value_or(0) != 1)
      return std::nullopt;
    const int64_t lo = *start < 0 ? *start + size : *start;
    const int64_t hi = *end < 0 ? *end + size : std::min(*end, size);
    if (hi != lo + 1) return std::nullopt;
    index = lo;
  } else {
    return std::nullopt;
  }
  if (index < 0) index += size;
  if (index < 0 || index >= size) return std::nullopt;
  return (*dims)[index];
}

// The dims a 1-D integer value (a shape operand) holds: a constant (-1 and 0 read as unknown), a
// Shape, or a Concat of such parts and of one-element dims (unknown when not read off a shape).
std::optional<std::vector<ir::Dim>> DimsOfShape(const ir::Value* v, const ir::Graph& graph,
                                                int depth = 0) {
  if (depth > kMaxDepth || v == nullptr) return std::nullopt;
  if (const ir::Tensor* t = ir::GetConstantTensor(v); t != nullptr) {
    std::optional<std::vector<int64_t>> ints = ir::ConstantAsInts(*t);
    if (!ints || t->dims().size() != 1) return std::nullopt;
    std::vector<ir::Dim> dims;
    for (int64_t i : *ints) dims.push_back(i > 0 ? ir::Dim::Known(i) : ir::Dim::Unknown());
    return dims;
  }
  const ir::Node* n = v->producer();
  if (n == nullptr || n->graph() != &graph || !n->is_onnx_domain()) return std::nullopt;
  if (n->op_type() == "Shape") return ShapeOpDims(*n);
  if (n->op_type() == "Concat" && n->GetInt("axis", 0) == 0) {
    std::vector<ir::Dim> dims;
    for (const ir::Value* part : n->inputs()) {
      if (part == nullptr) return std::nullopt;
      std::optional<std::vector<ir::Dim>> more = DimsOfShape(part, graph, depth + 1);
      if (!more) {
        // A part of one element is one dim, unknown when it is not read off a shape.
        if (RankOf(part) != 1 || !IsOne(ShapeOf(part)->dim(0))) return std::nullopt;
        more = std::vector<ir::Dim>{DimOfScalar(part, graph, depth + 1).value_or(ir::Dim())};
      }
      dims.insert(dims.end(), more->begin(), more->end());
    }
    return dims;
  }
  return std::nullopt;
}

// What a value is over the mask's grid of query rows r and key columns c (the last two axes).
struct Form {
  enum class Kind {
    kNone,
    kIndex,  // 1-D: position + offset (broadcasts as columns)
    kRow,    // [n, 1]: r + offset
    kCol,    // [1, n]: c + offset
    kFill,   // every element `fill`, last two dims rows x cols
    kBool,   // (c - r > t) when `above`, else (c - r <= t); as 0/1 numbers when `numeric`
    kFloat,  // `low` where c - r > t, else 0
    kLower,  // `fill` where c - r <= t, else 0 (a lower triangle of a filled grid)
  };
  Kind kind = Kind::kNone;
  int64_t offset = 0;
  ir::Dim len;
  double fill = 0;
  bool above = true;
  bool numeric = false;
  int64_t t = 0;
  double low = 0;
  ir::Dim rows, cols;

  bool is_index() const { return kind == Kind::kIndex || kind == Kind::kRow || kind == Kind::kCol; }
  bool is_grid() const {
    return kind == Kind::kFill || kind == Kind::kBool || kind == Kind::kFloat ||
           kind == Kind::kLower;
  }
};

Form None() { return Form(); }

class Analyzer {
 public:
  Analyzer(const ir::Graph& graph, int64_t opset) : graph_(graph), opset_(opset) {}

  Form Of(const ir::Value* v, int depth = 0) {
    if (depth > kMaxDepth || v == nullptr) return None();
    if (const ir::Tensor* t = ir::GetConstantTensor(v); t != nullptr) return OfConstant(*t);
    const ir::Node* n = v->producer();
    if (n == nullptr || n->graph() != &graph_ || !n->is_onnx_domain() || n->num_outputs() != 1 ||
        n->num_inputs() < 1 || !n->has_input(0)) {
      return None();
    }
    const std::string& op = n->op_type();
    const ir::Value* in = n->input(0);
    if (op == "Identity") return Of(in, depth + 1);
    if (op == "Range") return OfRange(*n);
    if ((op == "Add" || op == "Sub") && n->num_inputs() == 2) return OfShift(*n, depth);
    if (op == "Cast") {
      return OfCast(n->input(0), static_cast<ir::DataType>(n->GetInt("to", 0)), depth);
    }
    if (op == "CastLike" && n->num_inputs() == 2 && n->input(1)->type().is_tensor()) {
      return OfCast(n->input(0), n->input(1)->type().elem_type(), depth);
    }
    if (op == "Unsqueeze") return OfUnsqueeze(*n, depth);
    if (op == "Reshape" && n->num_inputs() == 2) return OfReshape(*n, depth);
    if (op == "Expand" && n->num_inputs() == 2) return OfExpand(*n, depth);
    if (op == "Slice" && n->num_inputs() >= 3) return OfSlice(*n, depth);
    if (op == "Equal" && n->num_inputs() == 2) return OfEqual(*n, depth);
    if ((op == "Less" || op == "LessOrEqual" || op == "Greater" || op == "GreaterOrEqual") &&
        n->num_inputs() == 2) {
      return OfComparison(*n, depth);
    }
    if (op == "Not") {
      Form f = Of(in, depth + 1);
      if (f.kind != Form::Kind::kBool || f.numeric) return None();
      f.above = !f.above;
      return f;
    }
    if (op == "Where" && n->num_inputs() == 3) return OfWhere(*n, depth);
    if (op == "ConstantOfShape") return OfConstantOfShape(*n);
    if (op == "Trilu") return OfTrilu(*n, depth);
    if (op == "Mul" && n->num_inputs() == 2) return OfMul(*n, depth);
    return None();
  }

 private:
  // A constant grid: kFill when all of it is one value; kLower when it is one value v != 0 in the
  // lower triangle (c <= r) and 0 above (a boolean one: kBool, true there; GPT-2's `bias` buffer);
  // kFloat when it is the causal mask; each over its last two (known) dims in every leading slice.
  Form OfConstant(const ir::Tensor& t) {
    const std::vector<int64_t>& dims = t.dims();
    std::optional<std::vector<double>> values;
    const bool boolean = t.data_type() == ir::DataType::kBool;
    if (boolean) {
      const std::optional<uint64_t> n = t.num_elements();
      if (!n || t.raw_size() != *n) return None();
      values.emplace();
      for (uint64_t i = 0; i < *n; ++i) values->push_back(t.at<uint8_t>(i) != 0 ? 1 : 0);
    } else {
      values = ir::ConstantAsDoubles(t);
    }
    if (!values || values->empty()) return None();
    Form f;
    f.rows = ir::Dim::Known(dims.size() >= 2 ? dims[dims.size() - 2] : 1);
    f.cols = ir::Dim::Known(dims.empty() ? 1 : dims.back());
    if (std::all_of(values->begin(), values->end(), [&](double x) { return x == (*values)[0]; })) {
      f.kind = Form::Kind::kFill;
      f.fill = (*values)[0];
      return f;
    }
    if (dims.size() < 2) return None();
    const int64_t rows = f.rows.value(), cols = f.cols.value();
    const double v = (*values)[0];  // element (0, 0): in the triangle
    bool lower = v != 0, causal = v == 0;
    double low = -INFINITY;
    for (size_t k = 0; k < values->size() && (lower || causal); ++k) {
      const int64_t c = static_cast<int64_t>(k) % cols;
      const int64_t r = (static_cast<int64_t>(k) / cols) % rows;
      const double x = (*values)[k];
      lower = lower && (c > r ? x == 0 : x == v);
      causal = causal && (c > r ? x <= kCausalMaskLowest : x == 0);
      if (c > r) low = std::max(low, x);
    }
    f.t = 0;
    if (lower) {
      f.kind = boolean ? Form::Kind::kBool : Form::Kind::kLower;
      f.above = false;
      f.fill = v;
      return f;
    }
    if (!causal || boolean) return None();
    f.kind = Form::Kind::kFloat;
    f.low = low;
    return f;
  }

  // Range(0, n, 1): positions 0..n-1.
  Form OfRange(const ir::Node& n) {
    if (n.num_inputs() != 3 || !n.has_input(1) || !n.has_input(2) ||
        ScalarConstant(n.input(0)) != 0.0 || ScalarConstant(n.input(2)) != 1.0) {
      return None();
    }
    std::optional<ir::Dim> len = DimOfScalar(n.input(1), graph_);
    if (!len) return None();
    Form f;
    f.kind = Form::Kind::kIndex;
    f.len = *len;
    return f;
  }

  // An index plus or minus an integer constant.
  Form OfShift(const ir::Node& n, int depth) {
    const bool sub = n.op_type() == "Sub";
    for (size_t i : {0, 1}) {
      if (sub && i == 1) break;  // only index - k
      std::optional<double> k = ScalarConstant(n.input(1 - i));
      if (!k || *k != std::floor(*k) || std::abs(*k) > 1e9) continue;
      Form f = Of(n.input(i), depth + 1);
      if (!f.is_index()) return None();
      f.offset += static_cast<int64_t>(sub ? -*k : *k);
      return f;
    }
    return None();
  }

  // Cast (or CastLike) of `in` to `to`.
  Form OfCast(const ir::Value* in, ir::DataType to, int depth) {
    Form f = Of(in, depth + 1);
    const bool half = to == ir::DataType::kFloat16 || to == ir::DataType::kBfloat16;
    const bool to_float = half || to == ir::DataType::kFloat || to == ir::DataType::kDouble;
    // Positions stay exact in integers, float and double (float16 rounds them past 2048).
    if (f.is_index()) {
      const bool exact = to == ir::DataType::kFloat || to == ir::DataType::kDouble ||
                         to == ir::DataType::kInt64 || to == ir::DataType::kInt32;
      return exact ? f : None();
    }
    if (f.kind == Form::Kind::kLower && to == ir::DataType::kBool) {
      f.kind = Form::Kind::kBool;  // fill is not 0: true in the triangle
      return f;
    }
    if (f.kind == Form::Kind::kLower && to_float) return f;
    if (f.kind == Form::Kind::kBool && to_float) {
      f.numeric = true;
      return f;
    }
    if ((f.kind == Form::Kind::kFloat || f.kind == Form::Kind::kFill) && to_float) {
      // float32's lowest becomes -inf in float16 (still masked; what a Mul by 0 then makes of it
      // is NaN, which OfMul keeps away from).
      if (to == ir::DataType::kFloat16) {
        if (f.low < -65504.0) f.low = -INFINITY;
        if (f.fill < -65504.0) f.fill = -INFINITY;
      }
      return f;
    }
    return None();
  }

  Form OfUnsqueeze(const ir::Node& n, int depth) {
    std::optional<std::vector<int64_t>> axes = AxesOf(n, opset_);
    std::optional<int64_t> in_rank = RankOf(n.input(0));
    if (!axes || !in_rank) return None();
    Form f = Of(n.input(0), depth + 1);
    const int64_t out_rank = *in_rank + static_cast<int64_t>(axes->size());
    std::vector<int64_t> normalized;
    for (int64_t a : *axes) normalized.push_back(a < 0 ? a + out_rank : a);
    if (f.kind == Form::Kind::kIndex && *in_rank == 1 && normalized.size() == 1) {
      f.kind = normalized[0] == 0 ? Form::Kind::kCol : Form::Kind::kRow;
      return f;
    }
    if (!f.is_grid() && f.kind != Form::Kind::kRow && f.kind != Form::Kind::kCol) return None();
    if (*in_rank < 2 && f.is_grid()) return None();
    // Leading axes only: the grid's last two stay last.
    for (int64_t a : normalized) {
      if (a < 0 || a >= out_rank - 2) return None();
    }
    return f;
  }

  Form OfReshape(const ir::Node& n, int depth) {
    Form f = Of(n.input(0), depth + 1);
    if (f.kind != Form::Kind::kIndex || RankOf(n.input(0)) != 1) return None();
    std::optional<std::vector<ir::Dim>> dims = DimsOfShape(n.input(1), graph_);
    if (!dims || dims->size() != 2) return None();
    if (IsOne((*dims)[1])) {
      f.kind = Form::Kind::kRow;
    } else if (IsOne((*dims)[0])) {
      f.kind = Form::Kind::kCol;
    } else {
      return None();
    }
    return f;
  }

  // A comparison of a column index c + oc with a row index r + or, as a condition on c - r.
  Form OfComparison(const ir::Node& n, int depth) {
    Form a = Of(n.input(0), depth + 1);
    Form b = Of(n.input(1), depth + 1);
    if (a.kind == Form::Kind::kIndex) a.kind = Form::Kind::kCol;
    if (b.kind == Form::Kind::kIndex) b.kind = Form::Kind::kCol;
    std::string op = n.op_type();
    if (a.kind == Form::Kind::kRow && b.kind == Form::Kind::kCol) {
      // Swap the operands: r < c is c > r, and so on.
      std::swap(a, b);
      op = op == "Less"          ? "Greater"
           : op == "Greater"     ? "Less"
           : op == "LessOrEqual" ? "GreaterOrEqual"
                                 : "LessOrEqual";
    }
    if (a.kind != Form::Kind::kCol || b.kind != Form::Kind::kRow) return None();
    // c + oc OP r + or  <=>  c - r OP d
    const int64_t d = b.offset - a.offset;
    Form f;
    f.kind = Form::Kind::kBool;
    f.rows = b.len;
    f.cols = a.len;
    if (op == "Greater") {
      f.above = true, f.t = d;
    } else if (op == "GreaterOrEqual") {
      f.above = true, f.t = d - 1;
    } else if (op == "LessOrEqual") {
      f.above = false, f.t = d;
    } else {  // Less
      f.above = false, f.t = d - 1;
    }
    return f;
  }

  // A scalar constant or a filled grid no larger than `grid` over the last two axes.
  std::optional<double> FillFitting(const ir::Value* v, const Form& grid, int depth) {
    Form f = Of(v, depth + 1);
    if (f.kind != Form::Kind::kFill) return std::nullopt;
    if (RankOf(v).value_or(0) > 2) return std::nullopt;
    if (!(SameDim(f.rows, grid.rows) || IsOne(f.rows)) ||
        !(SameDim(f.cols, grid.cols) || IsOne(f.cols))) {
      return std::nullopt;
    }
    return f.fill;
  }

  // Where(condition, x, y): the masked value where the condition masks, 0 elsewhere.
  Form OfWhere(const ir::Node& n, int depth) {
    Form cond = Of(n.input(0), depth + 1);
    if (cond.kind != Form::Kind::kBool || cond.numeric || !n.has_input(1) || !n.has_input(2))
      return None();
    std::optional<double> x = FillFitting(n.input(1), cond, depth);
    std::optional<double> y = FillFitting(n.input(2), cond, depth);
    if (!x || !y) return None();
    // Where the condition holds: c - r > t (above), or c - r <= t.
    const double masked = cond.above ? *x : *y;
    const double kept = cond.above ? *y : *x;
    if (kept != 0 || !(masked <= kCausalMaskLowest)) return None();
    Form f = cond;
    f.kind = Form::Kind::kFloat;
    f.above = true;
    f.low = masked;
    return f;
  }

  // Expand keeps a grid (it only broadcasts: a dim that is not 1 stays), and gives a filled one
  // (a scalar, as torch's causal mask starts from) the target's last two dims where it had 1s.
  Form OfExpand(const ir::Node& n, int depth) {
    Form f = Of(n.input(0), depth + 1);
    if (!f.is_grid()) return None();
    if (f.kind != Form::Kind::kFill) return f;
    std::optional<std::vector<ir::Dim>> dims = DimsOfShape(n.input(1), graph_);
    if (!dims || dims->size() < 2) return None();
    for (auto [mine, target] :
         {std::pair{&f.rows, (*dims)[dims->size() - 2]}, {&f.cols, dims->back()}}) {
      if (IsOne(*mine)) {
        *mine = target;
      } else if (!IsOne(target) && !SameDim(*mine, target)) {
        *mine = ir::Dim();  // broadcast at run time from what inference cannot tell
      }
    }
    return f;
  }

  // Whether one-element `v` is surely 0: a constant, or a - b of two equal dims (GPT-2 slices its
  // mask buffer from key_length - query_length).
  bool SurelyZero(const ir::Value* v, int depth = 0) {
    if (depth > kMaxDepth || v == nullptr) return false;
    if (std::optional<int64_t> c = IntConstant(v)) return *c == 0;
    const ir::Node* n = v->producer();
    if (n == nullptr || n->graph() != &graph_ || !n->is_onnx_domain() || !n->has_input(0))
      return false;
    if (n->op_type() == "Unsqueeze" || n->op_type() == "Squeeze" || n->op_type() == "Cast" ||
        n->op_type() == "Identity") {
      return SurelyZero(n->input(0), depth + 1);
    }
    if (n->op_type() != "Sub" || n->num_inputs() != 2) return false;
    std::optional<ir::Dim> a = DimOfScalar(n->input(0), graph_);
    std::optional<ir::Dim> b = DimOfScalar(n->input(1), graph_);
    return a && b && SameDim(*a, *b);
  }

  // A Slice of one axis, step 1. Of the grid's rows or columns from 0: to an end that is the
  // axis' own length or past it (transformers' attention_mask[:, :, :, :key_len]) the grid stays;
  // a grid of known length (a mask buffer) cut to the length a dim says has that many (GPT-2's
  // bias[:, :, k - q : k, :k]): its pattern starts at (0, 0) and depends on c - r only. Leading
  // axes may be sliced at will.
  Form OfSlice(const ir::Node& n, int depth) {
    Form f = Of(n.input(0), depth + 1);
    std::optional<int64_t> rank = RankOf(n.input(0));
    if (!f.is_grid() || !rank || *rank < 2 || n.num_inputs() < 4 || !n.has_input(3)) return None();
    std::optional<int64_t> axis = IntConstant(n.input(3));
    if (!axis) return None();
    if (*axis < 0) *axis += *rank;
    if (n.num_inputs() > 4 && n.has_input(4) && IntConstant(n.input(4)) != 1) return None();
    if (*axis < *rank - 2) return *axis >= 0 ? f : None();
    if (*axis >= *rank || !SurelyZero(n.input(1))) return None();
    ir::Dim& length = *axis == *rank - 1 ? f.cols : f.rows;
    std::optional<int64_t> end = IntConstant(n.input(2));
    if (end && *end >= (int64_t{1} << 62)) return f;  // to the end
    std::optional<ir::Dim> len = DimOfScalar(n.input(2), graph_);
    if (!len) return None();
    if (SameDim(*len, length)) return f;
    // Cut from a longer axis to the dim; were it shorter (and not 1, which would broadcast), the
    // original could not add it to the scores.
    if (!length.is_known() || length.value() == 1 ||
        (len->is_known() && len->value() > length.value())) {
      return None();
    }
    length = *len;
    return f;
  }

  // Equal(lower triangle of v != 0, 0): true above it; Equal(it, v): true in it.
  Form OfEqual(const ir::Node& n, int depth) {
    for (size_t i : {0, 1}) {
      std::optional<double> k = ScalarConstant(n.input(1 - i));
      if (!k) continue;
      Form f = Of(n.input(i), depth + 1);
      if (f.kind != Form::Kind::kLower || f.fill == 0 || (*k != 0 && *k != f.fill)) return None();
      f.kind = Form::Kind::kBool;
      f.above = *k == 0;
      return f;
    }
    return None();
  }

  Form OfConstantOfShape(const ir::Node& n) {
    const ir::Attribute* value = n.FindAttribute("value");
    double fill = 0;  // the default: float 0
    if (value != nullptr) {
      if (value->is_reference() || value->kind() != ir::AttributeKind::kTensor) return None();
      const ir::Tensor& t = *value->t;
      if (t.data_type() == ir::DataType::kBool) {
        if (t.num_elements() != 1 || t.raw_size() != 1) return None();
        fill = t.at<uint8_t>(0) != 0 ? 1 : 0;
      } else {
        std::optional<std::vector<double>> v = ir::ConstantAsDoubles(t);
        if (!v || v->size() != 1) return None();
        fill = (*v)[0];
      }
    }
    std::optional<std::vector<ir::Dim>> dims = DimsOfShape(n.input(0), graph_);
    if (!dims || dims->size() != 2) return None();
    Form f;
    f.kind = Form::Kind::kFill;
    f.fill = fill;
    f.rows = (*dims)[dims->size() - 2];
    f.cols = dims->back();
    return f;
  }

  // Trilu(low everywhere, upper = 1, k) keeps low where c - r >= k, 0 elsewhere; Trilu(v
  // everywhere, upper = 0, k) keeps v where c - r <= k (a boolean one is the condition itself).
  Form OfTrilu(const ir::Node& n, int depth) {
    int64_t k = 0;
    if (n.num_inputs() > 1 && n.has_input(1)) {
      std::optional<int64_t> kk = IntConstant(n.input(1));
      if (!kk) return None();
      k = *kk;
    }
    Form f = Of(n.input(0), depth + 1);
    if (f.kind != Form::Kind::kFill) return None();
    if (n.GetInt("upper", 1) == 0) {
      if (f.fill == 0) return None();
      const ir::Value* out = n.output(0);
      const bool boolean =
          out->type().is_tensor() && out->type().elem_type() == ir::DataType::kBool;
      f.kind = boolean ? Form::Kind::kBool : Form::Kind::kLower;
      f.above = false;
      f.t = k;
      return f;
    }
    if (!(f.fill <= kCausalMaskLowest)) return None();
    f.kind = Form::Kind::kFloat;
    f.low = f.fill;
    f.t = k - 1;
    return f;
  }

  // A float grid times Cast(c - r > t2): low where both mask.
  Form OfMul(const ir::Node& n, int depth) {
    Form a = Of(n.input(0), depth + 1);
    Form b = Of(n.input(1), depth + 1);
    if (b.kind == Form::Kind::kFloat) std::swap(a, b);
    if (a.kind != Form::Kind::kFloat || b.kind != Form::Kind::kBool || !b.numeric || !b.above)
      return None();
    if (!SameDim(a.rows, b.rows) || !SameDim(a.cols, b.cols)) return None();
    // Where b is 0 and a low (t < c - r <= b.t), an infinite low times 0 would be NaN.
    if (!std::isfinite(a.low) && b.t > a.t) return None();
    a.t = std::max(a.t, b.t);
    return a;
  }

  const ir::Graph& graph_;
  const int64_t opset_;
};

}  // namespace

std::optional<std::vector<ir::Dim>> DimsReadByShape(const ir::Node& shape) {
  return ShapeOpDims(shape);
}

std::optional<ir::Shape> MaskShape(const ir::Value* mask, const ir::Graph& graph) {
  const ir::Shape* inferred = ShapeOf(mask);
  const ir::Node* expand = ProducerOf(mask, "Expand", &graph);
  std::optional<std::vector<ir::Dim>> target =
      expand != nullptr && expand->num_inputs() == 2 && expand->has_input(1)
          ? DimsOfShape(expand->input(1), graph)
          : std::nullopt;
  if (!target || (inferred != nullptr && inferred->rank() != target->size())) {
    if (inferred == nullptr) return std::nullopt;
    return *inferred;
  }
  // The output has the target's rank when the input's is not larger.
  const std::optional<int64_t> in_rank = RankOf(expand->input(0));
  if (!in_rank || *in_rank > static_cast<int64_t>(target->size())) {
    if (inferred == nullptr) return std::nullopt;
    return *inferred;
  }
  std::vector<ir::Dim> dims;
  for (size_t i = 0; i < target->size(); ++i) {
    const ir::Dim& t = (*target)[i];
    const bool from_target = (t.is_known() && t.value() > 1) || t.is_symbolic();
    if (inferred != nullptr &&
        (inferred->dim(i).is_known() || inferred->dim(i).is_symbolic() || !from_target)) {
      dims.push_back(inferred->dim(i));
    } else {
      dims.push_back(from_target ? t : ir::Dim::Unknown());
    }
  }
  return ir::Shape(dims);
}

bool IsCausalCondition(const ir::Value* condition, bool keep, const ir::Dim& queries,
                       const ir::Dim& keys, const ir::Graph& graph, int64_t opset) {
  Form f = Analyzer(graph, opset).Of(condition);
  return f.kind == Form::Kind::kBool && !f.numeric && f.above != keep && f.t == 0 &&
         SameDim(f.rows, queries) && SameDim(f.cols, keys);
}

bool IsCausalMask(const ir::Value* mask, const ir::Dim& queries, const ir::Dim& keys,
                  const ir::Graph& graph, int64_t opset) {
  Form f = Analyzer(graph, opset).Of(mask);
  return f.kind == Form::Kind::kFloat && f.t == 0 && SameDim(f.rows, queries) &&
         SameDim(f.cols, keys);
}

}  // namespace onnx_opt::passes
