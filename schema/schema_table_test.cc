// Compares our operator tables and release table with the facts dumped from ONNX itself
// (../shared/reference/onnx_op_schemas.json and onnx_op_versions.tsv), field by field, and lists
// every difference. Skips, loudly, when ONNX_REFERENCE_DIR is unset.

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "schema/domains.h"
#include "schema/op_registry.h"
#include "schema/op_schema.h"
#include "schema/testing/json_reader.h"
#include "schema/testing/reference_data.h"
#include "schema/version_table.h"

namespace onnx_opt::schema {
namespace {

using testing::JsonValue;

absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::string OptionName(ParamOption option) {
  switch (option) {
    case ParamOption::kSingle:
      return "single";
    case ParamOption::kOptional:
      return "optional";
    case ParamOption::kVariadic:
      return "variadic";
  }
  return "?";
}

std::string DifferentiabilityName(Differentiability d) {
  switch (d) {
    case Differentiability::kUnknown:
      return "Unknown";
    case Differentiability::kDifferentiable:
      return "Differentiable";
    case Differentiability::kNonDifferentiable:
      return "NonDifferentiable";
  }
  return "?";
}

std::string FloatText(float f) { return absl::StrFormat("%.9g", f); }

// Our default in JSON-like text, for messages.
std::string DefaultText(const AttrValue& v) {
  struct Printer {
    std::string operator()(std::monostate) const { return "null"; }
    std::string operator()(int64_t i) const { return absl::StrCat(i); }
    std::string operator()(float f) const { return FloatText(f); }
    std::string operator()(const std::string& s) const { return absl::StrCat("\"", s, "\""); }
    std::string operator()(const std::vector<int64_t>& l) const {
      return absl::StrCat("[", absl::StrJoin(l, ","), "]");
    }
    std::string operator()(const std::vector<float>& l) const {
      std::vector<std::string> parts;
      for (float f : l) parts.push_back(FloatText(f));
      return absl::StrCat("[", absl::StrJoin(parts, ","), "]");
    }
    std::string operator()(const std::vector<std::string>& l) const {
      return absl::StrCat("[\"", absl::StrJoin(l, "\",\""), "\"]");
    }
  };
  return std::visit(Printer(), v);
}

// The reference stores float32 defaults widened to double: equal means the same float32 value,
// sign of zero included.
bool SameFloat(float ours, const JsonValue& ref) {
  if (!ref.is_number()) return false;
  const double d = ref.double_value();
  return static_cast<double>(ours) == d && std::signbit(ours) == std::signbit(d);
}

bool SameDefault(const AttrValue& ours, const JsonValue& ref) {
  if (ref.is_null()) return std::holds_alternative<std::monostate>(ours);
  if (const auto* i = std::get_if<int64_t>(&ours)) return ref.is_integer() && ref.int_value() == *i;
  if (const auto* f = std::get_if<float>(&ours)) return SameFloat(*f, ref);
  if (const auto* s = std::get_if<std::string>(&ours)) {
    return ref.is_string() && ref.string_value() == *s;
  }
  if (!ref.is_array()) return false;
  if (const auto* l = std::get_if<std::vector<int64_t>>(&ours)) {
    if (l->size() != ref.size()) return false;
    for (size_t i = 0; i < l->size(); ++i) {
      if (!ref.items()[i].is_integer() || ref.items()[i].int_value() != (*l)[i]) return false;
    }
    return true;
  }
  if (const auto* l = std::get_if<std::vector<float>>(&ours)) {
    if (l->size() != ref.size()) return false;
    for (size_t i = 0; i < l->size(); ++i) {
      if (!SameFloat((*l)[i], ref.items()[i])) return false;
    }
    return true;
  }
  if (const auto* l = std::get_if<std::vector<std::string>>(&ours)) {
    if (l->size() != ref.size()) return false;
    for (size_t i = 0; i < l->size(); ++i) {
      if (!ref.items()[i].is_string() || ref.items()[i].string_value() != (*l)[i]) return false;
    }
    return true;
  }
  return false;
}

// Collects "schema: what differs" lines.
class Differences {
 public:
  void Add(const std::string& where, const std::string& what) {
    lines_.push_back(absl::StrCat(where, ": ", what));
  }
  template <typename A, typename B>
  void Check(const std::string& where, std::string_view field, const A& ours, const B& ref) {
    if (!(ours == ref)) {
      Add(where,
          absl::StrCat(Sv(field), " is ", ours, " in our table, ", ref, " in the reference"));
    }
  }
  const std::vector<std::string>& lines() const { return lines_; }
  std::string Report() const {
    return absl::StrCat(lines_.size(), " difference(s):\n", absl::StrJoin(lines_, "\n"));
  }

