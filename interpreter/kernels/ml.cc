// ai.onnx.ml operators (Binarizer, ArrayFeatureExtractor, LabelEncoder) and TfIdfVectorizer.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "interpreter/kernels/common.h"

namespace onnx_opt::interpreter {
namespace {

using absl::OkStatus;
using absl::Status;
using absl::StatusOr;

Status BinarizerKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  const double th = ctx.GetFloat("threshold", 0.0f);
  for (int64_t i = 0; i < x.size(); ++i)
    x.mutable_data<double>()[i] = x.data<double>()[i] > th ? 1 : 0;
  ASSIGN_OR_RETURN(x, CastTensor(x, x0->dtype()));
  ctx.set_output(0, std::move(x));
  return OkStatus();
}

Status ArrayFeatureExtractorKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(std::vector<int64_t> idx, ctx.IntsInput(1));
  // Indices select along the last axis, which a scalar does not have.
  if (x->rank() < 1) return ctx.Error("X must have rank >= 1");
  const int64_t last = x->dim(x->rank() - 1), outer = x->size() / std::max<int64_t>(last, 1);
  std::vector<int64_t> dims = x->dims();
  dims.back() = idx.size();
  Tensor y(x->dtype(), dims);
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t k = 0; k < idx.size(); ++k) {
      if (idx[k] < 0 || idx[k] >= last) return ctx.Error("index out of range");
      CopyElements(*x, o * last + idx[k], y, o * idx.size() + k, 1);
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// Keys and values as a tensor from the *_int64s / *_floats / *_strings / *_tensor attributes.
StatusOr<Tensor> AttrTensor(const KernelContext& ctx, const std::string& prefix) {
  if (const ir::Attribute* a = ctx.attr(prefix + "_tensor")) return Tensor::FromIr(a->t);
  if (const ir::Attribute* a = ctx.attr(prefix + "_int64s")) {
    return Tensor::FromVector<int64_t>(DataType::kInt64, {static_cast<int64_t>(a->ints.size())},
                                       a->ints);
  }
  if (const ir::Attribute* a = ctx.attr(prefix + "_floats")) {
    return Tensor::FromVector<float>(DataType::kFloat, {static_cast<int64_t>(a->floats.size())},
                                     a->floats);
  }
  if (const ir::Attribute* a = ctx.attr(prefix + "_strings")) {
    return Tensor::FromVector<std::string>(DataType::kString,
                                           {static_cast<int64_t>(a->strings.size())}, a->strings);
  }
  return ctx.Error(absl::StrCat("missing ", prefix, " attribute"));
}

std::string KeyOf(const Tensor& t, int64_t i) {
  if (t.is_string()) return "s" + t.data<std::string>()[i];
  auto d = CastTensor(t.Reshaped({t.size()}), DataType::kDouble);
  return "n" + std::to_string(d->data<double>()[i]);
}

Status LabelEncoderKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  Tensor keys, values;
  if (const ir::Attribute* classes = ctx.attr("classes_strings"); classes != nullptr) {
    // LabelEncoder-1: strings map to their index among the classes, integers to the class.
    const int64_t n = static_cast<int64_t>(classes->strings.size());
    std::vector<int64_t> positions(n);
    for (int64_t i = 0; i < n; ++i) positions[i] = i;
    Tensor names = Tensor::FromVector<std::string>(DataType::kString, {n}, classes->strings);
    Tensor indices = Tensor::FromVector<int64_t>(DataType::kInt64, {n}, positions);
    keys = x->is_string() ? names : indices;
    values = x->is_string() ? indices : names;
  } else {
    ASSIGN_OR_RETURN(keys, AttrTensor(ctx, "keys"));
    ASSIGN_OR_RETURN(values, AttrTensor(ctx, "values"));
  }
  if (keys.size() != values.size()) return ctx.Error("keys and values differ in length");
  Tensor def;
  if (const ir::Attribute* a = ctx.attr("default_tensor")) {
    ASSIGN_OR_RETURN(def, Tensor::FromIr(a->t));
  } else if (values.is_string()) {
    def =
        Tensor::Scalar<std::string>(DataType::kString, ctx.GetString("default_string", "_Unused"));
  } else if (values.dtype() == DataType::kInt64) {
    def = Tensor::Scalar<int64_t>(DataType::kInt64, ctx.GetInt("default_int64", -1));
  } else {
    ASSIGN_OR_RETURN(def, CastTensor(Tensor::Scalar<float>(DataType::kFloat,
                                                           ctx.GetFloat("default_float", -0.0f)),
                                     values.dtype()));
  }
  // The default is copied as one element of the values' type: an empty one was read past its end,
  // one of a wider type written past the output's.
  if (def.size() != 1 || def.dtype() != values.dtype()) {
    return ctx.Error(absl::StrCat("default_tensor must hold one element of the values' type, got ",
                                  def.ShapeString()));
  }
  std::map<std::string, int64_t> index;
  Tensor kd = keys;
  if (!keys.is_string()) {
    ASSIGN_OR_RETURN(kd, CastTensor(keys, DataType::kDouble));
  }
  for (int64_t i = 0; i < keys.size(); ++i) index.emplace(KeyOf(kd, i), i);
  Tensor xd = *x;
  if (!x->is_string()) {
    ASSIGN_OR_RETURN(xd, CastTensor(*x, DataType::kDouble));
  }
  Tensor y(values.dtype(), x->dims());
  for (int64_t i = 0; i < x->size(); ++i) {
    auto it = index.find(KeyOf(xd, i));
    if (it == index.end())
      CopyElements(def, 0, y, i, 1);
    else
      CopyElements(values, it->second, y, i, 1);
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// A double per element of a tensor attribute (empty when absent).
StatusOr<std::vector<double>> TensorAttrDoubles(const KernelContext& ctx, const std::string& name) {
  const ir::Attribute* a = ctx.attr(name);
  if (a == nullptr) return std::vector<double>{};
  ASSIGN_OR_RETURN(Tensor t, Tensor::FromIr(a->t));
  ASSIGN_OR_RETURN(Tensor d, CastTensor(t, DataType::kDouble));
  return std::vector<double>(d.data<double>(), d.data<double>() + d.size());
}

double InverseErf(double y) {
  // Newton's method on erf(x) = y from a rough start; erf is smooth and monotonic.
  if (y <= -1) return -std::numeric_limits<double>::infinity();
  if (y >= 1) return std::numeric_limits<double>::infinity();
  double x = 0;
  for (int i = 0; i < 60; ++i) {
    const double step = (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) < 1e-15) break;
  }
  return x;
}

// post_transform of TreeEnsemble-5 (0 NONE, 1 SOFTMAX, 2 LOGISTIC, 3 SOFTMAX_ZERO, 4 PROBIT) on one
// row.
Status PostTransform(const KernelContext& ctx, int64_t kind, double* row, int64_t n) {
  switch (kind) {
    case 0:
      return OkStatus();
    case 1:
    case 3: {
      double top = -std::numeric_limits<double>::infinity(), sum = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (kind == 1 || row[i] != 0) top = std::max(top, row[i]);
      }
      for (int64_t i = 0; i < n; ++i) {
        if (kind == 3 && row[i] == 0) continue;
        row[i] = std::exp(row[i] - top);
        sum += row[i];
      }
      for (int64_t i = 0; i < n; ++i) {
        if (sum > 0 && !(kind == 3 && row[i] == 0)) row[i] /= sum;
      }
      return OkStatus();
    }
    case 2:
      for (int64_t i = 0; i < n; ++i) row[i] = 1 / (1 + std::exp(-row[i]));
      return OkStatus();
    case 4:
      for (int64_t i = 0; i < n; ++i) row[i] = std::sqrt(2.0) * InverseErf(2 * row[i] - 1);
      return OkStatus();
    default:
      return ctx.Error("unknown post_transform");
  }
}

