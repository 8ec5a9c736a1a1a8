#include "planlint/suppress/suppress.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/source/toml_lexer.hpp"
#include "planlint/suppress/reason_marks.hpp"

namespace planlint {

namespace {

using detail::find_reason_mark;
using detail::is_space;
using detail::mark_name;
using detail::ReasonMark;
using detail::trim;
using detail::without_mark;

constexpr std::string_view prefix = "planlint:";

/// Whether `text` starts with "planlint:" in any case: `# PLANLINT: allow ...` is meant as a
/// directive (ruff reads `# NOQA` as `# noqa`), and was passed over in silence.
bool starts_with_prefix(std::string_view text) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  return true;
}

/// Whether `text` may hold a directive: "planlint:" in any case. Each ':' (a memchr away from
/// the next; plans have few) is checked for the eight letters before it.
bool may_hold_prefix(std::string_view text) {
  for (std::size_t at = text.find(':', prefix.size() - 1); at != std::string_view::npos; at = text.find(':', at + 1))
    if (starts_with_prefix(text.substr(at + 1 - prefix.size()))) return true;
  return false;
}

struct Comment {
  std::uint32_t line;
  std::uint32_t column;  ///< of the '#'
  std::string_view text; ///< after the '#', to the end of the line
};

/// Splits TOML text into its comments and the set of lines that hold something else than
/// blanks and comments (the lexer's tokens: a '#' inside a string is not a comment).
struct Scan {
  std::vector<Comment> comments;
  /// Ascending: the scan visits lines in order, so a sorted vector replaces a std::set.
  std::vector<std::uint32_t> code_lines;

