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

TEST_CASE("a rule file reached twice is loaded once, and two files with one id name both", "[rules][packs]") {
  Scratch dir;
  dir.write("policies/a.toml", rule_file("org-a"));
  dir.write("policies/sub/b.toml", rule_file("org-b"));
  const std::string folder = (dir.path / "policies").string();

  SECTION("the same folder twice, a folder and one of its files, another spelling, a hard link") {
    fs::create_hard_link(dir.path / "policies/a.toml", dir.path / "linked.toml");
    RuleSet rules = RuleSet::with_builtin();
    std::vector<Diagnostic> errors;
    CHECK(rules.load_path(folder, errors));
    CHECK(rules.load_path(folder + "/", errors));
    CHECK(rules.load_path((dir.path / "policies/sub/../a.toml").string(), errors));
    CHECK(rules.load_path((dir.path / "linked.toml").string(), errors));
    INFO(planlint::test::render(errors));
    CHECK(errors.empty());
    CHECK(count_rule(rules, "org-a") == 1);
    CHECK(count_rule(rules, "org-b") == 1);
  }

  SECTION("the config's pack named again with --rules (the usual CI step)") {
    dir.write(".planlint.toml", "[lint]\nrules = [\"policies/\"]\n");
    dir.write("plan.toml", plan);
    InDirectory in(dir.path);
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--rules", "policies/"}, {"--rules", "policies/sub/b.toml"},
          {"--rules", folder, "--rules", folder + "/a.toml"}}) {
      std::vector<std::string> args = {"check", "--no-color"};
      args.insert(args.end(), extra.begin(), extra.end());
      args.push_back("plan.toml");
      CAPTURE(args);
      auto run = run_cli(args);
      CHECK(run.status == 0);  // warnings, below the default fail_on
      CHECK(run.err.empty());
      CHECK_THAT(run.out, Catch::Contains("[org-a]") && Catch::Contains("[org-b]"));
    }
  }

  SECTION("two different files defining one id stay an error that names both") {
    dir.write("other/a-again.toml", rule_file("org-a"));
    dir.write("plan.toml", plan);
    InDirectory in(dir.path);
    auto run = run_cli({"check", "--rules", "policies", "--rules", "other", "plan.toml"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("other/a-again.toml:1:1: error: rule id 'org-a' is defined twice: in "
                                        "other/a-again.toml and in policies/a.toml"));
  }
}

TEST_CASE("rules declaring one option name must agree on its dimension", "[rules][packs][options]") {
  Scratch dir;
  const std::string a = rule_file("org-a", "est.train.days <= options.limit", "limit = \"10 d\"\n");
  const std::string b = rule_file("org-b", "est.train.memory.total <= options.limit", "limit = \"80 GB\"\n");
  const int option_line = static_cast<int>(std::count(a.begin(), a.end(), '\n'));  // the last line

  SECTION("two pack rules: an error at the second's option, naming the first's") {
    dir.write("pack/a.toml", a);
    dir.write("pack/b.toml", b);
    RuleSet rules = RuleSet::with_builtin();
    std::vector<Diagnostic> errors;
    CHECK_FALSE(rules.load_path((dir.path / "pack").string(), errors));
    REQUIRE(errors.size() == 1);
    const Diagnostic& d = errors[0];
    CHECK(d.primary.file == (dir.path / "pack/b.toml").string());
    CHECK(d.primary.span.begin == Position{static_cast<std::uint32_t>(option_line), 9});
    CHECK(d.message == fmt::format("option 'limit' of rule org-b is bytes, but rule org-a declares 'limit' as "
                                   "seconds at {}:{}:9: options are global by name ([lint.options] limit sets both)",
                                   (dir.path / "pack/a.toml").string(), option_line));
    REQUIRE(d.related.size() == 1);
    CHECK(d.related[0].location.file == (dir.path / "pack/a.toml").string());

    dir.write("plan.toml", plan);
    auto run = run_cli({"check", "--rules", (dir.path / "pack").string(), (dir.path / "plan.toml").string()});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("b.toml:" + std::to_string(option_line) + ":9: error: option 'limit'"));
  }

  SECTION("a pack option named like a built-in one, of another dimension") {
    const std::string clash = rule_file("org-c", "options.assumption_max_age > 1 GB", "assumption_max_age = \"5 GB\"\n");
    RuleSet rules = RuleSet::with_builtin();
    std::vector<Diagnostic> errors;
    CHECK_FALSE(rules.load_path(dir.write("c.toml", clash).string(), errors));
    REQUIRE(errors.size() == 1);
    // The built-in rule's file is not on a user's disk: it is named as a built-in.
    CHECK_THAT(errors[0].message, Catch::Contains("rule assumption-stale declares 'assumption_max_age' as seconds "
                                                  "(a built-in rule: `planlint explain assumption-stale`)"));
  }

  SECTION("one dimension is fine, and one config entry sets both") {
    dir.write("pack/a.toml", a);
    dir.write("pack/a2.toml", rule_file("org-a2", "est.train.days <= options.limit", "limit = \"30 d\"\n"));
    RuleSet rules = RuleSet::with_builtin();
    std::vector<Diagnostic> errors;
    CHECK(rules.load_path((dir.path / "pack").string(), errors));
    CHECK(errors.empty());
    dir.write(".planlint.toml", "[lint]\nrules = [\"pack/\"]\n[lint.options]\nlimit = \"20 d\"\n");
    CHECK(run_cli({"check", dir.write("plan.toml", plan).string()}).status != 2);
  }
}

