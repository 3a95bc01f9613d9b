// Sweep cases for control flow: If, Loop and Scan with small bodies, at their first versions (the
// sweep converts them up to every later version and back down).
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(flow, {
                               {"If-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (bool c, float[2,3] x) => (y) {
        y = If(c) <
          then_branch = t () => (float[2,3] ty) { ty = Add(x, x) },
          else_branch = e () => (float[2,3] ey) { ey = Neg(x) }
        >
      })"},
                               {"If-11-unsqueeze", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (bool c, float[2,3] x) => (y) {
        y = If(c) <
          then_branch = t () => (float[1,2,3] ty) { ty = Unsqueeze<axes = [0]>(x) },
          else_branch = e () => (float[1,2,3] ey) { n = Neg(x) ey = Unsqueeze<axes = [0]>(n) }
        >
      })"},
                               {"Loop-1", R"(
      <ir_version: 4, opset_import: ["" : 1]>
      g (float[2] x) => (s) <int64 n = {3}, bool go = {1}> {
        s = Loop(n, go, x) <body = b (int64 i, bool cond, float[2] acc) => (bool cond_out, float[2] acc_out) {
          cond_out = Identity(cond)
          acc_out = Add(acc, acc)
        }>
      })"},
                               {"Loop-11-scan-output", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (float[2] x) => (s, all) <int64 n = {3}, bool go = {1}> {
        s, all = Loop(n, go, x) <body = b (int64 i, bool cond, float[2] acc) => (bool cond_out, float[2] acc_out, float[2] each) {
          cond_out = Identity(cond)
          acc_out = Add(acc, x)
          each = Identity(acc_out)
        }>
      })"},
                               {"Scan-9", R"(
      <ir_version: 4, opset_import: ["" : 9]>
      g (float[2] init, float[3,2] xs) => (final, ys) {
        final, ys = Scan<num_scan_inputs = 1, body = b (float[2] s, float[2] x) => (float[2] s2, float[2] o) {
          s2 = Add(s, x)
          o = Identity(s2)
        }>(init, xs)
      })"},
                               {"Scan-8", R"(
      <ir_version: 3, opset_import: ["" : 8]>
      g (float[1,2] init, float[1,3,2] xs) => (final, ys) {
        final, ys = Scan<num_scan_inputs = 1, body = b (float[2] s, float[2] x) => (float[2] s2, float[2] o) {
          s2 = Add(s, x)
          o = Identity(s2)
        }>(, init, xs)
      })"},
                           });

}  // namespace onnx_opt::converter
