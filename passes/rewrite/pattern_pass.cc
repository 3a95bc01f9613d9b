#include "passes/rewrite/pattern_pass.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/const_init.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "glog/logging.h"
#include "ir/name_generator.h"
#include "ir/node.h"
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

// The nodes still to visit, in order, each at most once. A queued node carries the list's walk
// stamp, which spares a hash set (a cache miss per lookup on large graphs). Should a pattern run a
// walk of its own that restamps a queued node, that node may be queued twice: visited again, no
// more.
class Worklist {
 public:
  Worklist() : queued_(ir::NewWalkStamp()) {}
  void Push(ir::Node* n) {
    if (n->walk_stamp() == queued_) return;
    n->set_walk_stamp(queued_);
    nodes_.push_back(n);
  }
  // Takes `n` off the list (it is being visited anyway); its entry stays, skipped by Pop. With
  // nothing queued, the stamp (in the node's second cache line) is not read at all.
  void Unqueue(ir::Node* n) {
    if (next_ < nodes_.size() && n->walk_stamp() == queued_) n->set_walk_stamp(0);  // 0: no stamp
  }
  // The next queued node, or null when none is left.
  ir::Node* Pop() {
    while (next_ < nodes_.size()) {
      ir::Node* n = nodes_[next_++];
      if (n->walk_stamp() != queued_) continue;
      n->set_walk_stamp(0);
      return n;
    }
    return nullptr;
  }

 private:
  uint64_t queued_;
  std::vector<ir::Node*> nodes_;
  size_t next_ = 0;
};

// Op types are short names looked up once per visited node: a hash of the length and the first
// eight characters, mixed by one multiplication, costs a fraction of absl's string hash (which was
// half of the lookup's time in perf).
struct OpTypeHash {
  using is_transparent = void;
  size_t operator()(std::string_view op) const {
    uint64_t h = op.size();
    const size_t n = op.size() < 8 ? op.size() : 8;
    for (size_t i = 0; i < n; ++i) h = (h << 8) | static_cast<unsigned char>(op[i]);
    h *= 0x9e3779b97f4a7c15ull;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};
struct OpTypeEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};

}  // namespace

struct PatternPass::PatternSet {
  explicit PatternSet(std::vector<RewritePattern> p) : patterns(std::move(p)) {
    for (size_t i = 0; i < patterns.size(); ++i) {
      for (const std::string& op : patterns[i].root_ops) {
        std::vector<uint32_t>& starts = by_root[op];
        if (starts.empty() || starts.back() != i) starts.push_back(static_cast<uint32_t>(i));
      }
    }
  }
  // The patterns `op` may start, in order (null: none). Every node the driver visits asks: one
  // lookup instead of comparing its op type with each root op of each pattern (nops alone has 22,
  // most of them three letters long like the ops of a typical graph).
  const std::vector<uint32_t>* StartedBy(const std::string& op) const {
    auto it = by_root.find(std::string_view(op));
    return it == by_root.end() ? nullptr : &it->second;
  }

  std::vector<RewritePattern> patterns;
  absl::flat_hash_map<std::string, std::vector<uint32_t>, OpTypeHash, OpTypeEq> by_root;
};

namespace {

// The patterns of each pass by name, built on first use.
const PatternPass::PatternSet* SharedPatterns(std::string_view name,
                                              std::vector<RewritePattern> (*make)()) {
  static absl::Mutex mu(absl::kConstInit);
  static auto* built = new absl::flat_hash_map<std::string, const PatternPass::PatternSet*>();
  absl::MutexLock lock(&mu);
  auto [it, inserted] = built->try_emplace(std::string(name), nullptr);
  if (inserted) it->second = new PatternPass::PatternSet(make());
  return it->second;
}

}  // namespace

PatternPass::PatternPass(std::string_view name, std::vector<RewritePattern> (*make_patterns)())
    : name_(name), set_(SharedPatterns(name, make_patterns)) {}

