// A rule file's [let] names (writing-rules.md, "Naming a sub-expression"): a name means its
// expression wherever the rule uses it, as if written there in parentheses; the errors a rule's
// author gets for a name that cannot be one, a use before the definition, and a tree that
// would grow without bound.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_set.hpp"
#include "support.hpp"

using planlint::Date;
using planlint::Diagnostic;
using planlint::Position;
using planlint::RuleSet;
using planlint::test::Scratch;

namespace {

/// A rule file with `check` and `message`, and `lets` (TOML lines) in its [let] table.
std::string rule_with_lets(const std::string& id, const std::string& check, const std::string& message,
                           const std::string& lets) {
  return fmt::format("id = \"{}\"\ngroup = \"org\"\nseverity = \"warning\"\nsummary = \"s\"\ncheck = \"{}\"\n"
                     "message = \"{}\"\n{}{}",
                     id, check, message, planlint::test::rule_docs_stub, lets.empty() ? "" : "[let]\n" + lets);
}

/// The errors of loading `text` as a rule file; REQUIREs that it does not load.
std::vector<Diagnostic> load_errors(const std::string& text) {
  std::vector<Diagnostic> errors;
  RuleSet rules;
  CHECK_FALSE(rules.load(std::make_shared<const planlint::SourceFile>("let.toml", text), errors));
  INFO(planlint::test::render(errors));
  REQUIRE(errors.size() == 1);
  return errors;
}

/// Lets n0 … n`last`, each the one above twice over: n13 is 16,383 nodes written out.
std::string doubling_lets(int last) {
  std::string lets = "n0 = \"inference.tp\"\n";
  for (int i = 1; i <= last; ++i) lets += fmt::format("n{} = \"n{} + n{}\"\n", i, i - 1, i - 1);
  return lets;
}

const std::string tp_lets =
    "tp_bound = \"if given(inference.tp) then inference.tp else cluster.gpus_per_node / 1 GPU\"\n"
    "weights_per_gpu = \"est.infer.weights / tp_bound\"\n";

}  // namespace

TEST_CASE("a let means its expression wherever the check and the message use it", "[rules][let]") {
  Scratch pack;
  pack.write("org-let.toml", rule_with_lets("org-let", "weights_per_gpu < 1 GB",
                                            "weights {weights_per_gpu:GB} per GPU at tp {tp_bound}", tp_lets));
  // The same rule with its lets written out by hand: the two must agree on every plan.
  pack.write("org-inline.toml",
             rule_with_lets("org-inline",
                            "est.infer.weights / (if given(inference.tp) then inference.tp else "
                            "cluster.gpus_per_node / 1 GPU) < 1 GB",
                            "weights {est.infer.weights / (if given(inference.tp) then inference.tp else "
                            "cluster.gpus_per_node / 1 GPU):GB} per GPU at tp {if given(inference.tp) then "
                            "inference.tp else cluster.gpus_per_node / 1 GPU}",
                            ""));
  auto messages = [&](const std::string& extra) {
    std::map<std::string, std::string> by_rule;
    const std::string plan = planlint::test::inference_plan_with("") + extra;
    for (const Diagnostic& d : planlint::test::lint_plan_text(plan, Date{2026, 12, 2}, {pack.path.string()}))
      if (d.rule.starts_with("org-")) by_rule[d.rule] = d.message;
    return by_rule;
  };

  SECTION("no tp: the node's 8 GPUs") {
    auto found = messages("");
    REQUIRE(found.size() == 2);
    // 7B in bf16 is 14 GB; over 8 GPUs 1.75 GB.
    CHECK(found["org-let"] == "weights 1.75 GB per GPU at tp 8");
    CHECK(found["org-let"] == found["org-inline"]);
  }
  SECTION("a stated tp") {
    auto found = messages("[inference]\ntp = 2\n");
    REQUIRE(found.size() == 2);
    CHECK(found["org-let"] == "weights 7 GB per GPU at tp 2");
    CHECK(found["org-let"] == found["org-inline"]);
  }
  SECTION("a let that reads a value the plan lacks leaves the rule out, as the path would") {
    Scratch other;
    other.write("org-missing.toml",
                rule_with_lets("org-missing", "not known(attention) or attention < 1 TFLOP",
                               "attention {attention:TFLOP}",
                               "attention = \"12 * model.layers * model.hidden * 1 FLOP\"\n"));
    const std::string plan = planlint::test::inference_plan_with("");
    for (const Diagnostic& d : planlint::test::lint_plan_text(plan, Date{2026, 12, 2}, {other.path.string()}))
      CHECK(d.rule != "org-missing");
  }
}

