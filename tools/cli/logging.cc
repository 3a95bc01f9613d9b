// Debian's glog 0.6 is built with custom prefixes, but its installed header does not say so.
#define GLOG_CUSTOM_PREFIX_SUPPORT 1
#include "tools/cli/logging.h"

#include <cstring>

#include "glog/logging.h"

DEFINE_bool(quiet, false, "print no progress (INFO) lines; warnings and errors still go to stderr");

namespace onnx_opt::cli {
namespace {

// "onnx-opt:" (glog adds a space), "onnx-opt: warning:"; glog's default header (date, thread,
// file:line) says nothing a user of a command-line tool needs.
void WritePrefix(std::ostream& out, const google::LogMessageInfo& info, void* tool) {
  out << static_cast<const std::string*>(tool)->c_str() << ":";
  if (std::strcmp(info.severity, "INFO") == 0) return;
  if (std::strcmp(info.severity, "WARNING") == 0) {
    out << " warning:";
  } else {
    out << " " << info.severity << " " << info.filename << ":" << info.line_number << ":";
  }
}

}  // namespace

void InitLogging(const std::string& tool) {
  FLAGS_logtostderr = true;
  if (FLAGS_quiet) FLAGS_minloglevel = google::GLOG_WARNING;
  if (google::IsGoogleLoggingInitialized()) return;
  static const std::string* name = new std::string(tool);
  google::InitGoogleLogging(name->c_str(), &WritePrefix, const_cast<std::string*>(name));
}

}  // namespace onnx_opt::cli
