// Literals a rule cannot mean: a metric or plan key name that names nothing, a choice a key
// never takes, a percentage written without its '%'. Such a rule would load and never fire,
// so each is an error when the rule loads.
#include <map>
#include <string>
#include <tuple>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "planlint/expr/check.hpp"
#include "planlint/expr/syntax.hpp"
#include "planlint/rules/placeholder_units.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/rules/rule_types.hpp"
#include "support.hpp"

using namespace planlint;

namespace {

const std::map<std::string, expr::Value> no_options;

/// The check error of `text`, in a rule whose `each` is `each`; REQUIREs one.
expr::CheckError check_error(std::string_view text, std::string each = "") {
  expr::ParseResult parsed = expr::parse_expression(text);
  INFO(text);
  REQUIRE(std::holds_alternative<expr::NodePtr>(parsed));
  RuleTypeEnvironment names(std::move(each), no_options);
  auto checked = expr::check(*std::get<expr::NodePtr>(parsed), names);
  REQUIRE(std::holds_alternative<expr::CheckError>(checked));
  return std::get<expr::CheckError>(checked);
}

/// Whether `text` checks, in a rule whose `each` is `each`.
bool checks(std::string_view text, std::string each = "") {
  expr::ParseResult parsed = expr::parse_expression(text);
  INFO(text);
  REQUIRE(std::holds_alternative<expr::NodePtr>(parsed));
  RuleTypeEnvironment names(std::move(each), no_options);
  auto checked = expr::check(*std::get<expr::NodePtr>(parsed), names);
  if (auto* error = std::get_if<expr::CheckError>(&checked)) UNSCOPED_INFO(error->message);
  return std::holds_alternative<expr::Type>(checked);
}

/// The one error of loading a rule file with `check` and `message`.
Diagnostic load_error(const std::string& check, const std::string& message = "m",
                      const std::string& each = "") {
  const std::string text = fmt::format(
      "id = \"org-x\"\ngroup = \"org\"\nseverity = \"warning\"\nsummary = \"s\"\n{}check = \"{}\"\n"
      "message = \"{}\"\n{}",
      each.empty() ? "" : fmt::format("each = \"{}\"\n", each), check, message, test::rule_docs_stub);
  std::vector<Diagnostic> errors;
  RuleSet rules;
  CHECK_FALSE(rules.load(std::make_shared<const SourceFile>("org-x.toml", text), errors));
  INFO(test::render(errors));
  REQUIRE(errors.size() == 1);
  return errors[0];
}

}  // namespace

TEST_CASE("a string literal that names a metric or a plan key must name one", "[expr][check][literals]") {
  // Each of these evaluated as absent on every plan, so its rule never fired.
  for (const char* function : {"metric", "metric_low", "metric_high", "tier", "tolerance", "claimed",
                               "computed", "benchmarked"}) {
    const expr::CheckError error = check_error(fmt::format("known({}('train.dayz'))", function));
    CHECK(error.message == "unknown metric 'train.dayz'; did you mean 'train.days'?");
    CHECK(error.offset == fmt::format("known({}(", function).size());  // at the literal
  }
  for (const char* function : {"value", "assumed"}) {
    const expr::CheckError error = check_error(fmt::format("known({}('training.mfuu'))", function));
    CHECK(error.message == "unknown plan key 'training.mfuu'; did you mean 'training.mfu'?");
  }
  CHECK(check_error("claimed('nonsense.metric.x')").message == "unknown metric 'nonsense.metric.x'");
  // A field of every [[targets]] entry names no one value: value('targets.max') read nothing.
  for (const char* function : {"value", "assumed"}) {
    const expr::CheckError error = check_error(fmt::format("known({}('targets.max'))", function));
    CHECK(error.message ==
          "'targets.max' is the max field of every [[targets]] entry, not one plan value: value() reads and an "
          "assumption justifies a key of a table, such as 'training.mfu'");
    CHECK(error.offset == fmt::format("known({}(", function).size());
  }
  CHECK(check_error("it.key == 'benchmarks.value'", "assumptions").message.starts_with(
      "'benchmarks.value' is the value field of every [[benchmarks]] entry"));

  // A name known only at run time stays unchecked; a right one passes.
  CHECK(checks("tolerance(it.metric) >= 0 and claimed(it.metric)", "estimates"));
  CHECK(checks("claimed('train.days') and computed('infer.ttft') and assumed('tolerances.cost')"));
  CHECK(checks("value('cluster.gpu') == 'h100-sxm'"));

  // A metric named by a literal has its dimension.
  CHECK(checks("metric('train.days') > 30 d"));
  CHECK(check_error("metric('train.days') > 30 GB").message == "cannot compare seconds with bytes");
}

