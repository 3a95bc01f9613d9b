// Scratch files for the loader's tests: a fresh folder under the test's temporary directory, and
// whole-file reads and writes.
#ifndef ONNX_OPT_IR_IO_TESTING_TEMP_FILES_H_
#define ONNX_OPT_IR_IO_TESTING_TEMP_FILES_H_

#include <string>

namespace onnx_opt::ir::io::testing {

// $TEST_TMPDIR/name (or /tmp/name), emptied and created.
std::string TempDir(const std::string& name);
void WriteFile(const std::string& path, const std::string& bytes);
std::string ReadFile(const std::string& path);

}  // namespace onnx_opt::ir::io::testing

#endif  // ONNX_OPT_IR_IO_TESTING_TEMP_FILES_H_
