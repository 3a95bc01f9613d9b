"""Shared fixtures: the test models (from testdata/ and the version header, passed by run_pytest.sh
through the environment) and small models in the ONNX text syntax."""

import os

import numpy as np
import pytest

import onnx_opt

# An export-shaped model: a constant subexpression (Shape -> Gather -> Unsqueeze -> Concat feeding a
# Reshape), a Constant computed twice, a MatMul followed by an Add of a bias (fused into Gemm), an
# Identity, and a Relu.
EXPORT_SHAPED = """
<ir_version: 8, opset_import: ["" : 17]>
export_shaped (float[N,4] x) => (float[N,3] y)
<float[4,3] w = {0.5, -1.0, 0.25, 2.0, 0.0, -0.5, 1.5, 0.75, -2.0, 0.125, 1.0, -0.25},
 float[3] b = {0.1, -0.2, 0.3}>
{
  one = Constant<value = float[1] {1.0}>()
  one_again = Constant<value = float[1] {1.0}>()
  two = Add(one, one_again)
  scaled = Mul(x, two)
  shape = Shape(scaled)
  zero = Constant<value = int64 {0}>()
  batch = Gather<axis = 0>(shape, zero)
  axes = Constant<value = int64[1] {0}>()
  batch1 = Unsqueeze(batch, axes)
  four = Constant<value = int64[1] {4}>()
  target = Concat<axis = 0>(batch1, four)
  reshaped = Reshape(scaled, target)
  same = Identity(reshaped)
  product = MatMul(same, w)
  biased = Add(product, b)
  y = Relu(biased)
}
"""


@pytest.fixture
def export_shaped():
    return onnx_opt.parse_text(EXPORT_SHAPED)


def identity_model(onnx_type, ir_version=8, opset=17):
    """One Identity from input x to output y, both of `onnx_type` and shape [2,3]."""
    return onnx_opt.parse_text(
        '<ir_version: %d, opset_import: ["" : %d]>\n'
        "identity (%s[2,3] x) => (%s[2,3] y) { y = Identity(x) }" % (ir_version, opset, onnx_type, onnx_type)
    )


@pytest.fixture
def testdata():
    """Folder of testdata/models in the runfiles."""
    folder = os.environ["ONNX_OPT_TESTDATA"]
    assert os.path.isdir(folder), folder
    return folder


@pytest.fixture
def version_header():
    with open(os.environ["ONNX_OPT_VERSION_H"]) as f:
        return f.read()


def random_input(shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, size=shape).astype(dtype)
