// ai.onnx.ml.
//
//   LabelEncoder-2 replaced classes_strings (a string <-> index mapping) with explicit keys and
//     values lists (and float support); LabelEncoder-4 added tensor attributes (keys_tensor,
//     values_tensor, default_tensor) and more types.
//   TreeEnsembleClassifier/Regressor-3 added double-precision *_as_tensor attributes; both were
//     deprecated at ml opset 5 for TreeEnsemble, whose encoding differs (not converted).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "converter/adapter_util.h"
#include "converter/families.h"
#include "ir/constant_value.h"

namespace onnx_opt::converter {
namespace {

constexpr char kMl[] = "ai.onnx.ml";

absl::Status LabelEncoderUp1To2(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* classes = n.FindAttribute("classes_strings");
  std::optional<ir::DataType> t = ctx.ElemType(n.input(0));
  if (!t.has_value())
    return ctx.Error("the input type must be known (string -> int64 or int64 -> string)");
  std::vector<std::string> names =
      classes != nullptr ? classes->strings : std::vector<std::string>{};
  std::vector<int64_t> index(names.size());
  for (size_t i = 0; i < names.size(); ++i) index[i] = static_cast<int64_t>(i);
  if (*t == ir::DataType::kString) {
    n.SetAttribute(ir::Attribute::Strings("keys_strings", names));
    n.SetAttribute(ir::Attribute::Ints("values_int64s", index));
    n.SetAttribute(ir::Attribute::Int("default_int64", IntAttr(ctx, "default_int64", -1)));
    n.RemoveAttribute("default_string");
  } else {
    n.SetAttribute(ir::Attribute::Ints("keys_int64s", index));
    n.SetAttribute(ir::Attribute::Strings("values_strings", names));
    n.SetAttribute(
        ir::Attribute::String("default_string", StringAttr(ctx, "default_string", "_Unused")));
    n.RemoveAttribute("default_int64");
  }
  n.RemoveAttribute("classes_strings");
  return absl::OkStatus();
}

absl::Status LabelEncoderDown2To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  const ir::Attribute* ks = n.FindAttribute("keys_strings");
  const ir::Attribute* vi = n.FindAttribute("values_int64s");
  const ir::Attribute* ki = n.FindAttribute("keys_int64s");
  const ir::Attribute* vs = n.FindAttribute("values_strings");
  auto is_index = [](const std::vector<int64_t>& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] != static_cast<int64_t>(i)) return false;
    }
    return true;
  };
  std::vector<std::string> classes;
  if (ks != nullptr && vi != nullptr && ki == nullptr && vs == nullptr && is_index(vi->ints)) {
    classes = ks->strings;
    n.RemoveAttribute("default_string");
  } else if (ki != nullptr && vs != nullptr && ks == nullptr && vi == nullptr &&
             is_index(ki->ints)) {
    classes = vs->strings;
    n.RemoveAttribute("default_int64");
  } else {
    return ctx.Error(
        "only a mapping between strings and their positions 0..n-1 is expressible in "
        "LabelEncoder-1");
  }
  for (const char* a :
       {"keys_strings", "values_int64s", "keys_int64s", "values_strings", "default_float"}) {
    n.RemoveAttribute(a);
  }
  n.SetAttribute(ir::Attribute::Strings("classes_strings", classes));
  return absl::OkStatus();
}

