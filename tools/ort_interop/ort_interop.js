// The onnxruntime side of the interop suite (ort_interop_test.sh): runs a model in onnxruntime
// (the npm package onnxruntime-node) on inputs in ONNX's node-test layout (input_K.pb TensorProtos,
// the files onnx-run reads and writes), and compares two folders of output_K.pb.
//
//   node ort_interop.js make-inputs MODEL DIR [--seed=S] [--dim=NAME=V,...] [--range=INPUT=LO,HI,...]
//                                   [--padding=INPUT,...]
//       random inputs for MODEL's graph inputs (names, types and shapes as onnxruntime reads them):
//       floats uniform in [-1, 1), integers uniform in [LO, HI] (default 0..1), booleans fair;
//       symbolic dims from --dim (else 2, so broadcasting bugs show). A --padding input [B, S] is
//       a tokenizer's attention mask: each row 1s, then 0s from a random length in 1..S on (at
//       least one token: onnxruntime's Attention outputs zeros for a row whose keys are all masked
//       by -FLT_MAX, where the ONNX function gives the mean of V; see the README)
//   node ort_interop.js run MODEL INPUT_DIR OUTPUT_DIR [--optimization=disabled|all]
//       runs MODEL in onnxruntime on the CPU: with its graph optimizations off (the default), so its
//       kernels run what we wrote as written, or all on, as deployments run it
//   node ort_interop.js compare EXPECTED_DIR ACTUAL_DIR [--tolerance=RTOL,ATOL] [--lossy=REL_L2]
//     (--lossy: float outputs match as wholes, by ||actual - expected|| / ||expected|| <= REL_L2)
//       element y' matches y when |y' - y| <= ATOL + RTOL * max(|y|, rms(y)) (onnx-opt --verify's
//       rule; default 1e-4,1e-5); integers and booleans exactly; same shapes. Exit 1 on a mismatch.
//   node ort_interop.js probe
//       prints onnxruntime's version; exits 3 when the package cannot be loaded
//
// onnxruntime-node is found through NODE_PATH (ort_interop_test.sh sets it from ONNX_OPT_NPM_DIR).
// Only the TensorProto fields these files use are read and written: dims, data_type, name, raw_data
// and the typed *_data fields (read only); a TensorProto is a few protobuf fields, no library needed.
'use strict';

const fs = require('fs');
const path = require('path');

// ---- TensorProto ------------------------------------------------------------------------------

// ONNX data_type -> [onnxruntime type name, typed array, element bytes].
const TYPES = {
  1: ['float32', Float32Array, 4],
  2: ['uint8', Uint8Array, 1],
  3: ['int8', Int8Array, 1],
  4: ['uint16', Uint16Array, 2],
  5: ['int16', Int16Array, 2],
  6: ['int32', Int32Array, 4],
  7: ['int64', BigInt64Array, 8],
  9: ['bool', Uint8Array, 1],
  10: ['float16', Uint16Array, 2],
  11: ['float64', Float64Array, 8],
  12: ['uint32', Uint32Array, 4],
  13: ['uint64', BigUint64Array, 8],
};
const TYPE_BY_NAME = Object.fromEntries(Object.entries(TYPES).map(([k, v]) => [v[0], Number(k)]));