PatternPass::PatternPass(std::string_view name, std::vector<RewritePattern> patterns)
    : name_(name),
      owned_(std::make_unique<const PatternSet>(std::move(patterns))),
      set_(owned_.get()) {}

PatternPass::~PatternPass() = default;

absl::StatusOr<bool> PatternPass::Run(ir::Model& model, optimizer::PassContext& ctx) {
  const int64_t opset = model.OpsetVersion("").value_or(0);
  std::vector<const RewritePattern*> enabled;
  const std::vector<RewritePattern>& patterns = set_->patterns;
  for (const RewritePattern& p : patterns) {
    if (opset >= p.min_opset) enabled.push_back(&p);
  }
  if (enabled.empty()) return false;
  // Rewrites per pattern of `patterns`, reported to `ctx` once at the end: a name per rewrite cost
  // a string and a map lookup each.
  std::vector<int64_t> counts(patterns.size(), 0);
  ir::NameGenerator names(model);
  auto run_on_graph = [&](ir::Graph& g) -> absl::StatusOr<bool> {
    // Per pattern of `patterns`: whether it may rewrite in this graph.
    std::vector<char> possible(patterns.size(), 0);
    bool any = false;
    for (const RewritePattern* p : enabled) {
      if (GraphMayHold(g, *p)) possible[p - patterns.data()] = any = true;
    }
    if (!any) return false;
    bool changed = false;
    // One rewriter for every candidate in the graph, cleared before each.
    Rewriter rewriter(g, opset, names);
    Worklist worklist;
    // Tries the patterns at `node`; after a rewrite, queues what it touched.
    auto visit = [&](ir::Node* node) -> absl::Status {
      if (node->is_erased() || !node->is_onnx_domain()) return absl::OkStatus();
      const std::vector<uint32_t>* started = set_->StartedBy(node->op_type());
      if (started == nullptr) return absl::OkStatus();
      for (uint32_t i : *started) {
        if (!possible[i]) continue;
        rewriter.Clear();
        ASSIGN_OR_RETURN(int64_t rewrites, patterns[i].match_and_rewrite(*node, rewriter));
        if (rewrites == 0) continue;
        counts[i] += rewrites;
        changed = true;
        for (ir::Node* touched : rewriter.touched()) {
          // A node the rewrite went on to erase (the one it replaced, say) has nothing to revisit.
          if (!touched->is_erased()) worklist.Push(touched);
        }
        break;
      }
      return absl::OkStatus();
    };
    // One sweep in node order (nodes inserted after the current one are visited too), walking the
    // node list itself: queueing every node cost the default pipeline half as much again on large
    // graphs. A node queued before the sweep reaches it (a user of what a rewrite replaced) is
    // visited by the sweep and leaves the list. Then the nodes rewrites touched (new nodes, changed
    // inputs, producers and users of values that lost a use), until nothing is left to visit.
    int64_t size = 0;
    for (ir::Node* node : g.nodes()) {
      worklist.Unqueue(node);
      rewriter.set_swept(node);
      RETURN_IF_ERROR(visit(node));
      ++size;
    }
    rewriter.set_swept(nullptr);
    const int64_t visit_limit = kVisitsPerNode * (size + 16);
    int64_t visits = 0;
    while (ir::Node* node = worklist.Pop()) {
      if (++visits > visit_limit) {
        LOG(WARNING) << name_ << ": stopped after " << visit_limit << " revisits in a graph of "
                     << size << " nodes; its patterns may undo each other";
        break;
      }
      RETURN_IF_ERROR(visit(node));
    }
    g.ReleaseErased();
    return changed;
  };
  absl::StatusOr<bool> result = ForEachGraphOuterFirst(model, run_on_graph);
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    const std::string& pattern = patterns[i].name;
    if (pattern.empty()) {
      ctx.CountRewrite(counts[i]);
    } else {
      ctx.CountPatternRewrite(absl::StrCat(name_, "/", pattern), counts[i]);
    }
  }
  return result;
}

}  // namespace onnx_opt::passes::rewrite
