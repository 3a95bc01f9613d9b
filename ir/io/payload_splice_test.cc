// Large raw_data payloads cut out before parsing and put back after serializing (payload_splice.h):
// every place a TensorProto can sit, byte-exact output, views instead of copies, and giving up
// (never guessing) on bytes the rewrite does not expect.
#include "ir/io/payload_splice.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "ir/buffer.h"
#include "ir/io/model_io.h"
#include "ir/io/proto_export.h"
#include "ir/io/proto_parse.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

using google::protobuf::util::MessageDifferencer;

std::string Bytes(size_t n, char seed) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(seed + i * 7);
  return s;
}

void SetRaw(onnx::TensorProto* t, const std::string& name, size_t floats, char seed) {
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(static_cast<int64_t>(floats));
  t->set_raw_data(Bytes(floats * 4, seed));
}

// A model with a large tensor in every place one can sit, and small ones that stay inline.
onnx::ModelProto EveryPlace() {
  onnx::ModelProto m;
  m.set_ir_version(10);
  auto* imp = m.add_opset_import();
  imp->set_version(21);
  onnx::GraphProto* g = m.mutable_graph();
  g->set_name("main");
  auto* cond = g->add_input();
  cond->set_name("cond");
  cond->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  SetRaw(g->add_initializer(), "big", 1000, 1);
  SetRaw(g->add_initializer(), "small", 4, 2);
  auto* sparse = g->add_sparse_initializer();
  sparse->add_dims(4000);
  SetRaw(sparse->mutable_values(), "sparse", 600, 3);
  auto* idx = sparse->mutable_indices();
  idx->set_data_type(onnx::TensorProto::INT64);
  idx->add_dims(600);
  idx->set_raw_data(Bytes(600 * 8, 4));
  onnx::NodeProto* c = g->add_node();
  c->set_op_type("Constant");
  c->add_output("k");
  auto* a = c->add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  SetRaw(a->mutable_t(), "", 512, 5);
  a->mutable_t()->set_doc_string("after raw_data in field order");  // field 12 > 9
  onnx::NodeProto* iff = g->add_node();
  iff->set_op_type("If");
  iff->add_input("cond");
  iff->add_output("z");
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* ga = iff->add_attribute();
    ga->set_name(branch);
    ga->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* body = ga->mutable_g();
    body->set_name(branch);
    SetRaw(body->add_initializer(), std::string(branch) + "_w", 300, 6);
    body->add_output()->set_name(std::string(branch) + "_w");
  }
  auto* ts = c->add_attribute();
  ts->set_name("list");
  ts->set_type(onnx::AttributeProto::TENSORS);
  SetRaw(ts->add_tensors(), "l0", 256, 7);
  SetRaw(ts->add_tensors(), "l1", 2, 8);
  onnx::FunctionProto* f = m.add_functions();
  f->set_name("F");
  f->set_domain("d");
  auto* fa = f->add_attribute_proto();
  fa->set_name("default");
  fa->set_type(onnx::AttributeProto::TENSOR);
  SetRaw(fa->mutable_t(), "fd", 400, 9);
  onnx::NodeProto* fn = f->add_node();
  fn->set_op_type("Constant");
  fn->add_output("o");
  auto* fna = fn->add_attribute();
  fna->set_name("value");
  fna->set_type(onnx::AttributeProto::TENSOR);
  SetRaw(fna->mutable_t(), "fc", 700, 10);
  auto* sa = fn->add_attribute();
  sa->set_name("sparse_value");
  sa->set_type(onnx::AttributeProto::SPARSE_TENSOR);
  SetRaw(sa->mutable_sparse_tensor()->mutable_values(), "sv", 300, 11);
  sa->mutable_sparse_tensor()->mutable_indices()->set_data_type(
      onnx::TensorProto::INT64);  // export writes both
  return m;
}

