"""A fuzz target and the test that replays its regression inputs.

`onnx_fuzzer(name = "x_fuzzer", ...)` makes:
  x_fuzzer                  the libFuzzer binary under --config=fuzz (clang, ASan+UBSan); in other
                            builds the same code with a main() that runs the files it is given
  x_fuzzer_regression_test  replays regressions/x_fuzzer/ (inputs that once crashed it) and the
                            project's test models, in every `bazel test //...`
"""

def onnx_fuzzer(name, srcs, deps):
    native.cc_binary(
        name = name,
        srcs = srcs,
        deps = deps + select({
            "//tools/fuzz:fuzzing": [],
            "//conditions:default": ["//tools/fuzz:corpus_runner"],
        }),
        linkopts = select({
            "//tools/fuzz:fuzzing": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
    )
    regressions = native.glob(["regressions/" + name + "/**"], allow_empty = True)
    native.cc_test(
        name = name + "_regression_test",
        srcs = srcs,
        deps = deps + ["//tools/fuzz:corpus_runner"],
        data = regressions + ["//testdata/models:onnx_files"],
        args = ["$(rootpaths //testdata/models:onnx_files)"] +
               (["tools/fuzz/regressions/" + name] if regressions else []),
    )
