// Print(Parse(text)) is a fixed point after one round, and Parse(Print(model)) equals the model.
#include <bit>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ir/numeric/narrow_float.h"
#include "ir/text/model_equality.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/verifier.h"

namespace onnx_opt::ir::text {
namespace {

// Parses `text`, prints it, parses and prints again: the two printed texts must be identical and
// the two parsed models equal.
void ExpectStableRoundTrip(std::string_view text, bool verify = true) {
  absl::StatusOr<std::unique_ptr<Model>> m1 = ParseModel(text);
  ASSERT_TRUE(m1.ok()) << m1.status() << "\n" << text;
  if (verify) {
    absl::Status v = Verify(**m1);
    ASSERT_TRUE(v.ok()) << v << "\n" << text;
  }
  const std::string printed1 = PrintModel(**m1);
  absl::StatusOr<std::unique_ptr<Model>> m2 = ParseModel(printed1);
  ASSERT_TRUE(m2.ok()) << m2.status() << "\nprinted:\n" << printed1;
  absl::Status eq = StructurallyEqual(**m1, **m2);
  EXPECT_TRUE(eq.ok()) << eq << "\nprinted:\n" << printed1;
  const std::string printed2 = PrintModel(**m2);
  EXPECT_EQ(printed1, printed2);
}

const char* const kModels[] = {
    R"(<ir_version: 10, opset_import: ["" : 21]> agraph (float[N] X) => (float[N] Y) { Y = Relu(X) })",

    R"(<
  ir_version: 7,
  opset_import: [ "" : 13, "ai.onnx.ml" : 3 ],
  producer_name: "Parser \"Test\"",
  producer_version: "1.0",
  domain: "ai.onnx.ml",
  model_version: 0,
  doc_string: "A model.\nSecond line.\ttab \x01",
  metadata_props: [ "somekey" : "somevalue", "" : "" ]
>
agraph (float[N, 128] X, float[128, 10] W, float[10] B) => (float[N, 10] C)
{
    T = MatMul(X, W)
    S = Add(T, B)
    C = Softmax<axis = -1>(S)
})",

    // Every kind of type.
    R"(g (float s, float[] u, int64[N, ?, 3] t, bool[""] e, seq(float[N]) q, seq() q0,
          map(int32, float[N]) m, map(string, seq(map(int64, double))) mm, optional(seq(bool[2])) o,
          optional(float) o2, sparse_tensor(float[1000]) sp, sparse_tensor(int8) sp2,
          opaque() op0, opaque(test.rng.RNG) op1, opaque(com.example, Thing) op2,
          opaque("", "odd name") op3, undefined[2] un, float16 h, "float") => (float s) {})",

    // Initializers in the input list and the block, value_info, external data.
    R"(agraph (float y = {1.0}, float[N] z, float[2] w0, float[?] d) => (float[N] w)
