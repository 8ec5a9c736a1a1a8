// The built-in rule set: every rule has docs with the five headings (its cases in
// tests/rules/<id>/ are test_rule_cases.cpp's); docs/rules/ is generated from the rule files
// and kept in step. PLANLINT_UPDATE_GOLDEN=1 rewrites the docs.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"

#include "planlint/diag/native_rules.hpp"
#include "planlint/emit/lint_report.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/lint/lint.hpp"
#include "planlint/lint/run.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_docs.hpp"
#include "planlint/rules/rule_file.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using namespace planlint;

namespace {

/// Lints a fixture as `planlint check --no-color --today 2026-11-30 [--rules PACK]` would
/// (paths relative to the repository root, suppressions applied, no config discovery).
std::string lint_output(const fs::path& relative, std::vector<std::string> packs = {},
                        std::vector<Diagnostic>* diagnostics = nullptr) {
  fs::current_path(PLANLINT_SOURCE_DIR);
  RunOptions options;
  options.paths = {relative.generic_string()};
  options.discover_config = false;
  options.today = Date{2026, 11, 30};
  options.rules = std::move(packs);
  RunResult result = run_lint(options);
  INFO(relative.string());
  REQUIRE(result.errors.empty());
  if (diagnostics) *diagnostics = result.report.diagnostics;
  std::ostringstream out;
  emit_text(out, result.report, TextStyle{});
  return out.str();
}

bool fires(const std::string& output, const std::string& rule) {
  return output.find("[" + rule + "]\n") != std::string::npos;
}

/// Loads one rule file into an empty rule set, expecting it to be refused; returns the errors.
std::vector<Diagnostic> refused_rule_errors(std::string name, std::string text) {
  RuleSet rules;
  std::vector<Diagnostic> errors;
  CHECK_FALSE(rules.load(std::make_shared<const SourceFile>(std::move(name), std::move(text)), errors));
  return errors;
}

/// The finding of the pack rule `rule` (a rule that always fires, in the file `pack`) on a small
/// training plan: what a template test reads its message and help from.
Diagnostic template_finding(const std::string& pack, std::string_view rule) {
  const std::vector<Diagnostic> diagnostics = planlint::test::lint_plan_text(
      "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"7B\"\n"
      "[training]\ntokens = \"1T\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n",
      Date{2026, 12, 2}, {pack});
  for (const Diagnostic& d : diagnostics)
    if (d.rule == rule) return d;
  FAIL("no finding of " << rule);
  return {};
}

}  // namespace

TEST_CASE("the built-in rules load and include every core rule", "[rules]") {
  const RuleSet& rules = RuleSet::builtin();
  std::set<std::string> ids;
  for (const RuleDescriptor& d : rules.descriptors()) ids.insert(d.id);
  for (const char* id :
       {"toml-syntax", "unknown-key", "bad-quantity", "missing-required", "unknown-gpu",
        "memory-fit", "inference-memory-fit", "kv-cache-dominates", "interconnect-bottleneck",
        "tp-across-nodes", "pipeline-bubble", "sparse-peak", "precision-peak", "peak-mismatch",
        "bits-for-bytes", "mfu-implausible", "mfu-out-of-range", "missing-goodput",
        "missing-schedule-margin", "missing-range", "estimate-mismatch", "unit-slip",
        "benchmark-deviation", "hard-target-violated", "soft-target-violated",
        "target-unmeasurable", "assumption-missing-source", "assumption-stale",
        "assumption-undeclared", "assumption-range-inverted", "plan-stale", "peak-concurrency",
        "decode-bound", "sla-unreachable", "checkpoint-interval", "moe-compute-params",
        "chinchilla-ratio", "suppression-without-reason", "unused-suppression"}) {
    INFO(id);
    CHECK(ids.count(id) == 1);
  }
}

TEST_CASE("the native rule ids are the built-in rules checked in C++", "[rules]") {
  // diag/native_rules.hpp names them for the code that reports them; their rule files say
  // `native = true` and hold their docs.
  std::set<std::string> native;
  for (const RuleDescriptor& d : RuleSet::builtin().descriptors())
    if (d.native) native.insert(d.id);
  const std::set<std::string> listed(native_rules::all.begin(), native_rules::all.end());
  CHECK(listed == native);
  CHECK(std::is_sorted(native_rules::all.begin(), native_rules::all.end()));
}

TEST_CASE("every rule documents itself with the five headings", "[rules][docs]") {
  for (const RuleDescriptor& rule : RuleSet::builtin().descriptors()) {
    INFO(rule.id << " (" << rule.origin.view() << ")");
    for (const char* heading : {"## What it does", "## Why is this bad?", "## Example",
                                "## Use instead", "## References"})
      CHECK(rule.docs.view().find(heading) != std::string_view::npos);
    CHECK(rule.origin == "rules/" + rule.group + "/" + rule.id + ".toml");
  }
}

