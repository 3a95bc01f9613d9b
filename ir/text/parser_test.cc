#include "ir/text/parser.h"

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ir/captures.h"
#include "ir/verifier.h"

namespace onnx_opt::ir::text {
namespace {

std::unique_ptr<Model> Parse(std::string_view text, bool verify = true) {
  absl::StatusOr<std::unique_ptr<Model>> m = ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status() << "\n" << text;
  if (!m.ok()) return nullptr;
  absl::Status v = verify ? Verify(**m) : absl::OkStatus();
  EXPECT_TRUE(v.ok()) << v << "\n" << text;
  return std::move(*m);
}

std::string ParseError(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Model>> m = ParseModel(text);
  EXPECT_FALSE(m.ok()) << text;
  return m.ok() ? "" : std::string(m.status().message());
}

Node* NodeAt(const Graph& g, size_t i) {
  Node* n = g.first_node();
  while (i-- > 0 && n != nullptr) n = n->next();
  return n;
}

// A graph "g (inputs) => (outputs) { nodes }" wrapped as a model.
std::unique_ptr<Model> ParseNodes(std::string_view signature, std::string_view nodes) {
  return Parse(absl::StrCat("<ir_version: 10, opset_import: [\"\" : 21]>\ng ",
                            std::string(signature), "\n{\n", std::string(nodes), "\n}\n"));
}

const Attribute& Attr(const Model& m, size_t node, std::string_view name) {
  static const Attribute* const kMissing = new Attribute();
  const Attribute* a = NodeAt(m.graph(), node)->FindAttribute(name);
  if (a == nullptr) ADD_FAILURE() << "no attribute " << name;
  return a != nullptr ? *a : *kMissing;
}

std::unique_ptr<Model> ParseAttrs(std::string_view attrs) {
  return ParseNodes("(float X) => (float Y)", absl::StrCat("Y = Op<", std::string(attrs), ">(X)"));
}

TEST(ParserTest, MinimalModel) {
  auto m = Parse(
      R"(<ir_version: 10, opset_import: ["" : 21]> agraph (float[N] X) => (float[N] Y) { Y = Relu(X) })");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->ir_version(), 10);
  ASSERT_EQ(m->opset_imports().size(), 1u);
  EXPECT_EQ(m->opset_imports()[0], (OpsetImport{"", 21}));
  const Graph& g = m->graph();
  EXPECT_EQ(g.name(), "agraph");
  ASSERT_EQ(g.inputs().size(), 1u);
  EXPECT_EQ(g.inputs()[0]->name(), "X");
  EXPECT_EQ(g.inputs()[0]->type(), Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N")})));
  ASSERT_EQ(g.num_nodes(), 1u);
  const Node* relu = g.first_node();
  EXPECT_EQ(relu->op_type(), "Relu");
  EXPECT_EQ(relu->domain(), "");
  EXPECT_EQ(relu->input(0), g.inputs()[0]);
  ASSERT_EQ(g.outputs().size(), 1u);
  EXPECT_EQ(g.outputs()[0], relu->output(0));
  EXPECT_EQ(relu->output(0)->type(), Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N")})));
}

TEST(ParserTest, ModelHeader) {
  auto m = Parse(R"(
<
  ir_version: 7,
  opset_import: [ "" : 13, "ai.onnx.ml" : 3 ],
  producer_name: "ParserTest",
  producer_version: "1.0",
  domain: "ai.onnx.ml",
  model_version: 5,
  doc_string: "A model.\nSecond line.",
  metadata_props: [ "somekey" : "somevalue", "key2" : "value2" ]
>
agraph (float[N] y) => (float[N] w) { w = Identity(y) }
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->ir_version(), 7);
  EXPECT_EQ(m->opset_imports(), (std::vector<OpsetImport>{{"", 13}, {"ai.onnx.ml", 3}}));
  EXPECT_EQ(m->producer_name(), "ParserTest");
  EXPECT_EQ(m->producer_version(), "1.0");
  EXPECT_EQ(m->domain(), "ai.onnx.ml");
  EXPECT_EQ(m->model_version(), 5);
  EXPECT_EQ(m->doc_string(), "A model.\nSecond line.");
  EXPECT_EQ(m->metadata_props(), (StringPairs{{"somekey", "somevalue"}, {"key2", "value2"}}));
}

TEST(ParserTest, NoHeaderAndEmptyHeader) {
  auto m = Parse("g (float x) => (float x) {}");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->ir_version(), 0);
  EXPECT_FALSE(m->model_version().has_value());
  EXPECT_EQ(m->graph().outputs()[0], m->graph().inputs()[0]);
  EXPECT_NE(Parse("<> g () => () {}"), nullptr);
}

TEST(ParserTest, Types) {
  auto t = [](std::string_view text) {
    absl::StatusOr<Type> type = ParseType(text);
    EXPECT_TRUE(type.ok()) << type.status() << " for " << text;
    return type.ok() ? *type : Type();
  };
  EXPECT_EQ(t("float"), Type::Tensor(DataType::kFloat, Shape()));
  EXPECT_EQ(t("float[]"), Type::Tensor(DataType::kFloat, std::nullopt));
  EXPECT_EQ(
      t("int64[N, ?, 3]"),
      Type::Tensor(DataType::kInt64, Shape({Dim::Symbolic("N"), Dim::Unknown(), Dim::Known(3)})));
  EXPECT_EQ(t("float[\"batch size\"]"),
            Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("batch size")})));
  EXPECT_EQ(t("seq(float[N])"),
            Type::Sequence(Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N")}))));
  EXPECT_EQ(t("seq()"), Type::Sequence(Type()));
  EXPECT_EQ(
      t("map(int32, float[N])"),
      Type::Map(DataType::kInt32, Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N")}))));
  EXPECT_EQ(t("map(string, seq(map(int64, double)))"),
            Type::Map(DataType::kString,
                      Type::Sequence(
                          Type::Map(DataType::kInt64, Type::Tensor(DataType::kDouble, Shape())))));
  EXPECT_EQ(t("optional(seq(bool[2]))"),
            Type::Optional(Type::Sequence(Type::Tensor(DataType::kBool, Shape::FromSizes({2})))));
  EXPECT_EQ(t("sparse_tensor(float[1000])"),
            Type::SparseTensor(DataType::kFloat, Shape::FromSizes({1000})));
  EXPECT_EQ(t("sparse_tensor(float[])"), Type::SparseTensor(DataType::kFloat, std::nullopt));
  EXPECT_EQ(t("opaque()"), Type::Opaque("", ""));
  EXPECT_EQ(t("opaque(test.rng.RNG)"), Type::Opaque("", "test.rng.RNG"));
  EXPECT_EQ(t("opaque(com.example, Thing)"), Type::Opaque("com.example", "Thing"));
  EXPECT_EQ(t("undefined[2]"), Type::Tensor(DataType::kUndefined, Shape::FromSizes({2})));
  for (int32_t n = 1; n <= kMaxKnownDataType; ++n) {
    const DataType dt = static_cast<DataType>(n);
    EXPECT_EQ(t(DataTypeName(dt) + "[2]"), Type::Tensor(dt, Shape::FromSizes({2})))
        << DataTypeName(dt);
  }
  EXPECT_FALSE(ParseType("floot[2]").ok());
  EXPECT_FALSE(ParseType("map(seq(float), float)").ok());
  EXPECT_FALSE(ParseType("float[1.5]").ok());
}

TEST(ParserTest, InitializersInInputListAndBlock) {
  auto m = Parse(R"(
agraph (float y = {1.0}, float[N] z, float[2] w0) => (float[N] w)
<float[2] w1 = {1.0, 2.0}, float[3] w2 = {4.0, 5.0, 6.0}, float[N] x, float[2] w0 = {7, 8}>
{
    x = foo(y, z, w1)
    w = bar(x, y, w2, w0)
}
)");
  ASSERT_NE(m, nullptr);
  const Graph& g = m->graph();
  ASSERT_EQ(g.inputs().size(), 3u);
  ASSERT_EQ(g.initializers().size(), 4u);  // y, w1, w2 and w0 (a default of an input)
  const Value* y = g.inputs()[0];
  EXPECT_TRUE(y->is_graph_input());
  ASSERT_NE(y->initializer(), nullptr);
  EXPECT_EQ(y->initializer()->ToVector<float>(), std::vector<float>{1.0f});
  EXPECT_EQ(y->initializer()->name(), "y");
  const Value* w0 = g.inputs()[2];
  ASSERT_NE(w0->initializer(), nullptr);
  EXPECT_EQ(w0->initializer()->ToVector<float>(), (std::vector<float>{7, 8}));
  const Value* w1 = g.initializers()[1];
  EXPECT_EQ(w1->name(), "w1");
  EXPECT_TRUE(w1->is_constant_initializer());
  EXPECT_EQ(w1->type(), Type::Tensor(DataType::kFloat, Shape::FromSizes({2})));
  EXPECT_EQ(w1->initializer()->ToVector<float>(), (std::vector<float>{1, 2}));
  const Node* foo = g.first_node();
  EXPECT_TRUE(foo->output(0)->in_value_info());
  EXPECT_EQ(foo->output(0)->type(), Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N")})));
  EXPECT_EQ(foo->input(2), w1);
}

TEST(ParserTest, ValueInfoForOtherScopesIsKept) {
  auto m = Parse(R"(
g (bool b, float x) => (float y) {
  y = If(b) <
    then_branch = t () => (float r) <float x, float q> { q = Neg(x)  r = Abs(q) },
    else_branch = e () => (x) {}
  >
}
)");
  ASSERT_NE(m, nullptr);
  const Graph& then_g = *Attr(*m, 0, "then_branch").g;
  ASSERT_EQ(then_g.dangling_value_info().size(), 1u);
  EXPECT_EQ(then_g.dangling_value_info()[0].name, "x");
  EXPECT_TRUE(then_g.first_node()->output(0)->in_value_info());
  EXPECT_LT(then_g.dangling_value_info()[0].order,
            then_g.first_node()->output(0)->value_info_order());
  // A branch returning an outer value directly.
  const Graph& else_g = *Attr(*m, 0, "else_branch").g;
  EXPECT_EQ(else_g.outputs()[0], m->graph().inputs()[1]);
}

TEST(ParserTest, OutputsWithTheirOwnTypes) {
  auto m = Parse(R"(
g (float x, bool b) => (float[2] x, x, float x, float[N] y) {
  y = If(b) <then_branch = t () => (float[3] x) {}, else_branch = e () => (x) {}>
})");
  ASSERT_NE(m, nullptr);
  const Graph& g = m->graph();
  EXPECT_EQ(g.inputs()[0]->type(), Type::Tensor(DataType::kFloat, Shape()));
  ASSERT_TRUE(g.output_info(0).has_value());
  EXPECT_EQ(g.output_info(0)->type, Type::Tensor(DataType::kFloat, Shape::FromSizes({2})));
  ASSERT_TRUE(g.output_info(1).has_value());
  EXPECT_TRUE(g.output_info(1)->type.is_none());
  EXPECT_FALSE(g.output_info(2).has_value());
  EXPECT_FALSE(g.output_info(3).has_value());  // y had no type: the output gives it one
  EXPECT_EQ(g.outputs()[3]->type(), Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N")})));
  const Graph& t = *Attr(*m, 0, "then_branch").g;
  ASSERT_TRUE(t.output_info(0).has_value());
  EXPECT_EQ(t.output_info(0)->type, Type::Tensor(DataType::kFloat, Shape::FromSizes({3})));
  EXPECT_EQ(g.inputs()[0]->type(),
            Type::Tensor(DataType::kFloat, Shape()));  // the outer value is untouched
}

TEST(ParserTest, ExternalData) {
  auto m = Parse(R"(
agraph (float y = {1.0}, float[N] z) => (w) <
    float[3, 2] m1 = ["location": "weight_1.bin", "offset": "17"],
    float[2, 1] m2 = {1.0, 2.0}
>
{
    w = Add(y, z)
    m = Mul(m1, m2)
}
)");
  ASSERT_NE(m, nullptr);
  const Tensor& m1 = *m->graph().initializers()[1]->initializer();
  EXPECT_EQ(m1.storage(), Tensor::Storage::kExternal);
  EXPECT_EQ(m1.external_data(), (StringPairs{{"location", "weight_1.bin"}, {"offset", "17"}}));
  EXPECT_EQ(m1.dims(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(m1.raw_size(), 0u);
}

TEST(ParserTest, NodeForms) {
  auto m = ParseNodes("(float a, float b, float c) => (float o1, float o3)", R"(
    o1, , o3 = com.example.Split3:v2 <axis = 1> (a, , c)
    [second] s = Op(, b)
    [third] t = Op("", b, )
    [] u = Op("a")
    = Print(a)
    "weird name/1", w = Op2 (a) <alpha = 0.5>
    z = ai.onnx.Relu(w)
  )");
  ASSERT_NE(m, nullptr);
  const Graph& g = m->graph();
  const Node* n0 = NodeAt(g, 0);
  EXPECT_EQ(n0->domain(), "com.example");
  EXPECT_EQ(n0->op_type(), "Split3");
  EXPECT_EQ(n0->overload(), "v2");
  ASSERT_EQ(n0->num_outputs(), 3u);
  EXPECT_TRUE(n0->output(1)->is_omitted());
  ASSERT_EQ(n0->num_inputs(), 3u);
  EXPECT_EQ(n0->input(0), g.inputs()[0]);
  EXPECT_EQ(n0->input(1), nullptr);
  EXPECT_EQ(n0->input(2), g.inputs()[2]);
  EXPECT_EQ(n0->GetInt("axis", 0), 1);
  const Node* n1 = NodeAt(g, 1);
  EXPECT_EQ(n1->name(), "second");
  ASSERT_EQ(n1->num_inputs(), 2u);
  EXPECT_EQ(n1->input(0), nullptr);
  const Node* n2 = NodeAt(g, 2);
  EXPECT_EQ(n2->name(), "third");
  ASSERT_EQ(n2->num_inputs(), 2u);  // a trailing comma adds nothing
  EXPECT_EQ(n2->input(0), nullptr);
  const Node* n3 = NodeAt(g, 3);
  EXPECT_EQ(n3->name(), "");
  EXPECT_EQ(n3->input(0), g.inputs()[0]);
  const Node* n4 = NodeAt(g, 4);
  EXPECT_EQ(n4->op_type(), "Print");
  EXPECT_EQ(n4->num_outputs(), 0u);
  const Node* n5 = NodeAt(g, 5);
  EXPECT_EQ(n5->output(0)->name(), "weird name/1");
  EXPECT_EQ(n5->GetFloat("alpha", 0), 0.5f);
  const Node* n6 = NodeAt(g, 6);
  EXPECT_EQ(n6->domain(), "ai.onnx");
  EXPECT_EQ(n6->op_type(), "Relu");
  EXPECT_EQ(g.outputs()[1], n0->output(2));
}

TEST(ParserTest, QuotedIdentifiers) {
  auto m = Parse(R"(
"a graph name" (float[N, 128] "input/X", float[128,10] "input W", float[10] B) => (float[N] C)
{
    "some/temp" = MatMul("input/X", "input W")
    S = Add("some/temp", B)
    C = Softmax(S)
}
)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->graph().name(), "a graph name");
  EXPECT_EQ(m->graph().inputs()[0]->name(), "input/X");
  EXPECT_EQ(m->graph().first_node()->output(0)->name(), "some/temp");
}

TEST(ParserTest, CommentsAndWhitespace) {
  auto m = Parse(R"(# leading comment
<ir_version: 8,   # trailing comment
 opset_import: ["" : 18]>
agraph (float[N] y) => (float[N] w)   # signature
{
    # This is a comment.
    x = Neg(y) # More comments.
    w = Abs(x)#no space
}
# end)");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->graph().num_nodes(), 2u);
}

TEST(ParserTest, ScalarAttributes) {
  auto m = ParseAttrs(R"(i = 2, n = -7, big = 9223372036854775807, small = -9223372036854775808,
                         f = 0.625, e = 1e-5, E = 2.5E+3, ni = -inf, pi = inf, nn = nan, NI = -Infinity,
                         cast: float = 2, s = "astring", esc = "q\"b\\s\nt\tx\x01\x7f")");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Attr(*m, 0, "i").kind(), AttributeKind::kInt);
  EXPECT_EQ(Attr(*m, 0, "i").i, 2);
  EXPECT_EQ(Attr(*m, 0, "n").i, -7);
  EXPECT_EQ(Attr(*m, 0, "big").i, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(Attr(*m, 0, "small").i, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Attr(*m, 0, "f").kind(), AttributeKind::kFloat);
  EXPECT_EQ(Attr(*m, 0, "f").f, 0.625f);
  EXPECT_EQ(Attr(*m, 0, "e").f, 1e-5f);
  EXPECT_EQ(Attr(*m, 0, "E").f, 2500.0f);
  EXPECT_EQ(Attr(*m, 0, "ni").f, -std::numeric_limits<float>::infinity());
  EXPECT_EQ(Attr(*m, 0, "pi").f, std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(Attr(*m, 0, "nn").f));
  EXPECT_EQ(Attr(*m, 0, "NI").f, -std::numeric_limits<float>::infinity());
  EXPECT_EQ(Attr(*m, 0, "cast").kind(), AttributeKind::kFloat);
  EXPECT_EQ(Attr(*m, 0, "cast").f, 2.0f);
  EXPECT_EQ(Attr(*m, 0, "s").kind(), AttributeKind::kString);
  EXPECT_EQ(Attr(*m, 0, "s").s, "astring");
  EXPECT_EQ(Attr(*m, 0, "esc").s, std::string("q\"b\\s\nt\tx\x01\x7f"));
}

TEST(ParserTest, ListAttributes) {
  auto m = ParseAttrs(R"(a = [2, 4, 6], b = [0.125, 0.625], c = [1, 2.5], d = ["abc", "def"],
                         e: ints = [], f: floats = [], g: strings = [], h: floats = [1, 2],
                         k = [float, int64[N]], l: tensors = [], m: graphs = [], n: type_protos = [])");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Attr(*m, 0, "a").kind(), AttributeKind::kInts);
  EXPECT_EQ(Attr(*m, 0, "a").ints, (std::vector<int64_t>{2, 4, 6}));
  EXPECT_EQ(Attr(*m, 0, "b").kind(), AttributeKind::kFloats);
  EXPECT_EQ(Attr(*m, 0, "b").floats, (std::vector<float>{0.125f, 0.625f}));
  EXPECT_EQ(Attr(*m, 0, "c").kind(), AttributeKind::kFloats);
  EXPECT_EQ(Attr(*m, 0, "c").floats, (std::vector<float>{1.0f, 2.5f}));
  EXPECT_EQ(Attr(*m, 0, "d").strings, (std::vector<std::string>{"abc", "def"}));
  EXPECT_EQ(Attr(*m, 0, "e").kind(), AttributeKind::kInts);
  EXPECT_TRUE(Attr(*m, 0, "e").ints.empty());
  EXPECT_EQ(Attr(*m, 0, "f").kind(), AttributeKind::kFloats);
  EXPECT_EQ(Attr(*m, 0, "g").kind(), AttributeKind::kStrings);
  EXPECT_EQ(Attr(*m, 0, "h").kind(), AttributeKind::kFloats);
  EXPECT_EQ(Attr(*m, 0, "h").floats, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(Attr(*m, 0, "k").kind(), AttributeKind::kTypeProtos);
  ASSERT_EQ(Attr(*m, 0, "k").type_protos.size(), 2u);
  EXPECT_EQ(Attr(*m, 0, "k").type_protos[1],
            Type::Tensor(DataType::kInt64, Shape({Dim::Symbolic("N")})));
  EXPECT_EQ(Attr(*m, 0, "l").kind(), AttributeKind::kTensors);
  EXPECT_EQ(Attr(*m, 0, "m").kind(), AttributeKind::kGraphs);
  EXPECT_EQ(Attr(*m, 0, "n").kind(), AttributeKind::kTypeProtos);
}

TEST(ParserTest, TensorAndTypeAttributes) {
  auto m =
      ParseAttrs(R"(x = float[3] {2.1, 4.1, 6.1}, named = int32[2] T {1, 2}, eq = int64[2] = {3, 4},
                         scalar = float {1.5}, empty = float[0] {}, nodata: tensor = float[2],
                         tp = float[3], tp2 = seq(float),
                         ts = [float[1] {1}, int8[2] {-1, 2}],
                         sp = sparse_tensor(float[3,4]) {float[2] {1.0, 2.0}, int64[2] {1, 7}})");
  ASSERT_NE(m, nullptr);
  const Attribute& x = Attr(*m, 0, "x");
  EXPECT_EQ(x.kind(), AttributeKind::kTensor);
  EXPECT_EQ(x.t->data_type(), DataType::kFloat);
  EXPECT_EQ(x.t->ToVector<float>(), (std::vector<float>{2.1f, 4.1f, 6.1f}));
  EXPECT_EQ(Attr(*m, 0, "named").t->name(), "T");
  EXPECT_EQ(Attr(*m, 0, "named").t->ToVector<int32_t>(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(Attr(*m, 0, "eq").t->ToVector<int64_t>(), (std::vector<int64_t>{3, 4}));
  EXPECT_TRUE(Attr(*m, 0, "scalar").t->dims().empty());
  EXPECT_EQ(Attr(*m, 0, "scalar").t->ToVector<float>(), std::vector<float>{1.5f});
  EXPECT_EQ(Attr(*m, 0, "empty").t->dims(), std::vector<int64_t>{0});
  EXPECT_EQ(Attr(*m, 0, "nodata").kind(), AttributeKind::kTensor);
  EXPECT_EQ(Attr(*m, 0, "nodata").t->storage(), Tensor::Storage::kNone);
  EXPECT_EQ(Attr(*m, 0, "tp").kind(), AttributeKind::kTypeProto);
  EXPECT_EQ(Attr(*m, 0, "tp").tp, Type::Tensor(DataType::kFloat, Shape::FromSizes({3})));
  EXPECT_EQ(Attr(*m, 0, "tp2").tp, Type::Sequence(Type::Tensor(DataType::kFloat, Shape())));
  const Attribute& ts = Attr(*m, 0, "ts");
  EXPECT_EQ(ts.kind(), AttributeKind::kTensors);
  ASSERT_EQ(ts.tensors.size(), 2u);
  EXPECT_EQ(ts.tensors[1].ToVector<int8_t>(), (std::vector<int8_t>{-1, 2}));
  const Attribute& sp = Attr(*m, 0, "sp");
  EXPECT_EQ(sp.kind(), AttributeKind::kSparseTensor);
  EXPECT_EQ(sp.sparse_tensor->dims, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(sp.sparse_tensor->values.ToVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(sp.sparse_tensor->indices.ToVector<int64_t>(), (std::vector<int64_t>{1, 7}));
}

TEST(ParserTest, TensorDataOfEveryElementType) {
  auto m = ParseAttrs(R"(
      f16 = float16[4] {1, 0.5, -inf, 65504},
      bf16 = bfloat16[2] {1.0, -2.5},
      e4 = float8e4m3fn[3] {1.0, -448, 0.1},
      e4z = float8e4m3fnuz[1] {-240},
      e5 = float8e5m2[2] {1.0, inf},
      e5z = float8e5m2fnuz[1] {57344},
      e8 = float8e8m0[2] {1.0, 0.25},
      f4 = float4e2m1[3] {1.0, -6, 0.5},
      i4 = int4[3] {-8, 7, 1},
      u4 = uint4[2] {15, 0},
      i2 = int2[5] {-2, 1, 0, -1, 1},
      u2 = uint2[1] {3},
      b = bool[4] {true, false, 1, 0},
      u8 = uint8[2] {0, 255},
      i8 = int8[2] {-128, 127},
      u16 = uint16[1] {65535},
      i16 = int16[1] {-32768},
      u32 = uint32[1] {4294967295},
      i32 = int32[1] {-2147483648},
      u64 = uint64[1] {18446744073709551615},
      d = double[2] {0.1, 1e300},
      c64 = complex64[2] {1, 2, 3.5, -4},
      c128 = complex128[1] {0.5, -0.25},
      s = string[3] {"a", "", "\"quoted\""})");
  ASSERT_NE(m, nullptr);
  auto bytes = [&](std::string_view name) {
    const std::string_view v = Attr(*m, 0, name).t->raw_view();
    return std::vector<uint8_t>(v.begin(), v.end());
  };
  EXPECT_EQ(Attr(*m, 0, "f16").t->ToVector<uint16_t>(),
            (std::vector<uint16_t>{0x3C00, 0x3800, 0xFC00, 0x7BFF}));
  EXPECT_EQ(Attr(*m, 0, "bf16").t->ToVector<uint16_t>(), (std::vector<uint16_t>{0x3F80, 0xC020}));
  EXPECT_EQ(bytes("e4"), (std::vector<uint8_t>{0x38, 0xFE, 0x1D}));
  EXPECT_EQ(bytes("e4z"), (std::vector<uint8_t>{0xFF}));
  EXPECT_EQ(bytes("e5"), (std::vector<uint8_t>{0x3C, 0x7C}));
  EXPECT_EQ(bytes("e5z"), (std::vector<uint8_t>{0x7F}));
  EXPECT_EQ(bytes("e8"), (std::vector<uint8_t>{127, 125}));
  EXPECT_EQ(bytes("f4"), (std::vector<uint8_t>{0xF2, 0x01}));  // packed low nibble first
  EXPECT_EQ(bytes("i4"), (std::vector<uint8_t>{0x78, 0x01}));
  EXPECT_EQ(bytes("u4"), (std::vector<uint8_t>{0x0F}));
  EXPECT_EQ(bytes("i2"), (std::vector<uint8_t>{0xC6, 0x01}));  // 10 01 00 11 | 01
  EXPECT_EQ(bytes("u2"), (std::vector<uint8_t>{0x03}));
  EXPECT_EQ(bytes("b"), (std::vector<uint8_t>{1, 0, 1, 0}));
  EXPECT_EQ(bytes("u8"), (std::vector<uint8_t>{0, 255}));
  EXPECT_EQ(Attr(*m, 0, "i8").t->ToVector<int8_t>(), (std::vector<int8_t>{-128, 127}));
  EXPECT_EQ(Attr(*m, 0, "u16").t->ToVector<uint16_t>(), std::vector<uint16_t>{65535});
  EXPECT_EQ(Attr(*m, 0, "i16").t->ToVector<int16_t>(), std::vector<int16_t>{-32768});
  EXPECT_EQ(Attr(*m, 0, "u32").t->ToVector<uint32_t>(), std::vector<uint32_t>{4294967295u});
  EXPECT_EQ(Attr(*m, 0, "i32").t->ToVector<int32_t>(), std::vector<int32_t>{INT32_MIN});
  EXPECT_EQ(Attr(*m, 0, "u64").t->ToVector<uint64_t>(), std::vector<uint64_t>{UINT64_MAX});
  EXPECT_EQ(Attr(*m, 0, "d").t->ToVector<double>(), (std::vector<double>{0.1, 1e300}));
  EXPECT_EQ(Attr(*m, 0, "c64").t->ToVector<float>(), (std::vector<float>{1, 2, 3.5, -4}));
  EXPECT_EQ(Attr(*m, 0, "c128").t->ToVector<double>(), (std::vector<double>{0.5, -0.25}));
  EXPECT_EQ(Attr(*m, 0, "s").t->strings(), (std::vector<std::string>{"a", "", "\"quoted\""}));
}

TEST(ParserTest, SubnormalAndExtremeFloats) {
  auto m =
      ParseAttrs(R"(a = 1e-45, b = 1.17549435e-38, c = 3.4028235e+38, d = float[2] {1e-45, -0.0},
                         e = double[1] {4.9e-324})");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Attr(*m, 0, "a").f, std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(Attr(*m, 0, "b").f, std::numeric_limits<float>::min());
  EXPECT_EQ(Attr(*m, 0, "c").f, std::numeric_limits<float>::max());
  const std::vector<float> d = Attr(*m, 0, "d").t->ToVector<float>();
  EXPECT_EQ(d[0], std::numeric_limits<float>::denorm_min());
  EXPECT_TRUE(std::signbit(d[1]));
  EXPECT_EQ(Attr(*m, 0, "e").t->ToVector<double>()[0], std::numeric_limits<double>::denorm_min());
}

TEST(ParserTest, GraphAttributesCaptureOuterValues) {
  auto m = Parse(R"(
<ir_version: 7, opset_import: [ "" : 13 ]>
iftest (bool b, float[128] X, float[128] Y) => (float[128] Z)
{
  Z = If (b) <
      then_branch = g1 () => (float[128] z_then) { z_then = Identity(X) },
      else_branch = "else graph" () => (float[128] z_else) { z_else = Add(Y, later) }
      >
  later = Neg(X)
}
)",
                 /*verify=*/false);  // `later` is used before it is defined
  ASSERT_NE(m, nullptr);
  const Graph& g = m->graph();
  const Graph& then_g = *Attr(*m, 0, "then_branch").g;
  const Graph& else_g = *Attr(*m, 0, "else_branch").g;
  EXPECT_EQ(else_g.name(), "else graph");
  EXPECT_EQ(then_g.first_node()->input(0), g.inputs()[1]);
  EXPECT_EQ(then_g.parent_node(), g.first_node());
  // A use of an outer value defined further down resolves too.
  EXPECT_EQ(else_g.first_node()->input(1), NodeAt(g, 1)->output(0));
  EXPECT_EQ(CapturedValues(else_g), (std::vector<Value*>{g.inputs()[2], NodeAt(g, 1)->output(0)}));
}

TEST(ParserTest, ForwardReferencesWithinAGraph) {
  absl::StatusOr<std::unique_ptr<Model>> m =
      ParseModel("g (float x) => (float z) { z = Abs(y)  y = Neg(x) }");
  ASSERT_TRUE(m.ok()) << m.status();
  const Graph& g = (*m)->graph();
  EXPECT_EQ(g.first_node()->input(0), g.last_node()->output(0));
}

TEST(ParserTest, FunctionsWithAttributesAndReferences) {
  auto m = Parse(R"(
<
  ir_version: 9,
  opset_import: [ "" : 15, "custom_domain" : 1]
>
agraph (float[N] x) => (float[N] out)
{
  out = custom_domain.foo<alpha=2.0, gamma=3.0>(x)
}

<
domain: "custom_domain",
opset_import: [ "" : 15],
doc_string: "function foo"
>
  foo
  <alpha: float=4.0, gamma, ints_attr: ints = [1, 2]>
  (X) => (C)
  {
      constant_alpha = Constant<value_float: float=@alpha>()
      constant_gamma = Constant<value_float: float=@gamma>()
      constant_alpha_x = Mul(constant_alpha, X)
      C = Add(constant_alpha_x, constant_gamma)
  }

<domain: "custom_domain", overload: "v2", opset_import: ["" : 15], metadata_props: ["k": "v"]>
foo (float[N] x, y) => (float[N] z) <float[N] t> {
  t = Mul(x, y)
  z = Neg(t)
}
)");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->functions().size(), 2u);
  const Function& f = *m->functions()[0];
  EXPECT_EQ(f.domain(), "custom_domain");
  EXPECT_EQ(f.name(), "foo");
  EXPECT_EQ(f.doc_string(), "function foo");
  EXPECT_EQ(f.opset_imports(), (std::vector<OpsetImport>{{"", 15}}));
  EXPECT_EQ(f.attribute_names(), std::vector<std::string>{"gamma"});
  ASSERT_EQ(f.attribute_defaults().size(), 2u);
  EXPECT_EQ(f.attribute_defaults()[0].name(), "alpha");
  EXPECT_EQ(f.attribute_defaults()[0].f, 4.0f);
  EXPECT_EQ(f.attribute_defaults()[1].ints, (std::vector<int64_t>{1, 2}));
  const Attribute* ref = f.body().first_node()->FindAttribute("value_float");
  ASSERT_NE(ref, nullptr);
  EXPECT_TRUE(ref->is_reference());
  EXPECT_EQ(ref->ref_attr_name(), "alpha");
  EXPECT_EQ(ref->kind(), AttributeKind::kFloat);
  EXPECT_EQ(f.body().inputs()[0]->type(), Type());
  const Function& f2 = *m->functions()[1];
  EXPECT_EQ(f2.overload(), "v2");
  EXPECT_EQ(f2.metadata_props(), (StringPairs{{"k", "v"}}));
  EXPECT_EQ(f2.body().inputs()[0]->type(),
            Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N")})));
  EXPECT_TRUE(f2.body().inputs()[1]->type().is_none());
  EXPECT_TRUE(f2.body().first_node()->output(0)->in_value_info());
  EXPECT_EQ(f2.body().outputs()[0]->type(),
            Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N")})));
  EXPECT_EQ(m->FindFunction("custom_domain", "foo", "v2"), &f2);
}

TEST(ParserTest, ReferenceWithoutAType) {
  auto m = Parse(R"(g (float x) => (float y) { y = Op<a = @b>(x) })");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(Attr(*m, 0, "a").kind(), AttributeKind::kUndefined);
  EXPECT_EQ(Attr(*m, 0, "a").ref_attr_name(), "b");
}

TEST(ParserTest, GraphsListAttribute) {
  auto m = Parse(R"(g (float x) => (float y) {
    y = Switch(x) <branches = [a () => (x) {}, b () => (float t) { t = Neg(x) }]>
  })");
  ASSERT_NE(m, nullptr);
  const Attribute& a = Attr(*m, 0, "branches");
  EXPECT_EQ(a.kind(), AttributeKind::kGraphs);
  ASSERT_EQ(a.graphs.size(), 2u);
  EXPECT_EQ(a.graphs[1]->name(), "b");
  EXPECT_EQ(a.graphs[1]->first_node()->input(0), m->graph().inputs()[0]);
}

TEST(ParserTest, ParseGraphAlone) {
  absl::StatusOr<std::unique_ptr<Graph>> g =
      ParseGraph("main (float x) => (float y) <float[2] c = {1, 2}> { y = Add(x, c) }");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->name(), "main");
  EXPECT_EQ((*g)->num_nodes(), 1u);
  EXPECT_FALSE(ParseGraph("main () => () {} extra").ok());
  EXPECT_FALSE(ParseGraph("main () => (y) {}").ok());
}

// --- Errors ------------------------------------------------------------------------------------

TEST(ParserErrorTest, ExpectedButFound) {
  EXPECT_EQ(ParseError("g (float X) => (float Y)\n{\n  Y = Relu(X Y)\n}"),
            "3:14: expected ',' or ')' but found 'Y'");
  EXPECT_EQ(ParseError("g (float X) => (float Y) {\n  Y = Relu(X\n}"),
            "3:1: expected ',' or ')' but found '}'");
  EXPECT_EQ(ParseError("g (float X) => (float Y) { Y = Relu(X) "),
            "1:40: expected a node or '}' but found end of input");
  EXPECT_EQ(ParseError("g (float X) -> (float Y) {}"), "1:13: expected a number after '-'");
  EXPECT_EQ(ParseError("g (float X) = (float Y) {}"), "1:13: expected '=>' but found '='");
  EXPECT_EQ(ParseError("g (float[N X) => () {}"), "1:12: expected ']' but found 'X'");
  EXPECT_EQ(ParseError("<ir_version: \"10\"> g () => () {}"),
            "1:14: expected an IR version but found string \"10\"");
  EXPECT_EQ(ParseError("g () => () { = }"), "1:16: expected an operator name but found '}'");
  EXPECT_EQ(ParseError(""), "1:1: expected a graph name but found end of input");
}

TEST(ParserErrorTest, LexicalErrors) {
  EXPECT_EQ(ParseError("g () => () {\n  y = Op<s = \"abc>()\n}"),
            "2:14: unterminated string literal");
  EXPECT_EQ(ParseError("g () => () { y = Op$() }"), "1:20: unexpected character '$'");
  EXPECT_EQ(ParseError("g () => () { y = Op<a = 12abc>() }"),
            "1:27: unexpected 'a' after number '12'");
  EXPECT_EQ(ParseError("g () => () { y = Op<s = \"\\x4\">() }"),
            "1:26: expected two hex digits after '\\x'");
  EXPECT_EQ(ParseError("g () => () { y = Op<a = 1e>() }"),
            "1:25: expected digits in the exponent of a number");
  // Found while looking one token ahead, and then reached.
  EXPECT_EQ(ParseError("g () => () { y = Op<s = \"abc\" $>() }"), "1:31: unexpected character '$'");
  // A syntax error before a lexical error is the one reported.
  EXPECT_EQ(ParseError("g (float X) => (float Y) { Y = Relu(X Y) $ }"),
            "1:39: expected ',' or ')' but found 'Y'");
  EXPECT_EQ(ParseError(R"(g () => () { y = Op<s = "\xzz">() })"),
            "1:26: expected two hex digits after '\\x'");
}

TEST(ParserErrorTest, UndefinedNames) {
  EXPECT_EQ(ParseError("g (float x) => (float y) {\n  y = Add(x, z)\n}"),
            "2:14: undefined value 'z' (input 1 of node producing 'y' (Add))");
  EXPECT_EQ(ParseError("g (float x) => (float y, w) {\n  y = Neg(x)\n}"),
            "1:26: undefined value 'w' in the outputs of graph 'g'");
  EXPECT_EQ(ParseError("g (bool b) => (float y) {\n  y = If(b) <then_branch = t () => (r) { r = "
                       "Neg(nope) }>\n}"),
            "2:50: undefined value 'nope' (input 0 of node producing 'r' (Neg))");
  // A value of a subgraph is not visible outside it.
  EXPECT_EQ(ParseError("g (bool b) => (float y) {\n  y = If(b) <then_branch = t () => (r) { r = "
                       "Neg(b) }>\n  z = Abs(r)\n}"),
            "3:11: undefined value 'r' (input 0 of node producing 'z' (Abs))");
}

TEST(ParserErrorTest, DuplicateDefinitions) {
  EXPECT_EQ(ParseError("g (float x, float x) => () {}"),
            "1:19: duplicate definition of 'x' (first defined at 1:10)");
  EXPECT_EQ(ParseError("g (float x) => (float y) {\n  y = Neg(x)\n  y = Abs(x)\n}"),
            "3:3: duplicate definition of 'y' (first defined at 2:3)");
  EXPECT_EQ(ParseError("g (float x) => () <float[1] x = {1}, float[1] x = {2}> {}"),
            "1:47: duplicate definition of 'x' (first defined at 1:10)");
  EXPECT_EQ(
      ParseError(
          "g (float x) => (float y) {\n  y = If(x) <then_branch = t () => (x) { x = Neg(y) }>\n}"),
      "2:42: duplicate definition of 'x' (also defined at 1:10 in an enclosing graph; names must "
      "be "
      "unique across a graph and its subgraphs)");
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a = 1, a = 2>(x) }"),
            "1:42: duplicate attribute 'a'");
  EXPECT_EQ(ParseError("<ir_version: 1, ir_version: 2> g () => () {}"),
            "1:17: 'ir_version' is given twice (first at 1:2)");
  EXPECT_EQ(ParseError("g (float x) => () <float x, float x> {}"),
            "1:35: 'x' is declared twice in <...>");
}

TEST(ParserErrorTest, TensorConstants) {
  EXPECT_EQ(ParseError("g () => () <float[2,2] w = {1, 2, 3}> {}"),
            "1:28: float[2,2] needs 4 values but 3 are given");
  EXPECT_EQ(ParseError("g () => () <float[N] w = {1}> {}"),
            "1:13: a tensor constant needs numeric dimensions, not float[N]");
  EXPECT_EQ(ParseError("g () => () <int8[2] w = {1, 200}> {}"),
            "1:29: integer 200 is out of range for int8 [-128, 127]");
  EXPECT_EQ(ParseError("g () => () <int32[1] w = {1.5}> {}"),
            "1:27: expected an integer for int32 but found '1.5'");
  EXPECT_EQ(ParseError("g () => () <uint64[1] w = {-1}> {}"),
            "1:28: integer '-1' is out of range for uint64");
  EXPECT_EQ(ParseError("g () => () <float[1] w = {1e39}> {}"),
            "1:27: number '1e39' is out of range for float");
  EXPECT_EQ(ParseError("g () => () <float8e4m3fn[1] w = {1000}> {}"),
            "1:34: value 1000 is out of range for float8e4m3fn (largest finite value 448)");
  EXPECT_EQ(ParseError("g () => () <string[1] w = {1}> {}"),
            "1:28: expected a string but found '1'");
  EXPECT_EQ(ParseError("g () => () <bool[1] w = {2}> {}"),
            "1:26: bool values are 0, 1, true or false, not 2");
  EXPECT_EQ(ParseError("g () => () <seq(float) w = {1}> {}"),
            "1:13: a tensor constant needs a tensor type, not seq(float)");
  EXPECT_EQ(ParseError("g (w = {1}) => () {}"),
            "1:6: input 'w' needs a type to have a default value");
  EXPECT_EQ(ParseError("g () => () <float[1] w = {x}> {}"),
            "1:27: expected a number but found 'x'");
}

TEST(ParserErrorTest, Attributes) {
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a: int = \"s\">(x) }"),
            "1:44: attribute 'a' is of type int but this value is string");
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a = []>(x) }"),
            "1:39: an empty list needs its type: write 'a: ints = []' (or floats, strings, ...)");
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a = [1, \"s\"]>(x) }"),
            "1:43: list attribute 'a' mixes int and string values");
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a: int = [1]>(x) }"),
            "1:44: attribute 'a' is of type int but its value is a list");
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a: ints = 1>(x) }"),
            "1:45: attribute 'a' is of type ints but its value is not a list; write [...]");
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a: intz = 1>(x) }"),
            "1:38: unknown attribute type 'intz' (expected float, int, string, tensor, graph, "
            "sparse_tensor, "
            "type_proto or a plural of one)");
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a = [@b]>(x) }"),
            "1:40: a reference (@name) cannot be an element of a list");
  EXPECT_EQ(ParseError("g (float x) => (float y) { y = Op<a = 99999999999999999999>(x) }"),
            "1:39: integer '99999999999999999999' is out of range for int");
}

