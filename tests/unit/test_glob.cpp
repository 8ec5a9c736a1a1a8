// The glob matcher (src/planlint/lint/glob.hpp): git's wildmatch results, case by case and
// against a transcription of git's own backtracking algorithm on many short inputs, and a
// cost bounded by pattern × path on the inputs that make the backtracking exponential.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "planlint/lint/glob.hpp"
#include "wildmatch_reference.hpp"

using namespace planlint;
using planlint::test::reference_wildmatch;

namespace {

struct GlobCase {
  std::string pattern, path;
  bool matches;
};

// Each case's verdict is what git's wildmatch.c gives with WM_PATHNAME (the reference below
// checks that too).
const std::vector<GlobCase> glob_cases = {
    {"plan.toml", "plan.toml", true},
    {"plan.toml", "plan.tom", false},
    {"", "", true},
    {"", "a", false},
    {"p??n", "plan", true},
    {"p?an", "p/an", false},
    {"*", "plans", true},
    {"*", "a/b", false},
    {"*.toml", "x.toml", true},
    {"*.toml", "d/x.toml", false},
    {"d/*", "d/x", true},
    {"d/*", "d/x/y", false},
    {"d/**", "d/x/y", true},
    {"d/**", "d/", true},
    {"d/**", "d", false},
    {"**", "a/b/c", true},
    {"**/x", "x", true},
    {"**/x", "a/b/x", true},
    {"**/x", "ax", false},
    {"**/x", "a/bx", false},
    {"a/**/b", "a/b", true},
    {"a/**/b", "a/x/y/b", true},
    {"a/**/b", "a/xb", false},
    {"a/**/**/b", "a/b", true},
    {"a/**/**/b", "a/x/b", true},
    {"a/**/**/**", "a/x", true},
    {"**/**", "a/b", true},
    {"***/x", "a/b/x", true},
    {"/**/x", "/a/x", true},
    {"**\\/x", "a/b/x", true},
    {"**\\/x", "x", false},
    {"**/*.toml", "a/b.toml", true},
    {"**/*.toml", "b.toml", true},
    {"**/*.toml", "a/b/toml", false},
    // `**` that is not a whole name is `*`.
    {"a**b", "a/b", false},
    {"a**b", "axyb", true},
    {"**b", "x/b", false},
    {"a/**b", "a/x/b", false},
    {"a/b**", "a/bc/d", false},
    {"*/x", "d/x", true},
    {"*/x", "d/e/x", false},
    {"*/x", "/x", true},
    {"*a*a*b", "aaab", true},
    {"*a*a*b", "ab", false},
    {"\\*", "*", true},
    {"\\*", "a", false},
    {"\\a\\b", "ab", true},
    {"\\\\", "\\", true},
    // A lone `\` at the end matches nothing, not even itself.
    {"a\\", "a", false},
    {"a\\", "a\\", false},
    {"[ab]x", "bx", true},
    {"[ab]x", "cx", false},
    {"[!ab]x", "cx", true},
    {"[^ab]x", "ax", false},
    {"[!a]", "/", false},
    {"[/]", "/", false},
    {"x[!a-z]y", "x/y", false},
    {"[]]", "]", true},
    {"[]a]", "a", true},
    {"[!]]", "a", true},
    {"[!]]", "]", false},
    {"[a-c]", "b", true},
    {"[a-c]", "d", false},
    {"[c-a]", "b", false},
    {"[a-]", "-", true},
    {"[-a]", "-", true},
    {"[a-c-e]", "-", true},
    {"[a-c-e]", "d", false},
    {"[a-c-e]", "e", true},
    {"[\\]]", "]", true},
    {"[\\\\]", "\\", true},
    {"[\\a-\\c]", "b", true},
    {"[[:digit:]]x", "7x", true},
    {"[[:digit:]]x", "ax", false},
    {"[[:alpha:][:digit:]]", "Z", true},
    {"[a[:digit:]-z]", "-", true},
    {"[[:space:]]", " ", true},
    {"[[:space:]]", "\r", true},
    {"[[:space:]]", "\v", false},  // git's locale-free ctype
    {"[[:upper:]]", "\xc3", false},
    {"[[:punct:]]", "_", true},
    {"[[:xdigit:]]", "F", true},
    {"[[:xdigit:]]", "g", false},
    {"[[:cntrl:]]", "\x7f", true},
    // `[:` without `:]` is a `[`; an unknown class, or no `]`, matches nothing.
    {"[[:x]", "x", true},
    {"[[:x]", ":", true},
    {"[[:x]", "[", true},
    {"[[:nope:]]", "a", false},
    {"*[[:nope:]]", "a", false},
    {"[a", "[a", false},
    {"a[", "a[", false},
    {"[", "[", false},
    // Strings end at a NUL, as in C.
    {std::string("a\0b", 3), "a", true},
    {"a", std::string("a\0b", 3), true},
};

}  // namespace

