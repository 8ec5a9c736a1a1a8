// .planlint.toml: discovery from each linted file up to the repository root, --config,
// precedence of the command line, and a bad config as exit status 2 with file:line:col.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "integration_support.hpp"
#include "planlint/config/config.hpp"
#include "planlint/config/config_keys.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using planlint::test::run_cli;
using planlint::test::Scratch;

namespace {

constexpr const char* plan_with_typo = R"([plan]
name = "x"
kind = "inference"
[model]
params = "7B"
[cluster]
gpu = "h100-sxm"
count = 8
hmb = "80 GB"
)";

/// The config, or nullopt; its problems appended to `errors`.
std::optional<planlint::Config> parse(const std::string& text, std::vector<planlint::Diagnostic>& errors) {
  planlint::DiagnosticSink problems;
  // As --config reads it: these cases name files anywhere (a discovered config's confinement to
  // its repository: test_hostile_files.cpp).
  auto config = planlint::parse_config(planlint::SourceFile("cfg/.planlint.toml", text), problems,
                                       planlint::ConfigOrigin::command_line);
  for (planlint::Diagnostic& d : problems.take()) errors.push_back(std::move(d));
  if (!config) {
    CHECK(config.error().message == "invalid config 'cfg/.planlint.toml'");
    return std::nullopt;
  }
  return *std::move(config);
}

}  // namespace

TEST_CASE("a config file is read with every [lint] key and [tolerances]", "[config]") {
  std::vector<planlint::Diagnostic> errors;
  auto config = parse(R"([lint]
select = ["all"]
ignore = ["chinchilla-ratio", "memory"]
rules = ["policies/", "/abs/pack.toml"]
fail_on = "warning"
catalog = "hw/gpus.toml"
[lint.severity]
missing-range = "error"
peak = "off"
[lint.options]
assumption_max_age = "90 d"
ratio = 20
[tolerances]
capacity = "10%"
cost = 0.25
)",
                      errors);
  INFO(planlint::test::render(errors));
  REQUIRE(config);
  CHECK(config->select == std::vector<std::string>{"all"});
  CHECK(config->ignore == std::vector<std::string>{"chinchilla-ratio", "memory"});
  REQUIRE(config->rules.size() == 2);
  CHECK(config->rules[0].resolved == "cfg/policies/");
  CHECK(config->rules[0].written == "policies/");
  CHECK(config->rules[0].span.begin == planlint::Position{4, 10});
  CHECK(config->rules[1].resolved == "/abs/pack.toml");
  CHECK(config->fail_on == planlint::Severity::warning);
  CHECK(config->catalogs == std::vector<std::string>{"cfg/hw/gpus.toml"});
  CHECK(config->severity.at("missing-range") == "error");
  CHECK(config->severity.at("peak") == "off");
  CHECK(config->options.at("assumption_max_age").value == Approx(90 * 86400));
  CHECK(config->options.at("ratio").value == 20);
  CHECK(config->tolerances.at("capacity") == Approx(0.10));
  CHECK(config->tolerances.at("cost") == Approx(0.25));
}

TEST_CASE("a bad config names the file, line and column of each problem", "[config]") {
  std::vector<planlint::Diagnostic> errors;
  CHECK_FALSE(parse("[lint]\nselct = [\"all\"]\nfail_on = \"sometimes\"\n[lint.severity]\nx = \"loud\"\n"
                    "[tolerances]\ncapacity = \"80 GB\"\n[output]\n",
                    errors));
  REQUIRE(errors.size() == 5);
  CHECK(errors[0].message == "unknown key 'selct' in [lint]");
  CHECK(errors[0].help == "did you mean 'select'?");
  CHECK(errors[0].primary.span.begin == planlint::Position{2, 1});
  CHECK(errors[1].primary.span.begin.line == 3);
  CHECK(errors[2].primary.span.begin.line == 5);
  CHECK(errors[3].primary.span.begin.line == 7);
  CHECK(errors[4].message == "unknown key 'output' in the config file");
}

