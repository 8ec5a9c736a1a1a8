#include "planlint/source/source_file.hpp"
#include "planlint/source/regular_file.hpp"
#include "planlint/source/toml_lexer.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fmt/format.h>


namespace planlint {

SourceFile::SourceFile(std::string display_path, std::string text)
    : path_(std::move(display_path)), text_(std::move(text)) {
  // toml++ skips the mark too, and counts line 1's columns from after it. A second mark is
  // left in place with the first: toml++ would skip it in a text without the first, and it
  // is an error that toml++ reports in the file as it is.
  constexpr std::string_view mark = "\xEF\xBB\xBF";
  if (std::string_view(text_).starts_with(mark) && !std::string_view(text_).substr(3).starts_with(mark))
    text_.erase(0, 3);
  line_starts_.push_back(0);
  const char* const begin = text_.data();
  const char* const end = begin + text_.size();
  for (const char* at = begin; at < end; ++at) {
    at = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
    if (at == nullptr) break;
    line_starts_.push_back(static_cast<std::size_t>(at - begin) + 1);
  }
}

namespace {

/// `text` up to its first line break and at most `max_bytes`, cut back to the first byte of a
/// character (a cut inside one would make the output invalid UTF-8: the notes go to terminals,
/// GitHub annotations and JSON); a cut text loses its trailing blanks and ends with "…".
std::string cut_at_character(std::string_view text, std::size_t max_bytes) {
  std::size_t keep = std::min(text.find('\n'), std::min(text.size(), max_bytes));
  if (keep == text.size()) return std::string(text);
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  std::string_view kept = text.substr(0, keep);
  while (!kept.empty() && (kept.back() == '\r' || kept.back() == ' ')) kept.remove_suffix(1);
  return std::string(kept) + "\u2026";
}

}  // namespace

std::string value_excerpt(const SourceFile& file, Span span, std::size_t max_bytes) {
  const std::size_t begin = file.offset(span.begin), end = file.offset(span.end);
  if (end <= begin) return {};
  std::string_view text = std::string_view(file.text()).substr(begin, end - begin);
  // A multi-line string (triple quotes): its text from after the line break TOML trims after
  // the opening delimiter, between its own delimiters.
  if (text.front() == '"' || text.front() == '\'') {
    TomlLexer lexer(text);
    const TomlToken string = lexer.next_comment_or_string();
    if (string.is_multi_line_string() && string.closed && string.begin == 0 && string.end == text.size()) {
      const std::string_view delimiter = text.substr(0, 3);
      std::string_view body = text.substr(3, text.size() - 6);
      if (body.starts_with("\r\n")) body.remove_prefix(2);
      else if (body.starts_with('\n')) body.remove_prefix(1);
      return std::string(delimiter) + cut_at_character(body, max_bytes) + std::string(delimiter);
    }
  }
  std::string out = cut_at_character(text, max_bytes);
  // A cut string keeps its closing quote.
  if (out.size() != text.size() && (text.front() == '"' || text.front() == '\'')) out += text.front();
  return out;
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

namespace {

Result<std::string> read_open_file(int descriptor, const std::string& path, std::size_t max_bytes,
                                   std::optional<FileIdentity>* identity, bool regular_only);

Result<std::string> read_any_file(const std::string& path, std::size_t max_bytes, std::optional<FileIdentity>* identity,
                                  bool regular_only) {
  // POSIX calls rather than stdio: open, fstat, read to the end, close (a folder run reads
  // thousands of small files; stdio added a buffer, a second fstat and a copy per file).
  errno = 0;
  int descriptor = -1;
  const int flags = O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK | O_NOCTTY : 0);
  do descriptor = ::open(path.c_str(), flags);
  while (descriptor < 0 && errno == EINTR);
  if (descriptor < 0) return Error(errno ? std::strerror(errno) : "cannot open", Location{path, {}});
  const std::unique_ptr<int, void (*)(int*)> closer(&descriptor, [](int* fd) { ::close(*fd); });
  return read_open_file(descriptor, path, max_bytes, identity, regular_only);
}

/// The rest of read_any_file, from the open `descriptor` (opened with O_NONBLOCK when
/// `regular_only`, which is cleared once it is known to be a regular file).
Result<std::string> read_open_file(int descriptor, const std::string& path, std::size_t max_bytes,
                                   std::optional<FileIdentity>* identity, bool regular_only) {
  auto too_large = [&](std::uint64_t size) {
    return Error(fmt::format("file{} is over the {} size limit (raise it with --max-file-size)",
                             size > max_bytes ? " of " + format_byte_size(size) : "", format_byte_size(max_bytes)),
                 Location{path, {}});
  };
  auto failed = [&](const char* otherwise) { return Error(errno ? std::strerror(errno) : otherwise, Location{path, {}}); };
  errno = 0;
  if (regular_only) {
    struct stat status {};
    if (::fstat(descriptor, &status) != 0) return failed("cannot stat");
    // The null device reads as empty and never blocks: `--config /dev/null` means no config.
    if (S_ISCHR(status.st_mode) && status.st_rdev == makedev(1, 3)) return std::string();
    if (!S_ISREG(status.st_mode))
      return Error(fmt::format("is not a regular file ({}); planlint reads configs, catalogs, rule packs and "
                               "baselines only from regular files",
                               S_ISDIR(status.st_mode)   ? "a folder"
                               : S_ISCHR(status.st_mode) ? "a character device"
                               : S_ISBLK(status.st_mode) ? "a block device"
                               : S_ISFIFO(status.st_mode) ? "a FIFO"
                                                          : "a socket"),
                   Location{path, {}});
    ::fcntl(descriptor, F_SETFL, ::fcntl(descriptor, F_GETFL) & ~O_NONBLOCK);
  }
  std::string text;
  // A regular file's buffer is its size and one byte, to see the end in the second read
  // without growing (the text is kept for the report: no slack per file); a device or a
  // pipe (/dev/zero) has no size and starts at 4 KiB. Either grows by doubling, for a file
  // that grows while it is read, and stops one byte past the limit.
  std::size_t initial = 4096;
  struct stat status {};
  if (fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode)) {
    if (identity) *identity = FileIdentity{static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino)};
    const auto size = static_cast<std::uint64_t>(status.st_size);
    if (size > max_bytes) return too_large(size);
    initial = static_cast<std::size_t>(size) + 1;
  }
  text.resize(initial);
  std::size_t filled = 0;
  while (true) {
    if (filled == text.size()) {
      if (text.size() > max_bytes) return too_large(0);
      // One byte past the limit is enough to know it is passed.
      const std::size_t past_limit = max_bytes < SIZE_MAX ? max_bytes + 1 : max_bytes;
      text.resize(std::min<std::size_t>(text.size() * 2, past_limit));
    }
    const ssize_t count = ::read(descriptor, text.data() + filled, text.size() - filled);
    if (count < 0) {
      if (errno == EINTR) continue;
      return failed("read error");
    }
    if (count == 0) break;
    filled += static_cast<std::size_t>(count);
    if (filled > max_bytes) return too_large(0);
  }
  text.resize(filled);
  return text;
}

}  // namespace

Result<std::string> read_file(const std::string& path, std::size_t max_bytes, std::optional<FileIdentity>* identity) {
  return read_any_file(path, max_bytes, identity, false);
}

Result<std::string> read_regular_file(const std::string& path, std::size_t max_bytes) {
  return read_any_file(path, max_bytes, nullptr, true);
}

Result<std::string> read_regular_descriptor(int descriptor, const std::string& path, std::size_t max_bytes) {
  return read_open_file(descriptor, path, max_bytes, nullptr, true);
}

bool is_toml_path(std::string_view path) {
  constexpr std::string_view extension = ".toml";
  if (path.size() <= extension.size()) return false;
  const std::string_view tail = path.substr(path.size() - extension.size());
  for (std::size_t i = 0; i < extension.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(tail[i])) != extension[i]) return false;
  return true;
}

}  // namespace planlint
