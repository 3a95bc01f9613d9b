#include "tools/lib/size_report.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>
#include <system_error>

#include "absl/status/status.h"
#include "ir/json_string.h"
#include "optimizer/model_stats.h"

namespace onnx_opt::tools {
namespace {

struct TensorTally {
  int64_t data = 0;
  int64_t inline_data = 0;
  std::set<std::string> locations;  // external data files named by the model
};

void CountTensor(const ir::Tensor& t, TensorTally& tally) {
  const int64_t bytes = optimizer::TensorBytes(t);
  tally.data += bytes;
  if (t.storage() != ir::Tensor::Storage::kExternal) {
    tally.inline_data += bytes;
    return;
  }
  for (const auto& [key, value] : t.external_data()) {
    if (key == "location") tally.locations.insert(value);
  }
}

void CountSparse(const ir::SparseTensor& s, TensorTally& tally) {
  CountTensor(s.values, tally);
  CountTensor(s.indices, tally);
}

void CountGraph(const ir::Graph& g, TensorTally& tally);

void CountAttribute(const ir::Attribute& a, TensorTally& tally) {
  switch (a.kind()) {
    case ir::AttributeKind::kTensor:
      CountTensor(a.t, tally);
      break;
    case ir::AttributeKind::kTensors:
      for (const ir::Tensor& t : a.tensors) CountTensor(t, tally);
      break;
    case ir::AttributeKind::kSparseTensor:
      CountSparse(a.sparse_tensor, tally);
      break;
    case ir::AttributeKind::kSparseTensors:
      for (const ir::SparseTensor& s : a.sparse_tensors) CountSparse(s, tally);
      break;
    case ir::AttributeKind::kGraph:
      if (a.g) CountGraph(*a.g, tally);
      break;
    case ir::AttributeKind::kGraphs:
      for (const auto& g : a.graphs) CountGraph(*g, tally);
      break;
    default:
      break;
  }
}

void CountGraph(const ir::Graph& g, TensorTally& tally) {
  for (const ir::Value* v : g.initializers()) CountTensor(*v->initializer(), tally);
  for (const ir::Value* v : g.sparse_initializers()) CountSparse(*v->sparse_initializer(), tally);
  for (const ir::Node* n : g.nodes()) {
    for (const ir::Attribute& a : n->attributes()) CountAttribute(a, tally);
  }
}

// A finite double for JSON (which has no inf or nan).
std::string Number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

std::string BytesJson(const ModelBytes& b) {
  std::ostringstream out;
  out << "{\"file\": " << b.file << ", \"graph\": " << b.graph()
      << ", \"inline_tensor_data\": " << b.inline_tensor_data
      << ", \"tensor_data\": " << b.tensor_data << ", \"external_files\": " << b.external_files
      << ", \"total\": " << b.total() << "}";
  return out.str();
}

// "1.23 MiB (1290240 B)" is too wide for a table; bytes with thousands separators read well.
std::string Bytes(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

std::string Percent(int64_t before, int64_t after) {
  if (before == 0) return after == 0 ? "" : "new";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%+.1f%%", 100.0 * static_cast<double>(after - before) / before);
  return buf;
}

std::string Signed(int64_t n) { return (n > 0 ? "+" : "") + std::to_string(n); }

std::string Pad(const std::string& s, size_t width, bool right) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

int64_t Total(const std::map<std::string, int64_t>& counts) {
  int64_t n = 0;
  for (const auto& [op, c] : counts) n += c;
  return n;
}

}  // namespace

absl::StatusOr<ModelBytes> MeasureModelBytes(const ir::Model& model, int64_t file_size,
                                             const std::string& model_dir) {
  TensorTally tally;
  CountGraph(model.graph(), tally);
  for (const auto& f : model.functions()) {
    for (const ir::Attribute& a : f->attribute_defaults()) CountAttribute(a, tally);
    CountGraph(f->body(), tally);
  }
  ModelBytes bytes;
  bytes.file = file_size;
  bytes.tensor_data = tally.data;
  bytes.inline_tensor_data = tally.inline_data;
  for (const std::string& location : tally.locations) {
    if (model_dir.empty()) {
      return absl::InvalidArgumentError("external data '" + location +
                                        "' has no folder to be found in");
    }
    std::error_code ec;
    const uintmax_t size =
        std::filesystem::file_size(std::filesystem::path(model_dir) / location, ec);
    if (ec) return absl::NotFoundError("external data file '" + location + "': " + ec.message());
    bytes.external_files += static_cast<int64_t>(size);
    bytes.external_files_named.push_back(location);
  }
  return bytes;
}

std::vector<PassContribution> ContributionsOf(const optimizer::PipelineResult& result) {
  std::vector<PassContribution> out;
  for (const optimizer::PassRun& run : result.runs) {
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const PassContribution& c) { return c.pass == run.pass; });
    if (it == out.end()) {
      out.push_back(PassContribution{run.pass});
      it = out.end() - 1;
    }
    ++it->runs;
    it->rewrites += run.rewrites;
    it->nodes += run.after.nodes - run.before.nodes;
    it->initializer_bytes += run.after.initializer_bytes - run.before.initializer_bytes;
    it->seconds += run.seconds;
  }
  return out;
}

