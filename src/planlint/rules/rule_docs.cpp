#include "planlint/rules/rule_docs.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace planlint {

std::string rule_markdown(const RuleDescriptor& rule) {
  std::string docs(rule.docs.view());
  while (!docs.empty() && (docs.back() == '\n' || docs.back() == ' ')) docs.pop_back();
  while (!docs.empty() && docs.front() == '\n') docs.erase(docs.begin());
  std::string_view fix;
  if (rule.fix == FixSafety::safe)
    fix = "**Fix:** safe: `planlint check --fix` applies it (`--diff` shows it first).\n\n";
  else if (rule.fix == FixSafety::unsafe)
    fix = "**Fix:** unsafe: `planlint check --fix --unsafe-fixes` applies it; the edit may change what the plan "
          "means, so review it first with `--diff --unsafe-fixes`.\n\n";
  return fmt::format(
      "# {}\n\n{}\n\n| group | default severity | implemented as |\n|---|---|---|\n| {} | {} | {} |\n\n"
      "{}{}\n",
      rule.id, rule.summary.view(), rule.group, to_string(rule.severity),
      rule.native ? "native check (C++)" : fmt::format("rule file `{}`", rule.origin.view()), fix, docs);
}

std::string rule_markdown(const CompiledRule& rule) {
  std::string out = rule_markdown(rule.descriptor);
  if (!rule.supersedes.empty()) {
    out += "\n## Supersedes\n\n";
    for (std::size_t i = 0; i < rule.supersedes.size(); ++i)
      out += fmt::format("{}`{}`", i == 0 ? "" : ", ", rule.supersedes[i]);
    out += ": a finding of this rule leaves out theirs at the same place, since it names the cause of what they "
           "report.\n";
  }
  if (rule.options.empty()) return out;
  out += "\n## Options\n\n| option | default |\n|---|---|\n";
  for (const auto& [name, value] : rule.options) {
    const units::Quantity* q = value.quantity();
    // A default written as a percentage reads as one, as it is written in the rule file.
    const std::string shown = q && q->percent && q->dim.dimensionless() ? units::format_in(q->value, q->dim, "%")
                                                                       : expr::format_value(value);
    out += fmt::format("| `{}` | {} |\n", name, shown);
  }
  out += "\nSet one in `.planlint.toml` under `[lint.options]` (`NAME = \"VALUE\"`, in the default's "
         "unit or dimension). Options are global by name: every rule that declares one reads the same value.\n";
  return out;
}

std::string rule_table_text(const std::vector<RuleDescriptor>& rules) {
  std::size_t id_width = 2, group_width = 5;
  for (const RuleDescriptor& rule : rules) {
    id_width = std::max(id_width, rule.id.size());
    group_width = std::max(group_width, rule.group.size());
  }
  std::string out = fmt::format("{:<{}}  {:<{}}  {:<8}  {}\n", "id", id_width, "group", group_width,
                                "severity", "summary");
  for (const RuleDescriptor& rule : rules)
    out += fmt::format("{:<{}}  {:<{}}  {:<8}  {}\n", rule.id, id_width, rule.group, group_width,
                       to_string(rule.severity), rule.summary.view());
  return out;
}

namespace {

/// `text` as one cell of a Markdown table: a `|` would end the cell (inside backticks too, on
/// GitHub), a line break the row.
std::string table_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

constexpr std::string_view index_header = "| rule | group | severity | summary |\n|---|---|---|---|\n";

}  // namespace

std::string rule_index_markdown(const std::vector<RuleDescriptor>& rules) {
  std::string out =
      "# Rules\n\nGenerated from the rule files in `rules/` (`planlint rules --format markdown`); "
      "do not edit.\n\n";
  out += index_header;
  for (const RuleDescriptor& rule : rules)
    out += fmt::format("| [{}]({}.md) | {} | {} | {} |\n", rule.id, rule.id, table_cell(rule.group),
                       to_string(rule.severity), table_cell(rule.summary.view()));
  return out;
}

std::string rule_index_markdown(const RuleSet& rules) {
  std::vector<RuleDescriptor> builtin;
  std::vector<const CompiledRule*> packs;
  for (const auto& rule : rules.rules()) {
    // A built-in rule is compiled into planlint (no file of its own); a pack's has its file.
    if (rule->file) packs.push_back(rule.get());
    else builtin.push_back(rule->descriptor);
  }
  if (packs.empty()) return rule_index_markdown(builtin);
  // A pack's rules have no page in docs/rules/: each names its file, and `planlint explain`
  // prints its docs as it does a built-in rule's.
  std::string out = fmt::format(
      "# Rules\n\nThe {} rules of this run (`planlint rules --format markdown`): {} built in, each linked to its "
      "page in planlint's docs/rules/, and {} from rule packs, with their files. `planlint explain ID` prints any "
      "rule's docs.\n\n",
      builtin.size() + packs.size(), builtin.size(), packs.size());
  out += index_header;
  for (const auto& rule : rules.rules()) {
    const RuleDescriptor& d = rule->descriptor;
    const std::string name = rule->file ? fmt::format("`{}` ({})", d.id, table_cell(d.origin.view()))
                                        : fmt::format("[{}]({}.md)", d.id, d.id);
    out += fmt::format("| {} | {} | {} | {} |\n", name, table_cell(d.group), to_string(d.severity),
                       table_cell(d.summary.view()));
  }
  return out;
}

}  // namespace planlint
