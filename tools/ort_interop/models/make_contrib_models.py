#!/usr/bin/env python3
"""Writes the interop suite's contrib models (onnxruntime's com.microsoft operators, as its transformer
optimizer and model builder write them) in the ONNX text syntax: run it in this folder to regenerate
the contrib_*.onnxtxt written below. The standardize pass turns them into standard ONNX.

  contrib_bert: a BERT layer at opset 17 as onnxruntime's transformer optimizer writes it:
    EmbedLayerNormalization (its mask_index, key lengths [batch], into Attention), Attention with the
    packed QKV projection, SkipLayerNormalization (bias, beta), FastGelu with its bias.
  contrib_llama: a Llama-like layer at opset 17 with 4-bit weights as the model builder writes them:
    SkipSimplifiedLayerNormalization (its sum used too), MatMulNBits (with and without zero points),
    RotaryEmbedding by position_ids, causal MultiHeadAttention, QuickGelu, FusedMatMul (transB).
  contrib_gqa: GroupQueryAttention (4 query heads over 2 KV heads, its own rotary) on a prompt of 5
    tokens without a cache, total_sequence_length constant, and its present outputs.
  contrib_gqa_cache: the same with a KV cache of 4 and a chunk of 3 new tokens in a full sequence
    (seqlens_k the constant 6, total_sequence_length 7), causal from the cache's end, its presents
    (batch 1: onnxruntime 1.30's CPU kernel takes a chunk after a past only for one sequence).
  contrib_gqa_mask: GroupQueryAttention as the model builder writes a decoder layer's: seqlens_k and
    total_sequence_length computed from the attention mask [batch, total] at run time (ReduceSum - 1,
    its length), a KV cache [batch, 2, past, 16] of any length (0 on the first run), rotary, a
    local window of 4 and softcap: run on a padded first prompt and on a decode step whose
    sequences have different lengths.
  contrib_gqa_mask_half: the same in float16 (its projections in float32), for a decode step.
  contrib_gpt2: a GPT-2 decoder's attention as onnxruntime's transformer optimizer writes it: Attention
    with the packed QKV projection, unidirectional, past [2, batch, 4, past, 8] and present, the
    attention mask [batch, past + seq] (int32); run on a chunk after a past and on a decode step.
  contrib_gpt2_left: the same with a constant left-padded mask, a sequence whose first new token
    sees only masked keys.
  contrib_mha_cache: a decoder's MultiHeadAttention (separate Q, K, V projections, bias) with
    unidirectional, past_key/past_value [batch, 4, past, 8] and presents, the attention mask
    [batch, past + seq] (int32).
  contrib_misc: GatherBlockQuantized (packed 4-bit table), BiasGelu, Gelu, FusedMatMul (alpha).

Weights come from a fixed linear congruential sequence, so the files are reproducible."""

import math

state = 37


def rnd(scale=0.3):
    global state
    state = (state * 1103515245 + 12345) % (1 << 31)
    return round(((state / (1 << 31)) * 2.0 - 1.0) * scale, 4)


def rbyte():
    global state
    state = (state * 1103515245 + 12345) % (1 << 31)
    return (state >> 8) % 256


class Model:
    def __init__(self):
        self.inits = []
        self.nodes = []

    def tensor(self, type_, name, dims, values):
        shape = "[" + ",".join(map(str, dims)) + "]" if dims else ""
        self.inits.append(f"{type_}{shape} {name} = {{{', '.join(map(str, values))}}}")

    def floats(self, name, dims, scale=0.3, offset=0.0):
        self.tensor("float", name, dims, [repr(float(round(rnd(scale) + offset, 4))) for _ in range(math.prod(dims))])

    def bytes(self, name, dims):
        self.tensor("uint8", name, dims, [rbyte() for _ in range(math.prod(dims))])

    def node(self, outputs, op, inputs, attrs=""):
        attrs = f"<{attrs}>" if attrs else ""
        self.nodes.append(f"  {outputs} = {op}{attrs}({', '.join(inputs)})")

    def write(self, name, opset, signature):
        header = (f'# Written by make_contrib_models.py: {name}\n<ir_version: 10, opset_import: ["" : {opset}, '
                  f'"com.microsoft" : 1], producer_name: "onnx-opt ort_interop">')
        text = f"{header}\n{name} {signature}\n<" + ",\n ".join(self.inits) + ">\n{\n" + "\n".join(self.nodes) + "\n}\n"
        with open(f"{name}.onnxtxt", "w") as f:
            f.write(text)


