// Broken or hostile files give one-line errors, never a crash, a huge allocation or a stack
// overflow; a failing save leaves no output and no temporary file behind.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "ir/io/atomic_file.h"
#include "ir/io/model_io.h"
#include "ir/io/proto_import.h"
#include "ir/io/testing/temp_files.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

namespace fs = std::filesystem;

using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

onnx::ModelProto Parse(const std::string& text) {
  onnx::ModelProto p;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &p)) << text;
  return p;
}

constexpr char kGood[] = R"pb(
  ir_version: 10
  graph {
    name: "g"
    node { input: "x" input: "w" output: "y" name: "n" op_type: "Add" }
    initializer { name: "w" dims: 2 data_type: 1 raw_data: "\000\000\200?\000\000\000@" }
    input {
      name: "x"
      type {
        tensor_type {
          elem_type: 1
          shape { dim { dim_value: 2 } }
        }
      }
    }
    output {
      name: "y"
      type {
        tensor_type {
          elem_type: 1
          shape { dim { dim_value: 2 } }
        }
      }
    }
  }
  opset_import { domain: "" version: 21 }
)pb";

// Loads `text` from memory; expects a one-line error containing `expected`.
void ExpectError(const std::string& text, const std::string& expected) {
  auto model = LoadModelFromString(Parse(text).SerializeAsString());
  ASSERT_FALSE(model.ok()) << "expected: " << expected;
  const std::string msg(model.status().message());
  EXPECT_NE(msg.find(expected), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

std::string WithGraph(const std::string& graph_body) {
  return "ir_version: 10 opset_import { version: 21 } graph { name: \"g\" " + graph_body + " }";
}

TEST(BadInput, GoodModelLoads) {
  auto model = LoadModelFromString(Parse(kGood).SerializeAsString());
  ASSERT_TRUE(model.ok()) << model.status();
}

TEST(BadInput, EveryTruncationFails) {
  const std::string bytes = Parse(kGood).SerializeAsString();
  const std::string path = TempDir("truncated") + "/x.onnx";
  for (size_t n = 1; n < bytes.size(); ++n) {
    WriteFile(path, bytes.substr(0, n));
    auto model = LoadModel(path);
    ASSERT_FALSE(model.ok()) << "truncated to " << n << " bytes";
    EXPECT_EQ(model.status().message().find('\n'), std::string::npos);
  }
  WriteFile(path, bytes.substr(0, bytes.size() / 2));
  auto model = LoadModel(path);
  EXPECT_EQ(model.status().message(),
            "cannot parse '" + path +
                "' as an ONNX model: the data is truncated or corrupt (or "
                "nests deeper than 832 message levels)");
}

TEST(BadInput, RandomBytesAndMutationsNeverCrash) {
  std::mt19937 rng(42);
  for (int i = 0; i < 200; ++i) {
    std::string bytes(1 + rng() % 4096, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    auto model = LoadModelFromString(bytes);
    EXPECT_FALSE(model.ok());
  }
  // Flipped bytes in a valid model: any outcome but a crash (the sanitizer builds check memory).
  const std::string good = Parse(kGood).SerializeAsString();
  int failed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes = good;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k)
      bytes[rng() % bytes.size()] = static_cast<char>(rng());
    auto model = LoadModelFromString(bytes);
    if (!model.ok()) {
      ++failed;
      EXPECT_EQ(model.status().message().find('\n'), std::string::npos);
    } else {
      EXPECT_TRUE(SerializeModel(**model).ok());
    }
  }
  EXPECT_GT(failed, 0);
}

TEST(BadInput, EmptyAndMissingFiles) {
  const std::string dir = TempDir("empty");
  WriteFile(dir + "/empty.onnx", "");
  auto model = LoadModel(dir + "/empty.onnx");
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().message(),
            "cannot parse '" + dir + "/empty.onnx' as an ONNX model: the file is empty");
  model = LoadModel(dir + "/missing.onnx");
  EXPECT_EQ(model.status().code(), absl::StatusCode::kNotFound);
  model = LoadModel(dir);
  EXPECT_FALSE(model.ok());
}

TEST(BadInput, FilesOf2GiBOrMoreAreRefusedBeforeReading) {
  // A sparse file: no disk space used, nothing read.
  const std::string path = TempDir("huge") + "/huge.onnx";
  { std::ofstream out(path); }
  fs::resize_file(path, (uint64_t{1} << 31) + 1);
  auto model = LoadModel(path);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().message(),
            "cannot parse '" + path +
                "' as an ONNX model: the file has 2147483649 bytes; protobuf "
                "cannot parse 2 GiB or more (large tensors belong in external data)");
  fs::remove(path);
}

