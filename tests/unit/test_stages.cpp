/// A run in stages ([[stages]]): each stage is the plan with its overrides, estimated by the same
/// estimate(); the whole run's run.* metrics are the stages' sums; the rules run on each stage
/// and report a finding that every stage shares once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>

#include "planlint/lint/lint.hpp"
#include "planlint/rules/rule_set.hpp"
#include "support.hpp"
#include "test_estimates_support.hpp"

using namespace planlint;
using namespace planlint::test;

namespace {

FileResult lint(std::string text) {
  LintOptions options;
  options.today = Date{2026, 12, 1};
  return lint_source(std::make_shared<const SourceFile>("plan.toml", std::move(text)), options);
}

/// training_plan() with two stages: the plan as it stands, then a long-context stage on half
/// the GPUs.
const std::string long_context_stage = R"(
[[stages]]
name = "pre-training"

[[stages]]
name = "long-context"
training.tokens = "100B"
training.seq_len = 32768
training.global_batch = 128
cluster.count = 64
)";

}  // namespace

TEST_CASE("a stage is the plan with its own keys, estimated as a plan of its own", "[estimates][stages]") {
  const FileResult staged = lint(training_plan() + long_context_stage);
  REQUIRE(staged.plan);
  REQUIRE(staged.plan->stages.size() == 2);
  REQUIRE(staged.stage_estimates.size() == 2);
  // The same figures as the plan written out with the stage's values, in every metric.
  const Estimated first = estimate_text(training_plan());
  const Estimated second = estimate_text(training_plan({{"training.tokens", "\"100B\""},
                                                        {"training.seq_len", "32768"},
                                                        {"training.global_batch", "128"},
                                                        {"cluster.count", "64"}}));
  for (const auto& [stage, alone] : {std::pair{&staged.stage_estimates[0], &first.estimates},
                                     std::pair{&staged.stage_estimates[1], &second.estimates}}) {
    // Besides the run's totals, which every stage sees.
    const auto own = std::count_if(stage->values().begin(), stage->values().end(), [](const MetricValue& m) {
      return !m.spec || m.spec->section != ReportSection::run;
    });
    REQUIRE(static_cast<std::size_t>(own) == alone->values().size());
    for (const MetricValue& metric : alone->values()) {
      INFO(metric.name);
      const MetricValue* same = stage->find(metric.name);
      REQUIRE(same);
      CHECK(same->value == metric.value);
    }
  }
  // The stage's defaults are its own: dp follows its GPU count.
  CHECK(staged.plan->stages[1].plan->number("training.dp") == second.plan().number("training.dp"));
  CHECK(staged.plan->stages[1].plan->number("training.dp") != staged.plan->stages[0].plan->number("training.dp"));
  // A stage's value keeps its place in the stage's table.
  CHECK(staged.plan->stages[1].plan->find("training.seq_len")->span.begin.line >
        staged.plan->find("training.seq_len")->span.begin.line);
}

TEST_CASE("the whole run's metrics sum the stages, and its memory is the largest stage's", "[estimates][stages]") {
  const FileResult staged = lint(training_plan() + long_context_stage);
  REQUIRE(staged.estimates);
  const Estimates& run = *staged.estimates;
  const Estimates& a = staged.stage_estimates.at(0);
  const Estimates& b = staged.stage_estimates.at(1);
  for (const auto& [total, part] : {std::pair{"run.flops", "train.flops"}, std::pair{"run.gpu_hours", "train.gpu_hours"},
                                    std::pair{"run.gpu_hours_billed", "cost.gpu_hours_billed"},
                                    std::pair{"run.days", "train.days"}, std::pair{"run.wall_days", "train.wall_days"}}) {
    INFO(total);
    REQUIRE(run.find(total));
    CHECK(run.find(total)->value == Approx(a.find(part)->value + b.find(part)->value));
  }
  CHECK(run.find("run.tokens")->value == Approx(1e12 + 100e9));
  // The days add in one unit, whatever each stage's own reads best in: an annealing stage of
  // 10B tokens takes hours.
  const FileResult annealed = lint(training_plan() + "\n[[stages]]\nname = \"main\"\n\n[[stages]]\nname = \"anneal\"\n"
                                                     "training.tokens = \"10B\"\n");
  REQUIRE(annealed.estimates);
  REQUIRE(annealed.stage_estimates.size() == 2);
  REQUIRE(annealed.stage_estimates[1].find("train.days")->value < 86400);
  for (const char* days : {"run.days", "run.wall_days"}) {
    INFO(days);
    REQUIRE(annealed.estimates->find(days));
    const std::string arithmetic = annealed.estimates->find(days)->arithmetic.str();
    CHECK_THAT(arithmetic, Catch::Contains(" d + "));
    CHECK_THAT(arithmetic, !Catch::Contains(" h"));
  }
  CHECK(run.find("run.memory_per_gpu")->value ==
        std::max(a.find("train.memory.total")->value, b.find("train.memory.total")->value));
  // No price: no cost for either stage, nor for the run, which names what it lacks.
  CHECK_FALSE(run.find("run.cost"));
  REQUIRE(run.missing_inputs("run.cost"));
  CHECK_FALSE(run.missing_inputs("run.cost")->empty());
}

