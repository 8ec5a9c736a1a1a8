// Input limits (docs/hardening.md): a file too large, a TOML document nested too deeply, an
// expression too long or too deep is an error that names the limit, never a crash or a hang.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/expr/syntax.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/source/limits.hpp"
#include "planlint/source/source_file.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using namespace planlint;
using planlint::test::Scratch;

namespace {

/// `key` repeated with dots `levels` times: "a.a.a = 1".
std::string dotted_key(std::size_t levels) {
  std::string key = "a";
  for (std::size_t i = 1; i < levels; ++i) key += ".a";
  return key;
}

std::optional<std::size_t> excess_line(std::string_view text, std::size_t max_depth) {
  auto excess = find_toml_limit_excess(text, TomlLimits{max_depth, max_toml_nodes});
  if (!excess) return std::nullopt;
  return excess->position.line;
}

}  // namespace

TEST_CASE("byte sizes read as a person writes them", "[limits]") {
  CHECK(format_byte_size(0) == "0 bytes");
  CHECK(format_byte_size(1) == "1 byte");
  CHECK(format_byte_size(1023) == "1023 bytes");
  CHECK(format_byte_size(1024) == "1 KiB");
  CHECK(format_byte_size(std::size_t{16} << 20) == "16 MiB");
  CHECK(format_byte_size(std::uint64_t{3} << 29) == "1.5 GiB");
  CHECK(format_byte_size(default_max_file_bytes) == "16 MiB");
}

TEST_CASE("a file over the size limit is not read, and the error names the limit and its option",
          "[limits][file-size]") {
  Scratch dir;
  const fs::path file = dir.write("big.toml", std::string(2048, '#'));
  const auto over = read_file(file.string(), 1024);
  REQUIRE_FALSE(over.has_value());
  CHECK(over.error().message == "file of 2 KiB is over the 1 KiB size limit (raise it with --max-file-size)");
  CHECK(over.error().location.file == file.string());

  SECTION("a file of exactly the limit is read") {
    auto text = read_file(file.string(), 2048);
    REQUIRE(text.has_value());
    CHECK(text->size() == 2048);
  }
}

TEST_CASE("a device without a size is read only up to the limit: /dev/zero is an error, not a hang",
          "[limits][file-size]") {
  if (!fs::exists("/dev/zero")) return;
  const auto zero = read_file("/dev/zero", 1 << 20);
  REQUIRE_FALSE(zero.has_value());
  CHECK(zero.error().message == "file is over the 1 MiB size limit (raise it with --max-file-size)");
}

TEST_CASE("reading a folder or a missing file is an error with the system's reason", "[limits][file-size]") {
  Scratch dir;
  const auto folder = read_file(dir.path.string());
  REQUIRE_FALSE(folder.has_value());
  CHECK(folder.error().message == "Is a directory");
  const auto missing = read_file((dir.path / "missing.toml").string());
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message == "No such file or directory");
}

TEST_CASE("planlint check on a file over 16 MiB exits 2 and names the limit", "[limits][file-size][cli]") {
  Scratch dir;
  std::string text = "[plan]\nname = \"big\"\n";
  text += std::string(default_max_file_bytes, '#');
  const fs::path file = dir.write("big.toml", text);
  auto run = test::run_cli({"check", "--no-color", file.string()});
  INFO(run.out << run.err);
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains("16 MiB size limit (raise it with --max-file-size)"));
}

TEST_CASE("the option --max-file-size raises and lowers the file size limit", "[limits][file-size][cli]") {
  Scratch dir;
  std::string text = "[plan]\nname = \"sized\"\n";
  text += std::string(3000, '#');
  const fs::path file = dir.write("sized.toml", text);

  auto lowered = test::run_cli({"check", "--no-color", "--max-file-size", "2KiB", file.string()});
  INFO(lowered.out << lowered.err);
  CHECK(lowered.status == 2);
  CHECK_THAT(lowered.err, Catch::Contains("over the 2 KiB size limit (raise it with --max-file-size)"));

  // The file is read and linted (its findings make the status 1, not 2).
  auto raised = test::run_cli({"check", "--no-color", "--max-file-size", "4 KiB", file.string()});
  INFO(raised.out << raised.err);
  CHECK(raised.status != 2);
  CHECK_THAT(raised.out, Catch::Contains("sized.toml"));

  for (const char* bad : {"lots", "10%", "0", "-5MiB", "3 s"}) {
    auto run = test::run_cli({"check", "--max-file-size", bad, file.string()});
    INFO(bad << ": " << run.err);
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("--max-file-size"));
  }
}