TEST(BadInput, UndefinedInput) {
  auto model = LoadModelFromString(Parse(WithGraph(R"(
      node { input: "x" input: "foo" output: "y" name: "n" op_type: "Add" }
      input { name: "x" } output { name: "y" })"))
                                       .SerializeAsString());
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().message(),
            "'<memory>': graph 'g': node 'n' (Add) input 'foo' is not defined");
}

TEST(BadInput, UndefinedInSubgraphAndFunction) {
  ExpectError(WithGraph(R"(
      node { input: "c" output: "y" name: "if" op_type: "If"
             attribute { name: "then_branch" type: GRAPH
                         g { name: "then" node { input: "nope" output: "t" name: "id" op_type: "Identity" }
                             output { name: "t" } } } }
      input { name: "c" } output { name: "y" })"),
              "graph 'then': node 'id' (Identity) input 'nope' is not defined");
  // A function body does not see the main graph's names.
  ExpectError(R"pb(ir_version: 10
                   opset_import { version: 21 }
                   opset_import { domain: "f" version: 1 }
                   graph {
                     name: "g"
                     input { name: "x" }
                     output { name: "x" }
                   }
                   functions {
                     name: "F"
                     domain: "f"
                     input: "a"
                     output: "b"
                     node { input: "x" output: "b" op_type: "Identity" }
                   })pb",
              "function 'f::F': node producing 'b' (Identity) input 'x' is not defined");
}

TEST(BadInput, DuplicateNames) {
  ExpectError(
      WithGraph(R"(
      node { input: "x" output: "y" name: "first" op_type: "Relu" }
      node { input: "x" output: "y" name: "second" op_type: "Relu" }
      input { name: "x" } output { name: "y" })"),
      "graph 'g': node 'second' (Relu) output 'y' is already defined by node 'first' (Relu)");
  ExpectError(WithGraph(R"(
      node { input: "x" output: "x" name: "n" op_type: "Relu" } input { name: "x" } output { name: "x" })"),
              "node 'n' (Relu) output 'x' is already defined by a graph input");
  ExpectError(WithGraph(R"(
      node { input: "w" output: "w" name: "n" op_type: "Relu" }
      initializer { name: "w" data_type: 1 raw_data: "\000\000\000\000" } output { name: "w" })"),
              "output 'w' is already defined by an initializer");
  ExpectError(WithGraph(R"(
      initializer { name: "w" data_type: 1 raw_data: "\000\000\000\000" }
      initializer { name: "w" data_type: 1 raw_data: "\000\000\000\000" } output { name: "w" })"),
              "initializer 'w' is already defined by an initializer");
  ExpectError(WithGraph(R"(input { name: "x" } input { name: "x" } output { name: "x" })"),
              "graph input 'x' is already defined by a graph input");
}

TEST(BadInput, GraphStructure) {
  ExpectError(WithGraph(R"(input { name: "x" } output { name: "zz" })"),
              "graph 'g': graph output 'zz' is not defined");
  ExpectError("ir_version: 10 opset_import { version: 21 }", "the model has no graph");
  ExpectError("ir_version: 10 graph { name: \"g\" }", "imports no operator set");
  ExpectError(WithGraph(R"(
      node { input: "x" output: "y" name: "n" op_type: "Relu"
             attribute { name: "a" type: INT i: 1 } attribute { name: "a" type: INT i: 2 } }
      input { name: "x" } output { name: "y" })"),
              "node 'n' (Relu) has two attributes named 'a'");
  ExpectError(WithGraph(R"(
      node { input: "x" output: "y" name: "n" op_type: "Relu" attribute { name: "a" } }
      input { name: "x" } output { name: "y" })"),
              "attribute 'a' has no type");
}

TEST(BadInput, UnknownAttributeType) {
  onnx::ModelProto p = Parse(WithGraph(R"(
      node { input: "x" output: "y" name: "n" op_type: "Relu" attribute { name: "alpha" } }
      input { name: "x" } output { name: "y" })"));
  // An enum number our proto does not know arrives as an unknown field.
  p.mutable_graph()
      ->mutable_node(0)
      ->mutable_attribute(0)
      ->GetReflection()
      ->MutableUnknownFields(p.mutable_graph()->mutable_node(0)->mutable_attribute(0))
      ->AddVarint(20, 99);
  auto model = LoadModelFromString(p.SerializeAsString());
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().message(),
            "'<memory>': graph 'g': node 'n' (Relu): attribute 'alpha' has unknown type 99");
}