<float[2] w1 = {1.0, 2.0}, float[3] w2 = {4.0, 5.0, 6.0}, float[N] x, float[2] w0 = {7, 8},
 float[2] d = {3, 4}, float[3, 2] ext = ["location": "weight_1.bin", "offset": "17", "length": "24"],
 float[2] nodata =, string[2] strs = {"a", "b\n"}, float[1] "quoted init" = {0}>
{
    x = foo(y, z, w1, "quoted init", ext, nodata, strs)
    w = bar(x, y, w2, w0, d)
})",

    // Node forms.
    R"(g (float a, float b, float c) => (float o1, float o3) {
    o1, , o3 = com.example.Split3:v2 <axis = 1> (a, , c)
    [second] s = Op(, b)
    [third] t = Op("", b)
    u = Op(a, "")
    = Print(a)
    "weird name/1", w = Op2 (a) <alpha = 0.5>
    [ "label with space" ] z = ai.onnx.Relu(w)
    "", v = Op3()
    seq, inf = Op5()
    float = Op4(seq, inf)
})",

    // Attribute values of every kind.
    R"(g (float X) => (float Y) {
  Y = Op<i = 2, n = -7, big = 9223372036854775807, small = -9223372036854775808,
         f = 0.625, e = 1e-5, E = 2.5E+3, ni = -inf, pi = inf, nn = nan, tiny = 1e-45, neg0 = -0.0,
         cast: float = 2, s = "astring", esc = "q\"b\\s\nt\tx\x01\x7f\xff",
         a = [2, 4, 6], b = [0.125, 0.625], c = [1, 2.5], d = ["abc", "def"],
         ei: ints = [], ef: floats = [], es: strings = [], et: tensors = [], eg: graphs = [],
         etp: type_protos = [], esp: sparse_tensors = [],
         t = float[3] {2.1, 4.1, 6.1}, named = int32[2] T {1, 2}, "quoted attr" = 1, "float" = 2,
         scalar = float {1.5}, empty = float[0] {}, nodata: tensor = float[2], named_nodata = float[2] N2,
         extt = float[2] = ["location": "x.bin"],
         tp = float[3], tp2 = seq(float), tps = [float, int64[N], map(int64, float)],
         ts = [float[1] {1}, int8[2] {-1, 2}], tsn: tensors = [float[1] {1}, float[2]],
         sp = sparse_tensor(float[3,4]) {float[2] {1.0, 2.0}, int64[2] {1, 7}},
         sps = [sparse_tensor(float[2]) {float[1] {3.0}, int64[1] {0}}]>(X)
})",

    // Tensor data of every element type.
    R"(g () => () <
      float16[5] f16 = {1, 0.5, -inf, 65504, 6e-8},
      bfloat16[2] bf16 = {1.0, -2.5},
      float8e4m3fn[3] e4 = {1.0, -448, 0.1},
      float8e4m3fnuz[1] e4z = {-240},
      float8e5m2[2] e5 = {1.0, inf},
      float8e5m2fnuz[1] e5z = {57344},
      float8e8m0[2] e8 = {1.0, 0.25},
      float4e2m1[3] f4 = {1.0, -6, 0.5},
      int4[3] i4 = {-8, 7, 1},
      uint4[2] u4 = {15, 0},
      int2[5] i2 = {-2, 1, 0, -1, 1},
      uint2[1] u2 = {3},
      bool[4] b = {true, false, 1, 0},
      uint8[2] u8 = {0, 255},
      int8[2] i8 = {-128, 127},
      uint16[1] u16 = {65535},
      int16[1] i16 = {-32768},
      uint32[1] u32 = {4294967295},
      int32[1] i32 = {-2147483648},
      int64[2] i64 = {-9223372036854775808, 9223372036854775807},
      uint64[1] u64 = {18446744073709551615},
      float[4] f = {0.1, 1e-45, 3.4028235e38, -0.0},
      double[3] d = {0.1, 1e300, 4.9e-324},
      complex64[2] c64 = {1, 2, 3.5, -4},
      complex128[1] c128 = {0.5, -0.25},
      string[3] s = {"a", "", "\"quoted\""},
      float[2,0,3] z = {},
      sparse_tensor(float[3,4]) sp = {float[2] {1.0, 2.0}, int64[2,2] {0, 1, 2, 3}}
    > {})",

    // Subgraphs capturing outer values, lists of graphs, value_info of outer names.
    R"(<ir_version: 7, opset_import: [ "" : 13 ]>
iftest (bool b, float[128] X, float[128] Y) => (float[128] Z, float W)
{
  later = Neg(X)
  Z = If (b) <
      then_branch = g1 () => (float[128] z_then) { z_then = Identity(X) },
      else_branch = "else graph" () => (float[128] z_else) <float[128] later, float[128] t> {
        t = Add(Y, later)
        z_else = If(b) <then_branch = inner () => (t) {}, else_branch = inner2 () => (Y) {}>
      }
      >
  W = Switch(b) <branches = [a () => (later) {}, bb () => (float q) { q = Abs(later) }], k = 1>
})",

    // Outputs whose types differ from their values'.
    R"(g (float x, bool b) => (float[2] x, x, float x, float[N] y, w, float[3] w) <float[4] w, float[N] h> {
  y = If(b) <then_branch = t () => (float[3] x) {}, else_branch = e () => (x) {}>
  h = Neg(y)
  w = Abs(x)
})",

    // Functions: attributes with and without defaults, references, typed inputs, value_info,
    // overloads.
    R"(<
  ir_version: 9,
  opset_import: [ "" : 15, "custom_domain" : 1]
