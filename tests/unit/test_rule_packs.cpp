// Rule packs as a run loads them: the config's and --rules' packs, each file once; options
// global by name; `planlint rules` and `explain` with the config `check` would use; the
// messages of a rule file or pack path that does not load.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::Diagnostic;
using planlint::Position;
using planlint::RuleSet;
using planlint::test::InDirectory;
using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

/// A rule file of a test pack: `id`, a check that always fails, and `options` (TOML lines) last.
std::string rule_file(const std::string& id, const std::string& check = "false", const std::string& options = "") {
  return fmt::format("id = \"{}\"\ngroup = \"org\"\nseverity = \"warning\"\nsummary = \"s\"\ncheck = \"{}\"\n"
                     "message = \"m\"\n{}{}",
                     id, check, planlint::test::rule_docs_stub, options.empty() ? "" : "[options]\n" + options);
}

std::size_t count_rule(const RuleSet& rules, std::string_view id) {
  std::size_t n = 0;
  for (const auto& rule : rules.rules()) n += rule->descriptor.id == id;
  return n;
}

const std::string plan = planlint::test::inference_plan_with("");

}  // namespace

TEST_CASE("a rule file's empty group and keys swallowed by [options] are errors at their line",
          "[rules][load]") {
  std::vector<Diagnostic> errors;
  RuleSet rules;

  SECTION("group = \"\"") {
    std::string text = rule_file("org-x");
    text.replace(text.find("group = \"org\""), 13, "group = \"\"");
    CHECK_FALSE(rules.load(std::make_shared<const planlint::SourceFile>("g.toml", text), errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].primary.span.begin == Position{2, 9});
    CHECK_THAT(errors[0].message, Catch::StartsWith("'group' must not be empty"));
  }

  SECTION("[options] first") {
    const std::string text = "[options]\nmin = 1.2\n" + rule_file("org-x", "training.schedule_margin >= options.min");
    CHECK_FALSE(rules.load(std::make_shared<const planlint::SourceFile>("o.toml", text), errors));
    INFO(planlint::test::render(errors));
    REQUIRE(errors.size() == 1);  // one error, not one "missing required key" at 1:1 for each key
    CHECK(errors[0].primary.span.begin == Position{3, 1});
    CHECK(errors[0].message == "key 'id' is inside [options] (line 3), and so are 'group', 'severity', 'summary', "
                               "'check', 'message' and 'docs': the rule's own keys must come before [options], "
                               "since every key after a table header belongs to that table");

    errors.clear();
    const std::string one = rule_file("org-y", "options.min > 1", "min = 1.2\nmessage = \"m\"\n");
    std::string without_message = one;
    without_message.erase(without_message.find("message = \"m\"\n"), 14);
    CHECK_FALSE(rules.load(std::make_shared<const planlint::SourceFile>("p.toml", without_message), errors));
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message, Catch::StartsWith("key 'message' is inside [options] (line "));
  }
}
