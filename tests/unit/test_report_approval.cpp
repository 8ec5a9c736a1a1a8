// The HTML report as an approver reads it (docs/report.md): the grand total of training and
// serving cost, each plan's owner, status, last review and main cost driver, its assumptions
// with their sources, hard targets on the tornado, one money format, days in days and long
// names shortened — each figure checked against the JSON report of the same plan.
#include <regex>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "integration_support.hpp"
#include "xpath.hpp"

using namespace planlint::test;
using nlohmann::json;

namespace {

const std::string examples = std::string(PLANLINT_SOURCE_DIR) + "/examples";

double xpath_number(const fs::path& file, const std::string& expression) { return std::stod(xpath(file, expression)); }

std::string el(std::string_view name) { return fmt::format("*[local-name()='{}']", name); }

/// The JSON report of one plan file.
json json_report(const std::string& plan) {
  const CliRun report = run_cli({"report", "--format", "json", plan});
  return json::parse(report.out);
}

/// A training plan of `gpus` H100s for `tokens`, with an MFU range, a price without one, and
/// `extra` at its end.
std::string training_plan(std::string_view name, std::string_view tokens, std::string_view extra = "") {
  return fmt::format(R"([plan]
name = "{}"
kind = "training"
owner = "research-infra"
status = "approved"
updated = 2026-10-15

[cluster]
gpu = "h100-sxm"
count = 256
price = "$2.50/GPU·h"

[model]
params = "7B"

[training]
tokens = "{}"
precision = "bf16"
mfu = "40%"
goodput = "90%"

[[assumptions]]
id = "mfu"
key = "training.mfu"
value = "40%"
low = "30%"
high = "50%"
source = "our 7B runs on 256 H100s, 2026-09"
updated = 2026-09-30
{})",
                     name, tokens, extra);
}

}  // namespace

TEST_CASE("report --format html: the grand total adds up the plans' training cost and serving cost a month and a year",
          "[report][html]") {
  Scratch dir;
  const fs::path page = dir.path / "report.html";
  const CliRun run = run_cli({"report", "--format", "html", examples, "-o", page.string()});
  INFO(run.err);
  REQUIRE(run.status != 2);
  double training = 0, training_low = 0, training_high = 0, serving = 0;
  std::size_t serving_plans = 0;
  for (const auto& entry : fs::directory_iterator(examples)) {
    if (entry.path().extension() != ".toml") continue;
    const json report = json_report(entry.path().string());
    const json& metrics = report["metrics"];
    INFO(report["plan"]);
    if (metrics.contains("cost.total")) {
      const json& cost = metrics["cost.total"];
      training += cost["value"].get<double>();
      training_low += cost["low"].is_null() ? cost["value"].get<double>() : cost["low"].get<double>();
      training_high += cost["high"].is_null() ? cost["value"].get<double>() : cost["high"].get<double>();
    }
    if (metrics.contains("infer.cost_per_month")) {
      const double month = metrics["infer.cost_per_month"]["value"];
      serving += month;
      ++serving_plans;
      // The serving plan's row shows its month's cost where a training plan shows its cost.
      const std::string row = "//" + el("tbody") + "/" + el("tr") + "[@data-plan='" + report["plan"].get<std::string>() + "']";
      CHECK(xpath_number(page, "string(" + row + "/" + el("td") + "[@data-col='serving_month']/@data-value)") ==
            Approx(month).epsilon(1e-6));
      CHECK_THAT(xpath(page, "string(" + row + "/" + el("td") + "[@data-col='serving_month'])"),
                 Catch::Contains("a month"));
    }
  }
  REQUIRE(serving_plans >= 1);
  const std::string total = "//" + el("table") + "[@class='grand-total']//" + el("td");
  CHECK(xpath_number(page, "string(" + total + "[@data-col='training_cost']/@data-value)") == Approx(training).epsilon(1e-9));
  CHECK(xpath_number(page, "string(" + total + "[@data-col='training_cost']/@data-low)") == Approx(training_low).epsilon(1e-9));
  CHECK(xpath_number(page, "string(" + total + "[@data-col='training_cost']/@data-high)") == Approx(training_high).epsilon(1e-9));
  CHECK(xpath_number(page, "string(" + total + "[@data-col='serving_month']/@data-value)") == Approx(serving).epsilon(1e-9));
  CHECK(xpath_number(page, "string(" + total + "[@data-col='serving_year']/@data-value)") == Approx(12 * serving).epsilon(1e-9));
  // A total's GPUs are a sum, said to be one.
  CHECK(xpath(page, "string(//" + el("section") + "[@id='portfolio']/" + el("p") + "[@class='note'])").find("at the same time") !=
        std::string::npos);
}

