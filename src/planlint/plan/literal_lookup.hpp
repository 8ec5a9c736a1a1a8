#pragma once
/// Names the code writes as string literals (a plan key, a metric: `m.plan("training.mfu")`),
/// each looked up by name once per thread and then found by the literal's address:
///
///     const KeySpec* spec = KeyLiteral("training.mfu").spec();   // find_key, once
///
/// The estimates read ~150 plan keys and ~100 metrics a plan, eight times over for the ranges;
/// a lookup by name hashed and compared the text (~80 instructions), one by address takes ~10.
/// The constructors are consteval, so a literal type holds only a constant's address, whose text
/// never changes: an address names one text for the whole run.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace planlint {

/// find(literal), remembered by the literal's address and size in a table of this thread
/// (one per T). A full table (more literals than the code holds) looks up by name.
template <typename T>
const T* find_by_literal(std::string_view literal, const T* (*find)(std::string_view)) {
  struct Slot {
    const char* data = nullptr;
    std::size_t size = 0;
    const T* found = nullptr;
  };
  constexpr std::size_t capacity = 128;  // the engine names ~60 keys and ~30 metrics
  thread_local std::array<Slot, capacity> slots{};
  thread_local std::size_t filled = 0;
  const auto address = reinterpret_cast<std::uintptr_t>(literal.data());
  for (std::size_t at = (address * 0x9E3779B97F4A7C15ull) >> (64 - 7);; at = (at + 1) % capacity) {
    Slot& slot = slots[at];
    if (slot.data == literal.data() && slot.size == literal.size()) return slot.found;
    if (slot.data) continue;
    const T* found = find(literal);
    if (filled < capacity * 3 / 4) {
      slot = Slot{literal.data(), literal.size(), found};
      ++filled;
    }
    return found;
  }
}

}  // namespace planlint
