#!/usr/bin/env python3
"""Writes the interop suite's exporter-style models in the ONNX text syntax (plain Python, no onnx
package): run it in this folder to regenerate the *.onnxtxt written below.

  bert_model: a BERT model (embeddings, two post-LayerNorm layers, the pooler) as TorchScript exports
    write it at opset 17: dynamic [batch, seq], the extended key-padding mask (1 - attention_mask[:, None, None, :]) * finfo.min
    as a [batch, 1, 1, seq] float added to the scores, head shapes from Shape/Gather/Concat,
    LayerNorm and the erf Gelu as primitives. The position ids are position_ids[:, :seq] of a
    constant arange, so inference loses the sequence length there (a Slice to a length read at run
    time): from the embeddings on, that axis is unknown.
  bert_encoder: the same two layers on hidden states X [batch, seq, 16], every dim known by name.
  llama_block: one Llama decoder layer at opset 17: RMSNorm as Pow/ReduceMean/Add/Sqrt/Reciprocal
    (and the Mul(x, x)/Div spelling in the second), rotary tables gathered from cos/sin caches by
    position_ids and rotate_half by Slice/Neg/Concat, an additive [batch, 1, seq, seq] mask, SwiGLU.
  llama_gqa, llama_gqa_cache, phi_partial_rotary: a Llama layer with grouped-query attention (8/2
    heads), rotary tables computed from position_ids, without and with a KV cache, and with the
    rotation of half of each head only (see llama_gqa()).
  llama_causal, llama_causal_cache: llama_gqa with the causal mask computed in the graph from the
    lengths (no mask input), without and with a KV cache.
  self_attention_static, cross_attention: attention alone at opset 23 (see attention()).

Weights come from a fixed linear congruential sequence, so the files are reproducible."""

import math

state = 2025


def rnd(scale=0.3):
    global state
    state = (state * 1103515245 + 12345) % (1 << 31)
    return round(((state / (1 << 31)) * 2.0 - 1.0) * scale, 4)


class Model:
    def __init__(self):
        self.inits = []
        self.nodes = []

    def floats(self, name, dims, values=None, scale=0.3):
        n = math.prod(dims)
        values = values if values is not None else [rnd(scale) for _ in range(n)]
        shape = "[" + ",".join(map(str, dims)) + "]" if dims else ""
        self.inits.append(f"float{shape} {name} = {{{', '.join(repr(float(v)) for v in values)}}}")

    def ints(self, name, dims, values):
        shape = "[" + ",".join(map(str, dims)) + "]" if dims else ""
        self.inits.append(f"int64{shape} {name} = {{{', '.join(map(str, values))}}}")

    def node(self, outputs, op, inputs, attrs=""):
        attrs = f"<{attrs}>" if attrs else ""
        self.nodes.append(f"  {outputs} = {op}{attrs}({', '.join(inputs)})")

    def text(self, header, signature):
        return (f"{header}\n{signature}\n<" + ",\n ".join(self.inits) + ">\n{\n" + "\n".join(self.nodes) + "\n}\n")


