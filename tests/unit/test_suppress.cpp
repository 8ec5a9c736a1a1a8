// Inline suppressions (docs/cli.md, "Suppressions"): allow, allow-next-line, allow-file, by id or
// group; suppression-without-reason and unused-suppression.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/suppress/suppress.hpp"
#include "support.hpp"

using planlint::Diagnostic;
using planlint::InlineSuppression;
using planlint::Severity;
using planlint::SourceFile;
using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

constexpr const char* head = R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
[cluster]
gpu = "h100-sxm"
count = 8
)";

std::vector<InlineSuppression> find(const std::string& text) {
  SourceFile file("plan.toml", text);
  return planlint::find_suppressions(file, text);
}

Diagnostic finding(std::string rule, std::uint32_t line) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.message = "m";
  d.primary = planlint::Location{"plan.toml", planlint::Span{{line, 1}, {line, 2}}};
  return d;
}

/// apply_suppressions, with the suppressions' own findings after the others.
void apply_and_append(std::vector<Diagnostic>& diagnostics, const std::vector<planlint::InlineSuppression>& suppressions,
                      const planlint::SuppressionRules& rules, const std::string& file) {
  for (Diagnostic& d : planlint::apply_suppressions(diagnostics, suppressions, rules, file))
    diagnostics.push_back(std::move(d));
}

planlint::SuppressionRules rules() {
  planlint::SuppressionRules rules;
  rules.group_of = {{"memory-fit", "memory"}, {"peak-mismatch", "peak"}, {"unknown-key", "structure"},
                    {"unused-suppression", "suppression"}, {"suppression-without-reason", "suppression"}};
  rules.enabled = [](std::string_view, std::string_view) { return true; };
  return rules;
}

/// Lints `body` after the plan head with the real CLI; returns the text output.
planlint::test::CliRun lint(const Scratch& dir, const std::string& body, std::vector<std::string> extra = {}) {
  auto plan = dir.write("plan.toml", std::string(head) + body);
  extra.insert(extra.begin(), "--no-color");
  extra.push_back(plan.string());
  return run_cli(extra);
}

}  // namespace

TEST_CASE("suppression comments are read with their scope, names and reason", "[suppress]") {
  auto found = find(
      "a = 1  # planlint: allow memory-fit, peak -- offloaded, measured 71 GB\n"
      "# planlint: allow-next-line peak-mismatch -- vendor quote\n"
      "\n"
      "# an ordinary comment\n"
      "b = 2\n"
      "#planlint: allow-file chinchilla-ratio\n"
      "c = \"# planlint: allow x -- inside a string\"\n"
      "d = '''\n# planlint: allow y -- inside a multi-line string\n'''\n");
  REQUIRE(found.size() == 3);
  CHECK(found[0].scope == InlineSuppression::Scope::line);
  CHECK(found[0].target_line == 1);
  REQUIRE(found[0].names.size() == 2);
  CHECK(found[0].names[0].id == "memory-fit");
  CHECK(found[0].names[1].id == "peak");
  CHECK(found[0].names[1].span.begin == planlint::Position{1, 38});
  CHECK(found[0].reason == "offloaded, measured 71 GB");
  CHECK(found[0].location.span.begin == planlint::Position{1, 8});
  CHECK(found[1].scope == InlineSuppression::Scope::next_line);
  CHECK(found[1].target_line == 5);  // blank and comment lines are skipped
  CHECK(found[2].scope == InlineSuppression::Scope::file);
  CHECK(found[2].reason.empty());
}

TEST_CASE("a comment after a multi-line string with a line-ending backslash is on its own line", "[suppress]") {
  // The backslash escapes the line break's trimming, not the line: the comment is on line 4.
  auto found = find(
      "doc = \"\"\"one \\\n"
      "  two\"\"\"\n"
      "# planlint: allow-next-line peak -- vendor quote\n"
      "peak = 1  # planlint: allow memory-fit -- offloaded\n");
  REQUIRE(found.size() == 2);
  CHECK(found[0].location.span.begin == planlint::Position{3, 1});
  CHECK(found[0].target_line == 4);
  CHECK(found[1].location.span.begin == planlint::Position{4, 11});
  CHECK(found[1].target_line == 4);
}

