"""Link options for the command-line tools: statically linked, so start-up does not wait on the dynamic loader.

Linked against the ~45 shared libraries of Debian's absl, protobuf, glog and gflags, a tool spent
~6 ms of its start in the dynamic loader (mapping each library, then binding ~6,000 symbols eagerly
under -z now) before main() ran. Linked with -static there is nothing to map or bind.

Static glog needs libunwind, whose archive also defines _Unwind_Resume and friends: libgcc_eh is
named first so the compiler's unwinder keeps those, and the -u options pull in only the libunwind
parts glog's stack traces call (archives are scanned in order, and glog's comes later).

The functions a tool runs on a typical model are placed side by side, in the order they are first
called (gold's --section-ordering-file over -ffunction-sections, with the list in
tools/text_order/text_order.txt, made by tools/text_order/make_text_order.sh). Scattered over the
binary's ~9 MB of code they touched ~4 times as many pages, and on a VM every first touch of a page
costs (a fault, or with paging shadowed by the hypervisor a trap even when fault-around mapped it):
onnx-convert on a 5 MB model went from 13.7 to 13.2 ms (copies of the binaries; 16.8 -> 15.0 ms for
binaries as the linker wrote them, cached in 4 KiB pieces). The list ends with a marker function and
patterns that send every function of ours it does not name (and the cold parts of functions) after
the marker, so the hot code is one range from the start of the executable: the system libraries'
archives, whose code has no section per function and stays in link order, then the list. At start
the tools fill that range's page table in one call (TOOL_DEPS below: hot_code_at_start.cc).

Sanitizer builds (--config=asan/ubsan/fuzz set --define=dynamic_tools=1) link dynamically, because
the sanitizer runtimes do not support -static; they keep the default layout.
"""

TOOL_LINKOPTS = select({
    "//tools:dynamic_tools": [],
    "//conditions:default": [
        "-static",
        "-lgcc_eh",
        "-Wl,-u,_ULx86_64_step,-u,_ULx86_64_init_local,-u,_ULx86_64_get_reg,-u,_Ux86_64_getcontext",
        "-lunwind",
        "-llzma",
        "-fuse-ld=gold",
        "-Wl,--section-ordering-file=$(location //tools/text_order:text_order.txt)",
    ],
})

# additional_linker_inputs of every target linked with TOOL_LINKOPTS.
TOOL_LINK_INPUTS = select({
    "//tools:dynamic_tools": [],
    "//conditions:default": ["//tools/text_order:text_order.txt"],
})

# deps of every target linked with TOOL_LINKOPTS, listed first (the hot code's page table is filled
# from .preinit_array, before the other entries there run): what only the static, ordered layout
# makes useful (tools/text_order/hot_code_at_start.cc).
TOOL_DEPS = select({
    "//tools:dynamic_tools": [],
    "//conditions:default": ["//tools/text_order:hot_code_at_start"],
})
