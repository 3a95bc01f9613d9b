#include "tools/lib/model_steps.h"

#include "absl/strings/str_cat.h"
#include "ir/clone.h"
#include "ir/status_macros.h"
#include "optimizer/pipeline.h"
#include "tools/lib/verification.h"

namespace onnx_opt::tools {

absl::StatusOr<schema::checker::CheckResult> CheckInputModel(const ir::Model& model,
                                                             const std::string& name,
                                                             const WarningSink& warn) {
  schema::checker::CheckResult check = CheckAndWarn(model, warn);
  if (!check.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(name, " is not a valid model: ", check.errors[0]));
  return check;
}

absl::Status CheckResultModel(const ir::Model& result,
                              const schema::checker::CheckResult& input_check,
                              const WarningSink& result_warnings) {
  if (const auto check = CheckAndWarn(result, result_warnings, &input_check); !check.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the result would be invalid, nothing written: ", check.errors[0]));
  }
  return absl::OkStatus();
}

namespace {

void Report(const ProgressSink& progress, std::string_view phase, std::string_view what) {
  if (progress) progress(phase, what);
}

absl::Status VerifyRewritten(const ir::Model& result, const equivalence::References& references,
                             const equivalence::EquivalenceOptions& equivalence,
                             Verification& verification) {
  if (absl::Status s = Verify(result, references, equivalence.tolerances, verification); !s.ok()) {
    return absl::Status(s.code(),
                        absl::StrCat("verification failed, nothing written: ", s.message()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<OptimizeOutcome> OptimizeCheckedModel(
    ir::Model& model, const schema::checker::CheckResult& input_check,
    const OptimizeRequest& request, const WarningSink& result_warnings, bool* usage_error) {
  if (usage_error != nullptr) *usage_error = false;
  // Parsed on its own first, so that a pipeline the caller wrote wrong is told from a failing pass
  // by the parser's status code (optimizer/pipeline.h), not by the wording of the message.
  absl::StatusOr<std::optional<equivalence::LossyTolerance>> lossy =
      optimizer::LossyToleranceOf(request.pipeline, optimizer::PassRegistry::Global());
  if (!lossy.ok()) {
    if (usage_error != nullptr) *usage_error = absl::IsInvalidArgument(lossy.status());
    return lossy.status();
  }
  equivalence::EquivalenceOptions equivalence = request.equivalence;
  if (lossy->has_value() && !equivalence.tolerances.lossy && !request.elementwise_tolerance) {
    equivalence.tolerances.lossy = *lossy;
  }
  // A lossy result is never written unchecked.
  const bool verify = request.verify || request.verify_each || lossy->has_value();
  // The original, kept for verification: a copy sharing the tensor bytes the loader already mapped
  // (not a reload, which would have to find external data again).
  std::unique_ptr<ir::Model> original;
  equivalence::References references;
  if (verify) {
    absl::StatusOr<std::unique_ptr<ir::Model>> copy = ir::CloneModel(model);
    if (!copy.ok()) {
      return absl::Status(copy.status().code(),
                          absl::StrCat("cannot keep a copy of the input for verification: ",
                                       copy.status().message()));
    }
    original = std::move(*copy);
    Report(request.progress, "verify", "verifying: running the input model");
    ASSIGN_OR_RETURN(references, MakeReferences(*original, request.inputs_dir, equivalence));
  }
  optimizer::PassManagerOptions options = request.manager;
  if (request.verify_each) {
    options.after_each = [&](const ir::Model& m, const std::string&) {
      return equivalence::CheckOutputs(m, references, equivalence.tolerances);
    };
  }
  OptimizeOutcome outcome;
  ASSIGN_OR_RETURN(outcome.pipeline,
                   optimizer::PassManager(std::move(options)).Run(model, request.pipeline));
  if (const std::string w = optimizer::FixedPointLimitWarning(outcome.pipeline); !w.empty())
    result_warnings(w);
  if (request.check_result || verify) {
    Report(request.progress, "check-result", "checking the result");
    RETURN_IF_ERROR(CheckResultModel(model, input_check, result_warnings));
  }
  if (verify) {
    Report(request.progress, "verify", "verifying: running the result");
    RETURN_IF_ERROR(VerifyRewritten(model, references, equivalence, outcome.verification));
    outcome.verification.lossy = equivalence.tolerances.lossy;
  }
  return outcome;
}

absl::StatusOr<ConvertOutcome> ConvertCheckedModel(std::unique_ptr<ir::Model> model,
                                                   const schema::checker::CheckResult& input_check,
                                                   const ConvertRequest& request,
                                                   const WarningSink& result_warnings) {
  ConvertOutcome outcome;
  // What the input computes, taken before the model is converted in place.
  equivalence::References references;
  if (request.verify) {
    Report(request.progress, "verify", "verifying: running the input model");
    ASSIGN_OR_RETURN(references, MakeReferences(*model, request.inputs_dir, request.equivalence));
    Report(request.progress, "convert", "converting");
  }
  converter::ConvertOptions options = request.options;
  options.verify = false;
  ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> converted,
                   converter::ConvertOwnedModel(std::move(model), options, &outcome.report));
  outcome.model = std::move(converted);
  if (request.standardize) {
    Report(request.progress, "standardize", "standardizing contrib operators");
    optimizer::PassContext ctx;
    ASSIGN_OR_RETURN(outcome.standardized, passes::Standardize(*outcome.model, ctx));
    if (outcome.standardized->rewritten > 0) {
      const optimizer::PassInfo* unused_opsets =
          optimizer::PassRegistry::Global().FindPass("unused-opsets");
      if (unused_opsets == nullptr)
        return absl::InternalError("the unused-opsets pass is not linked in");
      RETURN_IF_ERROR(unused_opsets->factory({})->Run(*outcome.model, ctx).status());
    }
  }
  if (request.check_result || request.verify) {
    Report(request.progress, "check-result", "checking the result");
    RETURN_IF_ERROR(CheckResultModel(*outcome.model, input_check, result_warnings));
  }
  if (request.verify) {
    Report(request.progress, "verify", "verifying: running the result");
    RETURN_IF_ERROR(
        VerifyRewritten(*outcome.model, references, request.equivalence, outcome.verification));
  }
  return outcome;
}

std::vector<const optimizer::PassInfo*> ListedPasses() {
  std::vector<const optimizer::PassInfo*> listed;
  for (const auto& [name, pass] : optimizer::PassRegistry::Global().passes()) {
    if (name.rfind("test-", 0) != 0) listed.push_back(&pass);
  }
  return listed;
}

}  // namespace onnx_opt::tools