TEST_CASE("report --format html: owner, status, last review, the main cost driver and the assumptions with their sources",
          "[report][html]") {
  Scratch dir;
  const fs::path a = dir.write("a.toml", training_plan("pretrain-a", "1T"));
  std::string unowned = training_plan("pretrain-b", "2T");
  unowned.replace(unowned.find("owner = \"research-infra\"\nstatus = \"approved\"\n"), 46, "");
  unowned.replace(unowned.find("source = \"our 7B runs on 256 H100s, 2026-09\"\n"), 45, "");
  dir.write("b.toml", unowned);
  const fs::path page = dir.path / "report.html";
  const CliRun run = run_cli({"report", "--format", "html", dir.path.string(), "-o", page.string()});
  INFO(run.err);
  REQUIRE(run.status != 2);

  const std::string row_a = "//" + el("tbody") + "/" + el("tr") + "[@data-plan='pretrain-a']";
  const std::string row_b = "//" + el("tbody") + "/" + el("tr") + "[@data-plan='pretrain-b']";
  CHECK_THAT(xpath(page, "string(" + row_a + "/" + el("td") + "[2])"), Catch::Contains("research-infra") && Catch::Contains("approved"));
  CHECK_THAT(xpath(page, "string(" + row_b + "/" + el("td") + "[2])"), Catch::Contains("no status"));
  CHECK_THAT(xpath(page, "string(" + row_a + "/" + el("td") + "[last()])"), Catch::Equals("2026-10-15"));
  // The main cost driver is the widest bar of cost.total's sensitivity in the JSON report.
  const json report = json_report(a.string());
  const json& bars = report["metrics"]["cost.total"]["sensitivity"]["bars"];
  REQUIRE(!bars.empty());
  CHECK(xpath(page, "string(" + row_a + "/" + el("td") + "[@class='driver']/@data-key)") == bars[0]["key"].get<std::string>());

  // The plan's section: its owner and status under its name, its assumptions with their sources.
  const std::string section_a = "//" + el("section") + "[" + el("h2") + "='pretrain-a']";
  CHECK_THAT(xpath(page, "string(" + section_a + "/" + el("p") + "[@class='meta'])"),
             Catch::Contains("owner research-infra") && Catch::Contains("approved") && Catch::Contains("last review 2026-10-15"));
  const std::string assumption = section_a + "//" + el("table") + "[@class='assumptions']//" + el("tr") + "[" + el("td") + "[1]='mfu']";
  CHECK(xpath(page, "string(" + assumption + "/" + el("td") + "[@class='source'])") == "our 7B runs on 256 H100s, 2026-09");
  CHECK(xpath(page, "string(" + assumption + "/" + el("td") + "[4])") == "30% – 50%");
  const std::string section_b = "//" + el("section") + "[" + el("h2") + "='pretrain-b']";
  CHECK(xpath(page, "string(" + section_b + "//" + el("table") + "[@class='assumptions']//" + el("td") + "[@class='source'])") ==
        "no source");
}

TEST_CASE("report --format html: a hard target is a line on its metric's tornado, a soft one is not", "[report][html]") {
  Scratch dir;
  const std::string targets = R"(
[[targets]]
name = "budget"
metric = "cost.total"
max = "$400K"
hard = true

[[targets]]
name = "nice to have"
metric = "cost.total"
max = "$300K"
hard = false
)";
  dir.write("a.toml", training_plan("pretrain-a", "1T", targets));
  const fs::path page = dir.path / "report.html";
  const CliRun run = run_cli({"report", "--format", "html", (dir.path / "a.toml").string(), "-o", page.string()});
  INFO(run.err);
  REQUIRE(run.status != 2);
  const std::string tornado = "//" + el("figure") + "[@data-metric='cost.total']//" + el("svg");
  CHECK(xpath_number(page, "count(" + tornado + "//" + el("line") + "[@class='target'])") == 1);
  CHECK(xpath(page, "string(" + tornado + "//" + el("text") + "[@class='target-label'])") == "budget: at most $400K");
  CHECK(xpath_number(page, "count(//" + el("figure") + "[@data-metric='train.days']//" + el("line") + "[@class='target'])") == 0);
  // One plan: its section starts on the first page, under the title.
  CHECK(xpath(page, "string((//" + el("section") + ")[1]/@class)") == "plan first");
}

