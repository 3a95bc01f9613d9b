// Load -> save reproduces a ModelProto that uses every field the format has (the conformance corpus
// covers only a few), and the IR holds what it should.
#include <string>

#include "google/protobuf/text_format.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "ir/io/model_io.h"
#include "ir/io/proto_export.h"
#include "ir/io/proto_import.h"
#include "proto/onnx.pb.h"

namespace onnx_opt::ir::io {
namespace {

using google::protobuf::util::MessageDifferencer;

// Everything at once. Nodes are out of order (Add uses the Constant's output defined later), the If
// branches use outer values, and "else" returns an outer value directly.
constexpr char kKitchenSink[] = R"pb(
  ir_version: 10
  opset_import { domain: "" version: 21 }
  opset_import { domain: "com.example" version: 1 }
  opset_import { version: 3 domain: "ai.onnx.ml" }
  producer_name: ""
  producer_version: "1.0"
  domain: "ai.test"
  model_version: 0
  doc_string: "model doc"
  metadata_props { key: "k" value: "v" }
  metadata_props { key: "" value: "" }
  graph {
    name: "main"
    doc_string: ""
    node {
      input: "x"
      input: "c"
      output: "y"
      name: ""
      op_type: "Add"
      domain: ""
      overload: ""
      doc_string: "add doc"
      metadata_props { key: "nk" value: "nv" }
      device_configurations {
        configuration_id: "cfg"
        pipeline_stage: 1
        sharding_spec {
          tensor_name: "x"
          device: 0
          device: 1
          index_to_device_group_map { key: 0 value: 1 value: 2 }
          sharded_dim {
            axis: 0
            simple_sharding { dim_param: "N" num_shards: 2 }
          }
        }
      }
    }
    node {
      input: "cond"
      output: "z"
      op_type: "If"
      name: "if"
      attribute {
        name: "then_branch"
        type: GRAPH
        g {
          name: "then"
          node { input: "y" output: "t" op_type: "Identity" }
          output { name: "t" }
        }
      }
      attribute {
        name: "else_branch"
        type: GRAPH
        g {
          name: "else"
          output { name: "x" }
        }
      }
    }
    node {
      input: "z"
      input: ""
      output: "w"
      output: ""
      op_type: "MyFunc"
      domain: "com.example"
      overload: "v2"
      attribute { name: "beta" type: FLOAT f: 0 }
    }
    node {
      output: "c"
      op_type: "Constant"
      attribute {
        name: "value"
        type: TENSOR
        t { dims: 2 data_type: 10 int32_data: 15360 int32_data: 48128 }
      }
    }
    node {
      input: "x"
      output: "e"
      op_type: "Everything"
      domain: "com.example"
      attribute { name: "i" type: INT i: 0 doc_string: "attr doc" }
      attribute { name: "s" type: STRING s: "" }
      attribute { name: "fs" type: FLOATS floats: 1.5 floats: -0.0 }
      attribute { name: "is" type: INTS ints: -1 ints: 9223372036854775807 }
      attribute { name: "ss" type: STRINGS strings: "a" strings: "\377" }
      attribute { name: "no_ints" type: INTS }
      attribute {
        name: "ts"
        type: TENSORS
        tensors { name: "" data_type: 7 int64_data: 3 }
        tensors { dims: 0 data_type: 1 raw_data: "" }
      }
      attribute {
        name: "gs"
        type: GRAPHS
        graphs {
          name: "g1"
          output { name: "e_in" }
          input { name: "e_in" }
        }
      }
      attribute {
        name: "sp"
        type: SPARSE_TENSOR
        sparse_tensor {
          values { dims: 1 data_type: 1 float_data: 5 }
          indices { dims: 1 data_type: 7 int64_data: 2 }
          dims: 4
        }
      }
      attribute {
        name: "sps"
        type: SPARSE_TENSORS
        sparse_tensors {
          values { dims: 0 data_type: 1 }
          indices { dims: 0 data_type: 7 }
          dims: 3
        }
      }
      attribute {
        name: "tp"
        type: TYPE_PROTO
        tp { tensor_type { elem_type: 1 } }
      }
      attribute {
        name: "tps"
        type: TYPE_PROTOS
        type_protos {
          sparse_tensor_type {
            elem_type: 1
            shape { dim { dim_value: 3 } }
          }
        }
        type_protos { sequence_type { elem_type { tensor_type { elem_type: 7 } } } }
      }
    }
    initializer {
      name: "x"
      dims: 2
      data_type: 1
      float_data: 1
      float_data: 2
      doc_string: "init doc"
      metadata_props { key: "ik" value: "iv" }
    }
    initializer { name: "i8" dims: 3 data_type: 3 int32_data: -1 int32_data: 127 int32_data: -128 }
    initializer { name: "i16" dims: 2 data_type: 5 int32_data: -32768 int32_data: 32767 }
    initializer { name: "u16" dims: 2 data_type: 4 int32_data: 65535 int32_data: 0 }
    initializer { name: "b" dims: 2 data_type: 9 int32_data: 1 int32_data: 0 }
    initializer { name: "bf" dims: 1 data_type: 16 int32_data: 49024 }
    initializer { name: "f8" dims: 2 data_type: 17 int32_data: 255 int32_data: 1 }
    initializer { name: "e8m0" dims: 1 data_type: 24 int32_data: 127 }
    initializer { name: "u4" dims: 3 data_type: 21 int32_data: 33 int32_data: 5 }
    initializer { name: "i4" dims: 2 data_type: 22 int32_data: 248 }
    initializer { name: "f4" dims: 1 data_type: 23 int32_data: 7 }
    initializer { name: "i2" dims: 5 data_type: 26 int32_data: 228 int32_data: 1 }
    initializer { name: "u2" dims: 4 data_type: 25 int32_data: 27 }
    initializer { name: "i32" dims: 2 data_type: 6 int32_data: -2147483648 int32_data: 2147483647 }
    initializer { name: "u32" dims: 2 data_type: 12 uint64_data: 4294967295 uint64_data: 0 }
    initializer { name: "u64" dims: 1 data_type: 13 uint64_data: 18446744073709551615 }
    initializer { name: "i64" dims: 2 data_type: 7 int64_data: -5 int64_data: 9 }
    initializer { name: "d" dims: 1 data_type: 11 double_data: 0.1 }
    initializer { name: "c64" dims: 1 data_type: 14 float_data: 1 float_data: 2 }
    initializer { name: "c128" dims: 1 data_type: 15 double_data: 1 double_data: -2 }
    initializer { name: "str" dims: 2 data_type: 8 string_data: "a" string_data: "" }
    initializer {
      name: "raw"
      dims: 2
      data_type: 16
      raw_data: "\001\002\003\004"
      data_location: DEFAULT
    }
    initializer { name: "none" dims: 0 data_type: 1 }
    initializer { name: "empty_raw" dims: 0 data_type: 1 raw_data: "" }
    initializer {
      name: "seg"
      dims: 1
      data_type: 6
      int32_data: 7
      segment { begin: 0 end: 1 }
    }
    initializer { name: "scalar" data_type: 1 raw_data: "\000\000\200?" }
    initializer { name: "odd_type" dims: 1 data_type: 99 raw_data: "xyz" }
    sparse_initializer {
      values { name: "sp" dims: 2 data_type: 1 float_data: 1 float_data: 2 }
      indices { dims: 2 data_type: 7 int64_data: 0 int64_data: 3 }
      dims: 2
      dims: 2
    }
    input {
      name: "x"
      type {
        tensor_type {
          elem_type: 1
          shape { dim { dim_value: 2 denotation: "DATA_BATCH" } }
        }
        denotation: "TENSOR"
      }
      doc_string: "input doc"
      metadata_props { key: "vk" value: "vv" }
    }
    input {
      name: "cond"
      type {
        tensor_type {
          elem_type: 9
          shape {}
        }
      }
    }
    input { name: "untyped" }
    output {
      name: "w"
      type {
        sequence_type {
          elem_type {
            optional_type {
              elem_type {
                map_type {
                  key_type: 8
                  value_type { tensor_type { elem_type: 1 } }
                }
              }
            }
          }
        }
      }
    }
    output { name: "y" }
    output {
      name: "e"
      type {
        tensor_type {
          elem_type: 1
          shape { dim { dim_value: -1 } }
        }
      }
    }
    value_info {
      name: "y"
      type {
        tensor_type {
          elem_type: 1
          shape {
            dim { dim_param: "N" }
            dim {}
          }
        }
      }
    }
    value_info {
      name: "nowhere"
      type { tensor_type { elem_type: 2 } }
      doc_string: "dangling"
    }
    value_info {
      name: "z"
      type { tensor_type { elem_type: 1 } }
    }
    value_info {
      name: "x"
      type { tensor_type { elem_type: 1 } }
    }
    value_info {
      name: "i8"
      type { tensor_type { elem_type: 3 } }
      metadata_props { key: "a" value: "b" }
    }
    value_info {
      name: "z"
      type { tensor_type { elem_type: 1 } }
    }
    quantization_annotation {
      tensor_name: "y"
      quant_parameter_tensor_names { key: "SCALE_TENSOR" value: "x" }
    }
    metadata_props { key: "g" value: "1" }
  }
  functions {
    name: "MyFunc"
    domain: "com.example"
    overload: "v2"
    input: "a"
    input: "opt"
    output: "b"
    output: "b2"
    attribute: "gamma"
    attribute_proto { name: "beta" type: FLOAT f: 1 doc_string: "default doc" }
    node { input: "a" input: "a" output: "m" op_type: "Mul" }
    node {
      input: "m"
      output: "b"
      op_type: "LeakyRelu"
      attribute { name: "alpha" type: FLOAT ref_attr_name: "beta" }
    }
    node { input: "b" output: "b2" op_type: "Identity" }
    opset_import { domain: "" version: 21 }
    value_info {
      name: "m"
      type { tensor_type { elem_type: 1 } }
    }
    doc_string: "function doc"
    metadata_props { key: "fk" value: "fv" }
  }
  functions { name: "Empty" domain: "" }
  training_info {
    algorithm {
      name: "train"
      node { input: "x" output: "x2" op_type: "Neg" }
      output { name: "x2" }
    }
    update_binding { key: "x" value: "x2" }
  }
  configuration { name: "cfg" num_devices: 2 device: "gpu0" device: "gpu1" }
)pb";

onnx::ModelProto Parse(const std::string& text) {
  onnx::ModelProto p;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &p));
  return p;
}

