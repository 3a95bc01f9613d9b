// onnx.pb.cc and onnx_data.pb.cc are built without their static descriptor registration
// (proto/BUILD.bazel): reflection must still find every message, registering the files on first use.
#include <string>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "proto/onnx.pb.h"
#include "proto/onnx_data.pb.h"

namespace {

TEST(DescriptorRegistration, NotRegisteredAtStartUp) {
  // Nothing in this test has asked for a descriptor yet (gtest runs this test first).
  EXPECT_EQ(google::protobuf::DescriptorPool::generated_pool()->FindFileByName("proto/onnx.proto"), nullptr);
}

TEST(DescriptorRegistration, ReflectionRegistersOnFirstUse) {
  onnx::SequenceProto sequence;  // of onnx_data.proto, which imports onnx.proto
  sequence.set_name("s");
  sequence.add_tensor_values()->set_data_type(onnx::TensorProto::FLOAT);
  const std::string text = sequence.ShortDebugString();
  EXPECT_NE(text.find("name: \"s\""), std::string::npos) << text;
  EXPECT_NE(text.find("data_type: 1"), std::string::npos) << text;
  const google::protobuf::DescriptorPool* pool = google::protobuf::DescriptorPool::generated_pool();
  ASSERT_NE(pool->FindFileByName("proto/onnx_data.proto"), nullptr);
  ASSERT_NE(pool->FindFileByName("proto/onnx.proto"), nullptr);
  EXPECT_EQ(pool->FindMessageTypeByName("onnx.ModelProto"), onnx::ModelProto::descriptor());

  onnx::ModelProto model;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(
      "ir_version: 10 graph { name: \"g\" node { op_type: \"Relu\" input: \"x\" output: \"y\" } }", &model));
  EXPECT_EQ(model.graph().node(0).op_type(), "Relu");
}

}  // namespace