TEST(PayloadSplice, StripsLargePayloadsEverywhereAndLeavesMarkers) {
  const onnx::ModelProto m = EveryPlace();
  std::string bytes;
  m.SerializeToString(&bytes);
  std::vector<std::string_view> payloads;
  std::optional<std::string> stripped = StripPayloads(bytes, kMinSplicedPayload, &payloads);
  ASSERT_TRUE(stripped.has_value());
  // big, sparse values and indices, Constant value, two branch weights, l0, function default,
  // function Constant, function sparse values: 10; "small" and "l1" stay.
  ASSERT_EQ(payloads.size(), 10u);
  for (std::string_view p : payloads) {
    EXPECT_GE(p.size(), kMinSplicedPayload);
    EXPECT_GE(p.data(), bytes.data());  // views into the input, not copies
    EXPECT_LE(p.data() + p.size(), bytes.data() + bytes.size());
  }
  EXPECT_LT(stripped->size(), bytes.size() / 10);
  // Protobuf parses the rest; each large tensor carries its marker and no raw_data.
  onnx::ModelProto parsed;
  ASSERT_TRUE(parsed.ParseFromString(*stripped));
  EXPECT_FALSE(parsed.graph().initializer(0).has_raw_data());
  ASSERT_EQ(parsed.graph().initializer(0).unknown_fields().field_count(), 1);
  EXPECT_EQ(parsed.graph().initializer(0).unknown_fields().field(0).number(),
            static_cast<int>(kPayloadMarkerField));
  const uint64_t index = parsed.graph().initializer(0).unknown_fields().field(0).varint();
  EXPECT_EQ(payloads[index], m.graph().initializer(0).raw_data());
  EXPECT_EQ(parsed.graph().initializer(1).raw_data(), m.graph().initializer(1).raw_data());
  EXPECT_EQ(parsed.graph().node(0).attribute(0).t().doc_string(), "after raw_data in field order");

  // The pieces parse where they lie to the same message as their concatenation.
  std::vector<std::string_view> piece_payloads;
  std::optional<SplicedModel> pieces =
      StripPayloadsToPieces(bytes, kMinSplicedPayload, &piece_payloads);
  ASSERT_TRUE(pieces.has_value());
  EXPECT_GT(pieces->pieces.size(), 10u);
  EXPECT_EQ(pieces->Concatenate(), *stripped);
  EXPECT_EQ(piece_payloads, payloads);
  onnx::ModelProto from_pieces;
  ASSERT_TRUE(
      ParseProtoPieces(pieces->pieces, pieces->size, "<test>", "a model", &from_pieces).ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(from_pieces, parsed));
}

TEST(PayloadSplice, SplicedSerializationIsByteForByteProtobufs) {
  onnx::ModelProto m = EveryPlace();
  std::string expected;
  m.SerializeToString(&expected);
  // Replace every large raw_data by a marker, as the exporter does, and splice the payloads back.
  std::string bytes = expected;
  std::vector<std::string_view> payloads;
  std::optional<std::string> stripped = StripPayloads(bytes, kMinSplicedPayload, &payloads);
  ASSERT_TRUE(stripped.has_value());
  onnx::ModelProto with_markers;
  ASSERT_TRUE(with_markers.ParseFromString(*stripped));
  std::string small;
  with_markers.SerializeToString(
      &small);  // markers now last in each tensor, as the exporter writes them
  absl::StatusOr<SplicedModel> spliced = SplicePayloads(small, payloads);
  ASSERT_TRUE(spliced.ok()) << spliced.status();
  EXPECT_EQ(spliced->size, expected.size());
  EXPECT_EQ(spliced->Concatenate(), expected);
}

TEST(PayloadSplice, NothingLargeMeansNothingToDo) {
  onnx::ModelProto m;
  SetRaw(m.mutable_graph()->add_initializer(), "w", 4, 1);
  std::string bytes;
  m.SerializeToString(&bytes);
  std::vector<std::string_view> payloads;
  EXPECT_FALSE(StripPayloads(bytes, kMinSplicedPayload, &payloads).has_value());
  EXPECT_TRUE(payloads.empty());
  // And a message without markers splices to itself.
  absl::StatusOr<SplicedModel> spliced = SplicePayloads(bytes, {});
  ASSERT_TRUE(spliced.ok());
  EXPECT_EQ(spliced->Concatenate(), bytes);
}