void ExpectRoundTrip(const onnx::ModelProto& original) {
  absl::StatusOr<std::unique_ptr<Model>> model = LoadModelFromString(original.SerializeAsString());
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<std::string> bytes = SerializeModel(**model);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  onnx::ModelProto saved;
  ASSERT_TRUE(saved.ParseFromString(*bytes));
  std::string report;
  MessageDifferencer d;
  d.ReportDifferencesToString(&report);
  EXPECT_TRUE(d.Compare(original, saved)) << report;
  EXPECT_EQ(original.SerializeAsString(), *bytes);
}

TEST(Lossless, KitchenSinkRoundTrips) { ExpectRoundTrip(Parse(kKitchenSink)); }

TEST(Lossless, IrVersion3InitializersThatAreInputs) {
  ExpectRoundTrip(Parse(R"pb(
    ir_version: 3
    opset_import { version: 8 }
    graph {
      name: "g"
      node { input: "a" input: "w" output: "y" op_type: "Add" }
      initializer { name: "w" dims: 1 data_type: 1 raw_data: "\000\000\200?" }
      input {
        name: "w"
        type {
          tensor_type {
            elem_type: 1
            shape { dim { dim_value: 1 } }
          }
        }
      }
      input {
        name: "a"
        type {
          tensor_type {
            elem_type: 1
            shape { dim { dim_value: 1 } }
          }
        }
      }
      output {
        name: "y"
        type {
          tensor_type {
            elem_type: 1
            shape { dim { dim_value: 1 } }
          }
        }
      }
    })pb"));
}

TEST(Lossless, ForceRawDataWritesRawData) {
  onnx::ModelProto p = Parse(kKitchenSink);
  auto model = LoadModelFromString(p.SerializeAsString());
  ASSERT_TRUE(model.ok()) << model.status();
  SaveOptions options;
  options.force_raw_data = true;
  auto bytes = SerializeModel(**model, options);
  ASSERT_TRUE(bytes.ok());
  onnx::ModelProto saved;
  ASSERT_TRUE(saved.ParseFromString(*bytes));
  for (const auto& t : saved.graph().initializer()) {
    if (t.data_type() == onnx::TensorProto::STRING) continue;
    EXPECT_EQ(t.float_data_size() + t.int32_data_size() + t.int64_data_size() +
                  t.double_data_size() + t.uint64_data_size(),
              0)
        << t.name();
  }
  // Same bytes as the typed form: loading both gives equal tensors.
  auto reloaded = LoadModelFromString(*bytes);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  const auto& a = (*model)->graph().initializers();
  const auto& b = (*reloaded)->graph().initializers();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(a[i]->initializer()->ContentEquals(*b[i]->initializer())) << a[i]->name();
  }
}

