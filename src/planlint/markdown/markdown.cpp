#include "planlint/markdown/markdown.hpp"

#include <optional>

#include <fmt/format.h>

namespace planlint {

namespace {

/// The lines of `text` without their terminators (a final line without one included).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) {
      if (begin < text.size()) lines.push_back(text.substr(begin));
      break;
    }
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    begin = end + 1;
  }
  return lines;
}

struct Fence {
  char marker;
  std::size_t length;
  std::string_view info;
};

/// A CommonMark code fence: up to 3 spaces, then 3+ backticks or tildes, then the info string.
std::optional<Fence> fence_of(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && line[indent] == ' ') ++indent;
  if (indent > 3 || indent >= line.size()) return std::nullopt;
  char marker = line[indent];
  if (marker != '`' && marker != '~') return std::nullopt;
  std::size_t length = 0;
  while (indent + length < line.size() && line[indent + length] == marker) ++length;
  if (length < 3) return std::nullopt;
  std::string_view info = line.substr(indent + length);
  while (!info.empty() && (info.front() == ' ' || info.front() == '\t')) info.remove_prefix(1);
  while (!info.empty() && (info.back() == ' ' || info.back() == '\t')) info.remove_suffix(1);
  if (marker == '`' && info.find('`') != std::string_view::npos) return std::nullopt;
  return Fence{marker, length, info};
}

/// A line that starts an HTML comment block (CommonMark HTML block type 2: up to 3 spaces,
/// then `<!--`). The block runs to the first line, this one included, that holds `-->`.
bool opens_html_comment(std::string_view line) {
  std::size_t indent = 0;
  while (indent < line.size() && line[indent] == ' ') ++indent;
  return indent <= 3 && line.substr(indent).starts_with("<!--");
}

bool closes(std::string_view line, const Fence& open) {
  auto fence = fence_of(line);
  return fence && fence->marker == open.marker && fence->length >= open.length && fence->info.empty();
}

/// The info string's language is `toml` ("toml", "toml title=plan.toml", "{.toml}" is not).
bool is_toml(std::string_view info) {
  std::string_view word = info.substr(0, info.find_first_of(" \t{"));
  if (word.size() != 4) return false;
  for (std::size_t i = 0; i < 4; ++i)
    if (std::tolower(static_cast<unsigned char>(word[i])) != "toml"[i]) return false;
  return true;
}

/// A line that is the header `[plan]` (spaces allowed inside the brackets, a comment after).
bool is_plan_header(std::string_view line) {
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  skip_space();
  if (i >= line.size() || line[i] != '[') return false;
  ++i;
  if (i < line.size() && line[i] == '[') return false;  // [[plan]] is an array of tables
  skip_space();
  if (line.substr(i, 4) != "plan") return false;
  i += 4;
  skip_space();
  if (i >= line.size() || line[i] != ']') return false;
  ++i;
  skip_space();
  return i == line.size() || line[i] == '#';
}

}  // namespace

bool is_markdown_path(std::string_view path) {
  auto ends_with = [&](std::string_view suffix) {
    if (path.size() < suffix.size()) return false;
    for (std::size_t i = 0; i < suffix.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(path[path.size() - suffix.size() + i])) != suffix[i])
        return false;
    return true;
  };
  return ends_with(".md") || ends_with(".markdown");
}

std::vector<PlanBlock> plan_blocks(std::string_view doc) {
  std::vector<std::string_view> lines = split_lines(doc);
  std::vector<PlanBlock> blocks;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (opens_html_comment(lines[i])) {
      // A commented-out fence is comment text, not a code block (a plan kept for the record).
      while (i < lines.size() && lines[i].find("-->") == std::string_view::npos) ++i;
      continue;  // past the line that closes it (or the end of the doc)
    }
    auto open = fence_of(lines[i]);
    if (!open) continue;
    std::size_t end = i + 1;
    while (end < lines.size() && !closes(lines[end], *open)) ++end;
    if (is_toml(open->info)) {
      bool has_plan = false;
      for (std::size_t line = i + 1; line < end && !has_plan; ++line) has_plan = is_plan_header(lines[line]);
      if (has_plan)
        blocks.push_back(PlanBlock{static_cast<std::uint32_t>(i + 2), static_cast<std::uint32_t>(end)});
    }
    i = end;  // past the closing fence (or the end of the doc)
  }
  return blocks;
}

std::string blank_outside(std::string_view doc, const PlanBlock& block) {
  std::string out;
  out.reserve(doc.size());
  std::uint32_t line = 1;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const char c = doc[i];
    if (c == '\n') {
      out += c;
      // The lines after the block are left out: nothing there can change how it parses, and a
      // doc of many blocks would otherwise cost blocks × its whole size.
      if (++line > block.last_line && line > block.first_line) break;
    } else if (line >= block.first_line && line <= block.last_line) {
      out += c;
    } else if (c == '\r' && i + 1 < doc.size() && doc[i + 1] == '\n') {
      out += c;  // keep CRLF line breaks whole
    }
  }
  return out;
}

Result<std::vector<PlanBlock>> plan_blocks(std::string_view doc, std::size_t max_plans) {
  std::vector<PlanBlock> blocks = plan_blocks(doc);
  if (blocks.size() <= max_plans) return blocks;
  const std::uint32_t fence = blocks[max_plans].first_line - 1;
  return Error(fmt::format("the doc holds {} plans, over the limit of {} plans per Markdown file (raise it with "
                           "--max-plans-per-file)",
                           blocks.size(), max_plans),
               Location{"", Span{{fence, 1}, {fence, 1}}});
}

}  // namespace planlint
