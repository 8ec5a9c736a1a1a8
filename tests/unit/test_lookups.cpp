// Equivalence tests for the per-plan hot path's shortcuts: each fast path must give what the
// general code it stands in for gives (fmt's fixed-point formatting, linear scans of the
// schema and the metric names).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "planlint/catalog/catalog.hpp"
#include "planlint/emit/lint_report.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/expr/eval.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/plan_environment.hpp"
#include "planlint/rules/rule_set.hpp"
#include "planlint/emit/text.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/units/fixed.hpp"
#include "planlint/units/quantity.hpp"
#include "support.hpp"

using namespace planlint;

TEST_CASE("fixed() prints what fmt's {:.Nf} prints", "[lookup][quantity]") {
  auto same = [](double x, int decimals) {
    INFO(fmt::format("x = {:.17g}, decimals = {}", x, decimals));
    CHECK(units::detail::fixed(x, decimals) == fmt::format("{:.{}f}", x, decimals));
  };
  // Ties, near-ties, zeros, signs, carries and the fallbacks.
  for (double x : {0.0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 1.005, 2.675, 0.145, 9.995, 9.9951,
                   99.95, 999.5, 0.0001, -0.0001, 123456789.0, 1e9, 1e15, 1e300, -1e-300, 4.35,
                   0.045, 1234.5678, 1e-7, 3.0000000000000004, 0.30000000000000004})
    for (int decimals = 0; decimals <= 8; ++decimals) same(x, decimals);
  same(INFINITY, 2);
  same(-INFINITY, 0);
  same(NAN, 3);
  same(1.5, 30);

  std::mt19937_64 random(2026);
  std::uniform_real_distribution<double> mantissa(-10, 10);
  std::uniform_int_distribution<int> exponent(-8, 12), digits(0, 9);
  for (int i = 0; i < 100000; ++i) {
    const double x = mantissa(random) * std::pow(10.0, exponent(random));
    same(x, digits(random));
  }
  // Values with few decimal digits, where exact ties in decimal are common.
  std::uniform_int_distribution<std::int64_t> whole(-2000000, 2000000);
  for (int i = 0; i < 100000; ++i) {
    const int scale = digits(random) % 5;
    const double x = static_cast<double>(whole(random)) / std::pow(10.0, scale);
    same(x, scale > 0 ? scale - 1 : 0);
    same(x, scale);
  }
}

TEST_CASE("find_key and find_metric agree with a scan of the tables", "[lookup][schema]") {
  for (const KeySpec& spec : plan_keys()) {
    const KeySpec* first = nullptr;
    for (const KeySpec& other : plan_keys())
      if (!first && other.section == spec.section && other.key == spec.key) first = &other;
    CHECK(find_key(spec.section, spec.key) == first);
    CHECK(find_key(std::string(spec.section) + "." + std::string(spec.key)) == first);
  }
  CHECK(find_key("cluster", "hmb") == nullptr);
  CHECK(find_key("", "") == nullptr);
  CHECK(find_key("training.") == nullptr);
  // A dotted path names one key whole: no prefix, extension or bare key finds one.
  for (const char* path : {"tp", "training", ".tp", "training.tp.x", "training.t", "training.tpp", "cluster.gpus_per_nodes",
                           "cluster.inter_node_bandwidth_"})
    CHECK(find_key(path) == nullptr);
  CHECK(find_key("training.tp") == find_key("training", "tp"));
  for (const MetricSpec& metric : metric_table()) CHECK(find_metric(metric.name) == &metric);
  CHECK(find_metric("train.dayz") == nullptr);
  CHECK(find_metric("") == nullptr);
}

TEST_CASE("plan tables are found by string_view", "[lookup][plan]") {
  Plan plan;
  plan.sections["cluster"].values.emplace(*find_key("cluster.gpu"),
                                          PlanValue{std::string("h100-sxm"), {}, {}, Origin::plan});
  REQUIRE(plan.find("cluster.gpu") != nullptr);
  CHECK(*plan.text("cluster.gpu") == "h100-sxm");
  CHECK(plan.find("cluster.gp") == nullptr);
  CHECK(plan.find("model.params") == nullptr);
  CHECK(plan.find("nosection.gpu") == nullptr);
  CHECK(plan.find("cluster") == nullptr);
  CHECK_FALSE(plan.section("training").present);
}

