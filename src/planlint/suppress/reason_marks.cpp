#include "planlint/suppress/reason_marks.hpp"

#include <fmt/format.h>

#include "planlint/diag/suggest.hpp"

namespace planlint::detail {

namespace {

/// The marks a reason is written after in place of `--`, besides a lone hyphen.
constexpr std::string_view reason_marks[] = {":", "\u2014", "\u2013"};

}  // namespace

std::optional<ReasonMark> find_reason_mark(std::string_view text, std::size_t from) {
  std::optional<ReasonMark> first;
  for (std::string_view mark : reason_marks)
    if (std::size_t at = text.find(mark, from); at != std::string_view::npos && (!first || at < first->at))
      first = ReasonMark{at, mark};
  for (std::size_t at = text.find('-', from); at != std::string_view::npos && (!first || at < first->at);
       at = text.find('-', at + 1))
    if ((at == 0 || is_space(text[at - 1])) && (at + 1 == text.size() || is_space(text[at + 1]))) {
      first = ReasonMark{at, "-"};
      break;
    }
  return first;
}

std::string_view without_mark(std::string_view name) {
  for (bool cut = true; cut;) {
    cut = false;
    for (std::string_view mark : reason_marks)
      if (name.ends_with(mark)) {
        name.remove_suffix(mark.size());
        cut = true;
      }
    if (name == "-" || (name.ends_with("-") && is_space(name[name.size() - 2]))) {
      name.remove_suffix(1);
      cut = true;
    }
    name = trim(name);
  }
  return name;
}

std::string_view mark_name(std::string_view mark) {
  if (mark == ":") return "a colon";
  if (mark == "-") return "a hyphen (-)";
  if (mark == "\u2014") return "an em dash (\u2014)";
  return "an en dash (\u2013)";
}

std::string_view directive_before_colon(std::string_view directive) {
  if (!directive.ends_with(':')) return {};
  directive.remove_suffix(1);
  return directive == "allow" || directive == "allow-next-line" || directive == "allow-file" ? directive
                                                                                           : std::string_view();
}

std::string misplaced_reason_help(const InlineSuppression& s, const std::vector<std::string_view>& known,
                                  const std::set<std::string_view>& groups, const SuppressionRules& rules) {
  const std::string names = names_without_marks(s);
  const std::string& reason = !s.misplaced_reason->text.empty() ? s.misplaced_reason->text : s.reason;
  std::string help = fmt::format("the reason follows `--`, not {}: # planlint: {} {} -- {}",
                                 mark_name(s.misplaced_reason->mark), s.directive, names.empty() ? "ID" : names,
                                 reason.empty() ? "<why the finding does not apply>" : reason);
  const std::string_view marked = without_mark(s.names.back().id);
  if (!marked.empty() && rules.group_of.count(marked) == 0 && groups.count(marked) == 0 && marked != "all")
    if (auto suggestion = closest_match(marked, known)) help += fmt::format(" (did you mean '{}'?)", *suggestion);
  return help;
}

std::string names_without_marks(const InlineSuppression& s) {
  std::string names;
  for (const auto& name : s.names) {
    const std::string_view id = without_mark(name.id);
    if (id.empty()) continue;
    if (!names.empty()) names += ", ";
    names += id;
  }
  return names;
}

std::string colon_directive_help(std::string_view directive, const InlineSuppression& s) {
  const std::string names = names_without_marks(s);
  return fmt::format("the directive is `{}`, without a colon: # planlint: {} {} -- {}", directive, directive,
                     names.empty() ? "ID" : names, s.reason.empty() ? "<why the finding does not apply>" : s.reason);
}

}  // namespace planlint::detail