 private:
  std::vector<std::string> lines_;
};

void CompareParams(const std::string& where, std::string_view kind,
                   const std::vector<FormalParameter>& ours, const JsonValue& ref,
                   Differences& diffs) {
  if (ours.size() != ref.size()) {
    diffs.Add(where, absl::StrCat(ours.size(), " ", Sv(kind), "s in our table, ", ref.size(),
                                  " in the reference"));
  }
  for (size_t i = 0; i < std::min(ours.size(), ref.size()); ++i) {
    const FormalParameter& p = ours[i];
    const JsonValue& r = ref.items()[i];
    const std::string at = absl::StrCat(where, " ", Sv(kind), " ", i, " '", p.name, "'");
    diffs.Check(at, "name", p.name, r["name"].string_value());
    diffs.Check(at, "type", p.type_str, r["type"].string_value());
    diffs.Check(at, "option", OptionName(p.option), r["option"].string_value());
    diffs.Check(at, "homogeneous", p.homogeneous, r["homogeneous"].bool_value());
    diffs.Check(at, "min_arity", p.min_arity, r["min_arity"].int_value());
    diffs.Check(at, "differentiable", DifferentiabilityName(p.differentiability),
                r["differentiable"].string_value());
  }
}

void CompareAttributes(const std::string& where, const OpSchema& ours, const JsonValue& ref,
                       Differences& diffs) {
  std::set<std::string> ref_names;
  for (const JsonValue& r : ref.items()) {
    const std::string& name = r["name"].string_value();
    ref_names.insert(name);
    const std::string at = absl::StrCat(where, " attribute '", name, "'");
    const AttributeSpec* a = ours.FindAttribute(name);
    if (a == nullptr) {
      diffs.Add(at, "missing from our table");
      continue;
    }
    diffs.Check(at, "type", std::string(AttrTypeName(a->type)), r["type"].string_value());
    diffs.Check(at, "required", a->required, r["required"].bool_value());
    if (!SameDefault(a->default_value, r["default"])) {
      diffs.Add(at, absl::StrCat("default is ", DefaultText(a->default_value), " in our table, ",
                                 r["default"].ToString(), " in the reference"));
    }
  }
  for (const AttributeSpec& a : ours.attributes()) {
    if (!ref_names.contains(a.name)) {
      diffs.Add(absl::StrCat(where, " attribute '", a.name, "'"), "not in the reference");
    }
  }
}

void CompareTypeConstraints(const std::string& where, const OpSchema& ours, const JsonValue& ref,
                            Differences& diffs) {
  const auto& tcs = ours.type_constraints();
  if (tcs.size() != ref.size()) {
    diffs.Add(where, absl::StrCat(tcs.size(), " type constraints in our table, ", ref.size(),
                                  " in the reference"));
  }
  for (size_t i = 0; i < std::min(tcs.size(), ref.size()); ++i) {
    const JsonValue& r = ref.items()[i];
    const std::string at = absl::StrCat(where, " type constraint ", i, " '", tcs[i].param, "'");
    diffs.Check(at, "param", tcs[i].param, r["param"].string_value());
    std::vector<std::string> ref_allowed;
    for (const JsonValue& t : r["allowed"].items()) ref_allowed.push_back(t.string_value());
    // The reference gives an ordered list; we keep ONNX's order, so compare as lists.
    if (std::vector<std::string>(tcs[i].allowed.begin(), tcs[i].allowed.end()) != ref_allowed) {
      diffs.Add(at,
                absl::StrCat(
                    "allowed types are [",
                    absl::StrJoin(tcs[i].allowed, ", ",
                                  [](std::string* out, std::string_view t) { out->append(t); }),
                    "] in our table, [", absl::StrJoin(ref_allowed, ", "), "] in the reference"));
    }
  }
}

void CompareSchema(const OpSchema& ours, const JsonValue& ref, Differences& diffs) {
  const std::string where = ours.DebugName();
  diffs.Check(where, "domain", ours.domain(), ref["domain"].string_value());
  diffs.Check(where, "deprecated", ours.deprecated(), ref["deprecated"].bool_value());
  diffs.Check(where, "has_function_body", ours.has_function_body(),
              ref["has_function_body"].bool_value());
  diffs.Check(where, "min_input", ours.min_input(), ref["min_input"].int_value());
  diffs.Check(where, "max_input", ours.max_input(), ref["max_input"].int_value());
  diffs.Check(where, "min_output", ours.min_output(), ref["min_output"].int_value());
  diffs.Check(where, "max_output", ours.max_output(), ref["max_output"].int_value());
  CompareParams(where, "input", ours.inputs(), ref["inputs"], diffs);
  CompareParams(where, "output", ours.outputs(), ref["outputs"], diffs);
  CompareAttributes(where, ours, ref["attributes"], diffs);
  CompareTypeConstraints(where, ours, ref["type_constraints"], diffs);
}

// The reference JSON, parsed once for all tests.
const JsonValue* reference = nullptr;

class SchemaTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::ReferenceDir().has_value()) {
      static bool banner_printed = false;
      if (!banner_printed) std::printf("%s\n", testing::MissingReferenceMessage().c_str());
      banner_printed = true;
      GTEST_SKIP() << "ONNX_REFERENCE_DIR is not set; comparison with the reference skipped";
    }
    if (reference == nullptr) {
      absl::StatusOr<std::string> text = testing::ReadReferenceFile("onnx_op_schemas.json");
      ASSERT_TRUE(text.ok()) << text.status();
      absl::StatusOr<JsonValue> json = testing::ParseJson(*text);
      ASSERT_TRUE(json.ok()) << json.status();
      reference = new JsonValue(*std::move(json));
    }
  }
};

