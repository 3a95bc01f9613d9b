"""onnx_opt: optimize, convert, check and run ONNX models from Python.

The same C++ as the command-line tools (onnx-opt, onnx-convert, onnx-check, onnx-run), with the same
messages. A model is given as

  * bytes (a serialized ModelProto): the result is bytes;
  * a path (str or os.PathLike) to an .onnx file, whose external data is read beside it: the result
    is bytes (tensors that stay in external data keep their references to the original files);
  * an onnx.ModelProto, when the onnx package is installed (nothing here needs it): the result is a
    ModelProto of the same class.

Errors: InvalidModelError (a ValueError) when a model does not load, is not valid, cannot be
rewritten or fails verification; TypeError and ValueError for bad arguments; FileNotFoundError for a
path that does not exist. The checker's warnings are issued as ModelWarning.

Work in C++ (optimize, convert, check, infer_shapes, run, Session.run) runs with the GIL released.
"""

import os
import warnings as _warnings

from . import _onnx_opt

__version__ = _onnx_opt.__version__

InvalidModelError = _onnx_opt.InvalidModelError

__all__ = [
    "InvalidModelError",
    "ModelWarning",
    "Session",
    "check",
    "compare",
    "convert",
    "infer_shapes",
    "list_passes",
    "optimize",
    "parse_text",
    "run",
    "to_dot",
    "to_text",
]


class ModelWarning(UserWarning):
    """A checker or converter warning about a model (never a failure)."""


def _is_model_proto(model):
    # Recognized without importing onnx, which this module does not need.
    return type(model).__name__ == "ModelProto" and hasattr(model, "SerializeToString")


def _to_native(model):
    """(what the native layer takes, how to give the result back)."""
    if isinstance(model, bytes):
        return model, bytes
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if not isinstance(path, str):
            raise TypeError("a model path must be a str path, not %s" % type(path).__name__)
        return path, bytes
    if _is_model_proto(model):
        proto_class = type(model)
        return model.SerializeToString(), proto_class.FromString
    raise TypeError(
        "a model is bytes (a serialized ModelProto), a path (str or os.PathLike) or an onnx.ModelProto, not %s"
        % type(model).__name__
    )


def _warn(messages):
    for message in messages:
        _warnings.warn(message, ModelWarning, stacklevel=3)


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError("%s must be a bool, not %s" % (name, type(value).__name__))


def _check_count(name, value, minimum):
    # bool is an int in Python, but never what a caller means here.
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be an int, not %s" % (name, type(value).__name__))
    if value < minimum:
        raise ValueError("%s must be at least %d, got %d" % (name, minimum, value))


def _check_dims(dims):
    dims = {} if dims is None else dims
    if not isinstance(dims, dict):
        raise TypeError("dims must be a dict of dim name to size, not %s" % type(dims).__name__)
    for name, size in dims.items():
        if not isinstance(name, str):
            raise TypeError("dims keys must be dim names (str), not %s" % type(name).__name__)
        _check_count("dims[%r]" % name, size, 0)
    return dims


def optimize(model, passes="default", verify=False, fold_size_limit=None, dims=None, fold_growth_limit=None):
    """Runs a pass pipeline over the model, as onnx-opt does; returns (model, stats).

    passes: the pipeline, as onnx-opt --passes takes it ("default", "fold,fuse",
        "fixed(fold,cleanup)", "convert(21),default"), or a list of such parts.
    verify: run the input and the result with the bundled interpreter on the same random inputs and
        raise InvalidModelError if any output differs (onnx-opt --verify). A pipeline with a lossy pass
        (float16-weights) is always verified, each float output judged as a whole by its relative L2
        error and cosine similarity ("rel_l2_error", "cosine" in the verification's "outputs").
    fold_size_limit: the largest number of bytes constant folding may grow the model by
        (onnx-opt --fold-size-limit; default 1 MiB).
    fold_growth_limit: the bytes of tensor data constant folding may copy into the model in all, as
        results kept next to inputs other nodes still use (onnx-opt --fold-growth-limit; default 0).
    dims: sizes of symbolic dims for verification inputs, e.g. {"batch": 4}; the others are run at 2
        and, for small models, again at 3 and 4 (at 1, with a note, when the model needs it).

    stats (dict): the figures of onnx-opt --stats-json ("runs": one entry per pass run with "pass",
    "seconds", "rewrites", "changed", "nodes_before/after", "initializer_bytes_before/after",
    "pattern_rewrites" ("pass/pattern": count); totals "nodes_before", "nodes_after",
    "initializer_bytes_before", "initializer_bytes_after"), plus "changed", "rewrites" (per pass
    name), "pattern_rewrites" (per "pass/pattern", summed over runs), "bytes_before"/"bytes_after" (serialized sizes; a path's
    file size), "initializers_listed_as_inputs" (IR < 4 models), "folds_refused_for_growth" and, with
    verify, "verification".
    """
    native, back = _to_native(model)
    if not isinstance(passes, str):
        if isinstance(passes, (list, tuple)) and all(isinstance(p, str) for p in passes):
            passes = ",".join(passes)
        else:
            raise TypeError("passes must be a str or a list of str, not %s" % type(passes).__name__)
    _check_bool("verify", verify)
    if fold_size_limit is not None:
        _check_count("fold_size_limit", fold_size_limit, 0)
    if fold_growth_limit is not None:
        _check_count("fold_growth_limit", fold_growth_limit, 0)
    dims = _check_dims(dims)
    result, stats, warnings = _onnx_opt.optimize(native, passes, verify, fold_size_limit, fold_growth_limit, dims)
    _warn(warnings)
    return back(result), stats


