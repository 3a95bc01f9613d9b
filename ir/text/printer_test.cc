#include "ir/text/printer.h"

#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ir/text/parser.h"

namespace onnx_opt::ir::text {
namespace {

std::string Reprint(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Model>> m = ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? PrintModel(**m) : "";
}

std::string PrintFirstNode(std::string_view text) {
  absl::StatusOr<std::unique_ptr<Model>> m = ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? PrintNode(*(*m)->graph().first_node()) : "";
}

std::string AttrText(std::string_view attr) {
  absl::StatusOr<std::unique_ptr<Model>> m =
      ParseModel(absl::StrCat("g (float x) => (float y) { y = Op<", std::string(attr), ">(x) }"));
  EXPECT_TRUE(m.ok()) << m.status() << " for " << attr;
  return m.ok() ? PrintAttribute((*m)->graph().first_node()->attributes()[0]) : "";
}

TEST(PrinterTest, Model) {
  EXPECT_EQ(
      Reprint(R"(<ir_version: 10, opset_import: ["" : 21, "com.microsoft": 1], producer_name: "p",
                       producer_version: "v", domain: "d", model_version: 3, doc_string: "two\nlines",
                       metadata_props: ["k": "v"]>
                       agraph (float[N] X) => (float[N] Y) { Y = Relu(X) })"),
      R"(<
  ir_version: 10,
  opset_import: ["" : 21, "com.microsoft" : 1],
  producer_name: "p",
  producer_version: "v",
  domain: "d",
  model_version: 3,
  doc_string: "two\nlines",
  metadata_props: ["k": "v"]
>
agraph (float[N] X) => (float[N] Y) {
  Y = Relu(X)
}
)");
  // Nothing to say: no header.
  EXPECT_EQ(Reprint("g () => () {}"), "g () => () {\n}\n");
}

TEST(PrinterTest, InitializersAndValueInfo) {
  EXPECT_EQ(Reprint(R"(agraph (float y = {1.0}, float[N] z, float[?] d) => (float[N] w)
                       <float[2] w1 = {1.0, 2.0}, float[N] x, float[2] d = {3, 4},
                        float[3, 2] ext = ["location": "w.bin", "offset": "17"], float[N] outer>
                       { x = foo(y, z, w1, ext)  w = bar(x, d) })"),
            R"(agraph (float y = {1.0}, float[N] z, float[?] d) => (float[N] w)
<
  float[2] w1 = {1.0, 2.0},
  float[2] d = {3.0, 4.0},
  float[3,2] ext = ["location": "w.bin", "offset": "17"],
  float[N] x,
  float[N] outer
> {
  x = foo(y, z, w1, ext)
  w = bar(x, d)
}
)");
}

TEST(PrinterTest, Nodes) {
  EXPECT_EQ(
      PrintFirstNode(
          "g (float a, float c) => () { o1, , o3 = com.example.Split3:v2<axis = 1>(a, , c) }"),
      "o1, \"\", o3 = com.example.Split3:v2<axis = 1>(a, \"\", c)");
  EXPECT_EQ(PrintFirstNode("g (float a) => () { [\"my node\"] = Print(a, \"\") }"),
            "[\"my node\"] = Print(a, \"\")");
  EXPECT_EQ(PrintFirstNode("g (float a) => () { [n1] y = ai.onnx.Relu() }"),
            "[n1] y = ai.onnx.Relu()");
  // Names that are keywords of the syntax or not identifiers are quoted.
  EXPECT_EQ(
      PrintFirstNode(
          R"(g ("float" , "in put", nan) => () { seq, "a/b", _ok1 = Op("float", "in put", nan) })"),
      R"("seq", "a/b", _ok1 = Op("float", "in put", "nan"))");
}

TEST(PrinterTest, SubgraphsIndent) {
  EXPECT_EQ(Reprint(R"(iftest (bool b, float[128] X) => (float[128] Z) {
    Z = If (b) <then_branch = g1 () => (float[128] z_then) { z_then = Identity(X) },
                else_branch = g2 () => (float[128] z_else) <float[128] t> { t = Neg(X)  z_else = Abs(t) }>
  })"),
            R"(iftest (bool b, float[128] X) => (float[128] Z) {
  Z = If(b) <
    then_branch = g1 () => (float[128] z_then) {
      z_then = Identity(X)
    },
    else_branch = g2 () => (float[128] z_else)
    <
      float[128] t
    > {
      t = Neg(X)
      z_else = Abs(t)
    }
  >
}
)");
  EXPECT_EQ(
      Reprint(
          R"(g (bool b) => (float w) { w = Switch(b) <branches = [a () => (b) {}, c () => (b) {}], k = 1> })"),
      R"(g (bool b) => (float w) {
  w = Switch(b) <
    branches = [
      a () => (b) {
      },
      c () => (b) {
      }
    ],
    k = 1
  >
}
)");
}