// TreeEnsemble-5 (ai.onnx.ml): each tree, from its root, follows branch nodes (x[feature] compared
// with the split by mode: 0 <=, 1 <, 2 >=, 3 >, 4 ==, 5 !=, 6 member of a set) to a leaf, which
// adds its weight to its target; trees are combined by aggregate_function (0 average, 1 sum, 2 min,
// 3 max), then post_transform. A NaN feature goes the true way where missing_value_tracks_true.
Status TreeEnsembleKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  if (x.rank() != 2) return ctx.Error("X must be [N, features]");
  const std::vector<int64_t> roots = ctx.GetInts("tree_roots"),
                             features = ctx.GetInts("nodes_featureids");
  const std::vector<int64_t> true_ids = ctx.GetInts("nodes_truenodeids"),
                             false_ids = ctx.GetInts("nodes_falsenodeids");
  const std::vector<int64_t> true_leaf = ctx.GetInts("nodes_trueleafs"),
                             false_leaf = ctx.GetInts("nodes_falseleafs");
  const std::vector<int64_t> missing = ctx.GetInts("nodes_missing_value_tracks_true");
  const std::vector<int64_t> leaf_targets = ctx.GetInts("leaf_targetids");
  ASSIGN_OR_RETURN(std::vector<double> modes, TensorAttrDoubles(ctx, "nodes_modes"));
  ASSIGN_OR_RETURN(std::vector<double> splits, TensorAttrDoubles(ctx, "nodes_splits"));
  ASSIGN_OR_RETURN(std::vector<double> leaf_weights, TensorAttrDoubles(ctx, "leaf_weights"));
  ASSIGN_OR_RETURN(std::vector<double> members, TensorAttrDoubles(ctx, "membership_values"));
  const int64_t nodes = static_cast<int64_t>(features.size()), targets = ctx.GetInt("n_targets", 1);
  const int64_t aggregate = ctx.GetInt("aggregate_function", 1);
  if (static_cast<int64_t>(modes.size()) != nodes || static_cast<int64_t>(splits.size()) != nodes ||
      static_cast<int64_t>(true_ids.size()) != nodes ||
      static_cast<int64_t>(false_ids.size()) != nodes ||
      static_cast<int64_t>(true_leaf.size()) != nodes ||
      static_cast<int64_t>(false_leaf.size()) != nodes ||
      (!missing.empty() && static_cast<int64_t>(missing.size()) != nodes) ||
      leaf_targets.size() != leaf_weights.size() || targets <= 0) {
    return ctx.Error("node and leaf attributes differ in length");
  }
  // The member set of each set-membership node: NaN-separated groups in node order.
  std::vector<std::vector<double>> sets(nodes);
  size_t next = 0;
  for (int64_t i = 0; i < nodes; ++i) {
    if (modes[i] != 6) continue;
    while (next < members.size() && !std::isnan(members[next])) sets[i].push_back(members[next++]);
    ++next;  // the separator
  }
  const int64_t N = x.dim(0), F = x.dim(1);
  Tensor y(DataType::kDouble, {N, targets});
  for (int64_t r = 0; r < N; ++r) {
    std::vector<double> acc(targets, 0.0);
    std::vector<bool> seen(targets, false);
    for (int64_t root : roots) {
      int64_t node = root;
      bool leaf = false;
      for (int64_t steps = 0; !leaf; ++steps) {
        if (node < 0 || node >= nodes || steps > nodes)
          return ctx.Error("a tree's node ids are out of range or cyclic");
        const int64_t f = features[node];
        if (f < 0 || f >= F) return ctx.Error("feature id out of range");
        const double v = x.data<double>()[r * F + f], split = splits[node];
        bool go_true;
        if (std::isnan(v) && !missing.empty() && missing[node] != 0) {
          go_true = true;
        } else {
          // A NaN or huge mode had no int value (an undefined conversion): it is unknown.
          switch (modes[node] >= 0 && modes[node] <= 6 ? static_cast<int>(modes[node]) : -1) {
            case 0:
              go_true = v <= split;
              break;
            case 1:
              go_true = v < split;
              break;
            case 2:
              go_true = v >= split;
              break;
            case 3:
              go_true = v > split;
              break;
            case 4:
              go_true = v == split;
              break;
            case 5:
              go_true = v != split;
              break;
            case 6:
              go_true = std::find(sets[node].begin(), sets[node].end(), v) != sets[node].end();
              break;
            default:
              return ctx.Error("unknown node mode");
          }
        }
        leaf = go_true ? true_leaf[node] != 0 : false_leaf[node] != 0;
        node = go_true ? true_ids[node] : false_ids[node];
      }
      if (node < 0 || node >= static_cast<int64_t>(leaf_weights.size()))
        return ctx.Error("leaf id out of range");
      const int64_t t = leaf_targets[node];
      if (t < 0 || t >= targets) return ctx.Error("leaf target out of range");
      const double w = leaf_weights[node];
      if (aggregate == 2)
        acc[t] = seen[t] ? std::min(acc[t], w) : w;
      else if (aggregate == 3)
        acc[t] = seen[t] ? std::max(acc[t], w) : w;
      else
        acc[t] += w;
      seen[t] = true;
    }
    if (aggregate == 0 && !roots.empty()) {
      for (double& a : acc) a /= static_cast<double>(roots.size());
    }
    RETURN_IF_ERROR(PostTransform(ctx, ctx.GetInt("post_transform", 0), acc.data(), targets));
    std::copy(acc.begin(), acc.end(), y.mutable_data<double>() + r * targets);
  }
  ASSIGN_OR_RETURN(y, CastTensor(y, x0->dtype()));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// The trees of TreeEnsembleRegressor and TreeEnsembleClassifier (ai.onnx.ml 1 and 3): nodes named
