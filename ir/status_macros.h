// RETURN_IF_ERROR and ASSIGN_OR_RETURN for absl::Status and absl::StatusOr (Debian's abseil has no
// status macros). The one definition for the whole project; it sits in ir/, the lowest layer that
// returns statuses.
//
//   RETURN_IF_ERROR(expr);            expr is an absl::Status; returns it from the enclosing
//   function
//                                     unless it is OK. A single statement: safe anywhere.
//   ASSIGN_OR_RETURN(lhs, expr);      expr is an absl::StatusOr<T>; returns its status unless OK,
//   else
//                                     moves the value into lhs, which may declare a variable
//                                     (`ASSIGN_OR_RETURN(auto x, F())`) or name an existing one.
//
// ASSIGN_OR_RETURN expands to several statements (it must, to declare lhs in the enclosing scope),
// so it must stand in a block: never as the unbraced body of an if, else, for or while.
#ifndef ONNX_OPT_IR_STATUS_MACROS_H_
#define ONNX_OPT_IR_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define ONNX_OPT_STATUS_CONCAT_INNER(a, b) a##b
#define ONNX_OPT_STATUS_CONCAT(a, b) ONNX_OPT_STATUS_CONCAT_INNER(a, b)

#define RETURN_IF_ERROR(expr)                                                                      \
  do {                                                                                             \
    if (::absl::Status onnx_opt_status_ = (expr); !onnx_opt_status_.ok()) return onnx_opt_status_; \
  } while (false)

#define ASSIGN_OR_RETURN(lhs, expr) \
  ONNX_OPT_ASSIGN_OR_RETURN_IMPL(ONNX_OPT_STATUS_CONCAT(onnx_opt_statusor_, __COUNTER__), lhs, expr)
#define ONNX_OPT_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return std::move(tmp).status();       \
  lhs = std::move(*tmp)

#endif  // ONNX_OPT_IR_STATUS_MACROS_H_