TEST_CASE("docs/rules is generated from the rule files and up to date", "[rules][docs]") {
  fs::current_path(PLANLINT_SOURCE_DIR);
  const auto rules = RuleSet::builtin().descriptors();
  std::set<std::string> pages = {"README.md"};
  auto compare = [](const fs::path& path, const std::string& generated) {
    if (planlint::test::updating_golden()) {
      fs::create_directories(path.parent_path());
      std::ofstream(path, std::ios::binary) << generated;
    }
    INFO(path.string() << " is out of date: PLANLINT_UPDATE_GOLDEN=1 regenerates docs/rules/");
    CHECK(planlint::test::read_text(path) == generated);
  };
  compare("docs/rules/README.md", rule_index_markdown(rules));
  for (const auto& rule : RuleSet::builtin().rules()) {
    compare(fs::path("docs/rules") / (rule->descriptor.id + ".md"), rule_markdown(*rule));
    pages.insert(rule->descriptor.id + ".md");
  }
  for (const auto& entry : fs::directory_iterator("docs/rules")) {
    INFO("docs/rules/" << entry.path().filename().string() << " has no rule file");
    CHECK(pages.count(entry.path().filename().string()) == 1);
  }
}

TEST_CASE("a GPU's smaller memory part has a catalog id of its own, so its plan is clean", "[rules][peak]") {
  // A100 40 GB and V100 16 GB plans drew peak-mismatch ("HBM 40 GB vs 80 GB") with no id to
  // name instead.
  auto plan = [](const char* gpu, const char* hbm) {
    return fmt::format("[plan]\nname = \"x\"\nkind = \"training\"\nowner = \"o\"\nupdated = 2026-11-01\n"
                       "[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\nprecision = \"fp16\"\n"
                       "mfu = \"40%\"\ngoodput = \"90%\"\n[cluster]\ngpu = \"{}\"\ncount = 8\nhbm = \"{}\"\n",
                       gpu, hbm);
  };
  planlint::test::Scratch dir;
  CHECK(fires(lint_output(dir.write("a.toml", plan("a100-sxm", "40 GB"))), "peak-mismatch"));
  for (const auto& [gpu, hbm] : {std::pair{"a100-sxm-40gb", "40 GB"}, std::pair{"a100-pcie-40gb", "40 GB"},
                                 std::pair{"v100-sxm2-16gb", "16 GB"}, std::pair{"v100-sxm2", "32 GB"}}) {
    CAPTURE(gpu);
    const std::string output = lint_output(dir.write("b.toml", plan(gpu, hbm)));
    INFO(output);
    CHECK_FALSE(fires(output, "peak-mismatch"));
    CHECK_FALSE(fires(output, "unknown-gpu"));
  }
}

TEST_CASE("peak-mismatch says when a memory bandwidth was written in bits", "[rules][peak]") {
  auto plan = [](const char* bandwidth) {
    return fmt::format("[plan]\nname = \"x\"\nkind = \"training\"\nowner = \"o\"\nupdated = 2026-11-01\n"
                       "[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\nmfu = \"40%\"\ngoodput = \"90%\"\n"
                       "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\nhbm_bandwidth = \"{}\"\n", bandwidth);
  };
  planlint::test::Scratch dir;
  const std::string bits = lint_output(dir.write("a.toml", plan("3.35 Tbps")));
  CHECK(fires(bits, "peak-mismatch"));
  CHECK_THAT(bits, Catch::Contains("help: hbm_bandwidth is written in bits"));
  const std::string bytes = lint_output(dir.write("b.toml", plan("2 TB/s")));
  CHECK(fires(bytes, "peak-mismatch"));
  CHECK_THAT(bytes, !Catch::Contains("written in bits"));
}

TEST_CASE("sla-unreachable names the latency that misses its SLA, or both", "[rules][inference]") {
  // TTFT's lower bound here is 2.12 s and ITL's 11.2 ms.
  auto plan = [](const char* sla_ttft, const char* sla_itl) {
    return fmt::format("[plan]\nname = \"x\"\nkind = \"inference\"\n[model]\nparams = \"70B\"\nlayers = 80\n"
                       "hidden = 8192\nheads = 64\nkv_heads = 8\n[inference]\nweights = \"bf16\"\ncontext = 32768\n"
                       "prompt_tokens = 30000\nconcurrency = 64\ntp = 4\nsla_ttft = \"{}\"\nsla_itl = \"{}\"\n"
                       "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n", sla_ttft, sla_itl);
  };
  const std::pair<std::string, const char*> cases[] = {
      {plan("100 ms", "50 ms"), "error: the TTFT lower bound 2.12 s exceeds its SLA of 100 ms, before"},
      {plan("5 s", "5 ms"), "error: the ITL lower bound 11.2 ms exceeds its SLA of 5 ms, before"},
      {plan("100 ms", "5 ms"),
       "error: the TTFT lower bound 2.12 s exceeds its SLA of 100 ms, and the ITL lower bound 11.2 ms exceeds its "
       "SLA of 5 ms"},
  };
  planlint::test::Scratch dir;
  for (const auto& [text, expected] : cases) {
    const std::string output = lint_output(dir.write("plan.toml", text));
    INFO(output);
    CHECK_THAT(output, Catch::Contains(expected));
    CHECK(fires(output, "sla-unreachable"));
  }
  CHECK_FALSE(fires(lint_output(dir.write("plan.toml", plan("5 s", "50 ms"))), "sla-unreachable"));
  // With one SLA stated, the other bound is not printed as "(SLA ?)".
  std::string itl_only = plan("5 s", "5 ms");
  itl_only.erase(itl_only.find("sla_ttft = \"5 s\"\n"), std::string("sla_ttft = \"5 s\"\n").size());
  const std::string output = lint_output(dir.write("plan.toml", itl_only));
  INFO(output);
  CHECK_THAT(output, Catch::Contains("error: the ITL lower bound 11.2 ms exceeds its SLA of 5 ms, before"));
  CHECK_THAT(output, !Catch::Contains("?"));
}

