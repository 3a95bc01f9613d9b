// Sequences, optionals and control flow over them.
#include "gtest/gtest.h"
#include "schema/testing/inference_test_util.h"

namespace onnx_opt::schema::inference {
namespace {

using testing::InferGraph;
using testing::TypeOf;

TEST(SequenceTest, BuildAndRead) {
  auto r = InferGraph(R"(g (float[2,3] A, float[4,3] B) => (S, E, N, T, C) {
    S = SequenceConstruct(A, B)
    E = SequenceEmpty<dtype = 7>()
    N = SequenceLength(S)
    T = SequenceAt(S, N)
    C = ConcatFromSequence<axis = 0>(S)
  })");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("S"), "seq(tensor(float)[?,3])");
  EXPECT_EQ(r.Type("E"), "seq(tensor(int64))");
  EXPECT_EQ(r.Type("N"), "tensor(int64)[]");
  EXPECT_EQ(r.Type("T"), "tensor(float)[?,3]");
  EXPECT_EQ(r.Type("C"), "tensor(float)[?,3]");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SequenceTest, InsertEraseAndConcatWithNewAxis) {
  auto r = InferGraph(R"(g (float[3] A) => (S, R, C) {
    e = SequenceEmpty()
    S = SequenceInsert(e, A)
    R = SequenceErase(S)
    C = ConcatFromSequence<axis = -1, new_axis = 1>(S)
  })");
  EXPECT_EQ(r.Type("S"), "seq(tensor(float))");
  EXPECT_EQ(r.Type("R"), "seq(tensor(float))");
  EXPECT_EQ(r.Type("C"), "tensor(float)");
}

TEST(SequenceTest, SplitToSequence) {
  EXPECT_EQ(TypeOf("g (float[6,4] X) => (Y) { Y = SplitToSequence<axis = 1>(X) }"),
            "seq(tensor(float)[6,1])");
  EXPECT_EQ(TypeOf("g (float[6,4] X) => (Y) { Y = SplitToSequence<keepdims = 0>(X) }"),
            "seq(tensor(float)[4])");
  EXPECT_EQ(TypeOf("g (float[6,4] X) => (Y) <int64 s = {2}> { Y = SplitToSequence(X, s) }"),
            "seq(tensor(float)[2,4])");
  EXPECT_EQ(TypeOf("g (float[6,4] X) => (Y) <int64[2] s = {2, 4}> { Y = SplitToSequence(X, s) }"),
            "seq(tensor(float)[?,4])");
}

TEST(SequenceTest, SequenceMapInfersItsBody) {
  auto r = InferGraph(R"(g (seq(float[N]) S, float[N] T) => (Y) {
    Y = SequenceMap(S, T) <body = b (x, t) => (y) { y = Add(x, t) }>
  })",
                      17);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.Type("x"), "tensor(float)[N]");
  EXPECT_EQ(r.Type("Y"), "seq(tensor(float)[N])");
}

TEST(OptionalTest, WrapAndUnwrap) {
  auto r = InferGraph(R"(g (float[2] X) => (O, E, H) {
    O = Optional(X)
    E = OptionalGetElement(O)
    H = OptionalHasElement(O)
  })",
                      18);
  EXPECT_EQ(r.Type("O"), "optional(tensor(float)[2])");
  EXPECT_EQ(r.Type("E"), "tensor(float)[2]");
  EXPECT_EQ(r.Type("H"), "tensor(bool)[]");
  EXPECT_EQ(TypeOf("g () => (Y) { Y = Optional<type = seq(float)>() }", "Y", 18),
            "optional(seq(tensor(float)[]))");
}

}  // namespace
}  // namespace onnx_opt::schema::inference