TEST_CASE("a plan without [[stages]] has no run metrics", "[estimates][stages]") {
  const FileResult plain = lint(training_plan());
  REQUIRE(plain.estimates);
  CHECK(plain.stage_estimates.empty());
  CHECK_FALSE(plain.estimates->find("run.gpu_hours"));
  CHECK(plain.estimates->missing_inputs("run.gpu_hours") == nullptr);
  CHECK(plain.estimates->find("train.gpu_hours"));
}

TEST_CASE("a run's claims are checked against its totals, a stage's against the stage", "[rules][stages]") {
  const FileResult staged = lint(training_plan() + long_context_stage);
  const double total_hours = staged.estimates->find("run.gpu_hours")->value / 3600;
  const double stage_days = staged.stage_estimates[1].find("train.days")->value / 86400;
  // Right figures: no claim finding.
  const std::string right = fmt::format("\n[estimates]\n\"run.gpu_hours\" = {}\n", total_hours) + long_context_stage +
                            fmt::format("estimates.\"train.days\" = {}\n", stage_days);
  auto claims = [](const FileResult& result) {
    std::vector<const Diagnostic*> found;
    for (const Diagnostic& d : result.diagnostics)
      if (d.rule == "estimate-mismatch" || d.rule == "unit-slip") found.push_back(&d);
    return found;
  };
  const FileResult good = lint(training_plan() + right);
  INFO(render(good.diagnostics));
  CHECK(claims(good).empty());
  // Half the run's GPU-hours and twice the stage's days: one finding each, the stage's named.
  const std::string wrong = fmt::format("\n[estimates]\n\"run.gpu_hours\" = {}\n", total_hours / 2) +
                            long_context_stage + fmt::format("estimates.\"train.days\" = {}\n", stage_days * 2);
  const FileResult bad = lint(training_plan() + wrong);
  INFO(render(bad.diagnostics));
  const auto found = claims(bad);
  REQUIRE(found.size() == 2);
  CHECK(std::any_of(found.begin(), found.end(), [](const Diagnostic* d) {
    return d->message.starts_with("stage 'long-context': ") && d->message.find("train.days") != std::string::npos;
  }));
  CHECK(std::any_of(found.begin(), found.end(), [](const Diagnostic* d) {
    return !d->message.starts_with("stage") && d->message.find("run.gpu_hours") != std::string::npos;
  }));
}

TEST_CASE("a finding every stage shares is reported once, and none twice", "[rules][stages]") {
  // An MFU without an [[assumptions]] entry: the same finding for the run and both stages.
  const FileResult one = lint(training_plan());
  const FileResult staged = lint(training_plan() + long_context_stage);
  auto of_rule = [](const FileResult& result, std::string_view rule) {
    std::vector<const Diagnostic*> found;
    for (const Diagnostic& d : result.diagnostics)
      if (d.rule == rule) found.push_back(&d);
    return found;
  };
  REQUIRE(of_rule(one, "assumption-undeclared").size() == 1);
  const auto shared = of_rule(staged, "assumption-undeclared");
  REQUIRE(shared.size() == 1);
  CHECK(shared.front()->message == of_rule(one, "assumption-undeclared").front()->message);
  for (const Diagnostic& d : staged.diagnostics) {
    INFO(d.rule << ": " << d.message);
    CHECK(std::count_if(staged.diagnostics.begin(), staged.diagnostics.end(), [&](const Diagnostic& other) {
            return other.rule == d.rule && other.message == d.message && other.primary.span == d.primary.span;
          }) == 1);
  }
}

