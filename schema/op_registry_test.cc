#include "schema/op_registry.h"

#include <cmath>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "schema/domains.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema {
namespace {

std::string Message(const absl::Status& status) { return std::string(status.message()); }

// Operators are built on their first lookup; threads that meet one at once must see one build.
// First in this file, so that no other test has built these operators yet.
TEST(LazyRegistryTest, ConcurrentFirstLookupsAgree) {
  const std::vector<std::string> ops = {
      "STFT",           "DFT",        "Col2Im", "ImageDecoder",  "StringSplit",
      "RegexFullMatch", "AffineGrid", "Gelu",   "CenterCropPad", "BlackmanWindow"};
  std::vector<std::vector<const OpSchema*>> seen(8);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] {
      for (const std::string& op : ops) {
        for (int v : Versions("", op)) seen[t].push_back(Find("", op, v));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_FALSE(seen[0].empty());
  for (size_t t = 1; t < seen.size(); ++t) EXPECT_EQ(seen[t], seen[0]);
  for (const OpSchema* s : seen[0]) EXPECT_NE(s, nullptr);
}

TEST(FindTest, ExactVersionOnly) {
  const OpSchema* abs13 = Find("", "Abs", 13);
  ASSERT_NE(abs13, nullptr);
  EXPECT_EQ(abs13->op_type(), "Abs");
  EXPECT_EQ(abs13->since_version(), 13);
  EXPECT_EQ(Find("", "Abs", 12), nullptr);
  EXPECT_EQ(Find("", "NoSuchOp", 13), nullptr);
  EXPECT_EQ(Find("com.example", "Abs", 13), nullptr);
}

TEST(FindTest, DefaultDomainHasTwoSpellings) {
  const OpSchema* empty = Find("", "Relu", 14);
  const OpSchema* named = Find("ai.onnx", "Relu", 14);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty, named);
  EXPECT_EQ(empty->domain(), "ai.onnx");  // stored canonical, never ""
  absl::StatusOr<const OpSchema*> in_force = FindInForce("", "Relu", 20);
  ASSERT_TRUE(in_force.ok()) << in_force.status();
  EXPECT_EQ(*in_force, *FindInForce(kOnnxDomain, "Relu", 20));
  EXPECT_EQ(*MaxOpset(""), *MaxOpset("ai.onnx"));
  EXPECT_EQ(Versions("", "Relu").size(), Versions("ai.onnx", "Relu").size());
}

TEST(FindInForceTest, LargestVersionNotAboveOpset) {
  struct Case {
    int64_t opset;
    int expected;
  };
  for (const Case& c :
       {Case{1, 1}, Case{5, 1}, Case{6, 6}, Case{12, 6}, Case{13, 13}, Case{28, 13}}) {
    absl::StatusOr<const OpSchema*> s = FindInForce("", "Abs", c.opset);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ((*s)->since_version(), c.expected) << "opset " << c.opset;
  }
}

TEST(FindInForceTest, NotYetIntroduced) {
  absl::StatusOr<const OpSchema*> s = FindInForce("", "Acos", 5);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(Message(s.status()),
            "operator Acos is not defined in domain ai.onnx at opset 5 (introduced at opset 7)");
  EXPECT_TRUE(FindInForce("", "Acos", 7).ok());
}

TEST(FindInForceTest, RemovedOperator) {
  // Upsample-10 is deprecated: Upsample no longer exists from opset 10 on (use Resize).
  ASSERT_TRUE(FindInForce("", "Upsample", 9).ok());
  EXPECT_EQ((*FindInForce("", "Upsample", 9))->since_version(), 9);
  for (int64_t opset : {10, 11, 28}) {
    absl::StatusOr<const OpSchema*> s = FindInForce("", "Upsample", opset);
    ASSERT_FALSE(s.ok()) << opset;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
    EXPECT_EQ(Message(s.status()), "operator Upsample is not defined in domain ai.onnx at opset " +
                                       std::to_string(opset) + " (removed at opset 10)");
  }
  // The deprecated schema itself stays findable by its exact version.
  const OpSchema* upsample10 = Find("", "Upsample", 10);
  ASSERT_NE(upsample10, nullptr);
  EXPECT_TRUE(upsample10->deprecated());

  EXPECT_EQ(Message(FindInForce("", "Scatter", 13).status()),
            "operator Scatter is not defined in domain ai.onnx at opset 13 (removed at opset 11)");
}

TEST(FindInForceTest, RemovedThenDefinedAgain) {
  // GroupNormalization-18 was withdrawn (deprecated) and replaced by GroupNormalization-21.
  absl::StatusOr<const OpSchema*> s = FindInForce("", "GroupNormalization", 19);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(Message(s.status()),
            "operator GroupNormalization is not defined in domain ai.onnx at opset 19 (removed "
            "at opset 18, defined again at opset 21)");
  absl::StatusOr<const OpSchema*> v21 = FindInForce("", "GroupNormalization", 21);
  ASSERT_TRUE(v21.ok()) << v21.status();
  EXPECT_EQ((*v21)->since_version(), 21);
  EXPECT_FALSE(FindInForce("", "GroupNormalization", 17).ok());  // not yet introduced
}

TEST(FindInForceTest, MlDomain) {
  absl::StatusOr<const OpSchema*> s = FindInForce(kMlDomain, "TreeEnsembleClassifier", 4);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->since_version(), 3);
  EXPECT_EQ((*s)->domain(), "ai.onnx.ml");
  EXPECT_EQ(Message(FindInForce(kMlDomain, "TreeEnsembleClassifier", 5).status()),
            "operator TreeEnsembleClassifier is not defined in domain ai.onnx.ml at opset 5 "
            "(removed at opset 5)");
  // ML operators are not in the default domain.
  EXPECT_EQ(FindInForce("", "TreeEnsemble", 21).status().code(), absl::StatusCode::kNotFound);
}