TEST_CASE("a suppression's key text ends at the key's '=', not at one inside its quotes", "[suppress]") {
  const auto one = find("\"a=b\" = 1  # planlint: allow peak -- measured\n");
  const auto two = find("\"a=b\" = 2  # planlint: allow peak -- measured\n");
  const auto other = find("\"a=c\" = 1  # planlint: allow peak -- measured\n");
  REQUIRE((one.size() == 1 && two.size() == 1 && other.size() == 1));
  CHECK(one[0].target_digest == two[0].target_digest);  // the key, not its value
  CHECK(one[0].target_digest != other[0].target_digest);
}

TEST_CASE("a suppression covers findings of its rule or group on its line", "[suppress]") {
  std::vector<Diagnostic> diagnostics = {finding("memory-fit", 1), finding("peak-mismatch", 1),
                                         finding("memory-fit", 2), finding("peak-mismatch", 5)};
  auto suppressions = find("a = 1  # planlint: allow memory -- r\n# planlint: allow-next-line peak-mismatch -- r\n\n\nb = 1\n");
  apply_and_append(diagnostics, suppressions, rules(), "plan.toml");
  REQUIRE(diagnostics.size() == 4);  // nothing unused, nothing without a reason
  CHECK(diagnostics[0].suppression);
  CHECK(diagnostics[0].suppression->justification == "r");
  CHECK_FALSE(diagnostics[1].suppression);  // another rule on the line
  CHECK_FALSE(diagnostics[2].suppression);  // another line
  CHECK(diagnostics[3].suppression);
}

TEST_CASE("unused suppressions and missing reasons are findings of their own", "[suppress]") {
  std::vector<Diagnostic> diagnostics = {finding("memory-fit", 1)};
  auto suppressions = find(
      "a = 1  # planlint: allow memory-fit, peak-mismatch\n"
      "# planlint: allow-file memry-fit -- typo\n"
      "# planlint: alow memory-fit -- typo in the directive\n");
  apply_and_append(diagnostics, suppressions, rules(), "plan.toml");
  REQUIRE(diagnostics.size() == 5);
  CHECK(diagnostics[0].suppression);
  CHECK(diagnostics[1].rule == "suppression-without-reason");
  CHECK(diagnostics[1].severity == Severity::warning);
  CHECK(diagnostics[2].rule == "unused-suppression");
  CHECK(diagnostics[2].message == "unused suppression: no 'peak-mismatch' finding on this line");
  CHECK(diagnostics[2].primary.span.begin.column == 38);
  CHECK(diagnostics[3].rule == "unused-suppression");
  CHECK(diagnostics[3].message == "'memry-fit' is not a rule or group planlint knows");
  CHECK(diagnostics[3].help == "did you mean 'memory-fit'?");
  CHECK(diagnostics[4].message == "unknown suppression directive 'alow'");
}

TEST_CASE("a directive in capitals is a directive, and a reason after a colon is named for what it is",
          "[suppress]") {
  // `# PLANLINT: allow ...` was passed over in silence (not applied, not reported);
  // `allow memory-fit: offloaded` reported 'memory-fit:' and each word of the reason as
  // unknown rules, with no word of the `--`.
  std::vector<Diagnostic> diagnostics = {finding("memory-fit", 1), finding("peak-mismatch", 2)};
  auto suppressions = find(
      "a = 1  # PLANLINT: ALLOW memory-fit -- offloaded\n"
      "b = 2  # planlint: allow peak-mismatch: vendor quote for our SKU\n");
  REQUIRE(suppressions.size() == 2);
  CHECK(suppressions[0].directive == "allow");
  REQUIRE(suppressions[1].names.size() == 1);  // the reason's words are not names
  apply_and_append(diagnostics, suppressions, rules(), "plan.toml");
  // One finding for the misplaced reason: not also suppression-without-reason.
  REQUIRE(diagnostics.size() == 3);
  CHECK(diagnostics[0].suppression);
  CHECK_FALSE(diagnostics[1].suppression);
  CHECK(diagnostics[2].message == "the reason after a colon is not read, and 'peak-mismatch:' is not a rule id");
  CHECK(diagnostics[2].help ==
        "the reason follows `--`, not a colon: # planlint: allow peak-mismatch -- vendor quote for our SKU");
  // Any mix of cases is found; text without the word is not scanned further.
  CHECK(find("a = 1  # PlanLint: allow-file memory -- r\n").size() == 1);
  CHECK(find("url = \"https://example.com\"  # see: planning\n").empty());
}

