#include "planlint/lint/gitignore.hpp"

#include <algorithm>
#include <optional>

namespace planlint {

namespace {

/// git's trim_trailing_spaces: the spaces at the end of a line go, unless a backslash escapes
/// the first of them.
std::string_view trim_trailing_spaces(std::string_view line) {
  std::optional<std::size_t> last_space;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ' ') {
      if (!last_space) last_space = i;
    } else if (line[i] == '\\') {
      if (++i == line.size()) return line;
      last_space.reset();
    } else {
      last_space.reset();
    }
  }
  return last_space ? line.substr(0, *last_space) : line;
}

}  // namespace

IgnorePatterns::IgnorePatterns(std::string_view text) {
  // Room for every line that can hold a pattern, made at once: growing by doubling, a
  // .gitignore of one-character lines (a pull request's) held twice what it needs.
  std::size_t lines = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    lines += end > begin && text[begin] != '#';
    begin = end + 1;
  }
  patterns_.reserve(lines);
  globs_.reserve(lines);
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    add(line);
  }
}

IgnorePatterns::IgnorePatterns(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) add(line);
}

void IgnorePatterns::add(std::string_view line) {
  if (line.empty() || line.front() == '#') return;
  line = trim_trailing_spaces(line);
  Pattern pattern;
  if (!line.empty() && line.front() == '!') {
    pattern.negated = true;
    line.remove_prefix(1);
  }
  if (!line.empty() && line.back() == '/') {
    pattern.directory_only = true;
    line.remove_suffix(1);
  }
  if (line.empty()) return;
  pattern.anchored = line.find('/') != std::string_view::npos;
  if (line.front() == '/') line.remove_prefix(1);
  globs_.add(line);
  patterns_.push_back(pattern);
}

std::optional<bool> IgnorePatterns::match(std::string_view path, bool directory) const {
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::size_t i = patterns_.size(); i-- > 0;) {
    const Pattern& pattern = patterns_[i];
    if (pattern.directory_only && !directory) continue;
    if (globs_.matches(i, pattern.anchored ? path : name)) return !pattern.negated;
  }
  return std::nullopt;
}

void IgnoreStack::push(std::string folder, IgnorePatterns patterns) {
  levels_.push_back(Level{std::move(folder), std::move(patterns)});
}

void IgnoreStack::pop() { levels_.pop_back(); }

bool IgnoreStack::ignored(std::string_view path, bool directory) const {
  for (auto it = levels_.rbegin(); it != levels_.rend(); ++it) {
    if (it->patterns.empty() || !path.starts_with(it->folder)) continue;
    if (std::optional<bool> verdict = it->patterns.match(path.substr(it->folder.size()), directory)) return *verdict;
  }
  return false;
}

bool ignored_with_folders(const IgnorePatterns& patterns, std::string_view path, bool directory) {
  for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1))
    if (patterns.match(path.substr(0, slash), true).value_or(false)) return true;
  return patterns.match(path, directory).value_or(false);
}

}  // namespace planlint
