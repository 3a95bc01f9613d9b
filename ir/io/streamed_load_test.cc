// The streamed load (streamed_load.h) gives the model a whole parse gives: nodes listed out of
// order, subgraphs using names defined further down, the graph field given twice, corrupt node
// bytes, and small weights left as views of the file.
#include "ir/io/streamed_load.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "ir/buffer.h"
#include "ir/graph.h"
#include "ir/io/model_io.h"
#include "ir/io/proto_import.h"
#include "ir/node.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

// Relu is listed before the Neg that computes its input; the If's branch uses `late`, defined by
// the last node; `w` (400 bytes) is cut out as a view, `b` (8 bytes) stays inline.
constexpr char kOutOfOrder[] = R"pb(
  ir_version: 10
  opset_import { version: 21 }
  graph {
    name: "g"
    node { op_type: "Relu" input: "n" output: "r" name: "relu" }
    node { op_type: "Neg" input: "x" output: "n" name: "neg" }
    node {
      op_type: "If"
      input: "c"
      output: "y"
      name: "if"
      attribute {
        name: "then_branch"
        type: GRAPH
        g {
          name: "then"
          node { op_type: "Identity" input: "late" output: "t" }
          output { name: "t" }
        }
      }
      attribute {
        name: "else_branch"
        type: GRAPH
        g {
          name: "else"
          node { op_type: "Identity" input: "r" output: "e" }
          output { name: "e" }
        }
      }
    }
    node { op_type: "Add" input: "r" input: "w" output: "late" name: "add" }
    initializer { name: "w" data_type: 1 dims: 100 }
    initializer { name: "b" data_type: 7 dims: 1 raw_data: "\001\000\000\000\000\000\000\000" }
    input {
      name: "x"
      type {
        tensor_type {
          elem_type: 1
          shape { dim { dim_value: 100 } }
        }
      }
    }
    input {
      name: "c"
      type {
        tensor_type {
          elem_type: 9
          shape {}
        }
      }
    }
    output { name: "y" }
    output { name: "late" }
  }
)pb";

onnx::ModelProto Parse(const std::string& text) {
  onnx::ModelProto m;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &m));
  for (onnx::TensorProto& t : *m.mutable_graph()->mutable_initializer()) {
    if (t.name() == "w") t.set_raw_data(std::string(400, 'w'));
  }
  return m;
}

// The model a whole parse gives, serialized (the reference every streamed load is held to).
std::string WholeParse(const std::string& bytes) {
  onnx::ModelProto m;
  EXPECT_TRUE(m.ParseFromString(bytes));
  absl::StatusOr<std::unique_ptr<Model>> model = ImportModel(m);
  EXPECT_TRUE(model.ok()) << model.status();
  absl::StatusOr<std::string> out = SerializeModel(**model);
  EXPECT_TRUE(out.ok()) << out.status();
  return *out;
}

TEST(StreamedLoad, OutOfOrderNodesAndOuterNamesGiveTheWholeParsesModel) {
  const std::string bytes = Parse(kOutOfOrder).SerializeAsString();
  std::optional<absl::StatusOr<std::unique_ptr<Model>>> streamed =
      LoadStreamed(std::make_shared<StringBuffer>(bytes), "<test>", ImportOptions());
  ASSERT_TRUE(streamed.has_value());
  ASSERT_TRUE(streamed->ok()) << streamed->status();
  const Model& m = ***streamed;
  // The Relu's input is the Neg's output, met after it.
  const Node* relu = nullptr;
  for (const Node* n : m.graph().nodes()) {
    if (n->name() == "relu") relu = n;
  }
  ASSERT_NE(relu, nullptr);
  ASSERT_NE(relu->input(0)->producer(), nullptr);
  EXPECT_EQ(relu->input(0)->producer()->name(), "neg");
  absl::StatusOr<std::string> out = SerializeModel(m);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, WholeParse(bytes));
  // And through the public entry point.
  absl::StatusOr<std::unique_ptr<Model>> loaded = LoadModelFromString(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(*SerializeModel(**loaded), *out);
}