TEST_CASE("a placeholder may print a value or nothing, an expression may not mix them", "[rules][load]") {
  const std::string head = "id = \"x\"\ngroup = \"g\"\nseverity = \"note\"\nsummary = \"s\"\n";
  // In a placeholder, a conditional chain pairs a number with '' (printed as nothing).
  {
    RuleSet rules;
    std::vector<Diagnostic> errors;
    CHECK(rules.load(std::make_shared<const SourceFile>(
                         "ok.toml", head + "check = \"false\"\nmessage = \"hbm{if exists(cluster.hbm) then ' ' else "
                                           "''}{if exists(cluster.hbm) then cluster.hbm else if false then cluster.hbm "
                                           "else ''}\"\ndocs = \"d\"\n"),
                     errors));
    CHECK(errors.empty());
  }
  // Anywhere else the branches of if have one type.
  const std::vector<Diagnostic> in_check = refused_rule_errors(
      "bad.toml", head + "check = \"(if true then cluster.hbm else '') == 1 GB\"\nmessage = \"m\"\ndocs = \"d\"\n");
  REQUIRE(in_check.size() == 1);
  CHECK_THAT(in_check[0].message, Catch::Contains("the branches of if differ"));
  const std::vector<Diagnostic> inside = refused_rule_errors(
      "bad.toml", head + "check = \"false\"\nmessage = \"{1 GB + (if true then cluster.hbm else '')}\"\ndocs = \"d\"\n");
  REQUIRE(inside.size() == 1);
  CHECK_THAT(inside[0].message, Catch::Contains("the branches of if differ"));
}

TEST_CASE("an MoE claim off by params / active_params is left to moe-compute-params only where compute follows the active parameters",
          "[rules][moe]") {
  // The example's step time is 5.54 s, its activations 7.87 GB and its all-reduce 0.922% of the
  // step; these claims are each 3.6× (141B / 39B) too large. Only the step time is the MoE
  // mistake (6 · N instead of 6 · N_a); memory and communication do not follow N_a, so a claim
  // N / N_a off there is an ordinary mismatch, which estimate-mismatch and unit-slip once
  // skipped, leaving the claims without any finding.
  std::string text = planlint::test::read_text(fs::path(PLANLINT_SOURCE_DIR) / "examples/moe-pretrain.toml");
  text.erase(text.find("[estimates]"));
  text += "[estimates]\n\"train.step_seconds\" = \"20 s\"\n\"train.memory.activations\" = \"28.5 GB\"\n"
          "\"train.comm.fraction\" = \"3.33%\"\n";
  planlint::test::Scratch dir;
  std::vector<Diagnostic> diagnostics;
  const std::string output = lint_output(dir.write("plan.toml", text), {}, &diagnostics);
  INFO(output);
  CHECK_THAT(output, Catch::Contains("train.step_seconds = 20 s is the figure for all 141B parameters"));
  CHECK_THAT(output, Catch::Contains("claims 28.5 GB for train.memory.activations, planlint computes 7.87 GB"));
  CHECK_THAT(output, Catch::Contains("claims 3.33% for train.comm.fraction, planlint computes 0.922%"));
  CHECK(std::count_if(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.rule == "estimate-mismatch"; }) == 2);
  CHECK(std::count_if(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.rule == "moe-compute-params"; }) == 1);
}

TEST_CASE("a LoRA fine-tune across nodes is not an interconnect bottleneck", "[rules][network]") {
  // The QLoRA example on 32 GPUs (four nodes) behind one 400 Gb/s NIC each: interconnect-bottleneck
  // said the all-reduce took 39% of the step, counting 271 GB of full-model gradients per GPU,
  // where only the rank-16 adapters' gradients (well under 1 GB) are reduced.
  std::string text = planlint::test::read_text(fs::path(PLANLINT_SOURCE_DIR) / "examples/finetune-qlora.toml");
  const std::string count = "count = 8\n";
  REQUIRE(text.find(count) != std::string::npos);
  text.replace(text.find(count), count.size(), "count = 32\ninter_node_bandwidth = \"400 Gbps\"\n");
  planlint::test::Scratch dir;
  const std::string output = lint_output(dir.write("plan.toml", text));
  INFO(output);
  CHECK_FALSE(fires(output, "interconnect-bottleneck"));
  // The same plan as a full fine-tune (no adapters) does move the whole model's gradients.
  const std::string lora = "lora_rank = 16\n";
  REQUIRE(text.find(lora) != std::string::npos);
  text.erase(text.find(lora), lora.size());
  CHECK(fires(lint_output(dir.write("plan.toml", text)), "interconnect-bottleneck"));
}

