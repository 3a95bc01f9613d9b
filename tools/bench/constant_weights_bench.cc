// Runs of a model whose weights are computed at run time, as some exports write them (each weight a
// ConstantOfShape of ones times a Constant holding its values): the evaluator computes them on its
// first run and reuses them on later runs (EvaluatorOptions::cache_constants), and this shows what
// that saves. ResNet-50 from the zoo (tools/bench/model_zoo.h), batch 1, one interpreter thread.
//
//   bazel run -c opt //tools/bench:constant_weights_bench
//   bazel run -c opt //tools/bench:constant_weights_bench -- --write=DIR   # DIR/model.onnx,
//   input_0.pb
//
// Benchmarks, ms per run (medians of 5 repetitions unless --benchmark_repetitions is given):
//   resnet50/later_runs               the zoo model, weights as initializers: the floor
//   built_weights/later_runs          weights built at run time, one evaluator kept (cached)
//   built_weights/later_runs_uncached the same with cache_constants off: every run builds them
//   built_weights/first_run           a new evaluator per run (one-shot callers), cache on
//   built_weights/first_run_uncached  a new evaluator per run, cache off
// --write saves the model and its input instead, for onnx-run --repeat=N --time.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "interpreter/evaluator.h"
#include "ir/io/model_io.h"
#include "ir/status_macros.h"
#include "tools/bench/model_zoo.h"