def nbits(m, name, k, n, block, zero_points):
    """A MatMulNBits weight [n, k] in 4-bit blocks: packed bytes, scales, optional packed zero points."""
    blocks = (k + block - 1) // block
    m.bytes(f"{name}_q", [n, blocks, block // 2])
    m.floats(f"{name}_s", [n * blocks], 0.02, 0.03)
    if zero_points:
        m.bytes(f"{name}_zp", [n, (blocks + 1) // 2])
    return [f"{name}_q", f"{name}_s"] + ([f"{name}_zp"] if zero_points else [])


def contrib_bert():
    hidden, heads, ffn, vocab, positions = 16, 2, 32, 30, 32
    m = Model()
    m.floats("word", [vocab, hidden])
    m.floats("pos", [positions, hidden])
    m.floats("seg", [2, hidden])
    for g in ("ln0", "ln1", "ln2"):
        m.floats(f"{g}_gamma", [hidden], 0.1, 1.0)
        m.floats(f"{g}_beta", [hidden], 0.1)
    m.floats("qkv_w", [hidden, 3 * hidden])
    m.floats("qkv_b", [3 * hidden], 0.1)
    m.floats("out_w", [hidden, hidden])
    m.floats("out_b", [hidden], 0.1)
    m.floats("ffn1_w", [hidden, ffn])
    m.floats("ffn1_b", [ffn], 0.1)
    m.floats("ffn2_w", [ffn, hidden])
    m.floats("ffn2_b", [hidden], 0.1)
    m.node("emb, mask_index", "com.microsoft.EmbedLayerNormalization",
           ["input_ids", "segment_ids", "word", "pos", "seg", "ln0_gamma", "ln0_beta", "input_mask"], "epsilon = 1e-12")
    m.node("ctx", "com.microsoft.Attention", ["emb", "qkv_w", "qkv_b", "mask_index"], f"num_heads = {heads}")
    m.node("att", "MatMul", ["ctx", "out_w"])
    m.node("h1", "com.microsoft.SkipLayerNormalization", ["att", "emb", "ln1_gamma", "ln1_beta", "out_b"],
           "epsilon = 1e-12")
    m.node("f1", "MatMul", ["h1", "ffn1_w"])
    m.node("f2", "com.microsoft.FastGelu", ["f1", "ffn1_b"])
    m.node("f3", "MatMul", ["f2", "ffn2_w"])
    m.node("Y", "com.microsoft.SkipLayerNormalization", ["f3", "h1", "ln2_gamma", "ln2_beta", "ffn2_b"],
           "epsilon = 1e-12")
    m.write("contrib_bert", 17, "(int32[batch,seq] input_ids, int32[batch,seq] segment_ids, "
            "int32[batch,seq] input_mask) => (float[batch,seq,16] Y)")


def contrib_llama():
    hidden, heads, ffn, positions = 16, 2, 32, 32
    head = hidden // heads
    m = Model()
    m.floats("n1_w", [hidden], 0.1, 1.0)
    m.floats("n2_w", [hidden], 0.1, 1.0)
    inv = [1.0 / (10000 ** (2 * i / head)) for i in range(head // 2)]
    m.tensor("float", "cos_cache", [positions, head // 2], [round(math.cos(p * f), 6) for p in range(positions) for f in inv])
    m.tensor("float", "sin_cache", [positions, head // 2], [round(math.sin(p * f), 6) for p in range(positions) for f in inv])
    q = nbits(m, "wq", hidden, hidden, 16, False)
    k = nbits(m, "wk", hidden, hidden, 16, True)
    v = nbits(m, "wv", hidden, hidden, 16, False)
    o = nbits(m, "wo", hidden, hidden, 16, True)
    up = nbits(m, "wup", hidden, ffn, 16, False)
    m.floats("down_w", [hidden, ffn])
    attrs = lambda n: f"K = {hidden}, N = {n}, bits = 4, block_size = 16"
    # A layer after the first starts from the previous layer's output and the residual. (The first
    # layer's SimplifiedLayerNormalization is in the default domain in onnxruntime, which our checker
    # does not know.)
    m.node("n1, , , x", "com.microsoft.SkipSimplifiedLayerNormalization", ["prev", "residual", "n1_w"],
           "epsilon = 1e-6")
    m.node("q", "com.microsoft.MatMulNBits", ["n1"] + q, attrs(hidden))
    m.node("k", "com.microsoft.MatMulNBits", ["n1"] + k, attrs(hidden))
    m.node("v", "com.microsoft.MatMulNBits", ["n1"] + v, attrs(hidden))
    m.node("qr", "com.microsoft.RotaryEmbedding", ["q", "position_ids", "cos_cache", "sin_cache"], f"num_heads = {heads}")
    m.node("kr", "com.microsoft.RotaryEmbedding", ["k", "position_ids", "cos_cache", "sin_cache"], f"num_heads = {heads}")
    m.node("a", "com.microsoft.MultiHeadAttention", ["qr", "kr", "v"], f"num_heads = {heads}, unidirectional = 1")
    m.node("o", "com.microsoft.MatMulNBits", ["a"] + o, attrs(hidden))
    m.node("h, , , res", "com.microsoft.SkipSimplifiedLayerNormalization", ["o", "x", "n2_w"], "epsilon = 1e-6")
    m.node("u", "com.microsoft.MatMulNBits", ["h"] + up, attrs(ffn))
    m.node("g", "com.microsoft.QuickGelu", ["u"], "alpha = 1.702")
    m.node("d", "com.microsoft.FusedMatMul", ["g", "down_w"], "transB = 1")
    m.node("Y", "Add", ["d", "res"])
    m.write("contrib_llama", 17, "(float[batch,seq,16] prev, float[batch,seq,16] residual, "
            "int64[batch,seq] position_ids) => (float[batch,seq,16] Y)")


def contrib_gqa():
    hidden, heads, kv_heads, positions = 64, 4, 2, 16  # onnxruntime's GQA takes head sizes of 16k
    head = hidden // heads
    m = Model()
    m.floats("wq", [hidden, heads * head])
    m.floats("wk", [hidden, kv_heads * head])
    m.floats("wv", [hidden, kv_heads * head])
    inv = [1.0 / (10000 ** (2 * i / head)) for i in range(head // 2)]
    m.tensor("float", "cos_cache", [positions, head // 2], [round(math.cos(p * f), 6) for p in range(positions) for f in inv])
    m.tensor("float", "sin_cache", [positions, head // 2], [round(math.sin(p * f), 6) for p in range(positions) for f in inv])
    m.tensor("int32", "total", [], [5])
    m.node("q", "MatMul", ["X", "wq"])
    m.node("k", "MatMul", ["X", "wk"])
    m.node("v", "MatMul", ["X", "wv"])
    m.node("Y, present_key, present_value", "com.microsoft.GroupQueryAttention",
           ["q", "k", "v", "", "", "seqlens_k", "total", "cos_cache", "sin_cache"],
           f"num_heads = {heads}, kv_num_heads = {kv_heads}, do_rotary = 1")
    m.write("contrib_gqa", 17, "(float[2,5,64] X, int32[2] seqlens_k) => (float[2,5,64] Y, "
            "float[2,2,5,16] present_key, float[2,2,5,16] present_value)")


def contrib_gqa_cache():
    hidden, heads, kv_heads, positions, past, new = 64, 4, 2, 16, 4, 3
    head = hidden // heads
    m = Model()
    m.floats("wq", [hidden, heads * head])
    m.floats("wk", [hidden, kv_heads * head])
    m.floats("wv", [hidden, kv_heads * head])
    inv = [1.0 / (10000 ** (2 * i / head)) for i in range(head // 2)]
    m.tensor("float", "cos_cache", [positions, head // 2], [round(math.cos(p * f), 6) for p in range(positions) for f in inv])
    m.tensor("float", "sin_cache", [positions, head // 2], [round(math.sin(p * f), 6) for p in range(positions) for f in inv])
    m.tensor("int32", "seqlens_k", [1], [past + new - 1])
    m.tensor("int32", "total", [], [past + new])
    m.node("q", "MatMul", ["X", "wq"])
    m.node("k", "MatMul", ["X", "wk"])
    m.node("v", "MatMul", ["X", "wv"])
    m.node("Y, present_key, present_value", "com.microsoft.GroupQueryAttention",
           ["q", "k", "v", "past_key", "past_value", "seqlens_k", "total", "cos_cache", "sin_cache"],
           f"num_heads = {heads}, kv_num_heads = {kv_heads}, do_rotary = 1")
    m.write("contrib_gqa_cache", 17, f"(float[1,{new},64] X, float[1,2,{past},16] past_key, float[1,2,{past},16] past_value) "
            f"=> (float[1,{new},64] Y, float[1,2,{past + new},16] present_key, float[1,2,{past + new},16] present_value)")


def contrib_gqa_mask(half=False):
    hidden, heads, kv_heads, positions = 64, 4, 2, 16
    head = hidden // heads
    name, t = ("contrib_gqa_mask_half", "float16") if half else ("contrib_gqa_mask", "float")
    m = Model()
    m.floats("wq", [hidden, heads * head])
    m.floats("wk", [hidden, kv_heads * head])
    m.floats("wv", [hidden, kv_heads * head])
    inv = [1.0 / (10000 ** (2 * i / head)) for i in range(head // 2)]
    m.tensor("float", "cos_cache", [positions, head // 2], [round(math.cos(p * f), 6) for p in range(positions) for f in inv])
    m.tensor("float", "sin_cache", [positions, head // 2], [round(math.sin(p * f), 6) for p in range(positions) for f in inv])
    m.tensor("int64", "axis1", [1], [1])
    m.tensor("int64", "one", [], [1])
    rope = ["cos_cache", "sin_cache"]
    if half:
        # Projections in float32 (so that only GroupQueryAttention is in float16), then Cast.
        m.node("X32", "Cast", ["X"], "to = 1")
        for x in ("q", "k", "v"):
            m.node(f"{x}32", "MatMul", ["X32", f"w{x}"])
            m.node(x, "Cast", [f"{x}32"], "to = 10")
        for c in rope:
            m.node(f"{c}16", "Cast", [c], "to = 10")
        rope = [f"{c}16" for c in rope]
    else:
        m.node("q", "MatMul", ["X", "wq"])
        m.node("k", "MatMul", ["X", "wk"])
        m.node("v", "MatMul", ["X", "wv"])
    m.node("mask_sum", "ReduceSum", ["attention_mask", "axis1"], "keepdims = 0")
    m.node("mask_last", "Sub", ["mask_sum", "one"])
    m.node("seqlens_k", "Cast", ["mask_last"], "to = 6")
    m.node("mask_shape", "Shape", ["attention_mask"])
    m.node("mask_len", "Gather", ["mask_shape", "one"], "axis = 0")
    m.node("total", "Cast", ["mask_len"], "to = 6")
    m.node("Y, present_key, present_value", "com.microsoft.GroupQueryAttention",
           ["q", "k", "v", "past_key", "past_value", "seqlens_k", "total"] + rope,
           f"num_heads = {heads}, kv_num_heads = {kv_heads}, do_rotary = 1, local_window_size = 4, softcap = 2.0")
    m.write(name, 17, f"({t}[batch,seq,64] X, int64[batch,total] attention_mask, "
            f"{t}[batch,2,past,16] past_key, {t}[batch,2,past,16] past_value) => ({t}[batch,seq,64] Y, "
            f"{t}[batch,2,total,16] present_key, {t}[batch,2,total,16] present_value)")


def contrib_gpt2(left_padded=False):
    hidden, heads = 32, 4
    head = hidden // heads
    m = Model()
    m.floats("qkv_w", [hidden, 3 * hidden])
    m.floats("qkv_b", [3 * hidden], 0.1)
    m.floats("proj_w", [hidden, hidden])
    if left_padded:
        # Sequence 1 holds 2 tokens after 5 of padding: its first new token (at 4) sees only masked
        # keys (onnxruntime's float32 sum of score and -10000 decides its softmax).
        m.tensor("int64", "attention_mask", [2, 7], [1] * 7 + [0] * 5 + [1] * 2)
    m.node("mask_index", "Cast", ["attention_mask"], "to = 6")
    m.node("ctx, present", "com.microsoft.Attention", ["X", "qkv_w", "qkv_b", "mask_index", "past"],
           f"num_heads = {heads}, unidirectional = 1")
    m.node("Y", "MatMul", ["ctx", "proj_w"])
    if left_padded:
        m.write("contrib_gpt2_left", 17, f"(float[2,3,{hidden}] X, float[2,2,{heads},4,{head}] past) => "
                f"(float[2,3,{hidden}] Y, float[2,2,{heads},7,{head}] present)")
        return
    m.write("contrib_gpt2", 17, f"(float[batch,seq,{hidden}] X, int64[batch,total] attention_mask, "
            f"float[2,batch,{heads},past,{head}] past) => (float[batch,seq,{hidden}] Y, "
            f"float[2,batch,{heads},total,{head}] present)")


def contrib_mha_cache():
    hidden, heads = 32, 4
    head = hidden // heads
    m = Model()
    for x in ("q", "k", "v"):
        m.floats(f"w{x}", [hidden, hidden])
    m.floats("qkv_b", [3 * hidden], 0.1)
    for x in ("q", "k", "v"):
        m.node(x, "MatMul", ["X", f"w{x}"])
    m.node("mask", "Cast", ["attention_mask"], "to = 6")
    m.node("Y, present_key, present_value", "com.microsoft.MultiHeadAttention",
           ["q", "k", "v", "qkv_b", "mask", "", "past_key", "past_value"], f"num_heads = {heads}, unidirectional = 1")
    m.write("contrib_mha_cache", 17, f"(float[batch,seq,{hidden}] X, int64[batch,total] attention_mask, "
            f"float[batch,{heads},past,{head}] past_key, float[batch,{heads},past,{head}] past_value) => "
            f"(float[batch,seq,{hidden}] Y, float[batch,{heads},total,{head}] present_key, "
            f"float[batch,{heads},total,{head}] present_value)")


def contrib_misc():
    vocab, width, out = 30, 32, 8
    m = Model()
    m.bytes("table", [vocab, width // 2])
    m.floats("table_s", [vocab, width // 16], 0.02, 0.03)
    m.floats("gelu_b", [width], 0.1)
    m.floats("w", [width, out])
    m.node("e", "com.microsoft.GatherBlockQuantized", ["table", "ids", "table_s"], "block_size = 16, bits = 4")
    m.node("g1", "com.microsoft.BiasGelu", ["e", "gelu_b"])
    m.node("g2", "com.microsoft.Gelu", ["g1"])
    m.node("Y", "com.microsoft.FusedMatMul", ["g2", "w"], "alpha = 0.5")
    m.write("contrib_misc", 17, "(int64[batch,seq] ids) => (float[batch,seq,8] Y)")


contrib_bert()
contrib_llama()
contrib_gqa()
contrib_misc()
contrib_gqa_cache()
contrib_gqa_mask()
contrib_gqa_mask(half=True)
contrib_gpt2()
contrib_gpt2(left_padded=True)
contrib_mha_cache()