TEST_CASE("a value that is not valid is reported once, and nothing is computed from a default in its place",
          "[rules][invalid]") {
  // `zero = 4` took the default ZeRO-0 and memory-fit reported 112 GB of states per GPU; a
  // goodput of 90 (meaning 90%) made missing-goodput say the plan had no goodput.
  auto plan = [](const char* zero, const char* goodput) {
    return fmt::format("[plan]\nname = \"x\"\nkind = \"training\"\nowner = \"o\"\nupdated = 2026-11-01\n"
                       "[model]\nparams = \"7B\"\nlayers = 32\nhidden = 4096\nheads = 32\n"
                       "[training]\ntokens = \"1T\"\nseq_len = 4096\nmicro_batch = 1\nglobal_batch = \"4M tokens\"\n"
                       "zero = {}\nmfu = \"40%\"\ngoodput = {}\n"
                       "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\nprice = \"$3/GPU/h\"\n", zero, goodput);
  };
  planlint::test::Scratch dir;
  std::vector<Diagnostic> diagnostics;
  const std::string bad_zero = lint_output(dir.write("zero.toml", plan("4", "\"90%\"")), {}, &diagnostics);
  INFO(bad_zero);
  CHECK(fires(bad_zero, "bad-quantity"));
  CHECK_FALSE(fires(bad_zero, "memory-fit"));
  CHECK(fires(lint_output(dir.write("zero0.toml", plan("0", "\"90%\""))), "memory-fit"));  // the control

  const std::string bad_goodput = lint_output(dir.write("goodput.toml", plan("3", "90")));
  INFO(bad_goodput);
  CHECK(fires(bad_goodput, "bad-quantity"));
  CHECK_FALSE(fires(bad_goodput, "missing-goodput"));

  const test::LoadResult loaded = test::load_text(plan("4", "\"90%\""));
  REQUIRE(loaded.plan);
  CHECK(loaded.plan->find("training.zero") == nullptr);
  CHECK(loaded.plan->states_invalid("training.zero"));
  const Estimates estimates = estimate(*loaded.plan, Catalog::builtin());
  CHECK(estimates.find("train.memory.states") == nullptr);
  CHECK(*estimates.missing_inputs("train.memory.states") ==
        std::vector<std::string>{"training.zero (its value is not valid)"});
}

TEST_CASE("interconnect-bottleneck points at the link the all-reduce runs on", "[rules][network]") {
  // Within one node the data-parallel group all-reduces over NVLink, whose figure comes from
  // the catalog entry of cluster.gpu; the finding pointed at inter_node_bandwidth all the same.
  auto plan = [](int count, const char* extra) {
    return fmt::format("[plan]\nname = \"x\"\nkind = \"training\"\nowner = \"o\"\nupdated = 2026-11-01\n"
                       "[model]\nparams = \"7B\"\nlayers = 32\nhidden = 4096\nheads = 32\n"
                       "[training]\ntokens = \"1T\"\nseq_len = 4096\nmicro_batch = 1\nglobal_batch = \"32K tokens\"\n"
                       "mfu = \"40%\"\ngoodput = \"90%\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = {}\n{}",
                       count, extra);
  };
  planlint::test::Scratch dir;
  std::vector<Diagnostic> diagnostics;
  auto finding = [&](const std::string& text) -> const Diagnostic* {
    lint_output(dir.write("plan.toml", text), {}, &diagnostics);
    for (const Diagnostic& d : diagnostics)
      if (d.rule == "interconnect-bottleneck") return &d;
    return nullptr;
  };
  const Diagnostic* in_node = finding(plan(8, ""));
  REQUIRE(in_node != nullptr);
  CHECK(in_node->primary.span.begin.line == 19);  // gpu = "h100-sxm": where the NVLink figure comes from
  const Diagnostic* across = finding(plan(64, "inter_node_bandwidth = \"400 Gbps\"\n"));
  REQUIRE(across != nullptr);
  CHECK(across->primary.span.begin.line == 21);  // inter_node_bandwidth
}

TEST_CASE("a rule whose dimensions do not agree is reported at its line and column",
          "[rules][load]") {
  const std::vector<Diagnostic> errors = refused_rule_errors("bad-rule.toml", R"(id = "hbm-fraction"
group = "memory"
severity = "error"
summary = "compares bytes with a fraction"
check = "cluster.hbm <= 10%"
message = "x"
docs = "d"
)");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].primary.span.begin == Position{5, 10});
  CHECK(errors[0].message ==
        "in check: cannot compare bytes with a dimensionless number (a fraction or count)");
}

