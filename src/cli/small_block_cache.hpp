#pragma once
// A cache of freed small blocks in front of malloc, one per thread, for the planlint executable
// (src/cli/operator_new.cpp replaces the global operator new and delete with it).
//
// Why: a lint allocates and frees the same few sizes over and over (toml++ nodes and keys,
// plan values, metric inputs, strings), and keeps its findings until the report is written.
// glibc keeps only 7 freed blocks of a size in its per-thread cache; the rest go back into its
// bins, where the next allocation of that size searches, splits and merges them again
// (_int_malloc, malloc_consolidate, unlink_chunk: about a fifth of a 10,000-plan run's time).
// Here a freed block of up to 1,008 bytes goes on a list of its 16-byte size class, and the
// next allocation of that class takes it back in a few instructions. A block that no list
// holds is carved from a BlockRegion: runs of 1 to 64 KiB of one size class each, in address
// space reserved once, instead of asking malloc (about 120 instructions a block at start,
// where a one-plan run makes 3,500 allocations). A class's runs start at 1 KiB and grow with
// what it has carved, so that the 40-odd classes a short run uses share pages: 64 KiB chunks
// from the start left each class's last page partly used, ~20 page faults more for one plan.
// docs/performance.md has the measurements.
//
// Invariant: every block on the list of class c has room for at least c × 16 bytes, so any
// request of that class fits. A block reaches a list through a sized delete (the size it was
// allocated with, hence the class it was allocated in) or an unsized one, where the region's
// unit map says the class of a carved block and malloc_usable_size how much room a malloc'd one
// really has. Carved blocks never go to free(); malloc'd ones do, past the cap or when the
// thread ends.
#include <malloc.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace planlint::cli {

/// Address space that small blocks are carved from: reserved once (MAP_NORESERVE: a page costs
/// memory only once touched) and handed out in runs of whole 1 KiB units, each run serving one
/// size class; a byte per unit says its class, so that the class of a block is known from its
/// address. Shared by the threads; never unmapped while the process runs (blocks carved from it
/// stay in use until exit).
class BlockRegion {
 public:
  static constexpr std::size_t unit_bytes = std::size_t{1} << 10;  // holds a block of any class
  static constexpr std::size_t max_run_units = 64;                 // 64 KiB
  static constexpr std::size_t max_units = std::size_t{256} << 10;  // 256 MiB; past it, blocks come from malloc

  /// Reserves `units` units; an empty region (every carve fails) when mmap says no.
  explicit BlockRegion(std::size_t units) noexcept {
    if (units > max_units) units = max_units;
    void* base = mmap(nullptr, units * unit_bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) return;
    base_ = reinterpret_cast<std::uintptr_t>(base);
    bytes_ = units * unit_bytes;
    unit_count_ = units;
  }
  ~BlockRegion() {
    if (bytes_ != 0) munmap(reinterpret_cast<void*>(base_), bytes_);
  }
  BlockRegion(const BlockRegion&) = delete;
  BlockRegion& operator=(const BlockRegion&) = delete;

  bool contains(const void* block) const noexcept {
    return reinterpret_cast<std::uintptr_t>(block) - base_ < bytes_;
  }
  /// The size class of the run that holds `block` (contains(block) must be true).
  std::size_t size_class_of(const void* block) const noexcept {
    return unit_classes_[(reinterpret_cast<std::uintptr_t>(block) - base_) / unit_bytes];
  }
  /// A fresh run of `units` units for blocks of `size_class`, or null when the region has not
  /// that many left.
  char* take_run(std::size_t size_class, std::size_t units) noexcept {
    const std::size_t first = next_unit_.fetch_add(units, std::memory_order_relaxed);
    if (first >= unit_count_ || unit_count_ - first < units) return nullptr;
    if (units == 1) unit_classes_[first] = static_cast<std::uint8_t>(size_class);  // the most runs
    else std::memset(unit_classes_ + first, static_cast<int>(size_class), units);
    return reinterpret_cast<char*>(base_ + first * unit_bytes);
  }

 private:
  std::uintptr_t base_ = 0;
  std::size_t bytes_ = 0, unit_count_ = 0;
  std::atomic<std::size_t> next_unit_{0};
  // A unit's class is written before any block of it exists; a block reaches another thread
  // only through something that synchronises (a join, a lock), which carries this write along.
  // Not initialised: only the units handed out are read, and so the map's 256 KiB are
  // touched only as far as units are used (a byte per KiB carved).
  std::uint8_t unit_classes_[max_units];
};

class SmallBlockCache {
 public:
  static constexpr std::size_t granule_bytes = 16;
  // Classes 1..63: blocks of up to 1,008 bytes. Larger blocks go straight to malloc and free.
  static constexpr std::size_t class_count = 64;
  // A thread keeps at most this much memory on its lists; beyond it, blocks go back to free().
  static constexpr std::size_t max_cached_bytes = std::size_t{16} << 20;

  // The size class of a request: requests of 1 to 16 bytes are class 1, and so on. A request
  // of 0 bytes gets a block of class 1, as operator new must return a distinct pointer.
  static constexpr std::size_t size_class(std::size_t bytes) noexcept {
    return bytes == 0 ? 1 : (bytes + granule_bytes - 1) / granule_bytes;
  }

  /// Carves blocks that no list holds from `region` (else they come from malloc).
  void attach(BlockRegion* region) noexcept { region_ = region; }
  bool attached() const noexcept { return region_ != nullptr; }

