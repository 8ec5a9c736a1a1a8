// Comment bodies removed before toml++ parses (source/toml_comments.hpp): exactly what is
// removed, and that toml++ reads the lean text as it reads the original, on every TOML file the
// project has (the toml-test suite, examples, fixtures, rule files) and on variants of them
// with a comment after every line.
#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/source/toml_comments.hpp"
#include "planlint/source/toml_limits.hpp"
#include "support.hpp"
#include "toml_reading.hpp"

using planlint::without_comment_bodies;
using planlint::test::read_toml;
using planlint::test::TomlReading;

namespace {

/// toml++ reads `text` and its lean form alike: the same table with the same regions, or the
/// same error at the same place. Returns whether anything was removed.
bool check_same_parse(const std::string& text, const std::string& label) {
  const std::optional<std::string> lean = without_comment_bodies(text);
  if (!lean) return false;
  INFO(label);
  REQUIRE(lean->size() < text.size());
  const TomlReading original = read_toml(text), stripped = read_toml(*lean);
  REQUIRE(original.parsed == stripped.parsed);
  CHECK(original.error == stripped.error);
  if (original.parsed) {
    CHECK(original.table == stripped.table);
    CHECK(original.regions == stripped.regions);
  }
  return true;
}

/// without_comment_bodies(text + a last line), without that line: a comment on the last line,
/// or just before it, stays (tested below).
std::optional<std::string> lean(const std::string& text) {
  const std::string last = "end = 0\n";
  std::optional<std::string> result = without_comment_bodies(text + last);
  if (result) {
    REQUIRE(result->ends_with(last));
    result->resize(result->size() - last.size());
  }
  return result;
}

}  // namespace

TEST_CASE("a comment's body goes and its '#' and line break stay", "[toml-comments]") {
  CHECK(lean("a = 1 # one\nb = 2\n") == "a = 1 #\nb = 2\n");
  CHECK(lean("# header\n\n[plan] # the plan\n") == "#\n\n[plan] #\n");
  CHECK(lean("a = 1 # tab\there\r\nb = 2\r\n") == "a = 1 #\r\nb = 2\r\n");
  CHECK(lean("a = [\n  1, # one\n  2,\n]\n") == "a = [\n  1, #\n  2,\n]\n");
  // '#' in strings of every kind, quotes and escapes in them, keys in quotes.
  CHECK(lean("a = \"x # y\" # z\n") == "a = \"x # y\" #\n");
  CHECK(lean("a = 'x # y' # z\n") == "a = 'x # y' #\n");
  CHECK(lean("a = \"\\\"# y\" # z\n") == "a = \"\\\"# y\" #\n");
  CHECK(lean("a = \"\\\\\" # z\n") == "a = \"\\\\\" #\n");
  CHECK(lean("a = \"it's\" # z\n") == "a = \"it's\" #\n");
  CHECK(lean("\"k#\" = 1 # z\n") == "\"k#\" = 1 #\n");
  CHECK(lean("a = \"\"\"\n# not\n\"\"\" # z\n") == "a = \"\"\"\n# not\n\"\"\" #\n");
  CHECK(lean("a = \"\"\"x\"\"\"\"\" # z\n") == "a = \"\"\"x\"\"\"\"\" #\n");
  CHECK(lean("a = '''\n# not ''\n''' # z\n") == "a = '''\n# not ''\n''' #\n");
  CHECK(lean("a = \"\" # z\n") == "a = \"\" #\n");
  // At every offset from an eight-byte boundary (the scan goes eight bytes at a time).
  for (std::size_t pad = 0; pad < 20; ++pad) {
    const std::string key = fmt::format("k{}", std::string(pad, 'x'));
    CHECK(lean(key + " = 1 # z\n") == key + " = 1 #\n");
    CHECK(lean(key + " = \"#\" # z\n") == key + " = \"#\" #\n");
    CHECK(lean(key + " = '#' # z\n") == key + " = '#' #\n");
  }
  // Well-formed UTF-8 elsewhere does not stop it.
  CHECK(lean("a = \"容量\" # z\n") == "a = \"容量\" #\n");
  // Comments may hold any character but controls: "×", "—", "≈", "容量".
  CHECK(lean("a = 1 # é\nb = 2 # fine\n") == "a = 1 #\nb = 2 #\n");
  CHECK(lean("# tp 8 × pp 4 — ≈ 6.3e24 FLOP · 容量\n") == "#\n");
}

