"""onnx_opt with Debian's python3-onnx (1.12): ModelProto in, ModelProto out, and onnx's own checker
accepting the results. onnx is imported unconditionally: without it these tests fail, never skip
(scripts/setup.sh installs python3-onnx)."""

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import onnx_opt
from conftest import random_input

# onnx 1.12's checker knows opsets up to 17 and IR versions up to 8.
ONNX_MAX_OPSET = 17


def exported_mlp(opset=13, ir_version=7):
    """An MLP as exporters write it: weights as initializers, a Shape/Gather/Concat chain computing a
    Reshape target, MatMul + Add pairs, Identity and a doubled constant."""
    rng = np.random.default_rng(3)
    w1 = numpy_helper.from_array(rng.uniform(-1, 1, (8, 16)).astype(np.float32), "w1")
    b1 = numpy_helper.from_array(rng.uniform(-1, 1, (16,)).astype(np.float32), "b1")
    w2 = numpy_helper.from_array(rng.uniform(-1, 1, (16, 4)).astype(np.float32), "w2")
    b2 = numpy_helper.from_array(rng.uniform(-1, 1, (4,)).astype(np.float32), "b2")
    minus_one = numpy_helper.from_array(np.array([-1], np.int64), "minus_one")
    zero = numpy_helper.from_array(np.array(0, np.int64), "zero")
    nodes = [
        helper.make_node("Shape", ["x"], ["x_shape"]),
        helper.make_node("Gather", ["x_shape", "zero"], ["batch"], axis=0),
        # axes became an input at opset 13
        helper.make_node("Unsqueeze", ["batch", "axes0"], ["batch1"]) if opset >= 13
        else helper.make_node("Unsqueeze", ["batch"], ["batch1"], axes=[0]),
        helper.make_node("Concat", ["batch1", "minus_one"], ["flat_shape"], axis=0),
        helper.make_node("Reshape", ["x", "flat_shape"], ["flat"]),
        helper.make_node("MatMul", ["flat", "w1"], ["h1"]),
        helper.make_node("Add", ["h1", "b1"], ["h1b"]),
        helper.make_node("Relu", ["h1b"], ["a1"]),
        helper.make_node("Identity", ["a1"], ["a1_copy"]),
        helper.make_node("MatMul", ["a1_copy", "w2"], ["h2"]),
        helper.make_node("Add", ["h2", "b2"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["probs"], axis=-1),
    ]
    axes0 = numpy_helper.from_array(np.array([0], np.int64), "axes0")
    graph = helper.make_graph(
        nodes, "exported_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 2, 4])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 4])],
        initializer=[w1, b1, w2, b2, minus_one, zero] + ([axes0] if opset >= 13 else []),
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], producer_name="test")
    model.ir_version = ir_version
    onnx.checker.check_model(model)
    return model


def opset_of(model):
    return {o.domain: o.version for o in model.opset_import}[""]


def test_onnx_is_debians():
    # The interop claims are about the onnx that scripts/setup.sh installs.
    assert onnx.__version__.startswith("1.12"), onnx.__version__


def test_optimize_model_proto():
    model = exported_mlp()
    optimized, stats = onnx_opt.optimize(model, verify=True)
    assert isinstance(optimized, onnx.ModelProto)
    onnx.checker.check_model(optimized)
    onnx.checker.check_model(optimized.SerializeToString())
    assert stats["nodes_before"] == 12 and stats["nodes_after"] < 12
    op_types = [n.op_type for n in optimized.graph.node]
    assert "Shape" not in op_types and "Identity" not in op_types, op_types
    assert "Gemm" in op_types, op_types
    assert optimized.ir_version == 7 and opset_of(optimized) == 13

    x = random_input((3, 2, 4))
    before = onnx_opt.run(model, {"x": x})["probs"]
    after = onnx_opt.run(optimized, {"x": x})["probs"]
    np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(after.sum(axis=-1), np.ones(3), rtol=1e-5)


def test_convert_model_proto_within_onnx_checker_range():
    model = exported_mlp()
    x = random_input((2, 2, 4))
    expected = onnx_opt.run(model, {"x": x})["probs"]
    for opset in (9, 11, 12, 14, ONNX_MAX_OPSET):
        converted = onnx_opt.convert(model, opset, verify=True)
        assert isinstance(converted, onnx.ModelProto)
        assert opset_of(converted) == opset
        assert converted.ir_version <= 8
        onnx.checker.check_model(converted)
        np.testing.assert_allclose(onnx_opt.run(converted, {"x": x})["probs"], expected, rtol=1e-5, atol=1e-6)


