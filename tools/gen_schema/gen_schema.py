#!/usr/bin/env python3
"""Writes the operator tables in schema/defs/ from ONNX's reference schema dump.

The output is the hand-maintained C++ of schema/defs/ (one file per operator family, one
Define<Op> function per operator, written in the DSL of schema/defs/dsl.h). Re-run it when a new
reference dump arrives and review the diff; hand edits to the generated files are overwritten, so
port them into this script (family map, named type lists) or re-apply them.

  python3 tools/gen_schema/gen_schema.py \
      --reference ../shared/reference/onnx_op_schemas.json --out schema/defs

Then check with: ONNX_REFERENCE_DIR=... bazel test //schema/...
"""

import argparse
import json
import os
import struct
import sys

# ---------------------------------------------------------------------------------------------
# Which file each operator lives in. Every operator of the reference must be listed here, so a new
# operator makes the script fail until someone decides where it belongs.

FAMILIES = {
    # file stem: (domain, function suffix, one-line description, [operators])
    "math": ("ai.onnx", "Math", "elementwise arithmetic, unary math and matrix products", [
        "Abs", "Acos", "Acosh", "Add", "Asin", "Asinh", "Atan", "Atanh", "BitShift", "Ceil", "Clip",
        "Cos", "Cosh", "CumProd", "CumSum", "Det", "Div", "Einsum", "Erf", "Exp", "Floor", "Gemm",
        "IsInf", "IsNaN", "Log", "MatMul", "Max", "Mean", "Min", "Mod", "Mul", "Neg", "Pow",
        "Reciprocal", "Round", "Sign", "Sin", "Sinh", "Sqrt", "Sub", "Sum", "Tan",
    ]),
    "activation": ("ai.onnx", "Activation", "activation functions and the softmax family", [
        "Celu", "Elu", "Gelu", "HardSigmoid", "HardSwish", "Hardmax", "LeakyRelu", "LogSoftmax",
        "Mish", "PRelu", "Relu", "Selu", "Shrink", "Sigmoid", "Softmax", "Softplus", "Softsign",
        "SwiGLU", "Swish", "Tanh", "ThresholdedRelu",
    ]),
    "logical": ("ai.onnx", "Logical", "comparisons, boolean logic and bitwise operators", [
        "And", "BitwiseAnd", "BitwiseNot", "BitwiseOr", "BitwiseXor", "Equal", "Greater",
        "GreaterOrEqual", "Less", "LessOrEqual", "Not", "Or", "Xor",
    ]),
    "nn": ("ai.onnx", "Nn", "convolution, pooling, normalization, dropout and losses", [
        "AveragePool", "BatchNormalization", "CausalConvWithState", "Col2Im", "Conv",
        "ConvTranspose", "DeformConv", "Dropout", "GlobalAveragePool", "GlobalLpPool",
        "GlobalMaxPool", "GroupNormalization", "InstanceNormalization", "LRN",
        "LayerNormalization", "LpNormalization", "LpPool", "MaxPool", "MaxRoiPool", "MaxUnpool",
        "MeanVarianceNormalization", "NegativeLogLikelihoodLoss", "RMSNormalization",
        "SoftmaxCrossEntropyLoss",
    ]),
    "attention": ("ai.onnx", "Attention", "attention and positional embeddings", [
        "Attention", "LinearAttention", "RotaryEmbedding",
    ]),
    "rnn": ("ai.onnx", "Rnn", "recurrent layers", ["GRU", "LSTM", "RNN"]),
    "reduction": ("ai.onnx", "Reduction", "reductions and arg-reductions", [
        "ArgMax", "ArgMin", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
        "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare",
    ]),
    "cast": ("ai.onnx", "Cast", "type conversions", ["BitCast", "Cast", "CastLike"]),
    "tensor": ("ai.onnx", "Tensor", "shape manipulation and data movement", [
        "Concat", "DepthToSpace", "Expand", "Flatten", "Identity", "Pad", "Reshape", "Shape",
        "Size", "Slice", "SpaceToDepth", "Split", "Squeeze", "Tile", "Transpose", "Trilu",
        "Unsqueeze",
    ]),
    "indexing": ("ai.onnx", "Indexing", "gather, scatter, selection and sorting", [
        "Compress", "Gather", "GatherElements", "GatherND", "NonZero", "OneHot", "ReverseSequence",
        "Scatter", "ScatterElements", "ScatterND", "TensorScatter", "TopK", "Unique", "Where",
    ]),
    "image": ("ai.onnx", "Image", "resampling, cropping and image decoding", [
        "AffineGrid", "CenterCropPad", "GridSample", "ImageDecoder", "Resize", "Upsample",
    ]),
    "object_detection": ("ai.onnx", "ObjectDetection", "object detection", [
        "NonMaxSuppression", "RoiAlign",
    ]),
    "generator": ("ai.onnx", "Generator", "constants, ranges and random numbers", [
        "Bernoulli", "Constant", "ConstantOfShape", "EyeLike", "Multinomial", "RandomNormal",
        "RandomNormalLike", "RandomUniform", "RandomUniformLike", "Range",
    ]),
    "quantization": ("ai.onnx", "Quantization", "quantization and integer arithmetic", [
        "ConvInteger", "DequantizeLinear", "DynamicQuantizeLinear", "MatMulInteger", "QLinearConv",
        "QLinearMatMul", "QuantizeLinear",
    ]),
    "signal": ("ai.onnx", "Signal", "signal processing", [
        "BlackmanWindow", "DFT", "HammingWindow", "HannWindow", "MelWeightMatrix", "STFT",
    ]),
    "text": ("ai.onnx", "Text", "string operators", [
        "RegexFullMatch", "StringConcat", "StringNormalizer", "StringSplit", "TfIdfVectorizer",
    ]),
    "controlflow": ("ai.onnx", "ControlFlow", "control flow with subgraphs", [
        "If", "Loop", "Scan",
    ]),
    "sequence": ("ai.onnx", "Sequence", "sequences and optionals", [
        "ConcatFromSequence", "Optional", "OptionalGetElement", "OptionalHasElement", "SequenceAt",
        "SequenceConstruct", "SequenceEmpty", "SequenceErase", "SequenceInsert", "SequenceLength",
        "SequenceMap", "SplitToSequence",
    ]),
    "ml": ("ai.onnx.ml", "Ml", "traditional machine learning (domain ai.onnx.ml)", None),
    "training": ("ai.onnx.preview.training", "Training",
                 "training operators (domain ai.onnx.preview.training)", None),
    "preview": ("ai.onnx.preview", "Preview", "preview operators (domain ai.onnx.preview)", None),
}
# None above: every operator of that domain.

