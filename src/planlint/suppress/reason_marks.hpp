#pragma once
/// Suppression comments that are almost right: a reason written after a colon, a dash or a
/// lone hyphen instead of `--` ("allow memory-fit: measured"), a directive with a colon after
/// it ("allow: memory-fit -- measured"). find_suppressions reads them so that the name before
/// the mark suppresses nothing and apply_suppressions can say what to write instead.
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/suppress/suppress.hpp"

namespace planlint::detail {

inline bool is_space(char c) { return c == ' ' || c == '\t'; }

inline std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

struct ReasonMark {
  std::size_t at;
  std::string_view text;  ///< ":", "—", "–" or "-"
};

/// The first reason mark in `text` from `from` on, if any: a colon, an em or en dash, or a
/// hyphen that stands alone ("allow memory-fit - offloaded"; a rule id holds hyphens only
/// inside it).
std::optional<ReasonMark> find_reason_mark(std::string_view text, std::size_t from);

/// A name without the reason mark written after it ("memory-fit:", "memory-fit —",
/// "memory-fit -").
std::string_view without_mark(std::string_view name);

/// "a colon", "an em dash (—)", ...
std::string_view mark_name(std::string_view mark);

/// "allow:" → "allow": a directive written with a colon after it, as `noqa:` is; empty when the
/// word is no directive with or without one.
std::string_view directive_before_colon(std::string_view directive);

/// The suppression's names without their marks, joined with ", " ("memory-fit, peak").
std::string names_without_marks(const InlineSuppression& s);

/// The comment to write instead of one whose reason follows a colon or a dash: its names, then
/// `--` and the reason (the text after the mark, else the one after `--`), with a did-you-mean
/// for a name before the mark that no rule or group has.
std::string misplaced_reason_help(const InlineSuppression& s, const std::vector<std::string_view>& known,
                                  const std::set<std::string_view>& groups, const SuppressionRules& rules);

/// The comment to write for a directive with a colon after it ("allow:").
std::string colon_directive_help(std::string_view directive, const InlineSuppression& s);

}  // namespace planlint::detail
