// Fresh, unique value and node names for passes that create values.
#ifndef ONNX_OPT_IR_NAME_GENERATOR_H_
#define ONNX_OPT_IR_NAME_GENERATOR_H_

#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "ir/model.h"

namespace onnx_opt::ir {

// Knows every name in a model (values and nodes of every graph, subgraph and function) and hands
// out names that clash with none of them, nor with each other. The names are collected on first
// use, so a pass that never needs a fresh name pays nothing (collecting is a hash of every name).
class NameGenerator {
 public:
  explicit NameGenerator(const Model& model);
  explicit NameGenerator(const Graph& graph);

  // `base` itself if unused, else `base_1`, `base_2`, ...
  std::string Fresh(std::string_view base);
  // Marks a name as taken.
  void Reserve(std::string_view name) {
    EnsureCollected();
    taken_.insert(std::string(name));
  }
  bool IsTaken(std::string_view name) {
    EnsureCollected();
    return taken_.contains(absl::string_view(name.data(), name.size()));
  }

 private:
  void EnsureCollected();
  void Collect(const Graph& graph);

  const Model* model_ = nullptr;
  const Graph* graph_ = nullptr;
  bool collected_ = false;
  absl::flat_hash_set<std::string> taken_;
  absl::flat_hash_map<std::string, int64_t> next_suffix_;
};

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_NAME_GENERATOR_H_
