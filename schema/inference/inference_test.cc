// The inference walk: value_info, declared types, strictness, constants and shape values,
// subgraphs and model-local functions.
#include "schema/inference/inference.h"

#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::InferGraph;
using testing::InferModel;

bool Contains(const std::string& haystack, const char* needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(InferShapesTest, FillsValueInfoForIntermediatesOnly) {
  auto r = InferGraph(R"(g (float[N,3] X, float[3] W) => (Y) {
    T = Add(X, W)
    Y = Relu(T)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("T"), "tensor(float)[N,3]");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[N,3]");
  EXPECT_TRUE(r.Find("T")->in_value_info());
  EXPECT_FALSE(r.Find("Y")->in_value_info());  // a graph output carries its own type
  EXPECT_TRUE(r.warnings.empty());
}

TEST(InferShapesTest, NoValueInfoWhenAskedNot) {
  auto r = InferGraph(R"(g (float[2] X) => (Y) { T = Neg(X)  Y = Abs(T) })", 21,
                      {.fill_value_info = false});
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.Type("T"), "tensor(float)[2]");
  EXPECT_FALSE(r.Find("T")->in_value_info());
}

TEST(InferShapesTest, TypesOutLeavesTheModelAsItWas) {
  // The converter learns types this way without copying the model. The If branch's value and the
  // declared-then-refined output must be reported as if written; nothing in the model may change.
  absl::flat_hash_map<const ir::Value*, ir::Type> types;
  auto r = InferGraph(R"(g (float[2,3] X, bool C) => (float[A,B] Y, Z) {
    T = Neg(X)
    Y = Abs(T)
    Z = If(C) <then_branch = t () => (U) { U = Relu(T) },
               else_branch = e () => (V) { V = Sigmoid(T) }>
  })",
                      21, {.types_out = &types});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("T"), "unknown");
  EXPECT_EQ(r.Type("U"), "unknown");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[A,B]");
  EXPECT_FALSE(r.Find("T")->in_value_info());
  auto reported = [&](const char* name) {
    auto it = types.find(r.Find(name));
    return it == types.end() ? std::string("<none>") : it->second.ToString();
  };
  EXPECT_EQ(reported("T"), "tensor(float)[2,3]");
  EXPECT_EQ(reported("U"), "tensor(float)[2,3]");
  EXPECT_EQ(reported("Y"), "tensor(float)[2,3]");
  EXPECT_EQ(reported("Z"), "tensor(float)[2,3]");
  // The same facts as an inference that writes them.
  auto written = InferGraph(R"(g (float[2,3] X, bool C) => (float[A,B] Y, Z) {
    T = Neg(X)
    Y = Abs(T)
    Z = If(C) <then_branch = t () => (U) { U = Relu(T) },
               else_branch = e () => (V) { V = Sigmoid(T) }>
  })");
  for (const char* name : {"T", "U", "V", "Y", "Z"})
    EXPECT_EQ(reported(name), written.Type(name)) << name;
}

TEST(InferShapesTest, NodesOutOfOrderAreInferredInTopologicalOrder) {
  auto r = InferGraph(R"(g (float[4,5] X) => (Y) {
    Y = Transpose(T)
    T = Neg(X)
  })");
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.Type("Y"), "tensor(float)[5,4]");
}

TEST(InferShapesTest, DeclaredFactsAreKeptAndRefined) {
  // T's rank comes from inference, its first dim from the declaration.
  auto r = InferGraph(R"(g (float[N,3] X, int64[2] S) => (Y) <float[2,?] T> {
    T = Reshape(X, S)
    Y = Identity(T)
  })");
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.Type("T"), "tensor(float)[2,?]");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[2,?]");
  // A declared symbol is refined by a known value.
  r = InferGraph(R"(g (float[2,3] X) => (float[A,B] Y) { Y = Neg(X) })");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[2,3]");
}

TEST(InferShapesTest, ContradictionIsAWarningOrAnError) {
  constexpr const char* kGraph = R"(g (float[2,3] X) => (Y) <int64[2,3] T> {
    T = Relu(X)
    Y = Identity(T)
  })";
  auto lax = InferGraph(kGraph);
  ASSERT_TRUE(lax.status.ok());
  ASSERT_EQ(lax.warnings.size(), 1u);
  EXPECT_PRED2(Contains, lax.warnings[0], "(Relu) in graph 'g': output 'T'");
  EXPECT_PRED2(Contains, lax.warnings[0], "element types differ");
  EXPECT_EQ(lax.Type("T"), "tensor(int64)[2,3]");  // the declaration stands

  auto strict = InferGraph(kGraph, 21, {.strict = true});
  EXPECT_EQ(strict.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_PRED2(Contains, std::string(strict.status.message()), "output 'T'");

  auto dims =
      InferGraph(R"(g (float[2,3] X) => (float[2,4] Y) { Y = Relu(X) })", 21, {.strict = true});
  EXPECT_PRED2(Contains, std::string(dims.status.message()), "dimension 1 differs");
}