TEST_CASE("each config key's value is checked against its spec, at its line and column", "[config]") {
  for (const planlint::ConfigKeySpec& spec : planlint::config_keys()) {
    const std::string key = std::string(spec.table) + "." + std::string(spec.name);
    INFO(key);
    std::vector<planlint::Diagnostic> errors;
    CHECK(parse("[" + std::string(spec.table) + "]\n" + std::string(spec.name) + " = " + std::string(spec.example) + "\n",
                errors));
    CHECK(errors.empty());
    // A value of another TOML type: the key, what it takes, where.
    const std::string wrong = spec.type == planlint::ConfigType::boolean ? "\"yes\"" : "true";
    CHECK_FALSE(parse("[" + std::string(spec.table) + "]\n" + std::string(spec.name) + " = " + wrong + "\n", errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].message == key + " must be " + planlint::expected_value(spec));
    CHECK(errors[0].primary.span.begin == planlint::Position{2, static_cast<std::uint32_t>(spec.name.size() + 4)});
    // A misspelt key: the closest key of its table.
    errors.clear();
    CHECK_FALSE(parse("[" + std::string(spec.table) + "]\n" + std::string(spec.name) + "x = 1\n", errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].message == "unknown key '" + std::string(spec.name) + "x' in [" + std::string(spec.table) + "]");
    CHECK(errors[0].help == "did you mean '" + std::string(spec.name) + "'?");
  }
}

TEST_CASE("a config value outside its key's choices says which it takes", "[config]") {
  std::vector<planlint::Diagnostic> errors;
  CHECK_FALSE(parse("[lint]\nfail_on = \"off\"\ndocs_url = \"docs/\"\n[lint.severity]\nmemory-fit = \"loud\"\n"
                    "[lint.options]\nmax_mfu = \"fast\"\n[tolerances]\ncapacity = 20\n[guardrails]\ngpus_increase = \"10%\"\n",
                    errors));
  REQUIRE(errors.size() == 6);
  CHECK(errors[0].message == "lint.fail_on = \"off\": expected error, warning or note");
  CHECK(errors[0].primary.span.begin == planlint::Position{2, 11});
  CHECK(errors[1].message == "lint.docs_url = \"docs/\": expected an http:// or https:// URL");
  CHECK(errors[2].message == "lint.severity.memory-fit = \"loud\": expected error, warning, note or off");
  CHECK(errors[2].primary.span.begin == planlint::Position{5, 14});
  CHECK_THAT(errors[3].message, Catch::StartsWith("lint.options.max_mfu = \"fast\" is not a quantity: "));
  CHECK(errors[4].message == "tolerances.capacity must be a fraction such as \"10%\" or 0.1");
  CHECK(errors[5].message == "guardrails.gpus_increase must be a whole number of GPUs, 0 or more");
  CHECK(errors[5].primary.span.begin == planlint::Position{11, 17});
}

TEST_CASE("the nearest .planlint.toml up from each file configures it", "[config][cli]") {
  Scratch dir;
  dir.write(".planlint.toml", "[lint]\nignore = [\"unknown-key\"]\n");
  dir.write("team/.planlint.toml", "[lint.severity]\nunknown-key = \"warning\"\n");
  auto top = dir.write("plan.toml", plan_with_typo);
  auto nested = dir.write("team/deep/plan.toml", plan_with_typo);

  auto at_top = run_cli({"--no-color", top.string()});
  CHECK(at_top.status == 0);  // ignored by the root config
  CHECK(at_top.out == "no problems in 1 file\n");

  auto below = run_cli({"--no-color", nested.string()});
  CHECK(below.status == 0);  // the nearest config wins: a warning, below --fail-on error
  CHECK_THAT(below.out, Catch::Contains("warning: unknown key 'hmb'"));

  auto both = run_cli({"--no-color", "-j", "2", top.string(), nested.string()});
  CHECK_THAT(both.out, Catch::EndsWith("1 warning in 2 files\n"));
}

TEST_CASE("config discovery stops at the repository root", "[config][cli]") {
  Scratch dir;
  dir.write(".planlint.toml", "[lint]\nignore = [\"unknown-key\"]\n");
  fs::create_directories(dir.path / "repo/.git");
  auto plan = dir.write("repo/plans/plan.toml", plan_with_typo);
  auto run = run_cli({"--no-color", plan.string()});
  CHECK(run.status == 1);
}

