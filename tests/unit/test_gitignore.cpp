// The .gitignore matcher against git's documented rules (gitignore(5)), case by case, each case
// also checked against git itself: the same files in a fresh repository, and `git ls-files
// --others --exclude-standard` lists those git does not ignore.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "integration_support.hpp"
#include "planlint/lint/gitignore.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

struct IgnoreCase {
  const char* what;
  std::map<std::string, std::string> gitignores;  ///< folder ("" or "sub/") → .gitignore text
  std::vector<std::pair<std::string, bool>> files;  ///< a file, and whether git ignores it
};

const std::vector<IgnoreCase>& cases() {
  static const std::vector<IgnoreCase> all = {
      {"a name matches at any depth", {{"", "*.log\n"}}, {{"a.log", true}, {"d/b.log", true}, {"a.toml", false}}},
      {"! takes a file back", {{"", "*.toml\n!keep.toml\n"}},
       {{"x.toml", true}, {"keep.toml", false}, {"d/keep.toml", false}}},
      {"the last matching pattern wins", {{"", "!keep.toml\n*.toml\n"}}, {{"keep.toml", true}}},
      {"dir/ matches folders only", {{"", "build/\n"}},
       {{"a/build", false}, {"build/x.toml", true}, {"d/build/x.toml", true}}},
      {"a name without / matches folders too", {{"", "docs\n"}}, {{"docs/a.md", true}, {"x/docs", true}, {"docsy", false}}},
      {"/x is anchored", {{"", "/x.toml\n"}}, {{"x.toml", true}, {"d/x.toml", false}}},
      {"a middle slash anchors", {{"", "d/x.toml\n"}}, {{"d/x.toml", true}, {"e/d/x.toml", false}}},
      {"* does not cross a slash", {{"", "d/*.toml\n"}}, {{"d/a.toml", true}, {"d/e/a.toml", false}}},
      {"**/ matches in every folder", {{"", "**/gen/*.toml\n"}},
       {{"gen/a.toml", true}, {"a/b/gen/c.toml", true}, {"gen/sub/a.toml", false}}},
      {"/**/ matches zero or more folders", {{"", "a/**/z.toml\n"}},
       {{"a/z.toml", true}, {"a/b/c/z.toml", true}, {"b/a/z.toml", false}}},
      {"trailing /** matches everything inside", {{"", "out/**\n"}},
       {{"out/a.toml", true}, {"out/x/y.toml", true}, {"outer/a.toml", false}}},
      {"other ** are *", {{"", "x**y.toml\n"}}, {{"xay.toml", true}, {"x/y.toml", false}}},
      {"? is one character, not /", {{"", "plan-?.toml\n"}},
       {{"plan-1.toml", true}, {"plan-10.toml", false}, {"plan-.toml", false}}},
      {"[...] sets, ranges, negation and classes", {{"", "[ab]*.toml\n[!a-m]x.toml\n[[:digit:]]y.toml\n[^p]z.toml\n"}},
       {{"a1.toml", true},
        {"c1.toml", false},
        {"zx.toml", true},
        {"cx.toml", false},
        {"7y.toml", true},
        {"qy.toml", false},
        {"qz.toml", true},
        {"pz.toml", false}}},
      {"] first in a set is literal", {{"", "[]a]q.toml\n"}}, {{"]q.toml", true}, {"aq.toml", true}, {"bq.toml", false}}},
      {"# starts a comment; \\# and \\! are literal", {{"", "#c.toml\n\\#notes.toml\n\\!bang.toml\n"}},
       {{"#c.toml", false}, {"#notes.toml", true}, {"!bang.toml", true}}},
      {"trailing spaces are dropped unless escaped", {{"", "space.toml   \ntrail\\ \n"}},
       {{"space.toml", true}, {"trail ", true}, {"trail", false}}},
      {"blank lines and CRLF", {{"", "\n   \ncrlf.toml\r\n"}}, {{"crlf.toml", true}, {"other.toml", false}}},
      {"a deeper .gitignore wins", {{"", "*.toml\n"}, {"keep/", "!*.toml\n"}},
       {{"a.toml", true}, {"keep/b.toml", false}, {"keep/c/d.toml", false}}},
      {"a nested .gitignore is relative to its folder", {{"sub/", "/local.toml\nd/x.toml\n"}},
       {{"sub/local.toml", true}, {"sub/deeper/local.toml", false}, {"local.toml", false}, {"sub/d/x.toml", true},
        {"d/x.toml", false}}},
      {"no file comes back from an ignored folder", {{"", "build/\n!build/keep.toml\n"}},
       {{"build/keep.toml", true}, {"keep.toml", false}}},
      {"a folder taken back with its files", {{"", "gen/*\n!gen/plans/\n"}},
       {{"gen/a.toml", true}, {"gen/plans/b.toml", false}}},
      {"an escaped star is literal", {{"", "a\\*.toml\n"}}, {{"a*.toml", true}, {"ab.toml", false}}},
      // The patterns that make a backtracking matcher slow, at sizes git itself matches quickly.
      {"many stars", {{"", "*a*a*a*a*b.toml\nx*y*z*?*w\n"}},
       {{"xaxaxaxab.toml", true},
        {"aaaab.toml", true},
        {"aaab.toml", false},
        {"aaaaaaaaaaaaaaaaaaaaaaaaa.toml", false},
        {"xyzqw", true},
        {"xyzw", false}}},
      {"**/ repeated", {{"", "**/**/**/deep.toml\na/**/**/**/b/*.toml\n"}},
       {{"deep.toml", true},
        {"p/q/r/s/t/deep.toml", true},
        {"p/deeper.toml", false},
        {"a/b/x.toml", true},
        {"a/p/q/b/x.toml", true},
        {"a/p/q/c/x.toml", false}}},
      {"**/ around stars", {{"", "**/x*/**/*y.toml\n"}},
       {{"x/y.toml", true}, {"p/xq/r/s/zy.toml", true}, {"p/q/zy.toml", false}, {"xq/zy.toml", true}}},
      {"classes, in git's ASCII ctype", {{"", "[[:space:]]s.toml\n[[:upper:]]u.toml\n[[:punct:]]p.toml\n[[:alnum:]_]n.toml\n"}},
       {{" s.toml", true},
        {"\ts.toml", true},
        {"\vs.toml", false},
        {"Uu.toml", true},
        {"uu.toml", false},
        {"_p.toml", true},
        {"ap.toml", false},
        {"_n.toml", true},
        {"9n.toml", true},
        {"-n.toml", false}}},
      {"escapes in patterns and sets", {{"", "\\[x\\].toml\n\\?q.toml\n[\\]\\-]e.toml\n[!\\!]b.toml\n"}},
       {{"[x].toml", true},
        {"x.toml", false},
        {"?q.toml", true},
        {"aq.toml", false},
        {"]e.toml", true},
        {"-e.toml", true},
        {"\\e.toml", false},
        {"!b.toml", false},
        {"ab.toml", true}}},
      {"a broken set matches nothing", {{"", "[broken.toml\n[[:nope:]]x.toml\n"}},
       {{"[broken.toml", false}, {"bx.toml", false}, {"other.toml", false}}},
  };
  return all;
}

