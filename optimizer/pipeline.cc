#include "optimizer/pipeline.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/status_macros.h"

namespace onnx_opt::optimizer {

absl::StatusOr<bool> SequencePass::Run(ir::Model& model, PassContext& ctx) {
  bool changed = false;
  for (auto& pass : passes_) {
    ASSIGN_OR_RETURN(bool c, pass->Run(model, ctx));
    changed |= c;
  }
  return changed;
}

absl::StatusOr<bool> FixedPointPass::Run(ir::Model& model, PassContext& ctx) {
  bool changed = false;
  rounds_ = 0;
  hit_bound_ = false;
  while (true) {
    ++rounds_;
    ASSIGN_OR_RETURN(bool c, body_->Run(model, ctx));
    if (!c) break;
    changed = true;
    if (rounds_ >= max_rounds_) {
      hit_bound_ = true;
      ctx.CountFixedPointAtLimit();
      break;
    }
  }
  return changed;
}

namespace {

constexpr int kMaxGroupDepth = 16;

class Parser {
 public:
  Parser(std::string_view text, const PassRegistry& registry, const LeafWrapper& wrap, int depth)
      : text_(text), registry_(registry), wrap_(wrap), depth_(depth) {}

  absl::StatusOr<std::unique_ptr<Pass>> ParseAll(std::string name) {
    ASSIGN_OR_RETURN(std::vector<std::unique_ptr<Pass>> list, ParseList());
    SkipSpace();
    if (pos_ != text_.size())
      return Error(absl::StrCat("unexpected '", text_.substr(pos_, 1), "'"));
    return std::unique_ptr<Pass>(new SequencePass(std::move(name), std::move(list)));
  }

 private:
  absl::StatusOr<std::vector<std::unique_ptr<Pass>>> ParseList() {
    std::vector<std::unique_ptr<Pass>> out;
    while (true) {
      ASSIGN_OR_RETURN(std::unique_ptr<Pass> item, ParseItem());
      out.push_back(std::move(item));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      return out;
    }
  }

  absl::StatusOr<std::unique_ptr<Pass>> ParseItem() {
    SkipSpace();
    const std::string name = ParseName();
    if (name.empty()) {
      return Error(pos_ < text_.size()
                       ? absl::StrCat("expected a pass name at '", text_.substr(pos_), "'")
                       : std::string("expected a pass name at the end"));
    }
    SkipSpace();
    if (name == "fixed") {
      int max_rounds = FixedPointPass::kDefaultMaxRounds;
      if (Peek('<')) {
        ++pos_;
        const std::string n = ParseName();
        if (n.empty() || !std::all_of(n.begin(), n.end(), ::isdigit) || !Peek('>')) {
          return Error("expected fixed<N>(...) with a round count N");
        }
        ++pos_;
        if (!absl::SimpleAtoi(n, &max_rounds) || max_rounds < 1 ||
            max_rounds > FixedPointPass::kMaxRounds) {
          return Error(absl::StrCat("fixed<N>: N must be a round count from 1 to ",
                                    FixedPointPass::kMaxRounds, ", got ", n));
        }
      }
      if (!Peek('(')) return Error("expected '(' after 'fixed'");
      ++pos_;
      ASSIGN_OR_RETURN(std::vector<std::unique_ptr<Pass>> list, ParseList());
      if (!Peek(')')) return Error("expected ')' to close 'fixed('");
      ++pos_;
      return std::unique_ptr<Pass>(
          new FixedPointPass(std::make_unique<SequencePass>("fixed", std::move(list)), max_rounds));
    }
    std::vector<std::string> args;
    if (Peek('(')) {
      ++pos_;
      while (true) {
        SkipSpace();
        std::string arg = ParseArgument();
        if (arg.empty()) return Error(absl::StrCat("expected an argument for '", name, "'"));
        args.push_back(arg);
        SkipSpace();
        if (Peek(',')) {
          ++pos_;
          continue;
        }
        if (!Peek(')')) return Error(absl::StrCat("expected ')' to close '", name, "('"));
        ++pos_;
        break;
      }
    }
    if (const PassInfo* info = registry_.FindPass(name)) {
      std::unique_ptr<Pass> pass = info->factory(args);
      if (pass == nullptr) {
        return Error(
            absl::StrCat("invalid arguments for pass '", name, "': ", absl::StrJoin(args, ",")));
      }
      return wrap_ ? wrap_(std::move(pass)) : std::move(pass);
    }
    if (const GroupInfo* group = registry_.FindGroup(name)) {
      if (!args.empty()) return Error(absl::StrCat("group '", name, "' takes no arguments"));
      if (depth_ >= kMaxGroupDepth) {
        return absl::InternalError(absl::StrCat("pass group '", name, "' expands into itself"));
      }
      Parser inner(group->pipeline, registry_, wrap_, depth_ + 1);
      return inner.ParseAll(name);
    }
    return absl::InvalidArgumentError(
        absl::StrCat("unknown pass '", name,
                     "'; valid passes and groups: ", absl::StrJoin(registry_.Names(), ", ")));
  }

  std::string ParseName() {
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
            text_[pos_] == '-' || text_[pos_] == '.')) {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  // An argument: up to the next ',', '(', ')' or space ("21", "bits=4", "exclude=*lm_head*").
  std::string ParseArgument() {
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '(' && text_[pos_] != ')' &&
           !std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  absl::Status Error(const std::string& what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("pipeline '", text_, "' at column ", pos_ + 1, ": ", what));
  }

  std::string text_;
  const PassRegistry& registry_;
  const LeafWrapper& wrap_;
  int depth_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Pass>> ParsePipeline(std::string_view text,
                                                    const PassRegistry& registry,
                                                    const LeafWrapper& wrap) {
  return Parser(text, registry, wrap, 0).ParseAll("pipeline");
}

absl::StatusOr<std::optional<equivalence::LossyTolerance>> LossyToleranceOf(
    std::string_view text, const PassRegistry& registry) {
  std::optional<equivalence::LossyTolerance> loosest;
  const LeafWrapper note = [&](std::unique_ptr<Pass> pass) {
    if (const std::optional<equivalence::LossyTolerance> lossy = pass->lossy_tolerance()) {
      if (!loosest) {
        loosest = lossy;
      } else {
        loosest->max_rel_l2 = std::max(loosest->max_rel_l2, lossy->max_rel_l2);
        loosest->min_cosine = std::min(loosest->min_cosine, lossy->min_cosine);
        loosest->max_abs = std::max(loosest->max_abs, lossy->max_abs);
      }
    }
    return pass;
  };
  RETURN_IF_ERROR(ParsePipeline(text, registry, note).status());
  return loosest;
}

}  // namespace onnx_opt::optimizer