// by (tree id, node id), branch modes as strings, and leaves that add weights to several targets
// (regression targets or class indices).
struct Forest {
  struct Node {
    int64_t feature = 0;
    double value = 0;
    int mode = -1;                              // 0 <=, 1 <, 2 >=, 3 >, 4 ==, 5 !=; -1 leaf
    int64_t true_child = -1, false_child = -1;  // indices
    bool missing_true = false;
    std::vector<std::pair<int64_t, double>> weights;  // at leaves
  };
  std::vector<Node> nodes;
  std::vector<int64_t> roots;
};

StatusOr<std::vector<double>> FloatsOrTensor(const KernelContext& ctx, const std::string& name) {
  if (ctx.has_attr(name + "_as_tensor")) return TensorAttrDoubles(ctx, name + "_as_tensor");
  std::vector<double> out;
  for (float f : ctx.GetFloats(name)) out.push_back(f);
  return out;
}

// `prefix` is "target" (regressor) or "class" (classifier).
StatusOr<Forest> ReadForest(const KernelContext& ctx, const std::string& prefix) {
  const std::vector<int64_t> tree_ids = ctx.GetInts("nodes_treeids"),
                             node_ids = ctx.GetInts("nodes_nodeids");
  const std::vector<int64_t> features = ctx.GetInts("nodes_featureids");
  const std::vector<int64_t> true_ids = ctx.GetInts("nodes_truenodeids"),
                             false_ids = ctx.GetInts("nodes_falsenodeids");
  const std::vector<int64_t> missing = ctx.GetInts("nodes_missing_value_tracks_true");
  const std::vector<std::string> modes = ctx.GetStrings("nodes_modes");
  ASSIGN_OR_RETURN(std::vector<double> values, FloatsOrTensor(ctx, "nodes_values"));
  const size_t n = node_ids.size();
  if (tree_ids.size() != n || features.size() != n || true_ids.size() != n ||
      false_ids.size() != n || modes.size() != n || values.size() != n ||
      (!missing.empty() && missing.size() != n)) {
    return ctx.Error("node attributes differ in length");
  }
  std::map<std::pair<int64_t, int64_t>, int64_t> index;
  for (size_t i = 0; i < n; ++i) index[{tree_ids[i], node_ids[i]}] = static_cast<int64_t>(i);
  Forest forest;
  forest.nodes.resize(n);
  std::vector<bool> child(n, false);
  static const std::map<std::string, int> kModes = {
      {"BRANCH_LEQ", 0}, {"BRANCH_LT", 1},  {"BRANCH_GTE", 2}, {"BRANCH_GT", 3},
      {"BRANCH_EQ", 4},  {"BRANCH_NEQ", 5}, {"LEAF", -1}};
  for (size_t i = 0; i < n; ++i) {
    Forest::Node& node = forest.nodes[i];
    auto mode = kModes.find(modes[i]);
    if (mode == kModes.end()) return ctx.Error(absl::StrCat("unknown node mode ", modes[i]));
    node.mode = mode->second;
    node.feature = features[i];
    node.value = values[i];
    node.missing_true = !missing.empty() && missing[i] != 0;
    if (node.mode < 0) continue;
    auto t = index.find({tree_ids[i], true_ids[i]}), f = index.find({tree_ids[i], false_ids[i]});
    if (t == index.end() || f == index.end())
      return ctx.Error("a branch names a node that does not exist");
    node.true_child = t->second;
    node.false_child = f->second;
    child[t->second] = child[f->second] = true;
  }
  std::set<int64_t> trees_seen;
  for (size_t i = 0; i < n; ++i) {
    if (!child[i] && trees_seen.insert(tree_ids[i]).second)
      forest.roots.push_back(static_cast<int64_t>(i));
  }
  const std::vector<int64_t> w_trees = ctx.GetInts(prefix + "_treeids"),
                             w_nodes = ctx.GetInts(prefix + "_nodeids");
  const std::vector<int64_t> w_ids = ctx.GetInts(prefix + "_ids");
  ASSIGN_OR_RETURN(std::vector<double> w, FloatsOrTensor(ctx, prefix + "_weights"));
  if (w_trees.size() != w.size() || w_nodes.size() != w.size() || w_ids.size() != w.size()) {
    return ctx.Error("leaf weight attributes differ in length");
  }
  for (size_t j = 0; j < w.size(); ++j) {
    auto it = index.find({w_trees[j], w_nodes[j]});
    if (it == index.end()) return ctx.Error("a weight names a node that does not exist");
    forest.nodes[it->second].weights.push_back({w_ids[j], w[j]});
  }
  return forest;
}