TEST_CASE("planlint rules and explain load the config check would use", "[rules][cli][config]") {
  Scratch dir;
  dir.write("org/.planlint.toml", "[lint]\nrules = [\"policies/\"]\n");
  dir.write("org/policies/x.toml", rule_file("org-x"));
  fs::create_directories(dir.path / "org/plans");

  SECTION("the nearest .planlint.toml up from the working folder") {
    for (const char* folder : {"org", "org/plans"}) {
      CAPTURE(folder);
      InDirectory in(dir.path / folder);
      auto explain = run_cli({"explain", "org-x"});
      CHECK(explain.status == 0);
      CHECK_THAT(explain.out, Catch::StartsWith("# org-x"));
      auto rules = run_cli({"rules"});
      CHECK(rules.status == 0);
      CHECK_THAT(rules.out, Catch::Contains("org-x") && Catch::Contains("memory-fit"));
      // The pack named again with --rules is loaded once, as for check.
      CHECK(run_cli({"rules", "--rules", (dir.path / "org/policies").string()}).status == 0);
    }
    InDirectory outside(dir.path);
    CHECK(run_cli({"explain", "org-x"}).status == 2);
  }

  SECTION("--config FILE, from anywhere") {
    InDirectory in(dir.path);
    auto rules = run_cli({"rules", "--config", "org/.planlint.toml"});
    CHECK(rules.status == 0);
    CHECK_THAT(rules.out, Catch::Contains("org-x"));
    CHECK(run_cli({"explain", "org-x", "--config", (dir.path / "org/.planlint.toml").string()}).status == 0);
    CHECK(run_cli({"explain", "--rules", "org/policies", "org-x"}).status == 0);
    auto missing = run_cli({"rules", "--config", "nope.toml"});
    CHECK(missing.status == 2);
    CHECK_THAT(missing.err, Catch::Contains("nope.toml"));
  }

  SECTION("an invalid config is exit 2 with its file:line:col") {
    dir.write("org/.planlint.toml", "[lint]\nrulez = [\"policies/\"]\n");
    InDirectory in(dir.path / "org");
    auto run = run_cli({"rules"});
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains(".planlint.toml:2:1: error: unknown key 'rulez' in [lint]"));
  }
}

TEST_CASE("a config's pack that does not exist is reported at the config's line, with the closest folder",
          "[config][packs]") {
  Scratch dir;
  dir.write("org/policies/x.toml", rule_file("org-x"));
  dir.write("team/.planlint.toml", "[lint]\nselect = [\"all\"]\nrules = [\"../org/polices/\"]\n");
  auto run = run_cli({"check", dir.write("team/plan.toml", plan).string()});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains(".planlint.toml:3:10: error: lint.rules names '../org/polices/', which "
                                      "does not exist") &&
                          Catch::Contains("did you mean '../org/policies/'?"));
  InDirectory in(dir.path / "team");
  auto rules = run_cli({"rules"});
  CHECK(rules.status == 2);
  CHECK_THAT(rules.err, Catch::StartsWith(".planlint.toml:3:10: error: lint.rules names '../org/polices/'"));
}

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
    CHECK(errors[0].message == "key 'id' is inside [options] (opened at line 1), and so are 'group', 'severity', 'summary', "
                               "'check', 'message' and 'docs': the rule's own keys must come before [options], "
                               "since every key after a table header belongs to that table");

    errors.clear();
    const std::string one = rule_file("org-y", "options.min > 1", "min = 1.2\nmessage = \"m\"\n");
    std::string without_message = one;
    without_message.erase(without_message.find("message = \"m\"\n"), 14);
    CHECK_FALSE(rules.load(std::make_shared<const planlint::SourceFile>("p.toml", without_message), errors));
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message, Catch::StartsWith("key 'message' is inside [options] (opened at line "));
  }
}

