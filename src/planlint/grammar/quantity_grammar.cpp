/// The quantity grammar's translation unit: instantiates the X3 rule and turns the syntax tree
/// into a Quantity (count suffix or unit, the bare `B`, units in base units).
#include "planlint/grammar/quantity_grammar_def.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planlint/units/quantity.hpp"
#include "planlint/units/unit_atoms.hpp"

namespace planlint::grammar::quantity_parser {
BOOST_SPIRIT_INSTANTIATE(quantity_type, iterator_type, context_type)
}  // namespace planlint::grammar::quantity_parser

namespace planlint::units {
namespace {

namespace qp = grammar::quantity_parser;
namespace ast = grammar::ast;

struct failed {
  QuantityError error;
};

/// Gives the syntax tree its meaning. Throws `failed` with the column of the offending word.
class evaluator {
 public:
  evaluator(std::string_view text, const qp::error_sink& sink) : text_(text), sink_(sink) {}

  Quantity evaluate(const ast::quantity& tree) const {
    const auto& groups = tree.groups;
    double multiplier = 1;
    std::vector<const ast::unit_term*> unit;
    std::size_t extra = 0;  // index of the first group that belongs to nothing
    if (!groups.empty()) {
      const auto& first = groups.front();
      const auto suffix =
          first.front().op == '\0' ? count_suffix(first.front().word) : std::optional<double>{};
      if (suffix && first.size() == 1 && (groups.size() > 1 || tree.money || !all_known(first))) {
        // "1.5M tokens", "93.5K GPU*h", "1T", "$1.2M", "$7B": a count suffix, then the unit.
        multiplier = *suffix;
        if (groups.size() > 1) unit = terms_of(groups[1], 0);
        extra = groups.size() > 1 ? 2 : 1;
      } else if (suffix && first.size() > 1 && first[1].op == '/' && !all_known(first)) {
        // "$3K/GPU/h", "10K/s": the suffix is followed directly by a per-unit.
        multiplier = *suffix;
        unit = terms_of(first, 1);
        extra = 1;
      } else {
        unit = terms_of(first, 0);
        extra = 1;
      }
    }

    double scale = 1;
    Dimension dim;
    // A product after '/' stays in the denominator: "$3/GPU·h" is per GPU-hour, as written.
    bool denominator = false;
    for (const auto* term : unit) {
      const auto atom = find_unit_atom(term->word);
      if (!atom) fail(word_begin(*term), unknown_unit_message(term->word));
      if (tree.money && (*atom).dim[Base::usd] != 0)
        fail(word_begin(*term),
             "the amount is already in USD ('$' prefix); write '$3/GPU/h' or "
             "'3 USD/GPU/h', not both");
      if (term->op == '/') denominator = true;
      if (denominator) {
        scale /= atom->scale;
        dim = dim / atom->dim;
      } else {
        scale *= atom->scale;
        dim = dim * atom->dim;
      }
    }
    if (extra < groups.size()) {
      const auto& stray = groups[extra].front();
      const auto& previous = groups[extra - 1];
      const std::string_view previous_text(sink_.position_of(previous.front()).begin(),
                                           sink_.position_of(previous.back()).end());
      fail(word_begin(stray), "unexpected '" + stray.word + "' after '" +
                                  std::string(previous_text) +
                                  "'; join units with '*', '/' or '\xC2\xB7'");
    }

    Quantity quantity;
    quantity.dim = tree.money ? dim * dims::usd : dim;
    const auto number_span = sink_.position_of(tree.number);
    const double magnitude = parse_magnitude(tree.number.magnitude, number_span.begin());
    const double sign = tree.number.sign == '-' ? -1.0 : 1.0;
    quantity.value = sign * magnitude * multiplier * scale;
    if (!std::isfinite(quantity.value)) fail(number_span.begin(), "number out of range");
    quantity.percent = !tree.money && unit.size() == 1 && unit.front()->word == "%";
    if (!tree.money && groups.size() == 1 && unit.size() == 1 && unit.front() == &groups[0][0]) {
      // "7B", "512B": billion or bytes, decided by resolve(); "7 B" (spaced) is bytes.
      quantity.bare_b = unit.front()->word == "B" && number_span.end() == word_begin(*unit.front());
    }
    return quantity;
  }

 private:
  [[noreturn]] void fail(const char* where, std::string message) const {
    throw failed{
        QuantityError{static_cast<std::size_t>(where - text_.data()) + 1, std::move(message)}};
  }

  /// Where the word of a term starts (the term's span also covers its operator).
  const char* word_begin(const ast::unit_term& term) const {
    return sink_.position_of(term).end() - term.word.size();
  }

  static bool all_known(const ast::unit_group& group) {
    for (const auto& term : group)
      if (!find_unit_atom(term.word)) return false;
    return true;
  }

  static std::vector<const ast::unit_term*> terms_of(const ast::unit_group& group,
                                                     std::size_t from) {
    std::vector<const ast::unit_term*> out;
    for (std::size_t i = from; i < group.size(); ++i) out.push_back(&group[i]);
    return out;
  }

  static std::string unknown_unit_message(const std::string& word) {
    if (auto message = flop_case_error(word)) return *message;
    return "unknown unit '" + word + "'" + unit_suggestion(word);
  }