namespace onnx_opt::bench {
namespace {

// Weights of fewer elements (BatchNormalization's, the biases) stay initializers.
constexpr uint64_t kMinBuiltElements = 1024;

// Each float initializer of `model`'s main graph with kMinBuiltElements or more (and not a graph
// input) becomes Mul(ConstantOfShape<value=1>(shape), Constant<value=W>), placed before its first
// user, so the model computes the same outputs while building its weights on every run.
absl::Status BuildWeightsAtRunTime(ir::Model& model) {
  ir::Graph& g = model.graph();
  const std::vector<ir::Value*> initializers = g.initializers();
  std::vector<ir::Value*> replaced;
  for (ir::Value* w : initializers) {
    const ir::Tensor& t = *w->initializer();
    if (t.data_type() != ir::DataType::kFloat || w->is_graph_input() || !w->has_uses() ||
        t.num_elements().value_or(0) < kMinBuiltElements) {
      continue;
    }
    ir::Node* first_user = nullptr;
    for (ir::Node* n : g.nodes()) {
      for (const ir::Value* v : n->inputs()) {
        if (v == w && first_user == nullptr) first_user = n;
      }
    }
    if (first_user == nullptr) continue;  // read by graph outputs or subgraphs only
    const std::vector<int64_t>& dims = t.dims();
    ir::Tensor shape = ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64,
                                                       {static_cast<int64_t>(dims.size())}, dims);
    shape.set_name(w->name() + "_shape");
    ir::Value* shape_value = g.AddInitializer(std::move(shape));
    auto fill = ir::Node::Create("", "ConstantOfShape", {shape_value}, {w->name() + "_ones"});
    fill->SetAttribute(ir::Attribute::FromTensor(
        "value", ir::Tensor::FromVector<float>(ir::DataType::kFloat, {1}, {1})));
    auto values = ir::Node::Create("", "Constant", {}, {w->name() + "_values"});
    ir::Tensor copy = t;
    copy.set_name("");
    values->SetAttribute(ir::Attribute::FromTensor("value", std::move(copy)));
    ir::Node* fill_node = g.InsertBefore(first_user, std::move(fill));
    ir::Node* values_node = g.InsertBefore(first_user, std::move(values));
    auto mul = ir::Node::Create("", "Mul", {fill_node->output(0), values_node->output(0)},
                                {w->name() + "_built"});
    ir::Node* mul_node = g.InsertBefore(first_user, std::move(mul));
    w->ReplaceAllUsesWith(mul_node->output(0));
    replaced.push_back(w);
  }
  return g.RemoveInitializers(replaced);
}

struct Case {
  ZooModel zoo;
  NamedInputs inputs;
};

void BM_LaterRuns(benchmark::State& state, const Case* c, bool cache) {
  interpreter::Evaluator evaluator(*c->zoo.model, {.cache_constants = cache});
  if (absl::Status s = evaluator.RunByName(c->inputs).status();
      !s.ok()) {  // the first run, not timed
    state.SkipWithError(std::string(s.message()).c_str());
    return;
  }
  for (auto _ : state) {
    auto outputs = evaluator.RunByName(c->inputs);
    if (!outputs.ok()) {
      state.SkipWithError(std::string(outputs.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(outputs->data());
  }
}

void BM_FirstRun(benchmark::State& state, const Case* c, bool cache) {
  for (auto _ : state) {
    interpreter::Evaluator evaluator(*c->zoo.model, {.cache_constants = cache});
    auto outputs = evaluator.RunByName(c->inputs);
    if (!outputs.ok()) {
      state.SkipWithError(std::string(outputs.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(outputs->data());
  }
}

absl::StatusOr<Case> MakeCase(bool built_weights) {
  ASSIGN_OR_RETURN(ZooModel zoo, MakeResNet50({.image_size = 224}));
  if (built_weights) RETURN_IF_ERROR(BuildWeightsAtRunTime(*zoo.model));
  NamedInputs inputs = zoo.make_inputs(1);
  return Case{std::move(zoo), std::move(inputs)};
}

absl::Status Write(const Case& c, const std::string& dir) {
  RETURN_IF_ERROR(ir::io::SaveModel(*c.zoo.model, dir + "/model.onnx"));
  const ir::Value* input = c.zoo.model->graph().inputs()[0];
  ir::Tensor t = c.inputs.at(input->name()).tensor().ToIr();
  t.set_name(input->name());
  return ir::io::SaveTensorProtoFile(t, dir + "/input_0.pb");
}

int Main(int argc, char** argv) {
  std::string write_dir;
  bool repetitions_given = false;
  std::vector<char*> args = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--write=", 8) == 0) {
      write_dir = argv[i] + 8;
      continue;
    }
    repetitions_given |= std::strncmp(argv[i], "--benchmark_repetitions", 23) == 0;
    args.push_back(argv[i]);
  }
  std::string repetitions = "--benchmark_repetitions=5",
              aggregates = "--benchmark_report_aggregates_only=true";
  if (!repetitions_given) {
    args.push_back(repetitions.data());
    args.push_back(aggregates.data());
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 2;
  absl::StatusOr<Case> built = MakeCase(true);
  if (!built.ok()) {
    std::cerr << "constant_weights_bench: " << built.status().message() << "\n";
    return 1;
  }
  if (!write_dir.empty()) {
    if (absl::Status s = Write(*built, write_dir); !s.ok()) {
      std::cerr << "constant_weights_bench: " << s.message() << "\n";
      return 1;
    }
    std::cout << write_dir << "/model.onnx\n";
    return 0;
  }
  absl::StatusOr<Case> plain = MakeCase(false);
  if (!plain.ok()) {
    std::cerr << "constant_weights_bench: " << plain.status().message() << "\n";
    return 1;
  }
  auto add = [](const char* name, auto fn, const Case* c, bool cache) {
    benchmark::RegisterBenchmark(name, fn, c, cache)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  add("resnet50/later_runs", BM_LaterRuns, &*plain, true);
  add("built_weights/later_runs", BM_LaterRuns, &*built, true);
  add("built_weights/later_runs_uncached", BM_LaterRuns, &*built, false);
  add("built_weights/first_run", BM_FirstRun, &*built, true);
  add("built_weights/first_run_uncached", BM_FirstRun, &*built, false);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace onnx_opt::bench

int main(int argc, char** argv) { return onnx_opt::bench::Main(argc, argv); }