TEST_CASE("a reason after a spaced or glued colon, an em or en dash or a hyphen gets the colon's help",
          "[suppress]") {
  // `allow X : reason` suppressed X and reported ':' as an unknown rule with no help;
  // `allow X:reason` and `allow X — reason` read each word of the reason as a rule id.
  struct Form {
    const char* after_name;
    const char* name;  // as written, with its mark
    const char* mark;
  };
  for (const Form& form : {Form{": vendor quote", "peak-mismatch:", "a colon"},
                           Form{" : vendor quote", "peak-mismatch :", "a colon"},
                           Form{":vendor quote", "peak-mismatch:", "a colon"},
                           Form{" \u2014 vendor quote", "peak-mismatch \u2014", "an em dash (\u2014)"},
                           Form{"\u2014vendor quote", "peak-mismatch\u2014", "an em dash (\u2014)"},
                           Form{" \u2013 vendor quote", "peak-mismatch \u2013", "an en dash (\u2013)"},
                           Form{" - vendor quote", "peak-mismatch -", "a hyphen (-)"}}) {
    const std::string comment = std::string("a = 1  # planlint: allow peak-mismatch") + form.after_name + "\n";
    INFO(comment);
    auto suppressions = find(comment);
    REQUIRE(suppressions.size() == 1);
    REQUIRE(suppressions[0].names.size() == 1);  // the reason's words are not names
    CHECK(suppressions[0].names[0].id == form.name);
    CHECK(suppressions[0].reason.empty());
    std::vector<Diagnostic> diagnostics = {finding("peak-mismatch", 1)};
    apply_and_append(diagnostics, suppressions, rules(), "plan.toml");
    REQUIRE(diagnostics.size() == 2);
    CHECK_FALSE(diagnostics[0].suppression);  // as with a colon: no `--`, no suppression
    CHECK(diagnostics[1].rule == "unused-suppression");
    CHECK(diagnostics[1].message ==
          fmt::format("the reason after {} is not read, and '{}' is not a rule id", form.mark, form.name));
    CHECK(diagnostics[1].help ==
          fmt::format("the reason follows `--`, not {}: # planlint: allow peak-mismatch -- vendor quote", form.mark));
    CHECK(diagnostics[1].primary.span.begin.column == 26);  // at the name
  }

  // Names before the mark still count, and all of them are in the comment to write.
  std::vector<Diagnostic> two = {finding("memory-fit", 1), finding("peak-mismatch", 1)};
  apply_and_append(two, find("a = 1  # planlint: allow memory-fit, peak-mismatch \u2014 measured\n"),
                               rules(), "plan.toml");
  REQUIRE(two.size() == 3);
  CHECK(two[0].suppression);
  CHECK_FALSE(two[1].suppression);
  CHECK(two[2].help == "the reason follows `--`, not an em dash (\u2014): # planlint: allow memory-fit, "
                       "peak-mismatch -- measured");

  // A misspelt name before the mark gets the did-you-mean too.
  std::vector<Diagnostic> typo;
  apply_and_append(typo, find("a = 1  # planlint: allow peak-mismach: vendor quote\n"), rules(),
                               "plan.toml");
  REQUIRE(typo.size() == 1);
  CHECK(typo[0].help == "the reason follows `--`, not a colon: # planlint: allow peak-mismach -- vendor quote "
                        "(did you mean 'peak-mismatch'?)");

  // Colons and dashes in a reason after `--` are its text.
  std::vector<Diagnostic> valid = {finding("peak-mismatch", 1)};
  auto with_marks = find("a = 1  # planlint: allow peak-mismatch -- vendor: quote \u2014 2026 \u2013 ours\n");
  REQUIRE(with_marks.size() == 1);
  CHECK(with_marks[0].reason == "vendor: quote \u2014 2026 \u2013 ours");
  apply_and_append(valid, with_marks, rules(), "plan.toml");
  REQUIRE(valid.size() == 1);
  CHECK(valid[0].suppression);

  // A colon after the directive, as `noqa:` has one: the comment as it should read.
  std::vector<Diagnostic> colon_directive = {finding("peak-mismatch", 1)};
  apply_and_append(colon_directive, find("a = 1  # planlint: allow: peak-mismatch -- vendor quote\n"),
                               rules(), "plan.toml");
  REQUIRE(colon_directive.size() == 2);
  CHECK_FALSE(colon_directive[0].suppression);
  CHECK(colon_directive[1].message == "unknown suppression directive 'allow:'");
  CHECK(colon_directive[1].help ==
        "the directive is `allow`, without a colon: # planlint: allow peak-mismatch -- vendor quote");
  std::vector<Diagnostic> other_directive;
  apply_and_append(other_directive, find("a = 1  # planlint: ignore: peak-mismatch -- vendor quote\n"),
                               rules(), "plan.toml");
  REQUIRE(other_directive.size() == 1);
  CHECK(other_directive[0].help == "write `# planlint: allow ID -- reason`, `allow-next-line` or `allow-file`");

  // What the user sees.
  Scratch dir;
  auto run = lint(dir, "hmb = \"80 GB\"  # planlint: allow unknown-key \u2014 read by the old dashboard\n");
  CHECK(run.status == 1);  // the unknown key is not suppressed
  CHECK_THAT(run.out, Catch::Contains("warning: the reason after an em dash (\u2014) is not read, and "
                                      "'unknown-key \u2014' is not a rule id [unused-suppression]"));
  CHECK_THAT(run.out, Catch::Contains("help: the reason follows `--`, not an em dash (\u2014): # planlint: allow "
                                      "unknown-key -- read by the old dashboard\n"));
}

