#!/usr/bin/env python3
"""Writes tiny_cnn.textproto: a small ResNet-style CNN (Conv, BatchNormalization, Relu, Add, pooling,
Gemm) in protobuf text format. Encode it with:
  protoc --proto_path=../.. --encode=onnx.ModelProto proto/onnx.proto < tiny_cnn.textproto > tiny_cnn.onnx
Values come from a fixed linear congruential sequence so the file is reproducible."""

state = 12345


def rnd():
    global state
    state = (state * 1103515245 + 12345) % (1 << 31)
    return round((state / (1 << 31)) * 2.0 - 1.0, 4)


def tensor(name, dims, positive=False):
    n = 1
    for d in dims:
        n *= d
    vals = [abs(rnd()) + 0.5 if positive else rnd() for _ in range(n)]
    lines = [f'  initializer {{ name: "{name}" data_type: 1']
    lines += [f"    dims: {d}" for d in dims]
    lines.append("    float_data: [" + ", ".join(str(v) for v in vals) + "] }")
    return "\n".join(lines)


def node(op, inputs, outputs, name, attrs=""):
    ins = " ".join(f'input: "{i}"' for i in inputs)
    outs = " ".join(f'output: "{o}"' for o in outputs)
    return f'  node {{ {ins} {outs} name: "{name}" op_type: "{op}" {attrs}}}'


def ints(name, values):
    return f'attribute {{ name: "{name}" type: INTS ' + " ".join(f"ints: {v}" for v in values) + " } "


def value_info(kind, name, dims):
    shape = " ".join(
        f'dim {{ dim_param: "{d}" }}' if isinstance(d, str) else f"dim {{ dim_value: {d} }}" for d in dims)
    return f'  {kind} {{ name: "{name}" type {{ tensor_type {{ elem_type: 1 shape {{ {shape} }} }} }} }}'


C = 8
out = ['ir_version: 8', 'opset_import { domain: "" version: 17 }', 'producer_name: "onnx-opt testdata"',
       'graph {', '  name: "tiny_cnn"']
conv_attrs = ints("kernel_shape", [3, 3]) + ints("pads", [1, 1, 1, 1])
out.append(node("Conv", ["input", "conv1_w", "conv1_b"], ["c1"], "conv1", conv_attrs))
out.append(node("BatchNormalization", ["c1", "bn1_s", "bn1_b", "bn1_m", "bn1_v"], ["b1"], "bn1"))
out.append(node("Relu", ["b1"], ["r1"], "relu1"))
out.append(node("Conv", ["r1", "conv2_w"], ["c2"], "conv2", conv_attrs))
out.append(node("BatchNormalization", ["c2", "bn2_s", "bn2_b", "bn2_m", "bn2_v"], ["b2"], "bn2"))
out.append(node("Add", ["b2", "r1"], ["res"], "residual"))
out.append(node("Relu", ["res"], ["r2"], "relu2"))
out.append(node("GlobalAveragePool", ["r2"], ["gap"], "gap"))
out.append(node("Flatten", ["gap"], ["flat"], "flatten"))
out.append(node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], "fc", 'attribute { name: "transB" type: INT i: 1 } '))
out.append(node("Softmax", ["logits"], ["probs"], "softmax"))
out.append(tensor("conv1_w", [C, 3, 3, 3]))
out.append(tensor("conv1_b", [C]))
out.append(tensor("conv2_w", [C, C, 3, 3]))
for i in (1, 2):
    out.append(tensor(f"bn{i}_s", [C], positive=True))
    out.append(tensor(f"bn{i}_b", [C]))
    out.append(tensor(f"bn{i}_m", [C]))
    out.append(tensor(f"bn{i}_v", [C], positive=True))
out.append(tensor("fc_w", [10, C]))
out.append(tensor("fc_b", [10]))
out.append(value_info("input", "input", ["N", 3, 16, 16]))
out.append(value_info("output", "probs", ["N", 10]))
out.append("}")
with open("tiny_cnn.textproto", "w") as f:
    f.write("\n".join(out) + "\n")