TEST_CASE("a rule key after [options] is an error, not an option", "[rules][packs][options]") {
  // `applies`, `help` and `at` written after [options] became options, so the rule
  // ran on every plan, at 1:1, without its help (only required keys were caught).
  std::vector<planlint::Diagnostic> errors;
  RuleSet rules;
  const std::string text = rule_file("org-x", "cluster.count <= options.most",
                                     "most = \"1000 GPU\"\napplies = \"plan.kind == 'inference'\"\nhelp = \"split\"\n");
  CHECK_FALSE(rules.load(std::make_shared<const planlint::SourceFile>("o.toml", text), errors));
  REQUIRE(errors.size() == 1);
  INFO(planlint::test::render(errors));
  CHECK(errors[0].primary.span.begin == Position{16, 1});  // `applies`, the first of the two
  CHECK(errors[0].message == "key 'applies' is inside [options] (opened at line 14), and so is 'help': the rule's "
                             "own keys must come before [options], since every key after a table header belongs "
                             "to that table");
}

TEST_CASE("a pack's rule cannot be native, nor take a group's name, `all` or another rule's id as its group",
          "[rules][packs]") {
  std::vector<planlint::Diagnostic> errors;
  RuleSet rules = RuleSet::with_builtin();
  const auto load = [&](std::string text) {
    errors.clear();
    return rules.load(std::make_shared<const planlint::SourceFile>("r.toml", std::move(text)), errors);
  };
  // `native = true` switched the pack rule's check off (it loaded as a C++ check).
  CHECK_FALSE(load("native = true\n" + rule_file("org-native", "false")));
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::StartsWith("unknown key 'native' in a rule file"));
  CHECK(errors[0].primary.span.begin == Position{1, 1});

  CHECK_FALSE(load(rule_file("memory")));
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::StartsWith("rule id 'memory' is the name of a group"));
  CHECK(errors[0].primary.span.begin == Position{1, 6});

  CHECK_FALSE(load(rule_file("all")));
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::StartsWith("'all' cannot be a rule's id"));

  std::string grouped = rule_file("org-y");
  grouped.replace(grouped.find("group = \"org\""), 13, "group = \"memory-fit\"");
  CHECK_FALSE(load(grouped));
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::StartsWith("group 'memory-fit' is the id of a rule"));
  CHECK(errors[0].primary.span.begin == Position{2, 9});

  // An empty message made findings with no text.
  std::string silent = rule_file("org-z");
  silent.replace(silent.find("message = \"m\""), 13, "message = \"\"");
  CHECK_FALSE(load(silent));
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::StartsWith("'message' must not be empty"));

  CHECK(load(rule_file("org-fine")));
}

TEST_CASE("a pack folder passes over its test plans, takes .TOML, and holding no rule is an error",
          "[rules][packs]") {
  Scratch dir;
  dir.write("pack/org-a.toml", rule_file("org-a"));
  dir.write("pack/ORG-B.TOML", rule_file("org-b"));
  dir.write("pack/tests/fires.toml", plan);  // a plan kept with the rules it tests
  std::vector<planlint::Diagnostic> errors;
  RuleSet rules;
  CHECK(rules.load_path((dir.path / "pack").string(), errors));
  INFO(planlint::test::render(errors));
  CHECK(errors.empty());
  CHECK(count_rule(rules, "org-a") == 1);
  CHECK(count_rule(rules, "org-b") == 1);

  // A pack that would load nothing: the run would go on without the rules it was asked for.
  std::filesystem::create_directories(dir.path / "empty");
  dir.write("plans-only/a.toml", plan);
  dir.write("plans-only/notes.txt", "x");
  for (const auto& [folder, message] :
       {std::pair{std::string("empty"), std::string("holds no rule file (*.toml)")},
        std::pair{std::string("plans-only"), std::string("holds no rule file, only 1 plan (TOML files with a [plan] table)")}}) {
    INFO(folder);
    errors.clear();
    RuleSet other;
    CHECK_FALSE(other.load_path((dir.path / folder).string(), errors));
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message, Catch::EndsWith(message));
  }

  // What the user sees: exit status 2.
  auto run = planlint::test::run_cli({"check", "--rules", (dir.path / "empty").string(), (dir.path / "pack/tests").string()});
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Catch::Contains("holds no rule file (*.toml)"));
}

