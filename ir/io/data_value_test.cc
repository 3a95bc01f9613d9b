// Test data values (tensor, sequence, map, optional files) read and write back field by field.
#include "ir/io/data_value.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "proto/onnx_data.pb.h"

namespace onnx_opt::ir::io {
namespace {

using Kind = DataValue::Kind;

template <typename P>
void ExpectRoundTrip(const std::string& text, Kind kind) {
  P original;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &original));
  absl::StatusOr<DataValue> v = ParseDataValue(original.SerializeAsString(), kind);
  ASSERT_TRUE(v.ok()) << v.status();
  absl::StatusOr<std::string> bytes = SerializeDataValue(*v);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  P saved;
  ASSERT_TRUE(saved.ParseFromString(*bytes));
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(original, saved))
      << saved.DebugString();
}

TEST(DataValue, MapOfIntKeys) {
  ExpectRoundTrip<onnx::MapProto>(
      R"pb(
        name: "m"
        key_type: 7
        keys: 1
        keys: -2
        values {
          elem_type: 1
          tensor_values { dims: 1 data_type: 1 raw_data: "\000\000\200?" }
          tensor_values { dims: 1 data_type: 1 float_data: 2 }
        })pb",
      Kind::kMap);
}

TEST(DataValue, MapOfStringKeysToSequences) {
  ExpectRoundTrip<onnx::MapProto>(R"pb(
                                    name: ""
                                    key_type: 8
                                    string_keys: "a"
                                    values {
                                      elem_type: 3
                                      sequence_values { elem_type: 1 }
                                    })pb",
                                  Kind::kMap);
}

TEST(DataValue, NestedSequencesAndOptionals) {
  ExpectRoundTrip<onnx::SequenceProto>(R"pb(
                                         name: "s"
                                         elem_type: 5
                                         optional_values {
                                           elem_type: 1
                                           tensor_value { dims: 0 data_type: 7 }
                                         }
                                         optional_values { elem_type: 1 }
                                         optional_values {
                                           name: ""
                                           elem_type: 3
                                           sequence_value { elem_type: 0 }
                                         })pb",
                                       Kind::kSequence);
  ExpectRoundTrip<onnx::OptionalProto>(R"pb(name: "o"
                                            elem_type: 4
                                            map_value {
                                              key_type: 7
                                              keys: 3
                                              values {
                                                elem_type: 1
                                                tensor_values { data_type: 1 float_data: 5 }
                                              }
                                            })pb",
                                       Kind::kOptional);
  ExpectRoundTrip<onnx::OptionalProto>(R"pb(name: "empty" elem_type: 0)pb", Kind::kOptional);
}

TEST(DataValue, TheIrShape) {
  onnx::SequenceProto p;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      R"pb(
        name: "s"
        elem_type: 1
        tensor_values { name: "a" dims: 2 data_type: 6 int32_data: 1 int32_data: -1 }
        tensor_values { name: "b" dims: 0 data_type: 6 })pb",
      &p));
  auto v = ParseDataValue(p.SerializeAsString(), Kind::kSequence);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->kind, Kind::kSequence);
  EXPECT_EQ(v->elem_kind, Kind::kTensor);
  ASSERT_EQ(v->elements.size(), 2u);
  EXPECT_EQ(v->elements[0].tensor.name(), "a");
  EXPECT_EQ(v->elements[0].tensor.ToVector<int32_t>(), (std::vector<int32_t>{1, -1}));
}

TEST(DataValue, Errors) {
  onnx::SequenceProto p;
  p.set_elem_type(1);
  p.add_sequence_values();
  auto v = ParseDataValue(p.SerializeAsString(), Kind::kSequence, "x.pb");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(),
            "'x.pb': sequence '' holds sequence elements but its elem_type says tensor");
  onnx::MapProto m;
  m.set_key_type(7);
  m.add_keys(1);
  v = ParseDataValue(m.SerializeAsString(), Kind::kMap, "m.pb");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "'m.pb': map '' has 1 keys but 0 values");
  v = ParseDataValue("\xff\xff\xff", Kind::kTensor, "t.pb");
  EXPECT_FALSE(v.ok());
}

TEST(DataValue, Files) {
  const char* base = std::getenv("TEST_TMPDIR");
  const std::string dir = std::string(base ? base : "/tmp") + "/data_value";
  std::filesystem::create_directories(dir);
  Tensor t = Tensor::FromVector<float>(DataType::kFloat, {3}, {1, 2, 3});
  t.set_name("input");
  ASSERT_TRUE(SaveTensorProtoFile(t, dir + "/input_0.pb").ok());
  absl::StatusOr<Tensor> back = LoadTensorProtoFile(dir + "/input_0.pb");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->ContentEquals(t));
  EXPECT_EQ(back->name(), "input");

  DataValue opt;
  opt.kind = Kind::kOptional;
  opt.elem_kind = Kind::kTensor;
  opt.elements.push_back(DataValue::FromTensor(t));
  ASSERT_TRUE(SaveDataValueFile(opt, dir + "/output_0.pb").ok());
  absl::StatusOr<DataValue> read = LoadDataValueFile(dir + "/output_0.pb", Kind::kOptional);
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_TRUE(read->has_value());
  EXPECT_TRUE(read->elements[0].tensor.ContentEquals(t));
  EXPECT_EQ(DataValueKindOf(Type::Optional(Type::Tensor(DataType::kFloat))), Kind::kOptional);

  EXPECT_FALSE(LoadTensorProtoFile(dir + "/missing.pb").ok());
}

}  // namespace
}  // namespace onnx_opt::ir::io