TEST_CASE("a literal compared with the metric or key an element names must be one", "[expr][check][literals]") {
  CHECK(check_error("it.metric == 'train.dayz'", "estimates").message ==
        "unknown metric 'train.dayz'; did you mean 'train.days'?");
  CHECK(check_error("'train.dayz' != it.metric", "targets").message ==
        "unknown metric 'train.dayz'; did you mean 'train.days'?");
  const expr::CheckError among = check_error("it.metric in ['train.days', 'cost.totl']", "benchmarks");
  CHECK(among.message == "unknown metric 'cost.totl'; did you mean 'cost.total'?");
  CHECK(among.offset == std::string_view("it.metric in ['train.days', ").size());
  CHECK(check_error("it.key not in ['training.mfuu']", "assumptions").message ==
        "unknown plan key 'training.mfuu'; did you mean 'training.mfu'?");
  CHECK(checks("it.metric in ['train.days', 'cost.total']", "estimates"));
  CHECK(checks("it.key == 'training.mfu' and it.id == 'anything'", "assumptions"));
}

TEST_CASE("an unknown metric in a rule file is reported at its line and column", "[rules][load][literals]") {
  const Diagnostic in_check = load_error("claimed('train.dayz')");
  CHECK(in_check.primary.span.begin == Position{5, 18});
  CHECK(in_check.message == "in check: unknown metric 'train.dayz'; did you mean 'train.days'?");
  const Diagnostic in_message = load_error("true", "{metric('train.dayz'):d}");
  CHECK(in_message.primary.span.begin.line == 6);
  CHECK_THAT(in_message.message, Catch::Contains("unknown metric 'train.dayz'; did you mean 'train.days'?"));
}

TEST_CASE("a literal compared with a key of a few choices must be one of them", "[expr][check][literals]") {
  // plan.kind == 'trainng' loaded and was never true.
  const expr::CheckError kind = check_error("plan.kind == 'trainng'");
  CHECK(kind.message == "plan.kind is never 'trainng' (it is one of training, finetune, inference); "
                        "did you mean 'training'?");
  CHECK(kind.offset == std::string_view("plan.kind == ").size());
  CHECK(check_error("'aproved' != plan.status").message ==
        "plan.status is never 'aproved' (it is one of draft, review, approved); did you mean 'approved'?");
  CHECK(check_error("training.precision in ['bf16', 'fp9']").message ==
        "training.precision is never 'fp9' (it is one of fp32, tf32, bf16, fp16, fp8, fp4); did you mean 'fp8'?");
  CHECK(check_error("inference.weights not in ['int4', 'nf4']").message ==
        "inference.weights is never 'nf4' (it is one of bf16, fp16, fp8, int8, int4)");
  CHECK(check_error("training.optimizer == 'adamw8bit'").message.starts_with("training.optimizer is never 'adamw8bit'"));
  CHECK(check_error("training.recompute == 'ful'").message.ends_with("did you mean 'full'?"));
  // What the language's functions return is checked the same way.
  CHECK(check_error("tier(it.metric) in ['capacity', 'costs']", "estimates").message ==
        "tier() is never 'costs' (it is one of capacity, cost, latency); did you mean 'cost'?");
  CHECK(check_error("compute_precision() == 'bf61'").message.starts_with("compute_precision() is never 'bf61'"));
  CHECK(check_error("catalog(cluster.gpu, 'scale_out') == 'nvlink'").message ==
        "catalog() is never 'nvlink' (it is one of nic, ici)");
  CHECK(check_error("moe_scaling(it.metric) == 'active_param'", "estimates").message ==
        "moe_scaling() is never 'active_param' (it is one of none, active_params, total_params, routed_experts); "
        "did you mean 'active_params'?");

  CHECK(checks("plan.kind in ['training', 'finetune'] and plan.status != 'approved' and "
               "model.architecture == 'moe' and inference.batching == 'static'"));
  // A free-text key takes any literal; a conditional's value is not its branch's key.
  CHECK(checks("cluster.gpu == 'my-own-gpu' and plan.owner == 'anyone'"));
  CHECK(checks("(if plan.name == 'x' then plan.kind else 'other') == 'other'"));
}

