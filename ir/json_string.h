// JSON string literals, for what the project writes as JSON (statistics, size reports) and the test
// helpers that read it back. Not the ONNX text syntax's quoting (ir/text/printer.h), which escapes
// differently.
#ifndef ONNX_OPT_IR_JSON_STRING_H_
#define ONNX_OPT_IR_JSON_STRING_H_

#include <string>
#include <string_view>

namespace onnx_opt::ir {

// `s` in double quotes with `"` and `\` escaped, and control characters as \n, \t, ... or \u00XX.
// Bytes from 0x80 up pass through: JSON text is UTF-8, as ONNX's strings are.
std::string JsonString(std::string_view s);
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_JSON_STRING_H_
