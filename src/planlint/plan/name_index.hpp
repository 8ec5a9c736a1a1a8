#pragma once
/// A fixed set of names → entries, built once, looked up by string_view: the static tables
/// that every plan consults thousands of times (plan keys by "section.key", metric names).
///
///     static const NameIndex<MetricName> index(all_metrics, [](auto& m) { return m.name; });
///     const MetricName* metric = index.find("train.days");
///
/// Open addressing in one flat array (a power-of-two size at most a quarter full, linear
/// probing), hashing a name's length and its first and last eight bytes: about 40
/// instructions a lookup, where std::unordered_map took 300–400 (a prime modulo, a node to
/// chase, the hash object's indirections) and FNV-1a over every byte ~4 a byte.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace planlint {

template <typename Entry>
class NameIndex {
 public:
  /// `name_of(entry)` gives the entry's name; the entries must outlive the index, their names
  /// are copied. A name given twice keeps its first entry.
  template <typename Entries, typename NameOf>
  NameIndex(const Entries& entries, NameOf name_of) {
    std::size_t count = 0;
    for ([[maybe_unused]] const Entry& entry : entries) ++count;
    slots_.resize(std::bit_ceil(count * 4 + 4));
    mask_ = slots_.size() - 1;
    for (const Entry& entry : entries) {
      std::string name(name_of(entry));
      if (name.size() > longest_) longest_ = name.size();
      std::size_t at = slot_of(hash(name));
      while (slots_[at].entry && slots_[at].name != name) at = (at + 1) & mask_;
      if (!slots_[at].entry) slots_[at] = Slot{std::move(name), &entry};
    }
  }

  /// The entry named `name`, or nullptr.
  const Entry* find(std::string_view name) const {
    for (std::size_t at = slot_of(hash(name));; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (!slot.entry) return nullptr;
      if (slot.name.size() == name.size() && std::string_view(slot.name) == name) return slot.entry;
    }
  }

  /// find(first + separator + second), joined on the stack.
  const Entry* find(std::string_view first, char separator, std::string_view second) const {
    const std::size_t size = first.size() + 1 + second.size();
    if (size > longest_) return nullptr;  // longer than every name
    if (size > joined_capacity) return find(std::string(first) + separator + std::string(second));
    char joined[joined_capacity];
    std::memcpy(joined, first.data(), first.size());
    joined[first.size()] = separator;
    std::memcpy(joined + first.size() + 1, second.data(), second.size());
    return find(std::string_view(joined, size));
  }

 private:
  static constexpr std::size_t joined_capacity = 128;

  /// The name's length and its first and last eight bytes (fewer, overlapping, for a short
  /// name), a word at a time. Names of one table that share all three only probe further:
  /// a slot is taken on its whole name.
  static std::uint64_t hash(std::string_view name) {
    const std::size_t size = name.size();
    const char* bytes = name.data();
    std::uint64_t head = 0, tail = 0;
    if (size >= 8) {
      std::memcpy(&head, bytes, 8);
      std::memcpy(&tail, bytes + size - 8, 8);
    } else if (size >= 4) {
      std::uint32_t first = 0, last = 0;
      std::memcpy(&first, bytes, 4);
      std::memcpy(&last, bytes + size - 4, 4);
      head = first;
      tail = last;
    } else if (size > 0) {
      head = static_cast<unsigned char>(bytes[0]) | static_cast<unsigned char>(bytes[size / 2]) << 8 |
             static_cast<unsigned char>(bytes[size - 1]) << 16;
    }
    std::uint64_t h = (head ^ size) * 0x9E3779B97F4A7C15ull;
    h = (h ^ (h >> 32) ^ tail) * 0xC2B2AE3D27D4EB4Full;
    return h;
  }
  /// The low bits pick the slot: the high bits, which the multiplications mix best, folded in.
  std::size_t slot_of(std::uint64_t hash) const {
    return static_cast<std::size_t>(hash ^ (hash >> 29)) & mask_;
  }

  struct Slot {
    std::string name;
    const Entry* entry = nullptr;
  };
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t longest_ = 0;  ///< the longest name's size
};

}  // namespace planlint