TEST_F(SchemaTableTest, EverySchemaMatchesTheReference) {
  const JsonValue& schemas = (*reference)["schemas"];
  ASSERT_TRUE(schemas.is_array());
  Differences diffs;
  std::set<std::tuple<std::string, std::string, int64_t>> in_reference;
  int compared = 0;
  for (const JsonValue& ref : schemas.items()) {
    const std::string& domain = ref["domain"].string_value();
    const std::string& op = ref["op_type"].string_value();
    const int64_t version = ref["since_version"].int_value();
    in_reference.emplace(domain, op, version);
    const OpSchema* ours = Find(domain, op, static_cast<int>(version));
    if (ours == nullptr) {
      diffs.Add(absl::StrCat(domain, "::", op, "-", version), "missing from our table");
      continue;
    }
    CompareSchema(*ours, ref, diffs);
    ++compared;
  }
  for (const OpSchema* each : AllSchemas()) {
    const OpSchema& s = *each;
    if (s.domain() == kMicrosoftDomain) continue;  // onnxruntime's, not ONNX's (defs/contrib_*.cc)
    // onnxruntime's in the default domain (defs/contrib_nn.cc: kOnnxruntimeOnnxDomainFamily).
    if (s.domain() == kOnnxDomain && s.op_type() == "SimplifiedLayerNormalization") continue;
    if (!in_reference.contains({s.domain(), s.op_type(), s.since_version()})) {
      diffs.Add(s.DebugName(), "not in the reference");
    }
  }
  std::printf("compared %d schema versions (reference: %zu, ours: %zu), %zu difference(s)\n",
              compared, schemas.size(), AllSchemas().size(), diffs.lines().size());
  EXPECT_EQ(compared, static_cast<int>(schemas.size()));
  EXPECT_TRUE(diffs.lines().empty()) << diffs.Report();
}

TEST_F(SchemaTableTest, MaxOpsetsMatchTheReference) {
  const JsonValue& max_opset = (*reference)["max_opset"];
  ASSERT_TRUE(max_opset.is_object());
  for (size_t i = 0; i < max_opset.size(); ++i) {
    absl::StatusOr<int> ours = MaxOpset(max_opset.keys()[i]);
    ASSERT_TRUE(ours.ok()) << ours.status();
    EXPECT_EQ(*ours, max_opset.items()[i].int_value()) << max_opset.keys()[i];
  }
  // Domains the reference gives no maximum for (the preview ones): ours must cover every schema.
  std::map<std::string, int> newest;
  for (const OpSchema* each : AllSchemas()) {
    const OpSchema& s = *each;
    newest[s.domain()] = std::max(newest[s.domain()], s.since_version());
  }
  for (const auto& [domain, version] : newest) {
    absl::StatusOr<int> ours = MaxOpset(domain);
    ASSERT_TRUE(ours.ok()) << ours.status();
    EXPECT_GE(*ours, version) << domain;
    if (!max_opset.has(domain)) {
      EXPECT_EQ(*ours, version) << domain;
    }
  }
}