TEST_CASE("suppressed findings do not count and the summary says how many there were", "[suppress][cli]") {
  Scratch dir;
  auto run = lint(dir, "hmb = \"80 GB\"  # planlint: allow unknown-key -- read by the old dashboard\n");
  CHECK(run.status == 0);
  CHECK(run.out == "no problems in 1 file (1 suppressed)\n");

  auto next_line = lint(dir, "# planlint: allow-next-line structure -- group name\nhmb = \"80 GB\"\n");
  CHECK(next_line.status == 0);

  auto file = lint(dir, "hmb = \"80 GB\"\nhbmm = 1\n# planlint: allow-file unknown-key -- legacy keys\n");
  CHECK(file.out == "no problems in 1 file (2 suppressed)\n");
}

TEST_CASE("suppression findings respect select, ignore and severity", "[suppress][cli]") {
  Scratch dir;
  const std::string body = "count_note = 1  # planlint: allow unknown-key\n";
  auto run = lint(dir, body);
  // The unknown key is suppressed; the missing reason is a warning.
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("warning: `allow` gives no reason [suppression-without-reason]"));
  CHECK_THAT(run.out, Catch::EndsWith("1 warning in 1 file (1 suppressed)\n"));

  auto failing = lint(dir, body, {"--fail-on", "warning"});
  CHECK(failing.status == 1);
  auto ignored = lint(dir, body, {"--ignore", "suppression-without-reason", "--fail-on", "warning"});
  CHECK(ignored.status == 0);
  auto raised = lint(dir, body, {"--severity", "suppression=error"});
  CHECK(raised.status == 1);
  CHECK_THAT(raised.out, Catch::Contains("error: `allow` gives no reason"));

  auto unused = lint(dir, "gpus_per_node = 8  # planlint: allow unknown-key -- no longer needed\n");
  CHECK_THAT(unused.out, Catch::Contains("warning: unused suppression: no 'unknown-key' finding on this line [unused-suppression]"));
  auto unused_ignored = lint(dir, "gpus_per_node = 8  # planlint: allow unknown-key -- no longer needed\n",
                             {"--ignore", "unused-suppression"});
  CHECK(unused_ignored.out == "no problems in 1 file\n");
}
