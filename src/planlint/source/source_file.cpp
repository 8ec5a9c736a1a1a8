#include "planlint/source/source_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace planlint {

SourceFile::SourceFile(std::string display_path, std::string text)
    : path_(std::move(display_path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::string_view SourceFile::line(std::uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  std::size_t begin = line_starts_[line - 1];
  std::size_t end = line < line_starts_.size() ? line_starts_[line] - 1 : text_.size();
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::size_t SourceFile::offset(Position position) const {
  if (position.line == 0) return 0;
  if (position.line > line_starts_.size()) return text_.size();
  std::size_t begin = line_starts_[position.line - 1];
  return std::min(text_.size(), begin + (position.column > 0 ? position.column - 1 : 0));
}

Position SourceFile::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  auto line = static_cast<std::uint32_t>(it - line_starts_.begin());
  return Position{line, static_cast<std::uint32_t>(offset - line_starts_[line - 1] + 1)};
}

std::optional<std::string> read_file(const std::string& path, std::string& error) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = errno ? std::strerror(errno) : "cannot open";
    return std::nullopt;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) {
    error = "read error";
    return std::nullopt;
  }
  return std::move(buffer).str();
}

}  // namespace planlint