absl::Status LabelEncoderDown4To2(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  for (const char* a : {"keys_tensor", "values_tensor", "default_tensor"}) {
    const ir::Attribute* t = n.FindAttribute(a);
    if (t == nullptr) continue;
    if (t->is_reference()) return ctx.Error(absl::StrCat(a, " is a function attribute reference"));
    const std::string prefix = std::string(a) == "keys_tensor"     ? "keys_"
                               : std::string(a) == "values_tensor" ? "values_"
                                                                   : "default_";
    const bool is_default = prefix == "default_";
    const ir::DataType type = t->t->data_type();
    if (type == ir::DataType::kString) {
      if (is_default) {
        if (t->t->strings().size() != 1) return ctx.Error("default_tensor must hold one value");
        n.SetAttribute(ir::Attribute::String("default_string", t->t->strings()[0]));
      } else {
        n.SetAttribute(ir::Attribute::Strings(prefix + "strings", t->t->strings()));
      }
    } else if (type == ir::DataType::kInt64) {
      std::vector<int64_t> v = t->t->ToVector<int64_t>();
      if (is_default) {
        if (v.size() != 1) return ctx.Error("default_tensor must hold one value");
        n.SetAttribute(ir::Attribute::Int("default_int64", v[0]));
      } else {
        n.SetAttribute(ir::Attribute::Ints(prefix + "int64s", v));
      }
    } else if (type == ir::DataType::kFloat) {
      std::vector<float> v = t->t->ToVector<float>();
      if (is_default) {
        if (v.size() != 1) return ctx.Error("default_tensor must hold one value");
        n.SetAttribute(ir::Attribute::Float("default_float", v[0]));
      } else {
        n.SetAttribute(ir::Attribute::Floats(prefix + "floats", v));
      }
    } else {
      return ctx.Error(absl::StrCat(a, " of type ", ir::DataTypeName(type),
                                    " has no equivalent before ml opset 4"));
    }
    n.RemoveAttribute(a);
  }
  return absl::OkStatus();
}

// *_as_tensor (double) attributes -> float lists when every value is exactly a float.
absl::Status TreeDown3To1(AdapterContext& ctx) {
  ir::Node& n = ctx.node();
  std::vector<std::string> names;
  for (const ir::Attribute& a : n.attributes()) {
    const std::string& nm = a.name();
    if (nm.size() > 10 && nm.substr(nm.size() - 10) == "_as_tensor") names.push_back(nm);
  }
  for (const std::string& nm : names) {
    const ir::Attribute* a = n.FindAttribute(nm);
    if (a->is_reference()) return ctx.Error(absl::StrCat(nm, " is a function attribute reference"));
    std::optional<std::vector<double>> v = ir::ConstantAsDoubles(a->t);
    if (!v.has_value()) return ctx.Error(absl::StrCat(nm, " is not numeric"));
    std::vector<float> f;
    for (double d : *v) {
      if (static_cast<double>(static_cast<float>(d)) != d) {
        return ctx.Error(
            absl::StrCat(nm, " holds values that float precision cannot represent exactly"));
      }
      f.push_back(static_cast<float>(d));
    }
    const std::string base = nm.substr(0, nm.size() - 10);
    n.RemoveAttribute(nm);
    n.SetAttribute(ir::Attribute::Floats(base, f));
  }
  return absl::OkStatus();
}

}  // namespace

void RegisterMlAdapters(AdapterRegistry& registry) {
  Registrar r(registry, kMl);
  r.Both("LabelEncoder", 1, 2, AdapterKind::kAttribute,
         "LabelEncoder-2 replaced classes_strings with keys_*/values_* lists and added floats",
         LabelEncoderUp1To2, LabelEncoderDown2To1);
  r.Both("LabelEncoder", 2, 4, AdapterKind::kAttribute,
         "LabelEncoder-4 added keys_tensor/values_tensor/default_tensor and more types", Nothing(),
         LabelEncoderDown4To2);
  for (const char* op : {"TreeEnsembleClassifier", "TreeEnsembleRegressor"}) {
    r.Both(op, 1, 3, AdapterKind::kAttribute,
           "opset 3 added double-precision *_as_tensor attributes", Nothing(), TreeDown3To1);
    registry.Register(
        kMl, op, 3, kRemoved, AdapterKind::kRefuse,
        "deprecated at ml opset 5 for TreeEnsemble (a different encoding; not converted)",
        Refuse(absl::StrCat(op,
                            " was deprecated at ai.onnx.ml opset 5; converting it to "
                            "TreeEnsemble is not supported")));
  }
}

}  // namespace onnx_opt::converter
