// libFuzzer target: a rule expression through the parser, the checker (with the names a rule
// file sees, for a plain rule and for each `each` collection) and, when it checks, the
// evaluator against two real plans (a training plan with every collection, an inference plan)
// and each element of the collection. The input is the expression text.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/estimate/estimates.hpp"
#include "planlint/expr/check.hpp"
#include "planlint/expr/eval.hpp"
#include "planlint/expr/syntax.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/rules/plan_environment.hpp"
#include "planlint/rules/rule_types.hpp"
#include "planlint/source/source_file.hpp"

using namespace planlint;

namespace {

struct LoadedPlan {
  Plan plan;
  Estimates estimates;
};

/// Options of the kinds rule files declare (a fraction, a count, a duration, a string).
const std::map<std::string, expr::Value>& rule_options() {
  static const std::map<std::string, expr::Value> options = {
      {"threshold", expr::Value{units::Quantity{0.3, units::dims::none}}},
      {"large_scale", expr::Value{units::Quantity{1000, units::dims::gpus}}},
      {"max_age", expr::Value{units::Quantity{180 * 86400.0, units::dims::seconds}}},
      {"name", expr::Value{std::string("h100-sxm")}},
      {"strict", expr::Value{true}},
  };
  return options;
}

const std::vector<LoadedPlan>& plans() {
  static const std::vector<LoadedPlan> loaded = [] {
    std::vector<LoadedPlan> out;
    for (const char* relative : {"examples/llama-70b-pretrain.toml", "examples/inference-serving.toml"}) {
      const std::string path = std::string(PLANLINT_SOURCE_DIR) + "/" + relative;
      auto text = read_file(path);
      if (!text) std::abort();
      auto source = std::make_shared<const SourceFile>(path, *std::move(text));
      DiagnosticSink findings;
      Result<Plan> plan = load_plan(source, Catalog::builtin(), findings);
      if (!plan) std::abort();
      Estimates estimates = estimate(*plan, Catalog::builtin());
      out.push_back(LoadedPlan{*std::move(plan), std::move(estimates)});
    }
    return out;
  }();
  return loaded;
}

/// The rule's shape: plain, or `each` over one collection.
constexpr std::string_view collections[] = {"", "targets", "assumptions", "benchmarks", "estimates"};

void evaluate_on(const expr::Node& node, std::string_view each, const LoadedPlan& loaded) {
  static const std::map<std::string, double> no_tolerances;
  const RuleInputs inputs{loaded.plan, loaded.estimates, Catalog::builtin(), Date{2026, 12, 1},
                          no_tolerances};
  PlanEnvironment environment(inputs, rule_options());
  if (each.empty()) {
    (void)expr::evaluate(node, environment);
  } else if (each == "estimates") {
    for (const Claim& claim : loaded.plan.estimates) {
      environment.set_element(nullptr, &claim);
      (void)expr::evaluate(node, environment);
    }
  } else {
    const std::vector<PlanTable>& elements = each == "targets"       ? loaded.plan.targets
                                             : each == "assumptions" ? loaded.plan.assumptions
                                                                     : loaded.plan.benchmarks;
    for (const PlanTable& element : elements) {
      environment.set_element(&element, nullptr);
      (void)expr::evaluate(node, environment);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)plans();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expr::ParseResult parsed = expr::parse_expression(text);
  if (const auto* error = std::get_if<expr::SyntaxError>(&parsed)) {
    if (error->offset > text.size()) std::abort();  // offsets point into the text
    return 0;
  }
  const expr::NodePtr& node = std::get<expr::NodePtr>(parsed);
  if (!node || node->end > text.size() || node->begin > node->end) std::abort();
  for (std::string_view each : collections) {
    RuleTypeEnvironment names(std::string(each), rule_options());
    auto checked = expr::check(*node, names);
    if (const auto* error = std::get_if<expr::CheckError>(&checked)) {
      if (error->offset > text.size()) std::abort();
      continue;
    }
    for (const LoadedPlan& loaded : plans()) evaluate_on(*node, each, loaded);
  }
  return 0;
}
