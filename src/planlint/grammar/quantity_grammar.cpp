/// The quantity grammar's translation unit: instantiates the X3 rule and turns the syntax tree
/// into a Quantity (count suffix or unit, the bare `B`, units in base units).
#include "planlint/grammar/quantity_grammar_def.hpp"

#include <charconv>
#include <cmath>
#include <optional>
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

/// Gives the syntax tree its meaning, or a QuantityError with the column of the offending word.
/// (Returned, not thrown: a unit typo is an ordinary finding, and the first exception a static
/// executable throws costs more than a whole lint.)
class evaluator {
  using Terms = boost::container::small_vector<const ast::unit_term*, 4>;

 public:
  evaluator(std::string_view text, const qp::error_sink& sink) : text_(text), sink_(sink) {}

  QuantityResult evaluate(const ast::quantity& tree) const {
    const auto& groups = tree.groups;
    double multiplier = 1;
    Terms unit;
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
      if (!atom) return error_at(word_begin(*term), unknown_unit_message(term->word));
      if (tree.money && (*atom).dim[Base::usd] != 0)
        return error_at(word_begin(*term),
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
      const std::string previous_text(sink_.position_of(previous.front()).begin(),
                                      sink_.position_of(previous.back()).end());
      return error_at(word_begin(stray), "unexpected '" + stray.word + "' after '" + previous_text +
                                  "'; join units with '*', '/' or '\xC2\xB7'");
    }

    Quantity quantity;
    quantity.dim = tree.money ? dim * dims::usd : dim;
    const auto number_span = sink_.position_of(tree.number);
    double magnitude = 0;
    if (auto error = parse_magnitude(tree.number.magnitude, number_span.begin(), magnitude)) return *error;
    const double sign = tree.number.sign == '-' ? -1.0 : 1.0;
    quantity.value = sign * magnitude * multiplier * scale;
    if (!std::isfinite(quantity.value)) return error_at(number_span.begin(), "number out of range");
    quantity.percent = !tree.money && unit.size() == 1 && unit.front()->word == "%";
    if (!tree.money && groups.size() == 1 && unit.size() == 1 && unit.front() == &groups[0][0]) {
      // "7B", "512B": billion or bytes, decided by resolve(); "7 B" (spaced) is bytes.
      quantity.bare_b = unit.front()->word == "B" && number_span.end() == word_begin(*unit.front());
    }
    return quantity;
  }

 private:
  QuantityError error_at(const char* where, std::string message) const {
    return QuantityError{static_cast<std::size_t>(where - text_.data()) + 1, std::move(message)};
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

  static Terms terms_of(const ast::unit_group& group, std::size_t from) {
    Terms out;
    for (std::size_t i = from; i < group.size(); ++i) out.push_back(&group[i]);
    return out;
  }

  static std::string unknown_unit_message(const std::string& word) {
    if (auto message = flop_case_error(word)) return *message;
    return "unknown unit '" + word + "'" + unit_suggestion(word);
  }

  /// The number as written (digits with '_'), in `value`; or why it is not one.
  std::optional<QuantityError> parse_magnitude(const std::string& written, const char* where, double& value) const {
    std::string digits;
    for (char c : written)
      if (c != '_') digits += c;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error == std::errc::result_out_of_range || !std::isfinite(value))
      return error_at(where, "number out of range");
    if (error != std::errc{} || end != digits.data() + digits.size())
      return error_at(where, "expected a number");
    return std::nullopt;
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

QuantityResult parse_quantity(std::string_view text) {
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
  return evaluator(text, sink).evaluate(tree);
}

}  // namespace planlint::units