def bert(name, embeddings):
    hidden, heads, ffn, layers, vocab, positions = 16, 2, 32, 2, 30, 32
    head = hidden // heads
    m = Model()
    if embeddings:
        # Embeddings: words, positions (position_ids[:, :seq] of a constant arange), token types.
        m.floats("word_embeddings", [vocab, hidden])
        m.floats("position_embeddings", [positions, hidden])
        m.floats("token_type_embeddings", [2, hidden])
        m.ints("position_ids", [1, positions], list(range(positions)))
        m.ints("starts0", [1], [0])
        m.ints("axes1", [1], [1])
        m.node("ids_shape", "Shape", ["input_ids"])
        m.node("ids_len", "Gather", ["ids_shape", "one"], "axis = 0")
        m.node("ids_len1", "Unsqueeze", ["ids_len", "axes0"])
        m.node("pos_ids", "Slice", ["position_ids", "starts0", "ids_len1", "axes1"])
        m.node("emb_w", "Gather", ["word_embeddings", "input_ids"], "axis = 0")
        m.node("emb_t", "Gather", ["token_type_embeddings", "token_type_ids"], "axis = 0")
        m.node("emb_wt", "Add", ["emb_w", "emb_t"])
        m.node("emb_p", "Gather", ["position_embeddings", "pos_ids"], "axis = 0")
        m.node("emb", "Add", ["emb_wt", "emb_p"])
    source = "emb" if embeddings else "X"
    # The extended attention mask, as transformers' get_extended_attention_mask exports it.
    m.ints("axes12", [2], [1, 2])
    m.floats("one_f", [], [1.0])
    m.floats("fmin", [], [-3.4028234663852886e38])
    m.node("m_u", "Unsqueeze", ["attention_mask", "axes12"])
    m.node("m_f", "Cast", ["m_u"], "to = 1")
    m.node("m_inv", "Sub", ["one_f", "m_f"])
    m.node("mask", "Mul", ["m_inv", "fmin"])
    # Head shapes from the input's shape.
    m.ints("zero", [], [0])
    m.ints("one", [], [1])
    m.ints("axes0", [1], [0])
    m.ints("n_heads", [1], [heads])
    m.ints("head_dim", [1], [head])
    m.ints("hidden_dim", [1], [hidden])
    m.node("x_shape", "Shape", [source])
    m.node("batch", "Gather", ["x_shape", "zero"], "axis = 0")
    m.node("seqlen", "Gather", ["x_shape", "one"], "axis = 0")
    m.node("batch1", "Unsqueeze", ["batch", "axes0"])
    m.node("seq1", "Unsqueeze", ["seqlen", "axes0"])
    m.node("head_shape", "Concat", ["batch1", "seq1", "n_heads", "head_dim"], "axis = 0")
    m.node("merged_shape", "Concat", ["batch1", "seq1", "hidden_dim"], "axis = 0")
    m.floats("sqrt_d", [], [math.sqrt(head)])
    m.floats("two", [], [2.0])
    m.floats("eps", [], [1e-12])
    m.floats("sqrt2", [], [math.sqrt(2.0)])
    m.floats("half", [], [0.5])

    def layer_norm(p, x):
        m.floats(p + "gamma", [hidden], [1.0 + rnd(0.1) for _ in range(hidden)])
        m.floats(p + "beta", [hidden], scale=0.1)
        m.node(p + "mean", "ReduceMean", [x], "axes = [-1]")
        m.node(p + "d", "Sub", [x, p + "mean"])
        m.node(p + "sq", "Pow", [p + "d", "two"])
        m.node(p + "var", "ReduceMean", [p + "sq"], "axes = [-1]")
        m.node(p + "ve", "Add", [p + "var", "eps"])
        m.node(p + "sd", "Sqrt", [p + "ve"])
        m.node(p + "n", "Div", [p + "d", p + "sd"])
        m.node(p + "g", "Mul", [p + "n", p + "gamma"])
        m.node(p + "out", "Add", [p + "g", p + "beta"])
        return p + "out"

    h = layer_norm("emb_ln_", "emb") if embeddings else "X"
    for i in range(layers):
        p = f"l{i}_"
        for w in "qkv":
            m.floats(f"{p}W{w}", [hidden, hidden])
            m.floats(f"{p}b{w}", [hidden], scale=0.1)
            m.node(f"{p}{w}0", "MatMul", [h, f"{p}W{w}"])
            m.node(f"{p}{w}1", "Add", [f"{p}{w}0", f"{p}b{w}"])
            m.node(f"{p}{w}2", "Reshape", [f"{p}{w}1", "head_shape"])
            m.node(f"{p}{w}", "Transpose", [f"{p}{w}2"], "perm = [0, 2, 1, 3]")
        # key_layer.transpose(-1, -2)
        m.node(f"{p}kt", "Transpose", [f"{p}k"], "perm = [0, 1, 3, 2]")
        m.node(f"{p}s", "MatMul", [f"{p}q", f"{p}kt"])
        m.node(f"{p}scaled", "Div", [f"{p}s", "sqrt_d"])
        m.node(f"{p}masked", "Add", [f"{p}scaled", "mask"])
        m.node(f"{p}probs", "Softmax", [f"{p}masked"], "axis = -1")
        m.node(f"{p}ctx", "MatMul", [f"{p}probs", f"{p}v"])
        m.node(f"{p}ctx_t", "Transpose", [f"{p}ctx"], "perm = [0, 2, 1, 3]")
        m.node(f"{p}ctx_m", "Reshape", [f"{p}ctx_t", "merged_shape"])
        m.floats(f"{p}Wo", [hidden, hidden])
        m.floats(f"{p}bo", [hidden], scale=0.1)
        m.node(f"{p}o0", "MatMul", [f"{p}ctx_m", f"{p}Wo"])
        m.node(f"{p}o1", "Add", [f"{p}o0", f"{p}bo"])
        m.node(f"{p}r1", "Add", [f"{p}o1", h])
        a = layer_norm(p + "ln1_", f"{p}r1")
        m.floats(f"{p}W1", [hidden, ffn])
        m.floats(f"{p}b1", [ffn], scale=0.1)
        m.floats(f"{p}W2", [ffn, hidden])
        m.floats(f"{p}b2", [hidden], scale=0.1)
        m.node(f"{p}f0", "MatMul", [a, f"{p}W1"])
        m.node(f"{p}f1", "Add", [f"{p}f0", f"{p}b1"])
        m.node(f"{p}e0", "Div", [f"{p}f1", "sqrt2"])
        m.node(f"{p}e1", "Erf", [f"{p}e0"])
        m.node(f"{p}e2", "Add", [f"{p}e1", "one_f"])
        m.node(f"{p}e3", "Mul", [f"{p}f1", f"{p}e2"])
        m.node(f"{p}e4", "Mul", [f"{p}e3", "half"])
        m.node(f"{p}f2", "MatMul", [f"{p}e4", f"{p}W2"])
        m.node(f"{p}f3", "Add", [f"{p}f2", f"{p}b2"])
        m.node(f"{p}r2", "Add", [f"{p}f3", a])
        h = layer_norm(p + "ln2_", f"{p}r2")
    header = '<ir_version: 8, opset_import: ["" : 17], producer_name: "onnx-opt ort_interop">'
    if not embeddings:
        m.node("Y", "Identity", [h])
        return m.text(header, f"{name} (float[batch,seq,{hidden}] X, int64[batch,seq] attention_mask) => "
                              f"(float[batch,seq,{hidden}] Y)")
    m.node("last_hidden_state", "Identity", [h])
    # The pooler: the first token's state through a dense layer and Tanh.
    m.floats("pool_W", [hidden, hidden])
    m.floats("pool_b", [hidden], scale=0.1)
    m.node("first", "Gather", [h, "zero"], "axis = 1")
    m.node("pool0", "MatMul", ["first", "pool_W"])
    m.node("pool1", "Add", ["pool0", "pool_b"])
    m.node("pooler_output", "Tanh", ["pool1"])
    return m.text(header, f"{name} (int64[batch,seq] input_ids, int64[batch,seq] attention_mask, "
                          "int64[batch,seq] token_type_ids) => "
                          f"(float[batch,seq,{hidden}] last_hidden_state, float[batch,{hidden}] pooler_output)")


