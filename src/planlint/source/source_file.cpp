#include "planlint/source/source_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <sys/stat.h>

#include <fmt/format.h>


namespace planlint {

SourceFile::SourceFile(std::string display_path, std::string text)
    : path_(std::move(display_path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  const char* const begin = text_.data();
  const char* const end = begin + text_.size();
  for (const char* at = begin; at < end; ++at) {
    at = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
    if (at == nullptr) break;
    line_starts_.push_back(static_cast<std::size_t>(at - begin) + 1);
  }
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

std::optional<std::string> read_file(const std::string& path, std::string& error,
                                     std::size_t max_bytes) {
  auto too_large = [&](std::uint64_t size) {
    error = fmt::format("file{} is over the {} size limit (raise it with --max-file-size)",
                        size > max_bytes ? " of " + format_byte_size(size) : "",
                        format_byte_size(max_bytes));
    return std::nullopt;
  };
  errno = 0;
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) {
    error = errno ? std::strerror(errno) : "cannot open";
    return std::nullopt;
  }
  std::string text;
  struct stat status {};
  if (fstat(fileno(file.get()), &status) == 0 && S_ISREG(status.st_mode)) {
    const auto size = static_cast<std::uint64_t>(status.st_size);
    if (size > max_bytes) return too_large(size);
    text.reserve(static_cast<std::size_t>(size));
  }
  // Read in blocks and stop past the limit: a device or a pipe (/dev/zero) has no size.
  char block[1 << 16];
  while (true) {
    const std::size_t count = std::fread(block, 1, sizeof block, file.get());
    if (count == 0) break;
    if (count > max_bytes - text.size()) return too_large(0);
    text.append(block, count);
  }
  if (std::ferror(file.get())) {
    error = errno ? std::strerror(errno) : "read error";
    return std::nullopt;
  }
  return text;
}

}  // namespace planlint