TEST_CASE("an error in an expression with escapes is reported at its own column", "[rules][load]") {
  // After an escape (\" or \u00e9) the column fell back to the
  // string's opening quote.
  auto column_of_error = [](const std::string& check_line) {
    const std::vector<Diagnostic> errors = refused_rule_errors(
        "esc.toml", "id = \"x\"\ngroup = \"g\"\nseverity = \"note\"\nsummary = \"s\"\n" + check_line +
                        "\nmessage = \"m\"\ndocs = \"d\"\n");
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors[0].message, Catch::Contains("unknown function 'dayz'"));
    return errors[0].primary.span.begin;
  };
  // check = "plan.name == \"a\\u00e9\" and dayz(1)": dayz at byte 40.
  CHECK(column_of_error(R"x(check = "plan.name == \"a\\u00e9\" and dayz(1)")x") == Position{5, 40});
  CHECK(column_of_error(R"x(check = "plan.name == \"\u00e9\" and dayz(1)")x") == Position{5, 38});
  CHECK(column_of_error(R"x(check = "plan.name == 'x' and dayz(1)")x") == Position{5, 31});
  // A multi-line basic string with a line-ending backslash.
  CHECK(column_of_error("check = \"\"\"\nplan.name == \\\"x\\\" and \\\n   dayz(1)\"\"\"") == Position{7, 4});
}

TEST_CASE("a message placeholder with a unit of the wrong dimension is a load error",
          "[rules][load]") {
  const std::vector<Diagnostic> errors = refused_rule_errors("bad-unit.toml", R"(id = "x"
group = "g"
severity = "note"
summary = "s"
check = "true"
message = "hbm is {cluster.hbm:TFLOPS}"
docs = "d"
)");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].primary.span.begin.line == 6);
  CHECK_THAT(errors[0].message, Catch::Contains("unit 'TFLOPS' does not fit bytes"));
}

TEST_CASE("a placeholder rounds up or down to the figures it shows", "[rules][load][template]") {
  // A help's "claim at most 187.9 tokens/s" was above the bound, 187.87, and
  // "a 1.67× larger global batch" under the 1.6747 it takes: rounded to the nearest, a
  // suggested bound lands on the wrong side of it half the time.
  planlint::test::Scratch dir;
  const std::string pack = dir.write("round.toml", R"(id = "round"
group = "g"
severity = "note"
summary = "s"
check = "false"
message = "{187.87 tokens/s:tokens/s down} {187.87 tokens/s:tokens/s up} {187.87 tokens/s} {1.6747:up} {1.6747:down} {0.10027:% up} {0.10027:%} {-2.3456 GB:GB up} {154.3 GB:GB up} {2 GB:GB down}"
help = "{0.999994 GB:GB up} {1.6747 * 1 s:s down} {7.0001e9:B up} {6.99999e9:B down} {4096.5 tokens:tokens down} {4096.5 tokens:tokens up}"
docs = "d"
)").string();
  const Diagnostic found = template_finding(pack, "round");
  CHECK(found.message == "187.8 tokens/s 187.9 tokens/s 187.9 tokens/s 1.68 1.67 10.1% 10% -2.345 GB 154.3 GB 2 GB");
  REQUIRE(found.help);
  // A count reads back with its suffix; the nearest text on the side, not the first found.
  CHECK(*found.help == "1 GB 1.674 s 7.001B 6.999B 4096 tokens 4097 tokens");

  // Only a number rounds, and the word is the last after the colon.
  const std::vector<Diagnostic> errors = refused_rule_errors("bad-round.toml", R"(id = "x"
group = "g"
severity = "note"
summary = "s"
check = "true"
message = "{plan.name:up}"
docs = "d"
)");
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::Contains("'up' rounds a number, not a string"));
}

TEST_CASE("a placeholder in dollars or GPU-hours prints the readable form the default does",
          "[rules][template]") {
  // {est.cost.total:$} printed "$1824000" next to {est.cost.total}'s
  // "$1.82M", {x:GPU*h} "589800 GPU*h", and {x:$M} was refused.
  planlint::test::Scratch dir;
  const std::string pack = dir.write("money.toml", R"(id = "money"
group = "g"
severity = "note"
summary = "s"
check = "false"
message = "{$1824000} {$1824000:$} {$1824000:$M} {$1824000:$ up} {$1824000:USD} {589800 h * 1 GPU} {589800 h * 1 GPU:GPU*h} {589800 h * 1 GPU:GPU*h up}"
docs = "d"
)").string();
  CHECK(template_finding(pack, "money").message ==
        "$1.82M $1.82M $1.824M $1.83M 1.82M USD 589.8K GPU·h 589.8K GPU*h 589.8K GPU*h");
}

TEST_CASE("interconnect-bottleneck's suggested global batch clears it and splits evenly", "[rules][network]") {
  // The help's "1.25× larger" batch, rounded to the nearest, was 10.02% of
  // the step (still a finding) and 10 sequences over dp 8, which global-batch-split refuses.
  auto plan = [](const std::string& global_batch) {
    return "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"7B\"\n"
           "[training]\ntokens = \"1T\"\nseq_len = 4096\nmicro_batch = 1\nglobal_batch = " + global_batch +
           "\nmfu = \"40%\"\nzero = 1\n[cluster]\ngpu = \"h100-sxm\"\ncount = 8\ninter_node_bandwidth = \"400 Gbps\"\n";
  };
  auto lint = [](const std::string& text) { return planlint::test::lint_plan_text(text, Date{2026, 12, 2}); };
  const std::vector<Diagnostic> before = lint(plan("8"));
  const Diagnostic* bottleneck = nullptr;
  for (const Diagnostic& d : before)
    if (d.rule == "interconnect-bottleneck") bottleneck = &d;
  REQUIRE(bottleneck);
  REQUIRE(bottleneck->help);
  const std::smatch suggested = [&] {
    std::smatch match;
    const std::regex batch("global_batch = ([0-9]+) sequences");
    REQUIRE(std::regex_search(*bottleneck->help, match, batch));
    return match;
  }();
  CHECK_THAT(*bottleneck->help, Catch::Contains("a 1.26× larger training.global_batch"));
  const std::string batch = suggested[1].str();
  CHECK(std::stoi(batch) % 8 == 0);
  for (const Diagnostic& d : lint(plan(batch))) {
    INFO(d.message);
    CHECK(d.rule != "interconnect-bottleneck");
    CHECK(d.rule != "global-batch-split");
  }
}