>
agraph (float[N] x) => (float[N] out)
{
  out = custom_domain.foo<alpha=2.0, gamma=3.0>(x)
  out2 = custom_domain.foo:v2(x, x)
}

<
domain: "custom_domain",
opset_import: [ "" : 15],
doc_string: "function foo"
>
  foo
  <alpha: float=4.0, gamma, ints_attr: ints = [1, 2], g_attr = body () => (float k) { k = Constant<value_float: float = @alpha>() }>
  (X) => (C)
  {
      constant_alpha = Constant<value_float: float=@alpha>()
      constant_gamma = Constant<value_float: float=@gamma>()
      some = Op<r = @"odd ref", u = @plain>(X)
      constant_alpha_x = Mul(constant_alpha, X)
      C = Add(constant_alpha_x, constant_gamma)
  }

<domain: "custom_domain", overload: "v2", opset_import: ["" : 15], metadata_props: ["k": "v"]>
foo (float[N] x, y) => (float[N] z, w) <float[N] t, float[M] ghost> {
  t = Mul(x, y)
  z = Neg(t)
  w = Identity(x)
}

<domain: "", opset_import: []>
"quoted fn" () => () {}
)",
};

class RoundTripTest : public testing::TestWithParam<int> {};

TEST_P(RoundTripTest, PrintParsePrintIsStable) { ExpectStableRoundTrip(kModels[GetParam()]); }

INSTANTIATE_TEST_SUITE_P(Models, RoundTripTest,
                         testing::Range(0, static_cast<int>(sizeof(kModels) / sizeof(kModels[0]))));

TEST(RoundTripTest, UnsortedGraphStaysUnsorted) {
  ExpectStableRoundTrip("g (float x) => (float z) { z = Abs(y)  y = Neg(x) }", /*verify=*/false);
}

// Random data of every element type survives printing exactly (NaN aside).
TEST(RoundTripTest, RandomTensorData) {
  std::mt19937_64 rng(12345);
  for (int32_t n = 1; n <= kMaxKnownDataType; ++n) {
    const DataType dt = static_cast<DataType>(n);
    if (dt == DataType::kString) continue;
    const std::vector<int64_t> dims = {3, 7};
    const int bits = ElementBitWidth(dt);
    const size_t parts = IsComplex(dt) ? 2 : 1;
    const size_t count = 21 * parts;
    const int part_bits = bits / static_cast<int>(parts);
    std::vector<uint64_t> codes;
    while (codes.size() < count) {
      uint64_t code = rng();
      if (part_bits < 64) code &= (uint64_t{1} << part_bits) - 1;
      if (dt == DataType::kBool) code &= 1;
      // No NaNs: their payloads do not survive decimal text.
      bool nan = false;
      if (dt == DataType::kFloat || dt == DataType::kComplex64)
        nan = std::isnan(std::bit_cast<float>(static_cast<uint32_t>(code)));
      if (dt == DataType::kDouble || dt == DataType::kComplex128)
        nan = std::isnan(std::bit_cast<double>(code));
      if (IsNarrowFloat(dt)) nan = std::isnan(NarrowFloatToFloat(dt, static_cast<uint32_t>(code)));
      if (!nan) codes.push_back(code);
    }
    std::string bytes((count * part_bits + 7) / 8, '\0');
    for (size_t i = 0; i < count; ++i) {
      for (int b = 0; b < part_bits; ++b) {
        const size_t bit = i * part_bits + b;
        if ((codes[i] >> b) & 1)
          bytes[bit / 8] = static_cast<char>(bytes[bit / 8] | (1 << (bit % 8)));
      }
    }
    Model m;
    Tensor t(dt, dims);
    t.set_name("t");
    t.SetRawData(bytes);
    m.graph().AddInitializer(std::move(t));
    const std::string printed = PrintModel(m);
    absl::StatusOr<std::unique_ptr<Model>> back = ParseModel(printed);
    ASSERT_TRUE(back.ok()) << DataTypeName(dt) << ": " << back.status() << "\n" << printed;
    absl::Status eq = StructurallyEqual(m, **back, TextRoundTripOptions());
    EXPECT_TRUE(eq.ok()) << DataTypeName(dt) << ": " << eq << "\n" << printed;
  }
}