TEST_CASE("every plan key has its own place: its section's and its own among that section's keys",
          "[lookup][schema]") {
  std::set<std::pair<int, int>> places;
  for (const KeySpec& spec : plan_keys()) {
    INFO(spec.section << "." << spec.key);
    const SectionSpec* section = find_section(spec.section);
    REQUIRE(section != nullptr);
    CHECK(spec.section_index == section - plan_sections().data());
    CHECK(spec.index_in_section < max_section_keys);
    CHECK(places.emplace(spec.section_index, spec.index_in_section).second);
  }
  CHECK(plan_sections().size() == plan_section_count);
}

TEST_CASE("a plan's values are found through their key's place as by name", "[lookup][plan]") {
  // Every TOML file of the project that loads as a plan: examples, fixtures, golden and rule
  // files, valid or with findings.
  std::size_t plans = 0;
  for (const std::string& file : test::project_toml_files()) {
    const auto text = read_file(file);
    if (!text || !looks_like_plan(*text)) continue;
    const test::LoadResult result = test::load_text(*text, file);
    if (!result.plan) continue;
    ++plans;
    INFO(file);
    const Plan& plan = *result.plan;
    for (const KeySpec& spec : plan_keys()) {
      INFO(spec.section << "." << spec.key);
      const PlanTable* section = plan.sections.find(spec.section);
      REQUIRE(section != nullptr);
      CHECK(plan.find(fmt::format("{}.{}", spec.section, spec.key)) == section->values.find(spec.key));
      CHECK(section->values.find(spec) == section->values.find(spec.key));
      const std::vector<PlanTable>* elements = spec.section == "targets"       ? &plan.targets
                                               : spec.section == "assumptions" ? &plan.assumptions
                                               : spec.section == "benchmarks"  ? &plan.benchmarks
                                                                               : nullptr;
      if (elements)
        for (const PlanTable& element : *elements)
          CHECK(element.values.find(spec) == element.values.find(spec.key));
    }
  }
  CHECK(plans > 100);
}

TEST_CASE("the text emitter escapes control characters wherever they fall in eight-byte chunks",
          "[lookup][emit]") {
  // The reference: byte by byte, as append_one_line did before it skipped clean chunks.
  auto escaped = [](std::string_view text) {
    std::string out;
    for (const char c : text) {
      if (c == '\n') out += "\\n";
      else if (c == '\r') out += "\\r";
      else if (c == '\t') out += "\\t";
      else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        out += fmt::format("\\x{:02x}", c);
      else if (static_cast<unsigned char>(c) >= 0x80)  // "\x80\xff": malformed UTF-8, escaped too
        out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
      else out += c;
    }
    return out;
  };
  for (const char control : {'\n', '\r', '\t', '\x01', '\x1f', '\x7f'}) {
    for (std::size_t at = 0; at < 26; ++at) {
      std::string message = "abcdefghijklmnopqrstuvwxyz0123456789 \x80\xff~ !";
      message[at] = control;
      Report report;
      Diagnostic d;
      d.rule = "test-rule";
      d.message = message;
      d.primary = Location{"plan.toml", Span{{1, 1}, {1, 2}}};
      report.diagnostics.push_back(d);
      std::ostringstream out;
      emit_text(out, report, TextStyle{});
      INFO("control " << int(control) << " at " << at);
      CHECK(out.str().find(escaped(message) + " [test-rule]") != std::string::npos);
    }
  }
}

namespace {

void collect_paths(const expr::Node* node, std::vector<const expr::Node*>& out) {
  if (!node) return;
  if (node->kind == expr::Node::Kind::path) out.push_back(node);
  for (const expr::Node* child : node->children) collect_paths(child, out);
}

void collect_paths(const MessageTemplate& message, std::vector<const expr::Node*>& out) {
  for (const MessageTemplate::Part& part : message.parts) collect_paths(part.expression, out);
}

bool same(const std::optional<expr::ValueRef>& ref, const std::optional<expr::Value>& value) {
  if (ref.has_value() != value.has_value()) return false;
  if (!value) return true;
  const expr::ValueRef owned = expr::view_of(*value);
  if (ref->kind != owned.kind) return false;
  switch (owned.kind) {
    case expr::ValueRef::Kind::quantity:
      return ref->quantity.value == owned.quantity.value && ref->quantity.dim == owned.quantity.dim &&
             ref->quantity.percent == owned.quantity.percent;
    case expr::ValueRef::Kind::string: return ref->text == owned.text;
    case expr::ValueRef::Kind::boolean: return ref->boolean == owned.boolean;
    case expr::ValueRef::Kind::date: return ref->date == owned.date;
    case expr::ValueRef::Kind::list:  // an option's list, and lookup()'s copy of it
      return ref->list && ref->list->size() == owned.list->size() &&
             (*ref->list)[0].text() && *(*ref->list)[0].text() == *(*owned.list)[0].text();
  }
  return false;
}

}  // namespace