TEST_CASE("a figure next to the limit it breaks does not read as the limit", "[rules][template]") {
  // "2048 sequences is 33 micro-batches ... not a whole number" (33.03),
  // "19.99 ... is 20 tokens per parameter, below the compute-optimal 20".
  auto message_of = [](const std::string& plan, const std::string& rule) -> std::string {
    for (const Diagnostic& d : planlint::test::lint_plan_text(plan, Date{2026, 12, 2}))
      if (d.rule == rule) return d.message;
    FAIL("no " << rule << " finding");
    return "";
  };
  const std::string training = "[plan]\nname = \"x\"\nkind = \"training\"\nupdated = 2026-11-20\n[model]\nparams = \"70B\"\n"
                               "[training]\nmicro_batch = 1\nzero = 1\n";
  CHECK_THAT(message_of(training + "tokens = \"15T\"\nglobal_batch = 2048\n[cluster]\ngpu = \"h100-sxm\"\ncount = 62\n",
                        "global-batch-split"),
             Catch::Contains("is 33.1 micro-batches"));
  CHECK_THAT(message_of(training + "tokens = \"15T\"\nglobal_batch = 2044\n[cluster]\ngpu = \"h100-sxm\"\ncount = 62\n",
                        "global-batch-split"),
             Catch::Contains("is 32.9 micro-batches"));  // 32.97
  CHECK_THAT(message_of(training + "tokens = \"1399B\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 64\n", "chinchilla-ratio"),
             Catch::Contains("is 19.9 tokens per parameter, below the compute-optimal 20"));
  // Away from the limit the figure is the nearest: 1T / 70B = 14.29.
  CHECK_THAT(message_of(training + "tokens = \"1T\"\n[cluster]\ngpu = \"h100-sxm\"\ncount = 64\n", "chinchilla-ratio"),
             Catch::Contains("is 14.3 tokens per parameter"));
}

TEST_CASE("rule ids are kebab-case", "[rules][load]") {
  for (std::string_view id : {"x", "memory-fit", "a1", "mfu-out-of-range", "tp-across-nodes",
                              "a-1", "a-b-c", "x9-9x"}) {
    INFO(id);
    CHECK(is_rule_id(id));
  }
  const std::string_view rejected[] = {"", "-a", "a-", "a--b", "1a", "Memory-fit", "memory_fit",
                                       "memory fit", "mémoire", "a-B", "a.b", "a-\n", "-",
                                       std::string_view("a\0b", 3)};
  for (std::string_view id : rejected) {
    INFO(id);
    CHECK_FALSE(is_rule_id(id));
  }
  // The same language as the regular expression it replaced, over every short string of
  // characters that matter.
  const std::regex pattern("[a-z][a-z0-9]*(-[a-z0-9]+)*");
  const std::string alphabet = "az09-A_";
  std::vector<std::string> ids = {""};
  for (std::size_t begin = 0, length = 0; length < 5; ++length) {
    const std::size_t end = ids.size();
    for (std::size_t i = begin; i < end; ++i)
      for (char c : alphabet) ids.push_back(ids[i] + c);
    begin = end;
  }
  for (const std::string& id : ids) {
    INFO(id);
    REQUIRE(is_rule_id(id) == std::regex_match(id, pattern));
  }
  // A user pack's bad id is reported at the id, with the same message as ever.
  const std::vector<Diagnostic> errors = refused_rule_errors("bad-id.toml", R"(id = "Memory--fit"
group = "g"
severity = "note"
summary = "s"
check = "true"
message = "m"
docs = "d"
)");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].primary.span.begin == Position{1, 6});
  CHECK(errors[0].message == "rule id 'Memory--fit' must be kebab-case (memory-fit)");
}

TEST_CASE("a user rule pack adds an organisation's checklist rule", "[rules][packs]") {
  RuleSet rules = RuleSet::with_builtin();
  std::vector<Diagnostic> errors;
  REQUIRE(rules.load_path(test::data_path("data/rule-packs/org"), errors));
  INFO(test::render(errors));
  REQUIRE(errors.empty());
  REQUIRE(rules.find("org-approved-plan") != nullptr);
  const std::vector<std::string> pack = {"tests/data/rule-packs/org"};
  const std::string failing = lint_output("tests/data/rule-packs/approved-without-owner.toml", pack);
  CHECK(fires(failing, "org-approved-plan"));
  const std::string passing = lint_output("tests/data/rule-packs/approved-with-owner.toml", pack);
  CHECK_FALSE(fires(passing, "org-approved-plan"));

  SECTION("through --rules on the command line") {
    fs::current_path(PLANLINT_SOURCE_DIR);
    auto run = test::run_cli({"check", "--no-color", "--rules", "tests/data/rule-packs/org",
                              "tests/data/rule-packs/approved-without-owner.toml"});
    CHECK(run.status == 1);
    CHECK(fires(run.out, "org-approved-plan"));
  }
}

