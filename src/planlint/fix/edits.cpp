#include "planlint/fix/edits.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/printable.hpp"
#include "planlint/fix/validate.hpp"

namespace planlint::fix {

SafetyOf fix_safety_of(const std::vector<RuleDescriptor>& rules) {
  std::map<std::string, FixSafety, std::less<>> by_id;
  for (const RuleDescriptor& rule : rules) by_id[rule.id] = rule.fix;
  return [by_id = std::move(by_id)](std::string_view rule) {
    auto found = by_id.find(rule);
    return found == by_id.end() ? FixSafety::none : found->second;
  };
}

FileFixes collect_fixes(const SourceFile& source, const std::vector<Diagnostic>& diagnostics,
                        const SafetyOf& safety, bool include_unsafe) {
  FileFixes result;
  for (const Diagnostic& d : diagnostics)
    if (d.rule == native_rules::toml_syntax && d.primary.file == source.path()) return result;
  std::vector<detail::Candidate> candidates;
  std::vector<std::pair<std::size_t, std::size_t>> taken;  // the ranges of the candidates' edits, sorted
  for (const Diagnostic& d : diagnostics) {
    if (d.fixes.empty() || d.suppression) continue;
    const FixSafety level = safety(d.rule);
    if (level == FixSafety::none || (level == FixSafety::unsafe && !include_unsafe)) continue;
    std::vector<TextEdit> mine;
    bool in_file = true;
    for (const FixEdit& edit : d.fixes) {
      if (edit.location.file != source.path() || !edit.location.span.known()) in_file = false;
      else mine.push_back({source.offset(edit.location.span.begin), source.offset(edit.location.span.end),
                           edit.replacement});
    }
    if (!in_file || mine.empty()) continue;
    std::sort(mine.begin(), mine.end(), [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
    auto overlaps = [&](const TextEdit& edit) {
      // Two edits overlap when their ranges share a byte, or both insert at one place.
      auto after = std::lower_bound(taken.begin(), taken.end(), std::pair{edit.begin, std::size_t{0}});
      auto clash = [&](const std::pair<std::size_t, std::size_t>& range) {
        return edit.begin < range.second && range.first < edit.end
                   ? true
                   : edit.begin == range.first && (edit.begin == edit.end || range.first == range.second);
      };
      return (after != taken.end() && clash(*after)) || (after != taken.begin() && clash(*std::prev(after)));
    };
    if (std::any_of(mine.begin(), mine.end(), overlaps)) {
      ++result.left;
      continue;
    }
    for (const TextEdit& edit : mine)
      taken.insert(std::lower_bound(taken.begin(), taken.end(), std::pair{edit.begin, edit.end}),
                   std::pair{edit.begin, edit.end});
    candidates.push_back({&d, std::move(mine)});
  }
  const std::size_t proposed = candidates.size();
  candidates = detail::keep_valid(source, std::move(candidates), result.notes);
  result.dropped = proposed - candidates.size();
  for (detail::Candidate& candidate : candidates)
    for (TextEdit& edit : candidate.edits) result.edits.push_back(std::move(edit));
  std::sort(result.edits.begin(), result.edits.end(), [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
  result.fixed = candidates.size();
  return result;
}

std::string apply_edits(std::string_view text, const std::vector<TextEdit>& edits) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  for (const TextEdit& edit : edits) {
    out.append(text.substr(at, edit.begin - at));
    out += edit.replacement;
    at = edit.end;
  }
  out.append(text.substr(at));
  return out;
}

std::vector<TextEdit> compose_edits(std::string_view text, const std::vector<TextEdit>& first,
                                    const std::vector<TextEdit>& second) {
  if (second.empty()) return first;
  const std::string middle = apply_edits(text, first);
  // Every edit as a range of the middle text; `first` says which list it is from.
  struct Range {
    std::size_t begin, end, index;
    bool first;
  };
  std::vector<Range> ranges;
  ranges.reserve(first.size() + second.size());
  // shift_before[i]: how far the first i edits of `first` move the text after them.
  std::vector<long> shift_before(first.size() + 1, 0);
  for (std::size_t i = 0; i < first.size(); ++i) {
    const std::size_t begin = static_cast<std::size_t>(static_cast<long>(first[i].begin) + shift_before[i]);
    ranges.push_back({begin, begin + first[i].replacement.size(), i, true});
    shift_before[i + 1] = shift_before[i] + static_cast<long>(first[i].replacement.size()) -
                          static_cast<long>(first[i].end - first[i].begin);
  }
  const std::size_t of_first = ranges.size();
  for (std::size_t j = 0; j < second.size(); ++j) ranges.push_back({second[j].begin, second[j].end, j, false});
  std::inplace_merge(ranges.begin(), ranges.begin() + static_cast<std::ptrdiff_t>(of_first), ranges.end(),
                     [](const Range& a, const Range& b) { return a.begin < b.begin; });

  // Edits of `first` that end at or before a place of the middle text unchanged by them move
  // it by shift_before[count]; `passed` counts them, as groups come in order.
  std::size_t passed = 0;
  auto original = [&](std::size_t middle_offset) {
    while (passed < first.size() &&
           static_cast<std::size_t>(static_cast<long>(first[passed].end) + shift_before[passed + 1]) <= middle_offset)
      ++passed;
    return static_cast<std::size_t>(static_cast<long>(middle_offset) - shift_before[passed]);
  };
  std::vector<TextEdit> composed;
  for (std::size_t k = 0; k < ranges.size();) {
    // A group: ranges that overlap or touch, so that no two edits of the result meet.
    const std::size_t group_begin = ranges[k].begin;
    std::size_t group_end = ranges[k].end;
    const std::size_t first_of_group = k;
    for (++k; k < ranges.size() && ranges[k].begin <= group_end; ++k) group_end = std::max(group_end, ranges[k].end);
    // Its ends in the original text: an edit of `first` there maps to that edit's end; a place
    // in unchanged text, by the edits before it.
    std::optional<std::size_t> begin, end;
    std::string replacement;
    std::size_t at = group_begin;
    for (std::size_t r = first_of_group; r < k; ++r) {
      const Range& range = ranges[r];
      if (range.first) {
        if (range.begin == group_begin && !begin) begin = first[range.index].begin;
        if (range.end == group_end) end = first[range.index].end;
        continue;
      }
      const TextEdit& later = second[range.index];
      replacement.append(middle, at, later.begin - at);
      replacement += later.replacement;
      at = later.end;
    }
    replacement.append(middle, at, group_end - at);
    const std::size_t original_begin = begin ? *begin : original(group_begin);
    const std::size_t original_end = end ? *end : original(group_end);
    composed.push_back({original_begin, original_end, std::move(replacement)});
  }
  return composed;
}

namespace {

/// The text split into lines, each with its line break ("" after a final line break).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    end = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

/// Changed lines: old lines [old_first, old_last) become `replacement` (whole lines).
struct Block {
  std::size_t old_first = 0, old_last = 0;
  std::string replacement;
};

/// A line of the diff: the file's text under the printable policy (diag/printable.hpp), except
/// the tabs and the line break (CRLF too) that `patch` needs as they are. A line holding a
/// character the policy escapes, a control or bidi character, then does not apply; --fix does.
void add_line(std::string& out, char mark, std::string_view line) {
  out += mark;
  for (std::size_t i = 0; i < line.size();) {
    const PrintableStep step = printable_step(line, i);
    const bool line_break = line[i] == '\n' || (line[i] == '\r' && i + 2 == line.size() && line[i + 1] == '\n');
    if (step.escaped && line[i] != '\t' && !line_break) append_escape(out, line, i, step);
    else out.append(line, i, step.bytes);
    i += step.bytes;
  }
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(std::string_view text, const std::vector<TextEdit>& edits, std::string_view path,
                         std::size_t context) {
  if (edits.empty()) return {};
  std::vector<std::size_t> starts;  // the byte offset of each line
  const std::vector<std::string_view> lines = split_lines(text);
  std::size_t offset = 0;
  for (std::string_view line : lines) {
    starts.push_back(offset);
    offset += line.size();
  }
  auto line_of = [&](std::size_t byte) {  // the line holding `byte` (the last line at the end)
    if (starts.empty()) return std::size_t{0};
    return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), byte) - starts.begin()) - 1;
  };
  auto line_end = [&](std::size_t line) { return line < lines.size() ? starts[line] + lines[line].size() : text.size(); };

  // Edits touching the same or adjacent lines make one block of whole lines.
  std::vector<Block> blocks;
  for (std::size_t i = 0; i < edits.size();) {
    const std::size_t first = line_of(edits[i].begin);
    std::size_t last = line_of(std::max(edits[i].begin, edits[i].end == 0 ? 0 : edits[i].end - 1));
    std::size_t j = i + 1;
    // Edits on adjacent lines too: diff -u shows one change's removed lines before its added ones.
    while (j < edits.size() && line_of(edits[j].begin) <= last + 1) {
      last = std::max(last, line_of(std::max(edits[j].begin, edits[j].end - (edits[j].end > edits[j].begin))));
      ++j;
    }
    const std::size_t from = lines.empty() ? 0 : starts[first];
    const std::size_t to = lines.empty() ? 0 : line_end(last);
    std::string replaced(text.substr(from, edits[i].begin - from));
    for (std::size_t k = i; k < j; ++k) {
      replaced += edits[k].replacement;
      replaced.append(text.substr(edits[k].end, (k + 1 < j ? edits[k + 1].begin : to) - edits[k].end));
    }
    blocks.push_back({first, lines.empty() ? 0 : last + 1, std::move(replaced)});
    i = j;
  }

  const std::string shown = printable_path(path);  // a name holding a line break adds no line
  std::string out = fmt::format("--- {}\n+++ {}\n", shown, shown);
  long shift = 0;  // new line number minus old, before the current hunk
  for (std::size_t b = 0; b < blocks.size();) {
    // A hunk: blocks less than 2 * context lines apart, with their context.
    std::size_t e = b + 1;
    while (e < blocks.size() && blocks[e].old_first - blocks[e - 1].old_last <= 2 * context) ++e;
    const std::size_t hunk_first = blocks[b].old_first - std::min(context, blocks[b].old_first);
    const std::size_t hunk_last = std::min(lines.size(), blocks[e - 1].old_last + context);
    std::string body;
    std::size_t new_count = 0;
    std::size_t line = hunk_first;
    for (std::size_t k = b; k < e; ++k) {
      for (; line < blocks[k].old_first; ++line, ++new_count) add_line(body, ' ', lines[line]);
      for (; line < blocks[k].old_last; ++line) add_line(body, '-', lines[line]);
      for (std::string_view added : split_lines(blocks[k].replacement)) {
        add_line(body, '+', added);
        ++new_count;
      }
    }
    for (; line < hunk_last; ++line, ++new_count) add_line(body, ' ', lines[line]);
    const std::size_t old_count = hunk_last - hunk_first;
    // diff -u numbers an empty range by the line before it.
    const long old_start = static_cast<long>(hunk_first) + (old_count > 0 ? 1 : 0);
    const long new_start = static_cast<long>(hunk_first) + shift + (new_count > 0 ? 1 : 0);
    out += fmt::format("@@ -{},{} +{},{} @@\n", old_start, old_count, new_start, new_count);
    out += body;
    shift += static_cast<long>(new_count) - static_cast<long>(old_count);
    b = e;
  }
  return out;
}

}  // namespace planlint::fix