TEST(InferShapesTest, InvalidInputsAreAWarningOrAnError) {
  constexpr const char* kGraph = R"(g (float[2,3] A, float[4] B) => (C) { C = Add(A, B) })";
  auto lax = InferGraph(kGraph);
  ASSERT_TRUE(lax.status.ok());
  ASSERT_EQ(lax.warnings.size(), 1u);
  EXPECT_PRED2(Contains, lax.warnings[0], "cannot be broadcast");
  EXPECT_EQ(lax.Type("C"), "tensor(float)");  // the element type still follows from the schema
  auto strict = InferGraph(kGraph, 21, {.strict = true});
  EXPECT_PRED2(Contains, std::string(strict.status.message()), "(Add)");
}

TEST(InferShapesTest, UnknownOperatorsAreLeftAlone) {
  auto r = InferModel(R"(<ir_version: 10, opset_import: ["" : 21, "com.example" : 1]>
  g (float[2] X) => (Y) {
    T = com.example.Custom(X)
    Y = Relu(T)
  })");
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.Type("T"), "unknown");
  EXPECT_EQ(r.Type("Y"), "unknown");
  EXPECT_FALSE(r.Find("T")->in_value_info());
}

TEST(InferShapesTest, OperatorVersionDecides) {
  // Squeeze-11 takes axes as an attribute, Squeeze-13 as an input.
  auto v11 = InferGraph(R"(g (float[1,3,1] X) => (Y) { Y = Squeeze<axes = [0]>(X) })", 11);
  EXPECT_EQ(v11.Type("Y"), "tensor(float)[3,1]");
  auto v13 =
      InferGraph(R"(g (float[1,3,1] X) => (Y) <int64[1] A = {2}> { Y = Squeeze(X, A) })", 13);
  EXPECT_EQ(v13.Type("Y"), "tensor(float)[1,3]");
}

TEST(InferShapesTest, SchemaAloneGivesElementTypes) {
  // Gradient has no inference function; nothing is invented for it.
  auto r = InferGraph(R"(g (float[2] X) => (Y, Z) { Y = Shape(X)  Z = IsNaN(X) })");
  EXPECT_EQ(r.Type("Y"), "tensor(int64)[1]");
  EXPECT_EQ(r.Type("Z"), "tensor(bool)[2]");
}

// --- Constants and shape values ---------------------------------------------------------------

TEST(ShapeValueTest, ShapeGatherConcatReshapeChain) {
  auto r = InferGraph(R"(g (float[N,3,4] X) => (Y) <int64[1] twelve = {12}, int64 zero = {0}> {
    s = Shape(X)
    n = Gather<axis = 0>(s, zero)
    n1 = Unsqueeze(n, zero1)
    zero1 = Constant<value_ints = [0]>()
    target = Concat<axis = 0>(n1, twelve)
    Y = Reshape(X, target)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("n"), "tensor(int64)[]");
  EXPECT_EQ(r.Type("target"), "tensor(int64)[2]");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[N,12]");
}

TEST(ShapeValueTest, ArithmeticOnShapes) {
  // [N, H, W] -> [N, H*W] computed from the shape; and Slice of a shape.
  auto r = InferGraph(R"(g (float[N,4,5] X) => (Y, Z) <int64[1] one = {1}, int64[1] three = {3},
                                                    int64[1] zero = {0}> {
    s = Shape(X)
    hw = Slice(s, one, three)
    h = Slice(hw, zero, one)
    w = Slice(hw, one, three)
    p = Mul(h, w)
    n = Slice(s, zero, one)
    t = Concat<axis = 0>(n, p)
    Y = Reshape(X, t)
    Z = ConstantOfShape(hw)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("Y"), "tensor(float)[N,20]");
  EXPECT_EQ(r.Type("Z"), "tensor(float)[4,5]");
}

TEST(ShapeValueTest, SymbolicDimsFlowIntoShapes) {
  auto r = InferGraph(R"(g (float[B,S,64] X, float[S] Y) => (E, C) {
    s = Shape<start = 0, end = 2>(X)
    E = Expand(Y, s)
    C = ConstantOfShape(s)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("E"), "tensor(float)[B,S]");
  EXPECT_EQ(r.Type("C"), "tensor(float)[B,S]");
}

TEST(ShapeValueTest, UnknownStaysUnknown) {
  auto r = InferGraph(R"(g (float[N,3] X, int64[2] S) => (Y) { Y = Reshape(X, S) })");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[?,?]");
  auto r2 = InferGraph(R"(g (float[N,3] X) => (Y) <int64 two = {2}> {
    s = Shape(X)
    d = Mul(s, two)
    Y = ConstantOfShape(d)
  })");
  EXPECT_EQ(r2.Type("Y"), "tensor(float)[?,6]");  // N*2 is not guessed
}

