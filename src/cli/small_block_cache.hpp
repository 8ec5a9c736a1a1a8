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
// next allocation of that class takes it back in a few instructions. docs/performance.md has
// the measurements.
//
// Invariant: every block on the list of class c has room for at least c × 16 bytes, so any
// request of that class fits. A block reaches a list either through a sized delete (the size
// it was allocated with, hence the class it was allocated in) or through an unsized one, where
// malloc_usable_size says how much room it really has.
#include <cstddef>
#include <cstdlib>

namespace planlint::cli {

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

  // A block of at least `bytes`, or null when malloc has no memory.
  void* allocate(std::size_t bytes) noexcept {
    const std::size_t size_class_index = size_class(bytes);
    if (size_class_index >= class_count) return std::malloc(bytes);
    if (FreeBlock* block = free_lists_[size_class_index]) {
      free_lists_[size_class_index] = block->next;
      cached_bytes_ -= size_class_index * granule_bytes;
      return block;
    }
    return std::malloc(size_class_index * granule_bytes);
  }

  // Takes back a block that allocate(bytes) returned.
  void release(void* block, std::size_t bytes) noexcept { release_in_class(block, size_class(bytes)); }

  // Takes back a block of which only the usable size is known (an unsized delete):
  // `usable_bytes` is what malloc_usable_size says the block holds.
  void release_usable(void* block, std::size_t usable_bytes) noexcept {
    release_in_class(block, usable_bytes / granule_bytes);
  }

  // Returns every cached block to free(); blocks released after this go straight to free().
  // Called when the thread ends.
  void close() noexcept {
    limit_bytes_ = 0;
    for (FreeBlock*& head : free_lists_) {
      while (FreeBlock* block = head) {
        head = block->next;
        std::free(block);
      }
    }
    cached_bytes_ = 0;
  }

  std::size_t cached_bytes() const noexcept { return cached_bytes_; }

 private:
  struct FreeBlock {
    FreeBlock* next;
  };

  void release_in_class(void* block, std::size_t size_class_index) noexcept {
    if (block == nullptr) return;
    const std::size_t class_bytes = size_class_index * granule_bytes;
    if (size_class_index == 0 || size_class_index >= class_count ||
        cached_bytes_ + class_bytes > limit_bytes_) {
      std::free(block);
      return;
    }
    auto* free_block = static_cast<FreeBlock*>(block);
    free_block->next = free_lists_[size_class_index];
    free_lists_[size_class_index] = free_block;
    cached_bytes_ += class_bytes;
  }

  FreeBlock* free_lists_[class_count] = {};
  std::size_t cached_bytes_ = 0;
  std::size_t limit_bytes_ = max_cached_bytes;  // 0 once closed
};

}  // namespace planlint::cli