TEST_CASE("a config named with --config applies, and command-line options win over it", "[config][cli]") {
  Scratch dir;
  auto config = dir.write("conf/lint.toml",
                          "[lint]\nignore = [\"unknown-gpu\"]\nfail_on = \"warning\"\n"
                          "[lint.severity]\nunknown-key = \"warning\"\n");
  auto plan = dir.write("plan.toml", plan_with_typo);
  auto with_config = run_cli({"--no-color", "--config", config.string(), plan.string()});
  CHECK(with_config.status == 1);  // a warning, and the config fails on warnings
  CHECK_THAT(with_config.out, Catch::Contains("warning: unknown key"));

  auto fail_on = run_cli({"--no-color", "--config", config.string(), "--fail-on", "error", plan.string()});
  CHECK(fail_on.status == 0);

  auto severity = run_cli({"--no-color", "--config", config.string(), "--severity", "unknown-key=note",
                           "--fail-on", "warning", plan.string()});
  CHECK(severity.status == 0);
  CHECK_THAT(severity.out, Catch::Contains("note: unknown key"));

  auto ignore = run_cli({"--no-color", "--config", config.string(), "--ignore", "structure", plan.string()});
  CHECK(ignore.status == 0);
  CHECK(ignore.out == "no problems in 1 file\n");

  // A narrowed selection still runs the structure group: the misspelt key is reported.
  auto select = run_cli({"--no-color", "--select", "memory-fit", plan.string()});
  CHECK(select.status == 1);
  CHECK_THAT(select.out, Catch::Contains("error: unknown key 'hmb'"));
}

TEST_CASE("an invalid config, rule pack or option exits 2 with file:line:col", "[config][cli]") {
  Scratch dir;
  dir.write(".planlint.toml", "[lint]\nselct = [\"all\"]\n");
  auto plan = dir.write("plan.toml", plan_with_typo);
  auto bad_config = run_cli({plan.string()});
  CHECK(bad_config.status == 2);
  CHECK(bad_config.out.empty());
  CHECK_THAT(bad_config.err, Catch::Contains(".planlint.toml:2:1: error: unknown key 'selct' in [lint]"));

  auto invalid_toml = dir.write("other/.planlint.toml", "[lint\n");
  auto other = dir.write("other/plan.toml", plan_with_typo);
  auto bad_toml = run_cli({other.string()});
  CHECK(bad_toml.status == 2);
  CHECK_THAT(bad_toml.err, Catch::Contains(".planlint.toml:1:"));

  auto pack = dir.write("packs/bad.toml", "id = \"my-rule\"\n");
  auto bad_pack = run_cli({"--config", invalid_toml.string(), other.string()});
  CHECK(bad_pack.status == 2);
  auto bad_rules = run_cli({"--rules", pack.string(), "--config", "/dev/null", other.string()});
  CHECK(bad_rules.status == 2);
  CHECK_THAT(bad_rules.err, Catch::Matches("(.|\n)*bad\\.toml:[0-9]+:[0-9]+: error: (.|\n)*"));

  auto missing_pack = run_cli({"--rules", (dir.path / "nope").string(), "--config", "/dev/null", other.string()});
  CHECK(missing_pack.status == 2);

  CHECK(run_cli({"--severity", "unknown-key", other.string()}).status == 2);

  // A misspelt rule, group or option name would turn a check off in silence: exit 2 instead.
  auto misspelt = run_cli({"--select", "memory-fitt", "--ignore", "asumptions", "--severity", "plan-stal=off",
                           "--config", "/dev/null", other.string()});
  CHECK(misspelt.status == 2);
  CHECK(misspelt.out.empty());
  CHECK_THAT(misspelt.err, Catch::Contains("--select memory-fitt: no rule or group has that name; did you mean 'memory-fit'?"));
  CHECK_THAT(misspelt.err, Catch::Contains("--ignore asumptions: no rule or group has that name; did you mean 'assumptions'?"));
  CHECK_THAT(misspelt.err, Catch::Contains("--severity plan-stal: no rule or group has that name; did you mean 'plan-stale'?"));
  CHECK(run_cli({"--select", "all", "--ignore", "memory,unknown-key", "--config", "/dev/null", other.string()}).status != 2);
  dir.write("named/.planlint.toml",
            "[lint]\nselect = [\"all\"]\nignore = [\"chinchila-ratio\"]\n[lint.severity]\nmemory-fitt = \"error\"\n"
            "[lint.options]\nplan_max_agee = \"90 d\"\nplan_max_age = \"90 d\"\n");
  auto named = run_cli({dir.write("named/plan.toml", plan_with_typo).string()});
  CHECK(named.status == 2);
  CHECK_THAT(named.err, Catch::Contains(".planlint.toml:3:11: error: lint.ignore names 'chinchila-ratio': no rule or group has that name; did you mean 'chinchilla-ratio'?"));
  CHECK_THAT(named.err, Catch::Contains(".planlint.toml:5:1: error: lint.severity names 'memory-fitt'"));
  CHECK_THAT(named.err, Catch::Contains(".planlint.toml:7:1: error: lint.options names 'plan_max_agee': no rule has an option of that name; did you mean 'plan_max_age'?"));
  CHECK(named.err.find("lint.ignore") < named.err.find("lint.severity"));
  CHECK(named.err.find("lint.severity") < named.err.find("lint.options"));
  // A rule of a pack the config loads is a known name.
  dir.write("pack/.planlint.toml", "[lint]\nrules = [\"rules/\"]\nselect = [\"org-approved-plan\"]\n");
  fs::create_directories(dir.path / "pack/rules");
  fs::copy_file(fs::path(PLANLINT_SOURCE_DIR) / "tests/data/rule-packs/org/approved-plan.toml",
                dir.path / "pack/rules/approved-plan.toml");
  CHECK(run_cli({dir.write("pack/plan.toml", plan_with_typo).string()}).status != 2);
  CHECK(run_cli({"--severity", "unknown-key=loud", other.string()}).status == 2);
  CHECK(run_cli({"--today", "2026-02-30", "--config", "/dev/null", other.string()}).status == 2);
}