TEST_CASE("a text compared with '' asks whether there is one, and is not checked", "[expr][check][literals]") {
  // The built-in rules' test that a claim names a metric: tier() is absent for any other name.
  CHECK(checks("tier(it.metric) != ''", "estimates"));
  CHECK(checks("plan.kind != '' and it.metric != ''", "targets"));
}

TEST_CASE("a fraction compared with a number outside 0..1: a percentage without its '%', or no fraction at all",
          "[expr][check][literals]") {
  // training.mfu <= 50 held for every plan: 50 is 5000%.
  const expr::CheckError mfu = check_error("training.mfu <= 50");
  CHECK(mfu.message == "training.mfu is a fraction: 50 is 5000%; write 50% or 0.5");
  CHECK(mfu.offset == std::string_view("training.mfu <= ").size());  // at the number
  CHECK(check_error("40 < training.goodput").message ==
        "training.goodput is a fraction: 40 is 4000%; write 40% or 0.4");
  CHECK(check_error("est.train.comm.fraction > 30").message ==
        "est.train.comm.fraction is a fraction: 30 is 3000%; write 30% or 0.3");
  CHECK(check_error("est.train.pipeline_bubble.high >= 1.5").message.starts_with(
      "est.train.pipeline_bubble.high is a fraction: 1.5 is 150%"));
  CHECK(check_error("training.mfu == 45").message.starts_with("training.mfu is a fraction"));
  CHECK(check_error("inference.mfu in [0.5, 60]").message.starts_with("inference.mfu is a fraction: 60 is 6000%"));
  CHECK(check_error("within(cluster.memory_reserve, 10, 5%)").message.starts_with("cluster.memory_reserve is a fraction"));
  CHECK(check_error("metric('train.comm.fraction') > 20").message ==
        "metric('train.comm.fraction') is a fraction: 20 is 2000%; write 20% or 0.2");
  // A tolerance may come from config, up to 1000%.
  CHECK(checks("tolerances.cost <= 2 and tolerance(it.metric) < 5", "estimates"));
  CHECK(check_error("tolerances.cost <= 30").message ==
        "tolerances.cost is a fraction: 30 is 3000%; write 30% or 0.3");
  CHECK(check_error("tolerance(it.metric) > 15", "estimates").message.starts_with("tolerance() is a fraction"));

  // A percentage above the fraction's largest value, or any negative number, is outside the
  // range the loader holds the value to: training.mfu <= 150% held for every plan.
  const expr::CheckError above = check_error("training.mfu <= 150%");
  CHECK(above.message ==
        "training.mfu is a fraction from 0% to 100%: 150% is outside it, so the comparison never changes and the "
        "rule never fires or always does");
  CHECK(above.offset == std::string_view("training.mfu <= ").size());
  const expr::CheckError negative = check_error("training.mfu > -5%");
  CHECK(negative.message.starts_with("training.mfu is a fraction from 0% to 100%: -5% is outside it"));
  CHECK(negative.offset == std::string_view("training.mfu > ").size());  // at the minus sign
  CHECK(check_error("-0.1 < training.goodput").message.starts_with(
      "training.goodput is a fraction from 0% to 100%: -10% is outside it"));
  CHECK(check_error("training.mfu in [40%, 120%]").message.starts_with("training.mfu is a fraction from 0% to 100%: 120%"));
  CHECK(check_error("tolerances.cost < 1500%").message.starts_with("tolerances.cost is a fraction from 0% to 1000%"));
  CHECK(checks("training.mfu <= 100% and training.mfu >= 0% and tolerances.cost <= 1000% and training.mfu > -0"));

  // A percentage, a fraction up to 1, and what is computed from a fraction pass.
  CHECK(checks("training.mfu <= 50% and training.mfu > 0.3 and training.goodput <= 1 and training.mfu != 0"));
  CHECK(checks("training.mfu * 100 <= 50 and abs(training.mfu - 0.4) < 2 and training.mfu ^ 2 < 4"));
  CHECK(checks("model.layers > 32 and est.train.tokens_per_param > 20"));
}