TEST_CASE("a folder run reports a plan over the size limit instead of passing over it",
          "[limits][file-size][cli]") {
  Scratch dir;
  dir.write("plans/small.toml", "[plan]\nname = \"small\"\n");
  dir.write("plans/large.toml", "[plan]\nname = \"large\"\n" + std::string(3000, '#'));
  auto run = test::run_cli({"check", "--no-color", "--max-file-size", "2KiB", (dir.path / "plans").string()});
  INFO(run.out << run.err);
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains("large.toml") && Catch::Contains("over the 2 KiB size limit"));
}

TEST_CASE("the option --max-plans-per-file bounds the plans of one Markdown doc", "[limits][markdown][cli]") {
  Scratch dir;
  std::string doc = "# Capacity review\n";
  for (int i = 0; i < 3; ++i) doc += "```toml\n[plan]\nhmb = 1\n```\n";
  const fs::path file = dir.write("review.md", doc);

  auto over = test::run_cli({"check", "--no-color", "--max-plans-per-file", "2", file.string()});
  INFO(over.out << over.err);
  CHECK(over.status == 2);
  // The error points at the first block over the limit (its opening fence, line 10).
  CHECK_THAT(over.err, Catch::Contains("review.md:10:1: the doc holds 3 plans, over the limit of 2 plans "
                                       "per Markdown file (raise it with --max-plans-per-file)"));

  auto within = test::run_cli({"check", "--no-color", "--max-plans-per-file", "3", file.string()});
  INFO(within.out << within.err);
  CHECK(within.status == 1);  // findings, not an error
  CHECK_THAT(within.out, Catch::Contains("review.md:12:1: error: unknown key 'hmb'"));  // the third block
}

TEST_CASE("TOML nesting counts tables of keys and headers, arrays and inline tables", "[limits][toml-depth]") {
  CHECK_FALSE(excess_line("a.b.c = 1\n", 3));
  CHECK(excess_line("x = 1\na.b.c = 1\n", 2) == 2);
  CHECK_FALSE(excess_line("[a.b]\nc = 1\n", 3));
  CHECK(excess_line("[a.b]\nc.d = 1\n", 3) == 2);
  CHECK(excess_line("[[a.b]]\nc = 1\n", 3) == 2);        // an array of tables is one level more
  CHECK_FALSE(excess_line("x = [[1, 2], [3]]\n", 3));
  CHECK(excess_line("x = [[[1]]]\n", 3) == 1);
  CHECK(excess_line("x = [\n  [\n    [1],\n  ],\n]\n", 3) == 3);
  CHECK(excess_line("x = {a = {b.c = 1}}\n", 4) == 1);
  CHECK(excess_line("[a]\nx = {b = 1, c.d.e = 2}\n", 4) == 2);
  CHECK(excess_line("a.\"b.c\".'d' = 1", 2) == 1);
  CHECK_FALSE(excess_line("a.\"b.c.d.e\".'f.g' = 1", 3));  // dots inside quoted keys are text
}

TEST_CASE("dots and brackets in strings and comments do not nest", "[limits][toml-depth]") {
  CHECK_FALSE(excess_line("x = \"a.b.c.d [[[[ {{{{\"  # a.b.c [[[[\n", 1));
  CHECK_FALSE(excess_line("x = 'a.b.c.d [[[['\n", 1));
  CHECK_FALSE(excess_line("x = \"\"\"\n[[[[\na.b.c.d = 1\n\\\"\"\" \"\"\"\n", 1));
  CHECK_FALSE(excess_line("x = '''\n[[[[\n''''\ny = 1\n", 1));
  CHECK_FALSE(excess_line("# [a.b.c.d]\n  # a.b.c = 1\nx = 1 # [[[[\n", 1));
  CHECK_FALSE(excess_line("x = 1.5e3\ny = 1979-05-27T07:32:00.999\n", 1));
  CHECK_FALSE(excess_line("x = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]\n", 2));
}