TEST_CASE("a fix whose value is absent is left out, not written as '?'", "[rules][packs][fix]") {
  // A fix is an edit a tool may apply unattended: "?" in place of an absent value would
  // corrupt the plan. The message still shows the "?".
  planlint::test::Scratch dir;
  const fs::path pack = dir.write("pack/price-fix.toml", R"(id = "org-price-fix"
group = "org"
severity = "warning"
summary = "Every plan states a price"
check = "false"
at = "cluster.gpu"
message = "price {cluster.price}"
help = "state one"
fix = "\"{cluster.price:USD/GPU/h}\""
)" + std::string(test::rule_docs_stub));
  const std::string plan_head =
      "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\n"
      "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\n";
  std::vector<Diagnostic> diagnostics;
  lint_output(dir.write("without.toml", plan_head), {pack.parent_path().string()}, &diagnostics);
  auto finding = std::find_if(diagnostics.begin(), diagnostics.end(),
                              [](const Diagnostic& d) { return d.rule == "org-price-fix"; });
  REQUIRE(finding != diagnostics.end());
  CHECK(finding->message == "price ?");
  CHECK(finding->fixes.empty());

  lint_output(dir.write("with.toml", plan_head + "price = \"$2/GPU/h\"\n"), {pack.parent_path().string()},
              &diagnostics);
  finding = std::find_if(diagnostics.begin(), diagnostics.end(),
                         [](const Diagnostic& d) { return d.rule == "org-price-fix"; });
  REQUIRE(finding != diagnostics.end());
  REQUIRE(finding->fixes.size() == 1);
  CHECK_THAT(finding->fixes[0].replacement, !Catch::Contains("?"));
}

TEST_CASE("a fix written without quotes still replaces a value with valid TOML", "[rules][packs][fix]") {
  // Fix = "{options.max_price}" replaced price = "$4/GPU/h" (its span
  // holds the quotes) with $3.5/GPU·h, and the patched plan was invalid TOML.
  planlint::test::Scratch dir;
  auto pack = [&](const std::string& fix) {
    return dir.write("pack/price-cap.toml", "id = \"org-price-cap\"\ngroup = \"org\"\nseverity = \"warning\"\n"
                                            "summary = \"s\"\ncheck = \"cluster.price <= options.max_price\"\n"
                                            "at = \"cluster.price\"\nmessage = \"m\"\nfix = \"" + fix + "\"\n" +
                                            std::string(test::rule_docs_stub) + "[options]\nmax_price = \"$3.5/GPU/h\"\n");
  };
  const std::string plan =
      "[plan]\nname = \"x\"\nkind = \"training\"\n[model]\nparams = \"7B\"\n[training]\ntokens = \"1T\"\n"
      "[cluster]\ngpu = \"h100-sxm\"\ncount = 8\nprice = \"$4/GPU/h\"\n";
  auto replacement = [&](const std::string& fix) {
    std::vector<Diagnostic> diagnostics;
    const fs::path file = pack(fix);
    lint_output(dir.write("plan.toml", plan), {file.parent_path().string()}, &diagnostics);
    auto found = std::find_if(diagnostics.begin(), diagnostics.end(),
                              [](const Diagnostic& d) { return d.rule == "org-price-cap"; });
    REQUIRE(found != diagnostics.end());
    REQUIRE(found->fixes.size() == 1);
    return found->fixes[0].replacement;
  };
  CHECK(replacement("{options.max_price}") == "\"$3.5/GPU·h\"");
  CHECK(replacement("\\\"{options.max_price}\\\"") == "\"$3.5/GPU·h\"");  // quoted as the built-in rules do
  CHECK(replacement("{options.max_price / 1 USD * 1 GPU * 1 h}") == "3.5");  // a number stays one
  CHECK(replacement("say \\\"{options.max_price}\\\"") == "\"say \\\"$3.5/GPU·h\\\"\"");  // escaped
  // A value and a comment: inside an inline table the comment would swallow the closing brace.
  CHECK(replacement("{options.max_price / 1 USD * 1 GPU * 1 h} # capped") == "\"3.5 # capped\"");
  CHECK(replacement("{options.max_price / 1 USD * 1 GPU * 1 h},") == "\"3.5,\"");
}