TEST_CASE("a date written in an expression is refused with the way to compare dates", "[expr][check][literals]") {
  // It parses as 2026 - 1 - 1: the error said only "cannot compare a date with a dimensionless number".
  CHECK(check_error("plan.updated > 2026-01-01").message ==
        "cannot compare a date with a dimensionless number (a fraction or count): there are no date literals "
        "(this one is read as 2026 - 1 - 1); compare an age in days instead, such as days_since(plan.updated) > 180 d");
  CHECK(check_error("2026-06-30 == it.updated", "assumptions").message.ends_with(
      "such as days_since(it.updated) > 180 d"));
  CHECK(check_error("plan.updated <= '2026-01-01'").message ==
        "cannot compare a date with a string: there are no date literals; compare an age in days instead, such as "
        "days_since(plan.updated) > 180 d");
  CHECK(check_error("days_since(2026-01-01) > 30 d").message ==
        "days_since() takes a date such as plan.updated: there are no date literals (this one is read as "
        "2026 - 1 - 1); compare an age in days instead, such as days_since(plan.updated) > 180 d");
  // Other mismatches keep their message.
  CHECK(check_error("plan.updated > 5").message == "cannot compare a date with a dimensionless number (a fraction or count)");
  CHECK(checks("days_since(plan.updated) > 180 d and it.updated > plan.updated", "assumptions"));
}

TEST_CASE("a placeholder's misspelt unit or rounding word says which it is", "[rules][template][literals]") {
  // {cluster.hbm:GBB} said "unit 'GBB' does not fit bytes", {cluster.hbm:GB upp} "unit 'GB upp'
  // does not fit bytes".
  std::size_t offset = 99;
  CHECK(display_unit_problem("GBB", units::dims::bytes, offset) == "unknown unit 'GBB' (did you mean 'GB'?)");
  CHECK(offset == 0);
  CHECK(display_unit_problem("GB upp", units::dims::bytes, offset) ==
        "unknown rounding 'upp': a placeholder rounds up or down (`{x:GB up}`, `{x:down}`), or to the nearest "
        "without a word; did you mean 'up'?");
  CHECK(offset == 3);
  CHECK(display_unit_problem("upp", units::dims::bytes, offset).starts_with("unknown rounding 'upp'"));
  CHECK(display_unit_problem("% dwn", units::dims::none, offset).ends_with("did you mean 'down'?"));
  CHECK(display_unit_problem("GB nearest", units::dims::bytes, offset).starts_with("unknown rounding 'nearest'"));
  CHECK(display_unit_problem("TFLOPS", units::dims::bytes, offset) == "unit 'TFLOPS' does not fit bytes");
  CHECK(display_unit_problem("%", units::dims::bytes, offset) == "unit '%' does not fit bytes");
  CHECK(display_unit_problem("GBB", std::nullopt, offset).starts_with("unknown unit 'GBB'"));
  CHECK(display_unit_problem("GBs", units::dims::bytes, offset) == "unknown unit 'GBs' (did you mean 'GB/s'?)");
  for (auto [unit, dim] : {std::pair{"GB", units::dims::bytes}, {"%", units::dims::none}, {"B", units::dims::none},
                           {"$M", units::dims::usd}, {"$", units::dims::usd}, {"GPU*h", units::dims::gpu_seconds}}) {
    INFO(unit);
    CHECK(display_unit_problem(unit, dim, offset).empty());
  }
  CHECK(display_unit_problem("GB", std::nullopt, offset).empty());
}

TEST_CASE("a rule file's misspelt placeholder unit or rounding word is reported at it", "[rules][template][literals]") {
  const std::string text = "id = \"org-u\"\ngroup = \"org\"\nseverity = \"error\"\nsummary = \"s\"\n"
                           "check = \"cluster.hbm > 1 GB\"\nmessage = \"{cluster.hbm:GBB}\"\n" +
                           std::string(test::rule_docs_stub);
  for (const auto& [message, expected, column] :
       {std::tuple{"{cluster.hbm:GBB}", "in message: unknown unit 'GBB' (did you mean 'GB'?)", 25u},
        std::tuple{"{cluster.hbm:GB upp}", "in message: unknown rounding 'upp'", 28u}}) {
    INFO(message);
    std::string file = text;
    file.replace(file.find("{cluster.hbm:GBB}"), 17, message);
    std::vector<Diagnostic> errors;
    RuleSet rules;
    CHECK_FALSE(rules.load(std::make_shared<const SourceFile>("u.toml", file), errors));
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message, Catch::StartsWith(expected));
    CHECK(errors[0].primary.span.begin == Position{6, column});
  }
}
