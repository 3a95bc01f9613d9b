"""Compiles the same sources once per x86-64 instruction set, each into its own namespace."""

# -O3 on every mode (the loops are written to be vectorized; fastbuild would leave them scalar and,
# worse, leave inline helpers compiled with wide instructions out of line). -fno-math-errno lets sqrt
# vectorize. -fno-trapping-math lets GCC compute both sides of a select (`a < 0.4f ? small : large`
# with a division in one) for every lane: nothing here reads the floating-point exception flags, and
# values and NaNs are unchanged, but without it AVX2 (which has no masked arithmetic) kept the
# sigmoid, tanh, softmax and depthwise loops scalar (an LSTM spent 44% of its time in them, against
# 8% with AVX-512). GCC contracts a * b + c into one FMA where the ISA has it (in C++ -std=c++20 does not
# turn that off), so a loop written that way rounds once on AVX2 and AVX-512 and twice on the
# baseline; kernels whose bits must match another's write the FMA out (elementwise.cc's
# ScaleShiftF32).
_ISAS = {
    "baseline": ("Isa::kBaseline", []),
    "avx2": ("Isa::kAvx2", ["-mavx2", "-mfma", "-mf16c"]),
    "avx512": ("Isa::kAvx512", [
        "-mavx2",
        "-mfma",
        "-mf16c",
        "-mavx512f",
        "-mavx512cd",
        "-mavx512bw",
        "-mavx512dq",
        "-mavx512vl",
        "-mprefer-vector-width=512",
    ]),
}

def isa_library(name, srcs, hdrs = [], deps = [], copts = []):
    """Defines <name>_<isa> for each ISA and <name> depending on all of them."""
    for isa, (enum, flags) in _ISAS.items():
        native.cc_library(
            name = name + "_" + isa,
            srcs = srcs,
            hdrs = hdrs,
            copts = copts + flags + [
                "-O3",
                "-fno-math-errno",
                "-fno-trapping-math",
                "-DONNX_OPT_SIMD_NS=simd_" + isa,
                "-DONNX_OPT_SIMD_ISA=::onnx_opt::interpreter::" + enum,
            ],
            deps = deps,
        )
    native.cc_library(
        name = name,
        deps = [":" + name + "_" + isa for isa in _ISAS],
    )
