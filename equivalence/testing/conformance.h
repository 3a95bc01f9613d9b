// Shared by the tests that run ONNX's backend node tests ($ONNX_CONFORMANCE_DIR/node): reading a
// test data set by the graph's declared types, comparing what the interpreter computes with the
// expected files, and keeping a list of cases expected to fail (known failures, refusals) exact, so
// that a case that starts failing and a listed case that stops failing both turn the test red.
#ifndef ONNX_OPT_EQUIVALENCE_TESTING_CONFORMANCE_H_
#define ONNX_OPT_EQUIVALENCE_TESTING_CONFORMANCE_H_

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "interpreter/value.h"
#include "ir/io/data_value.h"
#include "ir/model.h"

namespace onnx_opt::conformance {

// The test_data_set_* folders of a case, sorted.
std::vector<std::filesystem::path> DataSets(const std::filesystem::path& case_dir);

// One test_data_set_* folder read by the graph's declared types.
struct DataSet {
  std::vector<interpreter::RuntimeValue> inputs;  // input_K.pb
  std::vector<ir::io::DataValue> outputs;         // output_K.pb, one per graph output
};
// Every graph output needs its output_K.pb (the node tests have one for each): a missing file is an
// error, not a skipped comparison.
absl::StatusOr<DataSet> LoadDataSet(const std::filesystem::path& set, const ir::Graph& graph);

// The kinds a value is made of, as written to a file: "tensor", "sequence(tensor)",
// "optional(sequence(tensor))", "optional(none of tensor)", ...
std::string KindString(const ir::io::DataValue& value);

// "" when `got`, the interpreter's value of a graph output declared as `type`, is what `want` (the
// expected file) holds, else why not. The kinds are compared as onnx-run writes them
// (interpreter::ToDataValue by the declared type), so an optional holding a sequence does not pass
// for a bare sequence or an optional holding a tensor; then the values, by the one comparator
// (equivalence/compare.h) at the node tests' tolerances (equivalence::Tolerances::Conformance()).
std::string CompareOutput(const interpreter::RuntimeValue& got, const ir::Type& type,
                          const ir::io::DataValue& want);

// Runs `model` on the data set's inputs and compares every output; "" when all match, else the
// first difference (naming the output) or why the model did not run.
std::string RunAndCompare(const ir::Model& model, const DataSet& data);

// A list of cases expected to fail, one per line: KEY REASON, where KEY is the first `key_fields`
// words (joined by one space; the first word is the case name); lines starting with '#' are
// comments.
struct CaseList {
  std::string path;
  std::string header;                          // the comment lines before the first entry
  std::map<std::string, std::string> reasons;  // key -> reason
};
// A missing or unreadable file is an error (an empty list would let every listed case fail unseen).
absl::StatusOr<CaseList> ReadCaseList(const std::string& path, int key_fields);

// Checks what a run saw against the list. `failures`: key -> what went wrong, for every case that
// failed; `ran`: the names of the cases that ran; `complete`: whether every case ran (no filter).
// Returns one message for each failure the list does not have, each listed key whose case ran and
// did not fail (fixed: remove it), and, when `complete`, each listed key whose case did not run.
std::vector<std::string> CheckCaseList(const CaseList& list,
                                       const std::map<std::string, std::string>& failures,
                                       const std::set<std::string>& ran, bool complete);

// Writes the list as this run would have it (the header, then every failure with its listed reason,
// or "NEW: " and what went wrong) to $TEST_UNDECLARED_OUTPUTS_DIR/<file name of the list>, so that
// the list can be brought up to date by reviewing and copying that file. Returns the path written,
// or "" outside a Bazel test.
std::string WriteObservedList(const CaseList& list,
                              const std::map<std::string, std::string>& failures);

}  // namespace onnx_opt::conformance

#endif  // ONNX_OPT_EQUIVALENCE_TESTING_CONFORMANCE_H_
