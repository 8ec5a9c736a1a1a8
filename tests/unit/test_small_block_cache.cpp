// The planlint executable's operator new and delete (src/cli/small_block_cache.hpp): size
// classes, reuse, blocks carved from a region, the cap on what a thread keeps, and that no two
// live blocks overlap, with and without a region.
#include <malloc.h>

#include <cstddef>
#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "cli/small_block_cache.hpp"

using planlint::cli::BlockRegion;
using planlint::cli::SmallBlockCache;

namespace {

struct LiveBlock {
  unsigned char* bytes;
  std::size_t size;
  unsigned char fill;
};

}  // namespace

TEST_CASE("size classes are 16 bytes wide, up to 1,008 bytes", "[allocation]") {
  CHECK(SmallBlockCache::size_class(0) == 1);
  CHECK(SmallBlockCache::size_class(1) == 1);
  CHECK(SmallBlockCache::size_class(16) == 1);
  CHECK(SmallBlockCache::size_class(17) == 2);
  CHECK(SmallBlockCache::size_class(1008) == 63);
  CHECK(SmallBlockCache::size_class(1009) == SmallBlockCache::class_count);
}

TEST_CASE("a released block is handed out again for a request of its class", "[allocation]") {
  SmallBlockCache cache;
  void* first = cache.allocate(24);
  REQUIRE(first != nullptr);
  cache.release(first, 24);
  CHECK(cache.cached_bytes() == 32);
  // 17..32 bytes is class 2: the same block, most recently released first.
  CHECK(cache.allocate(32) == first);
  CHECK(cache.cached_bytes() == 0);
  // Another class does not take it.
  cache.release(first, 24);
  void* other = cache.allocate(40);
  CHECK(other != first);
  cache.release(other, 40);
  cache.close();
}

TEST_CASE("an unsized delete files a block by the room malloc says it has", "[allocation]") {
  SmallBlockCache cache;
  void* block = cache.allocate(100);  // class 7: malloc(112)
  REQUIRE(malloc_usable_size(block) >= 112);
  cache.release_unsized(block);
  CHECK(cache.allocate(112) == block);
  cache.release(block, 112);
  cache.close();
}

TEST_CASE("blocks are carved from the region by class, and its unit map says a block's class", "[allocation]") {
  BlockRegion region(4);
  SmallBlockCache cache;
  cache.attach(&region);
  void* a = cache.allocate(20);  // class 2
  void* b = cache.allocate(32);  // class 2, next in the same run
  void* c = cache.allocate(100);  // class 7, its own run: the next 1 KiB unit, in the same page
  REQUIRE(region.contains(a));
  REQUIRE(region.contains(c));
  CHECK(static_cast<char*>(b) - static_cast<char*>(a) == 32);
  CHECK(static_cast<char*>(c) - static_cast<char*>(a) == static_cast<std::ptrdiff_t>(BlockRegion::unit_bytes));
  CHECK(region.size_class_of(a) == 2);
  CHECK(region.size_class_of(c) == 7);
  CHECK_FALSE(region.contains(&region));
  // An unsized delete of a carved block goes on the list of its run's class.
  cache.release_unsized(c);
  CHECK(cache.allocate(112) == c);
  // Carved blocks are not counted as memory to give back, and close() frees none of them.
  cache.release(a, 20);
  cache.release(b, 32);
  cache.release(c, 100);
  CHECK(cache.cached_bytes() == 0);
  cache.close();
}

TEST_CASE("operator new and delete's fast paths: a listed block, a carved block", "[allocation]") {
  BlockRegion region(1);
  SmallBlockCache cache;
  // Before the cache is attached: no list holds anything, and nothing is carved.
  CHECK(cache.take_listed(24) == nullptr);
  int on_stack = 0;
  CHECK_FALSE(cache.release_carved(&on_stack, sizeof on_stack));
  CHECK_FALSE(cache.release_carved(nullptr, 0));
  cache.attach(&region);
  void* carved = cache.allocate(24);  // class 2, carved from the only unit
  REQUIRE(region.contains(carved));
  CHECK(cache.take_listed(24) == nullptr);  // an empty list: allocate_unlisted() carves
  // A sized release files it under its size's class, an unsized one (0) under its run's.
  CHECK(cache.release_carved(carved, 24));
  CHECK(cache.take_listed(17) == carved);
  CHECK(cache.release_carved(carved, 0));
  CHECK(cache.take_listed(32) == carved);
  CHECK(cache.cached_bytes() == 0);
  // A block from malloc (no unit left for class 4) is not carved: the slow path takes it,
  // and counts it as cached.
  void* from_malloc = cache.allocate_unlisted(64);
  REQUIRE(from_malloc != nullptr);
  CHECK_FALSE(cache.release_carved(from_malloc, 64));
  cache.release(from_malloc, 64);
  CHECK(cache.cached_bytes() == 64);
  CHECK(cache.take_listed(64) == from_malloc);
  CHECK(cache.cached_bytes() == 0);
  // Too large for any list.
  CHECK(cache.take_listed(4096) == nullptr);
  cache.release(from_malloc, 64);
  cache.release(carved, 24);
  cache.close();
}