TEST_CASE("a let is defined once, before its uses, with a name that means nothing else", "[rules][let]") {
  SECTION("a use of a let defined below") {
    auto errors = load_errors(rule_with_lets("org-x", "a > 1", "m",
                                             "a = \"b * 2\"\nb = \"inference.tp\"\n"));
    CHECK(errors[0].message ==
          "let 'a' uses 'b', which is defined below it (line 16): a let may use only the names above it");
    CHECK(errors[0].primary.span.begin == Position{15, 6});
  }
  SECTION("a let that uses itself") {
    auto errors = load_errors(rule_with_lets("org-x", "a > 1", "m", "a = \"a + 1\"\n"));
    CHECK(errors[0].message == "let 'a' uses itself");
  }
  SECTION("names that already mean something") {
    for (const auto& [name, why] : std::vector<std::pair<std::string, std::string>>{
             {"then", "that is a keyword of the expression language"},
             {"min", "that is the name of a function"},
             {"cluster", "that name begins the paths of the plan and its estimates"},
             {"est", "that name begins the paths of the plan and its estimates"},
             {"it", "that name begins the paths of the plan and its estimates"},
             {"Tp", "a let's name is lower case letters, digits and '_', starting with a letter (weights_per_gpu)"}}) {
      INFO(name);
      auto errors = load_errors(rule_with_lets("org-x", "true", "m", name + " = \"1\"\n"));
      CHECK(errors[0].message == "let '" + name + "': " + why);
      CHECK(errors[0].primary.span.begin == Position{15, 1});
    }
  }
  SECTION("an optional key of the rule after [let]") {
    auto errors = load_errors(rule_with_lets("org-x", "true", "m", "help = \"'h'\"\n"));
    CHECK(errors[0].message == "let 'help': that is the name of a key of the rule file; a let cannot take it, and "
                               "the rule's own keys belong before [let] (every key after a table header belongs "
                               "to that table)");
  }
  SECTION("a required key's name, when the rule has that key") {
    auto errors = load_errors(rule_with_lets("org-x", "true", "m", "group = \"'x'\"\n"));
    CHECK(errors[0].message == "let 'group': that is the name of a key of the rule file; a let cannot take it, and "
                               "the rule's own keys belong before [let] (every key after a table header belongs "
                               "to that table)");
  }
  SECTION("a let that is not a string") {
    auto errors = load_errors(rule_with_lets("org-x", "true", "m", "a = 2\n"));
    CHECK(errors[0].message == "let 'a' must be an expression in a string");
  }
  SECTION("a syntax error inside a let is at its column in the file") {
    auto errors = load_errors(rule_with_lets("org-x", "true", "m", "a = \"inference.tp * \"\n"));
    CHECK_THAT(errors[0].message, Catch::StartsWith("in let 'a': expected"));
    CHECK(errors[0].primary.span.begin.line == 15);
  }
  SECTION("a dimension error inside a let is the let's") {
    auto errors = load_errors(rule_with_lets("org-x", "true", "m", "a = \"cluster.hbm + 1 s\"\n"));
    CHECK_THAT(errors[0].message, Catch::StartsWith("in let 'a': "));
    CHECK(errors[0].primary.span.begin.line == 15);
  }
  SECTION("a dimension error between a let and its use points at the use") {
    auto errors = load_errors(rule_with_lets("org-x", "bytes <= 10%", "m", "bytes = \"cluster.hbm\"\n"));
    CHECK_THAT(errors[0].message, Catch::StartsWith("in check: "));
    CHECK(errors[0].primary.span.begin == Position{5, 10});
  }
  SECTION("a required key after [let] belongs to it") {
    const std::string text = "[let]\na = \"1\"\n" + rule_with_lets("org-x", "a > 0", "m", "");
    auto errors = load_errors(text);
    CHECK_THAT(errors[0].message, Catch::StartsWith("key 'id' is inside [let] (opened at line 1)") &&
                                      Catch::EndsWith("the rule's own keys must come before [let], since every "
                                                      "key after a table header belongs to that table"));
  }
}

TEST_CASE("lets that use each other twice over cannot grow a tree without bound", "[rules][let][limits]") {
  // Each name doubles the one above it: the twentieth would be a million nodes.
  auto errors = load_errors(rule_with_lets("org-x", "n20 > 0", "m", doubling_lets(20)));
  CHECK_THAT(errors[0].message, Catch::Contains("grows past 16384 nodes once its lets are written out"));
}

TEST_CASE("a rule's placeholders that each name a large let cannot together grow without bound",
          "[rules][let][limits]") {
  // n13 is 16,383 nodes written out, just inside one expression's bound; twenty placeholders
  // of it would be 327,660 nodes: past the rule's 262,144.
  const std::string lets = doubling_lets(13);
  std::string message;
  for (int i = 0; i < 20; ++i) message += "{n13} ";
  auto errors = load_errors(rule_with_lets("org-x", "true", message, lets));
  CHECK_THAT(errors[0].message,
             Catch::Contains("in message: the rule's expressions grow past 262144 nodes together once their lets"));
  // Ten of them load.
  std::string ten;
  for (int i = 0; i < 10; ++i) ten += "{n13} ";
  std::vector<Diagnostic> none;
  RuleSet rules;
  CHECK(rules.load(std::make_shared<const planlint::SourceFile>("let.toml", rule_with_lets("org-x", "true", ten, lets)),
                   none));
  CHECK(none.empty());
}

TEST_CASE("the rules of a run's packs cannot together grow without bound through their lets",
          "[rules][let][limits]") {
  // Each rule writes out eight n13 (131,064 nodes) and its lets n1 … n13 (32,752), 163,816 in
  // all, inside its own 262,144; three of them are 491,448, four past the packs' 524,288 in all
  //.
  const std::string lets = doubling_lets(13);
  std::string eight;
  for (int i = 0; i < 8; ++i) eight += "{n13} ";
  RuleSet rules;
  std::vector<Diagnostic> errors;
  for (int i = 0; i < 3; ++i)
    CHECK(rules.load(std::make_shared<const planlint::SourceFile>(
                         fmt::format("r{}.toml", i), rule_with_lets(fmt::format("org-r{}", i), "true", eight, lets)),
                     errors));
  CHECK(errors.empty());
  CHECK_FALSE(rules.load(
      std::make_shared<const planlint::SourceFile>("r3.toml", rule_with_lets("org-r3", "true", eight, lets)), errors));
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message,
             Catch::Contains("the rules loaded together grow past 524288 nodes once their lets are written out"));
}
