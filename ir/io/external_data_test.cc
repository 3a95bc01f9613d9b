// External data: reading views into mapped files, refusing paths that leave the model folder,
// bounds checks, and saving with a threshold (including over the file being read).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ir/buffer.h"
#include "ir/io/model_io.h"
#include "ir/io/testing/temp_files.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

namespace fs = std::filesystem;

using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

std::string Floats(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

void AddEntry(onnx::TensorProto* t, const std::string& key, const std::string& value) {
  auto* e = t->add_external_data();
  e->set_key(key);
  e->set_value(value);
}

// y = Add(w, v) with w and v in external data at the given places.
onnx::ModelProto ExternalModel(const std::string& w_location, const std::string& w_offset,
                               const std::string& w_length) {
  onnx::ModelProto m;
  m.set_ir_version(10);
  m.add_opset_import()->set_version(21);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* n = g->add_node();
  n->set_op_type("Add");
  n->add_input("w");
  n->add_input("v");
  n->add_output("y");
  auto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(4);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  AddEntry(w, "location", w_location);
  if (!w_offset.empty()) AddEntry(w, "offset", w_offset);
  if (!w_length.empty()) AddEntry(w, "length", w_length);
  AddEntry(w, "checksum", "0123456789abcdef0123456789abcdef01234567");
  auto* v = g->add_initializer();
  v->set_name("v");
  v->set_data_type(onnx::TensorProto::FLOAT);
  v->add_dims(4);
  v->set_data_location(onnx::TensorProto::EXTERNAL);
  AddEntry(v, "location", "weights.bin");
  AddEntry(v, "offset", "0");
  AddEntry(v, "length", "16");
  auto* y = g->add_output();
  y->set_name("y");
  return m;
}

// weights.bin: v at 0, w at 4096.
std::string MakeModelFolder(const std::string& name, const onnx::ModelProto& m) {
  const std::string dir = TempDir(name);
  std::string data = Floats({1, 2, 3, 4});
  data.resize(4096, '\0');
  data += Floats({10, 20, 30, 40});
  WriteFile(dir + "/weights.bin", data);
  WriteFile(dir + "/model.onnx", m.SerializeAsString());
  return dir;
}

const Tensor& Init(const Model& m, const std::string& name) {
  for (const Value* v : m.graph().initializers()) {
    if (v->name() == name) return *v->initializer();
  }
  static Tensor none;
  ADD_FAILURE() << "no initializer " << name;
  return none;
}

std::string Value(const StringPairs& pairs, const std::string& key) {
  for (const auto& [k, v] : pairs) {
    if (k == key) return v;
  }
  return "<absent>";
}

TEST(ExternalData, LoadsViewsIntoOneMappingPerFile) {
  const std::string dir = MakeModelFolder("load", ExternalModel("weights.bin", "4096", "16"));
  auto model = LoadModel(dir + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  const Tensor& w = Init(**model, "w");
  const Tensor& v = Init(**model, "v");
  EXPECT_EQ(w.storage(), Tensor::Storage::kExternal);
  EXPECT_EQ(w.ToVector<float>(), (std::vector<float>{10, 20, 30, 40}));
  EXPECT_EQ(v.ToVector<float>(), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_NE(dynamic_cast<const MappedFile*>(w.buffer().get()), nullptr);
  EXPECT_EQ(w.buffer(), v.buffer());  // one mapping shared by both tensors
  EXPECT_EQ(Value(w.external_data(), "checksum"), "0123456789abcdef0123456789abcdef01234567");
}

TEST(ExternalData, SerializingToMemoryKeepsTheReferences) {
  const onnx::ModelProto original = ExternalModel("weights.bin", "4096", "16");
  const std::string dir = MakeModelFolder("keep", original);
  auto model = LoadModel(dir + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  auto bytes = SerializeModel(**model);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, original.SerializeAsString());
}

TEST(ExternalData, LengthMayBeOmittedAndLocationMayBeInASubfolder) {
  const std::string dir = TempDir("subfolder");
  fs::create_directories(dir + "/sub");
  WriteFile(dir + "/sub/w.bin", Floats({5, 6, 7, 8}));
  onnx::ModelProto m = ExternalModel("sub/w.bin", "", "");
  WriteFile(dir + "/weights.bin", Floats({1, 2, 3, 4}));
  WriteFile(dir + "/model.onnx", m.SerializeAsString());
  auto model = LoadModel(dir + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(Init(**model, "w").ToVector<float>(), (std::vector<float>{5, 6, 7, 8}));
}

struct BadCase {
  std::string location, offset, length;
  absl::StatusCode code;
  std::string message;  // expected substring
};

TEST(ExternalData, BadReferencesGiveClearErrors) {
  const std::string outside = TempDir("outside");
  WriteFile(outside + "/secret.bin", Floats({1, 2, 3, 4}));
  const std::vector<BadCase> cases = {
      {"../../etc/passwd", "", "", absl::StatusCode::kInvalidArgument,
       "external data path '../../etc/passwd' of tensor 'w' leaves the model folder"},
      {"sub/../../x.bin", "", "", absl::StatusCode::kInvalidArgument, "leaves the model folder"},
      {"..\\..\\x.bin", "", "", absl::StatusCode::kInvalidArgument, "leaves the model folder"},
      {"/etc/passwd", "", "", absl::StatusCode::kInvalidArgument, "is absolute"},
      {"missing.bin", "", "", absl::StatusCode::kNotFound,
       "external data file 'missing.bin' of tensor 'w' cannot be opened"},
      {"escape.bin", "", "", absl::StatusCode::kInvalidArgument, "leaves the model folder"},
      {"weights.bin", "999999", "16", absl::StatusCode::kOutOfRange,
       "offset 999999 is beyond the end"},
      {"weights.bin", "4100", "16", absl::StatusCode::kOutOfRange,
       "are beyond the end of 'weights.bin'"},
      {"weights.bin", "0", "12", absl::StatusCode::kInvalidArgument,
       "has 12 bytes; its type and dims need 16"},
      {"weights.bin", "-1", "16", absl::StatusCode::kInvalidArgument,
       "offset '-1' is not a non-negative integer"},
      {"weights.bin", "0", "1e3", absl::StatusCode::kInvalidArgument,
       "length '1e3' is not a non-negative integer"},
      {"", "0", "16", absl::StatusCode::kInvalidArgument, "has no location"},
  };
  for (const BadCase& c : cases) {
    const std::string dir = MakeModelFolder("bad", ExternalModel(c.location, c.offset, c.length));
    // A symlink inside the folder that points outside it.
    ASSERT_EQ(::symlink((outside + "/secret.bin").c_str(), (dir + "/escape.bin").c_str()), 0);
    auto model = LoadModel(dir + "/model.onnx");
    ASSERT_FALSE(model.ok()) << c.location;
    EXPECT_EQ(model.status().code(), c.code) << model.status();
    EXPECT_NE(model.status().message().find(c.message), std::string::npos) << model.status();
    EXPECT_EQ(model.status().message().find('\n'), std::string::npos) << "one line";
  }
}

// Bazel runfiles link every file: a model and its data are symlinks into another folder. The data
// resolves inside the folder of the model's target, so it loads; a symlink to anywhere else does
// not.
TEST(ExternalData, SymlinkedModelFindsDataBesideItsTarget) {
  const std::string real =
      MakeModelFolder("linked_real", ExternalModel("weights.bin", "4096", "16"));
  const std::string links = TempDir("linked_links");
  ASSERT_EQ(::symlink((real + "/model.onnx").c_str(), (links + "/model.onnx").c_str()), 0);
  ASSERT_EQ(::symlink((real + "/weights.bin").c_str(), (links + "/weights.bin").c_str()), 0);
  auto model = LoadModel(links + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(Init(**model, "w").ToVector<float>(), (std::vector<float>{10, 20, 30, 40}));

  // Only the model linked: the data beside its target is found.
  const std::string only_model = TempDir("linked_only_model");
  ASSERT_EQ(::symlink((real + "/model.onnx").c_str(), (only_model + "/model.onnx").c_str()), 0);
  EXPECT_TRUE(LoadModel(only_model + "/model.onnx").ok());

  // The data linked to a third folder: outside both the link's folder and the target's.
  const std::string elsewhere =
      MakeModelFolder("linked_elsewhere", ExternalModel("weights.bin", "4096", "16"));
  const std::string mixed = TempDir("linked_mixed");
  ASSERT_EQ(::symlink((real + "/model.onnx").c_str(), (mixed + "/model.onnx").c_str()), 0);
  ASSERT_EQ(::symlink((elsewhere + "/weights.bin").c_str(), (mixed + "/weights.bin").c_str()), 0);
  fs::remove(real + "/weights.bin");
  auto escaped = LoadModel(mixed + "/model.onnx");
  ASSERT_FALSE(escaped.ok());
  EXPECT_NE(escaped.status().message().find("leaves the model folder"), std::string::npos)
      << escaped.status();
}

// A symlinked model whose link folder also holds the data file reads that one: locations are
// relative to the path given, as in ONNX; the target's folder is only a fallback.
TEST(ExternalData, SymlinkedModelPrefersDataBesideTheLink) {
  const std::string real =
      MakeModelFolder("prefer_real", ExternalModel("weights.bin", "4096", "16"));
  const std::string links = TempDir("prefer_links");
  ASSERT_EQ(::symlink((real + "/model.onnx").c_str(), (links + "/model.onnx").c_str()), 0);
  std::string data = Floats({1, 2, 3, 4});
  data.resize(4096, '\0');
  WriteFile(links + "/weights.bin", data + Floats({5, 6, 7, 8}));
  auto model = LoadModel(links + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(Init(**model, "w").ToVector<float>(), (std::vector<float>{5, 6, 7, 8}));
}

// Relative model paths, run from inside and beside the model's folder: a bare file name (whose
// folder is the current one), ./, ../folder/, and a bare name that is a symlink to another folder.
TEST(ExternalData, RelativeModelPathsFindTheirData) {
  const std::string dir = MakeModelFolder("relative", ExternalModel("weights.bin", "4096", "16"));
  const std::string sub = dir + "/sub";
  fs::create_directories(sub);
  ASSERT_EQ(::symlink("../model.onnx", (sub + "/link.onnx").c_str()), 0);
  const fs::path cwd = fs::current_path();
  for (const auto& [from, path] : std::vector<std::pair<std::string, std::string>>{
           {dir, "model.onnx"},
           {dir, "./model.onnx"},
           {sub, "../model.onnx"},
           {sub, "link.onnx"},
           {sub, "./link.onnx"},
           {fs::path(dir).parent_path().string(), "relative/model.onnx"}}) {
    fs::current_path(from);
    auto model = LoadModel(path);
    EXPECT_TRUE(model.ok()) << path << " from " << from << ": " << model.status();
    if (model.ok())
      EXPECT_EQ(Init(**model, "w").ToVector<float>(), (std::vector<float>{10, 20, 30, 40})) << path;
  }
  // A location leaving the folder is still refused from a bare name.
  WriteFile(dir + "/up.onnx", ExternalModel("../weights.bin", "4096", "16").SerializeAsString());
  WriteFile(fs::path(dir).parent_path().string() + "/weights.bin", ReadFile(dir + "/weights.bin"));
  fs::current_path(dir);
  auto up = LoadModel("up.onnx");
  fs::current_path(cwd);
  ASSERT_FALSE(up.ok());
  EXPECT_NE(up.status().message().find("leaves the model folder"), std::string::npos)
      << up.status();
}

TEST(ExternalData, LoadingFromMemoryCannotReadExternalData) {
  auto model = LoadModelFromString(ExternalModel("weights.bin", "0", "16").SerializeAsString());
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.status().message().find("not loaded from a file"), std::string::npos)
      << model.status();
}

TEST(ExternalData, SavingRewritesExternalTensorsIntoANewSideFile) {
  const std::string dir = MakeModelFolder("resave", ExternalModel("weights.bin", "4096", "16"));
  auto model = LoadModel(dir + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  const std::string out = TempDir("resave_out");
  ASSERT_TRUE(SaveModel(**model, out + "/copy.onnx").ok());
  EXPECT_TRUE(fs::exists(out + "/copy.onnx.data"));
  auto again = LoadModel(out + "/copy.onnx");
  ASSERT_TRUE(again.ok()) << again.status();
  const Tensor& w = Init(**again, "w");
  EXPECT_TRUE(w.ContentEquals(Init(**model, "w")));
  // Keys keep their order; checksum survives; location/offset/length point at the new file.
  ASSERT_EQ(w.external_data().size(), 4u);
  EXPECT_EQ(w.external_data()[0].first, "location");
  EXPECT_EQ(w.external_data()[0].second, "copy.onnx.data");
  EXPECT_EQ(w.external_data()[3].first, "checksum");
  EXPECT_EQ(Value(w.external_data(), "checksum"), "0123456789abcdef0123456789abcdef01234567");
  // The original folder is untouched.
  EXPECT_FALSE(fs::exists(dir + "/model.onnx.data"));
}

// A model whose initializers (and a Constant in a subgraph) are inline.
std::unique_ptr<Model> InlineModel() {
  onnx::ModelProto m;
  m.set_ir_version(10);
  m.add_opset_import()->set_version(21);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* big = g->add_initializer();
  big->set_name("big");
  big->set_data_type(onnx::TensorProto::FLOAT);
  big->add_dims(5000);
  for (int i = 0; i < 5000; ++i) big->add_float_data(static_cast<float>(i));
  auto* small = g->add_initializer();
  small->set_name("small");
  small->set_data_type(onnx::TensorProto::INT64);
  small->add_dims(1);
  small->add_int64_data(7);
  auto* cond = g->add_input();
  cond->set_name("cond");
  auto* n = g->add_node();
  n->set_op_type("If");
  n->add_input("cond");
  n->add_output("y");
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = n->add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    auto* sub = a->mutable_g();
    sub->set_name(branch);
    auto* c = sub->add_node();
    c->set_op_type("Constant");
    c->add_output(std::string(branch) + "_c");
    auto* v = c->add_attribute();
    v->set_name("value");
    v->set_type(onnx::AttributeProto::TENSOR);
    v->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
    v->mutable_t()->add_dims(2000);
    v->mutable_t()->set_raw_data(std::string(8000, '\x01'));
    sub->add_output()->set_name(std::string(branch) + "_c");
  }
  g->add_output()->set_name("y");
  auto model = LoadModelFromString(m.SerializeAsString());
  EXPECT_TRUE(model.ok()) << model.status();
  return *std::move(model);
}

TEST(ExternalData, ThresholdMovesLargeTensorsOutAndLoadsBackEqual) {
  std::unique_ptr<Model> model = InlineModel();
  const std::string dir = TempDir("threshold");
  SaveOptions options;
  options.external_data_threshold = 1024;
  ASSERT_TRUE(SaveModel(*model, dir + "/m.onnx", options).ok());
  onnx::ModelProto saved;
  ASSERT_TRUE(saved.ParseFromString(ReadFile(dir + "/m.onnx")));
  EXPECT_EQ(saved.graph().initializer(0).data_location(), onnx::TensorProto::EXTERNAL);
  EXPECT_NE(saved.graph().initializer(1).data_location(), onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(saved.graph().node(0).attribute(0).g().node(0).attribute(0).t().data_location(),
            onnx::TensorProto::EXTERNAL);
  // Offsets of tensors of 4 KiB or more are 4 KiB aligned.
  for (const auto& e :
       saved.graph().node(0).attribute(1).g().node(0).attribute(0).t().external_data()) {
    if (e.key() == "offset") {
      EXPECT_EQ(std::stoull(e.value()) % 4096, 0u);
    }
  }
  EXPECT_LT(fs::file_size(dir + "/m.onnx"), 1024u);

  auto again = LoadModel(dir + "/m.onnx");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(Init(**again, "big").ContentEquals(Init(*model, "big")));
  EXPECT_TRUE(Init(**again, "small").ContentEquals(Init(*model, "small")));
  const Node* if_node = (*again)->graph().first_node();
  EXPECT_TRUE(if_node->FindAttribute("then_branch")
                  ->g->first_node()
                  ->FindAttribute("value")
                  ->t->ContentEquals(model->graph()
                                         .first_node()
                                         ->FindAttribute("then_branch")
                                         ->g->first_node()
                                         ->FindAttribute("value")
                                         ->t));
  // Without a threshold the inline tensors stay inline, typed fields and all.
  ASSERT_TRUE(SaveModel(*model, dir + "/inline.onnx").ok());
  EXPECT_FALSE(fs::exists(dir + "/inline.onnx.data"));
  onnx::ModelProto inline_saved;
  ASSERT_TRUE(inline_saved.ParseFromString(ReadFile(dir + "/inline.onnx")));
  EXPECT_EQ(inline_saved.graph().initializer(0).float_data_size(), 5000);
}

TEST(ExternalData, SavingOverTheModelBeingReadWorks) {
  // The side file of the output is the very file the input's data lives in.
  onnx::ModelProto m = ExternalModel("model.onnx.data", "4096", "16");
  for (auto& init : *m.mutable_graph()->mutable_initializer()) {
    for (auto& e : *init.mutable_external_data()) {
      if (e.key() == "location") e.set_value("model.onnx.data");
    }
  }
  const std::string dir = MakeModelFolder("overwrite", m);
  fs::rename(dir + "/weights.bin", dir + "/model.onnx.data");
  // Hard links keep the old files reachable: they must not change (no writes into them).
  ASSERT_EQ(::link((dir + "/model.onnx").c_str(), (dir + "/old_model").c_str()), 0);
  ASSERT_EQ(::link((dir + "/model.onnx.data").c_str(), (dir + "/old_data").c_str()), 0);
  const std::string old_model = ReadFile(dir + "/model.onnx");
  const std::string old_data = ReadFile(dir + "/model.onnx.data");

  auto model = LoadModel(dir + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_TRUE(SaveModel(**model, dir + "/model.onnx").ok());
  EXPECT_EQ(ReadFile(dir + "/old_model"), old_model);
  EXPECT_EQ(ReadFile(dir + "/old_data"), old_data);
  // The in-memory model still reads its (now unlinked) mapping.
  EXPECT_EQ(Init(**model, "w").ToVector<float>(), (std::vector<float>{10, 20, 30, 40}));
  auto again = LoadModel(dir + "/model.onnx");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(Init(**again, "w").ContentEquals(Init(**model, "w")));
  EXPECT_TRUE(Init(**again, "v").ContentEquals(Init(**model, "v")));
  // Only the model, its data and the two links: no temporary files left.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 4);
}

// Weights large enough to be copied file to file (not through memory): the side file holds the same
// bytes at the recorded offsets, also when saving over the file being read, and when the input's
// file was replaced after loading (then the mapping's bytes are written, not the new file's).
TEST(ExternalData, LargeTensorsAreCopiedFileToFile) {
  constexpr int kN = 300000;  // 1.2 MB per tensor
  std::vector<float> a(kN), b(kN);
  for (int i = 0; i < kN; ++i) {
    a[i] = static_cast<float>(i) * 0.25f;
    b[i] = static_cast<float>(kN - i);
  }
  std::string data = Floats(a);
  data.resize(data.size() + 100, '\x7f');  // b starts unaligned in the input
  const uint64_t b_offset = data.size();
  data += Floats(b);
  onnx::ModelProto m = ExternalModel("model.onnx.data", "0", "16");
  auto* g = m.mutable_graph();
  for (int t = 0; t < 2; ++t) {
    onnx::TensorProto* init = g->mutable_initializer(t);
    init->set_dims(0, kN);
    init->clear_external_data();
    AddEntry(init, "location", "model.onnx.data");
    AddEntry(init, "offset", t == 0 ? "0" : std::to_string(b_offset));
    AddEntry(init, "length", std::to_string(kN * 4));
  }
  const std::string dir = TempDir("file_copy");
  WriteFile(dir + "/model.onnx.data", data);
  WriteFile(dir + "/model.onnx", m.SerializeAsString());

  auto model = LoadModel(dir + "/model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  auto check_saved = [&](const std::string& path) {
    auto again = LoadModel(path);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(Init(**again, "w").ToVector<float>(), a) << path;
    EXPECT_EQ(Init(**again, "v").ToVector<float>(), b) << path;
    EXPECT_EQ(std::stoull(Value(Init(**again, "v").external_data(), "offset")) % 4096, 0u) << path;
  };
  const std::string out = TempDir("file_copy_out");
  ASSERT_TRUE(SaveModel(**model, out + "/copy.onnx").ok());
  check_saved(out + "/copy.onnx");

  ASSERT_TRUE(SaveModel(**model, dir + "/model.onnx").ok());  // over the model being read
  check_saved(dir + "/model.onnx");

  // The data file is now a new file (the save renamed over it); replace it once more with other
  // bytes.
  WriteFile(dir + "/model.onnx.data.new",
            std::string(ReadFile(dir + "/model.onnx.data").size(), '\0'));
  fs::rename(dir + "/model.onnx.data.new", dir + "/model.onnx.data");
  ASSERT_TRUE(SaveModel(**model, out + "/copy2.onnx").ok());
  check_saved(out + "/copy2.onnx");
}

}  // namespace
}  // namespace onnx_opt::ir::io