TEST_CASE("a config value that would change nothing is an error, not ignored", "[config][cli]") {
  Scratch dir;
  const std::string plan = dir.write("p/plan.toml", plan_with_typo).string();
  // A plain number for a time option: the rule kept its 180 d default in silence.
  dir.write("p/.planlint.toml", "[lint.options]\nassumption_max_age = 90\n");
  auto number = run_cli({plan});
  CHECK(number.status == 2);
  CHECK_THAT(number.err, Catch::Contains(".planlint.toml:2:1: error: lint.options.assumption_max_age is a plain number, "
                                         "but rule assumption-stale expects a quantity of seconds, such as its default \"180 d\""));
  dir.write("p/.planlint.toml", "[lint.options]\nassumption_max_age = \"5 GB\"\n");
  CHECK_THAT(run_cli({plan}).err, Catch::Contains("lint.options.assumption_max_age is bytes, but rule assumption-stale"));
  dir.write("p/.planlint.toml", "[lint.options]\nassumption_max_age = \"90 d\"\n");
  CHECK(run_cli({plan}).status != 2);
  // NaN compares false with everything: a NaN tolerance turned estimate-mismatch off.
  for (const char* value : {"nan", "inf", "\"nan %\""}) {
    CAPTURE(value);
    dir.write("p/.planlint.toml", fmt::format("[tolerances]\ncapacity = {}\n", value));
    auto not_finite = run_cli({plan});
    CHECK(not_finite.status == 2);
    CHECK_THAT(not_finite.err, Catch::Contains(".planlint.toml:2:12: error: tolerances.capacity"));
  }
  dir.write("p/.planlint.toml", "[lint.options]\nassumption_max_age = nan\n");
  CHECK(run_cli({plan}).status == 2);
}

