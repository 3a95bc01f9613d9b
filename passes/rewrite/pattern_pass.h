// One driver for every rewrite pass: a PatternPass owns the walk over the model's graphs (outer
// before inner, function bodies too), the opset gate, the op-type guard, the worklist of nodes to
// visit (every node in order, then again each node a rewrite touched and did not erase, except
// what the first sweep has still to reach), counting rewrites per pattern and releasing erased
// nodes. A pass only declares its patterns:
//
//   class FuseMish final : public PatternPass {
//    public:
//     static constexpr char kName[] = "fuse-mish";
//     FuseMish() : PatternPass(kName, {MishPattern()}) {}
//   };
//   REGISTER_PASS(FuseMish, FuseMish::kName, "turn x * Tanh(Softplus(x)) into Mish(x)");
#ifndef ONNX_OPT_PASSES_REWRITE_PATTERN_PASS_H_
#define ONNX_OPT_PASSES_REWRITE_PATTERN_PASS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/graph.h"
#include "ir/model.h"
#include "ir/node.h"
#include "optimizer/pass.h"
#include "passes/rewrite/rewriter.h"

namespace onnx_opt::passes::rewrite {

// At least `at_least` live nodes whose op type is one of `ops`, counted together.
struct OpCount {
  std::vector<std::string> ops;
  int64_t at_least = 1;
};

struct RewritePattern {
  // Names the pattern in --print-stats (as "pass/name"); unique within its pass. A nameless
  // pattern's rewrites count for its pass only.
  std::string name;
  // The ai.onnx op types of the nodes a match starts from.
  std::vector<std::string> root_ops;
  // The op-type guard: a graph whose counts miss any of these cannot hold the pattern and is not
  // walked for it.
  std::vector<OpCount> needs;
  // The opset gate: the pattern is off below this ai.onnx version (where its result op is missing
  // or means something else).
  int64_t min_opset = 0;
  // Matches at `root` and rewrites; returns how many rewrites it made (0 when it did not match, and
  // then it changed nothing). Every change goes through `rewriter`, which tells the driver what to
  // visit again.
  std::function<absl::StatusOr<int64_t>(ir::Node& root, Rewriter& rewriter)> match_and_rewrite;
};

class PatternPass : public optimizer::Pass {
 public:
  // `name` is the name the pass is registered under; patterns are tried in order at each node and
  // the first that rewrites wins. Patterns never change, so `make_patterns` runs once per process
  // and every instance of the pass shares what it built: a pipeline's passes are made anew for each
  // run, and building the default pipeline's patterns each time was a fifth of its run on a
  // 1,000-node model.
  PatternPass(std::string_view name, std::vector<RewritePattern> (*make_patterns)());
  // A pass of its own patterns (tests, one-off passes), not shared.
  PatternPass(std::string_view name, std::vector<RewritePattern> patterns);
  ~PatternPass() override;
  PatternPass(const PatternPass&) = delete;
  PatternPass& operator=(const PatternPass&) = delete;

  std::string_view name() const final { return name_; }
  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) final;

  struct PatternSet;  // the patterns, and which of them each root op type starts (pattern_pass.cc)

 private:
  std::string name_;
  std::unique_ptr<const PatternSet> owned_;
  const PatternSet* set_;  // owned_, or shared and kept for the process
};

}  // namespace onnx_opt::passes::rewrite

#endif  // ONNX_OPT_PASSES_REWRITE_PATTERN_PASS_H_
