// Weights of a model that is kept for many runs (onnx-run --repeat, a Python Session), read once
// out of their file mappings into memory on transparent huge pages. A decode step streams every
// weight once per run, and on a virtual machine a 4 KiB page costs a nested page walk per TLB miss:
// a single thread read mapped float weights at 8.8-9 GB/s and the same bytes on 2 MiB pages at
// 13.5-15.6 GB/s (tools/bench:decode_matmul_bench --huge_pages, Sapphire Rapids VM). A model read
// once (a single run, --verify, folding) keeps its mapping: the copy costs more than it saves
// there.
#ifndef ONNX_OPT_IR_RESIDENT_WEIGHTS_H_
#define ONNX_OPT_IR_RESIDENT_WEIGHTS_H_

#include <cstddef>
#include <optional>

#include "absl/status/statusor.h"
#include "ir/graph.h"

namespace onnx_opt::ir {

struct ResidentWeights {
  size_t files = 0;  // mapped files read into memory
  size_t bytes = 0;  // their size
};

// Reads each file that `graph`'s initializers (and its subgraphs') are mapped from into memory on
// huge pages and points those tensors at the copy; the mapping goes when nothing else views it (a
// Constant node's value attribute, rarely that large, keeps viewing it).
// Files under MappedFile::kKeepResidentBelow are left alone (their pages stay resident anyway), and
// so is everything when the files add up to more than `max_bytes` (by default half the memory the
// system has available: a model larger than that stays mapped, its pages let go of behind each
// run); reading stops at the first file the kernel gives no huge pages for. An error only when a
// file cannot be read back.
absl::StatusOr<ResidentWeights> ReadMappedWeightsIntoMemory(
    Graph& graph, std::optional<size_t> max_bytes = std::nullopt);

}  // namespace onnx_opt::ir

#endif  // ONNX_OPT_IR_RESIDENT_WEIGHTS_H_