// The leaf row `r` of `x` reaches from `root`.
StatusOr<const Forest::Node*> Walk(const KernelContext& ctx, const Forest& forest, int64_t root,
                                   const double* row, int64_t features) {
  int64_t i = root;
  for (size_t steps = 0; steps <= forest.nodes.size(); ++steps) {
    const Forest::Node& node = forest.nodes[i];
    if (node.mode < 0) return &node;
    if (node.feature < 0 || node.feature >= features) return ctx.Error("feature id out of range");
    const double v = row[node.feature];
    bool go_true;
    if (std::isnan(v) && node.missing_true) {
      go_true = true;
    } else {
      switch (node.mode) {
        case 0:
          go_true = v <= node.value;
          break;
        case 1:
          go_true = v < node.value;
          break;
        case 2:
          go_true = v >= node.value;
          break;
        case 3:
          go_true = v > node.value;
          break;
        case 4:
          go_true = v == node.value;
          break;
        default:
          go_true = v != node.value;
          break;
      }
    }
    i = go_true ? node.true_child : node.false_child;
  }
  return ctx.Error("a tree has a cycle");
}

int PostTransformCode(const std::string& name) {
  if (name == "SOFTMAX") return 1;
  if (name == "LOGISTIC") return 2;
  if (name == "SOFTMAX_ZERO") return 3;
  if (name == "PROBIT") return 4;
  return name == "NONE" ? 0 : -1;
}