  // A block of at least `bytes`, or null when malloc has no memory.
  void* allocate(std::size_t bytes) noexcept {
    if (void* block = take_listed(bytes)) return block;
    return allocate_unlisted(bytes);
  }

  // A block of at least `bytes` from its class's list, or null when the list is empty (or the
  // request is too large for a list). The fast path of allocate(): a few instructions, so that
  // operator new can inline it and call allocate_unlisted() only when it fails.
  void* take_listed(std::size_t bytes) noexcept {
    const std::size_t size_class_index = size_class(bytes);
    if (size_class_index >= class_count) return nullptr;
    FreeBlock* block = free_lists_[size_class_index];
    if (block == nullptr) return nullptr;
    FreeBlock* next = block->next;
    free_lists_[size_class_index] = next;
    // The next block of the class is read (its `next`) and written (by its new owner) at the
    // next allocation of the class; a freed block is usually out of the cache by then, and that
    // miss was 7.5% of a corpus run's time, in operator new alone. Fetched now, it overlaps with
    // the work in between. A prefetch of null does nothing.
    __builtin_prefetch(next, 1);
    if (!is_carved(block)) cached_bytes_ -= size_class_index * granule_bytes;
    return block;
  }

  // allocate() when take_listed() failed: a block carved from the region, or from malloc.
  void* allocate_unlisted(std::size_t bytes) noexcept {
    const std::size_t size_class_index = size_class(bytes);
    if (size_class_index >= class_count) return std::malloc(bytes);
    if (void* block = carve(size_class_index)) return block;
    return std::malloc(size_class_index * granule_bytes);
  }

  // Takes back a block that allocate(bytes) returned.
  void release(void* block, std::size_t bytes) noexcept { release_in_class(block, size_class(bytes)); }

  // Takes back a carved block (the common case: a carved block always goes on its list), or
  // returns false for release() or release_unsized() to take it: the fast path of operator
  // delete. `bytes` is the size it was allocated with, or 0 for an unsized delete. False
  // for a null pointer and while the cache is not attached.
  bool release_carved(void* block, std::size_t bytes) noexcept {
    if (!is_carved(block)) return false;
    const std::size_t size_class_index = bytes != 0 ? size_class(bytes) : region_->size_class_of(block);
    auto* free_block = static_cast<FreeBlock*>(block);
    free_block->next = free_lists_[size_class_index];
    free_lists_[size_class_index] = free_block;
    return true;
  }

  // Takes back a block whose size is not known (an unsized delete).
  void release_unsized(void* block) noexcept {
    if (block == nullptr) return;
    if (is_carved(block)) return release_in_class(block, region_->size_class_of(block));
    release_in_class(block, malloc_usable_size(block) / granule_bytes);
  }

  // Returns every cached malloc'd block to free() and forgets the carved ones (they stay in the
  // region); blocks released after this go straight to free(). Called when the thread ends.
  void close() noexcept {
    limit_bytes_ = 0;
    for (FreeBlock*& head : free_lists_) {
      while (FreeBlock* block = head) {
        head = block->next;
        if (!is_carved(block)) std::free(block);
      }
    }
    cached_bytes_ = 0;
  }

  /// The bytes of malloc'd blocks on the lists (what close() would give back).
  std::size_t cached_bytes() const noexcept { return cached_bytes_; }

 private:
  struct FreeBlock {
    FreeBlock* next;
  };

  bool is_carved(const void* block) const noexcept { return region_ && region_->contains(block); }

  void* carve(std::size_t size_class_index) noexcept {
    if (region_ == nullptr) return nullptr;
    const std::size_t class_bytes = size_class_index * granule_bytes;
    char*& next = carve_next_[size_class_index];
    if (next == nullptr ||
        static_cast<std::size_t>(carve_end_[size_class_index] - next) < class_bytes) {
      // A run a quarter of what the class has carved: 1 KiB while it is small, 64 KiB at most.
      const std::size_t units =
          std::clamp<std::size_t>(carved_units_[size_class_index] / 4, 1, BlockRegion::max_run_units);
      char* run = region_->take_run(size_class_index, units);
      if (run == nullptr) return nullptr;
      carved_units_[size_class_index] += static_cast<std::uint32_t>(units);
      next = run;
      carve_end_[size_class_index] = run + units * BlockRegion::unit_bytes;
    }
    void* block = next;
    next += class_bytes;
    return block;
  }

  void release_in_class(void* block, std::size_t size_class_index) noexcept {
    if (block == nullptr) return;
    const std::size_t class_bytes = size_class_index * granule_bytes;
    const bool carved = is_carved(block);
    // No list for the class: a malloc'd block goes back to free(); a carved block never has
    // such a class (only a delete with another size than its new could say one).
    if (size_class_index == 0 || size_class_index >= class_count) {
      if (!carved) std::free(block);
      return;
    }
    // A carved block can only be reused: it always goes on its list.
    if (!carved && cached_bytes_ + class_bytes > limit_bytes_) {
      std::free(block);
      return;
    }
    auto* free_block = static_cast<FreeBlock*>(block);
    free_block->next = free_lists_[size_class_index];
    free_lists_[size_class_index] = free_block;
    if (!carved) cached_bytes_ += class_bytes;
  }

  BlockRegion* region_ = nullptr;
  FreeBlock* free_lists_[class_count] = {};
  char* carve_next_[class_count] = {};
  char* carve_end_[class_count] = {};
  std::uint32_t carved_units_[class_count] = {};  // units of the region each class has taken
  std::size_t cached_bytes_ = 0;
  std::size_t limit_bytes_ = max_cached_bytes;  // 0 once closed
};

}  // namespace planlint::cli
