// Sweep cases for the sequence and optional operators, with sequence-typed graph inputs (the
// equivalence check feeds them random sequences); below opset 11 they have no expansion and
// converting there must be refused.
#include "converter/testing/sweep_cases/sweep_cases.h"

namespace onnx_opt::converter {

REGISTER_SWEEP_CASES(sequence, {
                                   {"SequenceAt-11", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (seq(float[2]) s) => (y) <int64 i = {0}> { y = SequenceAt(s, i) })"},
                                   {"SequenceLength-11", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (seq(float[2]) s) => (y) { y = SequenceLength(s) })"},
                                   {"SequenceErase-11", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (seq(float[2]) s) => (y) <int64 i = {0}> { t = SequenceErase(s, i)  y = SequenceLength(t) })"},
                                   {"SequenceInsert-11", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (seq(float[2]) s, float[2] x) => (y) { t = SequenceInsert(s, x)  y = SequenceLength(t) })"},
                                   {"ConcatFromSequence-11", R"(
      <ir_version: 6, opset_import: ["" : 11]>
      g (seq(float[2]) s) => (y) { y = ConcatFromSequence<axis = 0>(s) })"},
                                   {"SequenceMap-17", R"(
      <ir_version: 8, opset_import: ["" : 17]>
      g (seq(float[2]) s) => (y) {
        t = SequenceMap(s) <body = b (float[2] x) => (float[2] z) { z = Neg(x) }>
        y = ConcatFromSequence<axis = 0>(t)
      })"},
                                   {"OptionalHasElement-15", R"(
      <ir_version: 8, opset_import: ["" : 15]>
      g (optional(float[2]) o) => (y) { y = OptionalHasElement(o) })"},
                                   {"OptionalGetElement-15", R"(
      <ir_version: 8, opset_import: ["" : 15]>
      g (optional(float[2]) o) => (y) { y = OptionalGetElement(o) })"},
                               });

}  // namespace onnx_opt::converter
