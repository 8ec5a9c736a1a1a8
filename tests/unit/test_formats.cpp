// The output-format table (emit/formats.hpp): the formats `planlint check --format` offers, and
// whether each writes a file's findings as the run delivers them.
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "planlint/emit/formats.hpp"
#include "support.hpp"

using namespace planlint;

TEST_CASE("the output formats are one table the command line offers", "[formats]") {
  CHECK(output_format_names() == std::vector<std::string>{"text", "concise", "sarif", "json", "github", "gitlab", "junit"});
  REQUIRE(find_output_format("sarif") != nullptr);
  CHECK(find_output_format("sarif")->lists_rules);
  CHECK(find_output_format("xml") == nullptr);
  const test::CliRun run = test::run_cli({"check", "--format", "xml", "x.toml"});
  CHECK(run.status == 2);
  CHECK(run.err == "planlint: error: --format: xml not in {text,concise,sarif,json,github,gitlab,junit,full}\nRun 'planlint --help' for usage.\n");
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