TEST(ParserErrorTest, HeadersAndTypes) {
  EXPECT_EQ(
      ParseError("<ir_versio: 1> g () => () {}"),
      "1:2: unknown model property 'ir_versio' (expected ir_version, opset_import, producer_name, "
      "producer_version, domain, model_version, doc_string or metadata_props)");
  EXPECT_EQ(ParseError("<opset_import: [\"\" : 1.5]> g () => () {}"),
            "1:22: expected an opset version but found '1.5'");
  EXPECT_EQ(ParseError("<opset_import: [ai.onnx : 1]> g () => () {}"),
            "1:17: expected a domain string such as \"\" or \"com.microsoft\" but found 'ai'");
  EXPECT_EQ(ParseError("g () => () {} <domain: \"d\", bogus: 1> f () => () {}"),
            "1:29: unknown function property 'bogus' (expected domain, opset_import, doc_string, "
            "overload or "
            "metadata_props)");
  EXPECT_EQ(ParseError("g (map(seq(float), float) x) => () {}"),
            "1:8: expected a map key type such as int64 or string but found 'seq'");
  EXPECT_EQ(ParseError("g () => () {} f () => () <float[2] c = {1, 2}> {}"),
            "1:38: a function cannot have initializers");
  EXPECT_EQ(ParseError("g (float x) => () <float[2] x> {}"),
            "1:29: conflicting types for 'x': float[2] here but float where it is defined");
  EXPECT_EQ(ParseError("g () => () {} }"), "1:15: expected a function name but found '}'");
}

TEST(ParserErrorTest, NestingLimit) {
  auto nested = [](int depth) {
    std::string text = "g (bool b) => () {\n";
    for (int i = 0; i < depth; ++i)
      absl::StrAppend(&text, "y", i, " = If(b) <then_branch = t", i, " () => () {\n");
    for (int i = 0; i < depth; ++i) text += "}>\n";
    return text + "}\n";
  };
  absl::StatusOr<std::unique_ptr<Model>> ok = ParseModel(nested(200));
  EXPECT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ParseError(nested(300)), "257:34: graphs and types nested more than 256 deep");
  std::string type = "g (";
  for (int i = 0; i < 300; ++i) type += "seq(";
  type += "float";
  for (int i = 0; i < 300; ++i) type += ")";
  EXPECT_EQ(ParseError(type + " x) => () {}"),
            "1:1024: graphs and types nested more than 256 deep");
}

}  // namespace
}  // namespace onnx_opt::ir::text