TEST(BadInput, TensorSizesAreCheckedBeforeAllocating) {
  // 2^31 x 2^31 floats would be 2^64 bytes.
  ExpectError(
      WithGraph(R"(initializer { name: "w" dims: 2147483648 dims: 2147483648 data_type: 1
                                         raw_data: "abcd" } output { name: "w" })"),
      "initializer 'w': dims [2147483648,2147483648] of type float need more than 2^64 bytes");
  ExpectError(
      WithGraph(R"(initializer { name: "w" dims: 2147483648 dims: 2147483648 data_type: 3
                                         raw_data: "abcd" } output { name: "w" })"),
      "raw_data has 4 bytes; type int8 and dims [2147483648,2147483648] need 4611686018427387904");
  ExpectError(WithGraph(R"(initializer { name: "w" dims: 2147483648 dims: 2147483648 data_type: 1
                                         float_data: 1 } output { name: "w" })"),
              "float_data has 1 entries");
  ExpectError(WithGraph(R"(initializer { name: "w" dims: 2147483648 dims: 2147483648 data_type: 10
                                         int32_data: 1 } output { name: "w" })"),
              "int32_data has 1 entries");
  ExpectError(
      WithGraph(R"(initializer { name: "w" dims: 3 dims: -1 data_type: 1 } output { name: "w" })"),
      "initializer 'w': negative dimension in dims [3,-1]");
  ExpectError(
      WithGraph(R"(initializer { name: "w" dims: 1 data_type: 1 raw_data: "abcd" float_data: 1 }
                           output { name: "w" })"),
      "data is stored in more than one place (raw_data, float_data)");
  ExpectError(
      WithGraph(
          R"(initializer { name: "w" dims: 1 data_type: 7 float_data: 1 } output { name: "w" })"),
      "a tensor of type int64 cannot hold data in float_data");
  ExpectError(
      WithGraph(
          R"(initializer { name: "w" dims: 1 data_type: 3 int32_data: 1000 } output { name: "w" })"),
      "int32_data[0] = 1000 does not fit int8");
  ExpectError(
      WithGraph(
          R"(initializer { name: "w" dims: 1 data_type: 8 raw_data: "a" } output { name: "w" })"),
      "a string tensor cannot hold data in raw_data");
}

// A chain of If nodes, each holding the next graph, `depth` graphs below the main graph.
onnx::ModelProto Nested(int depth) {
  onnx::ModelProto p = Parse(WithGraph(R"(input { name: "c" } output { name: "c" })"));
  onnx::GraphProto* g = p.mutable_graph();
  for (int i = 0; i < depth; ++i) {
    onnx::NodeProto* n = g->add_node();
    n->set_op_type("If");
    n->add_input("c");
    n->add_output("o" + std::to_string(i));
    onnx::AttributeProto* a = n->add_attribute();
    a->set_name("then_branch");
    a->set_type(onnx::AttributeProto::GRAPH);
    g = a->mutable_g();
    g->set_name("level" + std::to_string(i + 1));
    g->add_output()->set_name("c");  // the outer value, seen through every level
  }
  return p;
}

TEST(BadInput, DeepNesting) {
  // Deeper than protobuf's default recursion limit (100 messages) still loads.
  auto ok = LoadModelFromString(Nested(200).SerializeAsString());
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_TRUE(SerializeModel(**ok).ok());
  // Our limit.
  auto deep = LoadModelFromString(Nested(257).SerializeAsString());
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().message(),
            "'<memory>': graph 'level257': subgraphs are nested more than 256 levels deep");
  // 1000 levels: protobuf's limit stops the parse with a clear error.
  const std::string path = TempDir("deep") + "/deep.onnx";
  WriteFile(path, Nested(1000).SerializeAsString());
  auto parsed = LoadModel(path);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("nests deeper than"), std::string::npos)
      << parsed.status();
  // The importer's own limit holds for a message that did not come through the parser.
  onnx::ModelProto proto = Nested(1000);
  auto imported = ImportModel(proto);
  ASSERT_FALSE(imported.ok());
  EXPECT_NE(imported.status().message().find("nested more than 256 levels"), std::string::npos);
}

