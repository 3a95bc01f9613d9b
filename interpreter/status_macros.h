// RETURN_IF_ERROR / ASSIGN_OR_RETURN for absl::Status (Debian's abseil has no status macros).
#ifndef ONNX_OPT_INTERPRETER_STATUS_MACROS_H_
#define ONNX_OPT_INTERPRETER_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define INTERP_CONCAT_INNER(a, b) a##b
#define INTERP_CONCAT(a, b) INTERP_CONCAT_INNER(a, b)

#define RETURN_IF_ERROR(expr)                \
  do {                                       \
    const absl::Status _st = (expr);         \
    if (!_st.ok()) return _st;               \
  } while (0)

#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL(INTERP_CONCAT(_statusor_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                          \
  if (!tmp.ok()) return tmp.status();         \
  lhs = std::move(*tmp)

#endif  // ONNX_OPT_INTERPRETER_STATUS_MACROS_H_