  double parse_magnitude(const std::string& written, const char* where) const {
    std::string digits;
    for (char c : written)
      if (c != '_') digits += c;
    double value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error == std::errc::result_out_of_range || !std::isfinite(value))
      fail(where, "number out of range");
    if (error != std::errc{} || end != digits.data() + digits.size())
      fail(where, "expected a number");
    return value;
  }

  std::string_view text_;
  const qp::error_sink& sink_;
};

bool blank(std::string_view text) {
  for (char c : text)
    if (c != ' ' && c != '\t') return false;
  return true;
}

}  // namespace

namespace {

QuantityResult parse_uncached(std::string_view text) {
  if (blank(text)) return QuantityError{1, "expected a number, found an empty string"};
  const char* first = text.data();
  const char* const last = text.data() + text.size();
  qp::error_sink sink(first, last);
  ast::quantity tree;
  const auto parser = boost::spirit::x3::with<boost::spirit::x3::error_handler_tag>(
      std::ref(sink))[grammar::quantity()];
  const bool ok = boost::spirit::x3::parse(first, last, parser, tree);
  if (const auto& failure = sink.failed())
    return QuantityError{static_cast<std::size_t>(failure->where - text.data()) + 1,
                         failure->message};
  if (!ok || first != last)  // unreachable with the expectation points; kept as a guard
    return QuantityError{static_cast<std::size_t>(first - text.data()) + 1,
                         "unexpected '" + std::string(first, last) + "'"};
  try {
    return evaluator(text, sink).evaluate(tree);
  } catch (const failed& f) {
    return f.error;
  }
}

/// parse_uncached's quantities for short texts, per thread: dense entries and an
/// open-addressed table of their indexes, so that a hit reads the table and one entry.
/// (std::unordered_map read a bucket, a node and its string, hashed each node's key again as
/// it walked a bucket, and divided twice by the bucket count: 2% of a corpus run's time, for
/// 0.4% of its instructions.) Errors are not kept: rare, and their message is a string.
class QuantityMemo {
 public:
  static constexpr std::size_t max_text = 64;

  const Quantity* find(std::string_view text, std::uint64_t hash) const {
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
      const std::uint16_t slot = slots_[at];
      if (slot == 0) return nullptr;
      const Entry& entry = entries_[slot - 1u];
      if (entry.hash == hash && entry.size == text.size() && std::memcmp(entry.text, text.data(), text.size()) == 0)
        return &entry.quantity;
    }
  }

  /// Keeps `quantity` for `text` (at most max_text bytes, not kept yet). The memo starts small
  /// (a one-plan run keeps a few dozen texts) and doubles up to max_entries; when that is full,
  /// it starts over.
  void insert(std::string_view text, std::uint64_t hash, const Quantity& quantity) {
    if (entries_.size() * 2 == slots_.size()) {  // full, or not yet made
      if (slots_.size() < max_entries * 2) {
        slots_.assign(std::max<std::size_t>(first_entries * 2, slots_.size() * 2), 0);
        for (std::size_t i = 0; i < entries_.size(); ++i) place(entries_[i].hash, i);
      } else {
        entries_.clear();
        std::fill(slots_.begin(), slots_.end(), std::uint16_t{0});
      }
    }
    Entry& entry = entries_.emplace_back();
    entry.hash = hash;
    entry.size = static_cast<std::uint8_t>(text.size());
    std::memcpy(entry.text, text.data(), text.size());
    entry.quantity = quantity;
    place(hash, entries_.size() - 1);
  }

  /// FNV-1a: a quantity text is a few bytes.
  static std::uint64_t hash_of(std::string_view text) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return hash;
  }

 private:
  // A corpus of 10,000 plans holds 3,515 distinct quantity texts: 1,024 kept, starting over
  // when full, parsed some several times each.
  static constexpr std::size_t first_entries = 64, max_entries = 4096;
  static_assert(max_entries * 2 - 1 <= UINT16_MAX && max_text <= UINT8_MAX);

  void place(std::uint64_t hash, std::size_t entry) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = hash & mask;
    while (slots_[at] != 0) at = (at + 1) & mask;
    slots_[at] = static_cast<std::uint16_t>(entry + 1);
  }

  struct Entry {
    std::uint64_t hash;
    std::uint8_t size;
    char text[max_text];
    Quantity quantity;
  };
  std::vector<Entry> entries_;
  std::vector<std::uint16_t> slots_;  // twice the entries it can take; 1 + an entry's index, 0: empty
};

}  // namespace

QuantityResult parse_quantity(std::string_view text) {
  // Plans repeat the same few quantity strings ("80 GB", "400 Gbps", "$2.5/GPU/h"), and
  // messages format in the same few units ("1 GB"): the X3 parse (thousands of instructions)
  // is memoised per thread. parse_uncached() is pure, so a hit is the same result. Bounded:
  // short texts only, and the memo starts over when full.
  if (text.size() > QuantityMemo::max_text) return parse_uncached(text);
  thread_local QuantityMemo memo;
  const std::uint64_t hash = QuantityMemo::hash_of(text);
  if (const Quantity* kept = memo.find(text, hash)) return *kept;
  QuantityResult result = parse_uncached(text);
  if (const Quantity* quantity = std::get_if<Quantity>(&result)) memo.insert(text, hash, *quantity);
  return result;
}

}  // namespace planlint::units