TEST_CASE("a rule's path read through its PathRef gives what its text gives", "[lookup][rules]") {
  // Every path of every built-in rule (resolved at build time), and the same texts parsed
  // without a resolver, read from every plan of the project, for the plan and for each
  // element of its [[targets]], [[assumptions]], [[benchmarks]] and [estimates].
  std::vector<const expr::Node*> paths;
  for (const auto& rule : RuleSet::builtin().rules()) {
    collect_paths(rule->applies.get(), paths);
    collect_paths(rule->check.get(), paths);
    collect_paths(rule->message, paths);
    collect_paths(rule->help, paths);
  }
  std::set<std::string_view> texts;
  std::size_t resolved = 0;
  for (const expr::Node* path : paths) {
    texts.insert(path->text);
    if (path->ref.space != expr::PathRef::Space::unresolved) ++resolved;
  }
  REQUIRE(texts.size() > 100);
  CHECK(resolved > paths.size() * 9 / 10);
  for (std::string_view text : {"est.train.days.low", "est.train.cost.high", "est.nope", "est.nope.low",
                                "it.metric", "it.is_range", "it.low", "it.key", "it.max", "it.id", "it.nope", "options.max_days", "options.kinds",
                                "tolerances.cost", "model.params", "cluster.nope", "nope"})
    texts.insert(text);
  std::vector<std::pair<std::string_view, expr::NodePtr>> nodes;
  for (std::string_view text : texts) {
    auto parsed = expr::parse_expression(text, resolve_path);
    REQUIRE(std::holds_alternative<expr::NodePtr>(parsed));
    nodes.emplace_back(text, std::get<expr::NodePtr>(parsed));
  }

  const std::map<std::string, expr::Value> options = {
      {"max_days", expr::Value{units::Quantity{7 * 86400.0, units::dims::seconds}}},
      {"kinds", expr::Value{expr::List{expr::Value{std::string("training")}}}}};
  const std::map<std::string, double> tolerances = {{"capacity", 0.07}};
  std::size_t plans = 0, reads = 0, element_fields = 0;
  for (const std::string& file : test::project_toml_files()) {
    const auto source = read_file(file);
    if (!source || !looks_like_plan(*source)) continue;
    const test::LoadResult result = test::load_text(*source, file);
    if (!result.plan) continue;
    ++plans;
    INFO(file);
    const Plan& plan = *result.plan;
    const Estimates estimates = estimate(plan, Catalog::builtin());
    const RuleInputs inputs{plan, estimates, Catalog::builtin(), Date{2026, 12, 1}, tolerances};
    PlanEnvironment environment(inputs, options);
    auto check_all = [&] {
      for (const auto& [text, node] : nodes) {
        INFO(text);
        expr::ValueStore keep;
        CHECK(same(environment.lookup_path(*node, keep), environment.lookup(text)));
        CHECK(environment.stated_path(*node) == environment.stated(text));
        ++reads;
      }
    };
    check_all();
    // An element's field is read through its section's KeySpec (with the section), or by its
    // name (without): both give what the element table holds under that name.
    for (const auto& [section, elements] : {std::pair{"targets", &plan.targets}, std::pair{"assumptions", &plan.assumptions},
                                            std::pair{"benchmarks", &plan.benchmarks}})
      for (const PlanTable& element : *elements) {
        for (const SectionSpec* spec : {find_section(section), static_cast<const SectionSpec*>(nullptr)}) {
          environment.set_element(&element, nullptr, spec);
          check_all();
          for (const auto& [text, node] : nodes) {
            if (!text.starts_with("it.")) continue;
            INFO(text << " in [[" << section << "]]");
            const PlanValue* held = element.find(text.substr(3));
            expr::ValueStore keep;
            CHECK(same(environment.lookup_path(*node, keep),
                       held ? std::optional<expr::Value>(to_value(held->value)) : std::nullopt));
            element_fields += held != nullptr;
          }
        }
      }
    for (const Claim& claim : plan.estimates) {
      environment.set_element(nullptr, &claim);
      check_all();
    }
    environment.set_element(nullptr, nullptr);
  }
  CHECK(plans > 100);
  CHECK(reads > 10000);
  CHECK(element_fields > 100);
}