TEST_CASE("a stage's bad keys are errors at their place in the stage", "[loader][stages]") {
  const std::string plan = training_plan() + R"(
[[stages]]
name = "a"
training.seq_lenn = 8192
training.zero = 4
cluster.gpu = "a100"
seq_len = 8192

[[stages]]
name = "a"
)";
  const LoadResult loaded = load_text(plan);
  INFO(render(loaded.diagnostics));
  auto at = [&](std::string_view rule, std::string_view text) {
    return std::find_if(loaded.diagnostics.begin(), loaded.diagnostics.end(), [&](const Diagnostic& d) {
      return d.rule == rule && d.key_path.find(text) != std::string::npos;
    });
  };
  const auto misspelt = at("unknown-key", "seq_lenn");
  REQUIRE(misspelt != loaded.diagnostics.end());
  CHECK(misspelt->primary.span.begin.line == 1 + static_cast<std::uint32_t>(std::count(
                                                     plan.begin(), plan.begin() + plan.find("training.seq_lenn"), '\n')));
  // The message names the stage, not the plan's [training].
  CHECK(misspelt->message == "unknown key 'seq_lenn' in [training] of stage 'a'");
  CHECK((at("bad-value", "stages[0].training.zero") != loaded.diagnostics.end() ||
         at("bad-quantity", "stages[0].training.zero") != loaded.diagnostics.end()));
  CHECK(at("unknown-key", "stages[0].cluster.gpu") != loaded.diagnostics.end());
  const auto top_level = at("unknown-key", "stages[0].seq_len");
  REQUIRE(top_level != loaded.diagnostics.end());
  CHECK(top_level->help->find("training.seq_len") != std::string::npos);
  CHECK(at("bad-value", "stages[1].name") != loaded.diagnostics.end());
  // The invalid zero is the stage's: the stage gets no default for it, the plan its own.
  REQUIRE(loaded.plan);
  CHECK(loaded.plan->find("training.zero"));
  CHECK_FALSE(loaded.plan->stages.at(0).plan->find("training.zero"));
}

TEST_CASE("an inference plan has no stages, and a plan at most 64", "[loader][stages]") {
  const LoadResult inference = load_text(inference_plan() + "\n[[stages]]\nname = \"a\"\n");
  const auto inference_rules = rules_of(inference.diagnostics);
  CHECK(std::count(inference_rules.begin(), inference_rules.end(), "bad-value") == 1);
  REQUIRE(inference.plan);
  CHECK(inference.plan->stages.empty());
  std::string many = training_plan();
  for (int i = 0; i < 65; ++i) many += fmt::format("\n[[stages]]\nname = \"s{}\"\n", i);
  const LoadResult too_many = load_text(many);
  REQUIRE(too_many.plan);
  CHECK(too_many.plan->stages.empty());
  const auto rules = rules_of(too_many.diagnostics);
  CHECK(std::count(rules.begin(), rules.end(), "bad-value") == 1);
}

TEST_CASE("a default a stage's own keys break is named by its stage, one every stage shares is not", "[loader][stages]") {
  // The plan's 64 GPUs divide into its tp of 8; the stage's tp of 3 leaves no data-parallel degree.
  const std::string stages = R"(
[[stages]]
name = "pre-training"

[[stages]]
name = "long-context"
training.tp = 3
)";
  auto count_findings = [](const FileResult& result) {
    std::vector<const Diagnostic*> found;
    for (const Diagnostic& d : result.diagnostics)
      if (d.rule == "bad-value" && d.key_path == "cluster.count") found.push_back(&d);
    return found;
  };
  const FileResult stage_only = lint(training_plan({{"cluster.count", "64"}, {"training.tp", "8"}}) + stages);
  const auto one_stage = count_findings(stage_only);
  REQUIRE(one_stage.size() == 1);
  CHECK_THAT(one_stage.front()->message, Catch::StartsWith("stage 'long-context': cluster.count = 64 GPUs does not divide"));
  // 63 GPUs do not divide into the plan's tp, nor so into the first stage's, which is the plan's:
  // the plan's finding, once, naming no stage (the second stage's tp of 3 divides them).
  const FileResult plan_too = lint(training_plan({{"cluster.count", "63"}, {"training.tp", "8"}}) + stages);
  const auto shared = count_findings(plan_too);
  REQUIRE(shared.size() == 1);
  CHECK_THAT(shared.front()->message, Catch::StartsWith("cluster.count = 63 GPUs does not divide"));
}