TEST(BadInput, CyclesAndDisorderImport) {
  // Order and cycles are the verifier's business; import keeps the file's order.
  auto model = LoadModelFromString(Parse(WithGraph(R"(
      node { input: "x" input: "b" output: "a" name: "na" op_type: "Add" }
      node { input: "a" output: "b" name: "nb" op_type: "Relu" }
      input { name: "x" } output { name: "b" })"))
                                       .SerializeAsString());
  ASSERT_TRUE(model.ok()) << model.status();
  const Node* na = (*model)->graph().first_node();
  EXPECT_EQ(na->input(1)->producer(), na->next());
  EXPECT_EQ(na->next()->input(0)->producer(), na);
}

// Names every file in `dir`.
std::vector<std::string> Files(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(AtomicSave, FailingSaveLeavesNothingBehind) {
  auto loaded = LoadModelFromString(Parse(kGood).SerializeAsString());
  ASSERT_TRUE(loaded.ok());
  Model& model = **loaded;
  // A string tensor cannot go to external data: export fails after the float tensor was written.
  Tensor bad(DataType::kString, {1});
  bad.set_name("bad");
  bad.mutable_strings().push_back("s");
  bad.set_storage(Tensor::Storage::kExternal);
  model.graph().AddInitializer(std::move(bad));

  const std::string dir = TempDir("atomic");
  WriteFile(dir + "/out.onnx", "precious");
  SaveOptions options;
  options.external_data_threshold = 1;  // sends "w" to the side file first
  absl::Status s = SaveModel(model, dir + "/out.onnx", options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "cannot save '" + dir + "/out.onnx': string tensor 'bad' cannot use external data");
  EXPECT_EQ(Files(dir), std::vector<std::string>{"out.onnx"});
  EXPECT_EQ(ReadFile(dir + "/out.onnx"), "precious");

  // An unwritable destination: nothing is created.
  s = SaveModel(model, dir + "/no/such/folder/m.onnx");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
  s = SaveModel(model, dir);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(Files(dir), std::vector<std::string>{"out.onnx"});
}

TEST(AtomicSave, SuccessfulSaveReplacesTheFileWholly) {
  auto loaded = LoadModelFromString(Parse(kGood).SerializeAsString());
  ASSERT_TRUE(loaded.ok());
  const std::string dir = TempDir("atomic_ok");
  WriteFile(dir + "/out.onnx", "old");
  ASSERT_TRUE(SaveModel(**loaded, dir + "/out.onnx").ok());
  EXPECT_EQ(Files(dir), std::vector<std::string>{"out.onnx"});
  EXPECT_EQ(ReadFile(dir + "/out.onnx"), Parse(kGood).SerializeAsString());
}

TEST(AtomicSave, SyncsOnlyWhatReplacesAFile) {
  const std::string dir = TempDir("atomic_sync");
  // A new file: nothing to lose on a power loss, so no fsync.
  absl::StatusOr<std::unique_ptr<AtomicFile>> fresh = AtomicFile::Create(dir + "/new.bin");
  ASSERT_TRUE(fresh.ok());
  EXPECT_FALSE((*fresh)->durable());
  // Replacing one: the old contents are at stake, so the new ones reach the disk before the rename.
  WriteFile(dir + "/old.bin", "old");
  absl::StatusOr<std::unique_ptr<AtomicFile>> replacing = AtomicFile::Create(dir + "/old.bin");
  ASSERT_TRUE(replacing.ok());
  EXPECT_TRUE((*replacing)->durable());
  for (auto* f : {fresh->get(), replacing->get()}) {
    ASSERT_TRUE(f->Write("new", 3).ok());
    ASSERT_TRUE(f->Commit().ok());
  }
  EXPECT_EQ(ReadFile(dir + "/new.bin"), "new");
  EXPECT_EQ(ReadFile(dir + "/old.bin"), "new");
  EXPECT_EQ(Files(dir), (std::vector<std::string>{"new.bin", "old.bin"}));
}

// A large write reserves its blocks first; the file still holds exactly what was written, in order,
// and nothing more (the reservation does not change its size).
TEST(AtomicSave, LargePieceWritesKeepTheExactBytes) {
  const std::string dir = TempDir("atomic_large");
  absl::StatusOr<std::unique_ptr<AtomicFile>> file = AtomicFile::Create(dir + "/big.bin");
  ASSERT_TRUE(file.ok());
  const std::string head = "head", body(300 << 10, 'x'), tail = "tail";
  ASSERT_TRUE((*file)->Write(head.data(), head.size()).ok());
  ASSERT_TRUE((*file)->WritePieces({body, "-", body}).ok());
  ASSERT_TRUE((*file)->Write(tail.data(), tail.size()).ok());
  ASSERT_TRUE((*file)->Finish().ok());
  ASSERT_TRUE((*file)->Commit().ok());
  EXPECT_EQ(ReadFile(dir + "/big.bin"), head + body + "-" + body + tail);
}

}  // namespace
}  // namespace onnx_opt::ir::io