TEST(PrinterTest, Functions) {
  EXPECT_EQ(Reprint(R"(<ir_version: 9, opset_import: ["" : 15, "local" : 1]>
agraph (float[N] x) => (float[N] out) { out = local.foo<alpha = 2.0>(x) }
<domain: "local", opset_import: ["" : 15], doc_string: "doc">
foo <alpha: float = 4.0, gamma> (X, float[N] Z) => (C) <float[N] t> {
  t = Constant<value_float: float = @alpha>()
  C = Add(X, t)
}
<domain: "local", overload: "v2", opset_import: []>
bar () => () {})"),
            R"(<
  ir_version: 9,
  opset_import: ["" : 15, "local" : 1]
>
agraph (float[N] x) => (float[N] out) {
  out = local.foo<alpha = 2.0>(x)
}

<
  domain: "local",
  opset_import: ["" : 15],
  doc_string: "doc"
>
foo <gamma, alpha = 4.0> (X, float[N] Z) => (C)
<
  float[N] t
> {
  t = Constant<value_float: float = @alpha>()
  C = Add(X, t)
}

<
  domain: "local",
  overload: "v2",
  opset_import: []
>
bar () => () {
}
)");
}

TEST(PrinterTest, AttributeValues) {
  EXPECT_EQ(AttrText("a = 2"), "a = 2");
  EXPECT_EQ(AttrText("a: float = 2"), "a = 2.0");
  EXPECT_EQ(AttrText("a = 1e-5"), "a = 1e-05");
  EXPECT_EQ(AttrText("a = 0.1"), "a = 0.1");
  EXPECT_EQ(AttrText("a = 1e20"), "a = 1e+20");
  EXPECT_EQ(AttrText("a = -inf"), "a = -inf");
  EXPECT_EQ(AttrText("a = NaN"), "a = nan");
  EXPECT_EQ(AttrText("a = -0.0"), "a = -0.0");
  EXPECT_EQ(AttrText("a = 16777216.0"), "a = 16777216.0");
  EXPECT_EQ(AttrText("a = \"q\\\"b\\\\s\\nt\\tx\\x01\\x7f\""),
            "a = \"q\\\"b\\\\s\\nt\\tx\\x01\\x7f\"");
  EXPECT_EQ(AttrText("a = [1, 2]"), "a = [1, 2]");
  EXPECT_EQ(AttrText("a = [1, 2.5]"), "a = [1.0, 2.5]");
  EXPECT_EQ(AttrText("a = [\"x\", \"y\"]"), "a = [\"x\", \"y\"]");
  EXPECT_EQ(AttrText("a: ints = []"), "a: ints = []");
  EXPECT_EQ(AttrText("a: floats = []"), "a: floats = []");
  EXPECT_EQ(AttrText("a: strings = []"), "a: strings = []");
  EXPECT_EQ(AttrText("a: graphs = []"), "a: graphs = []");
  EXPECT_EQ(AttrText("a = float[2] {1, 2}"), "a = float[2] {1.0, 2.0}");
  EXPECT_EQ(AttrText("a = int64 T {7}"), "a = int64 T {7}");
  EXPECT_EQ(AttrText("a: tensor = float[2]"), "a: tensor = float[2]");
  EXPECT_EQ(AttrText("a = float[2] = [\"location\": \"x\"]"),
            "a = float[2] = [\"location\": \"x\"]");
  EXPECT_EQ(AttrText("a = [float[1] {1}, int8 {-1}]"), "a = [float[1] {1.0}, int8 {-1}]");
  EXPECT_EQ(AttrText("a = float[N, 3]"), "a = float[N,3]");
  EXPECT_EQ(AttrText("a = [seq(float), map(string, int64[])]"),
            "a = [seq(float), map(string, int64[])]");
  EXPECT_EQ(AttrText("a: int = @b"), "a: int = @b");
  EXPECT_EQ(AttrText("a = @\"odd name\""), "a = @\"odd name\"");
  EXPECT_EQ(AttrText("a = sparse_tensor(float[3,4]) {float[2] {1, 2}, int64[2] {1, 7}}"),
            "a = sparse_tensor(float[3,4]) {float[2] {1.0, 2.0}, int64[2] {1, 7}}");
}

