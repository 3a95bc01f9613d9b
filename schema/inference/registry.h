// The inference functions, keyed by (domain, op_type, range of since_versions). A new operator
// version whose shape rules did not change needs nothing; one whose rules changed is one more
// Register call with the new range. Filled once at start-up by the family files (ops_*.cc).
#ifndef ONNX_OPT_SCHEMA_INFERENCE_REGISTRY_H_
#define ONNX_OPT_SCHEMA_INFERENCE_REGISTRY_H_

#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "schema/inference/context.h"

namespace onnx_opt::schema::inference {

using InferFn = std::function<absl::Status(InferenceContext&)>;

inline constexpr int kLatest = std::numeric_limits<int>::max();

class InferenceRegistry {
 public:
  // The registry with every family's functions.
  static const InferenceRegistry& Get();

  // `fn` handles the schemas of (domain, op) whose since_version is in [first, last].
  void Register(std::string_view domain, std::string_view op, int first, int last, InferFn fn);
  // ai.onnx shorthands.
  void Register(std::string_view op, int first, int last, InferFn fn) {
    Register("ai.onnx", op, first, last, std::move(fn));
  }
  void Register(std::string_view op, InferFn fn) {
    Register("ai.onnx", op, 1, kLatest, std::move(fn));
  }

  // Null when no function covers this schema version.
  const InferFn* Find(std::string_view domain, std::string_view op, int since_version) const;

  // Every (domain, op) with at least one function, as "domain::op" (for tests and reports).
  std::vector<std::string> Keys() const;

 private:
  struct Entry {
    int first;
    int last;
    InferFn fn;
  };
  // Most operators have one entry.
  absl::flat_hash_map<std::string, absl::InlinedVector<Entry, 1>> entries_;
};

// One per family file.
void RegisterElementwiseOps(InferenceRegistry& r);
void RegisterTensorOps(InferenceRegistry& r);
void RegisterShapeOps(InferenceRegistry& r);
void RegisterNnOps(InferenceRegistry& r);
void RegisterMathOps(InferenceRegistry& r);
void RegisterReductionOps(InferenceRegistry& r);
void RegisterRnnOps(InferenceRegistry& r);
void RegisterControlFlowOps(InferenceRegistry& r);
void RegisterSequenceOps(InferenceRegistry& r);
void RegisterMiscOps(InferenceRegistry& r);
void RegisterContribOps(InferenceRegistry& r);  // com.microsoft

}  // namespace onnx_opt::schema::inference

#endif  // ONNX_OPT_SCHEMA_INFERENCE_REGISTRY_H_
