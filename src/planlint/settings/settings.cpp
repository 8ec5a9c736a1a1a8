#include "planlint/settings/settings.hpp"

#include <set>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/settings/rule_packs.hpp"

namespace planlint {

namespace {

/// The names a selection or an option may use: every rule id and group of the rule sets added
/// ("all" too), and every option of their rules.
struct KnownNames {
  std::set<std::string, std::less<>> rules, options;

  void add(const RuleSet& rule_set) {
    rules.insert("all");
    for (const auto& rule : rule_set.rules()) {
      rules.insert(rule->descriptor.id);
      rules.insert(rule->descriptor.group);
      for (const auto& [name, value] : rule->options) options.insert(name);
    }
  }

  /// Empty when `name` is known; else why not, with the closest known name.
  std::string problem(std::string_view name, bool option) const {
    const auto& known = option ? options : rules;
    if (known.count(name)) return {};
    std::vector<std::string_view> candidates(known.begin(), known.end());
    std::string text = option ? "no rule has an option of that name" : "no rule or group has that name";
    if (auto suggestion = closest_match(name, candidates)) text += fmt::format("; did you mean '{}'?", *suggestion);
    return text + (option ? " (`planlint explain RULE` lists a rule's options)" : " (`planlint rules` lists them)");
  }
};

/// A problem of the config at `entry`.
void config_problem(DiagnosticSink& problems, const Config& config, const ConfigName& entry, std::string message) {
  Diagnostic d;
  d.rule = problem_kinds::config;
  d.message = std::move(message);
  d.primary = Location{config.path, entry.span};
  problems.report(std::move(d));
}

/// A config option of another dimension than the rule's (`assumption_max_age = 90` for a
/// time) would be passed over and the rule keep its default in silence: an error naming what
/// the rule expects.
void check_option_dimension(Settings& settings, const ConfigName& entry, DiagnosticSink& problems) {
  const Config& config = *settings.config;
  const auto configured = config.options.find(entry.name);
  if (configured == config.options.end()) return;
  for (const auto& rule : settings.rules().rules()) {
    const auto option = rule->options.find(entry.name);
    if (option == rule->options.end()) continue;
    const units::Quantity* expected = option->second.quantity();
    if (!expected) continue;
    const units::Quantity& value = configured->second;
    // A fraction written as a whole percent (max_fill = 30 for "85%") reads as 3000%: the rule
    // would never fire. A plain number is taken for that slip when it is above 1 where the
    // default is a fraction of at most 100%, or ten times a default above 100% (a margin of
    // "120%" takes 1.3, not 130); a negative one is no fraction at all.
    const bool percent_default = expected->percent && value.dim.dimensionless() && !value.percent;
    const double slip_above = expected->value <= 1 ? 1 : 10 * expected->value;
    auto percent_text = [](double fraction) { return units::format_in(fraction, units::dims::none, "%"); };
    if (percent_default && value.value > slip_above) {
      config_problem(problems, config, entry,
                     fmt::format("lint.options.{} = {:g} is {}, but rule {} reads a fraction (its default is \"{}\"): "
                                 "write {:g}% or {:g}",
                                 entry.name, value.value, percent_text(value.value), rule->descriptor.id,
                                 percent_text(expected->value), value.value, value.value / 100));
      return;
    }
    if (percent_default && value.value < 0) {
      config_problem(problems, config, entry,
                     fmt::format("lint.options.{} = {:g} is negative, but rule {} reads a fraction (its default is "
                                 "\"{}\")",
                                 entry.name, value.value, rule->descriptor.id, percent_text(expected->value)));
      return;
    }
    if (expected->dim == value.dim) continue;
    // A count reads as itself, as `count = 2048` does in a plan: `max_gpus = 2048` for a
    // default of "1000 GPU". A time, a size or a price written plain is left an error, since
    // its base unit (seconds, bytes) is not what the plain number means.
    const bool count = expected->dim == units::dims::gpus || expected->dim == units::dims::tokens ||
                       expected->dim == units::dims::requests || expected->dim == units::dims::sequences;
    if (count && value.dim.dimensionless() && !value.percent) {
      settings.lint.rule_options[entry.name].dim = expected->dim;
      return;
    }
    config_problem(problems, config, entry,
                   fmt::format("lint.options.{} is {}, but rule {} expects a quantity of {}, such as its default \"{}\"",
                               entry.name, value.dim.dimensionless() ? "a plain number" : units::describe(value.dim),
                               rule->descriptor.id, units::describe(expected->dim),
                               units::format(expected->value, expected->dim)));
    return;
  }
}

/// A misspelt rule, group or option name in the config would turn a check off, or leave it at
/// its default, in silence: in CI, no check at all. (The command line's are checked against
/// the rules of every config: SettingsCache::check_command_line_names.)
void check_config_names(Settings& settings, DiagnosticSink& problems) {
  if (!settings.config || settings.config->names.empty()) return;
  KnownNames known;
  known.add(settings.rules());
  for (const ConfigName& entry : settings.config->names) {
    const std::string problem = known.problem(entry.name, entry.key == "lint.options");
    if (!problem.empty())
      config_problem(problems, *settings.config, entry, fmt::format("{} names '{}': {}", entry.key, entry.name, problem));
    else if (entry.key == "lint.options")
      check_option_dimension(settings, entry, problems);
  }
}

/// The group of each rule, and whether a rule or group runs: what the suppressions ask.
void set_suppression_rules(Settings& settings) {
  for (const auto& rule : settings.rules().rules()) {
    settings.all_rules.push_back(&rule->descriptor);
    settings.suppression_rules.group_of.emplace(rule->descriptor.id, rule->descriptor.group);
  }
  const Settings* self = &settings;
  settings.suppression_rules.enabled = [self](std::string_view name, std::string_view) {
    // A rule id: whether it runs; a group (or "all"): whether any of its rules runs.
    const bool is_rule = self->suppression_rules.group_of.count(name) > 0;
    for (const RuleDescriptor* rule : self->all_rules) {
      // A guardrail is `planlint diff`'s: a check runs none (diff applies their suppressions).
      if (native_rules::is_compared_only(rule->id)) continue;
      const bool named = is_rule ? rule->id == name : (rule->group == name || name == "all");
      if (named && self->lint.selection.level(rule->id, rule->group, rule->severity)) return true;
    }
    return false;
  };
}

}  // namespace

RuleSelection make_selection(const Config* config, const SettingsOverrides& overrides) {
  RuleSelection selection;
  if (overrides.select) selection.select = *overrides.select;
  else if (config && config->select) selection.select = *config->select;
  if (overrides.ignore) selection.ignore = *overrides.ignore;
  else if (config && config->ignore) selection.ignore = *config->ignore;
  if (config) selection.severity = config->severity;
  for (const auto& [rule, level] : overrides.severity) selection.severity[rule] = level;
  return selection;
}

std::unique_ptr<Settings> make_settings(std::optional<Config> config, const SettingsOverrides& overrides,
                                        DiagnosticSink& problems) {
  auto settings = std::make_unique<Settings>();
  settings->lint.selection = make_selection(config ? &*config : nullptr, overrides);

  auto packs = load_rule_packs(config ? &*config : nullptr, overrides.rules, problems);
  if (packs) settings->rule_set = *std::move(packs);
  else problems.report(packs.error(), problem_kinds::invalid_rule);
  if (config && !config->catalogs.empty()) {
    settings->catalog = std::make_unique<Catalog>(Catalog::builtin());
    if (auto loaded = settings->catalog->load_files(config->catalogs, problems); !loaded)
      problems.report(loaded.error(), problem_kinds::invalid_catalog);
    settings->lint.catalog = settings->catalog.get();
  }
  settings->lint.rules = settings->rule_set.get();
  if (config) {
    settings->lint.rule_options = config->options;
    settings->lint.tolerances = config->tolerances;
  }
  settings->lint.today = overrides.today;
  // A check shows no provenance and no ranges: the ranges are computed for rules that read them.
  settings->lint.full_estimates = false;
  settings->fail_on = overrides.fail_on.value_or(config && config->fail_on ? *config->fail_on : Severity::error);
  set_suppression_rules(*settings);
  settings->config = std::move(config);
  check_config_names(*settings, problems);
  return settings;
}

const Settings* SettingsCache::find(const std::optional<std::string>& config_path, DiagnosticSink& problems,
                                    ConfigOrigin origin) {
  const std::string key = config_path.value_or("");
  if (auto it = by_config_.find(key); it != by_config_.end()) return problems.empty() ? it->second.get() : nullptr;
  std::optional<Config> config;
  if (config_path) {
    Config partial;
    auto loaded = load_config(*config_path, problems, origin, &partial);
    if (!loaded) {
      // Its other mistakes too, in one run: names no rule has, packs and catalogs that do not load.
      if (!partial.path.empty()) make_settings(std::move(partial), overrides_, problems);
      problems.report(loaded.error(), problem_kinds::config);
      return nullptr;
    }
    config = *std::move(loaded);
  }
  const Settings* settings =
      by_config_.emplace(key, make_settings(std::move(config), overrides_, problems)).first->second.get();
  return problems.empty() ? settings : nullptr;
}

void SettingsCache::check_command_line_names(DiagnosticSink& problems) const {
  if (!overrides_.select && !overrides_.ignore && overrides_.severity.empty()) return;  // the usual run
  KnownNames known;
  for (const auto& [key, settings] : by_config_) known.add(settings->rules());
  if (by_config_.empty()) known.add(RuleSet::builtin());
  auto check = [&](std::string_view option, const std::string& name) {
    const std::string problem = known.problem(name, false);
    if (problem.empty()) return;
    Diagnostic d;
    d.rule = problem_kinds::config;
    d.message = fmt::format("{} {}: {}", option, name, problem);
    problems.report(std::move(d));
  };
  for (const std::string& name : overrides_.select.value_or(std::vector<std::string>{})) check("--select", name);
  for (const std::string& name : overrides_.ignore.value_or(std::vector<std::string>{})) check("--ignore", name);
  for (const auto& [name, level] : overrides_.severity) check("--severity", name);
}

std::vector<RuleDescriptor> SettingsCache::rules_that_run() const {
  std::vector<RuleDescriptor> rules;
  std::set<std::string_view> listed;
  for (const auto& [key, settings] : by_config_) {
    for (const RuleDescriptor* descriptor : settings->all_rules) {
      auto level = settings->lint.selection.level(descriptor->id, descriptor->group, descriptor->severity);
      if (!level || !listed.insert(descriptor->id).second) continue;
      RuleDescriptor rule = *descriptor;
      rule.severity = *level;
      rules.push_back(std::move(rule));
    }
  }
  return rules;
}

}  // namespace planlint