TEST(ShapeValueTest, ConstantNodesFeedShapeInputs) {
  auto r = InferGraph(R"(g (float[2,3,4] X) => (Y, Z) {
    shape = Constant<value = int64[2] {4, -1}>()
    Y = Reshape(X, shape)
    reps = Constant<value = int64[3] {1, 2, 3}>()
    Z = Tile(X, reps)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("Y"), "tensor(float)[4,6]");
  EXPECT_EQ(r.Type("Z"), "tensor(float)[2,6,12]");
}

TEST(ShapeValueTest, InitializerThatIsAlsoAnInputIsNotConstant) {
  auto r = InferGraph(R"(g (float[2,3] X, int64[2] S = {3, 2}) => (Y) { Y = Reshape(X, S) })");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[?,?]");
}

TEST(ShapeValueTest, TransformerAttentionBlock) {
  // Self-attention as exporters write it: heads split off with a shape computed at run time.
  auto r = InferGraph(R"(g (float[B,S,768] X, float[768,2304] Wqkv) => (Y)
      <int64 zero = {0}, int64 one = {1}, int64[1] axes = {0}, int64[2] heads = {12, 64},
       int64[1] hidden = {768}, float scale = {0.125}> {
    qkv = MatMul(X, Wqkv)
    q, k, v = Split<axis = 2, num_outputs = 3>(qkv)
    shape = Shape(X)
    b = Gather(shape, zero)
    s = Gather(shape, one)
    b1 = Unsqueeze(b, axes)
    s1 = Unsqueeze(s, axes)
    split_shape = Concat<axis = 0>(b1, s1, heads)
    q4 = Reshape(q, split_shape)
    k4 = Reshape(k, split_shape)
    v4 = Reshape(v, split_shape)
    qt = Transpose<perm = [0, 2, 1, 3]>(q4)
    kt = Transpose<perm = [0, 2, 3, 1]>(k4)
    vt = Transpose<perm = [0, 2, 1, 3]>(v4)
    scores = MatMul(qt, kt)
    scaled = Mul(scores, scale)
    probs = Softmax<axis = -1>(scaled)
    ctx = MatMul(probs, vt)
    ctx_t = Transpose<perm = [0, 2, 1, 3]>(ctx)
    merge_shape = Concat<axis = 0>(b1, s1, hidden)
    Y = Reshape(ctx_t, merge_shape)
  })",
                      18);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.Type("q"), "tensor(float)[B,S,768]");
  EXPECT_EQ(r.Type("split_shape"), "tensor(int64)[4]");
  EXPECT_EQ(r.Type("q4"), "tensor(float)[B,S,12,64]");
  EXPECT_EQ(r.Type("scores"), "tensor(float)[B,12,S,S]");
  EXPECT_EQ(r.Type("ctx"), "tensor(float)[B,12,S,64]");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[B,S,768]");
}

// --- Subgraphs ---------------------------------------------------------------------------------

TEST(SubgraphTest, IfJoinsBranches) {
  auto r = InferGraph(R"(g (bool c, float[2,3] X, float[2,4] W) => (Y) {
    Y = If(c) <
      then_branch = t () => (a) { a = Neg(X) },
      else_branch = e () => (b) { b = Abs(W) }
    >
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("a"), "tensor(float)[2,3]");
  EXPECT_EQ(r.Type("b"), "tensor(float)[2,4]");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[2,?]");
}

TEST(SubgraphTest, IfWithAConditionKnownFromShapesTakesOneBranch) {
  auto r = InferGraph(R"(g (float[2,3] X) => (Y) <int64 two = {2}> {
    n = Size(s)
    s = Shape(X)
    c = Equal(n, two)
    Y = If(c) <
      then_branch = t () => (a) { a = Neg(X) },
      else_branch = e () => (b) { b = Transpose(X) }
    >
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("Y"), "tensor(float)[2,3]");
}