TEST_CASE("Globs match as git's wildmatch with WM_PATHNAME", "[glob]") {
  for (const GlobCase& c : glob_cases) {
    INFO("pattern '" << c.pattern << "', path '" << c.path << "'");
    CHECK(wildmatch(c.pattern, c.path) == c.matches);
    CHECK(reference_wildmatch(c.pattern, c.path) == c.matches);
  }
}

TEST_CASE("Globs agree with git's backtracking algorithm on many short patterns and paths", "[glob]") {
  // Pieces that meet every branch of wildmatch.c: stars and their runs, slashes, sets with
  // ranges, negation, escapes and classes, and the ways they break.
  const std::vector<std::string> pieces = {"a", "b", "/", "*", "**", "?", "[", "]", "!", "^", "-", "\\", ":",
                                           "[:digit:]", "[:space:]", "[:nope:]", "1", " ", "[a-b]", "**/"};
  const std::string path_bytes = "ab/1 -]:[\\!*\t";
  std::mt19937 random(39);
  GlobSet globs;
  std::size_t matched = 0;
  for (int i = 0; i < 30000; ++i) {
    std::string pattern, path;
    for (int n = std::uniform_int_distribution<int>(0, 7)(random); n > 0; --n)
      pattern += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(random)];
    for (int n = std::uniform_int_distribution<int>(0, 9)(random); n > 0; --n)
      path += path_bytes[std::uniform_int_distribution<std::size_t>(0, path_bytes.size() - 1)(random)];
    const bool expected = reference_wildmatch(pattern, path);
    matched += expected;
    INFO("pattern '" << pattern << "', path '" << path << "'");
    REQUIRE(globs.matches(globs.add(pattern), path) == expected);
  }
  // Both verdicts are well represented, so the agreement says something.
  CHECK(matched > 500);
  CHECK(matched < 29500);
}

TEST_CASE("A glob's cost is bounded by pattern × path where backtracking is exponential", "[glob][hostile]") {
  struct Worst {
    std::string pattern, path;
    bool matches;
  };
  std::string deep;  // f1/f2/.../f30/plan.toml
  for (int i = 1; i <= 30; ++i) deep += "f" + std::to_string(i) + "/";
  std::string deeper;
  for (int i = 1; i <= 300; ++i) deeper += "d/";
  std::string folders_20, folders_300, stars_6, stars_60;
  for (int i = 0; i < 20; ++i) folders_20 += "**/";
  for (int i = 0; i < 300; ++i) folders_300 += "*/**/";
  for (int i = 0; i < 6; ++i) stars_6 += "*a";
  for (int i = 0; i < 60; ++i) stars_60 += "*a";
  const std::vector<Worst> worst = {
      {stars_6 + "*b", std::string(195, 'a') + ".toml", false},
      {stars_60 + "*b", std::string(4000, 'a'), false},
      {stars_60 + "*b", std::string(4000, 'a') + "b", true},
      {folders_20 + "nomatch.toml", deep + "plan.toml", false},
      {folders_20 + "plan.toml", deep + "plan.toml", true},
      {folders_300 + "x", deeper + "y", false},
      {"*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*[0-9]", std::string(3000, 'q'), false},
  };
  for (const Worst& w : worst) {
    INFO("pattern of " << w.pattern.size() << " bytes, path of " << w.path.size());
    GlobSet globs;
    const std::size_t glob = globs.add(w.pattern);
    std::size_t steps = 0;
    CHECK(globs.matches(glob, w.path, steps) == w.matches);
    CHECK(steps <= (w.pattern.size() + 1) * w.path.size());
  }
  // The backtracking it replaces, on the first case cut to a 35-character name, already makes
  // hundreds of thousands of calls where the matcher visits a few hundred positions.
  const std::string name = std::string(30, 'a') + ".toml";
  std::size_t calls = 0, steps = 0;
  CHECK_FALSE(reference_wildmatch(stars_6 + "*b", name, &calls));
  GlobSet globs;
  CHECK_FALSE(globs.matches(globs.add(stars_6 + "*b"), name, steps));
  CHECK(calls > 50 * steps);
}

TEST_CASE("A glob set keeps each glob's verdict apart", "[glob]") {
  GlobSet globs;
  const std::size_t toml = globs.add("*.toml");
  const std::size_t broken = globs.add("[a");
  const std::size_t folders = globs.add("**/gen/**");
  CHECK(globs.size() == 3);
  CHECK(globs.matches(toml, "a.toml"));
  CHECK_FALSE(globs.matches(broken, "a"));
  CHECK(globs.matches(folders, "x/gen/y/z"));
  CHECK_FALSE(globs.matches(folders, "x/gen"));
  CHECK_FALSE(globs.matches(toml, "x/gen/a.toml"));
}
