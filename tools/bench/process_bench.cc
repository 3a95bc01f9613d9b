// Whole-process benchmark of the command-line tools (issue 16): runs `onnx-check MODEL`, `onnx-opt
// MODEL -o OUT` (default pipeline) and `onnx-convert MODEL -o OUT --opset=21` as processes, N times
// each, over the testdata models and over generated CNN-like (MobileNetV2, scaled) and
// transformer-like (stacked BERT layers) models of ~700 nodes / ~5 MB and, with --generated=all,
// ~10,000 nodes / ~100 MB. Prints the median wall time per run and, from the tools' --time-phases
// line, the median share of load / check / passes (or convert) / check-result / save; "start" is
// the rest (process start and exit). The baseline, measured in the same run, is the tools' start-up
// (`--version`), so "x start" says how many start-ups a run costs. Outputs are fresh files
// (removed, untimed, before each run) unless --replace_output. The tools are timed as copies in the
// work folder, as an install leaves them: a binary the linker has just written is cached in 4 KiB
// pieces and started ~2 ms slower than the same bytes written by a copy (--copy_tools=false times
// them in place). With --baseline_dir=DIR the tools there (say, a build of the previous commit) are
// timed too, each run of theirs right after the same run of the tools under test, and printed below
// them as "baseline": the machine's speed drifts over minutes, so only alternated runs compare.
//
//   bazel run -c opt //tools/bench:process_bench [-- --runs=9 --generated=all] [MODEL.onnx...]
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gflags/gflags.h"
#include "ir/io/model_io.h"
#include "ir/status_macros.h"
#include "tools/bench/model_zoo.h"

DEFINE_int32(runs, 5, "runs per tool and model; the median is printed");
DEFINE_string(tools_dir, "tools", "folder holding onnx-check, onnx-opt and onnx-convert");
DEFINE_string(
    generated, "cnn-700,transformer-700",
    "generated models to add (comma list of cnn-700, transformer-700, cnn-2k, cnn-4k, cnn-10k, "
    "transformer-10k; "
    "'all' for the four, empty for none)");
DEFINE_string(
    baseline_dir, "",
    "folder of other builds of the tools to time alternately with --tools_dir (see above)");
DEFINE_bool(copy_tools, true,
            "time copies of the tools made in the work folder (see above), not the tools in place");
DEFINE_string(work_dir, "",
              "folder for generated models and outputs (default: a fresh one under $TMPDIR)");
DEFINE_bool(
    replace_output, false,
    "write over the previous run's output (the tools then also fsync it, see ir/io/atomic_file.h); "
    "by default the output is removed, untimed, before each run, as Bazel does before an action");

extern char** environ;

namespace onnx_opt::bench {
namespace {

using Clock = std::chrono::steady_clock;

// The phases the tools report, in the order printed; anything else a tool reports counts as
// "other".
const std::vector<std::string> kPhases = {"load",    "check",        "passes",
                                          "convert", "check-result", "save"};

struct Run {
  double wall_ms = 0;
  std::map<std::string, double> phase_ms;  // from --time-phases
};

// Runs argv with stdout to /dev/null and stderr to `stderr_path`; returns the wall time in ms.
absl::StatusOr<double> Spawn(const std::vector<std::string>& argv, const std::string& stderr_path) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  const Clock::time_point start = Clock::now();
  pid_t pid = 0;
  const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0)
    return absl::InternalError(absl::StrCat("cannot start ", argv[0], ": ", std::strerror(error)));
  int status = 0;
  waitpid(pid, &status, 0);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ifstream in(stderr_path);
    std::stringstream text;
    text << in.rdbuf();
    return absl::InternalError(absl::StrCat(absl::StrJoin(argv, " "), " failed: ", text.str()));
  }
  return ms;
}

