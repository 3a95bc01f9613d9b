// Where ONNX's backend node tests are: $ONNX_CONFORMANCE_DIR (CI: ../shared/onnx-conformance).
// The tests that need them use ONNX_OPT_CONFORMANCE_DIR_OR_SKIP, so that they agree on one rule:
//   - unset: the test skips, loudly, except in CI ($CI set and not "false", as .ci/run sets it),
//     where a run without the data must not pass: there it fails;
//   - set to a folder without node/: the test fails, in CI or not.
#ifndef ONNX_OPT_EQUIVALENCE_TESTING_CONFORMANCE_DIR_H_
#define ONNX_OPT_EQUIVALENCE_TESTING_CONFORMANCE_DIR_H_

#include <iostream>
#include <string>

#include "absl/status/statusor.h"

namespace onnx_opt::conformance {

// The folder (holding node/), "" when unset outside CI, or an error naming what is missing.
absl::StatusOr<std::string> ConformanceDir();

}  // namespace onnx_opt::conformance

// In a test body: declares `std::string var` holding the folder, or skips / fails the test by the
// rule above. `what` names the test in the skip message.
#define ONNX_OPT_CONFORMANCE_DIR_OR_SKIP(var, what)                                              \
  std::string var;                                                                               \
  {                                                                                              \
    absl::StatusOr<std::string> onnx_opt_conformance_dir =                                       \
        ::onnx_opt::conformance::ConformanceDir();                                               \
    ASSERT_TRUE(onnx_opt_conformance_dir.ok()) << onnx_opt_conformance_dir.status().message();   \
    if (onnx_opt_conformance_dir->empty()) {                                                     \
      std::cerr << "\n*** ONNX_CONFORMANCE_DIR is not set: " << (what) << " is SKIPPED ***\n\n"; \
      GTEST_SKIP() << "ONNX_CONFORMANCE_DIR is not set";                                         \
    }                                                                                            \
    var = *onnx_opt_conformance_dir;                                                             \
  }

#endif  // ONNX_OPT_EQUIVALENCE_TESTING_CONFORMANCE_DIR_H_
