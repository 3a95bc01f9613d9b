// The converter as an optimizer pass: `convert(21)` converts the model's ai.onnx opset to 21;
// `convert(21, 3)` also converts ai.onnx.ml to 3.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "converter/convert.h"
#include "ir/status_macros.h"
#include "optimizer/pass.h"
#include "optimizer/pass_registry.h"

namespace onnx_opt::converter {
namespace {

class ConvertPass : public optimizer::Pass {
 public:
  ConvertPass(std::optional<int64_t> onnx, std::optional<int64_t> ml, std::string error)
      : onnx_(onnx), ml_(ml), error_(std::move(error)) {}
  std::string_view name() const override { return "convert"; }

  absl::StatusOr<bool> Run(ir::Model& model, optimizer::PassContext& ctx) override {
    if (!error_.empty()) return absl::InvalidArgumentError(error_);
    const std::optional<int64_t> before = OnnxOpsetOf(model);
    const std::optional<int64_t> ml_before = model.OpsetVersion("ai.onnx.ml");
    if ((!onnx_.has_value() || before == onnx_) &&
        (!ml_.has_value() || ml_before == ml_ || !ml_before)) {
      return false;
    }
    ConvertOptions options;
    options.onnx_opset = onnx_;
    options.ml_opset = ml_;
    ConvertReport report;
    RETURN_IF_ERROR(ConvertModelInPlace(model, options, &report));
    ctx.CountRewrite(report.nodes_rewritten);
    return true;
  }

 private:
  std::optional<int64_t> onnx_;
  std::optional<int64_t> ml_;
  std::string error_;
};

std::unique_ptr<optimizer::Pass> MakeConvertPass(const std::vector<std::string>& args) {
  std::optional<int64_t> onnx, ml;
  std::string error;
  int64_t v = 0;
  if (args.empty() || args.size() > 2) {
    error =
        "convert takes the target ai.onnx opset, and optionally the ai.onnx.ml opset: convert(21)";
  } else if (!absl::SimpleAtoi(args[0], &v)) {
    error = absl::StrCat("convert: '", args[0], "' is not an opset number");
  } else {
    onnx = v;
    if (args.size() == 2) {
      if (!absl::SimpleAtoi(args[1], &v)) {
        error = absl::StrCat("convert: '", args[1], "' is not an opset number");
      } else {
        ml = v;
      }
    }
  }
  return std::make_unique<ConvertPass>(onnx, ml, error);
}

const bool registered = [] {
  optimizer::PassRegistry::Global().RegisterPass(
      "convert",
      "converts the model to another opset: convert(21) (ai.onnx), convert(21,3) (and ai.onnx.ml)",
      MakeConvertPass);
  return true;
}();

}  // namespace
}  // namespace onnx_opt::converter