VerificationSummary SummarizeVerification(const std::vector<equivalence::OutputDifference>& outputs,
                                          const std::optional<equivalence::LossyTolerance>& lossy,
                                          const equivalence::EquivalenceOptions& options) {
  VerificationSummary summary;
  summary.outputs = static_cast<int64_t>(outputs.size());
  summary.float32_tolerance = options.tolerances.float32;
  summary.lossy = lossy;
  summary.per_output = outputs;
  for (const equivalence::OutputDifference& d : outputs) {
    summary.max_abs_error = std::max(summary.max_abs_error, d.max_abs_error);
    summary.max_rel_error = std::max(summary.max_rel_error, d.max_rel_error);
  }
  return summary;
}

std::string FormatReportTable(const ShrinkReport& r) {
  std::ostringstream out;
  out << "size report: " << r.input << " -> " << r.output << "\n";
  out << "pipeline: " << r.pipeline << "\n\n";
  auto row = [&](const std::string& what, int64_t before, int64_t after) {
    out << "  " << Pad(what, 22, false) << Pad(Bytes(before), 16, true)
        << Pad(Bytes(after), 16, true) << Pad(Percent(before, after), 10, true) << "\n";
  };
  out << "  " << Pad("bytes", 22, false) << Pad("before", 16, true) << Pad("after", 16, true)
      << "\n";
  row("graph", r.before.graph(), r.after.graph());
  row("inline tensor data", r.before.inline_tensor_data, r.after.inline_tensor_data);
  row("external data files", r.before.external_files, r.after.external_files);
  row("total", r.before.total(), r.after.total());

  out << "\n  " << Pad("nodes", 22, false) << Pad("before", 16, true) << Pad("after", 16, true)
      << "\n";
  std::set<std::string> ops;
  for (const auto& [op, n] : r.ops_before) ops.insert(op);
  for (const auto& [op, n] : r.ops_after) ops.insert(op);
  for (const std::string& op : ops) {
    auto count = [&](const std::map<std::string, int64_t>& m) {
      auto it = m.find(op);
      return it == m.end() ? int64_t{0} : it->second;
    };
    const int64_t before = count(r.ops_before), after = count(r.ops_after);
    out << "  " << Pad(op, 22, false) << Pad(std::to_string(before), 16, true)
        << Pad(std::to_string(after), 16, true)
        << (before != after ? Pad(Signed(after - before), 10, true) : "") << "\n";
  }
  row("total", Total(r.ops_before), Total(r.ops_after));

  bool any = false;
  for (const PassContribution& c : r.passes) {
    if (c.rewrites == 0 && c.nodes == 0 && c.initializer_bytes == 0) continue;
    if (!any) {
      out << "\n  " << Pad("passes that changed it", 28, false) << Pad("rewrites", 10, true)
          << Pad("nodes", 10, true) << Pad("weight bytes", 16, true) << "\n";
      any = true;
    }
    out << "  " << Pad(c.pass, 28, false) << Pad(std::to_string(c.rewrites), 10, true)
        << Pad(Signed(c.nodes), 10, true) << Pad(Signed(c.initializer_bytes), 16, true) << "\n";
  }
  if (!any) out << "\n  no pass changed the model\n";

  out << "\n";
  if (r.verification) {
    char buf[160];
    std::snprintf(buf, sizeof(buf),
                  "verification: %" PRId64
                  " output%s, max abs error %.3g, max rel error %.3g "
                  "(float32 tolerance rtol %.3g, atol %.3g)\n",
                  r.verification->outputs, r.verification->outputs == 1 ? "" : "s",
                  r.verification->max_abs_error, r.verification->max_rel_error,
                  r.verification->float32_tolerance.rtol, r.verification->float32_tolerance.atol);
    out << buf;
    if (r.verification->lossy) {
      std::snprintf(buf, sizeof(buf),
                    "  judged as wholes (lossy): relative L2 error <= %.3g, cosine similarity >= "
                    "%.6f, max abs "
                    "error <= %.3g\n",
                    r.verification->lossy->max_rel_l2, r.verification->lossy->min_cosine,
                    r.verification->lossy->max_abs);
      out << buf;
    }
    for (const equivalence::OutputDifference& d : r.verification->per_output) {
      std::snprintf(buf, sizeof(buf),
                    "  %s: max abs error %.3g, relative L2 error %.3g, cosine similarity %.6f\n",
                    d.output.substr(0, 60).c_str(), d.max_abs_error, d.rel_l2_error, d.cosine);
      out << buf;
    }
  } else {
    out << "verification: not run\n";
  }
  return out.str();
}