TEST_CASE("a stage's key that planlint cannot read is the stage's unknown, not the plan's value", "[loader][stages]") {
  // The plan states zero = 1 and seq_len; the stage misspells seq_len and gives zero an
  // invalid value: the stage's metrics that need them name them, not the plan's values.
  const FileResult staged = lint(training_plan({{"training.zero", "1"}}) + R"(
[[stages]]
name = "pre-training"

[[stages]]
name = "long-context"
training.seq_lenn = 32768
training.zero = 5
)");
  REQUIRE(staged.plan);
  REQUIRE(staged.plan->stages.size() == 2);
  const Plan& first = *staged.plan->stages[0].plan;
  const Plan& second = *staged.plan->stages[1].plan;
  CHECK(first.number("training.zero") == 1);
  CHECK(first.number("training.seq_len"));
  CHECK_FALSE(second.find("training.zero"));
  CHECK_FALSE(second.find("training.seq_len"));
  const Estimates& long_context = staged.stage_estimates.at(1);
  CHECK_FALSE(long_context.find("train.memory.states"));
  REQUIRE(long_context.missing_inputs("train.memory.states"));
  CHECK(*long_context.missing_inputs("train.memory.states") ==
        std::vector<std::string>{"training.zero (its value is not valid)"});
  REQUIRE(long_context.missing_inputs("train.memory.activations"));
  const std::vector<std::string>& activations = *long_context.missing_inputs("train.memory.activations");
  CHECK(std::find(activations.begin(), activations.end(), "training.seq_len (written as 'seq_lenn')") != activations.end());
  // The first stage is the plan as written.
  CHECK(staged.stage_estimates.at(0).find("train.memory.states"));
}

TEST_CASE("a stage's own targets are checked on the stage, and name it", "[rules][stages]") {
  // The long-context stage: 100B tokens of 32K sequences on 64 H100 at 40% MFU.
  const std::string targets = R"(
[[stages.targets]]
name = "extension in a day"
metric = "train.days"
max = "1 d"

[[stages.targets]]
name = "extension in a week"
metric = "train.days"
max = "7 d"

[[targets]]
name = "run in a year"
metric = "run.days"
max = "365 d"
)";
  const FileResult result = lint(training_plan() + long_context_stage + targets);
  REQUIRE(result.plan);
  REQUIRE(result.plan->stages.size() == 2);
  CHECK(result.plan->stages[0].plan->targets.empty());
  REQUIRE(result.plan->stages[1].plan->targets.size() == 2);
  const double stage_days = result.stage_estimates[1].find(Metric::train_days)->value / 86400;
  INFO("the long-context stage takes " << stage_days << " d");
  REQUIRE(stage_days > 1);
  REQUIRE(stage_days < 7);
  std::vector<const Diagnostic*> violated;
  for (const Diagnostic& d : result.diagnostics)
    if (d.rule == "hard-target-violated") violated.push_back(&d);
  REQUIRE(violated.size() == 1);
  CHECK(violated[0]->message.starts_with("stage 'long-context': hard target 'extension in a day'"));
  // Keyed by the stage's name and the target's, as a baseline keeps it when stages or targets
  // are added before them; the key by place is kept for the baselines that wrote it.
  const std::string named = "stages[name=long-context].targets[name=\"extension in a day\"].max";
  CHECK(violated[0]->key_path == named);
  REQUIRE(result.former_keys.earlier.count(named) == 1);
  CHECK(result.former_keys.earlier.find(named)->second == "stages[1].targets[0].max");

  const FileResult unnamed = lint(training_plan() + long_context_stage + "\n[[stages.targets]]\nmetric = \"train.days\"\n");
  const auto missing = std::find_if(unnamed.diagnostics.begin(), unnamed.diagnostics.end(), [](const Diagnostic& d) {
    return d.rule == "missing-required" && d.key_path == "stages[name=long-context].targets[0].name";
  });
  REQUIRE(missing != unnamed.diagnostics.end());
  CHECK(missing->message == "missing required key 'name' in [[stages.targets]] #1 of stage 'long-context'");
  // Without max or min, as a plan's target.
  const auto unbounded = std::find_if(unnamed.diagnostics.begin(), unnamed.diagnostics.end(), [](const Diagnostic& d) {
    return d.rule == "missing-required" && d.key_path == "stages[name=long-context].targets[0]";
  });
  REQUIRE(unbounded != unnamed.diagnostics.end());
  CHECK(unbounded->message == "[[stages.targets]] #1 of stage 'long-context' has no bound: give max or min");
}