TEST(Lossless, IrHoldsWhatTheFileSays) {
  onnx::ModelProto p = Parse(kKitchenSink);
  auto loaded = LoadModelFromString(p.SerializeAsString());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Model& model = **loaded;
  const Graph& g = model.graph();
  // "x" is a graph input with a default.
  const Value* x = g.inputs()[0];
  EXPECT_EQ(x->name(), "x");
  EXPECT_TRUE(x->is_graph_input());
  ASSERT_NE(x->initializer(), nullptr);
  EXPECT_EQ(x->initializer()->ToVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(x->initializer()->storage(), Tensor::Storage::kTyped);
  // Add (first in the file) uses the Constant's output although the Constant comes later.
  const Node* add = g.first_node();
  ASSERT_EQ(add->op_type(), "Add");
  ASSERT_NE(add->input(1), nullptr);
  EXPECT_EQ(add->input(1)->producer()->op_type(), "Constant");
  // The then-branch uses the outer "y" directly; the else-branch returns the outer "x".
  const Node* if_node = add->next();
  const Graph* then_g = if_node->FindAttribute("then_branch")->g.get();
  EXPECT_EQ(then_g->first_node()->input(0), add->output(0));
  EXPECT_EQ(then_g->parent_node(), if_node);
  EXPECT_EQ(if_node->FindAttribute("else_branch")->g->outputs()[0], x);
  // Omitted optional input and output.
  const Node* call = if_node->next();
  EXPECT_EQ(call->input(1), nullptr);
  EXPECT_TRUE(call->output(1)->is_omitted());
  // int8 typed data is sign-extended into the raw layout; int4 stays packed.
  for (const Value* v : g.initializers()) {
    if (v->name() == "i8") {
      EXPECT_EQ(v->initializer()->ToVector<int8_t>(), (std::vector<int8_t>{-1, 127, -128}));
    }
    if (v->name() == "u4") {
      EXPECT_EQ(v->initializer()->raw_size(), 2u);
    }
    if (v->name() == "none") {
      EXPECT_EQ(v->initializer()->storage(), Tensor::Storage::kNone);
    }
    if (v->name() == "empty_raw") {
      EXPECT_EQ(v->initializer()->storage(), Tensor::Storage::kRaw);
    }
    if (v->name() == "str") {
      EXPECT_EQ(v->initializer()->strings(), (std::vector<std::string>{"a", ""}));
    }
  }
  // "nowhere", the second "z", and "x" (described differently by the graph input).
  ASSERT_EQ(g.dangling_value_info().size(), 3u);
  // "y" takes its type from value_info; graph output "y" (no type) keeps its own description.
  EXPECT_TRUE(add->output(0)->type().is_tensor());
  ASSERT_TRUE(g.output_info(1).has_value());
  EXPECT_TRUE(g.output_info(1)->type.is_none());
  EXPECT_EQ(g.dangling_value_info()[0].name, "nowhere");
  ASSERT_EQ(model.functions().size(), 2u);
  const Function& f = *model.functions()[0];
  EXPECT_EQ(f.QualifiedName(), "com.example::MyFunc:v2");
  EXPECT_EQ(f.attribute_defaults()[0].f, 1.0f);
  EXPECT_TRUE(f.body().first_node()->next()->attributes()[0].is_reference());
  EXPECT_EQ(model.training_info().size(), 1u);
  EXPECT_EQ(model.configuration().size(), 1u);
  EXPECT_EQ(g.sparse_initializers().size(), 1u);
}

TEST(Lossless, EditedModelExportsTheEdit) {
  auto loaded = LoadModelFromString(Parse(kKitchenSink).SerializeAsString());
  ASSERT_TRUE(loaded.ok());
  Graph& g = (*loaded)->graph();
  g.inputs()[0]->set_name("renamed");
  auto bytes = SerializeModel(**loaded);
  ASSERT_TRUE(bytes.ok());
  onnx::ModelProto saved;
  ASSERT_TRUE(saved.ParseFromString(*bytes));
  EXPECT_EQ(saved.graph().input(0).name(), "renamed");
  EXPECT_EQ(saved.graph().initializer(0).name(), "renamed");
  EXPECT_EQ(saved.graph().node(0).input(0), "renamed");
  EXPECT_EQ(saved.graph().node(1).attribute(1).g().output(0).name(), "renamed");
}

}  // namespace
}  // namespace onnx_opt::ir::io