TEST_CASE("what might not be a valid comment stays for toml++ to judge", "[toml-comments]") {
  // Nothing to remove.
  CHECK_FALSE(without_comment_bodies(""));
  CHECK_FALSE(lean("a = 1\n"));
  CHECK_FALSE(lean("a = 1 #\n"));
  CHECK_FALSE(lean("a = \"# not a comment\"\n"));
  // The last line's comment, and the one before an empty last line: toml++ places the end of
  // the file after the last character.
  CHECK_FALSE(without_comment_bodies("a = [1, # open"));
  CHECK_FALSE(without_comment_bodies("a = [1, # open\n"));
  CHECK(without_comment_bodies("a = [1, # open\n# last") == "a = [1, #\n# last");
  // Bodies toml++ checks: control characters, a bare carriage return, DEL.
  CHECK_FALSE(lean("a = 1 # \x01\n"));
  CHECK_FALSE(lean("a = 1 # x\ry\n"));
  CHECK_FALSE(lean("a = 1 # \x7f\n"));
  // A bad byte at every place in a long body (the check goes sixteen or eight bytes at a time);
  // a tab anywhere is fine.
  for (std::size_t at = 0; at < 24; ++at) {
    // ('\x80' alone is malformed UTF-8: the whole text stays.)
    for (const char bad : {'\x01', '\x1f', '\x7f', '\x80', '\r'}) {
      if (bad == '\r' && at == 23) continue;  // "\r\n": a line break
      std::string body(24, 'c');
      body[at] = bad;
      CHECK_FALSE(lean("a = 1 #" + body + "\n"));
    }
    std::string body(24, 'c');
    body[at] = '\t';
    CHECK(lean("a = 1 #" + body + "\n") == "a = 1 #\n");
    // A multi-byte character anywhere is fine too (its bytes are 0x80 and above).
    std::string wide(24, 'c');
    wide.replace(at, 2, "\xc3\xa9");  // "é"
    CHECK(lean("a = 1 #" + wide + "\n") == "a = 1 #\n");
  }
  // Malformed UTF-8 anywhere: where toml++ reports it depends on how it buffers.
  CHECK_FALSE(lean("a = 1 # z\nb = \"\xc3\"\n"));
  CHECK_FALSE(lean("a = 1 # z\nb = \"\xed\xa0\x80\"\n"));      // a surrogate
  CHECK_FALSE(lean("a = 1 # z\nb = \"\xc0\xaf\"\n"));          // an overlong '/'
  CHECK_FALSE(lean("a = 1 # z\nb = \"\xf4\x90\x80\x80\"\n"));  // above U+10FFFF
  // ...at every offset (the check goes sixteen or eight bytes at a time).
  for (std::size_t at = 0; at < 40; ++at) {
    std::string value(40, 'v');
    value[at] = '\xc3';
    CHECK_FALSE(lean("a = 1 # z\nb = \"" + value + "\"\n"));
    // "é" whole there: well-formed.
    CHECK(lean("a = 1 # z\nb = \"" + value.substr(0, at) + "\xc3\xa9\"\n") ==
          "a = 1 #\nb = \"" + value.substr(0, at) + "\xc3\xa9\"\n");
  }
  // A string that does not close where TOML closes it: the whole text is left as it is.
  CHECK_FALSE(lean("a = \"open\nb = 1 # z\n"));
  CHECK_FALSE(lean("a = 'open\nb = 1 # z\n"));
  CHECK_FALSE(lean("b = 1 # z\na = \"\"\"open # z\n"));
  CHECK_FALSE(without_comment_bodies("b = 1 # z\na = '''open\n"));
  CHECK_FALSE(without_comment_bodies("b = 1 # z\nc = 2\na = \"x\\"));
}

TEST_CASE("toml++ reads edge characters in comments and strings alike without the bodies",
          "[toml-comments]") {
  // Noncharacters, C1 controls, the byte-order mark, line and paragraph separators, the
  // largest code point: in a comment that goes, in one that stays, in a string after them.
  const std::vector<std::string> characters = {"\xef\xbf\xbe", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf",
                                               "\xc2\x80", "\xc2\x85", "\xc2\x9f", "\xef\xbb\xbf",
                                               "\xe2\x80\xa8", "\xe2\x80\xa9", "\xf0\x9f\x98\x80"};
  auto hex = [](const std::string& bytes) {
    std::string out;
    for (const char b : bytes) out += fmt::format("{:02x}", static_cast<unsigned char>(b));
    return out;
  };
  std::size_t changed = 0;
  for (const std::string& c : characters) {
    for (const std::string& text :
         {"# " + c + "\na = 1 # " + c + " x\nb = \"" + c + "\" # " + c + "\nc = 2\n",
          "\xef\xbb\xbf# bom " + c + "\na = '" + c + "' # " + c + "\x01\nb = 1 # z\nc = 2\n",
          "a = \"\"\"\n" + c + " # " + c + "\n\"\"\" # " + c + "\nb = 1\n"})
      if (check_same_parse(text, "text with the bytes " + hex(c))) ++changed;
  }
  CHECK(changed == characters.size() * 3);
}

TEST_CASE("toml++ reads every project TOML file and its lean form alike", "[toml-comments]") {
  const std::vector<std::string> files = planlint::test::project_toml_files();
  REQUIRE(files.size() > 500);
  std::size_t changed = 0, variants = 0;
  for (const std::string& path : files) {
    const std::string text = planlint::test::read_text(path);
    if (check_same_parse(text, path)) ++changed;
    // A comment after every line: inside multi-line strings it is string content, after a
    // backslash it is escaped, inside arrays and after headers it is a comment.
    std::string commented;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t end = std::min(text.find('\n', at), text.size());
      commented.append(text, at, end - at);
      const bool crlf = end > at && text[end - 1] == '\r';
      if (crlf) commented.pop_back();
      commented += " # note 'q' \"d\" # [x] \\";
      if (crlf) commented += '\r';
      if (end < text.size()) commented += '\n';
      at = end + 1;
    }
    if (check_same_parse(commented + "\n", path + " with a comment after every line")) ++variants;
  }
  // The suite's comment tests and the plans' comments are exercised, not skipped.
  CHECK(changed > 100);
  CHECK(variants > 500);
}

TEST_CASE("parse_toml reads ASCII and non-ASCII plans alike", "[toml-comments]") {
  // parse_toml says whether the text toml++ read (comment bodies removed) is ASCII: a comment's
  // "×" leaves a plan ASCII, a value's "×" does not. Either way the document is toml::parse's.
  const std::string commented = "# 8 × H100\n[plan]\nname = \"x\"\n";
  const std::string valued = "[plan]\nname = \"8 × H100\"\n";
  for (const std::string* text : {&commented, &valued}) {
    bool ascii = false;
    const planlint::TomlResult parsed = planlint::parse_toml(*text, "doc.toml", &ascii);
    CHECK(ascii == (text == &commented));
    REQUIRE(parsed);
    CHECK(*parsed == toml::parse(*text, std::string_view("doc.toml")).table());
  }
}
