#pragma once
/// The functions of the rule language (docs/writing-rules.md, "The expression language"): one
/// list that the parser, the type checker and the evaluator share. The parser stores each
/// call's Function in its node (Node::function), so the checker and the evaluator switch on
/// it; a function added here and missed by either switch fails the build (-Werror=switch),
/// where two lists of names let a name that the checker accepts evaluate as absent, and its
/// rule silently never fire.
#include <array>
#include <cstdint>
#include <string_view>

namespace planlint::expr {

enum class Function : std::uint8_t {
  unknown,  ///< not a function of the language: the checker reports it with a suggestion
  exists, given, in_bits, known, compute_precision, has_invalid_values,
  min, max, abs, floor, ceil, sqrt, log10, divides, gcd,
  within, ratio, slip, days_since,
  tier, tolerance, ranged, ranged_by, ranged_keys, moe_scaling, computed_from, missing_inputs, metric, metric_low,
  metric_high, value, assumed, unassumed, claimed, computed, benchmarked, claims_with_ratio, shared_inputs,
  peak_precision, stated, catalog, placeholder,
};

struct FunctionName {
  std::string_view name;
  Function function;
};

inline constexpr std::array<FunctionName, 42> function_table{{
    {"exists", Function::exists},
    {"given", Function::given},
    {"in_bits", Function::in_bits},
    {"known", Function::known},
    {"compute_precision", Function::compute_precision},
    {"has_invalid_values", Function::has_invalid_values},
    {"min", Function::min},
    {"max", Function::max},
    {"abs", Function::abs},
    {"floor", Function::floor},
    {"ceil", Function::ceil},
    {"sqrt", Function::sqrt},
    {"log10", Function::log10},
    {"divides", Function::divides},
    {"gcd", Function::gcd},
    {"within", Function::within},
    {"ratio", Function::ratio},
    {"slip", Function::slip},
    {"days_since", Function::days_since},
    {"tier", Function::tier},
    {"tolerance", Function::tolerance},
    {"ranged", Function::ranged},
    {"ranged_by", Function::ranged_by},
    {"ranged_keys", Function::ranged_keys},
    {"moe_scaling", Function::moe_scaling},
    {"computed_from", Function::computed_from},
    {"missing_inputs", Function::missing_inputs},
    {"metric", Function::metric},
    {"metric_low", Function::metric_low},
    {"metric_high", Function::metric_high},
    {"value", Function::value},
    {"assumed", Function::assumed},
    {"unassumed", Function::unassumed},
    {"claimed", Function::claimed},
    {"computed", Function::computed},
    {"benchmarked", Function::benchmarked},
    {"claims_with_ratio", Function::claims_with_ratio},
    {"shared_inputs", Function::shared_inputs},
    {"peak_precision", Function::peak_precision},
    {"stated", Function::stated},
    {"catalog", Function::catalog},
    {"placeholder", Function::placeholder},
}};

static_assert(function_table.size() == static_cast<std::size_t>(Function::placeholder),
              "every Function but unknown has one name");

/// The function called `name`, or Function::unknown. Runs once per call node, when an
/// expression is parsed or the built-in rules' nodes are made.
constexpr Function find_function(std::string_view name) {
  for (const FunctionName& entry : function_table)
    if (entry.name == name) return entry.function;
  return Function::unknown;
}

}  // namespace planlint::expr
