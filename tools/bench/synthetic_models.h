// Synthetic models of any size for benchmarks: long chains and random DAGs with work for every pass
// (Identity nodes, neutral Adds, duplicate subexpressions, constant subgraphs, dead branches).
#ifndef ONNX_OPT_TOOLS_BENCH_SYNTHETIC_MODELS_H_
#define ONNX_OPT_TOOLS_BENCH_SYNTHETIC_MODELS_H_

#include <cstdint>
#include <memory>

#include "ir/model.h"

namespace onnx_opt::bench {

// About `nodes` nodes in one long chain over a float[16] input.
std::unique_ptr<ir::Model> MakeChain(int64_t nodes);

// About `nodes` nodes where each node reads one or two of the 64 most recent values (bounded
// fan-out), seeded for repeatability.
std::unique_ptr<ir::Model> MakeDag(int64_t nodes, uint64_t seed = 1);

}  // namespace onnx_opt::bench

#endif  // ONNX_OPT_TOOLS_BENCH_SYNTHETIC_MODELS_H_