TEST_CASE("a user rule pack named in .planlint.toml is loaded relative to the config",
          "[rules][packs][config]") {
  const fs::path folder = fs::temp_directory_path() / ("planlint-pack-" + std::to_string(::getpid()));
  fs::create_directories(folder / "policies");
  fs::copy_file(test::data_path("data/rule-packs/org/approved-plan.toml"),
                folder / "policies/approved-plan.toml", fs::copy_options::overwrite_existing);
  fs::copy_file(test::data_path("data/rule-packs/approved-without-owner.toml"), folder / "plan.toml",
                fs::copy_options::overwrite_existing);
  std::ofstream(folder / ".planlint.toml") << "[lint]\nrules = [\"policies/\"]\n";
  RunOptions options;
  options.paths = {(folder / "plan.toml").string()};
  options.today = Date{2026, 11, 30};
  RunResult result = run_lint(options);
  CHECK(result.errors.empty());
  std::ostringstream out;
  emit_text(out, result.report, TextStyle{});
  CHECK(fires(out.str(), "org-approved-plan"));
  fs::remove_all(folder);
}

TEST_CASE("a user rule with the id of another rule is an error naming both files",
          "[rules][packs]") {
  RuleSet rules = RuleSet::with_builtin();
  std::vector<Diagnostic> errors;
  auto file = std::make_shared<const SourceFile>("policies/memory-fit.toml", R"(# our stricter copy
  id = "memory-fit"
group = "memory"
severity = "error"
summary = "s"
check = "true"
message = "m"
docs = "d"
)");
  CHECK_FALSE(rules.load(file, errors));
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0].message, Catch::Contains("policies/memory-fit.toml") ||
                                    Catch::Contains("rules/memory/memory-fit.toml"));
  CHECK(errors[0].primary.file == "policies/memory-fit.toml");
  REQUIRE(errors[0].related.size() == 1);
  CHECK(errors[0].related[0].location.file == "rules/memory/memory-fit.toml");
  // Both places are the `id` keys (the copy's is indented on its second line).
  CHECK(errors[0].primary.span.begin == Position{2, 3});
  CHECK(errors[0].related[0].location.span.begin == Position{1, 1});
}

TEST_CASE("planlint rules lists every rule and explain prints its docs", "[rules][cli]") {
  auto list = test::run_cli({"rules"});
  CHECK(list.status == 0);
  CHECK_THAT(list.out, Catch::Contains("memory-fit") && Catch::Contains("unit-slip"));
  auto explain = test::run_cli({"explain", "memory-fit"});
  CHECK(explain.status == 0);
  CHECK_THAT(explain.out, Catch::StartsWith("# memory-fit") && Catch::Contains("## Why is this bad?"));
  CHECK_THAT(explain.out, !Catch::Contains("## Options"));  // memory-fit has none
  // A rule's options and their defaults, which the config's unknown-option error points to.
  auto options = test::run_cli({"explain", "plan-stale"});
  CHECK(options.status == 0);
  CHECK_THAT(options.out, Catch::Contains("## Options\n\n| option | default |\n|---|---|\n| `plan_max_age` | 180 d |"));
  CHECK_THAT(test::run_cli({"explain", "assumption-value-mismatch"}).out, Catch::Contains("| `tolerance` | 1% |"));
  auto unknown = test::run_cli({"explain", "memory-fitt"});
  CHECK(unknown.status == 2);
  CHECK_THAT(unknown.err, Catch::Contains("did you mean 'memory-fit'?"));
}

TEST_CASE("select, ignore and severity decide which rules run and how loud",
          "[rules][selection]") {
  RuleSelection selection;
  CHECK(selection.level("memory-fit", "memory", Severity::error) == Severity::error);
  selection.ignore = {"memory"};
  CHECK_FALSE(selection.level("memory-fit", "memory", Severity::error));
  selection = {};
  selection.select = {"peak"};
  CHECK_FALSE(selection.level("memory-fit", "memory", Severity::error));
  CHECK(selection.level("sparse-peak", "peak", Severity::error) == Severity::error);
  selection = {};
  selection.severity = {{"memory", "warning"}, {"memory-fit", "note"}};
  CHECK(selection.level("memory-fit", "memory", Severity::error) == Severity::note);
  CHECK(selection.level("inference-memory-fit", "memory", Severity::error) ==
        Severity::warning);
  selection.severity = {{"memory-fit", "off"}};
  CHECK_FALSE(selection.level("memory-fit", "memory", Severity::error));

  // A file that is not valid TOML, or a plan planlint cannot read as written (the structure
  // group), is reported whatever is selected; only an ignore or "off" silences it (--select
  // peak,memory once turned a plan with an unknown GPU into "no problems", exit 0).
  selection = {};
  selection.select = {"unknown-key"};
  CHECK(selection.level("toml-syntax", "structure", Severity::error) == Severity::error);
  selection.select = {"peak", "memory"};
  for (const char* structural : {"toml-syntax", "unknown-gpu", "bad-quantity", "bad-value", "unknown-key"})
    CHECK(selection.level(structural, "structure", Severity::error) == Severity::error);
  selection.ignore = {"unknown-gpu"};
  CHECK_FALSE(selection.level("unknown-gpu", "structure", Severity::error));
  selection.ignore = {};
  selection.ignore = {"toml-syntax"};
  CHECK_FALSE(selection.level("toml-syntax", "structure", Severity::error));
  selection = {};
  selection.select = {"memory"};
  selection.severity = {{"structure", "off"}};
  CHECK_FALSE(selection.level("toml-syntax", "structure", Severity::error));
}