// Scores [N, outputs] of a forest: per row, each tree's leaf weights aggregated over the trees
// (SUM, AVERAGE, MIN, MAX), then base_values added and post_transform applied.
StatusOr<Tensor> ForestScores(const KernelContext& ctx, const Forest& forest, const Tensor& x,
                              int64_t outputs, const std::string& aggregate) {
  if (x.rank() != 2 && x.rank() != 1) return ctx.Error("X must be [N, features]");
  const int64_t N = x.rank() == 2 ? x.dim(0) : 1, F = x.rank() == 2 ? x.dim(1) : x.dim(0);
  ASSIGN_OR_RETURN(std::vector<double> base, FloatsOrTensor(ctx, "base_values"));
  if (!base.empty() && static_cast<int64_t>(base.size()) != outputs)
    return ctx.Error("base_values has the wrong length");
  const int post = PostTransformCode(ctx.GetString("post_transform", "NONE"));
  if (post < 0) return ctx.Error("unknown post_transform");
  Tensor y(DataType::kDouble, {N, outputs});
  for (int64_t r = 0; r < N; ++r) {
    std::vector<double> acc(outputs, 0.0);
    std::vector<bool> seen(outputs, false);
    for (int64_t root : forest.roots) {
      ASSIGN_OR_RETURN(const Forest::Node* leaf,
                       Walk(ctx, forest, root, x.data<double>() + r * F, F));
      std::map<int64_t, double> tree_sum;
      for (const auto& [id, w] : leaf->weights) {
        if (id < 0 || id >= outputs) return ctx.Error("a leaf weight's target is out of range");
        tree_sum[id] += w;
      }
      for (const auto& [id, w] : tree_sum) {
        if (aggregate == "MIN")
          acc[id] = seen[id] ? std::min(acc[id], w) : w;
        else if (aggregate == "MAX")
          acc[id] = seen[id] ? std::max(acc[id], w) : w;
        else
          acc[id] += w;
        seen[id] = true;
      }
    }
    if (aggregate == "AVERAGE" && !forest.roots.empty()) {
      for (double& a : acc) a /= static_cast<double>(forest.roots.size());
    }
    for (int64_t t = 0; t < outputs && !base.empty(); ++t) acc[t] += base[t];
    RETURN_IF_ERROR(PostTransform(ctx, post, acc.data(), outputs));
    std::copy(acc.begin(), acc.end(), y.mutable_data<double>() + r * outputs);
  }
  return y;
}

Status TreeEnsembleRegressorKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Forest forest, ReadForest(ctx, "target"));
  const int64_t targets = ctx.GetInt("n_targets", 1);
  if (targets <= 0) return ctx.Error("n_targets must be positive");
  ASSIGN_OR_RETURN(
      Tensor y, ForestScores(ctx, forest, x, targets, ctx.GetString("aggregate_function", "SUM")));
  ASSIGN_OR_RETURN(y, CastTensor(y, DataType::kFloat));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

// Scores per class summed over the trees; the label is the class of the highest score. The binary
// layout with one score column (weights for a single class of two) is refused: its conventions
// for the other column are not settled in the specification.
Status TreeEnsembleClassifierKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x0, ctx.TensorInput(0));
  ASSIGN_OR_RETURN(Tensor x, CastTensor(*x0, DataType::kDouble));
  ASSIGN_OR_RETURN(Forest forest, ReadForest(ctx, "class"));
  const std::vector<int64_t> int_labels = ctx.GetInts("classlabels_int64s");
  const std::vector<std::string> string_labels = ctx.GetStrings("classlabels_strings");
  const int64_t classes =
      static_cast<int64_t>(!int_labels.empty() ? int_labels.size() : string_labels.size());
  if (classes == 0) return ctx.Error("needs classlabels_int64s or classlabels_strings");
  std::set<int64_t> used;
  for (const Forest::Node& n : forest.nodes) {
    for (const auto& [id, w] : n.weights) used.insert(id);
  }
  if (classes == 2 && used.size() == 1)
    return ctx.Error("the binary layout with one score column is not supported");
  ASSIGN_OR_RETURN(Tensor scores, ForestScores(ctx, forest, x, classes, "SUM"));
  const int64_t N = scores.dim(0);
  Tensor labels =
      !int_labels.empty() ? Tensor(DataType::kInt64, {N}) : Tensor(DataType::kString, {N});
  for (int64_t r = 0; r < N; ++r) {
    const double* row = scores.data<double>() + r * classes;
    const int64_t best = std::max_element(row, row + classes) - row;
    if (!int_labels.empty())
      labels.mutable_data<int64_t>()[r] = int_labels[best];
    else
      labels.mutable_data<std::string>()[r] = string_labels[best];
  }
  ASSIGN_OR_RETURN(scores, CastTensor(scores, DataType::kFloat));
  ctx.set_output(0, std::move(labels));
  ctx.set_output(1, std::move(scores));
  return OkStatus();
}

