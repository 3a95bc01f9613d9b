// Load -> save must reproduce every ONNX conformance model field by field (IR 3..13), and every
// test data file (TensorProto / SequenceProto / OptionalProto / MapProto) likewise.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "equivalence/testing/conformance_dir.h"
#include "google/protobuf/util/field_comparator.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "ir/io/data_value.h"
#include "ir/io/model_io.h"
#include "ir/io/proto_parse.h"
#include "ir/io/type_proto.h"
#include "proto/onnx.pb.h"
#include "proto/onnx_data.pb.h"

namespace onnx_opt::ir::io {
namespace {

namespace fs = std::filesystem;
using google::protobuf::util::MessageDifferencer;

std::vector<fs::path> ModelDirs(const std::string& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(root) / "node")) {
    if (fs::exists(e.path() / "model.onnx")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<google::protobuf::Message> NewMessage(DataValue::Kind kind) {
  switch (kind) {
    case DataValue::Kind::kTensor:
      return std::make_unique<onnx::TensorProto>();
    case DataValue::Kind::kSparseTensor:
      return std::make_unique<onnx::SparseTensorProto>();
    case DataValue::Kind::kSequence:
      return std::make_unique<onnx::SequenceProto>();
    case DataValue::Kind::kMap:
      return std::make_unique<onnx::MapProto>();
    case DataValue::Kind::kOptional:
      return std::make_unique<onnx::OptionalProto>();
    default:
      return nullptr;
  }
}

// Returns "" when equal, else a short description of the differences. NaN equals NaN (float data
// with NaNs must survive); the byte-identity count below also catches differing NaN payloads.
std::string Diff(const google::protobuf::Message& a, const google::protobuf::Message& b) {
  std::string report;
  google::protobuf::util::DefaultFieldComparator comparator;
  comparator.set_treat_nan_as_equal(true);
  MessageDifferencer d;
  d.set_field_comparator(&comparator);
  d.ReportDifferencesToString(&report);
  if (d.Compare(a, b)) return "";
  if (report.size() > 600) report = report.substr(0, 600) + "...";
  return report.empty() ? "differ" : report;
}

class ConformanceRoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    ONNX_OPT_CONFORMANCE_DIR_OR_SKIP(dir, "the round trip over the ONNX conformance models");
    dir_ = dir;
  }
  std::string dir_;
};

TEST_F(ConformanceRoundTrip, EveryModelRoundTripsFieldByField) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<fs::path> dirs = ModelDirs(dir_);
  ASSERT_GT(dirs.size(), 0u) << "no models under " << dir_ << "/node";
  int loaded = 0, equal = 0, stable = 0, identical_bytes = 0;
  std::vector<std::string> failures;
  auto fail = [&](const fs::path& d, const std::string& why) {
    failures.push_back(d.filename().string() + ": " + why);
  };
  for (const fs::path& d : dirs) {
    const std::string path = (d / "model.onnx").string();
    onnx::ModelProto original;
    ASSERT_TRUE(ParseProtoFile(path, "an ONNX model", &original).ok()) << path;
    absl::StatusOr<std::unique_ptr<Model>> model = LoadModel(path);
    if (!model.ok()) {
      fail(d, std::string(model.status().message()));
      continue;
    }
    ++loaded;
    absl::StatusOr<std::string> bytes = SerializeModel(**model);
    if (!bytes.ok()) {
      fail(d, std::string(bytes.status().message()));
      continue;
    }
    onnx::ModelProto saved;
    ASSERT_TRUE(saved.ParseFromString(*bytes));
    if (std::string diff = Diff(original, saved); !diff.empty()) {
      fail(d, "load -> save differs: " + diff);
      continue;
    }
    ++equal;
    if (original.SerializeAsString() == *bytes) ++identical_bytes;
    // load(save(load(x))) == load(x)
    absl::StatusOr<std::unique_ptr<Model>> again = LoadModelFromString(*bytes);
    if (!again.ok()) {
      fail(d, "reloading: " + std::string(again.status().message()));
      continue;
    }
    absl::StatusOr<std::string> bytes2 = SerializeModel(**again);
    onnx::ModelProto saved2;
    ASSERT_TRUE(bytes2.ok() && saved2.ParseFromString(*bytes2));
    if (std::string diff = Diff(saved, saved2); !diff.empty()) {
      fail(d, "second round differs: " + diff);
      continue;
    }
    ++stable;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "conformance models: " << dirs.size() << " found, " << loaded << " loaded, " << equal
            << " equal after load->save, " << stable << " equal after a second round, "
            << identical_bytes << " byte-identical to protobuf's own serialization (" << secs
            << " s)\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i)
    std::cout << "  FAIL " << failures[i] << "\n";
  EXPECT_EQ(failures.size(), 0u);
  EXPECT_EQ(stable, static_cast<int>(dirs.size()));
  EXPECT_EQ(identical_bytes, static_cast<int>(dirs.size()));
}

TEST_F(ConformanceRoundTrip, EveryTestDataFileRoundTrips) {
  const auto start = std::chrono::steady_clock::now();
  int files = 0, equal = 0;
  int by_kind[6] = {};
  std::vector<std::string> failures;
  for (const fs::path& d : ModelDirs(dir_)) {
    onnx::ModelProto model;
    ASSERT_TRUE(ParseProtoFile((d / "model.onnx").string(), "an ONNX model", &model).ok());
    // input_K feeds the K-th graph input that has no initializer; output_K is the K-th output.
    std::vector<const onnx::ValueInfoProto*> inputs, outputs;
    for (const auto& in : model.graph().input()) {
      bool is_init = false;
      for (const auto& init : model.graph().initializer()) is_init |= init.name() == in.name();
      if (!is_init) inputs.push_back(&in);
    }
    for (const auto& out : model.graph().output()) outputs.push_back(&out);
    for (const auto& set : fs::directory_iterator(d)) {
      if (!set.is_directory() || set.path().filename().string().rfind("test_data_set_", 0) != 0)
        continue;
      for (const auto& f : fs::directory_iterator(set.path())) {
        const std::string name = f.path().filename().string();
        if (f.path().extension() != ".pb") continue;
        const bool is_input = name.rfind("input_", 0) == 0;
        const size_t k = std::stoul(name.substr(name.find('_') + 1));
        const auto& list = is_input ? inputs : outputs;
        ASSERT_LT(k, list.size()) << f.path();
        // A type-less value info is a tensor in these tests.
        DataValue::Kind kind = DataValueKindOf(ImportType(list[k]->type()));
        if (kind == DataValue::Kind::kUndefined) kind = DataValue::Kind::kTensor;
        ++files;
        ++by_kind[static_cast<int>(kind)];
        const std::string path = f.path().string();
        auto original = NewMessage(kind);
        ASSERT_TRUE(ParseProtoFile(path, "test data", original.get()).ok()) << path;
        absl::StatusOr<DataValue> value = LoadDataValueFile(path, kind);
        if (!value.ok()) {
          failures.push_back(std::string(value.status().message()));
          continue;
        }
        absl::StatusOr<std::string> bytes = SerializeDataValue(*value);
        auto saved = NewMessage(kind);
        if (!bytes.ok() || !saved->ParseFromString(*bytes)) {
          failures.push_back(path + ": cannot serialize");
          continue;
        }
        if (std::string diff = Diff(*original, *saved); !diff.empty()) {
          failures.push_back(path + ": " + diff);
          continue;
        }
        ++equal;
      }
    }
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "test data files: " << files << " (" << by_kind[1] << " tensors, " << by_kind[3]
            << " sequences, " << by_kind[4] << " maps, " << by_kind[5] << " optionals, "
            << by_kind[2] << " sparse), " << equal << " equal after load->save (" << secs
            << " s)\n";
  for (size_t i = 0; i < failures.size() && i < 20; ++i)
    std::cout << "  FAIL " << failures[i] << "\n";
  EXPECT_GT(files, 0);
  EXPECT_EQ(equal, files);
}

}  // namespace
}  // namespace onnx_opt::ir::io
