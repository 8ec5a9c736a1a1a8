// Linked into the planlint executable only (CMakeLists.txt, PLANLINT_BLOCK_CACHE; not into the
// sanitizer and fuzz builds, whose own operator new checks every delete against its new):
// the global operator new and delete go through a per-thread SmallBlockCache
// (small_block_cache.hpp says why).
#include <unistd.h>

#include <cstddef>
#include <new>

#include "cli/small_block_cache.hpp"

namespace {

using planlint::cli::BlockRegion;
using planlint::cli::SmallBlockCache;

constinit thread_local SmallBlockCache block_cache;

// Returns a worker thread's cached malloc'd blocks to malloc when the thread ends; its carved
// blocks stay unused in the region (planlint ends its worker threads once, just before it
// writes the report). The main thread's are left for the process exit to take back: freeing
// them one by one would only cost time.
struct BlockCacheOwner {
  BlockCacheOwner() = default;
  BlockCacheOwner(const BlockCacheOwner&) = delete;
  BlockCacheOwner& operator=(const BlockCacheOwner&) = delete;
  ~BlockCacheOwner() { block_cache.close(); }
};


// The region blocks are carved from: reserved at the first allocation, never unmapped (blocks
// carved from it are in use until the process exits, static destructors included).
BlockRegion& process_region() noexcept {
  alignas(BlockRegion) static unsigned char storage[sizeof(BlockRegion)];
  static BlockRegion* const region = new (storage) BlockRegion(BlockRegion::max_chunks);
  return *region;
}

// This thread's cache. At a thread's first allocation or release (it may free a carved block
// before it allocates anything) the cache is attached to the region, and a worker thread's is
// set to close when the thread ends.
SmallBlockCache& thread_cache() noexcept {
  if (!block_cache.attached()) [[unlikely]] {
    block_cache.attach(&process_region());
    if (gettid() != getpid()) {
      thread_local BlockCacheOwner owner;
      (void)owner;
    }
  }
  return block_cache;
}

void* allocate_or_throw(std::size_t bytes) {
  for (;;) {
    if (void* block = thread_cache().allocate(bytes)) return block;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

// The cache takes a null pointer as free() does.
void* operator new(std::size_t bytes) { return allocate_or_throw(bytes); }
void* operator new[](std::size_t bytes) { return allocate_or_throw(bytes); }
void operator delete(void* block) noexcept { thread_cache().release_unsized(block); }
void operator delete[](void* block) noexcept { thread_cache().release_unsized(block); }
void operator delete(void* block, std::size_t bytes) noexcept { thread_cache().release(block, bytes); }
void operator delete[](void* block, std::size_t bytes) noexcept { thread_cache().release(block, bytes); }