def test_convert_then_optimize_model_proto():
    model = exported_mlp(opset=11, ir_version=6)
    converted = onnx_opt.convert(model, ONNX_MAX_OPSET)
    optimized, _ = onnx_opt.optimize(converted, passes="default")
    onnx.checker.check_model(optimized)
    assert opset_of(optimized) == ONNX_MAX_OPSET and optimized.ir_version == 8


def test_newer_opsets_than_onnx_knows_still_convert():
    # onnx 1.12 cannot check opset 21; our checker (check) can.
    converted = onnx_opt.convert(exported_mlp(), 21)
    assert opset_of(converted) == 21 and converted.ir_version == 10
    assert onnx_opt.check(converted) == []


def test_infer_shapes_model_proto_agrees_with_onnx():
    model = exported_mlp()
    ours = onnx_opt.infer_shapes(model)
    assert isinstance(ours, onnx.ModelProto)
    onnx.checker.check_model(ours)
    theirs = onnx.shape_inference.infer_shapes(model)
    ours_types = {v.name: v.type for v in ours.graph.value_info}
    for value in theirs.graph.value_info:
        if value.type.tensor_type.elem_type:
            assert value.name in ours_types, value.name
            assert ours_types[value.name].tensor_type.elem_type == value.type.tensor_type.elem_type, value.name


def test_check_and_text_of_model_proto():
    model = exported_mlp()
    assert onnx_opt.check(model) == []
    text = onnx_opt.to_text(model)
    assert text.startswith("<")
    reparsed = onnx.ModelProto.FromString(onnx_opt.parse_text(text))
    onnx.checker.check_model(reparsed)
    assert [n.op_type for n in reparsed.graph.node] == [n.op_type for n in model.graph.node]


def test_invalid_model_proto_is_refused():
    model = exported_mlp()
    model.graph.node[5].op_type = "MatMulButWrong"
    assert onnx_opt.check(model)
    try:
        onnx_opt.optimize(model)
    except onnx_opt.InvalidModelError as error:
        assert str(error).startswith("input is not a valid model: ")
        assert "MatMulButWrong" in str(error)
    else:
        raise AssertionError("an invalid model was optimized")


def test_model_saved_by_onnx_loads_by_path(tmp_path):
    model = exported_mlp()
    path = tmp_path / "mlp.onnx"
    onnx.save(model, str(path))
    optimized, stats = onnx_opt.optimize(path)
    assert isinstance(optimized, bytes)
    assert stats["bytes_before"] == path.stat().st_size
    onnx.checker.check_model(onnx.load_from_string(optimized))


def test_session_on_external_weights_gives_what_run_gives(tmp_path):
    # A weights file over 8 MiB: a Session reads it into memory once (ir/resident_weights.h), a
    # single run reads it through its mapping; the outputs are the same.
    rng = np.random.default_rng(5)
    w = numpy_helper.from_array(rng.uniform(-1, 1, (1024, 2304)).astype(np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "external",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 1024])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 2304])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    path = tmp_path / "external.onnx"
    onnx.save_model(model, str(path), save_as_external_data=True, location="external.onnx.data")
    assert (tmp_path / "external.onnx.data").stat().st_size > 8 << 20
    session = onnx_opt.Session(path)
    for seed in [1, 2]:
        inputs = {"x": random_input((4, 1024), seed=seed)}
        got, want = session.run(inputs), onnx_opt.run(path, inputs)
        np.testing.assert_array_equal(got["y"], want["y"])
        np.testing.assert_allclose(got["y"], inputs["x"] @ numpy_helper.to_array(w), rtol=1e-4, atol=1e-3)


def test_either_import_order_works_in_a_fresh_process():
    # Both modules define the "onnx.*" protobuf messages; the module's own libprotobuf keeps them
    # apart (python/BUILD.bazel: private_protobuf). A clash would abort the process, so in a child.
    import subprocess
    import sys

    for order in ("onnx, onnx_opt", "onnx_opt, onnx"):
        code = (
            "import %s\n"
            "from onnx import helper, TensorProto\n"
            "g = helper.make_graph([helper.make_node('Relu', ['x'], ['y'])], 'g',\n"
            "    [helper.make_tensor_value_info('x', TensorProto.FLOAT, [2])],\n"
            "    [helper.make_tensor_value_info('y', TensorProto.FLOAT, [2])])\n"
            "m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 17)])\n"
            "m.ir_version = 8\n"
            "out, _ = onnx_opt.optimize(m)\n"
            "onnx.checker.check_model(out)\n"
            "print('ok')\n" % order
        )
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0 and result.stdout == "ok\n", (order, result.returncode, result.stderr[-2000:])