TEST_CASE("the example plans, the rule files and every valid toml-test document nest within the limit",
          "[limits][toml-depth]") {
  std::vector<fs::path> files;
  for (const char* folder : {"examples", "rules"})
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(PLANLINT_SOURCE_DIR) / folder))
      if (entry.path().extension() == ".toml") files.push_back(entry.path());
  for (const auto& entry : fs::recursive_directory_iterator(test::corpus_path("valid")))
      if (entry.path().extension() == ".toml") files.push_back(entry.path());
  REQUIRE(files.size() > 40);
  for (const fs::path& path : files) {
    INFO(path.string());
    const std::string text = test::read_text(path);
    CHECK_FALSE(find_toml_limit_excess(text, TomlLimits{max_toml_depth, toml_node_limit(text.size())}).has_value());
  }
  // A plan nests 6 levels at most: [[stages]] estimates."metric" = { value = ... } (an array of
  // tables counts its array and its table).
  for (const auto& entry : fs::directory_iterator(fs::path(PLANLINT_SOURCE_DIR) / "examples")) {
    INFO(entry.path().string());
    CHECK_FALSE(find_toml_limit_excess(test::read_text(entry.path()), TomlLimits{6, max_toml_nodes}).has_value());
  }
}

TEST_CASE("a plan nesting keys 100,000 levels deep is a toml-syntax finding that names the limit",
          "[limits][toml-depth]") {
  // toml++ recurses once per level and overflowed the stack near 50,000 levels.
  for (const std::string& nested : {dotted_key(100'000) + " = 1\n", "[" + dotted_key(100'000) + "]\n",
                                    "x = " + std::string(100'000, '[') + std::string(100'000, ']') + "\n"}) {
    auto source = std::make_shared<const SourceFile>("deep.toml", "[plan]\nname = \"deep\"\n" + nested);
    LintOptions options;
    FileResult result = lint_source(source, options);
    REQUIRE_FALSE(result.diagnostics.empty());
    const Diagnostic& d = result.diagnostics.front();
    INFO(d.message);
    CHECK(d.rule == "toml-syntax");
    CHECK(d.primary.span.begin.line == 3);
    CHECK_THAT(d.message, Catch::Contains("nested deeper than") || Catch::Contains("maximum nested value depth"));
  }
}

TEST_CASE("a document at the nesting limit still parses", "[limits][toml-depth]") {
  auto source = std::make_shared<const SourceFile>(
      "deep.toml", "[plan]\nname = \"deep\"\n[x]\n" + dotted_key(max_toml_depth - 1) + " = 1\n");
  LintOptions options;
  FileResult result = lint_source(source, options);
  REQUIRE(result.plan.has_value());
  for (const Diagnostic& d : result.diagnostics) CHECK(d.rule != "toml-syntax");
}

TEST_CASE("the node limit grows with the file: one per 32 bytes, at least 65,536, at most 524,288",
          "[limits][toml-nodes]") {
  CHECK(toml_node_limit(0) == 65'536);
  CHECK(toml_node_limit(2 << 20) == 65'536);
  CHECK(toml_node_limit(4 << 20) == 131'072);
  CHECK(toml_node_limit(16 << 20) == 524'288);
  CHECK(toml_node_limit(std::size_t{64} << 20) == 524'288);
}

TEST_CASE("TOML nodes are counted at each key's '.' and '=', each header's closing bracket and each array value",
          "[limits][toml-nodes]") {
  // The offset where `text` crosses a limit of `max_nodes` nodes, or nullopt.
  auto crossing = [](std::string_view text, std::size_t max_nodes) -> std::optional<std::size_t> {
    const auto excess = find_toml_limit_excess(text, TomlLimits{max_toml_depth, max_nodes});
    if (!excess) return std::nullopt;
    CHECK(excess->limit == TomlLimitExcess::Limit::nodes);
    return excess->offset;
  };
  CHECK_FALSE(crossing("a.b.c = 1\n", 3));
  CHECK(crossing("a.b.c = 1\n", 2) == 6);          // the '='
  CHECK_FALSE(crossing("[a.b]\n", 2));
  CHECK(crossing("[a.b]\n[c]\n", 2) == 8);         // the second header's ']'
  CHECK(crossing("[[t]]\n", 1) == 3);              // "]]": the key and the array's entry
  CHECK_FALSE(crossing("[[t]]\n", 2));
  CHECK_FALSE(crossing("x = [1, 2, 3]\n", 4));     // x, and three values
  CHECK(crossing("x = [1, 2, 3]\n", 3) == 12);     // the array's ']'
  CHECK_FALSE(crossing("t = {a = 1, b = [2]}\n", 4));  // t, a, b and 2: an inline table's ',' is no node
  CHECK(crossing("t = {a = 1, b = [2]}\n", 3) == 18);
  // Dots, commas and brackets in strings, comments and values are not nodes.
  CHECK_FALSE(crossing("x = \"a.b=c,]\" # a.b = [1, 2]\ny = 1.5\nz = '''\n[a.b]\n'''\n", 3));
}

TEST_CASE("a file with more keys and values than its size allows is a toml-syntax finding at the one that crosses",
          "[limits][toml-nodes]") {
  // 200,000 lines of a two-level key: 400,000 nodes in 2.5 MB, where about 80,000 are allowed.
  std::string text = "[plan]\nname = \"many\"\n";
  for (int i = 0; i < 200'000; ++i) text += "k" + std::to_string(i) + ".a = 1\n";
  const std::size_t limit = toml_node_limit(text.size());
  REQUIRE(limit == text.size() / 32);
  auto source = std::make_shared<const SourceFile>("many.toml", text);
  LintOptions options;
  const FileResult result = lint_source(source, options);
  REQUIRE(result.diagnostics.size() == 1);
  const Diagnostic& d = result.diagnostics.front();
  CHECK(d.rule == "toml-syntax");
  CHECK(d.message == fmt::format("invalid TOML: more than {} keys and array values, planlint's fixed limit for a TOML "
                                 "file of {} (one for each 32 bytes, at least 65536 and at most 524288); a plan "
                                 "holds a few hundred",
                                 limit, format_byte_size(text.size())));
  // [plan]'s two nodes (its ']' and name's '='), then two a line (its '.' and '='): node
  // limit + 1 is on line 3 + (limit - 2) / 2.
  CHECK(d.primary.span.begin.line == 3 + (limit - 2) / 2);
  CHECK_FALSE(result.plan.has_value());
}

TEST_CASE("expressions too long or too deep are syntax errors that name the limit", "[limits][expr]") {
  using expr::SyntaxError;
  auto error_of = [](const std::string& text) {
    auto result = expr::parse_expression(text);
    INFO(text.substr(0, 80));
    REQUIRE(std::holds_alternative<SyntaxError>(result));
    return std::get<SyntaxError>(result);
  };
  auto parses = [](const std::string& text) {
    return std::holds_alternative<expr::NodePtr>(expr::parse_expression(text));
  };
  const std::size_t depth = expr::max_expression_depth;
  CHECK(parses(std::string(depth, '(') + "1" + std::string(depth, ')')));
  CHECK_THAT(error_of(std::string(depth + 1, '(') + "1" + std::string(depth + 1, ')')).message,
             Catch::Contains("nested deeper than 64 levels"));
  CHECK_THAT(error_of(std::string(2000, '[') + std::string(2000, ']')).message,
             Catch::Contains("nested deeper than 64 levels"));
  std::string sum = "1";
  while (sum.size() <= expr::max_expression_length) sum += " + 1";
  CHECK_THAT(error_of(sum).message, Catch::Contains("longer than 4096 characters"));
  // Prefix operators recurse in the parser as brackets do.
  for (const char* prefix : {"-", "not ", "2 ^ "}) {
    std::string text;
    for (int i = 0; i < 1000; ++i) text += prefix;
    text += "1";
    CHECK_FALSE(parses(text));
  }
  // A long flat chain is not nesting.
  std::string chain = "1";
  for (int i = 0; i < 500; ++i) chain += " * 2";
  CHECK(parses(chain));
}