// Reads "TOOL: phases (ms): load=1.2 check=0.4 ... total=3.0" from the tool's stderr.
std::map<std::string, double> ParsePhases(const std::string& stderr_path) {
  std::map<std::string, double> phases;
  std::ifstream in(stderr_path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t at = line.find(": phases (ms): ");
    if (at == std::string::npos) continue;
    for (absl::string_view item : absl::StrSplit(line.substr(at + 15), ' ', absl::SkipEmpty())) {
      std::pair<std::string, std::string> kv = absl::StrSplit(item, absl::MaxSplits('=', 1));
      double ms = 0;
      if (absl::SimpleAtod(kv.second, &ms)) phases[kv.first] += ms;
    }
  }
  return phases;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Runs each command line FLAGS_runs times, the lines in turn (run 1 of each, then run 2 of each,
// ...); the runs of line k are element k. `output` (if not empty) is removed before each run unless
// --replace_output.
absl::StatusOr<std::vector<std::vector<Run>>> Time(
    const std::vector<std::vector<std::string>>& argvs, const std::string& stderr_path,
    const std::string& output = "") {
  std::vector<std::vector<Run>> runs(argvs.size());
  for (int i = 0; i < FLAGS_runs; ++i) {
    for (size_t k = 0; k < argvs.size(); ++k) {
      if (!output.empty() && !FLAGS_replace_output) std::filesystem::remove(output);
      ASSIGN_OR_RETURN(double ms, Spawn(argvs[k], stderr_path));
      runs[k].push_back({ms, ParsePhases(stderr_path)});
    }
  }
  return runs;
}

std::string Fixed(double v, int digits) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.*f", digits, v);
  return text;
}

// One table row: median wall time, its ratio to the start-up baseline, and each phase's share of
// it.
void PrintRow(const std::string& model, const std::string& tool, const std::vector<Run>& runs,
              double start_ms) {
  std::vector<double> walls;
  for (const Run& r : runs) walls.push_back(r.wall_ms);
  const double wall = Median(walls);
  std::printf("%-26s %-13s %8s %7s", model.c_str(), tool.c_str(), Fixed(wall, 1).c_str(),
              Fixed(start_ms > 0 ? wall / start_ms : 0, 1).c_str());
  double accounted = 0;
  for (const std::string& phase : kPhases) {
    std::vector<double> times;
    for (const Run& r : runs) times.push_back(r.phase_ms.count(phase) ? r.phase_ms.at(phase) : 0);
    const double ms = Median(times);
    accounted += ms;
    std::printf(" %7s", wall > 0 ? (Fixed(100 * ms / wall, 0) + "%").c_str() : "-");
  }
  std::printf(
      " %7s\n",
      (Fixed(wall > 0 ? 100 * std::max(0.0, wall - accounted) / wall : 0, 0) + "%").c_str());
}

absl::Status Main(const std::vector<std::string>& given_models) {
  if (FLAGS_runs < 1) return absl::InvalidArgumentError("--runs needs at least 1");
  std::filesystem::path work = FLAGS_work_dir;
  if (work.empty()) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    if (tmp == nullptr) tmp = std::getenv("TMPDIR");
    work = std::filesystem::path(tmp ? tmp : "/tmp") / absl::StrCat("process_bench.", getpid());
  }
  std::filesystem::create_directories(work);
  // The tools under test, then the baseline's, each as copies when asked.
  std::vector<std::string> dirs = {FLAGS_tools_dir};
  if (!FLAGS_baseline_dir.empty()) dirs.push_back(FLAGS_baseline_dir);
  for (size_t d = 0; d < dirs.size(); ++d) {
    dirs[d] = std::filesystem::absolute(dirs[d]).string();
    if (!FLAGS_copy_tools) continue;
    const std::filesystem::path copies = work / (d == 0 ? "tools" : "baseline");
    std::filesystem::create_directories(copies);
    for (const char* tool : {"onnx-check", "onnx-opt", "onnx-convert"}) {
      std::error_code ec;
      std::filesystem::copy_file(std::filesystem::path(dirs[d]) / tool, copies / tool,
                                 std::filesystem::copy_options::overwrite_existing, ec);
      if (ec)
        return absl::InternalError(
            absl::StrCat("cannot copy ", dirs[d], "/", tool, ": ", ec.message()));
    }
    dirs[d] = copies.string();
  }
  // One command line per tools folder, with the tool's path in front.
  auto per_dir = [&dirs](const std::string& tool, const std::vector<std::string>& args) {
    std::vector<std::vector<std::string>> argvs;
    for (const std::string& dir : dirs) {
      argvs.push_back({dir + "/" + tool});
      argvs.back().insert(argvs.back().end(), args.begin(), args.end());
    }
    return argvs;
  };

  std::vector<std::string> models;
  for (const std::string& m : given_models) models.push_back(std::filesystem::absolute(m).string());
  std::vector<std::string> wanted = absl::StrSplit(FLAGS_generated, ',', absl::SkipEmpty());
  if (FLAGS_generated == "all")
    wanted = {"cnn-700", "transformer-700", "cnn-10k", "transformer-10k"};
  for (const std::string& name : wanted) {
    const absl::Span<const GeneratedModel> specs = GeneratedModels();
    auto spec = std::find_if(specs.begin(), specs.end(),
                             [&](const GeneratedModel& g) { return g.name == name; });
    if (spec == specs.end())
      return absl::InvalidArgumentError("--generated: unknown model " + name);
    ASSIGN_OR_RETURN(ZooModel zoo, spec->make());
    const std::string path = (work / (name + ".onnx")).string();
    RETURN_IF_ERROR(ir::io::SaveModel(*zoo.model, path));
    models.push_back(path);
  }

  const std::string err = (work / "stderr.txt").string();
  const std::string out = (work / "out.onnx").string();
  // The reference: start-up and exit of each tool with nothing to do.
  std::map<std::string, std::vector<double>> start_ms;  // per tools folder
  std::printf("start-up (--version), median of %d:", FLAGS_runs);
  for (const char* tool : {"onnx-check", "onnx-opt", "onnx-convert"}) {
    ASSIGN_OR_RETURN(std::vector<std::vector<Run>> runs, Time(per_dir(tool, {"--version"}), err));
    for (size_t d = 0; d < runs.size(); ++d) {
      std::vector<double> walls;
      for (const Run& r : runs[d]) walls.push_back(r.wall_ms);
      start_ms[tool].push_back(Median(walls));
    }
    std::printf(" %s %s ms", tool, Fixed(start_ms[tool][0], 2).c_str());
    if (runs.size() > 1) std::printf(" (baseline %s)", Fixed(start_ms[tool][1], 2).c_str());
  }
  std::printf("\n\n%-26s %-13s %8s %7s", "model (nodes, MB)", "tool", "ms", "x start");
  for (const std::string& phase : kPhases) std::printf(" %7s", phase.substr(0, 7).c_str());
  std::printf(" %7s\n", "rest");
  for (const std::string& model : models) {
    ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> loaded, ir::io::LoadModel(model));
    const std::string label = absl::StrCat(
        std::filesystem::path(model).stem().string(), " (", loaded->graph().num_nodes(), ", ",
        Fixed(static_cast<double>(std::filesystem::file_size(model)) / 1e6, 1), ")");
    const std::vector<std::tuple<std::string, std::vector<std::string>>> commands = {
        {"onnx-check", {"--time-phases", model}},
        {"onnx-opt", {"--time-phases", model, "-o", out}},
        {"onnx-convert", {"--time-phases", model, "-o", out, "--opset=21"}},
    };
    for (const auto& [tool, args] : commands) {
      ASSIGN_OR_RETURN(std::vector<std::vector<Run>> runs,
                       Time(per_dir(tool, args), err, tool == "onnx-check" ? "" : out));
      PrintRow(label, tool, runs[0], start_ms[tool][0]);
      if (runs.size() > 1) PrintRow("", "  baseline", runs[1], start_ms[tool][1]);
    }
  }
  std::fflush(stdout);
  if (FLAGS_work_dir.empty()) std::filesystem::remove_all(work);
  return absl::OkStatus();
}

}  // namespace
}  // namespace onnx_opt::bench

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "process_bench [--runs=N] [--generated=LIST|all] [--tools_dir=DIR] [--baseline_dir=DIR] "
      "[MODEL.onnx...]");
  gflags::ParseCommandLineFlags(&argc, &argv, /*remove_flags=*/true);
  std::vector<std::string> models(argv + 1, argv + argc);
  if (models.empty() && FLAGS_generated != "none") {
    models = {"testdata/models/tiny_cnn.onnx", "testdata/models/transformer_block.onnx"};
  }
  const absl::Status s = onnx_opt::bench::Main(models);
  if (!s.ok()) {
    std::cerr << "process_bench: " << s.message() << "\n";
    return 1;
  }
  return 0;
}