TEST_CASE("report --format html: money reads one way, a days column holds days, long names are shortened", "[report][html]") {
  Scratch dir;
  const std::string long_name(80, 'x');
  // 3e9 tokens on 256 GPUs: about a day, which other reports show in hours.
  dir.write("short.toml", training_plan(long_name, "30B"));
  dir.write("long.toml", training_plan("pretrain-long", "2T"));
  const fs::path page = dir.path / "report.html";
  const CliRun run = run_cli({"report", "--format", "html", dir.path.string(), "-o", page.string()});
  INFO(run.err);
  REQUIRE(run.status != 2);

  const std::string row = "//" + el("tbody") + "/" + el("tr") + "[@data-plan='" + long_name + "']";
  const std::string link = row + "//" + el("a");
  CHECK(xpath(page, "string(" + link + "/@title)") == long_name);
  CHECK(xpath(page, "string(" + link + ")") == std::string(29, 'x') + "…");
  const std::string days = xpath(page, "string(" + row + "/" + el("td") + "[@data-col='days'])");
  CHECK_THAT(days, Catch::Matches(R"([0-9.]+ d)"));

  // Every amount of money in the portfolio and the totals: three significant figures.
  const std::string tables = xpath(page, "string(//" + el("section") + "[@id='portfolio'])");
  const std::regex amount(R"(\$[0-9][0-9.]*[KMBT]?)");
  const std::regex three_figures(R"(\$([0-9]{3}|[0-9]{2}\.[0-9]|[0-9]\.[0-9]{2})[KMBT]?)");
  std::size_t amounts = 0;
  for (auto it = std::sregex_iterator(tables.begin(), tables.end(), amount); it != std::sregex_iterator(); ++it, ++amounts) {
    INFO(it->str());
    CHECK(std::regex_match(it->str(), three_figures));
  }
  CHECK(amounts >= 6);
}

TEST_CASE("report --format html: a GPU type's total is the most its plans hold at once, by their start dates",
          "[report][html]") {
  Scratch dir;
  const auto starting = [](std::string plan, std::string_view start, std::string_view count) {
    plan.replace(plan.find("updated = 2026-10-15\n"), 21, fmt::format("updated = 2026-10-15\nstart = {}\n", start));
    plan.replace(plan.find("count = 256\n"), 12, fmt::format("count = {}\n", count));
    return plan;
  };
  // a: 256 GPUs from 2027-01-01 for about 5.3 days; c: 128 from 2027-01-03, while a runs;
  // b: 256 from 2027-01-20, after both.
  const fs::path a = dir.write("a.toml", starting(training_plan("a", "1T"), "2027-01-01", "256"));
  dir.write("b.toml", starting(training_plan("b", "1T"), "2027-01-20", "256"));
  dir.write("c.toml", starting(training_plan("c", "1T"), "2027-01-03", "128"));
  const json report = json_report(a.string());
  REQUIRE(report["metrics"]["train.wall_days"]["value"].get<double>() > 2);
  REQUIRE(report["metrics"]["train.wall_days"]["value"].get<double>() < 19);

  const fs::path page = dir.path / "report.html";
  CliRun run = run_cli({"report", "--format", "html", dir.path.string(), "-o", page.string()});
  INFO(run.err);
  REQUIRE(run.status != 2);
  const std::string total = "//" + el("tfoot") + "/" + el("tr") + "[@data-gpu='h100-sxm']/" + el("td") + "[@data-col='gpus']";
  CHECK(xpath_number(page, "string(" + total + "/@data-value)") == 384);
  CHECK_THAT(xpath(page, "string(" + total + ")"), Catch::Contains("at once from 2027-01-03"));

  // Without b's start, the total is the sum of the three, marked as one.
  dir.write("b.toml", training_plan("b", "1T"));
  run = run_cli({"report", "--format", "html", dir.path.string(), "-o", page.string()});
  REQUIRE(run.status != 2);
  CHECK(xpath_number(page, "string(" + total + "/@data-value)") == 256 + 256 + 128);
  CHECK_THAT(xpath(page, "string(" + total + ")"), Catch::Contains("*"));
}