TEST_CASE("a class's runs start at one unit and grow with what it has carved, to 64 KiB", "[allocation]") {
  BlockRegion region(BlockRegion::max_units);
  // Two caches on one region (two threads), taking turns: each takes a run where the other's
  // ends, so every run of `first` is a stretch of consecutive blocks.
  SmallBlockCache first, second;
  first.attach(&region);
  second.attach(&region);
  std::vector<char*> blocks;
  for (int i = 0; i < 40'000; ++i) {  // 625 KiB of class 1 each
    blocks.push_back(static_cast<char*>(first.allocate(16)));
    second.allocate(16);
  }
  std::vector<std::size_t> run_units;  // each full run of `first`, in units
  std::size_t stretch = 16;
  for (std::size_t i = 1; i < blocks.size(); ++i) {
    REQUIRE(region.contains(blocks[i]));
    CHECK(region.size_class_of(blocks[i]) == 1);
    if (blocks[i] == blocks[i - 1] + 16) {
      stretch += 16;
      continue;
    }
    CHECK(stretch % BlockRegion::unit_bytes == 0);  // a run of 16-byte blocks is filled
    run_units.push_back(stretch / BlockRegion::unit_bytes);
    stretch = 16;
  }
  // 1 KiB runs while the class is small (the first 8 KiB), then a quarter of what it has
  // carved, up to 64 KiB: 1 ×8, 2, 2, 3, 3, 4, 5, 6, 8, 10, 12, 15, 19, 24, 30, 37, 47, 58, 64...
  REQUIRE(run_units.size() > 8);
  CHECK(std::all_of(run_units.begin(), run_units.begin() + 8, [](std::size_t units) { return units == 1; }));
  CHECK(run_units[8] == 2);
  CHECK(std::is_sorted(run_units.begin(), run_units.end()));
  CHECK(run_units.back() == BlockRegion::max_run_units);
  CHECK(run_units.size() < 40);
  first.close();
  second.close();
}

TEST_CASE("when the region is used up, blocks come from malloc", "[allocation]") {
  BlockRegion region(1);
  SmallBlockCache cache;
  cache.attach(&region);
  void* first = cache.allocate(16);  // takes the only unit
  REQUIRE(region.contains(first));
  void* other_class = cache.allocate(64);  // no unit left for class 4
  REQUIRE(other_class != nullptr);
  CHECK_FALSE(region.contains(other_class));
  cache.release_unsized(other_class);
  CHECK(cache.cached_bytes() == 64);
  cache.release(first, 16);
  cache.close();
  CHECK(cache.cached_bytes() == 0);
}

TEST_CASE("large blocks are not cached, and a thread keeps at most max_cached_bytes", "[allocation]") {
  SmallBlockCache cache;
  void* large = cache.allocate(4096);
  REQUIRE(large != nullptr);
  cache.release(large, 4096);
  CHECK(cache.cached_bytes() == 0);

  // Release more 1,008-byte blocks than the cap holds: the rest go back to free().
  const std::size_t count = SmallBlockCache::max_cached_bytes / 1008 + 100;
  std::vector<void*> blocks;
  blocks.reserve(count);
  for (std::size_t i = 0; i < count; ++i) blocks.push_back(cache.allocate(1008));
  for (void* block : blocks) cache.release(block, 1008);
  CHECK(cache.cached_bytes() <= SmallBlockCache::max_cached_bytes);
  CHECK(cache.cached_bytes() > SmallBlockCache::max_cached_bytes - 1008);

  // Once closed (the thread ends), nothing is kept.
  cache.close();
  CHECK(cache.cached_bytes() == 0);
  void* late = cache.allocate(64);
  cache.release(late, 64);
  CHECK(cache.cached_bytes() == 0);
}

namespace {

/// Allocates and releases blocks of every size in random order, through the sized and the
/// unsized path, and checks after each round that every live block still holds its own bytes.
void check_live_blocks_stay_intact(SmallBlockCache& cache) {
  std::mt19937 random(2026);
  std::uniform_int_distribution<std::size_t> size(0, 1200);
  std::vector<LiveBlock> live;
  unsigned char next_fill = 1;
  auto intact = [](const LiveBlock& block) {
    for (std::size_t i = 0; i < block.size; ++i)
      if (block.bytes[i] != block.fill) return false;
    return true;
  };
  for (int round = 0; round < 20; ++round) {
    while (live.size() < 400) {
      const std::size_t bytes = size(random);
      auto* block = static_cast<unsigned char*>(cache.allocate(bytes));
      REQUIRE(block != nullptr);
      std::memset(block, next_fill, bytes);
      live.push_back({block, bytes, next_fill});
      next_fill = static_cast<unsigned char>(next_fill % 250 + 1);
    }
    for (const LiveBlock& block : live) REQUIRE(intact(block));
    // Release about half, in turn through the sized and the unsized path, and through
    // operator delete's fast path (release_carved, falling back to the sized or unsized one).
    std::shuffle(live.begin(), live.end(), random);
    for (std::size_t i = 0; i < 200; ++i) {
      const LiveBlock& block = live.back();
      switch (i % 4) {
        case 0: cache.release(block.bytes, block.size); break;
        case 1: cache.release_unsized(block.bytes); break;
        case 2:
          if (!cache.release_carved(block.bytes, block.size)) cache.release(block.bytes, block.size);
          break;
        default:
          if (!cache.release_carved(block.bytes, 0)) cache.release_unsized(block.bytes);
          break;
      }
      live.pop_back();
    }
  }
  for (const LiveBlock& block : live) {
    CHECK(intact(block));
    cache.release(block.bytes, block.size);
  }
  cache.close();
}

}  // namespace

TEST_CASE("live blocks never overlap, whatever the order of requests and releases", "[allocation]") {
  SECTION("blocks from malloc") {
    SmallBlockCache cache;
    check_live_blocks_stay_intact(cache);
  }
  SECTION("blocks carved from a region") {
    BlockRegion region(BlockRegion::max_units);
    SmallBlockCache cache;
    cache.attach(&region);
    check_live_blocks_stay_intact(cache);
  }
  SECTION("a region that runs out midway") {
    BlockRegion region(8);
    SmallBlockCache cache;
    cache.attach(&region);
    check_live_blocks_stay_intact(cache);
  }
}
