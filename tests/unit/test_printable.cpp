// The one escaping policy (planlint/diag/printable.hpp): what is shown escaped, what is not.
#include <catch2/catch.hpp>

#include "planlint/diag/printable.hpp"

using namespace planlint;

TEST_CASE("printable escapes controls, bidi controls, separators and malformed UTF-8", "[printable]") {
  CHECK(printable("plain ascii, unchanged") == "plain ascii, unchanged");
  CHECK(printable("GPU × 8 — ≈ 9.6 d, 東京, 🙂") == "GPU × 8 — ≈ 9.6 d, 東京, 🙂");
  CHECK(printable("a\nb\rc\td") == "a\\nb\\rc\\td");
  CHECK(printable("\x1b]0;title\x07\x1b[2J") == "\\x1b]0;title\\x07\\x1b[2J");
  CHECK(printable(std::string("nul\0x", 5)) == "nul\\x00x");
  CHECK(printable("del\x7f") == "del\\x7f");
  CHECK(printable("c1 \xc2\x85 \xc2\x9b") == "c1 \\u0085 \\u009b");
  CHECK(printable("\xe2\x80\xae" "evil" "\xe2\x81\xa6") == "\\u202eevil\\u2066");
  CHECK(printable("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c") == "\\u200e\\u200f\\u061c");
  CHECK(printable("line\xe2\x80\xa8para\xe2\x80\xa9") == "line\\u2028para\\u2029");
  CHECK(printable("bad \xff\xfe end") == "bad \\xff\\xfe end");
  CHECK(printable("overlong \xc0\xaf") == "overlong \\xc0\\xaf");
  CHECK(printable("surrogate \xed\xa0\x80") == "surrogate \\xed\\xa0\\x80");
  CHECK(printable("cut \xe2\x80") == "cut \\xe2\\x80");
  CHECK(printable("too big \xf4\x90\x80\x80") == "too big \\xf4\\x90\\x80\\x80");
  CHECK(is_printable("GPU × 8"));
  CHECK_FALSE(is_printable("a\xe2\x80\xae"));
  CHECK_FALSE(is_printable("long enough to take the eight-byte path\x1b"));
}

TEST_CASE("printable_lines keeps line feeds and escapes the rest", "[printable]") {
  CHECK(printable_lines("## What\n\x1b[31mred\r\n") == "## What\n\\x1b[31mred\\r\n");
}

TEST_CASE("a file name cannot start a workflow command or fake a position", "[printable]") {
  CHECK(printable_path("plans/a.toml") == "plans/a.toml");
  CHECK(printable_path("notes:v2.toml") == "notes:v2.toml");
  CHECK(printable_path("::error::x.toml") == "\\x3a:error::x.toml");
  CHECK(printable_path("x:1:2: error: fake.toml") == "x\\x3a1\\x3a2\\x3a error\\x3a fake.toml");
  CHECK(printable_path("a\n::error::b") == "a\\n::error::b");
  CHECK(printable_line_start("::add-mask::x") == "\\x3a:add-mask::x");
  CHECK(printable_line_start("plan: v2") == "plan: v2");
}

TEST_CASE("Markdown text and code spans hold no HTML, link or closing backtick from input", "[printable]") {
  CHECK(markdown_text("llama-70b 9.6 d") == "llama-70b 9.6 d");
  CHECK(markdown_text("<img src=x onerror=alert(1)> & [a](http://e) `x` *b* a|b \\") ==
        "&lt;img src=x onerror=alert(1)&gt; &amp; \\[a\\](http://e) \\`x\\` \\*b\\* a\\|b \\\\");
  CHECK(markdown_text("one\ntwo") == "one<br>two");
  CHECK(markdown_text("\x1b[2J") == "\\\\x1b\\[2J");
  CHECK(markdown_code_span("llama-70b") == "`llama-70b`");
  CHECK(markdown_code_span("a`b") == "``a`b``");
  CHECK(markdown_code_span("x`` <b>") == "```x`` <b>```");
  CHECK(markdown_code_span("`x") == "`` `x ``");
  CHECK(markdown_code_span("a|b") == "`a\\|b`");
  CHECK(markdown_code_span("\n::error::X") == "`\\n::error::X`");
}

TEST_CASE("JSON text keeps malformed names distinct and escapes invisible characters", "[printable]") {
  CHECK(utf8_or_escaped("plan.toml") == "plan.toml");
  CHECK(utf8_or_escaped("a\xff.toml") == "a\\xff.toml");
  CHECK(utf8_or_escaped("a\xfe.toml") == "a\\xfe.toml");
  CHECK(utf8_or_escaped("ok × \x1b") == "ok × \x1b");  // JSON escapes ESC itself
  CHECK(json_invisibles_escaped("{\"a\": \"x\xe2\x80\xaey\xc2\x85\"}") == "{\"a\": \"x\\u202ey\\u0085\"}");
  CHECK(json_invisibles_escaped("{\"a\": \"× ok\"}") == "{\"a\": \"× ok\"}");
}
