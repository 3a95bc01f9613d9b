// Before a model of IR version < 4 is written: every initializer a pass created is also listed as a
// graph input, as IR <= 3 requires (ONNX's checker refuses an initializer that is not an input) and
// as IR 3 exporters list their weights. The model keeps its ir_version, so runtimes that only know
// IR 3 still load it.
//
// The new inputs go after the existing ones, typed and shaped from their tensors: callers that pass
// inputs by position see the same positions, and in a subgraph they follow the inputs the operator
// passes, where IR.md ("Names Within a Graph") puts IR <= 3 subgraph initializers.
#ifndef ONNX_OPT_OPTIMIZER_INITIALIZERS_AS_INPUTS_H_
#define ONNX_OPT_OPTIMIZER_INITIALIZERS_AS_INPUTS_H_

#include <cstdint>
#include <string>

#include "ir/model.h"

namespace onnx_opt::optimizer {

struct InitializersListedAsInputs {
  int64_t ir_version = 0;
  int64_t count = 0;  // over the main graph and its subgraphs

  // "ir_version 3: 2 new initializers listed as graph inputs"; empty when nothing was listed.
  std::string Summary() const;
};

// Does nothing for IR >= 4 (or an unset ir_version) and for initializers that are inputs already.
InitializersListedAsInputs ListInitializersAsInputs(ir::Model& model);

// The reverse, for a model raised from IR < 4 to IR >= 4: subgraph inputs that only list an
// initializer go (IR.md: from IR 4 a subgraph initializer must not also be a subgraph input). The
// main graph keeps its inputs, where an initializer that is an input is an overridable default.
// Returns how many went; does nothing below IR 4.
int64_t UnlistSubgraphInitializerInputs(ir::Model& model);

}  // namespace onnx_opt::optimizer

#endif  // ONNX_OPT_OPTIMIZER_INITIALIZERS_AS_INPUTS_H_
