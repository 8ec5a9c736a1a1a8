#pragma once
/// The ids of the rules planlint checks in C++ rather than by an expression: the structure of a
/// plan (rules/structure/), its inline suppressions (rules/suppression/) and the guardrails of
/// a change (rules/review/, reported by `planlint diff` only). Their rule files
/// say `native = true` and hold their docs; the code that reports them names them from here.
///
///     findings.add(native_rules::unknown_key, span, path, message);
///
/// The other ids here are not rules a plan breaks but the kinds of problem that stop a run, as
/// Diagnostic::rule of a config's, a catalog's or a rule file's errors.
#include <array>
#include <string_view>

namespace planlint {

namespace native_rules {

/// The group of the rules that say a plan could not be read as written (rules/structure/):
/// they run whatever `select` says (settings/selection.cpp).
inline constexpr std::string_view structure_group = "structure";

inline constexpr std::string_view toml_syntax = "toml-syntax";
inline constexpr std::string_view unknown_key = "unknown-key";
inline constexpr std::string_view bad_quantity = "bad-quantity";
inline constexpr std::string_view bad_value = "bad-value";
inline constexpr std::string_view missing_required = "missing-required";
inline constexpr std::string_view unknown_gpu = "unknown-gpu";
inline constexpr std::string_view gpu_alias = "gpu-alias";
inline constexpr std::string_view node_price = "node-price";
inline constexpr std::string_view suppression_without_reason = "suppression-without-reason";
inline constexpr std::string_view unused_suppression = "unused-suppression";
inline constexpr std::string_view guardrail_exceeded = "guardrail-exceeded";

/// Every native rule, sorted (a test compares them with the rule files that say `native = true`).
inline constexpr std::array all = {bad_quantity,     bad_value,  gpu_alias,   guardrail_exceeded,
                                   missing_required, node_price, suppression_without_reason, toml_syntax,
                                   unknown_gpu,      unknown_key, unused_suppression};

/// The rules only `planlint diff` reports, about a change rather than a plan: `check` does not
/// run them, so a suppression of one is not unused there.
inline constexpr std::array compared_only = {guardrail_exceeded};

/// Whether `rule` is one of compared_only.
constexpr bool is_compared_only(std::string_view rule) {
  for (std::string_view id : compared_only)
    if (id == rule) return true;
  return false;
}

/// The rules whose findings of a training plan carry a fix planlint computes in C++: the
/// nearest layout that clears them, searched as `planlint solve` searches (search/layout_fixes.hpp).
/// Their files say `fix_safety = "unsafe"` without a `fix` expression.
inline constexpr std::array layout_fixed = {std::string_view("hard-target-violated"),
                                            std::string_view("interconnect-bottleneck"),
                                            std::string_view("memory-fit"), std::string_view("pipeline-bubble")};

/// Whether `rule` is one of layout_fixed.
constexpr bool is_layout_fixed(std::string_view rule) {
  for (std::string_view id : layout_fixed)
    if (id == rule) return true;
  return false;
}

}  // namespace native_rules

namespace problem_kinds {

inline constexpr std::string_view config = "config";              ///< a .planlint.toml that does not load
inline constexpr std::string_view catalog = "catalog";                  ///< a GPU catalog file that cannot be read
inline constexpr std::string_view invalid_catalog = "invalid-catalog";  ///< a GPU catalog file that does not load
inline constexpr std::string_view invalid_rule = "invalid-rule";  ///< a rule file that does not load

}  // namespace problem_kinds

}  // namespace planlint