TEST_CASE("the packs' node limit crossed is one error, not one for each let of every rule after it",
          "[rules][packs][limits]") {
  // 40 rules of 2^12-node lets printed 236 errors, one per let after the limit.
  Scratch dir;
  std::string lets = "[let]\nl0 = \"1\"\n";
  for (int i = 1; i <= 12; ++i) lets += fmt::format("l{} = \"l{} + l{}\"\n", i, i - 1, i - 1);
  for (int i = 0; i < 40; ++i)
    dir.write(fmt::format("many/r{:02}.toml", i),
              fmt::format("id = \"org-m{}\"\ngroup = \"org\"\nseverity = \"error\"\nsummary = \"s\"\ncheck = \"l12 > 0\"\n"
                          "message = \"m\"\n{}{}",
                          i, planlint::test::rule_docs_stub, lets));
  std::vector<planlint::Diagnostic> errors;
  RuleSet rules;
  CHECK_FALSE(rules.load_path((dir.path / "many").string(), errors));
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::EndsWith("(no more than that in all the packs of a run)"));
}

TEST_CASE("planlint rules --format markdown lists a pack's rules with their files, its cells escaped",
          "[rules][packs][cli]") {
  // Pack rules were linked to pages that do not exist, under a header calling the
  // table generated from rules/, and a `|` in a summary broke the table.
  Scratch dir;
  std::string piped = rule_file("org-pipe");
  piped.replace(piped.find("summary = \"s\""), 13, "summary = \"a | b or `x|y`\"");
  dir.write("pack/org-pipe.toml", piped);
  auto run = run_cli({"rules", "--format", "markdown", "--rules", (dir.path / "pack").string()});
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Catch::Contains("built in, each linked to its page in planlint's docs/rules/, and 1 from rule "
                                      "packs, with their files"));
  CHECK_THAT(run.out, Catch::Contains(fmt::format("| `org-pipe` ({}) | org | warning | a \\| b or `x\\|y` |\n",
                                                  (dir.path / "pack/org-pipe.toml").string())));
  CHECK_THAT(run.out, Catch::Contains("| [memory-fit](memory-fit.md) | memory | error |"));
  CHECK_THAT(run.out, !Catch::Contains("do not edit"));

  // The built-in rules alone: docs/rules/README.md as it is generated.
  auto readme = planlint::read_file(std::string(PLANLINT_SOURCE_DIR) + "/docs/rules/README.md");
  REQUIRE(readme);
  CHECK(run_cli({"rules", "--format", "markdown"}).out == *readme);
}

TEST_CASE("a rule file's malformed option default, each typo and bad at element are errors where they are written",
          "[rules][packs]") {
  // "80 GBB" became a string option (the error came where it was used, as a type
  // error); `each = "assumption"` had no did-you-mean; a bad `at` element was reported at the list.
  std::vector<planlint::Diagnostic> errors;
  RuleSet rules;
  std::string text = rule_file("org-q", "cluster.hbm <= options.org_bad", "org_bad = \"80 GBB\"\n");
  text.insert(0, "each = \"assumption\"\nat = [\"plan.status\", \"plan.ownr\"]\n");
  CHECK_FALSE(rules.load(std::make_shared<const planlint::SourceFile>("q.toml", text), errors));
  INFO(planlint::test::render(errors));
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].message ==
        "each = 'assumption': a rule iterates over targets, assumptions, estimates, benchmarks or capacity; did you mean "
        "'assumptions'?");
  CHECK(errors[0].primary.span.begin == Position{1, 8});
  CHECK(errors[1].message == "option 'org_bad' = \"80 GBB\" is not a quantity: unknown unit 'GBB'");
  CHECK(errors[1].primary.span.begin == Position{17, 11});  // its default, not where it is used
  CHECK(errors[2].message == "unknown name 'plan.ownr'; did you mean 'plan.owner'?");
  CHECK(errors[2].primary.span.begin == Position{2, 22});  // the element, not the list
  // A string option that is no quantity is a string.
  errors.clear();
  CHECK(rules.load(std::make_shared<const planlint::SourceFile>(
                       "s.toml", rule_file("org-s", "plan.status != options.org_status", "org_status = \"draft\"\n")),
                   errors));
}
