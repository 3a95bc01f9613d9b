#include "ir/resident_weights.h"

#include <unistd.h>

#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "ir/buffer.h"
#include "ir/node.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "platform/memory_pages.h"

namespace onnx_opt::ir {
namespace {

// The initializers of `graph` and of every graph nested in its nodes that view a large mapped file,
// grouped by file (in first-seen order, so reads go in a reproducible order).
void CollectMapped(Graph& graph, std::vector<const MappedFile*>& order,
                   absl::flat_hash_map<const MappedFile*, std::vector<Tensor*>>& tensors) {
  for (Value* v : graph.initializers()) {
    Tensor* t = v->mutable_initializer();
    if (t == nullptr || t->buffer() == nullptr || t->raw_size() == 0) continue;
    const auto* file = dynamic_cast<const MappedFile*>(t->buffer().get());
    if (file == nullptr || file->size() < MappedFile::kKeepResidentBelow) continue;
    std::vector<Tensor*>& list = tensors[file];
    if (list.empty()) order.push_back(file);
    list.push_back(t);
  }
  for (Node* node : graph.nodes()) {
    if (!node->may_have_subgraphs()) continue;
    for (Graph* sub : node->subgraphs()) CollectMapped(*sub, order, tensors);
  }
}

}  // namespace

absl::StatusOr<ResidentWeights> ReadMappedWeightsIntoMemory(Graph& graph,
                                                            std::optional<size_t> max_bytes) {
  std::vector<const MappedFile*> order;
  absl::flat_hash_map<const MappedFile*, std::vector<Tensor*>> tensors;
  CollectMapped(graph, order, tensors);
  size_t total = 0;
  for (const MappedFile* file : order) total += file->size();
  ResidentWeights done;
  if (order.empty() || total > max_bytes.value_or(platform::AvailableMemoryBytes() / 2))
    return done;
  for (const MappedFile* file : order) {
    // Held until the loop is done with `file`: re-pointing its last tensor would free it otherwise.
    const std::shared_ptr<const Buffer> mapping = tensors[file].front()->buffer();
    const int fd = file->Reopen();
    if (fd < 0) continue;  // replaced on disk since it was mapped: keep the mapping's bytes
    absl::StatusOr<std::shared_ptr<HugePageFile>> copy =
        HugePageFile::Read(fd, file->size(), file->path());
    ::close(fd);
    if (!copy.ok()) return copy.status();
    if (*copy == nullptr) return done;  // no huge pages: the copy would buy nothing
    const std::shared_ptr<const Buffer> bytes = *std::move(copy);
    for (Tensor* t : tensors[file]) {
      const size_t offset = static_cast<size_t>(t->raw_data() - file->data());
      t->SetRawView(bytes, offset, t->raw_size());
    }
    ++done.files;
    done.bytes += file->size();
  }
  return done;
}

}  // namespace onnx_opt::ir