std::string FormatReportJson(const ShrinkReport& r) {
  std::ostringstream out;
  out << "{\n  \"input\": " << ir::JsonString(r.input)
      << ",\n  \"output\": " << ir::JsonString(r.output)
      << ",\n  \"pipeline\": " << ir::JsonString(r.pipeline) << ",\n";
  out << "  \"bytes\": {\n    \"before\": " << BytesJson(r.before)
      << ",\n    \"after\": " << BytesJson(r.after) << "\n  },\n";
  auto ops = [&](const std::map<std::string, int64_t>& m) {
    std::string s = "{";
    bool first = true;
    for (const auto& [op, n] : m) {
      s += (first ? "" : ", ") + ir::JsonString(op) + ": " + std::to_string(n);
      first = false;
    }
    return s + "}";
  };
  out << "  \"nodes\": {\n    \"before\": {\"total\": " << Total(r.ops_before)
      << ", \"by_op\": " << ops(r.ops_before)
      << "},\n    \"after\": {\"total\": " << Total(r.ops_after)
      << ", \"by_op\": " << ops(r.ops_after) << "}\n  },\n";
  out << "  \"passes\": [";
  for (size_t i = 0; i < r.passes.size(); ++i) {
    const PassContribution& c = r.passes[i];
    out << (i == 0 ? "\n" : ",\n") << "    {\"pass\": " << ir::JsonString(c.pass)
        << ", \"runs\": " << c.runs << ", \"rewrites\": " << c.rewrites
        << ", \"nodes\": " << c.nodes << ", \"initializer_bytes\": " << c.initializer_bytes
        << ", \"seconds\": " << Number(c.seconds) << "}";
  }
  out << (r.passes.empty() ? "],\n" : "\n  ],\n");
  if (r.verification) {
    out << "  \"verification\": {\"outputs\": " << r.verification->outputs
        << ", \"max_abs_error\": " << Number(r.verification->max_abs_error)
        << ", \"max_rel_error\": " << Number(r.verification->max_rel_error)
        << ", \"rtol\": " << Number(r.verification->float32_tolerance.rtol)
        << ", \"atol\": " << Number(r.verification->float32_tolerance.atol);
    if (r.verification->lossy) {
      out << ", \"lossy\": {\"max_rel_l2\": " << Number(r.verification->lossy->max_rel_l2)
          << ", \"min_cosine\": " << Number(r.verification->lossy->min_cosine)
          << ", \"max_abs\": " << Number(r.verification->lossy->max_abs) << "}";
    } else {
      out << ", \"lossy\": null";
    }
    out << ", \"per_output\": [";
    for (size_t i = 0; i < r.verification->per_output.size(); ++i) {
      const equivalence::OutputDifference& d = r.verification->per_output[i];
      out << (i == 0 ? "" : ", ") << "{\"output\": " << ir::JsonString(d.output)
          << ", \"max_abs_error\": " << Number(d.max_abs_error)
          << ", \"rel_l2_error\": " << Number(d.rel_l2_error)
          << ", \"cosine\": " << Number(d.cosine) << "}";
    }
    out << "]}\n";
  } else {
    out << "  \"verification\": null\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace onnx_opt::tools