def convert(model, opset, ml_opset=None, verify=False):
    """Converts the model to opset `opset` of ai.onnx (and `ml_opset` of ai.onnx.ml), up or down one
    step at a time, as onnx-convert does; ir_version follows. `opset` may be None when only ml_opset
    changes. With verify, raises InvalidModelError unless the result computes the same outputs."""
    native, back = _to_native(model)
    if opset is None and ml_opset is None:
        raise ValueError("convert needs a target opset (or ml_opset)")
    if opset is not None:
        _check_count("opset", opset, 1)
    if ml_opset is not None:
        _check_count("ml_opset", ml_opset, 1)
    _check_bool("verify", verify)
    result, _report, warnings = _onnx_opt.convert(native, opset, ml_opset, verify)
    _warn(warnings)
    return back(result)


def compare(a, b, dims=None, seed=1, tolerance=None):
    """Whether two models compute the same outputs, as onnx-compare tells: both run with the bundled
    interpreter on the same random inputs (from a's declared types; b fed by input name), every output
    compared as verification does.

    dims: sizes of symbolic dims, e.g. {"batch": 4}; the others are run at 2 and, for small models,
        again at 3 and 4. seed: of the random inputs. tolerance: (rtol, atol) for float32 outputs
        (default (1e-4, 1e-5)).

    Returns a dict: "equal" (bool), "outputs" (one dict per output: "output", "equal", "detail",
    "max_abs_error", "max_rel_error"), "sizes" (the free dims' sizes of each run) and "notes".
    Raises InvalidModelError when a model does not load, is invalid or does not run.
    """
    native_a, _ = _to_native(a)
    native_b, _ = _to_native(b)
    dims = _check_dims(dims)
    _check_count("seed", seed, 0)
    if tolerance is not None:
        if (not isinstance(tolerance, (tuple, list)) or len(tolerance) != 2 or
                not all(isinstance(t, (int, float)) and not isinstance(t, bool) and t >= 0 for t in tolerance)):
            raise TypeError("tolerance must be (rtol, atol), two non-negative numbers")
        tolerance = (float(tolerance[0]), float(tolerance[1]))
    result, warnings = _onnx_opt.compare(native_a, native_b, dims, seed, tolerance)
    _warn(warnings)
    return result


def check(model):
    """The model's errors by the IR rules and the operator schemas at its opsets (onnx-check
    --all-errors); an empty list when it is valid. A model that does not even load has that one
    error. Warnings are issued as ModelWarning."""
    native, _ = _to_native(model)
    errors, warnings = _onnx_opt.check(native)
    _warn(warnings)
    return errors


def infer_shapes(model):
    """The model with the types and shapes of its values inferred (listed in value_info)."""
    native, back = _to_native(model)
    result, warnings = _onnx_opt.infer_shapes(native)
    _warn(warnings)
    return back(result)


