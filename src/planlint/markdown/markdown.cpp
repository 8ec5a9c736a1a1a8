#include "planlint/markdown/markdown.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "planlint/source/toml_lexer.hpp"

namespace planlint {

namespace {

/// The lines of a doc, one at a time, without their terminators (a final line without one
/// included): a doc of 15 MiB of blank lines is 15 million of them, too many to hold.
class Lines {
 public:
  struct Line {
    std::string_view text;
    std::uint32_t number = 0;  ///< 1-based
    std::size_t begin = 0;     ///< its first byte in the doc
  };
  explicit Lines(std::string_view doc) : doc_(doc) {}
  bool done() const { return next_ >= doc_.size(); }
  std::size_t position() const { return std::min(next_, doc_.size()); }  ///< the next line's first byte
  std::uint32_t count() const { return number_; }                         ///< lines read so far
  Line next() {
    const std::size_t begin = next_, end = std::min(doc_.find('\n', begin), doc_.size());
    next_ = end + 1;
    std::string_view text = doc_.substr(begin, end - begin);
    if (end < doc_.size() && text.ends_with('\r')) text.remove_suffix(1);
    return Line{text, ++number_, begin};
  }

 private:
  std::string_view doc_;
  std::size_t next_ = 0;
  std::uint32_t number_ = 0;
};

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

/// A line that is the header `[plan]` (spaces allowed inside the brackets, a comment after), as
/// the lexer reads it.
bool is_plan_header(std::string_view line) {
  TomlLexer lexer(line);
  auto next_solid = [&] {
    TomlToken token = lexer.next();
    while (token.kind == TomlTokenKind::whitespace) token = lexer.next();
    return token;
  };
  const TomlToken open = next_solid();
  if (open.kind != TomlTokenKind::header_open || open.end - open.begin != 1) return false;  // [[plan]] is an array of tables
  const TomlToken key = next_solid();
  if (key.kind != TomlTokenKind::bare || key.text(line) != "plan") return false;
  if (next_solid().kind != TomlTokenKind::header_close) return false;
  const TomlToken after = next_solid();
  return after.kind == TomlTokenKind::end || after.kind == TomlTokenKind::comment;
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
  std::vector<PlanBlock> blocks;
  Lines lines(doc);
  while (!lines.done()) {
    Lines::Line line = lines.next();
    if (opens_html_comment(line.text)) {
      // A commented-out fence is comment text, not a code block (a plan kept for the record):
      // past the line that closes the comment (or the end of the doc).
      while (line.text.find("-->") == std::string_view::npos && !lines.done()) line = lines.next();
      continue;
    }
    auto open = fence_of(line.text);
    if (!open) continue;
    const bool toml = is_toml(open->info);
    bool has_plan = false;
    PlanBlock block{line.number + 1, 0, lines.position(), doc.size()};
    bool closed = false;
    while (!lines.done()) {
      const Lines::Line inside = lines.next();
      if (closes(inside.text, *open)) {
        block.last_line = inside.number - 1;
        block.end = inside.begin;
        closed = true;
        break;
      }
      if (toml && !has_plan) has_plan = is_plan_header(inside.text);
    }
    if (!closed) block.last_line = lines.count();  // a block left open runs to the end of the doc
    if (has_plan) blocks.push_back(block);
  }
  return blocks;
}

std::string_view block_text(std::string_view doc, const PlanBlock& block) {
  return doc.substr(block.begin, block.end - block.begin);
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
