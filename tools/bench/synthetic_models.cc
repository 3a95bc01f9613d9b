#include "tools/bench/synthetic_models.h"

#include <random>
#include <string>
#include <vector>

namespace onnx_opt::bench {
namespace {

std::unique_ptr<ir::Model> NewModel(ir::Value** input) {
  auto model = std::make_unique<ir::Model>();
  model->set_ir_version(8);
  model->mutable_opset_imports().push_back({"", 17});
  *input = model->graph().AddInput(
      "X", ir::Type::Tensor(ir::DataType::kFloat, ir::Shape::FromSizes({16})));
  return model;
}

ir::Value* Constant(ir::Graph& g, const std::string& name, float value) {
  ir::Tensor t = ir::Tensor::FromVector<float>(ir::DataType::kFloat, {}, {value});
  t.set_name(name);
  return g.AddInitializer(std::move(t));
}

ir::Value* Op(ir::Graph& g, const char* op, std::vector<ir::Value*> inputs, int64_t& counter) {
  return g.AddNode(op, inputs, {"v" + std::to_string(counter++)})->output(0);
}

}  // namespace

std::unique_ptr<ir::Model> MakeChain(int64_t nodes) {
  ir::Value* x;
  auto model = NewModel(&x);
  ir::Graph& g = model->graph();
  ir::Value* zero = Constant(g, "zero", 0.0f);
  ir::Value* half = Constant(g, "half", 0.5f);
  int64_t counter = 0;
  ir::Value* v = x;
  // Each block of 8 nodes: Identity, x+0, a duplicated Relu pair, a foldable constant pair, Mul, a
  // dead Neg.
  while (counter < nodes) {
    v = Op(g, "Identity", {v}, counter);
    v = Op(g, "Add", {v, zero}, counter);
    ir::Value* a = Op(g, "Relu", {v}, counter);
    ir::Value* b = Op(g, "Relu", {v}, counter);
    ir::Value* c = Op(g, "Mul", {half, half}, counter);
    ir::Value* d = Op(g, "Add", {a, b}, counter);
    v = Op(g, "Mul", {d, c}, counter);
    Op(g, "Neg", {v}, counter);
  }
  g.AddOutput(v);
  return model;
}

std::unique_ptr<ir::Model> MakeDag(int64_t nodes, uint64_t seed) {
  ir::Value* x;
  auto model = NewModel(&x);
  ir::Graph& g = model->graph();
  ir::Value* one = Constant(g, "one", 1.0f);
  std::mt19937_64 rng(seed);
  std::vector<ir::Value*> recent = {x};
  int64_t counter = 0;
  const char* unary[] = {"Relu", "Neg", "Identity", "Abs"};
  const char* binary[] = {"Add", "Mul", "Sub", "Max"};
  while (counter < nodes) {
    auto pick = [&] { return recent[rng() % recent.size()]; };
    ir::Value* v;
    switch (rng() % 4) {
      case 0:
        v = Op(g, unary[rng() % 4], {pick()}, counter);
        break;
      case 1:
        v = Op(g, "Mul", {pick(), one}, counter);
        break;
      default:
        v = Op(g, binary[rng() % 4], {pick(), pick()}, counter);
        break;
    }
    recent.push_back(v);
    if (recent.size() > 64) recent.erase(recent.begin());
  }
  g.AddOutput(recent.back());
  return model;
}

}  // namespace onnx_opt::bench