TEST(PayloadSplice, GivesUpOnWhatItDoesNotExpect) {
  const onnx::ModelProto m = EveryPlace();
  std::string bytes;
  m.SerializeToString(&bytes);
  std::vector<std::string_view> payloads;
  // Truncated anywhere: either nothing to do or the rewrite refuses; never a partial result.
  for (size_t cut : {size_t{1}, size_t{7}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
    payloads.clear();
    std::optional<std::string> stripped =
        StripPayloads(std::string_view(bytes).substr(0, cut), 16, &payloads);
    if (stripped.has_value()) {
      onnx::ModelProto parsed;
      EXPECT_FALSE(parsed.ParseFromString(*stripped)) << "cut at " << cut;
    } else {
      EXPECT_TRUE(payloads.empty());
    }
  }
  // The marker's field number already used by the file.
  onnx::ModelProto marked = m;
  marked.mutable_graph()->mutable_initializer(1)->mutable_unknown_fields()->AddVarint(
      static_cast<int>(kPayloadMarkerField), 0);
  std::string marked_bytes;
  marked.SerializeToString(&marked_bytes);
  payloads.clear();
  EXPECT_FALSE(StripPayloads(marked_bytes, kMinSplicedPayload, &payloads).has_value());
  EXPECT_TRUE(payloads.empty());
  // Two raw_data fields in one tensor (protobuf keeps the last), written on the wire by hand:
  // graph (field 7) { initializer (field 5) { a large raw_data, then a small one } }.
  onnx::TensorProto first;
  SetRaw(&first, "w", 400, 1);
  onnx::TensorProto second;
  second.set_raw_data(Bytes(8, 3));
  std::string init_bytes, second_bytes;
  first.SerializeToString(&init_bytes);
  second.SerializeToString(&second_bytes);
  init_bytes += second_bytes;
  auto varint = [](uint64_t v) {
    std::string s;
    while (v >= 0x80) {
      s.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    s.push_back(static_cast<char>(v));
    return s;
  };
  const std::string graph_bytes = "\x2a" + varint(init_bytes.size()) + init_bytes;
  const std::string model_bytes = "\x3a" + varint(graph_bytes.size()) + graph_bytes;
  onnx::ModelProto check;
  ASSERT_TRUE(check.ParseFromString(model_bytes));
  EXPECT_EQ(check.graph().initializer(0).raw_data().size(), 8u);  // protobuf: the last one wins
  payloads.clear();
  EXPECT_FALSE(StripPayloads(model_bytes, kMinSplicedPayload, &payloads).has_value());
  // A marker with no payload behind it when splicing.
  onnx::ModelProto lone;
  lone.mutable_graph()->add_initializer()->mutable_unknown_fields()->AddVarint(
      static_cast<int>(kPayloadMarkerField), 3);
  std::string lone_bytes;
  lone.SerializeToString(&lone_bytes);
  EXPECT_FALSE(SplicePayloads(lone_bytes, {}).ok());
}

TEST(PayloadSplice, GivesUpOnATensorFieldGivenTwice) {
  // AttributeProto.t twice on the wire: protobuf merges the two tensors and keeps the last raw_data
  // (here the small one). Cut separately, the first one's marker would have won in the importer.
  onnx::TensorProto first;
  first.set_data_type(onnx::TensorProto::FLOAT);
  first.set_raw_data(Bytes(4000, 1));
  onnx::TensorProto second;
  second.add_dims(2);
  second.set_raw_data(Bytes(8, 2));
  onnx::AttributeProto attr;
  attr.set_name("value");
  attr.set_type(onnx::AttributeProto::TENSOR);
  *attr.mutable_t() = first;
  std::string attr_bytes, second_bytes;
  attr.SerializeToString(&attr_bytes);
  second.SerializeToString(&second_bytes);
  auto varint = [](uint64_t v) {
    std::string s;
    while (v >= 0x80) {
      s.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    s.push_back(static_cast<char>(v));
    return s;
  };
  attr_bytes += "\x2a" + varint(second_bytes.size()) + second_bytes;  // t (field 5) again
  onnx::NodeProto node;
  node.set_op_type("Constant");
  node.add_output("k");
  std::string node_bytes;
  node.SerializeToString(&node_bytes);
  node_bytes += "\x2a" + varint(attr_bytes.size()) + attr_bytes;  // attribute (field 5)
  onnx::ModelProto m;
  m.set_ir_version(10);
  m.add_opset_import()->set_version(21);
  m.mutable_graph()->set_name("g");
  m.mutable_graph()->add_output()->set_name("k");
  std::string graph_bytes;
  m.graph().SerializeToString(&graph_bytes);
  graph_bytes += "\x0a" + varint(node_bytes.size()) + node_bytes;  // node (field 1)
  m.clear_graph();
  std::string model_bytes;
  m.SerializeToString(&model_bytes);
  model_bytes += "\x3a" + varint(graph_bytes.size()) + graph_bytes;  // graph (field 7)
  onnx::ModelProto check;
  ASSERT_TRUE(check.ParseFromString(model_bytes));
  ASSERT_EQ(check.graph().node(0).attribute(0).t().raw_data(), second.raw_data());
  std::vector<std::string_view> payloads;
  EXPECT_FALSE(StripPayloads(model_bytes, kMinSplicedPayload, &payloads).has_value());
  EXPECT_TRUE(payloads.empty());
  // So loading gets protobuf's tensor: dims [2], the second raw_data.
  absl::StatusOr<std::unique_ptr<Model>> model = LoadModelFromString(model_bytes);
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<std::string> saved = SerializeModel(**model);
  ASSERT_TRUE(saved.ok()) << saved.status();
  onnx::ModelProto reread;
  ASSERT_TRUE(reread.ParseFromString(*saved));
  EXPECT_EQ(reread.graph().node(0).attribute(0).t().raw_data(), second.raw_data());
}

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "splice_XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

TEST(PayloadSplice, LoadViewsTheFileAndSaveWritesWhatProtobufWould) {
  const onnx::ModelProto m = EveryPlace();
  TempDir dir;
  const std::string in = dir.File("m.onnx");
  {
    std::ofstream f(in, std::ios::binary);
    ASSERT_TRUE(m.SerializeToOstream(&f));
  }
  absl::StatusOr<std::unique_ptr<Model>> model = LoadModel(in);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_FALSE((*model)->graph().initializers().empty());
  const Value* big = (*model)->graph().initializers()[0];
  ASSERT_EQ(big->name(), "big");
  ASSERT_NE(big->initializer(), nullptr);
  EXPECT_EQ(big->initializer()->raw_view(), m.graph().initializer(0).raw_data());
  EXPECT_NE(dynamic_cast<const MappedFile*>(big->initializer()->buffer().get()), nullptr)
      << "a large initializer should be a view of the mapped file";
  const std::string out = dir.File("out.onnx");
  ASSERT_TRUE(SaveModel(**model, out).ok());
  std::ifstream f(out, std::ios::binary);
  std::stringstream written;
  written << f.rdbuf();
  onnx::ModelProto reread;
  ASSERT_TRUE(reread.ParseFromString(written.str()));
  std::string differences;
  MessageDifferencer differ;
  differ.ReportDifferencesToString(&differences);
  EXPECT_TRUE(differ.Compare(m, reread)) << differences.substr(0, 2000);
  // Byte for byte what protobuf writes for the exported message.
  onnx::ModelProto exported;
  ASSERT_TRUE(ExportModel(**model, {}, &exported).ok());
  std::string expected;
  exported.SerializeToString(&expected);
  EXPECT_TRUE(written.str() == expected);
  absl::StatusOr<std::string> in_memory = SerializeModel(**model);
  ASSERT_TRUE(in_memory.ok());
  EXPECT_TRUE(*in_memory == expected);
}

}  // namespace
}  // namespace onnx_opt::ir::io
