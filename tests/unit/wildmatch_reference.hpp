#pragma once
// A test oracle for planlint's glob matcher (src/planlint/lint/glob.hpp): git's wildmatch.c
// with WM_PATHNAME, transcribed statement by statement, backtracking as git does. Its cost is
// exponential in the worst case, so it is run on short inputs only (test_glob.cpp, fuzz_glob).
// It counts its calls, so that a test can show what the backtracking costs.
#include <cstddef>
#include <optional>
#include <string_view>

namespace planlint::test {

namespace wildmatch_reference_detail {

// ABORT_ALL: the text ran out, no later star can match; ABORT_TO_STARSTAR: a `*` met a `/`,
// only an enclosing `**` can go on.
enum class Wild { match, no_match, abort_all, abort_to_starstar };

class Wildmatch {
 public:
  // Both end at a NUL, as git's C strings do.
  Wildmatch(std::string_view pattern, std::string_view text)
      : p_(pattern.substr(0, pattern.find('\0'))), t_(text.substr(0, text.find('\0'))) {}
  Wild run() { return dowild(0, 0); }
  std::size_t calls = 0;  ///< dowild() calls, the backtracking's cost

 private:
  char p(std::size_t i) const { return i < p_.size() ? p_[i] : '\0'; }
  char t(std::size_t i) const { return i < t_.size() ? t_[i] : '\0'; }
  static bool glob_special(char c) { return c == '*' || c == '?' || c == '[' || c == '\\'; }

  /// A `[:name:]` class, with git's locale-free ASCII ctype (ctype.c); nullopt for a name git
  /// does not know.
  static std::optional<bool> in_class(std::string_view name, unsigned char c) {
    const bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
    if (name == "alnum") return upper || lower || digit;
    if (name == "alpha") return upper || lower;
    if (name == "blank") return c == ' ' || c == '\t';
    if (name == "cntrl") return c < 32 || c == 127;
    if (name == "digit") return digit;
    if (name == "graph") return c > 32 && c < 127;
    if (name == "lower") return lower;
    if (name == "print") return c >= 32 && c < 127;
    if (name == "punct") return c > 32 && c < 127 && !upper && !lower && !digit;
    if (name == "space") return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (name == "upper") return upper;
    if (name == "xdigit") return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    return std::nullopt;
  }

  Wild dowild(std::size_t pi, std::size_t ti) {
    ++calls;
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

}  // namespace wildmatch_reference_detail

/// Whether git's wildmatch(pattern, path, WM_PATHNAME) matches; `calls` receives the number of
/// recursive calls it made.
inline bool reference_wildmatch(std::string_view pattern, std::string_view path, std::size_t* calls = nullptr) {
  using namespace wildmatch_reference_detail;
  Wildmatch matcher(pattern, path);
  const bool matched = matcher.run() == Wild::match;
  if (calls) *calls = matcher.calls;
  return matched;
}

}  // namespace planlint::test
