"""Link options for the command-line tools: statically linked, so start-up does not wait on the dynamic loader.

Linked against the ~45 shared libraries of Debian's absl, protobuf, glog and gflags, a tool spent
~6 ms of its start in the dynamic loader (mapping each library, then binding ~6,000 symbols eagerly
under -z now) before main() ran. Linked with -static there is nothing to map or bind.

Static glog needs libunwind, whose archive also defines _Unwind_Resume and friends: libgcc_eh is
named first so the compiler's unwinder keeps those, and the -u options pull in only the libunwind
parts glog's stack traces call (archives are scanned in order, and glog's comes later).

Sanitizer builds (--config=asan/ubsan/fuzz set --define=dynamic_tools=1) link dynamically, because
the sanitizer runtimes do not support -static.
"""

TOOL_LINKOPTS = select({
    "//platform:dynamic_tools": [],
    "//conditions:default": [
        "-static",
        "-lgcc_eh",
        "-Wl,-u,_ULx86_64_step,-u,_ULx86_64_init_local,-u,_ULx86_64_get_reg,-u,_Ux86_64_getcontext",
        "-lunwind",
        "-llzma",
    ],
})
