// Runs every adapter on a model and checks what it produced. For each ai.onnx operator and each of
// its versions, a one-node model is made from the schema (every required input a tensor of one type
// and shape, no attributes; the first shape that passes the checker and runs in the interpreter)
// and hand-written cases (sweep_cases/sweep_cases.h) add nodes that need attributes or constant
// inputs. Each model is converted to every other version boundary of its operators (a hand-written
// case also from its newest boundary back down); every conversion that succeeds must pass the
// checker and compute the same outputs as the model it came from.
//
// The driver reports each adapter it runs (SetAdapterObserver). Adapters no model exercised are
// listed in converter/adapter_sweep_uncovered.txt, which must match exactly: a new case that
// covers one must remove it from the list, and an adapter that stops being covered fails the test.
// Run with --print_uncovered to print the list.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "converter/adapter.h"
#include "converter/convert.h"
#include "converter/testing/sweep_cases/sweep_cases.h"
#include "converter/testing/test_util.h"
#include "equivalence/equivalence.h"
#include "gtest/gtest.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/verifier.h"
#include "schema/checker/checker.h"
#include "schema/inference/inference.h"
#include "schema/op_registry.h"

namespace onnx_opt::converter {
namespace {

bool print_uncovered = false;

using AdapterKey = std::tuple<std::string, std::string, int, int>;

std::string KeyName(const AdapterKey& k) {
  return absl::StrCat(std::get<0>(k), " ", std::get<1>(k), " ", std::get<2>(k), "->",
                      std::get<3>(k));
}

// The text-syntax element type for a type constraint's allowed list, preferring float.
std::optional<std::string> PickType(const std::vector<std::string_view>& allowed) {
  for (const char* t : {"float", "int64", "int32", "bool", "double", "uint8", "string"}) {
    const std::string want = absl::StrCat("tensor(", t, ")");
    for (std::string_view a : allowed) {
      if (a == want) return std::string(t);
    }
  }
  return std::nullopt;
}

std::optional<std::string> ElemTypeFor(const schema::OpSchema& s, const std::string& type_str) {
  if (type_str.rfind("tensor(", 0) == 0) return PickType({type_str});
  for (const schema::TypeConstraintSpec& c : s.type_constraints()) {
    if (c.param == type_str) return PickType(c.allowed);
  }
  return std::nullopt;
}

// A one-node model of `s` at opset `opset` with inputs of `shape`, or nullopt when the schema needs
// what this cannot make up (attributes, sequences, maps).
std::optional<std::string> OneNodeModel(const schema::OpSchema& s, int opset,
                                        const std::string& shape) {
  for (const schema::AttributeSpec& a : s.attributes()) {
    if (a.required) return std::nullopt;
  }
  std::vector<std::string> params, args, outs;
  for (size_t i = 0; i < s.inputs().size(); ++i) {
    const schema::FormalParameter& p = s.inputs()[i];
    if (p.option == schema::ParamOption::kOptional) break;  // later inputs would need it present
    std::optional<std::string> type = ElemTypeFor(s, p.type_str);
    if (!type) return std::nullopt;
    const int count = p.option == schema::ParamOption::kVariadic ? std::max(1, p.min_arity) : 1;
    for (int k = 0; k < count; ++k) {
      const std::string name = absl::StrCat("x", params.size());
      params.push_back(absl::StrCat(*type, shape, " ", name));
      args.push_back(name);
    }
  }
  for (size_t i = 0; i < s.outputs().size(); ++i) {
    if (s.outputs()[i].option == schema::ParamOption::kOptional) break;
    if (s.outputs()[i].option == schema::ParamOption::kVariadic) return std::nullopt;
    outs.push_back(absl::StrCat("y", i));
  }
  if (outs.empty()) return std::nullopt;
  return absl::StrCat("<ir_version: 13, opset_import: [\"\" : ", opset, "]>\ng (",
                      absl::StrJoin(params, ", "), ") => (", absl::StrJoin(outs, ", "), ") {\n  ",
                      absl::StrJoin(outs, ", "), " = ", s.op_type(), "(", absl::StrJoin(args, ", "),
                      ")\n}\n");
}

// Parses, checks and (unless `check_only`) runs `text`; null when it is not a valid, runnable
// model.
std::unique_ptr<ir::Model> UsableModel(const std::string& text, std::string* why,
                                       bool check_only = false) {
  if (std::getenv("SWEEP_VERBOSE") != nullptr) std::cerr << "trying:\n" << text;
  absl::StatusOr<std::unique_ptr<ir::Model>> m = ir::text::ParseModel(text);
  if (!m.ok()) {
    *why = std::string(m.status().message());
    return nullptr;
  }
  // Output types come from inference (strict: an operator whose inputs make no sense is refused).
  schema::inference::InferOptions io;
  io.strict = true;
  io.fill_value_info = false;
  if (absl::Status i = schema::inference::InferShapes(**m, io); !i.ok()) {
    *why = std::string(i.message());
    return nullptr;
  }
  schema::checker::CheckOptions co;
  co.require_main_graph_shapes = false;
  if (absl::Status c = schema::checker::CheckModel(**m, co); !c.ok()) {
    *why = std::string(c.message());
    return nullptr;
  }
  if (check_only) return std::move(*m);
  if (absl::Status e = equivalence::CheckEquivalent(**m, **m); !e.ok()) {
    *why = std::string(e.message());
    return nullptr;
  }
  return std::move(*m);
}

struct SweepResult {
  int models = 0;
  int conversions = 0;
  int refused = 0;
  std::vector<std::string> failures;
};

// Converts `model`'s opset of `domain` ("ai.onnx" or "ai.onnx.ml").
absl::StatusOr<std::unique_ptr<ir::Model>> ConvertDomain(const ir::Model& model,
                                                         const std::string& domain, int target) {
  if (domain == "ai.onnx") return testing::ConvertTo(model, target, /*infer=*/true);
  ConvertOptions options;
  options.ml_opset = target;
  return ConvertModel(model, options);
}

// Converts `model`'s opset of `domain` to each of `targets`, checking every result.
void Sweep(const std::string& label, const ir::Model& model, const std::string& domain, int base,
           const std::set<int>& targets, SweepResult& result) {
  ++result.models;
  for (int target : targets) {
    if (target == base) continue;
    absl::StatusOr<std::unique_ptr<ir::Model>> got = ConvertDomain(model, domain, target);
    if (!got.ok()) {
      ++result.refused;
      continue;
    }
    ++result.conversions;
    if (std::getenv("SWEEP_VERBOSE") != nullptr) {
      std::cerr << label << " opset " << base << " -> " << target << "\n"
                << ir::text::PrintModel(**got);
    }
    std::string problem;
    if (absl::Status v = ir::Verify(**got); !v.ok()) {
      problem = absl::StrCat("structure: ", v.message());
    } else {
      schema::checker::CheckOptions co;
      co.require_main_graph_shapes = false;
      if (absl::Status c = schema::checker::CheckModel(**got, co); !c.ok()) {
        problem = absl::StrCat("checker: ", c.message());
      } else if (absl::Status e = equivalence::CheckEquivalent(model, **got); !e.ok()) {
        problem = absl::StrCat("outputs: ", e.message());
      }
    }
    if (!problem.empty()) {
      result.failures.push_back(absl::StrCat(label, " opset ", base, " -> ", target, ": ", problem,
                                             "\nbefore:\n", ir::text::PrintModel(model), "after:\n",
                                             ir::text::PrintModel(**got)));
    }
  }
}

// The version boundaries to convert a model of `op` at `base` to: every other version of the op,
// and the opset before the op existed.
std::set<int> TargetsFor(const std::string& domain, const std::string& op) {
  std::set<int> targets;
  absl::Span<const int> versions = schema::Versions(domain, op);
  for (int v : versions) targets.insert(v);
  if (!versions.empty() && versions.front() > 1) targets.insert(versions.front() - 1);
  return targets;
}

std::set<AdapterKey> ReadUncoveredList() {
  std::set<AdapterKey> listed;
  std::ifstream in("converter/adapter_sweep_uncovered.txt");
  EXPECT_TRUE(in.good()) << "cannot read converter/adapter_sweep_uncovered.txt";
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string domain, op, step;
    fields >> domain >> op >> step;
    const size_t arrow = step.find("->");
    if (arrow == std::string::npos) {
      ADD_FAILURE() << "bad line in the uncovered list: " << line;
      continue;
    }
    listed.insert(
        {domain, op, std::stoi(step.substr(0, arrow)), std::stoi(step.substr(arrow + 2))});
  }
  return listed;
}

TEST(AdapterSweep, EveryAdapterRunsAndKeepsOutputs) {
  std::set<AdapterKey> ran, converted;
  SetAdapterObserver([&](const AdapterEntry& e, bool ok) {
    AdapterKey key{e.domain, e.op, e.from, e.to};
    ran.insert(key);
    if (ok) converted.insert(key);
  });

  SweepResult result;
  int unmade = 0;
  std::set<std::pair<std::string, std::string>> ops;
  for (const schema::OpSchema* each : schema::AllSchemas()) {
    const schema::OpSchema& s = *each;
    if (s.domain() == "ai.onnx") ops.insert({s.domain(), s.op_type()});
  }
  for (const auto& [domain, op] : ops) {
    const std::set<int> targets = TargetsFor(domain, op);
    for (int base : schema::Versions(domain, op)) {
      const schema::OpSchema* s = schema::Find(domain, op, base);
      if (s == nullptr || s->deprecated()) continue;
      std::unique_ptr<ir::Model> model;
      for (const char* shape : {"[3,3]", "[1,3,4,4]", "[2,3,4]", "[4]", ""}) {
        std::optional<std::string> text = OneNodeModel(*s, base, shape);
        if (!text) break;
        std::string why;
        model = UsableModel(*text, &why);
        if (model) break;
      }
      if (!model) {
        ++unmade;
        continue;
      }
      Sweep(absl::StrCat(op, "-", base), *model, "ai.onnx", base, targets, result);
    }
  }
  int hand_written = 0;
  for (const SweepCase& c : SweepCases()) {
    SCOPED_TRACE(c.name);
    std::string why;
    std::unique_ptr<ir::Model> model = UsableModel(c.model, &why, c.refusal_only);
    if (model == nullptr) {
      ADD_FAILURE() << c.name << " is not a usable model: " << why << "\n" << c.model;
      continue;
    }
    ++hand_written;
    if (c.refusal_only) {
      // Below the opset that introduced each operator, conversion must fail with a message.
      for (const ir::Node* n : model->graph().nodes()) {
        absl::Span<const int> versions = schema::Versions("ai.onnx", n->op_type());
        if (versions.empty() || versions.front() <= 1) continue;
        absl::StatusOr<std::unique_ptr<ir::Model>> down =
            ConvertDomain(*model, "ai.onnx", versions.front() - 1);
        EXPECT_FALSE(down.ok()) << c.name << ": converting below " << n->op_type() << "-"
                                << versions.front() << " should be refused";
        if (!down.ok()) {
          EXPECT_NE(down.status().message().find(n->op_type()), std::string::npos) << down.status();
          ++result.refused;
        }
      }
      continue;
    }
    // The case's ai.onnx opset, and its ai.onnx.ml one when it imports that domain.
    for (const std::string domain : {"ai.onnx", "ai.onnx.ml"}) {
      std::optional<int64_t> opset = model->OpsetVersion(domain == "ai.onnx" ? "" : domain);
      if (!opset) continue;
      std::set<int> targets;
      for (const ir::Node* n : model->graph().nodes()) {
        const bool in_domain = domain == "ai.onnx" ? n->is_onnx_domain() : n->domain() == domain;
        if (!in_domain) continue;
        for (int t : TargetsFor(domain, n->op_type())) targets.insert(t);
      }
      const int base = static_cast<int>(*opset);
      Sweep(c.name, *model, domain, base, targets, result);
      // And back down from the newest version boundary it converts to, so that the downward
      // adapters run too.
      for (auto top = targets.rbegin(); top != targets.rend() && *top > base; ++top) {
        absl::StatusOr<std::unique_ptr<ir::Model>> up = ConvertDomain(*model, domain, *top);
        if (!up.ok()) continue;
        Sweep(absl::StrCat(c.name, " (at ", domain, " opset ", *top, ")"), **up, domain, *top,
              targets, result);
        break;
      }
    }
  }
  SetAdapterObserver(nullptr);

  for (const std::string& f : result.failures) ADD_FAILURE() << f;

  // Coverage: an adapter counts when it converted a node, or, for refusals, when it was asked to.
  std::set<AdapterKey> uncovered;
  int total = 0;
  for (const AdapterEntry* entry : AdapterRegistry::Global().AllEntries()) {
    if (entry->domain != "ai.onnx" && entry->domain != "ai.onnx.ml") continue;
    const AdapterKey key{entry->domain, entry->op, entry->from, entry->to};
    ++total;
    const bool covered =
        entry->kind == AdapterKind::kRefuse ? ran.contains(key) : converted.contains(key);
    if (!covered) uncovered.insert(key);
  }
  std::cout << "adapter sweep: " << result.models << " models (" << hand_written
            << " hand-written, " << unmade << " operator versions without a generated model), "
            << result.conversions << " conversions checked, " << result.refused
            << " refused; ai.onnx and ai.onnx.ml adapters exercised: " << (total - uncovered.size())
            << " of " << total << "\n";
  if (print_uncovered) {
    std::cout << "# adapters no sweep model exercises (domain op from->to; 0: not defined, -1: "
                 "removed)\n";
    for (const AdapterKey& k : uncovered) std::cout << KeyName(k) << "\n";
  }
  const std::set<AdapterKey> listed = ReadUncoveredList();
  for (const AdapterKey& k : uncovered) {
    EXPECT_TRUE(listed.contains(k)) << KeyName(k) << " is no longer exercised by any sweep model";
  }
  for (const AdapterKey& k : listed) {
    EXPECT_TRUE(uncovered.contains(k))
        << KeyName(k) << " is exercised now: remove it from adapter_sweep_uncovered.txt";
  }
}

}  // namespace
}  // namespace onnx_opt::converter

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--print_uncovered") == 0) onnx_opt::converter::print_uncovered = true;
  }
  return RUN_ALL_TESTS();
}
