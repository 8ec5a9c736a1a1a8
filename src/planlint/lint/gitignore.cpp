#include "planlint/lint/gitignore.hpp"

#include <cctype>
#include <cstring>
#include <utility>

namespace planlint {

namespace {

// wildmatch() follows git's wildmatch.c (itself from rsync): the same results, including its
// early stops. ABORT_ALL: the text ran out, no later star can match; ABORT_TO_STARSTAR: a `*`
// met a `/`, only an enclosing `**` can go on.
enum class Wild { match, no_match, abort_all, abort_to_starstar };

class Wildmatch {
 public:
  Wildmatch(std::string_view pattern, std::string_view text) : p_(pattern), t_(text) {}
  Wild run() { return dowild(0, 0); }

 private:
  char p(std::size_t i) const { return i < p_.size() ? p_[i] : '\0'; }
  char t(std::size_t i) const { return i < t_.size() ? t_[i] : '\0'; }
  static bool glob_special(char c) { return c == '*' || c == '?' || c == '[' || c == '\\'; }

  /// A `[:name:]` class; nullopt for a name git does not know.
  static std::optional<bool> in_class(std::string_view name, unsigned char c) {
    if (name == "alnum") return std::isalnum(c) != 0;
    if (name == "alpha") return std::isalpha(c) != 0;
    if (name == "blank") return c == ' ' || c == '\t';
    if (name == "cntrl") return std::iscntrl(c) != 0;
    if (name == "digit") return std::isdigit(c) != 0;
    if (name == "graph") return std::isgraph(c) != 0;
    if (name == "lower") return std::islower(c) != 0;
    if (name == "print") return std::isprint(c) != 0;
    if (name == "punct") return std::ispunct(c) != 0;
    if (name == "space") return std::isspace(c) != 0;
    if (name == "upper") return std::isupper(c) != 0;
    if (name == "xdigit") return std::isxdigit(c) != 0;
    return std::nullopt;
  }

  Wild dowild(std::size_t pi, std::size_t ti) const {
    for (char pc; (pc = p(pi)) != '\0'; ++ti, ++pi) {
      char tc = t(ti);
      if (tc == '\0' && pc != '*') return Wild::abort_all;
      switch (pc) {
        case '\\':
          pc = p(++pi);  // the next character, literally
          [[fallthrough]];
        default:
          if (tc != pc) return Wild::no_match;
          continue;
        case '?':
          if (tc == '/') return Wild::no_match;
          continue;
        case '*': {
          bool match_slash = false;
          if (p(++pi) == '*') {
            const bool after_slash = pi < 2 || p(pi - 2) == '/';
            while (p(++pi) == '*') {}
            if (after_slash && (p(pi) == '\0' || p(pi) == '/' || (p(pi) == '\\' && p(pi + 1) == '/'))) {
              // `**/` matching no folder at all: foo/**/bar matches foo/bar.
              if (p(pi) == '/' && dowild(pi + 1, ti) == Wild::match) return Wild::match;
              match_slash = true;
            }
          }
          if (p(pi) == '\0') {
            // A trailing `**` matches everything; a trailing `*` what has no more slashes.
            if (!match_slash && t_.find('/', ti) != std::string_view::npos) return Wild::no_match;
            return Wild::match;
          }
          if (!match_slash && p(pi) == '/') {
            // `*/`: the rest of this folder's name.
            const std::size_t slash = t_.find('/', ti);
            if (slash == std::string_view::npos) return Wild::no_match;
            ti = slash;
            break;  // the slash is matched by the loop
          }
          while (true) {
            if (tc == '\0') break;
            // Before a literal, skip to where the text has it.
            if (!glob_special(p(pi))) {
              const char literal = p(pi);
              while ((tc = t(ti)) != '\0' && (match_slash || tc != '/')) {
                if (tc == literal) break;
                ++ti;
              }
              if (tc != literal) return Wild::no_match;
            }
            const Wild matched = dowild(pi, ti);
            if (matched != Wild::no_match) {
              if (!match_slash || matched != Wild::abort_to_starstar) return matched;
            } else if (!match_slash && tc == '/') {
              return Wild::abort_to_starstar;
            }
            tc = t(++ti);
          }
          return Wild::abort_all;
        }
        case '[': {
          pc = p(++pi);
          if (pc == '^') pc = '!';
          const bool negated = pc == '!';
          if (negated) pc = p(++pi);
          char previous = '\0';
          bool matched = false;
          do {
            if (pc == '\0') return Wild::abort_all;
            if (pc == '\\') {
              pc = p(++pi);
              if (pc == '\0') return Wild::abort_all;
              if (tc == pc) matched = true;
            } else if (pc == '-' && previous != '\0' && p(pi + 1) != '\0' && p(pi + 1) != ']') {
              pc = p(++pi);
              if (pc == '\\') {
                pc = p(++pi);
                if (pc == '\0') return Wild::abort_all;
              }
              if (static_cast<unsigned char>(tc) <= static_cast<unsigned char>(pc) &&
                  static_cast<unsigned char>(tc) >= static_cast<unsigned char>(previous))
                matched = true;
              pc = '\0';  // no range goes on from a range's end
            } else if (pc == '[' && p(pi + 1) == ':') {
              const std::size_t name_begin = pi + 2;
              for (pi = name_begin; (pc = p(pi)) != '\0' && pc != ']'; ++pi) {}
              if (pc == '\0') return Wild::abort_all;
              if (pi < name_begin + 1 || p(pi - 1) != ':') {
                // No ":]": a `[` like any other character of the set.
                pi = name_begin - 2;
                pc = '[';
                if (tc == pc) matched = true;
              } else {
                const std::optional<bool> in =
                    in_class(p_.substr(name_begin, pi - 1 - name_begin), static_cast<unsigned char>(tc));
                if (!in) return Wild::abort_all;  // a class git does not know
                if (*in) matched = true;
                pc = '\0';
              }
            } else if (tc == pc) {
              matched = true;
            }
            previous = pc;
          } while ((pc = p(++pi)) != ']');
          if (matched == negated || tc == '/') return Wild::no_match;
          continue;
        }
      }
    }
    return ti < t_.size() ? Wild::no_match : Wild::match;
  }

  std::string_view p_, t_;
};

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

bool wildmatch(std::string_view pattern, std::string_view path) {
  return Wildmatch(pattern, path).run() == Wild::match;
}

IgnorePatterns::IgnorePatterns(std::string_view text) {
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
  pattern.glob = std::string(line);
  patterns_.push_back(std::move(pattern));
}

std::optional<bool> IgnorePatterns::match(std::string_view path, bool directory) const {
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it) {
    if (it->directory_only && !directory) continue;
    if (wildmatch(it->glob, it->anchored ? path : name)) return !it->negated;
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
