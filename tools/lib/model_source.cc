#include "tools/lib/model_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/io/atomic_file.h"
#include "ir/status_macros.h"

namespace onnx_opt::tools {

absl::StatusOr<std::unique_ptr<ir::Model>> ReadModel(const std::string& path) {
  if (path != "-") {
    absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::io::LoadModel(path);
    if (model.ok()) return model;
    // The tools print the path first; drop the loader's copy of it.
    const std::string prefix = "'" + path + "': ";
    std::string message(model.status().message());
    if (message.rfind(prefix, 0) == 0) message = message.substr(prefix.size());
    return absl::Status(model.status().code(), message);
  }
  std::ostringstream buffer;
  buffer << std::cin.rdbuf();
  if (std::cin.bad()) return absl::DataLossError("cannot read the model from standard input");
  return ir::io::LoadModelFromString(buffer.str());
}

absl::Status WriteModel(const ir::Model& model, const std::string& path,
                        const ir::io::SaveOptions& options) {
  if (path != "-") return ir::io::SaveModel(model, path, options);
  ASSIGN_OR_RETURN(std::string bytes, ir::io::SerializeModel(model, options));
  if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() ||
      std::fflush(stdout) != 0) {
    return absl::DataLossError("cannot write the model to standard output");
  }
  return absl::OkStatus();
}

absl::Status WriteCheckedModel(const ir::Model& model, const std::string& path,
                               const ir::io::SaveOptions& options, const ResultCheck& check,
                               const std::function<void(const std::string&)>& warn,
                               absl::Status* check_status, CheckOverlap overlap) {
  std::vector<std::string> warnings;
  const auto collect = [&warnings](const std::string& w) { warnings.push_back(w); };
  const auto replay = [&] {
    for (const std::string& w : warnings) warn(w);
  };
  const bool overlapped =
      path != "-" &&
      (overlap == CheckOverlap::kAlways ||
       (overlap == CheckOverlap::kBySize && model.graph().num_nodes() >= kOverlapCheckFromNodes));
  if (!overlapped) {
    *check_status = check(collect);
    replay();
    return check_status->ok() ? WriteModel(model, path, options) : absl::OkStatus();
  }
  // Both threads only read the model.
  std::thread checker([&] { *check_status = check(collect); });
  bool joined = false;
  const auto join = [&] {
    if (!joined) checker.join();
    joined = true;
  };
  ir::io::SaveOptions save = options;
  save.before_commit = [&, inner = options.before_commit]() -> absl::Status {
    join();
    if (!check_status->ok()) return *check_status;
    return inner ? inner() : absl::OkStatus();
  };
  absl::Status written = WriteModel(model, path, save);
  join();
  replay();
  return check_status->ok() ? written : absl::OkStatus();
}

absl::Status WriteTextFile(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text << std::flush;
    return std::cout ? absl::OkStatus() : absl::DataLossError("cannot write to standard output");
  }
  ASSIGN_OR_RETURN(std::unique_ptr<ir::io::AtomicFile> file, ir::io::AtomicFile::Create(path));
  RETURN_IF_ERROR(file->Write(text.data(), text.size()));
  RETURN_IF_ERROR(file->Finish());
  return file->Commit();
}

void KeepUntilExit(std::unique_ptr<ir::Model> model) {
  static auto* const kept = new std::vector<std::unique_ptr<ir::Model>>;
  kept->push_back(std::move(model));
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (a == "-" || b == "-" || ::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0)
    return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace onnx_opt::tools