TEST(SubgraphTest, IfBranchesThatDisagreeOnTypes) {
  auto r = InferGraph(R"(g (bool c, float[2] X, int64[2] I) => (Y) {
    Y = If(c) <then_branch = t () => (a) { a = Neg(X) }, else_branch = e () => (b) { b = Neg(I) }>
  })");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_PRED2(Contains, r.warnings[0], "branches disagree");
}

TEST(SubgraphTest, LoopCarriedAndScanOutputs) {
  // acc grows each iteration (its length is unknown after the loop); x keeps its shape.
  auto r = InferGraph(R"(g (int64 M, bool c, float[1] acc0, float[2,3] x0) => (acc, x, scan) {
    acc, x, scan = Loop(M, c, acc0, x0) <body = b (int64 i, bool ci, acc_in, x_in)
        => (co, acc_out, x_out, y) {
      co = Identity(ci)
      acc_out = Concat<axis = 0>(acc_in, acc_in)
      x_out = Relu(x_in)
      y = ReduceSum<keepdims = 0>(x_in)
    }>
  })",
                      13);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("i"), "tensor(int64)[]");
  EXPECT_EQ(r.Type("acc_in"), "tensor(float)[?]");
  EXPECT_EQ(r.Type("acc"), "tensor(float)[?]");
  EXPECT_EQ(r.Type("x_in"), "tensor(float)[2,3]");
  EXPECT_EQ(r.Type("x"), "tensor(float)[2,3]");
  EXPECT_EQ(r.Type("scan"), "tensor(float)[?]");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0];
}

TEST(SubgraphTest, ScanSlicesInputsAndStacksOutputs) {
  auto r = InferGraph(R"(g (float[2] s0, float[5,2] xs) => (s, ys) {
    s, ys = Scan(s0, xs) <num_scan_inputs = 1, body = b (s_in, x) => (s_out, y) {
      s_out = Add(s_in, x)
      y = Mul(s_in, x)
    }>
  })",
                      16);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("x"), "tensor(float)[2]");
  EXPECT_EQ(r.Type("s"), "tensor(float)[2]");
  EXPECT_EQ(r.Type("ys"), "tensor(float)[5,2]");
}

TEST(SubgraphTest, SubgraphSeesOuterConstants) {
  auto r = InferGraph(R"(g (bool c, float[6] X) => (Y) <int64[2] shape = {2, 3}> {
    Y = If(c) <then_branch = t () => (a) { a = Reshape(X, shape) },
               else_branch = e () => (b) { b = Reshape(X, shape) }>
  })");
  EXPECT_EQ(r.Type("Y"), "tensor(float)[2,3]");
}

// --- Functions ---------------------------------------------------------------------------------

constexpr const char* kFunctionModel = R"(
<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[2,6] X, int64[3] I) => (A, B, C) {
  A = local.Flat(X)
  B = local.Flat(I)
  C = local.ReshapeTo<shape = [3, 4]>(X)
}
<domain: "local", opset_import: ["" : 21]>
Flat (x) => (y) { y = Flatten<axis = 0>(x) }
<domain: "local", opset_import: ["" : 21]>
ReshapeTo <shape> (x) => (y) {
  s = Constant<value_ints: ints = @shape>()
  y = Reshape(x, s)
}
)";

TEST(FunctionTest, InferredPerCallSite) {
  auto r = InferModel(kFunctionModel);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("A"), "tensor(float)[1,12]");
  EXPECT_EQ(r.Type("B"), "tensor(int64)[1,3]");
  // Attribute references resolve against the calling node.
  EXPECT_EQ(r.Type("C"), "tensor(float)[3,4]");
  // The body is shared by every call: it is left untyped.
  const ir::Function& f = *r.model->functions()[0];
  EXPECT_TRUE(f.body().first_node()->output(0)->type().is_none());
  EXPECT_TRUE(r.warnings.empty());
}

TEST(FunctionTest, MissingAttributeFallsBackToTheDefault) {
  auto r = InferModel(R"(
<ir_version: 10, opset_import: ["" : 21, "local" : 1]>
g (float[2,6] X) => (Y) { Y = local.ReshapeTo(X) }
<domain: "local", opset_import: ["" : 21]>
ReshapeTo <shape: ints = [4, 3]> (x) => (y) {
  s = Constant<value_ints: ints = @shape>()
  y = Reshape(x, s)
}
)");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("Y"), "tensor(float)[4,3]");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
