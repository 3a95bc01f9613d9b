#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

// Nodes inside If branches (and Loop bodies) are converted too. Two Ifs on opposite conditions, so
// that the numeric check (on one random c) runs both kinds of branch.
TEST(ControlFlowAdapters, SubgraphsAreConverted) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (bool c, float[2,3] X) => (float[1,2,3] Y, float[1,2,3] Z) <int64[1] a = {0}> {
      Y = If(c) <
        then_branch = t () => (float[1,2,3] ty) { ty = Unsqueeze(X, a) },
        else_branch = e () => (float[1,2,3] ey) { n = Neg(X) ey = Unsqueeze(n, a) }
      >
      nc = Not(c)
      Z = If(nc) <
        then_branch = t2 () => (float[1,2,3] ty2) { ty2 = Unsqueeze(X, a) },
        else_branch = e2 () => (float[1,2,3] ey2) { n2 = Neg(X) ey2 = Unsqueeze(n2, a) }
      >
    })",
                   12, R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (bool c, float[2,3] X) => (float[1,2,3] Y, float[1,2,3] Z) {
      Y = If(c) <
        then_branch = t () => (float[1,2,3] ty) { ty = Unsqueeze<axes = [0]>(X) },
        else_branch = e () => (float[1,2,3] ey) { n = Neg(X) ey = Unsqueeze<axes = [0]>(n) }
      >
      nc = Not(c)
      Z = If(nc) <
        then_branch = t2 () => (float[1,2,3] ty2) { ty2 = Unsqueeze<axes = [0]>(X) },
        else_branch = e2 () => (float[1,2,3] ey2) { n2 = Neg(X) ey2 = Unsqueeze<axes = [0]>(n2) }
      >
    })");
}

TEST(ControlFlowAdapters, ScanBatchAxisOfOpset8) {
  ExpectRoundTrip(R"(
    <ir_version: 3, opset_import: ["" : 8]>
    g (float[1,2] S, float[1,3,2] X) => (float[1,2] F, float[1,3,2] O) {
      F, O = Scan<num_scan_inputs = 1, body = b (float[2] s, float[2] x) => (float[2] s2, float[2] o) {
        s2 = Add(s, x)
        o = Identity(s2)
      }>(, S, X)
    })",
                  11);
}

// Scan-8's `directions` is Scan-9's scan_input_directions: a reversed scan computes the same both
// ways (the interpreter once ignored `directions`, so the numeric check caught a forward scan).
TEST(ControlFlowAdapters, ScanDirectionsOfOpset8) {
  ExpectRoundTrip(R"(
    <ir_version: 3, opset_import: ["" : 8]>
    g (float[1,2] S, float[1,3,2] X) => (float[1,2] F, float[1,3,2] O) {
      F, O = Scan<num_scan_inputs = 1, directions = [1], body = b (float[2] s, float[2] x) => (float[2] s2, float[2] o) {
        s2 = Add(s, x)
        o = Identity(s2)
      }>(, S, X)
    })",
                  11);
}

// Model-local functions are converted with their own opset imports.
TEST(ControlFlowAdapters, FunctionBodiesAreConverted) {
  ExpectConversion(R"(
    <ir_version: 8, opset_import: ["" : 13, "local" : 1]>
    g (float[2,3] X) => (float[1,2,3] Y) { Y = local.f(X) }
    <domain: "local", opset_import: ["" : 13]>
    f (x) => (y) { a = Constant<value = int64[1] {0}>() y = Unsqueeze(x, a) })",
                   12, R"(
    <ir_version: 8, opset_import: ["" : 12, "local" : 1]>
    g (float[2,3] X) => (float[1,2,3] Y) { Y = local.f(X) }
    <domain: "local", opset_import: ["" : 12]>
    f (x) => (y) { y = Unsqueeze<axes = [0]>(x) })");
}

}  // namespace
}  // namespace onnx_opt::converter::testing