/// Whether planlint ignores `path` as a folder search gets there: each folder on the way
/// checked (a search does not enter an ignored one), its .gitignore pushed, then the file.
bool planlint_ignores(const IgnoreCase& c, const std::string& path) {
  IgnoreStack stack;
  auto push = [&](const std::string& folder) {
    if (auto it = c.gitignores.find(folder); it != c.gitignores.end()) stack.push(folder, IgnorePatterns(it->second));
  };
  push("");
  for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    if (stack.ignored(path.substr(0, slash), true)) return true;
    push(path.substr(0, slash + 1));
  }
  return stack.ignored(path, false);
}

}  // namespace

TEST_CASE("The .gitignore matcher follows gitignore(5)", "[gitignore]") {
  for (const IgnoreCase& c : cases()) {
    for (const auto& [path, ignored] : c.files) {
      INFO(c.what << ": " << path);
      CHECK(planlint_ignores(c, path) == ignored);
    }
  }
}

TEST_CASE("The .gitignore cases are what git itself does", "[gitignore][git]") {
  std::string version;
  if (run_command("git --version", version) != 0) {
    WARN("git is not installed: the cases are checked against gitignore(5) only");
    return;
  }
  for (const IgnoreCase& c : cases()) {
    Scratch dir;
    fs::remove_all(dir.path / ".git");
    std::string output;
    REQUIRE(run_command("git init -q " + quote(dir.path.string()), output) == 0);
    for (const auto& [folder, text] : c.gitignores) dir.write(folder + ".gitignore", text);
    for (const auto& [path, ignored] : c.files) dir.write(path, "");
    // Only this repository's .gitignore files: no global excludes file.
    REQUIRE(run_command("git -C " + quote(dir.path.string()) +
                            " -c core.excludesFile=/dev/null ls-files -z --others --exclude-standard",
                        output) == 0);
    std::set<std::string> listed;
    for (std::size_t begin = 0, end; (end = output.find('\0', begin)) != std::string::npos; begin = end + 1)
      listed.insert(output.substr(begin, end - begin));
    for (const auto& [path, ignored] : c.files) {
      INFO(c.what << ": " << path);
      CHECK((listed.count(path) == 0) == ignored);
    }
  }
}

TEST_CASE("Exclude globs leave out a folder's files with it", "[gitignore]") {
  const IgnorePatterns patterns(std::vector<std::string>{"drafts/", "*.old.toml", "/top.toml"});
  CHECK(ignored_with_folders(patterns, "drafts/a/b.toml", false));
  CHECK(ignored_with_folders(patterns, "x/drafts/b.toml", false));
  CHECK(ignored_with_folders(patterns, "x/a.old.toml", false));
  CHECK(ignored_with_folders(patterns, "top.toml", false));
  CHECK_FALSE(ignored_with_folders(patterns, "x/top.toml", false));
  CHECK_FALSE(ignored_with_folders(patterns, "plans/a.toml", false));
}