def _input_arrays(inputs):
    """{name: numpy array} as the native layer takes them: C order, native byte order."""
    if not isinstance(inputs, dict):
        raise TypeError("inputs must be a dict of input name to numpy array, not %s" % type(inputs).__name__)
    import numpy

    arrays = {}
    for name, value in inputs.items():
        if not isinstance(name, str):
            raise TypeError("input names must be str, not %s" % type(name).__name__)
        if not isinstance(value, (numpy.ndarray, numpy.generic)):
            raise TypeError("input %r must be a numpy array, not %s" % (name, type(value).__name__))
        # C order and native byte order, copied only when the array is not so already.
        array = numpy.asarray(value, order="C")
        if not array.dtype.isnative:
            array = array.astype(array.dtype.newbyteorder("="))
        arrays[name] = array
    return arrays


def run(model, inputs):
    """Runs the model with the bundled interpreter; returns {output name: value} in graph-output order.

    inputs: {graph input name: numpy array (or numpy scalar)}; inputs with an initializer may be left
    out. Each array must have the element type its input declares (TypeError otherwise) and fit the
    declared shape (ValueError). Every numpy element type ONNX has works: bool, int8..int64,
    uint8..uint64, float16, float32, float64, complex64, complex128, and str/bytes (string tensors).
    Input arrays are read in place, not copied, when C-contiguous and aligned. Outputs are new numpy
    arrays (string tensors as object arrays of str); sequence outputs are lists of arrays, an empty
    optional is None. An output of a type numpy lacks (bfloat16, float8, int4...) raises TypeError.

    To run a model many times, a Session loads it once and keeps what does not change between runs.
    """
    native, _ = _to_native(model)
    return _onnx_opt.run(native, _input_arrays(inputs))


class Session:
    """A model loaded, checked and prepared once for many runs, like onnxruntime's InferenceSession.

    The first run makes the interpreter's plans and computes the nodes that read only constants
    (Constant, ConstantOfShape, arithmetic on initializers that are not graph inputs; never random
    generators or Dropout); later runs reuse their values, which the session holds while it lives. An input with
    an initializer may still be given on any run. A model that does not load or is invalid raises
    InvalidModelError here; checker warnings are issued as ModelWarning.

    Runs of one session take turns; run them from several threads with several sessions.
    """

    def __init__(self, model):
        native, _ = _to_native(model)
        self._native = _onnx_opt.Session(native)
        _warn(self._native.warnings())

    @property
    def input_names(self):
        """The graph inputs a run must give (those without an initializer), in graph order."""
        return self._native.input_names()

    @property
    def output_names(self):
        """The graph outputs, in the order run returns them."""
        return self._native.output_names()

    def run(self, inputs):
        """Runs the model as onnx_opt.run does and returns the same {output name: value}.

        inputs: {graph input name: numpy array}, as onnx_opt.run takes them, or a list (or tuple) of
        arrays for input_names in order."""
        if isinstance(inputs, (list, tuple)):
            names = self.input_names
            if len(inputs) != len(names):
                raise ValueError("a list of inputs has one array per input without an initializer (%s): "
                                 "expected %d, got %d" % (", ".join(names), len(names), len(inputs)))
            inputs = dict(zip(names, inputs))
        elif not isinstance(inputs, dict):
            raise TypeError("inputs must be a dict of input name to numpy array or a list of arrays, not %s"
                            % type(inputs).__name__)
        return self._native.run(_input_arrays(inputs))


def parse_text(text):
    """A model in the ONNX text syntax (onnx.parser's), as bytes of a serialized ModelProto. Syntax
    errors raise InvalidModelError naming the line and column."""
    if not isinstance(text, str):
        raise TypeError("text must be a str, not %s" % type(text).__name__)
    return _onnx_opt.parse_text(text)


def to_text(model):
    """The model in the ONNX text syntax (parse_text reads it back)."""
    native, _ = _to_native(model)
    return _onnx_opt.to_text(native)


def to_dot(model, compare_with=None):
    """The model's graph as Graphviz DOT text (onnx-opt --dot): a box per node with its op type and
    output shapes, weights in their consumers' labels, If/Loop/Scan bodies as clusters. With
    compare_with (the model before a rewrite), nodes it lacks are filled green and its nodes that are
    gone are drawn dashed red (onnx-opt --dot-diff)."""
    native, _ = _to_native(model)
    before = None if compare_with is None else _to_native(compare_with)[0]
    return _onnx_opt.to_dot(native, before)


def list_passes():
    """Every pass and group a pipeline may name (onnx-opt --list-passes): a list of dicts with "name",
    "kind" ("group" or "pass"), "summary" and, for groups, "pipeline"."""
    return _onnx_opt.list_passes()
