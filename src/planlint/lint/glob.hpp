#pragma once
/// Globs as git's wildmatch() reads them with WM_PATHNAME (the matcher of .gitignore lines,
/// `--exclude` and a config's `exclude`), compiled once and matched in time bounded by the
/// pattern's length times the path's, whatever the pattern: a backtracking matcher takes
/// exponential time on `*a*a*a*a*a*b` against a long name, or on `**/` repeated over deep paths.
///
///     GlobSet globs;
///     const std::size_t toml = globs.add("**/gen/*.toml");
///     globs.matches(toml, "a/gen/x.toml");   // true
///     wildmatch("d/*.toml", "d/e/a.toml");   // false: `*` does not match `/`
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace planlint {

/// Whether `path` matches the glob `pattern` as git's wildmatch() decides it with WM_PATHNAME:
/// `*` and `?` do not match `/`; `**` between slashes (or at an end) matches any number of
/// folders, elsewhere it is `*`; `[...]` (`!` or `^` negates, ranges, `[:alpha:]` and git's
/// other classes, ASCII only) matches one character, never `/`; `\` makes the next character
/// literal. A pattern with an unterminated `[`, an unknown class or a trailing lone `\` matches
/// nothing, as in git. Both strings end at a NUL byte, as C strings do for git.
bool wildmatch(std::string_view pattern, std::string_view path);

/// Compiled globs, kept compactly side by side (a `.gitignore` file's lines). Matching runs
/// the pattern as a nondeterministic automaton over the path, one set of live pattern
/// positions per character: each position is visited at most once per character.
class GlobSet {
 public:
  /// Compiles `pattern` (wildmatch's reading); returns its index for matches().
  std::size_t add(std::string_view pattern);
  /// Whether glob `index` matches `path`.
  bool matches(std::size_t index, std::string_view path) const;
  /// The same, adding to `steps` the pattern positions visited, at most
  /// (pattern size + 1) × path size for the pattern as added: the bound tests check.
  bool matches(std::size_t index, std::string_view path, std::size_t& steps) const;
  std::size_t size() const { return globs_.size(); }
  /// Makes room for `globs` more globs (a .gitignore's lines, counted before they are read).
  void reserve(std::size_t globs) { globs_.reserve(globs_.size() + globs); }

 private:
  enum class Kind : std::uint8_t {
    byte,           ///< one character, the payload
    any_but_slash,  ///< `?`
    set,            ///< `[...]`: `sets_[payload]`, which never holds `/`
    star,           ///< `*`: characters but `/`, zero or more
    any,            ///< `**` at the end, or before `\/`: any characters
    folders_entry,  ///< `**/`: zero folders (to the atom after the next), or the next atom
    folders_body,   ///< the `**/` entered: any characters, then its `/`
  };
  /// One step of a glob: its Kind in the low 3 bits, its payload above (4 bytes, as a
  /// .gitignore of one-character lines holds as many atoms as half its size).
  using Atom = std::uint32_t;
  static constexpr std::uint32_t max_payload = UINT32_MAX >> 3;
  static Atom atom(Kind kind, std::uint32_t payload = 0) { return static_cast<Atom>(kind) | payload << 3; }
  static Kind kind_of(Atom atom) { return static_cast<Kind>(atom & 7u); }
  static std::uint32_t payload_of(Atom atom) { return atom >> 3; }
  /// One glob: its atoms in `atoms_`, and the fewest characters a path needs to match it.
  struct Glob {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
    std::uint32_t min_length = 0;  ///< never_matches: no path matches
  };
  static constexpr std::uint32_t never_matches = UINT32_MAX;

  /// Whether an atom that takes one character (byte, `?`, set) takes `c`.
  bool takes(Atom atom, unsigned char c) const;
  bool run(const Glob& glob, std::string_view path, std::size_t& steps) const;

  std::vector<Glob> globs_;
  std::vector<Atom> atoms_;
  std::vector<std::bitset<256>> sets_;
};

}  // namespace planlint
