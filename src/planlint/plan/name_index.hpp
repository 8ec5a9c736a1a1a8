#pragma once
/// A fixed set of names → entries, built once, looked up by string_view: the static tables
/// that every plan consults thousands of times (plan keys by "section.key").
///
///     static const NameIndex<KeySpec> index(keys, [](auto& k) { return k.key; });
///     const KeySpec* spec = index.find("hbm");
///
/// Open addressing in one flat array (a power-of-two size at most a quarter full, linear
/// probing), hashing a name's length and its first and last eight bytes, which a slot keeps
/// to compare first (they are the whole of a name up to 16 bytes; the name itself is kept
/// apart, so that a slot takes 32 bytes): about 40 instructions a lookup, where
/// std::unordered_map took 300–400 (a prime modulo, a node to chase, the hash object's
/// indirections) and FNV-1a over every byte ~4 a byte.
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
    names_.reserve(count);
    for (const Entry& entry : entries) {
      std::string name(name_of(entry));
      if (name.size() > longest_) longest_ = name.size();
      const Words words = words_of(name);
      std::size_t at = slot_of(hash(words));
      while (slots_[at].entry && names_[slots_[at].name] != name) at = (at + 1) & mask_;
      if (slots_[at].entry) continue;
      slots_[at] = Slot{words.head, words.tail, words.size, static_cast<std::uint32_t>(names_.size()), &entry};
      names_.push_back(std::move(name));
    }
  }

  /// The entry named `name`, or nullptr.
  const Entry* find(std::string_view name) const {
    const Words words = words_of(name);
    for (std::size_t at = slot_of(hash(words));; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (!slot.entry) return nullptr;
      // The words are the whole name up to 16 bytes; a longer one compares the rest too.
      if (slot.head == words.head && slot.tail == words.tail && slot.size == words.size &&
          (name.size() <= 16 || std::string_view(names_[slot.name]) == name))
        return slot.entry;
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

  /// A name's size and its first and last eight bytes (fewer, overlapping, for a short name):
  /// what the hash reads, and the whole name when it has at most 16 bytes.
  struct Words {
    std::uint64_t head = 0, tail = 0;
    std::uint32_t size = 0;  ///< a name's size; the index holds none of 4 GiB
  };
  static Words words_of(std::string_view name) {
    const std::size_t size = name.size();
    const char* bytes = name.data();
    Words words;
    words.size = static_cast<std::uint32_t>(size);
    if (size >= 8) {
      std::memcpy(&words.head, bytes, 8);
      std::memcpy(&words.tail, bytes + size - 8, 8);
    } else if (size >= 4) {
      std::uint32_t first = 0, last = 0;
      std::memcpy(&first, bytes, 4);
      std::memcpy(&last, bytes + size - 4, 4);
      words.head = first;
      words.tail = last;
    } else if (size > 0) {
      words.head = static_cast<unsigned char>(bytes[0]) |
                   static_cast<unsigned char>(bytes[size / 2]) << 8 |
                   static_cast<unsigned char>(bytes[size - 1]) << 16;
    }
    return words;
  }
  /// Names of one table that share their words only probe further: a slot is taken on its
  /// whole name.
  static std::uint64_t hash(const Words& words) {
    std::uint64_t h = (words.head ^ words.size) * 0x9E3779B97F4A7C15ull;
    h = (h ^ (h >> 32) ^ words.tail) * 0xC2B2AE3D27D4EB4Full;
    return h;
  }
  /// The low bits pick the slot: the high bits, which the multiplications mix best, folded in.
  std::size_t slot_of(std::uint64_t hash) const {
    return static_cast<std::size_t>(hash ^ (hash >> 29)) & mask_;
  }

  /// 32 bytes, the name kept apart: the probes read the words and only a long name's text.
  struct Slot {
    std::uint64_t head = 0, tail = 0;  ///< words_of(the name)
    std::uint32_t size = 0;
    std::uint32_t name = 0;  ///< the name's place in names_
    const Entry* entry = nullptr;
  };
  static_assert(sizeof(Slot) == 32);
  std::vector<Slot> slots_;
  std::vector<std::string> names_;
  std::size_t mask_ = 0;
  std::size_t longest_ = 0;  ///< the longest name's size
};

}  // namespace planlint