TEST_F(SchemaTableTest, ReleaseTableMatchesTheReference) {
  const JsonValue& rows = (*reference)["version_table"];
  ASSERT_TRUE(rows.is_array());
  absl::Span<const Release> ours = Releases();
  ASSERT_EQ(ours.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const JsonValue& row = rows.items()[i];
    const Release& r = ours[i];
    EXPECT_EQ(std::string(r.name), row["release"].string_value()) << "row " << i;
    EXPECT_EQ(r.ir_version, row["ir_version"].int_value()) << r.name;
    for (size_t k = 0; k < row.size(); ++k) {
      const std::string& key = row.keys()[k];
      if (key == "release" || key == "ir_version") continue;
      EXPECT_EQ(OpsetInRelease(r, key), row.items()[k].int_value()) << r.name << " " << key;
    }
    // A domain the row does not list must be absent (0) on our side too.
    for (std::string_view domain :
         {std::string_view("ai.onnx"), std::string_view("ai.onnx.ml"), kTrainingReleaseDomain}) {
      if (!row.has(domain)) {
        EXPECT_EQ(OpsetInRelease(r, domain), 0) << r.name << " " << domain;
      }
    }
  }
}

// onnx_op_versions.tsv repeats part of the JSON (without the preview domains) in another shape;
// checking it too guards against a JSON field being read wrongly.
TEST_F(SchemaTableTest, VersionListAgreesWithTheReference) {
  absl::StatusOr<std::string> tsv = testing::ReadReferenceFile("onnx_op_versions.tsv");
  ASSERT_TRUE(tsv.ok()) << tsv.status();
  Differences diffs;
  int rows = 0;
  bool header = true;
  for (absl::string_view line : absl::StrSplit(*tsv, '\n', absl::SkipEmpty())) {
    if (header) {
      EXPECT_EQ(line,
                "domain\top_type\tsince_version\tdeprecated\tn_inputs\tn_outputs\tattributes");
      header = false;
      continue;
    }
    const std::vector<std::string> f = absl::StrSplit(line, '\t');
    ASSERT_EQ(f.size(), 7u) << line;
    int version = 0;
    ASSERT_TRUE(absl::SimpleAtoi(f[2], &version)) << line;
    ++rows;
    const OpSchema* s = Find(f[0], f[1], version);
    const std::string where = absl::StrCat(f[0], "::", f[1], "-", version);
    if (s == nullptr) {
      diffs.Add(where, "missing from our table");
      continue;
    }
    auto range = [](int lo, int hi) {
      return absl::StrCat(lo, "-", hi == kUnbounded ? std::string("inf") : absl::StrCat(hi));
    };
    diffs.Check(where, "deprecated", std::string(s->deprecated() ? "1" : "0"), f[3]);
    diffs.Check(where, "inputs", range(s->min_input(), s->max_input()), f[4]);
    diffs.Check(where, "outputs", range(s->min_output(), s->max_output()), f[5]);
    // name:TYPE, "!" when required, "=default" in Python's notation (compared via the JSON).
    std::vector<std::string> ref_attrs;
    for (absl::string_view a : absl::StrSplit(f[6], ',', absl::SkipEmpty())) {
      std::string head(a.substr(0, a.find('=')));
      ref_attrs.push_back(head);
    }
    std::vector<std::string> our_attrs;
    for (const AttributeSpec& a : s->attributes()) {
      our_attrs.push_back(
          absl::StrCat(a.name, ":", Sv(AttrTypeName(a.type)), a.required ? "!" : ""));
    }
    diffs.Check(where, "attributes", absl::StrJoin(our_attrs, ","), absl::StrJoin(ref_attrs, ","));
  }
  std::printf("checked %d rows of onnx_op_versions.tsv\n", rows);
  EXPECT_GT(rows, 0);
  EXPECT_TRUE(diffs.lines().empty()) << diffs.Report();
}

}  // namespace
}  // namespace onnx_opt::schema