TEST(PrinterTest, TensorData) {
  auto data = [](std::string_view tensor) {
    return AttrText(absl::StrCat("a = ", std::string(tensor))).substr(4);
  };
  EXPECT_EQ(data("float16[3] {1, 0.1, -65504}"), "float16[3] {1.0, 0.099975586, -65504.0}");
  EXPECT_EQ(data("bfloat16[2] {1, 0.1}"), "bfloat16[2] {1.0, 0.100097656}");
  EXPECT_EQ(data("float8e4m3fn[2] {0.1, -448}"), "float8e4m3fn[2] {0.1015625, -448.0}");
  EXPECT_EQ(data("float8e5m2[2] {inf, -0.0}"), "float8e5m2[2] {inf, -0.0}");
  EXPECT_EQ(data("float4e2m1[3] {1, 2.5, -6}"), "float4e2m1[3] {1.0, 2.0, -6.0}");
  EXPECT_EQ(data("int4[3] {-8, 7, -1}"), "int4[3] {-8, 7, -1}");
  EXPECT_EQ(data("uint2[3] {3, 0, 1}"), "uint2[3] {3, 0, 1}");
  EXPECT_EQ(data("bool[2] {true, 0}"), "bool[2] {1, 0}");
  EXPECT_EQ(data("uint64[1] {18446744073709551615}"), "uint64[1] {18446744073709551615}");
  EXPECT_EQ(data("double[2] {0.1, 1e-300}"), "double[2] {0.1, 1e-300}");
  EXPECT_EQ(data("complex64[1] {1, -2}"), "complex64[1] {1.0, -2.0}");
  EXPECT_EQ(data("string[2] {\"a\", \"b\\\"\"}"), "string[2] {\"a\", \"b\\\"\"}");
  EXPECT_EQ(data("float[2,0] {}"), "float[2,0] {}");
}

TEST(PrinterTest, Types) {
  EXPECT_EQ(PrintType(Type::Tensor(DataType::kFloat, Shape())), "float");
  EXPECT_EQ(PrintType(Type::Tensor(DataType::kFloat, std::nullopt)), "float[]");
  EXPECT_EQ(PrintType(Type::Tensor(DataType::kInt64, Shape({Dim::Symbolic("N"), Dim::Unknown(),
                                                            Dim::Known(3), Dim::Symbolic("a b")}))),
            "int64[N,?,3,\"a b\"]");
  EXPECT_EQ(PrintType(Type::Sequence(Type::Tensor(DataType::kBool, Shape()))), "seq(bool)");
  EXPECT_EQ(PrintType(Type::Map(DataType::kString, Type::Tensor(DataType::kFloat, Shape()))),
            "map(string, float)");
  EXPECT_EQ(PrintType(Type::Optional(Type::Sequence(Type()))), "optional(seq())");
  EXPECT_EQ(PrintType(Type::SparseTensor(DataType::kFloat16, Shape::FromSizes({4}))),
            "sparse_tensor(float16[4])");
  EXPECT_EQ(PrintType(Type::Opaque("com.x", "T")), "opaque(com.x, T)");
  EXPECT_EQ(PrintType(Type::Opaque("", "a.b")), "opaque(a.b)");
  EXPECT_EQ(PrintType(Type::Opaque("", "")), "opaque()");
  EXPECT_EQ(PrintType(Type::Opaque("bad-domain", "T")), "opaque(\"bad-domain\", T)");
}

TEST(PrinterTest, NamesAndStrings) {
  EXPECT_EQ(PrintName("x_1"), "x_1");
  EXPECT_EQ(PrintName(""), "\"\"");
  EXPECT_EQ(PrintName("1x"), "\"1x\"");
  EXPECT_EQ(PrintName("a.b"), "\"a.b\"");
  EXPECT_EQ(PrintName("int64"), "\"int64\"");
  EXPECT_EQ(PrintName("Inf"), "\"Inf\"");
  EXPECT_EQ(PrintName("optional"), "\"optional\"");
  EXPECT_EQ(QuoteString(std::string("a\0b\xc3\xa9", 5)), "\"a\\x00b\xc3\xa9\"");
}

TEST(PrinterTest, IrBuiltGraphAndTensor) {
  Graph g("main");
  Value* x = g.AddInput("x", Type::Tensor(DataType::kFloat, Shape::FromSizes({2})));
  Tensor c = Tensor::FromVector<int64_t>(DataType::kInt64, {2}, {1, -1});
  c.set_name("shape");
  Value* cv = g.AddInitializer(std::move(c));
  Node* n = g.AddNode("Reshape", {x, cv}, {"y"});
  n->output(0)->set_type(Type::Tensor(DataType::kFloat, Shape::FromSizes({1, 2})));
  g.AddOutput(n->output(0));
  EXPECT_EQ(PrintGraph(g), R"(main (float[2] x) => (float[1,2] y)
<
  int64[2] shape = {1, -1}
> {
  y = Reshape(x, shape)
}
)");
  EXPECT_EQ(PrintTensor(*cv->initializer()), "int64[2] shape {1, -1}");
}

}  // namespace
}  // namespace onnx_opt::ir::text
