#include "planlint/lsp/text_document.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "planlint/source/limits.hpp"  // format_byte_size

namespace planlint::lsp {

namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

std::shared_ptr<const TextDocument::Content> TextDocument::indexed(std::string text) {
  auto content = std::make_shared<Content>();
  content->text = std::move(text);
  const std::string& all = content->text;
  content->line_starts.assign(1, 0);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i] == '\n') {
      content->line_starts.push_back(static_cast<std::uint32_t>(i + 1));
    } else if (all[i] == '\r') {
      if (i + 1 < all.size() && all[i + 1] == '\n') ++i;
      content->line_starts.push_back(static_cast<std::uint32_t>(i + 1));
    }
  }
  content->line_starts.shrink_to_fit();
  return content;
}

TextDocument::TextDocument(std::string text) : content_(indexed(std::move(text))) {}

std::string_view TextDocument::line(std::uint32_t line) const {
  const std::vector<std::uint32_t>& starts = content_->line_starts;
  const std::string& text = content_->text;
  if (line >= starts.size()) return {};
  const std::size_t begin = starts[line];
  std::size_t end = line + 1 < starts.size() ? starts[line + 1] : text.size();
  if (end > begin && text[end - 1] == '\n') --end;
  if (end > begin && text[end - 1] == '\r') --end;
  return std::string_view(text).substr(begin, end - begin);
}

std::size_t TextDocument::offset(LspPosition position) const {
  if (position.line >= content_->line_starts.size()) return content_->text.size();
  return content_->line_starts[position.line] + utf8_prefix_bytes(line(position.line), position.character);
}

std::uint32_t TextDocument::line_at(std::size_t offset) const {
  const std::vector<std::uint32_t>& starts = content_->line_starts;
  offset = std::min(offset, content_->text.size());
  return static_cast<std::uint32_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin() - 1);
}

LspPosition TextDocument::position(std::size_t offset) const {
  ColumnCursor columns(ColumnUnit::utf16);
  return position(offset, columns);
}

LspPosition TextDocument::position(std::size_t offset, ColumnCursor& columns) const {
  const std::string& text = content_->text;
  offset = std::min(offset, text.size());
  while (offset > 0 && offset < text.size() && is_continuation(static_cast<unsigned char>(text[offset]))) --offset;
  const std::uint32_t at = line_at(offset);
  const std::string_view content = line(at);
  const std::size_t into = std::min<std::size_t>(offset - content_->line_starts[at], content.size());  // a CR of CR LF: the line's end
  return {at, columns.column(content, static_cast<std::uint32_t>(into + 1)) - 1};
}

void TextDocument::apply(const TextChange& change) {
  if (!change.range) {
    content_ = indexed(change.text);
    return;
  }
  std::size_t begin = offset(change.range->start);
  std::size_t end = offset(change.range->end);
  if (end < begin) std::swap(begin, end);
  const std::string& text = content_->text;
  std::string edited;
  edited.reserve(text.size() - (end - begin) + change.text.size());
  edited.append(text, 0, begin).append(change.text).append(text, end, std::string::npos);
  content_ = indexed(std::move(edited));
}

std::optional<std::string> apply_edits(TextDocument& text, std::span<const TextChange> edits, const EditLimits& limits) {
  std::size_t rewritten = 0;
  for (const TextChange& edit : edits) {
    text.apply(edit);
    rewritten += text.text().size();
    if (text.text().size() > limits.max_bytes)
      return fmt::format("the document grew to {}, over planlint lsp's limit of {} for a message (raise it with "
                         "--max-message-size)",
                         format_byte_size(text.text().size()), format_byte_size(limits.max_bytes));
    if (rewritten > limits.max_rewritten_bytes)
      return fmt::format("a didChange of {} edits would rewrite more than {} of text, {} times planlint lsp's limit "
                         "of {} for a message",
                         edits.size(), format_byte_size(limits.max_rewritten_bytes),
                         limits.max_rewritten_bytes / limits.max_bytes, format_byte_size(limits.max_bytes));
  }
  return std::nullopt;
}

}  // namespace planlint::lsp