TEST(FindInForceTest, UnknownOperatorDomainAndOpset) {
  absl::StatusOr<const OpSchema*> op = FindInForce("", "Foo", 13);
  EXPECT_EQ(op.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(Message(op.status()), "operator Foo is not defined in domain ai.onnx");

  absl::StatusOr<const OpSchema*> domain = FindInForce("com.example", "Foo", 1);
  EXPECT_EQ(domain.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(Message(domain.status()), "operator Foo is not defined: unknown domain 'com.example'");

  for (int64_t opset : {0, -1, 29}) {
    absl::StatusOr<const OpSchema*> s = FindInForce("", "Abs", opset);
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << opset;
  }
  EXPECT_EQ(Message(FindInForce("", "Abs", 29).status()),
            "opset 29 of domain ai.onnx is not one we know (1 to 28)");
}

TEST(VersionsTest, SortedSinceVersions) {
  absl::Span<const int> abs = Versions("", "Abs");
  EXPECT_EQ(std::vector<int>(abs.begin(), abs.end()), (std::vector<int>{1, 6, 13}));
  absl::Span<const int> upsample = Versions("ai.onnx", "Upsample");
  EXPECT_EQ(std::vector<int>(upsample.begin(), upsample.end()),
            (std::vector<int>{1, 7, 9, 10}));  // the deprecated version is listed
  EXPECT_TRUE(Versions("", "Foo").empty());
  EXPECT_TRUE(Versions("com.example", "Abs").empty());
}

TEST(MaxOpsetTest, KnownDomains) {
  EXPECT_EQ(*MaxOpset(""), 28);
  EXPECT_EQ(*MaxOpset(kOnnxDomain), 28);
  EXPECT_EQ(*MaxOpset(kMlDomain), 5);
  EXPECT_EQ(*MaxOpset(kPreviewTrainingDomain), 1);
  EXPECT_EQ(*MaxOpset(kPreviewDomain), 1);
  EXPECT_EQ(MaxOpset("com.example").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(*MaxOpset(kMicrosoftDomain), 1);
}

// com.microsoft is open: some of its operators have schemas, the others are unknown, and an opset
// above 1 reads as 1.
TEST(FindInForceTest, MicrosoftDomain) {
  absl::StatusOr<const OpSchema*> s = FindInForce(kMicrosoftDomain, "SkipLayerNormalization", 1);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->domain(), "com.microsoft");
  EXPECT_TRUE(FindInForce(kMicrosoftDomain, "GroupQueryAttention", 3).ok());
  EXPECT_EQ(FindInForce(kMicrosoftDomain, "QOrderedMatMul", 1).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_TRUE(IsOpenDomain(kMicrosoftDomain));
  EXPECT_FALSE(IsOpenDomain(kOnnxDomain));
}

TEST(AllSchemasTest, SortedAndUnique) {
  absl::Span<const OpSchema* const> all = AllSchemas();
  ASSERT_FALSE(all.empty());
  for (size_t i = 1; i < all.size(); ++i) {
    const OpSchema& a = *all[i - 1];
    const OpSchema& b = *all[i];
    EXPECT_LT(std::make_tuple(a.domain(), a.op_type(), a.since_version()),
              std::make_tuple(b.domain(), b.op_type(), b.since_version()));
  }
  for (const OpSchema* s : all) {
    EXPECT_EQ(Find(s->domain(), s->op_type(), s->since_version()), s) << s->DebugName();
  }
}

// A few facts read back through the public types, independent of the reference data.
TEST(SchemaContentTest, ParametersAndArity) {
  const OpSchema* conv = Find("", "Conv", 22);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->min_input(), 2);
  EXPECT_EQ(conv->max_input(), 3);
  ASSERT_EQ(conv->inputs().size(), 3u);
  EXPECT_EQ(conv->inputs()[2].name, "B");
  EXPECT_EQ(conv->inputs()[2].option, ParamOption::kOptional);
  EXPECT_EQ(conv->inputs()[0].differentiability, Differentiability::kDifferentiable);

  const OpSchema* concat = Find("", "Concat", 13);
  ASSERT_NE(concat, nullptr);
  EXPECT_EQ(concat->inputs()[0].option, ParamOption::kVariadic);
  EXPECT_EQ(concat->max_input(), kUnbounded);

  // An optional output before a single one is positionally required.
  const OpSchema* gru1 = Find("", "GRU", 1);
  ASSERT_NE(gru1, nullptr);
  EXPECT_EQ(gru1->min_output(), 2);

  const OpSchema* loop = Find("", "Loop", 16);
  ASSERT_NE(loop, nullptr);
  const FormalParameter& v_initial = loop->inputs()[2];
  EXPECT_FALSE(v_initial.homogeneous);
  EXPECT_EQ(v_initial.min_arity, 0);
  EXPECT_EQ(loop->min_input(), 2);
}

TEST(SchemaContentTest, AttributesAndDefaults) {
  const OpSchema* leaky = Find("", "LeakyRelu", 16);
  ASSERT_NE(leaky, nullptr);
  const AttributeSpec* alpha = leaky->FindAttribute("alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(alpha->type, AttrType::kFloat);
  EXPECT_EQ(std::get<float>(alpha->default_value), 0.01f);
  EXPECT_EQ(leaky->FindAttribute("beta"), nullptr);

  const AttributeSpec* to = Find("", "Cast", 19)->FindAttribute("to");
  ASSERT_NE(to, nullptr);
  EXPECT_TRUE(to->required);
  EXPECT_FALSE(to->has_default());

  EXPECT_EQ(std::get<std::vector<int64_t>>(
                Find("", "MeanVarianceNormalization", 13)->FindAttribute("axes")->default_value),
            (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(std::get<std::vector<std::string>>(
                Find("", "RNN", 22)->FindAttribute("activations")->default_value),
            (std::vector<std::string>{"Tanh", "Tanh"}));
  const float minus_zero = std::get<float>(
      Find(kMlDomain, "LabelEncoder", 2)->FindAttribute("default_float")->default_value);
  EXPECT_EQ(minus_zero, 0.0f);
  EXPECT_TRUE(std::signbit(minus_zero));

  const OpSchema* if1 = Find("", "If", 1);
  EXPECT_EQ(if1->FindAttribute("then_branch")->type, AttrType::kGraph);
  EXPECT_EQ(AttrTypeName(AttrType::kSparseTensor), "SPARSE_TENSOR");
  EXPECT_EQ(static_cast<int>(AttrType::kTypeProtos), 14);
}

TEST(SchemaContentTest, TypeConstraints) {
  const OpSchema* abs = Find("", "Abs", 6);
  const TypeConstraintSpec* t = abs->FindTypeConstraint("T");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->allowed.size(), 11u);
  EXPECT_EQ(t->allowed.front(), "tensor(uint8)");
  EXPECT_EQ(abs->FindTypeConstraint("T1"), nullptr);

  const OpSchema* seq_at = Find("", "SequenceAt", 11);
  EXPECT_EQ(seq_at->FindTypeConstraint("S")->allowed.front(), "seq(tensor(uint8))");
  EXPECT_EQ(seq_at->inputs()[1].type_str, "I");

  EXPECT_TRUE(Find("", "Celu", 12)->has_function_body());
  EXPECT_FALSE(Find("", "Abs", 13)->has_function_body());
}

}  // namespace
}  // namespace onnx_opt::schema
