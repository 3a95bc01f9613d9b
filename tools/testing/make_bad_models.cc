// Writes hostile and broken models into a folder, for the command-line tools' test:
//   truncated.onnx random.onnx cycle.onnx undefined_input.onnx duplicate_output.onnx
//   deep_nesting.onnx huge_dims.onnx escaping_external_data.onnx two_value_attribute.onnx
//   if_output_count.onnx float8_at_ir8.onnx
// Usage: make_bad_models VALID_MODEL OUTPUT_DIR
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

#include "proto/onnx.pb.h"

namespace {

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

onnx::ModelProto Base() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* in = g->add_input();
  in->set_name("X");
  in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  auto* out = g->add_output();
  out->CopyFrom(*in);
  out->set_name("Y");
  return m;
}

void AddNode(onnx::GraphProto* g, const std::string& op, const std::string& in,
             const std::string& out) {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->add_input(in);
  n->add_output(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_bad_models VALID_MODEL OUTPUT_DIR\n";
    return 2;
  }
  const std::string dir = argv[2];
  std::ifstream valid(argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << valid.rdbuf();
  const std::string bytes = buffer.str();
  if (bytes.size() < 200) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 1;
  }
  Write(dir + "/truncated.onnx", bytes.substr(0, bytes.size() / 2));

  std::mt19937 rng(7);
  std::string noise(4096, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  Write(dir + "/random.onnx", noise);

  {
    onnx::ModelProto m = Base();
    AddNode(m.mutable_graph(), "Relu", "B", "A");
    AddNode(m.mutable_graph(), "Neg", "A", "B");
    AddNode(m.mutable_graph(), "Abs", "B", "Y");
    Write(dir + "/cycle.onnx", m.SerializeAsString());
  }
  {
    onnx::ModelProto m = Base();
    AddNode(m.mutable_graph(), "Relu", "missing", "Y");
    Write(dir + "/undefined_input.onnx", m.SerializeAsString());
  }
  {
    onnx::ModelProto m = Base();
    AddNode(m.mutable_graph(), "Relu", "X", "Y");
    AddNode(m.mutable_graph(), "Neg", "X", "Y");
    Write(dir + "/duplicate_output.onnx", m.SerializeAsString());
  }
  {
    // If inside If inside If ... 1000 levels deep.
    onnx::ModelProto m = Base();
    onnx::GraphProto* g = m.mutable_graph();
    auto* cond = g->add_input();
    cond->set_name("C");
    cond->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    cond->mutable_type()->mutable_tensor_type()->mutable_shape();
    for (int level = 0; level < 1000; ++level) {
      auto* n = g->add_node();
      n->set_op_type("If");
      n->add_input("C");
      n->add_output(level == 0 ? "Y" : "y" + std::to_string(level));
      auto* a = n->add_attribute();
      a->set_name("then_branch");
      a->set_type(onnx::AttributeProto::GRAPH);
      g = a->mutable_g();
      g->set_name("level" + std::to_string(level));
      g->add_output()->set_name("y" + std::to_string(level + 1));
    }
    AddNode(g, "Identity", "X", "y1000");
    Write(dir + "/deep_nesting.onnx", m.SerializeAsString());
  }
  {
    onnx::ModelProto m = Base();
    auto* t = m.mutable_graph()->add_initializer();
    t->set_name("W");
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(int64_t{1} << 31);
    t->add_dims(int64_t{1} << 31);
    t->set_raw_data(std::string(4, '\0'));
    AddNode(m.mutable_graph(), "Relu", "X", "Y");
    Write(dir + "/huge_dims.onnx", m.SerializeAsString());
  }
  {
    onnx::ModelProto m = Base();
    auto* t = m.mutable_graph()->add_initializer();
    t->set_name("W");
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(2);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* e = t->add_external_data();
    e->set_key("location");
    e->set_value("../../etc/passwd");
    auto* n = m.mutable_graph()->add_node();
    n->set_op_type("Add");
    n->add_input("X");
    n->add_input("W");
    n->add_output("Y");
    Write(dir + "/escaping_external_data.onnx", m.SerializeAsString());
  }
  {
    // IR.md: an attribute MUST have only one of the value-carrying fields.
    onnx::ModelProto m = Base();
    AddNode(m.mutable_graph(), "LeakyRelu", "X", "Y");
    auto* a = m.mutable_graph()->mutable_node(0)->add_attribute();
    a->set_name("alpha");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(0.1f);
    a->set_i(1);
    Write(dir + "/two_value_attribute.onnx", m.SerializeAsString());
  }
  {
    // An If whose branches produce two outputs for a node that has one.
    onnx::ModelProto m = Base();
    onnx::GraphProto* g = m.mutable_graph();
    auto* cond = g->add_input();
    cond->set_name("C");
    cond->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    cond->mutable_type()->mutable_tensor_type()->mutable_shape();
    auto* n = g->add_node();
    n->set_op_type("If");
    n->add_input("C");
    n->add_output("Y");
    for (const char* branch : {"then_branch", "else_branch"}) {
      auto* a = n->add_attribute();
      a->set_name(branch);
      a->set_type(onnx::AttributeProto::GRAPH);
      onnx::GraphProto* b = a->mutable_g();
      b->set_name(std::string(branch) + "_g");
      AddNode(b, "Relu", "X", std::string(branch) + "_a");
      AddNode(b, "Neg", "X", std::string(branch) + "_b");
      b->add_output()->set_name(std::string(branch) + "_a");
      b->add_output()->set_name(std::string(branch) + "_b");
    }
    Write(dir + "/if_output_count.onnx", m.SerializeAsString());
  }
  {
    // A float8 input in an IR 8 model (float8 came with IR 9), at opset 19 where Cast takes it.
    onnx::ModelProto m = Base();
    m.mutable_opset_import(0)->set_version(19);
    onnx::GraphProto* g = m.mutable_graph();
    g->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
        onnx::TensorProto::FLOAT8E4M3FN);
    AddNode(g, "Cast", "X", "Y");
    auto* to = g->mutable_node(0)->add_attribute();
    to->set_name("to");
    to->set_type(onnx::AttributeProto::INT);
    to->set_i(onnx::TensorProto::FLOAT);
    Write(dir + "/float8_at_ir8.onnx", m.SerializeAsString());
  }
  return 0;
}