TEST_CASE("a fraction option given as a whole percent is an error, not a rule that never fires", "[config][cli]") {
  Scratch dir;
  const std::string plan = dir.write("p/plan.toml", plan_with_typo).string();
  // max_mfu's default is "60%": 30 would read as 3000%, and mfu-implausible could never fire.
  for (const char* value : {"30", "\"30\"", "1.5"}) {
    CAPTURE(value);
    dir.write("p/.planlint.toml", fmt::format("[lint.options]\nmax_mfu = {}\n", value));
    auto run = run_cli({plan});
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    CHECK_THAT(run.err, Catch::Contains(".planlint.toml:2:1: error: lint.options.max_mfu = "));
    CHECK_THAT(run.err, Catch::Contains("but rule mfu-implausible reads a fraction (its default is \"60%\"): write "));
  }
  dir.write("p/.planlint.toml", "[lint.options]\nmax_mfu = 30\n");
  CHECK_THAT(run_cli({plan}).err, Catch::Contains("lint.options.max_mfu = 30 is 3000%, but rule mfu-implausible "
                                                  "reads a fraction (its default is \"60%\"): write 30% or 0.3"));
  for (const char* value : {"0.3", "\"30%\"", "1", "\"150%\""}) {
    CAPTURE(value);
    dir.write("p/.planlint.toml", fmt::format("[lint.options]\nmax_mfu = {}\n", value));
    CHECK(run_cli({plan}).status != 2);
  }
  // An option whose default is a plain number takes any number.
  dir.write("p/.planlint.toml", "[lint.options]\nmin_tokens_per_param = 30\n");
  CHECK(run_cli({plan}).status != 2);
  // A negative number is no fraction.
  dir.write("p/.planlint.toml", "[lint.options]\nmax_mfu = -0.5\n");
  CHECK_THAT(run_cli({plan}).err, Catch::Contains("lint.options.max_mfu = -0.5 is negative, but rule mfu-implausible "
                                                  "reads a fraction (its default is \"60%\")"));
  // A default above 100% (a margin of "120%") takes 1.3 as a fraction; 130 is the slip.
  dir.write("p/pack/margin.toml", "id = \"org-margin\"\ngroup = \"org\"\nseverity = \"note\"\nsummary = \"s\"\n"
                                  "check = \"not exists(training.schedule_margin) or training.schedule_margin >= "
                                  "options.min_margin\"\nmessage = \"m\"\n" + std::string(planlint::test::rule_docs_stub) +
                                  "[options]\nmin_margin = \"120%\"\n");
  dir.write("p/.planlint.toml", "[lint]\nrules = [\"pack\"]\n[lint.options]\nmin_margin = 1.3\n");
  CHECK(run_cli({plan}).status != 2);
  dir.write("p/.planlint.toml", "[lint]\nrules = [\"pack\"]\n[lint.options]\nmin_margin = 130\n");
  CHECK_THAT(run_cli({plan}).err, Catch::Contains("lint.options.min_margin = 130 is 13000%, but rule org-margin reads "
                                                  "a fraction (its default is \"120%\"): write 130% or 1.3"));
}

TEST_CASE("severity 'all' applies to every rule a more specific entry does not name", "[config][cli]") {
  // `all` passed the name check but matched no rule, so `--severity all=off` changed nothing.
  Scratch dir;
  const std::string plan = dir.write("plan.toml", plan_with_typo).string();
  auto off = run_cli({"--no-color", "--config", "/dev/null", "--severity", "all=off", plan});
  CHECK(off.status == 0);
  CHECK(off.out == "no problems in 1 file\n");
  auto notes = run_cli({"--no-color", "--config", "/dev/null", "--severity", "all=note", plan});
  CHECK(notes.status == 0);
  CHECK_THAT(notes.out, Catch::Contains("note: unknown key"));
  auto specific = run_cli({"--no-color", "--config", "/dev/null", "--severity", "all=off", "--severity",
                           "unknown-key=warning", plan});
  CHECK_THAT(specific.out, Catch::Contains("warning: unknown key"));
}