TEST(RoundTripTest, RandomFloatAttributes) {
  std::mt19937 rng(7);
  Model m;
  Value* x = m.graph().AddInput("x", Type::Tensor(DataType::kFloat, Shape()));
  Node* n = m.graph().AddNode("Op", {x}, {"y"});
  std::vector<float> floats;
  while (floats.size() < 2000) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    if (!std::isnan(f)) floats.push_back(f);
  }
  n->SetAttribute(Attribute::Floats("fs", floats));
  n->SetAttribute(Attribute::Float("f", floats[0]));
  m.graph().AddOutput(n->output(0));
  absl::StatusOr<std::unique_ptr<Model>> back = ParseModel(PrintModel(m));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(StructurallyEqual(m, **back, TextRoundTripOptions()).ok());
}

// A model built through the IR API, with things the syntax cannot say (they are dropped) and typed
// values that are not in value_info (they get listed).
TEST(RoundTripTest, ModelBuiltInCode) {
  Model m;
  m.set_ir_version(10);
  m.SetOpsetVersion("", 21);
  Graph& g = m.graph();
  g.set_name("main");
  g.set_doc_string("graph doc");
  Value* x =
      g.AddInput("x", Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N"), Dim::Known(4)})));
  x->set_doc_string("input doc");
  Value* def = g.AddInput("def", Type::Tensor(DataType::kFloat, Shape({Dim::Unknown()})));
  g.SetInitializer(def, Tensor::FromVector<float>(DataType::kFloat, {2}, {1.5f, 2.5f}));
  Tensor w = Tensor::FromVector<float>(DataType::kFloat, {4}, {1, 2, 3, 4});
  w.set_name("w");
  Value* wv = g.AddInitializer(std::move(w));
  wv->set_type(Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("K")})));  // refined
  Value* untyped = g.AddInput("u");
  Node* add = g.AddNode("Add", {x, wv}, {"sum"});
  add->set_doc_string("node doc");
  add->output(0)->set_type(
      Type::Tensor(DataType::kFloat, Shape({Dim::Symbolic("N"), Dim::Known(4)})));
  Node* mul = g.AddNode("Mul", {add->output(0), def, untyped}, {"prod"});
  g.AddValueInfo(mul->output(0));
  mul->output(0)->set_type(Type::Tensor(DataType::kFloat, std::nullopt));
  g.AddOutput(mul->output(0));
  g.AddOutput(x);

  const std::string printed = PrintModel(m);
  absl::StatusOr<std::unique_ptr<Model>> back = ParseModel(printed);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << printed;
  absl::Status eq = StructurallyEqual(m, **back, TextRoundTripOptions());
  EXPECT_TRUE(eq.ok()) << eq << "\n" << printed;
  // With every field compared, the doc strings that the syntax cannot carry differ.
  EXPECT_FALSE(StructurallyEqual(m, **back).ok());
  EXPECT_EQ(PrintModel(**back), printed);
}

// Deeper than the parser accepts: printing and comparing still work (no stack exhaustion).
TEST(RoundTripTest, DeeplyNestedModelPrintsAndCompares) {
  Model m;
  Value* b = m.graph().AddInput("b", Type::Tensor(DataType::kBool, Shape()));
  Graph* g = &m.graph();
  for (int i = 0; i < 1000; ++i) {
    Node* n = g->AddNode("If", {b}, {absl::StrCat("y", i)});
    auto sub = std::make_unique<Graph>(absl::StrCat("t", i));
    Graph* next = sub.get();
    n->SetAttribute(Attribute::FromGraph("then_branch", std::move(sub)));
    g = next;
  }
  const std::string printed = PrintModel(m);
  EXPECT_GT(printed.size(), 1000u * 20);
  EXPECT_TRUE(StructurallyEqual(m, m).ok());
  absl::StatusOr<std::unique_ptr<Model>> back = ParseModel(printed);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("nested more than 256 deep"), absl::string_view::npos);
}

}  // namespace
}  // namespace onnx_opt::ir::text