TEST_CASE("a stage's finding on an element names the plan's element, or the stage's own", "[rules][stages]") {
  // The plan justifies its MFU and its goodput; the long-context stage states its own MFU entry
  // (which drops the plan's from the stage's list, moving goodput's up) and a goodput outside
  // the plan's entry: assumption-value-mismatch there, on the plan's goodput entry.
  const std::string text = training_plan({{"training.goodput", "\"90%\""}}) + R"(
[[assumptions]]
id = "mfu"
key = "training.mfu"
value = "40%"
source = "bench"
updated = 2026-11-01

[[assumptions]]
id = "goodput"
key = "training.goodput"
value = "90%"
low = "85%"
high = "95%"
source = "fleet log"
updated = 2026-11-01
)" + long_context_stage + R"(training.goodput = "70%"
training.mfu = "30%"

[[stages.assumptions]]
id = "mfu-long"
key = "training.mfu"
value = "30%"
)";
  const FileResult result = lint(text);
  const auto mismatch = std::find_if(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& d) {
    return d.rule == "assumption-value-mismatch";
  });
  REQUIRE(mismatch != result.diagnostics.end());
  INFO(mismatch->message);
  CHECK(mismatch->message.starts_with("stage 'long-context': training.goodput = 70%"));
  CHECK(mismatch->key_path == "assumptions[id=goodput].value");
  // The stage's own entry, without a source: its finding names the stage's element.
  const auto unsourced = std::find_if(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& d) {
    return d.rule == "assumption-missing-source";
  });
  REQUIRE(unsourced != result.diagnostics.end());
  CHECK(unsourced->key_path.starts_with("stages[name=long-context].assumptions[id=mfu-long]"));
}

TEST_CASE("a run in stages: its findings' figures are those once a finding's fix corrects an input",
          "[rules][stages][corrected]") {
  // The H100's sparse BF16 peak in [cluster], which every stage inherits: sparse-peak's fix
  // writes the dense 989 TFLOPS, and the run's days are those at that peak.
  const std::string sparse_plan = training_plan({{"cluster.peak", "\"1979 TFLOPS\""}}) + long_context_stage;
  const FileResult dense = lint(training_plan({{"cluster.peak", "\"989 TFLOPS\""}}) + long_context_stage);
  const double dense_days = dense.estimates->find("run.days")->value / 86400;
  // A claim of the days the sparse peak gives (half): right as written, wrong once corrected.
  const std::string claim = fmt::format("\n[estimates]\n\"run.days\" = \"{} d\"\n", dense_days / 2);
  const FileResult sparse = lint(sparse_plan + claim);
  INFO(render(sparse.diagnostics));
  REQUIRE(sparse.corrected);
  REQUIRE(sparse.corrected->corrections.size() == 1);
  CHECK(sparse.corrected->corrections[0].key == "cluster.peak");
  CHECK(sparse.corrected->corrections[0].stage.empty());
  REQUIRE(sparse.corrected->stage_estimates.size() == 2);
  CHECK(sparse.corrected->estimates.find("run.days")->value == Approx(dense.estimates->find("run.days")->value));
  for (std::size_t s = 0; s < 2; ++s)
    CHECK(sparse.corrected->stage_estimates[s].find("train.days")->value ==
          Approx(dense.stage_estimates[s].find("train.days")->value));
  // The claim's finding is the dense plan's, marked.
  const FileResult dense_claimed = lint(training_plan({{"cluster.peak", "\"989 TFLOPS\""}}) + long_context_stage + claim);
  const auto of_rule = [](const FileResult& result, std::string_view rule) {
    std::vector<const Diagnostic*> found;
    for (const Diagnostic& d : result.diagnostics)
      if (d.rule == rule) found.push_back(&d);
    return found;
  };
  REQUIRE(of_rule(dense_claimed, "estimate-mismatch").size() == 1);
  const auto mismatch = of_rule(sparse, "estimate-mismatch");
  REQUIRE(mismatch.size() == 1);
  CHECK(mismatch.front()->message ==
        of_rule(dense_claimed, "estimate-mismatch").front()->message + " (once cluster.peak is 989 TFLOPS)");
  // The peak's own finding once, with the dense figure the stages compute (the whole run's
  // estimates hold its totals only).
  const auto peak = of_rule(sparse, "sparse-peak");
  REQUIRE(peak.size() == 1);
  CHECK_THAT(peak.front()->message, Catch::Contains("989 TFLOPS") && !Catch::Contains("?"));
  REQUIRE(peak.front()->fixes.size() == 1);
  CHECK(peak.front()->fixes.front().replacement == "\"989 TFLOPS\"");
}