  void code_line(std::uint32_t line) {
    if (code_lines.empty() || code_lines.back() < line) code_lines.push_back(line);
  }
};

Scan scan(std::string_view text, std::uint32_t first_line) {
  Scan out;
  TomlLexer lexer(text, first_line);
  std::size_t line_start = 0;  // the offset of the current line's first byte
  for (TomlToken token = lexer.next(); token.kind != TomlTokenKind::end; token = lexer.next()) {
    switch (token.kind) {
      case TomlTokenKind::whitespace: break;
      case TomlTokenKind::line_break: line_start = token.end; break;
      case TomlTokenKind::comment: {
        std::string_view comment = token.text(text).substr(1);
        if (!comment.empty() && comment.back() == '\r') comment.remove_suffix(1);
        out.comments.push_back({token.line, static_cast<std::uint32_t>(token.begin - line_start + 1), comment});
        break;
      }
      default: {
        // Code, and every line a multi-line string runs over.
        std::uint32_t line = token.line;
        out.code_line(line);
        if (!token.is_multi_line_string()) break;
        for (std::size_t at = token.begin; (at = text.find('\n', at)) < token.end; line_start = ++at)
          out.code_line(++line);
      }
    }
  }
  return out;
}

/// Where the key of the statement on `line` ends: at its '=' (one in a quoted key is the
/// key's), or the line's end.
std::size_t key_end(std::string_view line) {
  TomlLexer lexer(line);
  for (TomlToken token = lexer.next(); token.kind != TomlTokenKind::end; token = lexer.next())
    if (token.kind == TomlTokenKind::equals) return token.begin;
  return line.size();
}

/// Parses one comment; false when it is not a `planlint:` directive.
bool parse_directive(const Comment& comment, const std::string& file, InlineSuppression& out) {
  std::string_view text = comment.text;
  std::size_t at = 0;
  while (at < text.size() && is_space(text[at])) ++at;
  if (!starts_with_prefix(text.substr(at))) return false;
  at += prefix.size();
  while (at < text.size() && is_space(text[at])) ++at;
  std::size_t word_end = at;
  while (word_end < text.size() && !is_space(text[word_end]) && text[word_end] != ',') ++word_end;
  out.directive = std::string(text.substr(at, word_end - at));
  for (char& c : out.directive) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (out.directive == "allow") out.scope = InlineSuppression::Scope::line;
  else if (out.directive == "allow-next-line") out.scope = InlineSuppression::Scope::next_line;
  else if (out.directive == "allow-file") out.scope = InlineSuppression::Scope::file;
  else out.known_directive = false;

  std::size_t names_end = text.find("--", word_end);
  if (names_end != std::string_view::npos)
    out.reason = std::string(trim(text.substr(names_end + 2)));
  else
    names_end = text.size();
  // "allow memory-fit: offloaded", "allow memory-fit — offloaded": a reason after another mark
  // than `--`. The words after it are that reason, not names to report one by one (no rule id
  // holds a colon or a dash other than '-').
  const std::optional<ReasonMark> mark = find_reason_mark(text.substr(0, names_end), word_end);
  const std::size_t ids_end = mark ? mark->at : names_end;
  // Columns: the comment text starts one byte after the '#'.
  auto span = [&](std::size_t begin, std::size_t end) {
    return Span{{comment.line, static_cast<std::uint32_t>(comment.column + 1 + begin)},
                {comment.line, static_cast<std::uint32_t>(comment.column + 1 + end)}};
  };
  // Names are separated by commas (and spaces are allowed around them).
  std::size_t i = word_end;
  std::size_t last_begin = 0;
  std::size_t last_end = 0;
  while (i < ids_end) {
    while (i < ids_end && (is_space(text[i]) || text[i] == ',')) ++i;
    std::size_t begin = i;
    while (i < ids_end && !is_space(text[i]) && text[i] != ',') ++i;
    if (i > begin) {
      out.names.push_back({std::string(text.substr(begin, i - begin)), span(begin, i)});
      last_begin = begin;
      last_end = i;
    }
  }
  if (mark) {
    // The name before the mark takes it ("memory-fit:", "memory-fit :"), unless a comma parts
    // them; the name as written keys the finding that says what to write instead.
    std::size_t begin = mark->at;
    if (!out.names.empty() && trim(text.substr(last_end, mark->at - last_end)).empty()) {
      begin = last_begin;
      out.names.pop_back();
    }
    const std::size_t end = mark->at + mark->text.size();
    out.names.push_back({std::string(text.substr(begin, end - begin)), span(begin, end)});
    out.misplaced_reason =
        InlineSuppression::MisplacedReason{std::string(mark->text), std::string(trim(text.substr(end, names_end - end)))};
  }
  out.location = Location{
      file, Span{{comment.line, comment.column},
                 {comment.line, static_cast<std::uint32_t>(comment.column + 1 + text.size())}}};
  return true;
}

/// Index of the first name of `s` that names `rule` (its id, its group, or "all"), or -1.
int matching_name(const InlineSuppression& s, std::string_view rule, const SuppressionRules& rules) {
  auto group = rules.group_of.find(rule);
  for (std::size_t i = 0; i < s.names.size(); ++i) {
    const std::string& name = s.names[i].id;
    if (name == rule || name == "all" || (group != rules.group_of.end() && name == group->second))
      return static_cast<int>(i);
  }
  return -1;
}

std::string_view scope_text(const InlineSuppression& s) {
  switch (s.scope) {
    case InlineSuppression::Scope::line: return "on this line";
    case InlineSuppression::Scope::next_line: return "on the next line";
    case InlineSuppression::Scope::file: return "in this plan";
  }
  return "";
}

/// The key path of a suppression's own findings: what it is, not its line. The directive, the
/// names (all of them, or the one the finding is about) and target_digest:
/// "#allow(memory-fit)@1a2b3c4d", "#allow-file(chinchilla-ratio)".
std::string finding_key(const InlineSuppression& s, std::optional<std::size_t> name = std::nullopt) {
  std::string key = "#" + s.directive + "(";
  for (std::size_t n = 0; n < s.names.size(); ++n) {
    if (name && n != *name) continue;
    if (key.back() != '(') key += ',';
    key += s.names[n].id;
  }
  key += ')';
  if (!s.target_digest.empty()) key += "@" + s.target_digest;
  return key;
}

}  // namespace