TEST_CASE("[lint] catalog names one file or a list, loaded in order over the built-in catalog", "[config][catalog]") {
  Scratch dir;
  auto entry = [](const char* id, const char* hbm) {
    return fmt::format("[[gpu]]\nid = \"{}\"\nname = \"{}\"\nhbm = \"{}\"\nhbm_bandwidth = \"3 TB/s\"\n"
                       "sources = [\"our measurements\"]\n[gpu.dense]\nbf16 = \"900 TFLOPS\"\n",
                       id, id, hbm);
  };
  dir.write("hw/a.toml", entry("gpu-a", "40 GB") + entry("shared", "40 GB"));
  dir.write("hw/b.toml", entry("shared", "96 GB"));
  auto plan = [](const char* gpu, const char* hbm) {
    return fmt::format("[plan]\nname = \"x\"\nkind = \"inference\"\nowner = \"o\"\nupdated = 2026-11-01\n"
                       "[model]\nparams = \"7B\"\n[cluster]\ngpu = \"{}\"\ncount = 8\nhbm = \"{}\"\n", gpu, hbm);
  };
  dir.write("plans/only-in-a.toml", plan("gpu-a", "40 GB"));
  dir.write("plans/shared.toml", plan("shared", "96 GB"));  // b.toml's figure: the later file wins

  dir.write(".planlint.toml", "[lint]\ncatalog = [\"hw/a.toml\", \"hw/b.toml\"]\nselect = [\"unknown-gpu\", \"peak-mismatch\"]\n");
  auto both = run_cli({"--no-color", (dir.path / "plans").string()});
  INFO(both.out << both.err);
  CHECK(both.status == 0);
  CHECK_THAT(both.out, Catch::Contains("no problems in 2 files"));

  // One file as a string; the other GPU is then unknown.
  dir.write(".planlint.toml", "[lint]\ncatalog = \"hw/b.toml\"\nselect = [\"unknown-gpu\", \"peak-mismatch\"]\n");
  auto one = run_cli({"--no-color", (dir.path / "plans").string()});
  CHECK(one.status == 1);
  CHECK_THAT(one.out, Catch::Contains("[unknown-gpu]"));
  CHECK_THAT(one.out, !Catch::Contains("shared.toml"));

  // An unreadable file of the list is exit 2, named.
  dir.write(".planlint.toml", "[lint]\ncatalog = [\"hw/a.toml\", \"hw/nope.toml\"]\n");
  auto missing = run_cli({(dir.path / "plans").string()});
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Catch::Contains("nope.toml: cannot read the catalog: No such file"));
  dir.write(".planlint.toml", "[lint]\ncatalog = 3\n");
  CHECK_THAT(run_cli({(dir.path / "plans").string()}).err, Catch::Contains("lint.catalog must be a file name or an array of them"));
}

TEST_CASE("a plain number for a count option reads as that count, as a plan's count = 2048 does", "[config][cli]") {
  // `org_max_gpus = 2048` for a default of "1000 GPU" was an error ("a plain number,
  // but rule ... expects a quantity of GPUs"), where a plan takes `count = 2048`.
  Scratch dir;
  dir.write("p/pack/org-max-gpus.toml",
            "id = \"org-max-gpus\"\ngroup = \"org\"\nseverity = \"error\"\nsummary = \"s\"\n"
            "check = \"cluster.count <= options.org_max_gpus\"\nmessage = \"{cluster.count} over {options.org_max_gpus}\"\n" +
                std::string(planlint::test::rule_docs_stub) + "[options]\norg_max_gpus = \"1000 GPU\"\n");
  const std::string plan = planlint::test::inference_plan_with("");  // 8 GPUs
  const std::string small = dir.write("p/small.toml", plan).string();
  std::string big_text = plan;
  big_text.replace(big_text.find("count = 8"), 9, "count = 4096");
  const std::string big = dir.write("p/big.toml", big_text).string();
  dir.write("p/.planlint.toml", "[lint]\nrules = [\"pack\"]\n[lint.options]\norg_max_gpus = 2048\n");
  auto fires = run_cli({"--select", "org-max-gpus", big});
  CHECK(fires.status == 1);
  CHECK_THAT(fires.out, Catch::Contains("4096 GPUs over 2048 GPUs [org-max-gpus]"));
  CHECK(run_cli({"--select", "org-max-gpus", small}).status == 0);
  // A time written plain is still an error: its base unit, seconds, is not what 90 means.
  dir.write("p/.planlint.toml", "[lint]\nrules = [\"pack\"]\n[lint.options]\nassumption_max_age = 90\n");
  CHECK(run_cli({small}).status == 2);
}
