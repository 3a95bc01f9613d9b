#include "passes/rewrite/pattern_pass.h"

#include <algorithm>
#include <deque>

#include "absl/base/const_init.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "absl/strings/str_cat.h"
#include "glog/logging.h"
#include "ir/name_generator.h"
#include "ir/status_macros.h"
#include "passes/graph_walk.h"

namespace onnx_opt::passes::rewrite {
namespace {

// The worklist stops after this many visits per node the graph had at the start (plus a few): far
// more than any chain of rewrites needs, so reaching it means patterns undo each other.
constexpr int64_t kVisitsPerNode = 64;

bool GraphMayHold(const ir::Graph& g, const RewritePattern& p) {
  for (const OpCount& need : p.needs) {
    int64_t count = 0;
    for (const std::string& op : need.ops) count += g.CountOpType(op);
    if (count < need.at_least) return false;
  }
  return true;
}

bool IsRoot(const ir::Node& n, const RewritePattern& p) {
  return std::find(p.root_ops.begin(), p.root_ops.end(), n.op_type()) != p.root_ops.end();
}

// The nodes still to visit, in order, each at most once.
class Worklist {
 public:
  void Push(ir::Node* n) {
    if (queued_.insert(n).second) nodes_.push_back(n);
  }
  bool empty() const { return nodes_.empty(); }
  ir::Node* Pop() {
    ir::Node* n = nodes_.front();
    nodes_.pop_front();
    queued_.erase(n);
    return n;
  }

 private:
  std::deque<ir::Node*> nodes_;
  absl::flat_hash_set<ir::Node*> queued_;
};

// The patterns of each pass by name, built on first use.
const std::vector<RewritePattern>* SharedPatterns(std::string_view name, std::vector<RewritePattern> (*make)()) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* built = new absl::flat_hash_map<std::string, const std::vector<RewritePattern>*>();
  absl::MutexLock lock(&mu);
  auto [it, inserted] = built->try_emplace(std::string(name), nullptr);
  if (inserted) it->second = new std::vector<RewritePattern>(make());
  return it->second;
}

}  // namespace

PatternPass::PatternPass(std::string_view name, std::vector<RewritePattern> (*make_patterns)())
    : name_(name), patterns_(SharedPatterns(name, make_patterns)) {}

absl::StatusOr<bool> PatternPass::Run(ir::Model& model, optimizer::PassContext& ctx) {
  const int64_t opset = model.OpsetVersion("").value_or(0);
  std::vector<const RewritePattern*> enabled;
  std::vector<std::string> counter_names;  // per pattern of patterns_: "pass/pattern"
  for (const RewritePattern& p : *patterns_) {
    if (opset >= p.min_opset) enabled.push_back(&p);
    counter_names.push_back(p.name.empty() ? "" : absl::StrCat(name_, "/", p.name));
  }
  if (enabled.empty()) return false;
  ir::NameGenerator names(model);
  return ForEachGraphOuterFirst(model, [&](ir::Graph& g) -> absl::StatusOr<bool> {
    std::vector<const RewritePattern*> possible;
    for (const RewritePattern* p : enabled) {
      if (GraphMayHold(g, *p)) possible.push_back(p);
    }
    if (possible.empty()) return false;
    bool changed = false;
    // Tries the patterns at `node`; after a rewrite, queues what it touched.
    Worklist worklist;
    auto visit = [&](ir::Node* node) -> absl::Status {
      if (node->is_erased() || !node->is_onnx_domain()) return absl::OkStatus();
      for (const RewritePattern* p : possible) {
        if (!IsRoot(*node, *p)) continue;
        Rewriter rewriter(g, opset, names);
        ASSIGN_OR_RETURN(int64_t rewrites, p->match_and_rewrite(*node, rewriter));
        if (rewrites == 0) continue;
        const std::string& counter = counter_names[p - patterns_->data()];
        if (counter.empty()) {
          ctx.CountRewrite(rewrites);
        } else {
          ctx.CountPatternRewrite(counter, rewrites);
        }
        changed = true;
        for (ir::Node* touched : rewriter.touched()) worklist.Push(touched);
        break;
      }
      return absl::OkStatus();
    };
    // One sweep in node order (nodes inserted after the current one are visited too), walking the
    // node list itself: queueing every node cost the default pipeline half as much again on large
    // graphs. Then the nodes rewrites touched (new nodes, changed inputs, producers and users of
    // values that lost a use), until nothing is left to visit.
    int64_t size = 0;
    for (ir::Node* node : g.nodes()) {
      RETURN_IF_ERROR(visit(node));
      ++size;
    }
    const int64_t visit_limit = kVisitsPerNode * (size + 16);
    int64_t visits = 0;
    while (!worklist.empty()) {
      if (++visits > visit_limit) {
        LOG(WARNING) << name_ << ": stopped after " << visit_limit << " revisits in a graph of " << size
                     << " nodes; its patterns may undo each other";
        break;
      }
      RETURN_IF_ERROR(visit(worklist.Pop()));
    }
    g.ReleaseErased();
    return changed;
  });
}

}  // namespace onnx_opt::passes::rewrite
