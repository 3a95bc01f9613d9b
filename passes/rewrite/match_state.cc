#include "passes/rewrite/match_state.h"

namespace onnx_opt::passes::rewrite {

void MatchState::Rollback(Mark mark) {
  // Newest first, so a slot bound twice ends at its value from before the mark.
  while (undo_.size() > mark.undo) {
    captures_.Set(undo_.back().slot, undo_.back().old);
    undo_.pop_back();
  }
  matched_.resize(mark.matched);
}

}  // namespace onnx_opt::passes::rewrite
