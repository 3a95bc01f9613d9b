#include "ir/io/wire_export.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "equivalence/testing/conformance_dir.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/io/proto_export.h"
#include "ir/text/parser.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

namespace fs = std::filesystem;

// What protobuf writes for ExportModel's message: the bytes the wire writer must give.
std::string ViaProto(const Model& model, const ExportOptions& options = {}) {
  onnx::ModelProto proto;
  EXPECT_TRUE(ExportModel(model, options, &proto).ok());
  return proto.SerializeAsString();
}

std::string ViaWire(const Model& model, const ExportOptions& options = {}) {
  absl::StatusOr<SplicedModel> wire = WriteModelWire(model, options);
  EXPECT_TRUE(wire.ok()) << wire.status();
  if (!wire.ok()) return "";
  EXPECT_EQ(wire->size, wire->Concatenate().size());
  return wire->Concatenate();
}

TEST(WireExport, EveryConformanceModelIsWrittenAsProtobufWritesIt) {
  ONNX_OPT_CONFORMANCE_DIR_OR_SKIP(root, "the wire export comparison");
  int compared = 0, differing = 0;
  for (const auto& e : fs::directory_iterator(fs::path(root) / "node")) {
    const fs::path path = e.path() / "model.onnx";
    if (!fs::exists(path)) continue;
    absl::StatusOr<std::unique_ptr<Model>> model = LoadModel(path.string());
    if (!model.ok()) continue;  // the loader's own tests cover models it refuses
    ++compared;
    for (bool force_raw : {false, true}) {
      ExportOptions options;
      options.force_raw_data = force_raw;
      if (ViaWire(**model, options) != ViaProto(**model, options) && ++differing <= 5) {
        ADD_FAILURE() << path << (force_raw ? " (force_raw_data)" : "") << ": bytes differ";
      }
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_EQ(differing, 0);
}

// Sequence and optional types, a doc string, and raw data large enough to stay in place.
TEST(WireExport, LargeRawDataBecomesAViewOfTheTensorsBytes) {
  std::string weights;
  for (int i = 0; i < 600; ++i) weights += (i ? ", " : "") + std::to_string(i * 0.25);
  absl::StatusOr<std::unique_ptr<Model>> model = text::ParseModel(R"(
<ir_version: 9, opset_import: ["" : 18], doc_string: "d", producer_name: "p">
g (float[N, 600] x, seq(float[2]) s, optional(int64[]) o) => (float[N, 600] y)
  <float[600] w = {)" + weights + R"(}, int64[2] small = {1, 2}> {
  t = Add (x, w)
  y = Identity (t)
}
)");
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<SplicedModel> wire = WriteModelWire(**model, {});
  ASSERT_TRUE(wire.ok()) << wire.status();
  EXPECT_EQ(wire->Concatenate(), ViaProto(**model));
  const Value* w = (*model)->graph().initializers()[0];
  ASSERT_EQ(w->name(), "w");
  const std::string_view raw = w->initializer()->raw_view();
  EXPECT_EQ(std::count_if(wire->pieces.begin(), wire->pieces.end(),
                          [&](std::string_view p) {
                            return p.data() == raw.data() && p.size() == raw.size();
                          }),
            1)
      << "the 2400 bytes of w are one piece pointing at the tensor";
}

}  // namespace
}  // namespace onnx_opt::ir::io