TEST(StreamedLoad, AGraphFieldGivenTwiceIsMergedAsProtobufDoes) {
  // Two serialized models back to back parse as one: protobuf merges the two graph fields (the
  // second's nodes appended to the first's). The streamed load leaves such bytes to a whole parse.
  onnx::ModelProto first = Parse(kOutOfOrder);
  onnx::ModelProto second;
  onnx::NodeProto* extra = second.mutable_graph()->add_node();
  extra->set_op_type("Neg");
  extra->add_input("late");
  extra->add_output("z");
  const std::string bytes = first.SerializeAsString() + second.SerializeAsString();
  EXPECT_FALSE(
      LoadStreamed(std::make_shared<StringBuffer>(bytes), "<test>", ImportOptions()).has_value());
  absl::StatusOr<std::unique_ptr<Model>> loaded = LoadModelFromString(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->graph().num_nodes(), 5u);
  EXPECT_EQ(*SerializeModel(**loaded), WholeParse(bytes));
}

TEST(StreamedLoad, CorruptBytesInsideANodeAreTheWholeParsesError) {
  std::string bytes = Parse(kOutOfOrder).SerializeAsString();
  // The Neg node's op_type field (tag 0x22: field 4, length-delimited) made wire type 7, which no
  // parser accepts; every length around it stays right, so only parsing the node finds it.
  const size_t at = bytes.find(std::string("\x22\x03Neg", 5));
  ASSERT_NE(at, std::string::npos);
  bytes[at] = 0x27;
  onnx::ModelProto whole;
  EXPECT_FALSE(whole.ParseFromString(bytes));
  absl::StatusOr<std::unique_ptr<Model>> loaded = LoadModelFromString(bytes);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(loaded.status().message().find(
                "cannot parse '<memory>' as an ONNX model: the data is truncated or corrupt"),
            std::string::npos)
      << loaded.status();
}

TEST(StreamedLoad, TruncatedFilesAreRefusedAsBefore) {
  const std::string bytes = Parse(kOutOfOrder).SerializeAsString();
  for (size_t keep : {bytes.size() - 1, bytes.size() / 2, size_t{3}}) {
    absl::StatusOr<std::unique_ptr<Model>> loaded = LoadModelFromString(bytes.substr(0, keep));
    ASSERT_FALSE(loaded.ok()) << keep;
    EXPECT_NE(loaded.status().message().find("truncated or corrupt"), std::string::npos)
        << loaded.status();
  }
}

TEST(StreamedLoad, AnUndefinedInputIsNamed) {
  onnx::ModelProto m = Parse(kOutOfOrder);
  m.mutable_graph()->mutable_node(1)->set_input(0, "nowhere");
  absl::StatusOr<std::unique_ptr<Model>> loaded = LoadModelFromString(m.SerializeAsString());
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("input 'nowhere' is not defined"), std::string::npos)
      << loaded.status();
}

TEST(StreamedLoad, WeightsOf64BytesOrMoreAreViewsOfTheFile) {
  const std::string path = testing::TempDir() + "/streamed_" + std::to_string(getpid()) + ".onnx";
  {
    std::ofstream f(path, std::ios::binary);
    f << Parse(kOutOfOrder).SerializeAsString();
  }
  absl::StatusOr<std::unique_ptr<Model>> loaded = LoadModel(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Value* w = nullptr;
  const Value* b = nullptr;
  for (const Value* v : (*loaded)->graph().initializers()) (v->name() == "w" ? w : b) = v;
  ASSERT_TRUE(w != nullptr && w->initializer() != nullptr);
  ASSERT_TRUE(b != nullptr && b->initializer() != nullptr);
  EXPECT_NE(dynamic_cast<const MappedFile*>(w->initializer()->buffer().get()), nullptr);
  EXPECT_EQ(dynamic_cast<const MappedFile*>(b->initializer()->buffer().get()), nullptr);
  EXPECT_EQ(w->initializer()->raw_size(), 400u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace onnx_opt::ir::io