Status TfIdfKernel(KernelContext& ctx) {
  ASSIGN_OR_RETURN(const Tensor* x, ctx.TensorInput(0));
  const int64_t min_n = ctx.GetInt("min_gram_length", 1), max_n = ctx.GetInt("max_gram_length", 1);
  const int64_t max_skip = ctx.GetInt("max_skip_count", 0);
  const std::string mode = ctx.GetString("mode", "TF");
  const std::vector<int64_t> counts = ctx.GetInts("ngram_counts"),
                             indexes = ctx.GetInts("ngram_indexes");
  std::vector<float> weights = ctx.GetFloats("weights");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    return ctx.Error("mode must be TF, IDF or TFIDF");
  if (min_n < 1 || max_n < min_n || max_skip < 0) {
    return ctx.Error("needs 1 <= min_gram_length <= max_gram_length and max_skip_count >= 0");
  }
  if (x->rank() != 1 && x->rank() != 2) return ctx.Error("X must have rank 1 or 2");
  if (!weights.empty() && weights.size() != indexes.size()) {
    return ctx.Error("weights must have one value per ngram_indexes entry");
  }
  // Pool tokens as strings ("i<n>" for ints) so both kinds share one path.
  std::vector<std::string> pool;
  for (int64_t v : ctx.GetInts("pool_int64s")) pool.push_back(std::to_string(v));
  for (const std::string& s : ctx.GetStrings("pool_strings")) pool.push_back(s);
  const int64_t pool_size = static_cast<int64_t>(pool.size());
  for (size_t g = 0; g < counts.size(); ++g) {
    if (counts[g] < 0 || counts[g] > pool_size || (g > 0 && counts[g] < counts[g - 1])) {
      return ctx.Error("ngram_counts must be non-decreasing starts within the pool");
    }
  }
  std::map<std::vector<std::string>, int64_t> ngram_id;
  int64_t id = 0;
  for (size_t g = 0; g < counts.size(); ++g) {
    const int64_t n = g + 1;
    const int64_t begin = counts[g], end = g + 1 < counts.size() ? counts[g + 1] : pool_size;
    for (int64_t p = begin; p + n <= end; p += n) {
      ngram_id[std::vector<std::string>(pool.begin() + p, pool.begin() + p + n)] = id++;
    }
  }
  if (static_cast<int64_t>(indexes.size()) < id) {
    return ctx.Error(
        absl::StrCat("ngram_indexes has ", indexes.size(), " entries for ", id, " n-grams"));
  }
  int64_t out_len = 0;
  for (int64_t v : indexes) {
    if (v < 0 || v == std::numeric_limits<int64_t>::max())
      return ctx.Error("ngram_indexes must be non-negative");
    out_len = std::max(out_len, v + 1);
  }
  // The weight of each output that an n-gram feeds (the last entry wins); other outputs stay 0.
  std::map<int64_t, double> out_weight;
  for (size_t k = 0; k < indexes.size(); ++k)
    out_weight[indexes[k]] = weights.empty() ? 1.0 : weights[k];
  std::vector<std::string> tokens(x->size());
  if (x->is_string()) {
    for (int64_t i = 0; i < x->size(); ++i) tokens[i] = x->data<std::string>()[i];
  } else {
    ASSIGN_OR_RETURN(Tensor xi, CastTensor(*x, DataType::kInt64));
    for (int64_t i = 0; i < x->size(); ++i) tokens[i] = std::to_string(xi.data<int64_t>()[i]);
  }
  const int64_t rows = x->rank() == 2 ? x->dim(0) : 1;
  const int64_t len = x->dim(x->rank() - 1);
  // Longer n-grams than the pool holds, or skips that leave no room for a second token, match
  // nothing.
  const int64_t top_n = std::min<int64_t>(max_n, static_cast<int64_t>(counts.size()));
  const int64_t top_skip = std::min<int64_t>(max_skip, len);
  Tensor y(DataType::kFloat,
           x->rank() == 2 ? std::vector<int64_t>{rows, out_len} : std::vector<int64_t>{out_len});
  float* py = y.mutable_data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    float* row = py + r * out_len;  // zero-filled; counts first
    for (int64_t skip = 0; skip <= top_skip; ++skip) {
      for (int64_t n = min_n; n <= top_n; ++n) {
        if (n == 1 && skip > 0) continue;
        for (int64_t s = 0; s + (n - 1) * (skip + 1) < len; ++s) {
          std::vector<std::string> key;
          for (int64_t j = 0; j < n; ++j) key.push_back(tokens[r * len + s + j * (skip + 1)]);
          auto it = ngram_id.find(key);
          if (it != ngram_id.end()) row[indexes[it->second]] += 1;
        }
      }
    }
    if (mode == "TF") continue;
    for (const auto& [o, w] : out_weight) {
      const double v = row[o];
      row[o] = static_cast<float>(mode == "IDF" ? (v > 0 ? w : 0) : v * w);
    }
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace

void RegisterMlKernels(KernelRegistry& r) {
  r.Register("ai.onnx.ml", "Binarizer", 1, BinarizerKernel);
  r.Register("ai.onnx.ml", "ArrayFeatureExtractor", 1, ArrayFeatureExtractorKernel);
  r.Register("ai.onnx.ml", "LabelEncoder", 1, LabelEncoderKernel);
  r.Register("ai.onnx.ml", "TreeEnsemble", 5, TreeEnsembleKernel);
  r.Register("ai.onnx.ml", "TreeEnsembleRegressor", 1, TreeEnsembleRegressorKernel);
  r.Register("ai.onnx.ml", "TreeEnsembleClassifier", 1, TreeEnsembleClassifierKernel);
  r.Register("", "TfIdfVectorizer", 9, TfIdfKernel);
}

}  // namespace onnx_opt::interpreter