class Reader {
  constructor(buf) { this.buf = buf; this.pos = 0; }
  done() { return this.pos >= this.buf.length; }
  varint() {
    let result = 0n, shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  bytes() {
    const n = Number(this.varint());
    if (this.pos + n > this.buf.length) throw new Error('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  skip(wire) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error('unsupported wire type ' + wire);
  }
}

// Repeated varint field values, packed or not.
function readVarints(r, wire, out) {
  if (wire === 2) {
    const inner = new Reader(r.bytes());
    while (!inner.done()) out.push(inner.varint());
  } else {
    out.push(r.varint());
  }
}

function readFixed(r, wire, bytes, read, out) {
  const chunk = wire === 2 ? r.bytes() : r.buf.subarray(r.pos, (r.pos += bytes));
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  for (let i = 0; i + bytes <= chunk.length; i += bytes) out.push(read(view, i));
}

// {name, type (ONNX data_type), dims (numbers), data (typed array)} from a serialized TensorProto.
function decodeTensor(buf) {
  const r = new Reader(buf);
  const t = { name: '', type: 0, dims: [], raw: null, floats: [], ints: [], doubles: [] };
  while (!r.done()) {
    const key = Number(r.varint());
    const field = key >>> 3, wire = key & 7;
    if (field === 1) { const d = []; readVarints(r, wire, d); t.dims.push(...d.map((x) => Number(BigInt.asIntN(64, x)))); }
    else if (field === 2) t.type = Number(r.varint());
    else if (field === 4) readFixed(r, wire, 4, (v, i) => v.getFloat32(i, true), t.floats);
    else if (field === 5 || field === 7 || field === 11) readVarints(r, wire, t.ints);
    else if (field === 8) t.name = Buffer.from(r.bytes()).toString('utf8');
    else if (field === 9) t.raw = r.bytes();
    else if (field === 10) readFixed(r, wire, 8, (v, i) => v.getFloat64(i, true), t.doubles);
    else if (field === 14 && Number(r.varint()) === 1) throw new Error('external data is not supported here');
    else r.skip(wire);
  }
  const info = TYPES[t.type];
  if (!info) throw new Error(`tensor '${t.name}': element type ${t.type} is not supported here`);
  const [, Array_, bytes] = info;
  const count = t.dims.reduce((a, b) => a * b, 1);
  let data;
  if (t.raw !== null) {
    if (t.raw.length !== count * bytes) throw new Error(`tensor '${t.name}': raw_data has ${t.raw.length} bytes, expected ${count * bytes}`);
    data = new Array_(count);
    new Uint8Array(data.buffer).set(t.raw);
  } else if (t.type === 1) data = Float32Array.from(t.floats);
  else if (t.type === 11) data = Float64Array.from(t.doubles);
  else if (Array_ === BigInt64Array) data = BigInt64Array.from(t.ints, (x) => BigInt.asIntN(64, x));
  else if (Array_ === BigUint64Array) data = BigUint64Array.from(t.ints);
  else data = Array_.from(t.ints, (x) => Number(BigInt.asIntN(32, x)));
  if (data.length !== count) throw new Error(`tensor '${t.name}': ${data.length} elements for dims [${t.dims}]`);
  return { name: t.name, type: t.type, dims: t.dims, data };
}

function varintBytes(value) {
  let v = BigInt.asUintN(64, BigInt(value));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return out;
}

function encodeTensor({ name, type, dims, data }) {
  const parts = [];
  const field = (number, wire) => parts.push(Buffer.from(varintBytes((number << 3) | wire)));
  const bytesField = (number, bytes) => { field(number, 2); parts.push(Buffer.from(varintBytes(bytes.length)), Buffer.from(bytes)); };
  if (dims.length > 0) bytesField(1, dims.flatMap((d) => varintBytes(d)));
  field(2, 0); parts.push(Buffer.from(varintBytes(type)));
  bytesField(8, Buffer.from(name, 'utf8'));
  bytesField(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return Buffer.concat(parts);
}

function readFolder(dir, prefix) {
  const tensors = [];
  for (let k = 0; fs.existsSync(path.join(dir, `${prefix}_${k}.pb`)); ++k) {
    tensors.push(decodeTensor(fs.readFileSync(path.join(dir, `${prefix}_${k}.pb`))));
  }
  return tensors;
}

// ---- onnxruntime ------------------------------------------------------------------------------

function loadOrt() {
  try {
    const ort = require('onnxruntime-node');
    ort.env.logLevel = 'error';
    return ort;
  } catch (e) {
    const why = e.code === 'MODULE_NOT_FOUND' ? 'not found' : e.message.split('\n')[0];
    console.error(`ort_interop: cannot load onnxruntime-node (NODE_PATH=${process.env.NODE_PATH || ''}): ${why}`);
    process.exit(3);
  }
}

async function openSession(model, optimization = 'disabled') {
  const ort = loadOrt();
  if (optimization !== 'disabled' && optimization !== 'all') throw new Error(`--optimization=${optimization}?`);
  // Warnings (an unused initializer) would bury the verdicts: errors only.
  // With optimizations on, onnxruntime fuses DequantizeLinear(4-bit weight) + MatMul into its
  // MatMulNBits at accuracy level 4 by default, which quantizes the activations to int8 (relative
  // errors ~1e-2): a lossy choice of its own that the contrib MatMulNBits (accuracy level 0) does not
  // make. Level 0 keeps the fused kernel in float, so the comparison is about the model.
  return ort.InferenceSession.create(model, {
    graphOptimizationLevel: optimization,
    executionProviders: ['cpu'],
    logSeverityLevel: 3,
    extra: { session: { qdq_matmulnbits_accuracy_level: '0' } },
  });
}

// ---- commands ---------------------------------------------------------------------------------

function parseFlags(args) {
  const flags = {}, positional = [];
  for (const a of args) {
    const m = /^--([a-z-]+)=(.*)$/.exec(a);
    if (m) flags[m[1]] = m[2];
    else positional.push(a);
  }
  return { flags, positional };
}

// "A=1,B=2" -> {A: "1", B: "2"}; "x=0,1,y=2,3" for ranges is split on names.
function parseAssignments(text, valuesPerName) {
  const out = {};
  if (!text) return out;
  const items = text.split(',');
  for (let i = 0; i < items.length; i += valuesPerName) {
    const [name, first] = items[i].split('=');
    out[name] = [first, ...items.slice(i + 1, i + valuesPerName)].map(Number);
  }
  return out;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function floatToHalfBits(f) {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, f);
  const x = view.getUint32(0);
  const sign = (x >>> 16) & 0x8000, exp = ((x >>> 23) & 0xff) - 127 + 15, mant = x & 0x7fffff;
  if (exp <= 0) return sign;  // inputs are in [-1, 1): tiny values flush to zero
  return sign | (exp << 10) | Math.round(mant / 8192);
}

function halfBitsToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1, exp = (h >>> 10) & 0x1f, mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

async function makeInputs(model, dir, flags) {
  const session = await openSession(model);
  const dims = parseAssignments(flags.dim, 1);
  const ranges = parseAssignments(flags.range, 2);
  const padding = new Set((flags.padding || '').split(',').filter((x) => x));
  const random = mulberry32(Number(flags.seed || 1));
  fs.mkdirSync(dir, { recursive: true });
  session.inputMetadata.forEach((meta, k) => {
    if (!meta.isTensor) throw new Error(`input '${meta.name}' is not a tensor`);
    const shape = meta.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : (dims[d] ? dims[d][0] : 2)));
    const type = TYPE_BY_NAME[meta.type];
    if (!type) throw new Error(`input '${meta.name}': type ${meta.type} is not supported here`);
    const [, Array_] = TYPES[type];
    const count = shape.reduce((a, b) => a * b, 1);
    const data = new Array_(count);
    const [lo, hi] = ranges[meta.name] || [0, 1];
    if (padding.has(meta.name)) {
      if (shape.length !== 2 || type === 1 || type === 10 || type === 11) {
        throw new Error(`--padding input '${meta.name}' must be an integer or bool [B, S], not ${meta.type} [${shape}]`);
      }
      const one = Array_ === BigInt64Array || Array_ === BigUint64Array ? 1n : 1;
      const zero = Array_ === BigInt64Array || Array_ === BigUint64Array ? 0n : 0;
      for (let b = 0; b < shape[0]; ++b) {
        const length = 1 + Math.floor(random() * shape[1]);
        for (let j = 0; j < shape[1]; ++j) data[b * shape[1] + j] = j < length ? one : zero;
      }
      padding.delete(meta.name);
    } else for (let i = 0; i < count; ++i) {
      const u = random();
      if (type === 1 || type === 11) data[i] = 2 * u - 1;
      else if (type === 10) data[i] = floatToHalfBits(2 * u - 1);
      else if (type === 9) data[i] = u < 0.5 ? 0 : 1;
      else {
        const v = lo + Math.floor(u * (hi - lo + 1));
        data[i] = Array_ === BigInt64Array || Array_ === BigUint64Array ? BigInt(v) : v;
      }
    }
    fs.writeFileSync(path.join(dir, `input_${k}.pb`), encodeTensor({ name: meta.name, type, dims: shape, data }));
  });
  if (padding.size > 0) throw new Error(`--padding names no input of the model: ${[...padding]}`);
}

async function run(model, inputDir, outputDir, flags) {
  const ort = loadOrt();
  const session = await openSession(model, flags.optimization);
  const inputs = readFolder(inputDir, 'input');
  if (inputs.length !== session.inputNames.length) {
    throw new Error(`${inputs.length} input files for ${session.inputNames.length} inputs (${session.inputNames})`);
  }
  const feeds = {};
  inputs.forEach((t, k) => {
    const name = session.inputNames[k];
    if (t.name && t.name !== name) throw new Error(`input_${k}.pb is '${t.name}', the model's input ${k} is '${name}'`);
    const [typeName] = TYPES[t.type];
    feeds[name] = new ort.Tensor(typeName, t.type === 9 ? Uint8Array.from(t.data) : t.data, t.dims);
  });
  const results = await session.run(feeds);
  fs.mkdirSync(outputDir, { recursive: true });
  session.outputNames.forEach((name, k) => {
    const tensor = results[name];
    const type = TYPE_BY_NAME[tensor.type];
    if (!type) throw new Error(`output '${name}': type ${tensor.type} is not supported here`);
    const data = type === 9 ? Uint8Array.from(tensor.data, (b) => (b ? 1 : 0)) : tensor.data;
    fs.writeFileSync(path.join(outputDir, `output_${k}.pb`), encodeTensor({ name, type, dims: tensor.dims, data }));
  });
}

function compare(expectedDir, actualDir, flags) {
  const [rtol, atol] = (flags.tolerance || '1e-4,1e-5').split(',').map(Number);
  const expected = readFolder(expectedDir, 'output');
  const actual = readFolder(actualDir, 'output');
  if (expected.length === 0) throw new Error(`no output_K.pb in ${expectedDir}`);
  let ok = expected.length === actual.length;
  if (!ok) console.log(`${expected.length} expected outputs, ${actual.length} actual`);
  for (let k = 0; k < Math.min(expected.length, actual.length); ++k) {
    const e = expected[k], a = actual[k];
    const label = `output ${k} '${e.name}'`;
    if (e.type !== a.type || e.dims.join() !== a.dims.join()) {
      console.log(`${label}: expected type ${e.type} [${e.dims}], got type ${a.type} [${a.dims}]`);
      ok = false;
      continue;
    }
    const isFloat = e.type === 1 || e.type === 10 || e.type === 11;
    if (!isFloat) {
      const bad = e.data.findIndex((x, i) => x !== a.data[i]);
      console.log(`${label} [${e.dims}]: ${bad < 0 ? 'equal' : `differs at element ${bad}: ${a.data[bad]} vs ${e.data[bad]}`}`);
      ok = ok && bad < 0;
      continue;
    }
    const toFloat = e.type === 10 ? (x) => halfBitsToFloat(x) : (x) => x;
    let sumSquares = 0, finite = 0;
    for (const x of e.data) { const v = toFloat(x); if (Number.isFinite(v)) { sumSquares += v * v; ++finite; } }
    const rms = finite ? Math.sqrt(sumSquares / finite) : 0;
    let maxAbs = 0, maxRel = 0, worst = -1, bad = 0;
    for (let i = 0; i < e.data.length; ++i) {
      const y = toFloat(e.data[i]), g = toFloat(a.data[i]);
      let match;
      if (Number.isNaN(y) || Number.isNaN(g)) match = Number.isNaN(y) && Number.isNaN(g);
      else if (!Number.isFinite(y) || !Number.isFinite(g)) match = y === g;
      else {
        const err = Math.abs(g - y);
        if (err > maxAbs) { maxAbs = err; worst = i; }
        maxRel = Math.max(maxRel, err / Math.max(Math.abs(y), 1e-30));
        match = err <= atol + rtol * Math.max(Math.abs(y), rms);
      }
      if (!match) { if (bad === 0) worst = i; ++bad; }
    }
    let err2 = 0, exp2 = 0;
    for (let i = 0; i < e.data.length; ++i) {
      const y = toFloat(e.data[i]), g = toFloat(a.data[i]);
      if (Number.isFinite(y) && Number.isFinite(g)) { err2 += (g - y) * (g - y); exp2 += y * y; }
    }
    const relL2 = exp2 > 0 ? Math.sqrt(err2 / exp2) : (err2 > 0 ? Infinity : 0);
    const figures = `max abs error ${maxAbs.toExponential(2)}, max rel error ${maxRel.toExponential(2)}, ` +
                    `relative L2 error ${relL2.toExponential(2)}`;
    if (flags.lossy !== undefined) {
      // Judged as a whole; infinities and NaN must still match.
      const nonFinite = e.data.findIndex((x, i) => {
        const y = toFloat(x), g = toFloat(a.data[i]);
        return (Number.isFinite(y) && Number.isFinite(g)) ? false : !(y === g || (Number.isNaN(y) && Number.isNaN(g)));
      });
      const within = nonFinite < 0 && relL2 <= Number(flags.lossy);
      console.log(`${label} [${e.dims}]: ${within ? 'within' : 'beyond'} relative L2 error ${flags.lossy} (${figures})`);
      ok = ok && within;
      continue;
    }
    if (bad) {
      console.log(`${label} [${e.dims}]: ${bad} of ${e.data.length} elements differ (${figures}); element ${worst}: ` +
                  `${toFloat(a.data[worst])} vs expected ${toFloat(e.data[worst])}`);
      ok = false;
    } else {
      console.log(`${label} [${e.dims}]: equal (${figures})`);
    }
  }
  return ok;
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { flags, positional } = parseFlags(rest);
  if (command === 'probe') {
    console.log(`onnxruntime-node ${loadOrt().env.versions.node}`);
  } else if (command === 'make-inputs' && positional.length === 2) {
    await makeInputs(positional[0], positional[1], flags);
  } else if (command === 'run' && positional.length === 3) {
    await run(positional[0], positional[1], positional[2], flags);
  } else if (command === 'compare' && positional.length === 2) {
    if (!compare(positional[0], positional[1], flags)) process.exit(1);
  } else {
    console.error('usage: ort_interop.js probe | make-inputs MODEL DIR [--seed=S] [--dim=N=V,...] [--range=IN=LO,HI,...]\n' +
                  '                  [--padding=IN,...]\n' +
                  '       | run MODEL INPUT_DIR OUTPUT_DIR [--optimization=disabled|all] | compare EXPECTED_DIR ACTUAL_DIR [--tolerance=RTOL,ATOL]');
    process.exit(2);
  }
}

main().catch((e) => {
  console.error(`ort_interop: ${e.message}`);
  process.exit(1);
});
