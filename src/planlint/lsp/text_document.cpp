#include "planlint/lsp/text_document.hpp"

#include <algorithm>

namespace planlint::lsp {

namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

void TextDocument::index() {
  line_starts_.assign(1, 0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') {
      line_starts_.push_back(i + 1);
    } else if (text_[i] == '\r') {
      if (i + 1 < text_.size() && text_[i + 1] == '\n') ++i;
      line_starts_.push_back(i + 1);
    }
  }
}

std::string_view TextDocument::line(std::uint32_t line) const {
  if (line >= line_starts_.size()) return {};
  const std::size_t begin = line_starts_[line];
  std::size_t end = line + 1 < line_starts_.size() ? line_starts_[line + 1] : text_.size();
  if (end > begin && text_[end - 1] == '\n') --end;
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::size_t TextDocument::offset(LspPosition position) const {
  if (position.line >= line_starts_.size()) return text_.size();
  return line_starts_[position.line] + utf8_prefix_bytes(line(position.line), position.character);
}

LspPosition TextDocument::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  while (offset > 0 && offset < text_.size() && is_continuation(static_cast<unsigned char>(text_[offset]))) --offset;
  const auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const auto line = static_cast<std::uint32_t>(after - line_starts_.begin() - 1);
  const std::string_view text = this->line(line);
  const std::size_t into = std::min(offset - line_starts_[line], text.size());  // a CR of CR LF: the line's end
  return {line, utf16_length(text.substr(0, into))};
}

void TextDocument::apply(const TextChange& change) {
  if (!change.range) {
    text_ = change.text;
  } else {
    std::size_t begin = offset(change.range->start);
    std::size_t end = offset(change.range->end);
    if (end < begin) std::swap(begin, end);
    text_.replace(begin, end - begin, change.text);
  }
  index();
}

}  // namespace planlint::lsp
