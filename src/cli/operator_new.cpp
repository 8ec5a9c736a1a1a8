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
  static BlockRegion* const region = new (storage) BlockRegion(BlockRegion::max_units);
  return *region;
}

// Attaches this thread's cache to the region, at the thread's first allocation or release (it
// may free a carved block before it allocates anything), and sets a worker thread's to close
// when the thread ends. Out of line: once per thread.
[[gnu::noinline]] void attach_thread_cache() noexcept {
  block_cache.attach(&process_region());
  if (gettid() != getpid()) {
    thread_local BlockCacheOwner owner;
    (void)owner;
  }
}

// This thread's cache, attached. Inline in every slow path (out of line, it was a call more for
// each carved block: +1% instructions for one plan).
[[gnu::always_inline]] inline SmallBlockCache& thread_cache() noexcept {
  if (!block_cache.attached()) [[unlikely]] attach_thread_cache();
  return block_cache;
}

// operator new when no list holds a block of the size: carve one, or ask malloc, calling the
// new handler until it gives one. Out of line, so that the common case (a listed block, about
// ten instructions) saves and restores no registers (44 instructions an allocation were 2.5%
// of a corpus run, 6.5% of one plan's).
[[gnu::noinline]] void* allocate_or_throw(std::size_t bytes) {
  for (;;) {
    if (void* block = thread_cache().allocate_unlisted(bytes)) return block;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

// A listed block, or the slow path. A thread's lists are empty until its cache is attached,
// so the fast path needs no attached() test.
inline void* allocate(std::size_t bytes) {
  if (void* block = block_cache.take_listed(bytes)) [[likely]] return block;
  return allocate_or_throw(bytes);
}

// operator delete of a block that was not carved (or before the cache is attached): out of
// line, as allocate_or_throw is.
[[gnu::noinline]] void release_uncarved(void* block, std::size_t bytes) noexcept {
  if (bytes != 0) thread_cache().release(block, bytes);
  else thread_cache().release_unsized(block);
}

// A carved block goes on its list; anything else takes the slow path. `bytes` is 0 for an
// unsized delete; a sized delete of operator new(0)'s block also says 0, and is taken as
// unsized, which finds the block's class (1) from the block itself.
inline void release(void* block, std::size_t bytes) noexcept {
  if (block_cache.release_carved(block, bytes)) [[likely]] return;
  release_uncarved(block, bytes);
}

}  // namespace

// The cache takes a null pointer as free() does.
void* operator new(std::size_t bytes) { return allocate(bytes); }
void* operator new[](std::size_t bytes) { return allocate(bytes); }
void operator delete(void* block) noexcept { release(block, 0); }
void operator delete[](void* block) noexcept { release(block, 0); }
void operator delete(void* block, std::size_t bytes) noexcept { release(block, bytes); }
void operator delete[](void* block, std::size_t bytes) noexcept { release(block, bytes); }