# domain: (constant in schema/domains.h, variable name in all_defs.cc)
DOMAIN_CONSTANTS = {
    "ai.onnx": ("kOnnxDomain", "onnx"),
    "ai.onnx.ml": ("kMlDomain", "ml"),
    "ai.onnx.preview.training": ("kPreviewTrainingDomain", "training"),
    "ai.onnx.preview": ("kPreviewDomain", "preview"),
}

# ---------------------------------------------------------------------------------------------
# Named type lists. Order matters (the reference lists allowed types in ONNX's order), so two
# lists with the same types in another order are different lists. Names follow ONNX's helpers
# (all_tensor_types_ir4 -> kAllTensorsIr4); "Ir4" etc. is the IR version that added the types.


def t(*names):
    return ["tensor(%s)" % n for n in names]


FLOATS = t("float16", "float", "double")
NUMERIC = t("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64") + FLOATS
ALL = NUMERIC + t("string", "bool", "complex64", "complex128")
ALL_IR4 = t("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "bfloat16",
            "float16", "float", "double", "string", "bool", "complex64", "complex128")
FLOAT8 = t("float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz")
ALL_IR9 = ALL_IR4 + FLOAT8
ALL_IR10 = ALL_IR9 + t("uint4", "int4")
ALL_IR11 = ALL_IR10 + t("float4e2m1")
ALL_IR12 = ALL_IR11 + t("float8e8m0")
ALL_IR13 = ALL_IR12 + t("uint2", "int2")
NONCOMPLEX = lambda l: [x for x in l if "complex" not in x]
CAST_V1 = FLOATS + t("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                     "bool")


def seq(l):
    return ["seq(%s)" % x for x in l]


def opt(l):
    return ["optional(%s)" % x for x in l]


# (name, comment, types). Blocks used only inside Join() are named too.
NAMED_LISTS = [
    ("kFloatTensors", "float16, float, double", FLOATS),
    ("kFloatTensorsAndBf16", "kFloatTensors, then bfloat16", FLOATS + t("bfloat16")),
    ("kFloatTensorsIr4", "bfloat16 first, then kFloatTensors", t("bfloat16") + FLOATS),
    ("kFloatTensorsIr9", "kFloatTensorsIr4 and the float8 types", t("bfloat16") + FLOATS + FLOAT8),
    ("kIntegerTensors", "all 8- to 64-bit integers",
     t("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")),
    ("kNumericTensors", "integers and kFloatTensors", NUMERIC),
    ("kNumericTensorsIr4", "kNumericTensors and bfloat16", NUMERIC + t("bfloat16")),
    ("kNumericAndBoolTensorsIr4", "integers, bfloat16, kFloatTensors and bool",
     NONCOMPLEX(ALL_IR4)[:12] + t("bool")),
    ("kMathTensors", "32/64-bit integers and kFloatTensors",
     t("uint32", "uint64", "int32", "int64") + FLOATS),
    ("kMathTensorsIr4", "kMathTensors and bfloat16",
     t("uint32", "uint64", "int32", "int64") + FLOATS + t("bfloat16")),
    ("kFloat8Tensors", "the four float8 types", FLOAT8),
    ("kAllTensors", "every tensor type of IR 3", ALL),
    ("kAllTensorsIr4", "every tensor type of IR 4 (adds bfloat16)", ALL_IR4),
    ("kAllTensorsIr9", "every tensor type of IR 9 (adds float8)", ALL_IR9),
    ("kAllTensorsIr10", "every tensor type of IR 10 (adds uint4, int4)", ALL_IR10),
    ("kAllTensorsIr11", "every tensor type of IR 11 (adds float4e2m1)", ALL_IR11),
    ("kAllTensorsIr12", "every tensor type of IR 12 (adds float8e8m0)", ALL_IR12),
    ("kAllTensorsIr13", "every tensor type of IR 13 (adds uint2, int2)", ALL_IR13),
    ("kNonComplexTensorsIr10", "kAllTensorsIr10 without complex", NONCOMPLEX(ALL_IR10)),
    ("kNonComplexTensorsIr11", "kAllTensorsIr11 without complex", NONCOMPLEX(ALL_IR11)),
    ("kNonComplexTensorsIr12", "kAllTensorsIr12 without complex", NONCOMPLEX(ALL_IR12)),
    ("kNonComplexTensorsIr13", "kAllTensorsIr13 without complex", NONCOMPLEX(ALL_IR13)),
    ("kNonStringTensorsIr13", "kAllTensorsIr13 without string",
     [x for x in ALL_IR13 if x != "tensor(string)"]),
    ("kCastTensorsV1", "Cast-1's order", CAST_V1),
    ("kCastTensorsV9", "Cast-9: kCastTensorsV1 and string", CAST_V1 + t("string")),
    ("kCastTensorsV13", "Cast-13: kCastTensorsV9 and bfloat16", CAST_V1 + t("string", "bfloat16")),
    ("kCastTensorsV19", "Cast-19: kCastTensorsV13 and float8",
     CAST_V1 + t("string", "bfloat16") + FLOAT8),
    ("kCastTensorsV21", "Cast-21: kCastTensorsV19 and uint4, int4",
     CAST_V1 + t("string", "bfloat16") + FLOAT8 + t("uint4", "int4")),
]
for _suffix, _types in [("", ALL), ("Ir4", ALL_IR4), ("Ir9", ALL_IR9), ("Ir10", ALL_IR10),
                        ("Ir11", ALL_IR11), ("Ir12", ALL_IR12), ("Ir13", ALL_IR13)]:
    NAMED_LISTS.append(("kAllTensorSequences" + _suffix, "seq() of kAllTensors" + _suffix,
                        seq(_types)))
    NAMED_LISTS.append(("kAllOptionalTensors" + _suffix, "optional() of kAllTensors" + _suffix,
                        opt(_types)))
    NAMED_LISTS.append(("kAllOptionalTensorSequences" + _suffix,
                        "optional(seq()) of kAllTensors" + _suffix, opt(seq(_types))))

# A list is written as Join(...) only if its pieces include a named list of at least this size and
# there are few pieces; otherwise it is written out inline.
MIN_BLOCK_FOR_JOIN = 3
MAX_JOIN_PIECES = 6
LINE_LIMIT = 100

# ---------------------------------------------------------------------------------------------


def cpp_str(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            raise ValueError("unexpected character in %r" % s)
    return '"%s"' % "".join(out)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def cpp_float(x):
    """Shortest float literal that reads back as the same float32 (the reference widens float32
    defaults to double, e.g. 9.999999747378752e-06 for 1e-05f)."""
    if f32(x) != x:
        raise ValueError("default %r is not a float32 value" % x)
    if x == 0.0:
        return "-0.0f" if struct.pack("<d", x)[7] & 0x80 else "0.0f"
    for p in range(1, 10):
        s = "%.*g" % (p, x)
        try:
            if f32(float(s)) == x:
                break
        except OverflowError:  # rounded above FLT_MAX
            pass
    if "." not in s and "e" not in s:
        s += ".0"
    return s + "f"


class TypeListWriter:
    def __init__(self):
        self.by_tuple = {}
        for name, _, types in NAMED_LISTS:
            assert len(set(types)) == len(types), name
            self.by_tuple.setdefault(tuple(types), name)
        self.used = set()

    def expr(self, allowed):
        """(opening, items, closing) of the C++ expression for a list of allowed types."""
        key = tuple(allowed)
        if key in self.by_tuple:
            self.used.add(self.by_tuple[key])
            return "", [self.by_tuple[key]], ""
        pieces = self.decompose(allowed)
        if (len(pieces) <= MAX_JOIN_PIECES and
                any(isinstance(p, tuple) and len(p[1]) >= MIN_BLOCK_FOR_JOIN for p in pieces)):
            parts = []
            for p in pieces:
                if isinstance(p, tuple):
                    self.used.add(p[0])
                    parts.append(p[0])
                else:
                    parts.append(cpp_str(p))
            return "Join(", parts, ")"
        return "{", [cpp_str(x) for x in allowed], "}"

    def decompose(self, allowed):
        """Fewest pieces (named lists or single types) whose concatenation is `allowed`."""
        n = len(allowed)
        best = [None] * (n + 1)
        best[0] = []
        for i in range(n):
            if best[i] is None:
                continue
            options = [allowed[i]]
            for name, _, types in NAMED_LISTS:
                if len(types) > 1 and tuple(allowed[i:i + len(types)]) == tuple(types):
                    options.append((name, types))
            for o in options:
                j = i + (len(o[1]) if isinstance(o, tuple) else 1)
                cand = best[i] + [o]
                if best[j] is None or len(cand) < len(best[j]):
                    best[j] = cand
        return best[n]


def param_expr(p):
    flags = []
    if p["option"] == "optional":
        flags.append("kOptional")
    elif p["option"] == "variadic":
        flags.append("kVariadic")
    if not p["homogeneous"]:
        flags.append("kHeterogeneous")
    diff = {"Unknown": None, "Differentiable": "kDiff", "NonDifferentiable": "kNonDiff"}
    if diff[p["differentiable"]]:
        flags.append(diff[p["differentiable"]])
    args = [cpp_str(p["name"]), cpp_str(p["type"])]
    if flags or p["min_arity"] != 1:
        args.append(" | ".join(flags) if flags else "kSingle")
    if p["min_arity"] != 1:
        assert p["option"] == "variadic"
        args.append(str(p["min_arity"]))
    return ", ".join(args)


ATTR_TYPES = {
    "FLOAT": "kFloat", "INT": "kInt", "STRING": "kString", "TENSOR": "kTensor", "GRAPH": "kGraph",
    "FLOATS": "kFloats", "INTS": "kInts", "STRINGS": "kStrings", "TENSORS": "kTensors",
    "GRAPHS": "kGraphs", "SPARSE_TENSOR": "kSparseTensor", "SPARSE_TENSORS": "kSparseTensors",
    "TYPE_PROTO": "kTypeProto", "TYPE_PROTOS": "kTypeProtos",
}


def attr_expr(a):
    args = [cpp_str(a["name"]), ATTR_TYPES[a["type"]]]
    d = a["default"]
    if a["required"]:
        assert d is None, a
        args.append("kRequired")
    elif d is not None:
        ty = a["type"]
        if ty == "INT":
            assert isinstance(d, int)
            args.append(str(d))
        elif ty == "FLOAT":
            args.append(cpp_float(float(d)))
        elif ty == "STRING":
            args.append(cpp_str(d))
        elif ty == "INTS":
            args.append("{%s}" % ", ".join(str(int(x)) for x in d))
        elif ty == "STRINGS":
            args.append("{%s}" % ", ".join(cpp_str(x) for x in d))
        elif ty == "FLOATS":
            args.append("std::vector<float>{%s}" % ", ".join(cpp_float(float(x)) for x in d))
        else:
            raise ValueError("no default syntax for %s" % ty)
    return ", ".join(args)


def schema_stmt(s, types):
    lines = ["  s.Op(%s, %d)" % (cpp_str(s["op_type"]), s["since_version"])]
    if s["deprecated"]:
        lines.append("      .Deprecated()")
    if s["has_function_body"]:
        lines.append("      .HasFunctionBody()")
    for p in s["inputs"]:
        lines.append("      .Input(%s)" % param_expr(p))
    for p in s["outputs"]:
        lines.append("      .Output(%s)" % param_expr(p))
    for a in s["attributes"]:
        lines.append("      .Attr(%s)" % attr_expr(a))
    for tc in s["type_constraints"]:
        opening, items, closing = types.expr(tc["allowed"])
        lines.extend(wrap("      .TypeConstraint(%s, %s" % (cpp_str(tc["param"]), opening), items,
                          closing + ")"))
    return "\n".join(lines) + ";"


def wrap(prefix, items, suffix):
    """prefix + items joined by ", " + suffix, continued under the first item past LINE_LIMIT
    (leaving room for the statement's closing ';')."""
    lines, line = [], prefix
    for i, item in enumerate(items):
        piece = item + (", " if i + 1 < len(items) else suffix)
        if line != prefix and len(line) + len(piece.rstrip()) > LINE_LIMIT - 1:
            lines.append(line.rstrip())
            line = " " * len(prefix)
        line += piece
    lines.append(line)
    return lines


def check_derived_arity(s):
    """The tables derive min/max arity from the parameters; make sure that reproduces the
    reference, or this operator would need an explicit override."""
    def derive(ps):
        lo = hi = 0
        for p in ps:
            if p["option"] == "single":
                hi += 1
                lo = hi
            elif p["option"] == "optional":
                hi += 1
            else:
                lo = hi + p["min_arity"]
                hi = 2147483647
        return lo, hi
    if (derive(s["inputs"]) != (s["min_input"], s["max_input"]) or
            derive(s["outputs"]) != (s["min_output"], s["max_output"])):
        sys.exit("%s-%d: arity is not derivable from its parameters" %
                 (s["op_type"], s["since_version"]))


HEADER = """\
// Operator schemas: {desc}.
//
// One Define<Op> function per operator holding all of its versions, oldest first. A new version
// (say for opset 29) is one more s.Op(...) statement at the end of its operator's function. Written
// in the DSL of schema/defs/dsl.h; first generated by tools/gen_schema/gen_schema.py.
"""


def family_file(stem, domain, suffix, desc, ops, by_op, types):
    out = [HEADER.format(desc=desc)]
    out.append('#include "schema/defs/defs.h"')
    out.append('#include "schema/defs/dsl.h"')
    out.append('#include "schema/defs/type_lists.h"')
    out.append("")
    out.append("namespace onnx_opt::schema::defs {")
    out.append("namespace {")
    for op in ops:
        out.append("")
        out.append("void Define%s(SchemaSink& s) {" % op)
        out.append("\n".join(schema_stmt(s, types) for s in by_op[(domain, op)]))
        out.append("}")
    out.append("")
    out.append("constexpr OpDefinition k%sOps[] = {" % suffix)
    for op in ops:
        out.append('    {"%s", Define%s},' % (op, op))
    out.append("};")
    out.append("")
    out.append("}  // namespace")
    out.append("")
    out.append("absl::Span<const OpDefinition> %sOps() { return k%sOps; }" % (suffix, suffix))
    out.append("")
    out.append("}  // namespace onnx_opt::schema::defs")
    return "\n".join(out) + "\n"


def type_lists_header(used):
    out = ["""\
#ifndef ONNX_OPT_SCHEMA_DEFS_TYPE_LISTS_H_
#define ONNX_OPT_SCHEMA_DEFS_TYPE_LISTS_H_

// Named lists of allowed types for the operator tables. Order is ONNX's and matters: the tables are
// compared with ONNX's schemas list by list. Combine lists with Join() (schema/defs/dsl.h).

#include <string_view>

namespace onnx_opt::schema::defs {
"""]
    for name, comment, types in NAMED_LISTS:
        if name not in used:
            continue
        out.append("// %s" % comment)
        out.append("inline constexpr std::string_view %s[] = {" % name)
        line = "   "
        for x in types:
            item = " %s," % cpp_str(x)
            if len(line) + len(item) > 100:
                out.append(line)
                line = "   "
            line += item
        out.append(line)
        out.append("};")
        out.append("")
    out.append("}  // namespace onnx_opt::schema::defs")
    out.append("")
    out.append("#endif  // ONNX_OPT_SCHEMA_DEFS_TYPE_LISTS_H_")
    return "\n".join(out) + "\n"


def defs_header(families):
    decls = "\n".join("absl::Span<const OpDefinition> %sOps();  // %s.cc" % (suffix, stem)
                      for stem, (_, suffix, _, _) in families)
    return """\
#ifndef ONNX_OPT_SCHEMA_DEFS_DEFS_H_
#define ONNX_OPT_SCHEMA_DEFS_DEFS_H_

// The operator tables, one per family file: which function declares each operator's versions. Only
// op_registry.cc reads them, and runs an operator's function the first time the operator is looked up.

#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "schema/defs/dsl.h"
#include "schema/op_schema.h"

namespace onnx_opt::schema::defs {

%s

struct DomainOpDefinition {
  std::string_view domain;
  OpDefinition op;
};
// Every operator of every domain, in no particular order (all_defs.cc).
std::vector<DomainOpDefinition> AllOpDefinitions();

}  // namespace onnx_opt::schema::defs

#endif  // ONNX_OPT_SCHEMA_DEFS_DEFS_H_
""" % decls


def all_defs_cc(families):
    rows = "\n".join("      {%s, %sOps}," % (DOMAIN_CONSTANTS[domain][0], suffix)
                     for stem, (domain, suffix, _, _) in families)
    return """\
// Lists every family table by domain; a new family file is one more line here.

#include <vector>

#include "schema/defs/defs.h"
#include "schema/defs/dsl.h"
#include "schema/domains.h"

namespace onnx_opt::schema::defs {

std::vector<DomainOpDefinition> AllOpDefinitions() {
  struct Family {
    std::string_view domain;
    absl::Span<const OpDefinition> (*ops)();
  };
  static constexpr Family kFamilies[] = {
%s
  };
  std::vector<DomainOpDefinition> all;
  all.reserve(256);
  for (const Family& f : kFamilies) {
    for (const OpDefinition& op : f.ops()) all.push_back({f.domain, op});
  }
  return all;
}

}  // namespace onnx_opt::schema::defs
""" % rows


def releases_cc(version_table):
    rows = []
    for r in version_table:
        extra = set(r) - {"release", "ir_version", "ai.onnx", "ai.onnx.ml", "ai.onnx.training"}
        if extra:
            sys.exit("version_table has unknown columns %s" % sorted(extra))
        rows.append("    {%s, %d, %d, %d, %d}," % (cpp_str(r["release"]), r["ir_version"],
                                                  r["ai.onnx"], r["ai.onnx.ml"],
                                                  r.get("ai.onnx.training", 0)))
    return """\
// ONNX releases and the IR version and opsets each one shipped, oldest first (ONNX's
// docs/Versioning.md). A new release is one more row; first generated by
// tools/gen_schema/gen_schema.py.

#include "schema/defs/releases.h"

#include "absl/types/span.h"
#include "schema/version_table.h"

namespace onnx_opt::schema::defs {

absl::Span<const Release> ReleaseRows() {
  static constexpr Release kRows[] = {
    // release, ir_version, ai.onnx, ai.onnx.ml, ai.onnx.training (0: not yet)
%s
  };
  return kRows;
}

}  // namespace onnx_opt::schema::defs
""" % "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", required=True, help="onnx_op_schemas.json")
    ap.add_argument("--out", required=True, help="output folder (schema/defs)")
    args = ap.parse_args()

    with open(args.reference) as f:
        ref = json.load(f)

    by_op = {}
    for s in ref["schemas"]:
        check_derived_arity(s)
        by_op.setdefault((s["domain"], s["op_type"]), []).append(s)
    for v in by_op.values():
        v.sort(key=lambda s: s["since_version"])

    families = []
    placed = set()
    for stem, (domain, suffix, desc, ops) in FAMILIES.items():
        if ops is None:
            ops = sorted(op for d, op in by_op if d == domain)
        for op in ops:
            if (domain, op) not in by_op:
                sys.exit("%s lists %s, which the reference does not define" % (stem, op))
            if (domain, op) in placed:
                sys.exit("%s is listed twice" % op)
            placed.add((domain, op))
        families.append((stem, (domain, suffix, desc, ops)))
    missing = sorted(set(by_op) - placed)
    if missing:
        sys.exit("operators without a family in FAMILIES: %s" % missing)

    types = TypeListWriter()
    os.makedirs(args.out, exist_ok=True)

    def write(name, text):
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)

    for stem, (domain, suffix, desc, ops) in families:
        write(stem + ".cc", family_file(stem, domain, suffix, desc, ops, by_op, types))
    write("type_lists.h", type_lists_header(types.used))
    write("defs.h", defs_header(families))
    write("all_defs.cc", all_defs_cc(families))
    write("releases.cc", releases_cc(ref["version_table"]))
    print("wrote %d schemas of %d operators in %d families to %s" %
          (len(ref["schemas"]), len(by_op), len(families), args.out))


if __name__ == "__main__":
    main()
