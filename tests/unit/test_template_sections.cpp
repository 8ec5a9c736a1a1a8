// Conditional sections of a rule's templates, `{if C}…{else if C}…{else}…{/if}`
// (docs/writing-rules.md, "Message templates"): which text they print, and the errors a
// malformed one is refused with at its line and column.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "integration_support.hpp"
#include "planlint/rules/rule_set.hpp"
#include "support.hpp"

using namespace planlint;

namespace {

const std::string head = "id = \"org-sections\"\ngroup = \"org\"\nseverity = \"warning\"\nsummary = \"s\"\n"
                         "check = \"false\"\nat = \"cluster.gpu\"\n";

/// A training plan on 8 H100 with the lines `extra` in [training].
std::string plan(const std::string& extra = "") {
  return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"7B\"\n"
         "[training]\ntokens = \"1T\"\n" +
         extra + "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";
}

/// The finding of the rule of `fields` (message, help, fix lines) on `plan_text`.
Diagnostic finding(const std::string& fields, const std::string& plan_text) {
  test::Scratch dir;
  const std::string pack = dir.write("pack/rule.toml", head + fields + std::string(test::rule_docs_stub)).string();
  for (const Diagnostic& d : test::lint_plan_text(plan_text, Date{2026, 12, 2}, {pack}))
    if (d.rule == "org-sections") return d;
  FAIL("no finding of org-sections");
  return {};
}

std::string message(const std::string& message_text, const std::string& plan_text = plan()) {
  return finding("message = \"" + message_text + "\"\n", plan_text).message;
}

/// The errors of a rule file with these fields, which must not load.
std::vector<Diagnostic> refused(const std::string& fields) {
  RuleSet rules;
  std::vector<Diagnostic> errors;
  CHECK_FALSE(rules.load(std::make_shared<const SourceFile>("rule.toml", head + fields + "docs = \"d\"\n"), errors));
  return errors;
}

}  // namespace

TEST_CASE("a section prints its first branch whose condition holds", "[rules][template]") {
  const std::string chain =
      "mfu{if training.mfu > 45%} high{else if training.mfu > 35%} typical{else} low{/if}, done";
  CHECK(message(chain, plan("mfu = \"50%\"\n")) == "mfu high, done");
  CHECK(message(chain, plan("mfu = \"40%\"\n")) == "mfu typical, done");
  CHECK(message(chain, plan("mfu = \"30%\"\n")) == "mfu low, done");
  // Without an {else}, nothing when no condition holds.
  CHECK(message("a{if training.mfu > 45%} b{/if} c", plan("mfu = \"30%\"\n")) == "a c");
  // Placeholders and sections inside a branch, sections nested.
  const std::string nested =
      "{if exists(training.mfu)}MFU {training.mfu}{if training.mfu > 45%} (high){/if}{else}no MFU{/if}.";
  CHECK(message(nested, plan("mfu = \"50%\"\n")) == "MFU 50% (high).");
  CHECK(message(nested, plan("mfu = \"40%\"\n")) == "MFU 40%.");
  CHECK(message(nested, plan()) == "no MFU.");
}

TEST_CASE("a section whose condition is absent prints '?', and leaves a fix out", "[rules][template]") {
  // training.mfu is not stated: `training.mfu > 45%` has no value.
  CHECK(message("a {if training.mfu > 45%}high{else}low{/if} b") == "a ? b");
  const Diagnostic d = finding("message = \"m\"\nfix = \"{if training.mfu > 45%}1{else}2{/if}\"\n", plan());
  CHECK(d.fixes.empty());
  const Diagnostic known = finding("message = \"m\"\nfix = \"\\\"{if known(training.mfu)}1{else}2{/if}\\\"\"\n", plan());
  REQUIRE(known.fixes.size() == 1);
  CHECK(known.fixes[0].replacement == "\"2\"");
}

TEST_CASE("{if c then a else b} is still a placeholder", "[rules][template]") {
  CHECK(message("{if true then 'yes' else 'no'}:{if false then 1 else 2}") == "yes:2");
  CHECK(message("{if true}then{/if}") == "then");
}

TEST_CASE("a malformed section is refused at its line and column", "[rules][template][load]") {
  struct Case {
    std::string message, error;
    std::int64_t column;
  };
  // message = " starts at column 11 of line 7; the template's text at column 12.
  const std::vector<Case> cases = {
      {"a{/if}", "'{/if}' without an '{if ...}' before it", 13},
      {"a{else}b", "'{else}' without an '{if ...}' before it", 13},
      {"a{else if true}b", "'{else if ...}' without an '{if ...}' before it", 13},
      {"a{if true}b", "'{if ...}' without its '{/if}'", 13},
      {"{if true}a{else}b{else}c{/if}", "a second '{else}' in one section", 29},
      {"{if true}a{else}b{else if true}c{/if}", "'{else if ...}' after the section's '{else}'", 29},
      {"{if cluster.hbm}a{/if}", "a section's condition must be true or false, not bytes", 16},
      {"{if cluster.hmb}a{/if}", "unknown name 'cluster.hmb'", 16},
      {"{if true}{else if 3 > 2 GB}{/if}", "cannot compare", 30},
  };
  for (const Case& c : cases) {
    INFO(c.message);
    const std::vector<Diagnostic> errors = refused("message = \"" + c.message + "\"\n");
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message, Catch::Contains(c.error));
    CHECK(errors[0].primary.span.begin.line == 7);
    CHECK(errors[0].primary.span.begin.column == c.column);
  }
}
