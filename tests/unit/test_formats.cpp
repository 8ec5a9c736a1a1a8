// The output-format table (emit/formats.hpp): the formats `planlint check --format` offers, and
// whether each writes a file's findings as the run delivers them.
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "planlint/emit/formats.hpp"
#include "support.hpp"

using namespace planlint;

TEST_CASE("the output formats are one table the command line offers", "[formats]") {
  // By membership: a new row of the table is offered with no test to edit.
  const std::vector<std::string> names = output_format_names();
  REQUIRE(names.size() == output_formats().size());
  for (const OutputFormat& format : output_formats()) {
    INFO(format.name);
    CHECK(std::count(names.begin(), names.end(), format.name) == 1);
    CHECK(find_output_format(format.name) == &format);
  }
  for (const char* documented : {"text", "concise", "sarif", "json", "github", "gitlab", "junit"}) {
    INFO(documented << " is in docs/cli.md");
    CHECK(find_output_format(documented) != nullptr);
  }
  REQUIRE(find_output_format("sarif") != nullptr);
  CHECK(find_output_format("sarif")->lists_rules);
  CHECK(find_output_format("xml") == nullptr);
  CHECK(find_output_format("full") == find_output_format("text"));  // ruff's name, an alias in the table
  // The error lists every choice: each format of the table and its aliases.
  const test::CliRun run = test::run_cli({"check", "--format", "xml", "x.toml"});
  CHECK(run.status == 2);
  const std::string head = "planlint: error: --format: xml not in {", tail = "}\nRun 'planlint --help' for usage.\n";
  REQUIRE_THAT(run.err, Catch::StartsWith(head) && Catch::EndsWith(tail));
  std::vector<std::string> offered;
  std::istringstream choices(run.err.substr(head.size(), run.err.size() - head.size() - tail.size()));
  for (std::string choice; std::getline(choices, choice, ',');) offered.push_back(choice);
  std::vector<std::string> expected = output_format_choices();
  std::sort(offered.begin(), offered.end());
  std::sort(expected.begin(), expected.end());
  CHECK(offered == expected);
}

TEST_CASE("a streaming format writes each file as it is delivered, a document format at the end", "[formats]") {
  auto source = std::make_shared<const SourceFile>("plan.toml", "[plan]\nnme = 1\n");
  Diagnostic d;
  d.rule = "unknown-key";
  d.severity = Severity::error;
  d.message = "unknown key 'nme' in [plan]";
  d.primary = Location{"plan.toml", Span{{2, 1}, {2, 4}}};
  RuleDescriptor rule;
  rule.id = "unknown-key";
  rule.group = "structure";
  rule.summary = "A key the plan format does not have";
  for (const OutputFormat& format : output_formats()) {
    INFO(format.name);
    std::ostringstream out;
    const std::unique_ptr<Emitter> emitter = format.make(out, EmitterSettings{});
    std::vector<Diagnostic> findings{d};
    emitter->file(source, findings);
    CHECK(out.str().empty() == !format.streaming);
    const std::size_t streamed = out.str().size();
    emitter->finish(format.lists_rules ? std::vector<RuleDescriptor>{rule} : std::vector<RuleDescriptor>{});
    CHECK(out.str().find("nme") != std::string::npos);
    if (!format.streaming) CHECK(out.str().size() > streamed);
    if (format.lists_rules) CHECK(out.str().find("A key the plan format does not have") != std::string::npos);
    CHECK(emitter->warnings().empty());
  }
}
