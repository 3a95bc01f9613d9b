#include "passes/node_key.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "absl/hash/hash.h"

namespace onnx_opt::passes {
namespace {

template <typename T>
void AppendPod(std::string& out, const T& v) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  out.append(buf, sizeof(T));
}

void AppendString(std::string& out, const std::string& s) {
  AppendPod(out, static_cast<uint64_t>(s.size()));
  out += s;
}

void AppendTensor(std::string& out, const ir::Tensor& t) {
  AppendPod(out, static_cast<int32_t>(t.data_type()));
  AppendPod(out, static_cast<uint64_t>(t.dims().size()));
  for (int64_t d : t.dims()) AppendPod(out, d);
  AppendString(out, std::string(t.raw_view()));
  AppendPod(out, static_cast<uint64_t>(t.strings().size()));
  for (const std::string& s : t.strings()) AppendString(out, s);
}

const std::string& CanonicalDomain(const ir::Node& n) {
  static const std::string* const kEmpty = new std::string();
  return n.is_onnx_domain() ? *kEmpty : n.domain();
}

// Attribute keys in name order; nullopt if one cannot be compared.
std::optional<std::vector<std::string>> SortedAttributeKeys(const ir::Node& node) {
  std::vector<const ir::Attribute*> attrs;
  for (const ir::Attribute& a : node.attributes()) attrs.push_back(&a);
  std::sort(attrs.begin(), attrs.end(), [](auto* x, auto* y) { return x->name() < y->name(); });
  std::vector<std::string> keys;
  for (const ir::Attribute* a : attrs) {
    std::optional<std::string> k = AttributeKey(*a);
    if (!k.has_value()) return std::nullopt;
    keys.push_back(*std::move(k));
  }
  return keys;
}

}  // namespace

std::optional<std::string> AttributeKey(const ir::Attribute& a) {
  std::string out;
  AppendString(out, a.name());
  AppendPod(out, static_cast<int32_t>(a.kind()));
  AppendString(out, a.ref_attr_name());
  if (a.is_reference()) return out;
  switch (a.kind()) {
    case ir::AttributeKind::kFloat:
      AppendPod(out, a.f);
      break;
    case ir::AttributeKind::kInt:
      AppendPod(out, a.i);
      break;
    case ir::AttributeKind::kString:
      AppendString(out, a.s);
      break;
    case ir::AttributeKind::kTensor:
      AppendTensor(out, a.t);
      break;
    case ir::AttributeKind::kFloats:
      AppendPod(out, static_cast<uint64_t>(a.floats.size()));
      for (float f : a.floats) AppendPod(out, f);
      break;
    case ir::AttributeKind::kInts:
      AppendPod(out, static_cast<uint64_t>(a.ints.size()));
      for (int64_t i : a.ints) AppendPod(out, i);
      break;
    case ir::AttributeKind::kStrings:
      AppendPod(out, static_cast<uint64_t>(a.strings.size()));
      for (const std::string& s : a.strings) AppendString(out, s);
      break;
    case ir::AttributeKind::kTensors:
      AppendPod(out, static_cast<uint64_t>(a.tensors.size()));
      for (const ir::Tensor& t : a.tensors) AppendTensor(out, t);
      break;
    case ir::AttributeKind::kTypeProto:
      AppendString(out, a.tp->ToString());
      break;
    case ir::AttributeKind::kTypeProtos:
      for (const ir::Type& t : a.type_protos) AppendString(out, t.ToString());
      break;
    case ir::AttributeKind::kSparseTensor:
      AppendTensor(out, a.sparse_tensor->values);
      AppendTensor(out, a.sparse_tensor->indices);
      for (int64_t d : a.sparse_tensor->dims) AppendPod(out, d);
      break;
    default:
      // Graphs (and anything we cannot compare byte-wise) make the node unique.
      return std::nullopt;
  }
  return out;
}

std::optional<size_t> NodeHash(const ir::Node& node) {
  if (!node.subgraphs().empty()) return std::nullopt;
  size_t h =
      absl::HashOf(CanonicalDomain(node), node.op_type(), node.overload(), node.num_outputs());
  for (const ir::Value* v : node.inputs()) h = absl::HashOf(h, v);
  if (!node.attributes().empty()) {
    std::optional<std::vector<std::string>> keys = SortedAttributeKeys(node);
    if (!keys.has_value()) return std::nullopt;
    h = absl::HashOf(h, *keys);
  }
  return h;
}

bool ComputeSame(const ir::Node& a, const ir::Node& b) {
  if (a.op_type() != b.op_type() || CanonicalDomain(a) != CanonicalDomain(b) ||
      a.overload() != b.overload() || a.num_outputs() != b.num_outputs() ||
      a.inputs() != b.inputs() || a.attributes().size() != b.attributes().size()) {
    return false;
  }
  if (a.attributes().empty()) return true;
  std::optional<std::vector<std::string>> ka = SortedAttributeKeys(a);
  std::optional<std::vector<std::string>> kb = SortedAttributeKeys(b);
  return ka.has_value() && kb.has_value() && *ka == *kb;
}

}  // namespace onnx_opt::passes
