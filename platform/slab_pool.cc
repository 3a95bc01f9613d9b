#include "platform/slab_pool.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "glog/logging.h"
#include "platform/memory_pages.h"

namespace onnx_opt::platform {
namespace {

// A full slab is one 2 MiB page, filled whole with slots and backed by a huge page, which is
// resident whole once touched, so a part left unused would be memory paid for twice. The first
// slabs are smaller (64 KiB, doubling up to 1 MiB) and come from the ordinary heap: a huge page is
// zeroed whole on its first touch (~130 us), and a pool of its own for each kind cost a ~700-node
// model two such pages for ~0.6 MB of nodes and values. Large graphs still live almost entirely in
// full slabs.
constexpr size_t kFirstSlab = size_t{64} << 10;
constexpr size_t kCacheLine = 64;

// Objects of a cache line or more start on a line, so that the fields a walk reads first (they come
// first in Node and Value) cost one line, not two.
size_t RoundUp(size_t size) {
  const size_t a = size >= kCacheLine ? kCacheLine : alignof(std::max_align_t);
  return (size + a - 1) / a * a;
}

}  // namespace

void SlabPool::Slab::FreeMemory::operator()(std::byte* p) const { std::free(p); }

// Hands out the free slot with the lowest address in the oldest slab that has one, so that objects
// created one after another sit next to each other even after others were freed: a free list (last
// freed, first reused) would scatter a model built after another one died over the whole pool, and
// walks over it would miss the cache on every node.
void* SlabPool::Allocate(size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  if (slot_size_ == 0) {
    slot_size_ = RoundUp(size);
    CHECK_LE(slot_size_, kFirstSlab) << "object too large for the slab pool";
  }
  CHECK_LE(size, slot_size_) << "slab pool used for objects of different sizes";
  if (with_free_.empty()) AddSlab();
  const size_t index = *with_free_.begin();
  Slab& slab = slabs_[index];
  size_t word = slab.first_free_word;
  while (slab.free_bits[word] == 0) ++word;  // the slab has a free slot, so this stops
  slab.first_free_word = word;
  const int bit = __builtin_ctzll(slab.free_bits[word]);
  slab.free_bits[word] &= slab.free_bits[word] - 1;
  if (--slab.free_count == 0) with_free_.erase(with_free_.begin());
  return slab.memory.get() + slot_size_ * (word * 64 + bit);
}

void SlabPool::Free(void* p) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto* slot = static_cast<const std::byte*>(p);
  auto it = by_address_.upper_bound(slot);
  CHECK(it != by_address_.begin()) << "freeing memory the slab pool did not hand out";
  const size_t index = std::prev(it)->second;
  Slab& slab = slabs_[index];
  const size_t pos = static_cast<size_t>(slot - slab.memory.get()) / slot_size_;
  CHECK_LT(pos, slab.slots) << "freeing memory the slab pool did not hand out";
  const size_t word = pos / 64;
  const uint64_t mask = uint64_t{1} << (pos % 64);
  CHECK((slab.free_bits[word] & mask) == 0) << "slot freed twice";
  slab.free_bits[word] |= mask;
  slab.first_free_word = std::min(slab.first_free_word, word);
  if (slab.free_count++ == 0) with_free_.insert(index);
}

void SlabPool::AddSlab() {
  Slab slab;
  // 64 KiB, 128 KiB, ... 1 MiB, then whole 2 MiB pages, aligned and marked for transparent huge
  // pages where the kernel offers them: a walk over a large graph then stays within a few TLB
  // entries.
  const size_t doublings = std::min<size_t>(slabs_.size(), 5);
  const size_t bytes = std::min(kFirstSlab << doublings, kHugePageBytes);
  void* memory = std::aligned_alloc(bytes == kHugePageBytes ? kHugePageBytes : kCacheLine, bytes);
  CHECK(memory != nullptr) << "out of memory for a slab of " << bytes << " bytes";
  if (bytes == kHugePageBytes) (void)AdviseHugePages(memory, bytes);
  slab.memory.reset(static_cast<std::byte*>(memory));
  slab.slots = bytes / slot_size_;
  slab.free_bits.assign((slab.slots + 63) / 64, ~uint64_t{0});
  if (slab.slots % 64 != 0) slab.free_bits.back() = (uint64_t{1} << (slab.slots % 64)) - 1;
  slab.free_count = slab.slots;
  by_address_[slab.memory.get()] = slabs_.size();
  with_free_.insert(slabs_.size());
  slabs_.push_back(std::move(slab));
}

}  // namespace onnx_opt::platform
