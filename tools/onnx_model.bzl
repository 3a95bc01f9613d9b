"""onnx_model: shrinks an ONNX model at build time with onnx-opt.

The model is optimized (and converted to `opset` when set) by one build action whose inputs are the
source model, its external data files and the tool, so Bazel caches the result and runs it again only
when one of those or an option changes. When verification fails the build fails with onnx-opt's
message and nothing is produced.

Outputs, usable as labels:
  <name>.onnx         the shrunk model
  <name>.report.txt   the size report as a table (bytes, nodes by op type, passes, output error)
  <name>.report.json  the same report as JSON
  <name>.onnx.data    the external data file, only when external_data_threshold is set

Example:
  load("@onnx_opt//tools:onnx_model.bzl", "onnx_model")

  onnx_model(
      name = "encoder_small",
      src = "encoder.onnx",
      opset = 21,
      strip_doc_strings = True,
      float16 = True,
      tolerance = "1e-2,1e-3",
  )
"""

def _outputs(name, external_data_threshold):
    outs = {
        "model": name + ".onnx",
        "report_text": name + ".report.txt",
        "report_json": name + ".report.json",
    }
    if external_data_threshold >= 0:
        outs["external_data"] = name + ".onnx.data"
    return outs

def _onnx_model_impl(ctx):
    if ctx.attr.float16 and not ctx.attr.tolerance:
        fail("float16 = True changes the weights: set tolerance (e.g. \"1e-2,1e-3\") to the output error you accept")
    if ctx.attr.float16 and not ctx.attr.verify:
        fail("float16 = True is always verified; remove verify = False")

    passes = list(ctx.attr.passes)
    if ctx.attr.opset:
        passes = ["convert(%d)" % ctx.attr.opset] + passes
    if not passes:
        fail("passes is empty: give at least one pass or group (e.g. \"default\")")

    args = ctx.actions.args()
    args.add(ctx.file.src)
    args.add("--output=" + ctx.outputs.model.path)
    args.add("--passes=" + ",".join(passes))
    args.add("--report-text=" + ctx.outputs.report_text.path)
    args.add("--report-json=" + ctx.outputs.report_json.path)
    if ctx.attr.verify:
        args.add("--verify")
    if ctx.attr.tolerance:
        args.add("--tolerance=" + ctx.attr.tolerance)
    if ctx.attr.float16:
        args.add("--float16")
    if ctx.attr.strip_doc_strings:
        args.add("--strip-doc-strings")
    if ctx.attr.strip_metadata:
        args.add("--strip-metadata")
    if ctx.attr.strip_value_info:
        args.add("--strip-value-info")
    outputs = [ctx.outputs.model, ctx.outputs.report_text, ctx.outputs.report_json]
    if ctx.attr.external_data_threshold >= 0:
        args.add("--external-data-threshold=%d" % ctx.attr.external_data_threshold)
        args.add("--external-data-file=" + ctx.outputs.external_data.basename)
        outputs.append(ctx.outputs.external_data)
    for dim, value in sorted(ctx.attr.dims.items()):
        args.add("--dim", "%s=%s" % (dim, value))
    args.add_all(ctx.attr.extra_args)

    ctx.actions.run(
        executable = ctx.executable.tool,
        arguments = [args],
        inputs = [ctx.file.src] + ctx.files.data,
        outputs = outputs,
        mnemonic = "OnnxShrink",
        progress_message = "Shrinking ONNX model %s" % ctx.label,
    )
    return [DefaultInfo(files = depset(outputs))]

onnx_model = rule(
    implementation = _onnx_model_impl,
    doc = "Optimizes, optionally converts, verifies and reports on an ONNX model as a build step.",
    attrs = {
        "src": attr.label(
            allow_single_file = [".onnx"],
            mandatory = True,
            doc = "The model to shrink.",
        ),
        "data": attr.label_list(
            allow_files = True,
            doc = "The source model's external data files (next to it).",
        ),
        "passes": attr.string_list(
            default = ["default"],
            doc = "Pipeline elements joined by commas, e.g. [\"default\"] or [\"fold\", \"fuse\", \"dce\"].",
        ),
        "opset": attr.int(
            default = 0,
            doc = "Convert to this ai.onnx opset first (0: keep the model's).",
        ),
        "verify": attr.bool(
            default = True,
            doc = "Fail the build unless the result computes the same outputs (interpreter, random inputs).",
        ),
        "tolerance": attr.string(
            doc = "Float32 verification tolerance \"RTOL[,ATOL]\"; required with float16.",
        ),
        "float16": attr.bool(
            doc = "LOSSY: store float32 weights as float16 with a Cast back; always verified.",
        ),
        "strip_doc_strings": attr.bool(doc = "Remove every doc_string."),
        "strip_metadata": attr.bool(doc = "Remove metadata_props (the model's own too)."),
        "strip_value_info": attr.bool(doc = "Remove every value_info entry."),
        "external_data_threshold": attr.int(
            default = -1,
            doc = "Write tensors of at least this many bytes to <name>.onnx.data (-1: keep them inline).",
        ),
        "dims": attr.string_dict(
            doc = "Values of symbolic dims for verification's random inputs, e.g. {\"N\": \"2\"}.",
        ),
        "extra_args": attr.string_list(
            doc = "More onnx-opt options, e.g. [\"--fold-size-limit=4194304\"].",
        ),
        "tool": attr.label(
            default = Label("//tools:onnx-opt"),
            executable = True,
            cfg = "exec",
            doc = "The onnx-opt binary.",
        ),
    },
    outputs = _outputs,
)
