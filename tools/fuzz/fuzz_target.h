// The entry point every fuzz target defines (libFuzzer's name). Under `--config=fuzz` libFuzzer
// supplies main(); otherwise corpus_runner.cc does, so the same target replays its regression
// inputs as an ordinary test.
#ifndef ONNX_OPT_TOOLS_FUZZ_FUZZ_TARGET_H_
#define ONNX_OPT_TOOLS_FUZZ_FUZZ_TARGET_H_

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#endif  // ONNX_OPT_TOOLS_FUZZ_FUZZ_TARGET_H_