std::vector<InlineSuppression> find_suppressions(const SourceFile& file, std::string_view toml_text,
                                                 std::uint32_t first_line) {
  // Every directive holds "planlint:"; most plans have none, and then need no scan at all.
  if (!may_hold_prefix(toml_text)) return {};
  Scan scanned = scan(toml_text, first_line);
  std::vector<InlineSuppression> out;
  for (const Comment& comment : scanned.comments) {
    InlineSuppression s;
    if (!parse_directive(comment, file.path(), s)) continue;
    switch (s.scope) {
      case InlineSuppression::Scope::line: s.target_line = comment.line; break;
      case InlineSuppression::Scope::file: s.target_line = 0; break;
      case InlineSuppression::Scope::next_line: {
        auto next = std::upper_bound(scanned.code_lines.begin(), scanned.code_lines.end(), comment.line);
        s.target_line = next == scanned.code_lines.end() ? 0 : *next;
        break;
      }
    }
    if (s.target_line != 0) {
      // The key the covered line sets ("gpu"), or the line (a table header), without the comment.
      std::string_view covered = file.line(s.target_line);
      if (s.target_line == comment.line) covered = covered.substr(0, comment.column - 1);
      if (covered.ends_with('\r')) covered.remove_suffix(1);
      covered = trim(covered.substr(0, key_end(covered)));
      s.target_digest = text_digest(covered);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<Diagnostic> apply_suppressions(std::vector<Diagnostic>& diagnostics,
                                           const std::vector<InlineSuppression>& suppressions,
                                           const SuppressionRules& rules, const std::string& file) {
  if (suppressions.empty()) return {};
  // The most specific suppression wins: line and next-line ones before allow-file, then the
  // first in the file. Indexed by line and by name, so that a file of many comments and many
  // findings is not a product of the two (16 MiB of comments is ~700,000 of them).
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> by_line;
  std::unordered_map<std::string_view, std::size_t> file_scope_by_name;  // the first allow-file naming it
  for (std::size_t i = 0; i < suppressions.size(); ++i) {
    const InlineSuppression& s = suppressions[i];
    if (!s.known_directive) continue;
    if (s.scope == InlineSuppression::Scope::file) {
      for (const auto& name : s.names) file_scope_by_name.try_emplace(name.id, i);
    } else if (s.target_line != 0) {
      by_line[s.target_line].push_back(i);
    }
  }
  std::vector<std::vector<bool>> used(suppressions.size());
  for (std::size_t i = 0; i < suppressions.size(); ++i) used[i].assign(suppressions[i].names.size(), false);

  auto suppress = [&](Diagnostic& d, bool track_use) {
    if (d.suppression || d.primary.file != file) return;
    auto mark = [&](std::size_t index, int name) {
      const InlineSuppression& s = suppressions[index];
      d.suppression = Suppression{Suppression::Kind::inline_comment, s.reason, s.location};
      if (track_use) used[index][static_cast<std::size_t>(name)] = true;
    };
    if (auto line = by_line.find(d.primary.span.begin.line); line != by_line.end()) {
      for (std::size_t index : line->second) {
        if (int name = matching_name(suppressions[index], d.rule, rules); name >= 0) return mark(index, name);
      }
    }
    // The first allow-file comment naming the rule, its group or "all".
    std::optional<std::size_t> first;
    auto consider = [&](std::string_view name) {
      if (auto it = file_scope_by_name.find(name); it != file_scope_by_name.end())
        if (!first || it->second < *first) first = it->second;
    };
    consider(d.rule);
    if (auto group = rules.group_of.find(d.rule); group != rules.group_of.end()) consider(group->second);
    consider("all");
    if (first) mark(*first, matching_name(suppressions[*first], d.rule, rules));
  };
  for (Diagnostic& d : diagnostics) suppress(d, true);

  // Every known id and group, for did-you-mean on a misspelt name.
  std::vector<std::string_view> known;
  std::set<std::string_view> groups;
  for (const auto& [id, group] : rules.group_of) {
    known.push_back(id);
    if (!group.empty() && groups.insert(group).second) known.push_back(group);
  }

  std::vector<Diagnostic> native;
  auto add = [&](std::string_view rule, Span span, std::string key, std::string message) -> Diagnostic* {
    Diagnostic d;
    d.rule = std::string(rule);
    d.severity = Severity::warning;
    d.message = std::move(message);
    d.primary = Location{file, span};
    d.key_path = std::move(key);
    native.push_back(std::move(d));
    return &native.back();
  };

  for (std::size_t index = 0; index < suppressions.size(); ++index) {
    const InlineSuppression& s = suppressions[index];
    if (!s.known_directive) {
      if (Diagnostic* d = add(native_rules::unused_suppression, s.location.span, finding_key(s),
                              fmt::format("unknown suppression directive '{}'", s.directive))) {
        d->help = "write `# planlint: allow ID -- reason`, `allow-next-line` or `allow-file`";
        // "# planlint: allow: memory-fit -- offloaded": the comment as it should read.
        if (const std::string_view directive = detail::directive_before_colon(s.directive); !directive.empty())
          d->help = detail::colon_directive_help(directive, s);
      }
      continue;
    }
    // A reason after a colon or a dash is there, misplaced: unused-suppression says what to
    // write, one finding for one mistake.
    if (s.reason.empty() && !s.misplaced_reason)
      if (Diagnostic* d = add(native_rules::suppression_without_reason, s.location.span, finding_key(s),
                              fmt::format("`{}` gives no reason", s.directive))) {
        const std::string_view first = s.names.empty() ? "" : without_mark(s.names.front().id);
        d->help = fmt::format("say why after `--`: # planlint: {} {} -- <why the finding does not apply>",
                              s.directive, first.empty() ? "ID" : first);
      }
    if (s.names.empty()) {
      if (Diagnostic* d = add(native_rules::unused_suppression, s.location.span, finding_key(s),
                              fmt::format("`{}` names no rule", s.directive)))
        d->help = "name the rule ids or groups to allow, separated by commas";
      continue;
    }
    for (std::size_t n = 0; n < s.names.size(); ++n) {
      if (used[index][n]) continue;
      const std::string& id = s.names[n].id;
      if (s.misplaced_reason && n + 1 == s.names.size()) {
        if (Diagnostic* d = add(native_rules::unused_suppression, s.names[n].span, finding_key(s, n),
                                fmt::format("the reason after {} is not read, and '{}' is not a rule id",
                                            mark_name(s.misplaced_reason->mark), id)))
          d->help = detail::misplaced_reason_help(s, known, groups, rules);
        continue;
      }
      auto rule = rules.group_of.find(id);
      const bool is_rule = rule != rules.group_of.end();
      const bool is_group = groups.count(id) > 0 || id == "all";
      if (!is_rule && !is_group) {
        if (Diagnostic* d = add(native_rules::unused_suppression, s.names[n].span, finding_key(s, n),
                                fmt::format("'{}' is not a rule or group planlint knows", id)))
          if (auto suggestion = closest_match(id, known)) d->help = fmt::format("did you mean '{}'?", *suggestion);
        continue;
      }
      if (rules.enabled && !rules.enabled(id, is_rule ? std::string_view(rule->second) : std::string_view(id)))
        continue;  // the rule does not run here, so it could not have fired
      std::string message =
          s.scope == InlineSuppression::Scope::next_line && s.target_line == 0
              ? fmt::format("`allow-next-line {}` has no line after it", id)
              : fmt::format("unused suppression: no '{}' finding {}", id, scope_text(s));
      if (Diagnostic* d = add(native_rules::unused_suppression, s.names[n].span, finding_key(s, n), std::move(message)))
        d->help = s.names.size() == 1 ? "remove the comment" : fmt::format("remove '{}' from the list", id);
    }
  }
  // The suppression findings can be suppressed too (`allow-file unused-suppression`).
  for (Diagnostic& d : native) suppress(d, false);
  return native;
}

}  // namespace planlint