TEST_CASE("a stage's own value that a finding's fix corrects is corrected in that stage only",
          "[rules][stages][corrected]") {
  // An organisation's rule with a fix on a key a stage sets: the long-context stage's tokens are
  // the data card's 200B.
  RuleSet rules = RuleSet::with_builtin();
  std::vector<Diagnostic> errors;
  REQUIRE(rules.load(std::make_shared<const SourceFile>(
                         "org-context-tokens.toml",
                         std::string("id = \"org-context-tokens\"\ngroup = \"org\"\nseverity = \"error\"\n"
                                     "summary = \"s\"\napplies = \"training.seq_len > 8192 tokens\"\n"
                                     "check = \"within(training.tokens, 200e9 tokens, 1%)\"\nat = \"training.tokens\"\n"
                                     "message = \"a long-context stage trains on the data card's 200B tokens\"\n"
                                     "fix = \"\\\"200B\\\"\"\nfix_safety = \"safe\"\n") +
                             std::string(rule_docs_stub)),
                     errors));
  INFO(render(errors));
  LintOptions options;
  options.today = Date{2026, 12, 1};
  options.rules = &rules;
  const auto lint_with = [&](std::string text) {
    return lint_source(std::make_shared<const SourceFile>("plan.toml", std::move(text)), options);
  };
  std::string fixed_stage = long_context_stage;
  fixed_stage.replace(fixed_stage.find("\"100B\""), 6, "\"200B\"");
  const FileResult right = lint_with(training_plan() + fixed_stage);
  const double stage_days = right.stage_estimates[1].find("train.days")->value / 86400;
  // The stage's claim of its days at 200B tokens: wrong as written (100B), right once corrected.
  const FileResult staged =
      lint_with(training_plan() + long_context_stage + fmt::format("estimates.\"train.days\" = \"{} d\"\n", stage_days));
  INFO(render(staged.diagnostics));
  REQUIRE(staged.corrected);
  REQUIRE(staged.corrected->corrections.size() == 1);
  CHECK(staged.corrected->corrections[0].stage == "long-context");
  CHECK(once_text(staged.corrected->corrections) == "training.tokens of stage 'long-context' is 200B");
  // The plan's tokens and the first stage's stay as written.
  CHECK(staged.corrected->plan.number("training.tokens") == staged.plan->number("training.tokens"));
  CHECK(staged.corrected->stage_estimates[0].find("train.days")->value ==
        Approx(staged.stage_estimates[0].find("train.days")->value));
  CHECK(staged.corrected->stage_estimates[1].find("train.days")->value ==
        Approx(right.stage_estimates[1].find("train.days")->value));
  CHECK(staged.corrected->estimates.find("run.days")->value == Approx(right.estimates->find("run.days")->value));
  // The claim's finding follows from the stage's tokens as written: the fix clears it.
  const auto claim = std::find_if(staged.diagnostics.begin(), staged.diagnostics.end(),
                                  [](const Diagnostic& d) { return d.rule == "estimate-mismatch"; });
  REQUIRE(claim != staged.diagnostics.end());
  REQUIRE(claim->help);
  CHECK_THAT(*claim->help, Catch::Contains("org-context-tokens's fix clears this") &&
                               Catch::Contains("once training.tokens of stage 'long-context' is 200B"));
}
