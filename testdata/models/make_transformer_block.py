#!/usr/bin/env python3
"""Writes transformer_block.textproto: one encoder block written the way exporters write it at opset 20:
LayerNormalization and Gelu as primitive ops, multi-head attention with the head shape computed from
Shape/Gather/Unsqueeze/Concat. Encode it with:
  protoc --proto_path=../.. --encode=onnx.ModelProto proto/onnx.proto \
      < transformer_block.textproto > transformer_block.onnx
Values come from a fixed linear congruential sequence so the file is reproducible."""

state = 2024


def rnd(scale=0.3):
    global state
    state = (state * 1103515245 + 12345) % (1 << 31)
    return round(((state / (1 << 31)) * 2.0 - 1.0) * scale, 4)


B, T, D, H, F = 1, 8, 32, 4, 64
DH = D // H
out = []


def init_float(name, dims, values=None):
    n = 1
    for d in dims:
        n *= d
    if values is None:
        values = [rnd() for _ in range(n)]
    lines = [f'  initializer {{ name: "{name}" data_type: 1'] + [f"    dims: {d}" for d in dims]
    lines.append("    float_data: [" + ", ".join(str(v) for v in values) + "] }")
    out.append("\n".join(lines))


def init_int64(name, dims, values):
    lines = [f'  initializer {{ name: "{name}" data_type: 7'] + [f"    dims: {d}" for d in dims]
    lines.append("    int64_data: [" + ", ".join(str(v) for v in values) + "] }")
    out.append("\n".join(lines))


def node(op, inputs, outputs, attrs=""):
    ins = " ".join(f'input: "{i}"' for i in inputs)
    outs = " ".join(f'output: "{o}"' for o in outputs)
    out.append(f'  node {{ {ins} {outs} op_type: "{op}" {attrs}}}')


def ints(name, values):
    return f'attribute {{ name: "{name}" type: INTS ' + " ".join(f"ints: {v}" for v in values) + " } "


def layer_norm(x, p):
    node("ReduceMean", [x, "axes_last"], [p + "_mean"])
    node("Sub", [x, p + "_mean"], [p + "_d"])
    node("Pow", [p + "_d", "two"], [p + "_sq"])
    node("ReduceMean", [p + "_sq", "axes_last"], [p + "_var"])
    node("Add", [p + "_var", "eps"], [p + "_vare"])
    node("Sqrt", [p + "_vare"], [p + "_std"])
    node("Div", [p + "_d", p + "_std"], [p + "_norm"])
    node("Mul", [p + "_norm", p + "_gamma"], [p + "_scaled"])
    node("Add", [p + "_scaled", p + "_beta"], [p + "_out"])
    init_float(p + "_gamma", [D], [1.0 + rnd(0.1) for _ in range(D)])
    init_float(p + "_beta", [D])
    return p + "_out"


out += ['ir_version: 9', 'opset_import { domain: "" version: 20 }', 'producer_name: "onnx-opt testdata"',
        'graph {', '  name: "transformer_block"']
ln1 = layer_norm("X", "ln1")
for w in "qkv":
    node("MatMul", [ln1, f"W{w}"], [f"{w}_mm"])
    node("Add", [f"{w}_mm", f"b{w}"], [f"{w}_lin"])
    init_float(f"W{w}", [D, D])
    init_float(f"b{w}", [D])
# Head shape from the input's shape, as exporters write it.
node("Shape", ["X"], ["x_shape"])
node("Gather", ["x_shape", "zero"], ["batch"], 'attribute { name: "axis" type: INT i: 0 } ')
node("Gather", ["x_shape", "one"], ["seq"], 'attribute { name: "axis" type: INT i: 0 } ')
node("Unsqueeze", ["batch", "axes0"], ["batch1"])
node("Unsqueeze", ["seq", "axes0"], ["seq1"])
node("Concat", ["batch1", "seq1", "heads", "head_dim"], ["head_shape"], 'attribute { name: "axis" type: INT i: 0 } ')
for w, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]), ("v", [0, 2, 1, 3])):
    node("Reshape", [f"{w}_lin", "head_shape"], [f"{w}_heads"])
    node("Transpose", [f"{w}_heads"], [f"{w}_t"], ints("perm", perm))
node("MatMul", ["q_t", "k_t"], ["scores"])
node("Div", ["scores", "sqrt_dh"], ["scaled"])
node("Softmax", ["scaled"], ["probs"], 'attribute { name: "axis" type: INT i: -1 } ')
node("MatMul", ["probs", "v_t"], ["ctx"])
node("Transpose", ["ctx"], ["ctx_t"], ints("perm", [0, 2, 1, 3]))
node("Concat", ["batch1", "seq1", "model_dim"], ["merged_shape"], 'attribute { name: "axis" type: INT i: 0 } ')
node("Reshape", ["ctx_t", "merged_shape"], ["ctx_merged"])
node("MatMul", ["ctx_merged", "Wo"], ["o_mm"])
node("Add", ["o_mm", "bo"], ["attn"])
node("Add", ["X", "attn"], ["res1"])
ln2 = layer_norm("res1", "ln2")
node("MatMul", [ln2, "W1"], ["f1_mm"])
node("Add", ["f1_mm", "b1"], ["f1"])
node("Div", ["f1", "sqrt2"], ["g_a"])
node("Erf", ["g_a"], ["g_b"])
node("Add", ["g_b", "one_f"], ["g_c"])
node("Mul", ["f1", "g_c"], ["g_d"])
node("Mul", ["g_d", "half"], ["gelu"])
node("MatMul", ["gelu", "W2"], ["f2_mm"])
node("Add", ["f2_mm", "b2"], ["f2"])
node("Add", ["res1", "f2"], ["Y"])
init_float("Wo", [D, D])
init_float("bo", [D])
init_float("W1", [D, F])
init_float("b1", [F])
init_float("W2", [F, D])
init_float("b2", [D])
init_float("two", [], [2.0])
init_float("eps", [], [1e-5])
init_float("sqrt_dh", [], [DH ** 0.5])
init_float("sqrt2", [], [2 ** 0.5])
init_float("one_f", [], [1.0])
init_float("half", [], [0.5])
init_int64("axes_last", [1], [-1])
init_int64("axes0", [1], [0])
init_int64("zero", [], [0])
init_int64("one", [], [1])
init_int64("heads", [1], [H])
init_int64("head_dim", [1], [DH])
init_int64("model_dim", [1], [D])
out.append(f'  input {{ name: "X" type {{ tensor_type {{ elem_type: 1 shape {{ dim {{ dim_value: {B} }} '
           f'dim {{ dim_value: {T} }} dim {{ dim_value: {D} }} }} }} }} }}')
out.append(f'  output {{ name: "Y" type {{ tensor_type {{ elem_type: 1 shape {{ dim {{ dim_value: {B} }} '
           f'dim {{ dim_value: {T} }} dim {{ dim_value: {D} }} }} }} }} }}')
out.append("}")
with open("transformer_block.textproto", "w") as f:
    f.write("\n".join(out) + "\n")