def llama_block():
    hidden, heads, inter, positions = 16, 2, 24, 32
    head = hidden // heads
    m = Model()
    m.ints("zero", [], [0])
    m.ints("one", [], [1])
    m.ints("axes0", [1], [0])
    m.ints("axes1", [1], [1])
    m.ints("n_heads", [1], [heads])
    m.ints("head_dim", [1], [head])
    m.ints("hidden_dim", [1], [hidden])
    m.node("x_shape", "Shape", ["X"])
    m.node("batch", "Gather", ["x_shape", "zero"], "axis = 0")
    m.node("seqlen", "Gather", ["x_shape", "one"], "axis = 0")
    m.node("batch1", "Unsqueeze", ["batch", "axes0"])
    m.node("seq1", "Unsqueeze", ["seqlen", "axes0"])
    m.node("head_shape", "Concat", ["batch1", "seq1", "n_heads", "head_dim"], "axis = 0")
    m.node("merged_shape", "Concat", ["batch1", "seq1", "hidden_dim"], "axis = 0")
    m.floats("two", [], [2.0])
    m.floats("eps", [], [1e-6])
    m.floats("inv_sqrt_d", [], [1 / math.sqrt(head)])
    # Rotary caches: cat(freqs, freqs) of position * inv_freq, base 10000.
    inv_freq = [1.0 / (10000 ** (2 * i / head)) for i in range(head // 2)]
    cos, sin = [], []
    for p in range(positions):
        freqs = [p * f for f in inv_freq] * 2
        cos += [round(math.cos(f), 6) for f in freqs]
        sin += [round(math.sin(f), 6) for f in freqs]
    m.floats("cos_cached", [positions, head], cos)
    m.floats("sin_cached", [positions, head], sin)
    m.node("cos_g", "Gather", ["cos_cached", "position_ids"], "axis = 0")
    m.node("cos", "Unsqueeze", ["cos_g", "axes1"])
    m.node("sin_g", "Gather", ["sin_cached", "position_ids"], "axis = 0")
    m.node("sin", "Unsqueeze", ["sin_g", "axes1"])
    m.ints("half_start", [1], [0])
    m.ints("half_mid", [1], [head // 2])
    m.ints("half_end", [1], [2**63 - 1])
    m.ints("last", [1], [-1])

    def rms_norm(p, x, by_reciprocal):
        m.floats(p + "w", [hidden], [1.0 + rnd(0.1) for _ in range(hidden)])
        if by_reciprocal:
            m.node(p + "sq", "Pow", [x, "two"])
        else:
            m.node(p + "sq", "Mul", [x, x])
        m.node(p + "ms", "ReduceMean", [p + "sq"], "axes = [-1]")
        m.node(p + "mse", "Add", [p + "ms", "eps"])
        m.node(p + "rms", "Sqrt", [p + "mse"])
        if by_reciprocal:
            m.node(p + "inv", "Reciprocal", [p + "rms"])
            m.node(p + "n", "Mul", [x, p + "inv"])
        else:
            m.node(p + "n", "Div", [x, p + "rms"])
        m.node(p + "out", "Mul", [p + "w", p + "n"])
        return p + "out"

    def rotate(p, x):
        m.node(p + "x1", "Slice", [x, "half_start", "half_mid", "last"])
        m.node(p + "x2", "Slice", [x, "half_mid", "half_end", "last"])
        m.node(p + "nx2", "Neg", [p + "x2"])
        m.node(p + "rot", "Concat", [p + "nx2", p + "x1"], "axis = -1")
        m.node(p + "xc", "Mul", [x, "cos"])
        m.node(p + "rs", "Mul", [p + "rot", "sin"])
        m.node(p + "out", "Add", [p + "xc", p + "rs"])
        return p + "out"

    h = rms_norm("ln1_", "X", True)
    for w in "qkv":
        m.floats(f"W{w}", [hidden, hidden])
        m.node(f"{w}0", "MatMul", [h, f"W{w}"])
        m.node(f"{w}1", "Reshape", [f"{w}0", "head_shape"])
        m.node(w, "Transpose", [f"{w}1"], "perm = [0, 2, 1, 3]")
    q = rotate("qr_", "q")
    k = rotate("kr_", "k")
    m.node("kt", "Transpose", [k], "perm = [0, 1, 3, 2]")
    m.node("s", "MatMul", [q, "kt"])
    m.node("scaled", "Mul", ["s", "inv_sqrt_d"])
    m.node("masked", "Add", ["scaled", "mask"])
    m.node("probs", "Softmax", ["masked"], "axis = -1")
    m.node("ctx", "MatMul", ["probs", "v"])
    m.node("ctx_t", "Transpose", ["ctx"], "perm = [0, 2, 1, 3]")
    m.node("ctx_m", "Reshape", ["ctx_t", "merged_shape"])
    m.floats("Wo", [hidden, hidden])
    m.node("o", "MatMul", ["ctx_m", "Wo"])
    m.node("r1", "Add", ["X", "o"])
    h2 = rms_norm("ln2_", "r1", False)
    m.floats("Wg", [hidden, inter])
    m.floats("Wu", [hidden, inter])
    m.floats("Wd", [inter, hidden])
    m.node("g", "MatMul", [h2, "Wg"])
    m.node("gs", "Sigmoid", ["g"])
    m.node("silu", "Mul", ["g", "gs"])
    m.node("u", "MatMul", [h2, "Wu"])
    m.node("gu", "Mul", ["silu", "u"])
    m.node("d", "MatMul", ["gu", "Wd"])
    m.node("Y", "Add", ["r1", "d"])
    return m.text('<ir_version: 8, opset_import: ["" : 17], producer_name: "onnx-opt ort_interop">',
                  f"llama_block (float[batch,seq,{hidden}] X, int64[batch,seq] position_ids, "
                  f"float[batch,1,seq,seq] mask) => (float[batch,seq,{hidden}] Y)")


def llama_gqa(name, cache, rotary_dim=None, causal=False):
    """A Llama decoder layer as current exporters write it (opset 17), with grouped-query attention:
    8 query heads and 2 key/value heads of 8, RMSNorm as primitives, rotary tables computed from
    position_ids (inv_freq [1, 4, 1] expanded to the batch, times the positions by MatMul, Transpose,
    Concat(freqs, freqs), Cos/Sin times the attention scaling, Cast, Unsqueeze for the head axis),
    rotate_half by Slice/Neg/Concat, K and V repeated to the query heads by Unsqueeze/Expand/Reshape
    (repeat_kv), an additive [batch, 1, seq, total] mask, SwiGLU. With `cache`: past_key/past_value
    [batch, 2, past, 8] concatenated before the new keys and values on the sequence axis, the results
    graph outputs (present_key/present_value). With `rotary_dim` (< 8): only the first rotary_dim of
    each head are rotated and the rest passed through, as Phi writes it (Slice, rotate, Concat).
    With `causal`: no mask input; the causal mask is computed in the graph as transformers 4.4x's
    _update_causal_mask exports it: triu(full([seq, total], finfo.min), 1) times
    (arange(total) > cache_position[:, None]) with cache_position = arange(past, past + seq),
    expanded to [batch, 1, seq, total]."""
    hidden, heads, kv_heads, inter = 64, 8, 2, 32
    head = hidden // heads
    rot = rotary_dim or head
    n_rep = heads // kv_heads
    m = Model()
    m.ints("zero", [], [0])
    m.ints("one", [], [1])
    m.ints("two_i", [], [2])
    m.ints("axes0", [1], [0])
    m.ints("axes1", [1], [1])
    m.ints("axes2", [1], [2])
    m.ints("ones1", [1], [1])
    m.ints("n_heads", [1], [heads])
    m.ints("n_kv", [1], [kv_heads])
    m.ints("n_rep", [1], [n_rep])
    m.ints("head_dim", [1], [head])
    m.ints("hidden_dim", [1], [hidden])
    m.node("x_shape", "Shape", ["X"])
    m.node("batch", "Gather", ["x_shape", "zero"], "axis = 0")
    m.node("seqlen", "Gather", ["x_shape", "one"], "axis = 0")
    m.node("batch1", "Unsqueeze", ["batch", "axes0"])
    m.node("seq1", "Unsqueeze", ["seqlen", "axes0"])
    m.node("q_shape", "Concat", ["batch1", "seq1", "n_heads", "head_dim"], "axis = 0")
    m.node("kv_shape", "Concat", ["batch1", "seq1", "n_kv", "head_dim"], "axis = 0")
    m.node("merged_shape", "Concat", ["batch1", "seq1", "hidden_dim"], "axis = 0")
    m.floats("two", [], [2.0])
    m.floats("eps", [], [1e-5])
    m.floats("inv_sqrt_d", [], [1 / math.sqrt(head)])
    m.floats("attention_scaling", [], [1.0])
    # The rotary tables from the position ids (transformers' LlamaRotaryEmbedding.forward).
    m.floats("inv_freq", [rot // 2], [1.0 / (10000 ** (2 * i / rot)) for i in range(rot // 2)])
    m.node("inv_u0", "Unsqueeze", ["inv_freq", "axes0"])
    m.node("inv_u", "Unsqueeze", ["inv_u0", "axes2"])
    m.node("pos_shape", "Shape", ["position_ids"])
    m.node("pos_batch", "Gather", ["pos_shape", "zero"], "axis = 0")
    m.node("pos_batch1", "Unsqueeze", ["pos_batch", "axes0"])
    m.node("inv_shape", "Concat", ["pos_batch1", "ones1", "ones1"], "axis = 0")
    m.node("inv_e", "Expand", ["inv_u", "inv_shape"])
    m.node("inv_f", "Cast", ["inv_e"], "to = 1")
    m.node("pos_u", "Unsqueeze", ["position_ids", "axes1"])
    m.node("pos_f", "Cast", ["pos_u"], "to = 1")
    m.node("freqs_t", "MatMul", ["inv_f", "pos_f"])
    m.node("freqs", "Transpose", ["freqs_t"], "perm = [0, 2, 1]")
    m.node("emb", "Concat", ["freqs", "freqs"], "axis = -1")
    m.node("cos_e", "Cos", ["emb"])
    m.node("cos_s", "Mul", ["cos_e", "attention_scaling"])
    m.node("cos_c", "Cast", ["cos_s"], "to = 1")
    m.node("sin_e", "Sin", ["emb"])
    m.node("sin_s", "Mul", ["sin_e", "attention_scaling"])
    m.node("sin_c", "Cast", ["sin_s"], "to = 1")
    m.node("cos", "Unsqueeze", ["cos_c", "axes1"])
    m.node("sin", "Unsqueeze", ["sin_c", "axes1"])
    m.ints("half_start", [1], [0])
    m.ints("half_mid", [1], [rot // 2])
    m.ints("half_end", [1], [2**63 - 1])
    m.ints("rot_end", [1], [rot])
    m.ints("last", [1], [-1])

    def rms_norm(p, x):
        m.floats(p + "w", [hidden], [1.0 + rnd(0.1) for _ in range(hidden)])
        m.node(p + "sq", "Pow", [x, "two"])
        m.node(p + "ms", "ReduceMean", [p + "sq"], "axes = [-1]")
        m.node(p + "mse", "Add", [p + "ms", "eps"])
        m.node(p + "rms", "Sqrt", [p + "mse"])
        m.node(p + "inv", "Reciprocal", [p + "rms"])
        m.node(p + "n", "Mul", [x, p + "inv"])
        m.node(p + "out", "Mul", [p + "w", p + "n"])
        return p + "out"

    def rotate(p, x):
        if rotary_dim:
            m.node(p + "xr", "Slice", [x, "half_start", "rot_end", "last"])
            m.node(p + "xp", "Slice", [x, "rot_end", "half_end", "last"])
            full, x = x, p + "xr"
        m.node(p + "x1", "Slice", [x, "half_start", "half_mid", "last"])
        m.node(p + "x2", "Slice", [x, "half_mid", "half_end", "last"])
        m.node(p + "nx2", "Neg", [p + "x2"])
        m.node(p + "rot", "Concat", [p + "nx2", p + "x1"], "axis = -1")
        m.node(p + "xc", "Mul", [x, "cos"])
        m.node(p + "rs", "Mul", [p + "rot", "sin"])
        m.node(p + "out", "Add", [p + "xc", p + "rs"])
        if rotary_dim:
            m.node(p + "cat", "Concat", [p + "out", p + "xp"], "axis = -1")
            return p + "cat"
        return p + "out"

    def repeat_kv(p, x):
        m.node(p + "shape", "Shape", [x])
        m.node(p + "len", "Gather", [p + "shape", "two_i"], "axis = 0")
        m.node(p + "len1", "Unsqueeze", [p + "len", "axes0"])
        m.node(p + "e_shape", "Concat", ["batch1", "n_kv", "n_rep", p + "len1", "head_dim"], "axis = 0")
        m.node(p + "r_shape", "Concat", ["batch1", "n_heads", p + "len1", "head_dim"], "axis = 0")
        m.node(p + "u", "Unsqueeze", [x, "axes2"])
        m.node(p + "e", "Expand", [p + "u", p + "e_shape"])
        m.node(p + "r", "Reshape", [p + "e", p + "r_shape"])
        return p + "r"

    h = rms_norm("ln1_", "X")
    for w, shape, width in (("q", "q_shape", hidden), ("k", "kv_shape", kv_heads * head),
                            ("v", "kv_shape", kv_heads * head)):
        m.floats(f"W{w}", [hidden, width])
        m.node(f"{w}0", "MatMul", [h, f"W{w}"])
        m.node(f"{w}1", "Reshape", [f"{w}0", shape])
        m.node(w, "Transpose", [f"{w}1"], "perm = [0, 2, 1, 3]")
    q = rotate("qr_", "q")
    k = rotate("kr_", "k")
    v = "v"
    if cache:
        m.node("present_key", "Concat", ["past_key", k], "axis = -2")
        m.node("present_value", "Concat", ["past_value", v], "axis = -2")
        k, v = "present_key", "present_value"
    k = repeat_kv("krep_", k)
    v = repeat_kv("vrep_", v)
    m.node("kt", "Transpose", [k], "perm = [0, 1, 3, 2]")
    m.node("s", "MatMul", [q, "kt"])
    m.node("scaled", "Mul", ["s", "inv_sqrt_d"])
    if causal:
        m.ints("col", [2], [-1, 1])
        m.ints("axes01", [2], [0, 1])
        if cache:
            m.node("past_shape", "Shape", ["past_key"])
            m.node("past_len", "Gather", ["past_shape", "two_i"], "axis = 0")
            m.node("total_len", "Add", ["past_len", "seqlen"])
        else:
            m.node("past_len", "Identity", ["zero"])
            m.node("total_len", "Identity", ["seqlen"])
        m.node("total1", "Unsqueeze", ["total_len", "axes0"])
        m.node("full_shape", "Concat", ["seq1", "total1"], "axis = 0")
        m.node("full", "ConstantOfShape", ["full_shape"], "value = float[1] {-3.4028234663852886e38}")
        m.node("tri", "Trilu", ["full", "one"], "upper = 1")
        m.node("kv_pos", "Range", ["zero", "total_len", "one"])
        m.node("cache_position", "Range", ["past_len", "total_len", "one"])
        m.node("cache_col", "Reshape", ["cache_position", "col"])
        m.node("later", "Greater", ["kv_pos", "cache_col"])
        m.node("later_f", "Cast", ["later"], "to = 1")
        m.node("causal", "Mul", ["tri", "later_f"])
        m.node("causal4", "Unsqueeze", ["causal", "axes01"])
        m.node("mask_shape", "Concat", ["batch1", "ones1", "seq1", "total1"], "axis = 0")
        m.node("mask", "Expand", ["causal4", "mask_shape"])
    m.node("masked", "Add", ["scaled", "mask"])
    m.node("probs", "Softmax", ["masked"], "axis = -1")
    m.node("ctx", "MatMul", ["probs", v])
    m.node("ctx_t", "Transpose", ["ctx"], "perm = [0, 2, 1, 3]")
    m.node("ctx_m", "Reshape", ["ctx_t", "merged_shape"])
    m.floats("Wo", [hidden, hidden])
    m.node("o", "MatMul", ["ctx_m", "Wo"])
    m.node("r1", "Add", ["X", "o"])
    h2 = rms_norm("ln2_", "r1")
    m.floats("Wg", [hidden, inter])
    m.floats("Wu", [hidden, inter])
    m.floats("Wd", [inter, hidden])
    m.node("g", "MatMul", [h2, "Wg"])
    m.node("gs", "Sigmoid", ["g"])
    m.node("silu", "Mul", ["g", "gs"])
    m.node("u", "MatMul", [h2, "Wu"])
    m.node("gu", "Mul", ["silu", "u"])
    m.node("d", "MatMul", ["gu", "Wd"])
    m.node("Y", "Add", ["r1", "d"])
    header = '<ir_version: 8, opset_import: ["" : 17], producer_name: "onnx-opt ort_interop">'
    kv = f"[batch,{kv_heads},past,{head}]"
    present = f"[batch,{kv_heads},total,{head}]"
    mask_input = "" if causal else f"float[batch,1,seq,{'total' if cache else 'seq'}] mask, "
    if cache:
        return m.text(header, f"{name} (float[batch,seq,{hidden}] X, int64[batch,seq] position_ids, "
                              f"{mask_input}float{kv} past_key, float{kv} past_value) => "
                              f"(float[batch,seq,{hidden}] Y, float{present} present_key, "
                              f"float{present} present_value)")
    return m.text(header, f"{name} (float[batch,seq,{hidden}] X, int64[batch,seq] position_ids"
                          f"{', ' + mask_input[:-2] if mask_input else ''}) => (float[batch,seq,{hidden}] Y)")


def attention(name, static):
    """Multi-head attention over exported head splits at opset 23, fused directly by `default`:
    static (self-attention [2, 3, 8], a [2, 1, 1, 3] key-padding mask: the expanded mask's shape is
    a constant), or cross-attention of T queries over S keys with a [S] row mask (the query rows
    come from the queries' Shape)."""
    hidden, heads = 8, 2
    m = Model()
    for w in "qkv":
        m.floats(f"W{w}", [hidden, hidden])
    m.ints("heads", [4], [0, 0, heads, hidden // heads])
    m.ints("merged", [3], [0, 0, hidden])
    m.floats("sqrt_d", [], [2.0])
    for w, source, perm in (("q", "X", "0, 2, 1, 3"), ("k", "E", "0, 2, 3, 1"), ("v", "E", "0, 2, 1, 3")):
        m.node(f"{w}0", "MatMul", [source if not static else "X", f"W{w}"])
        m.node(f"{w}1", "Reshape", [f"{w}0", "heads"])
        m.node(w, "Transpose", [f"{w}1"], f"perm = [{perm}]")
    m.node("s", "MatMul", ["q", "k"])
    m.node("scaled", "Div", ["s", "sqrt_d"])
    m.node("masked", "Add", ["scaled", "mask"])
    m.node("p", "Softmax", ["masked"], "axis = -1")
    m.node("c", "MatMul", ["p", "v"])
    m.node("ct", "Transpose", ["c"], "perm = [0, 2, 1, 3]")
    m.node("Y", "Reshape", ["ct", "merged"])
    header = '<ir_version: 11, opset_import: ["" : 23], producer_name: "onnx-opt ort_interop">'
    if static:
        return m.text(header, f"{name} (float[2,3,{hidden}] X, float[2,1,1,3] mask) => (float[2,3,{hidden}] Y)")
    return m.text(header, f"{name} (float[2,T,{hidden}] X, float[2,S,{hidden}] E, float[S] mask) => "
                          f"(float[2,T,{hidden}] Y)")


if __name__ == "__main__":
    for name, make in (("bert_encoder", lambda: bert("bert_encoder", False)),
                       ("bert_model", lambda: bert("bert_model", True)), ("llama_block", llama_block),
                       ("self_attention_static", lambda: attention("self_attention_static", True)),
                       ("cross_attention", lambda: attention("cross_attention", False)),
                       ("llama_gqa", lambda: llama_gqa("llama_gqa", False)),
                       ("llama_gqa_cache", lambda: llama_gqa("llama_gqa_cache", True)),
                       ("phi_partial_rotary", lambda: llama_gqa("phi_partial_rotary", False, rotary_dim=4)),
                       ("llama_causal", lambda: llama_gqa("llama_causal", False, causal=True)),
                       ("llama_causal_cache", lambda: llama_gqa("llama_causal_cache", True, causal=True))):
        with open(name + ".onnxtxt", "w") as f:
            f.write(f"# Written by make_models.py: {name}\n" + make())
