#include "planlint/rules/rule_set.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>

#include <sys/stat.h>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "planlint/source/regular_file.hpp"
#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/embed/builtin.hpp"
#include "planlint/embed/embedded_files.hpp"
#include "planlint/plan/loader.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/rules/rule_cost.hpp"
#include "planlint/rules/rule_file.hpp"
#include "planlint/source/toml_limits.hpp"
#include "planlint/source/toml_span.hpp"

namespace planlint {

namespace {

/// Where a rule file sets its `id`: the key's place, as toml++ reads it (1:1 when the file has
/// none or does not parse).
Span id_span(const SourceFile* file) {
  if (file) {
    const TomlResult parsed = parse_toml(file->text(), file->path());
    if (parsed)
      for (auto&& [key, node] : *parsed)
        if (key.str() == "id") return detail::to_span(key.source(), *file);
  }
  return Span{{1, 1}, {1, 2}};
}

}  // namespace

RuleSet::RuleSet() = default;
RuleSet::~RuleSet() = default;
RuleSet::RuleSet(RuleSet&&) noexcept = default;
RuleSet& RuleSet::operator=(RuleSet&&) noexcept = default;

const RuleSet& RuleSet::builtin() {
  // The rules were loaded and checked when planlint was built (planlint::builtin, generated):
  // start-up only allocates their data. Never destroyed: freeing it all at exit cost as much
  // as a tenth of a one-plan run.
  static const RuleSet& rules = *[] {
    auto* set = new RuleSet;
    set->rules_ = builtin::rules();
    set->note_rules();
    return set;
  }();
  return rules;
}

RuleSet RuleSet::from_embedded_text() {
  RuleSet set;
  std::vector<Diagnostic> errors;
  for (const embed::EmbeddedFile& file : embed::files()) {
    if (!file.path.starts_with("rules/") || file.path.starts_with("rules/catalog/")) continue;
    set.load(std::make_shared<const SourceFile>(std::string(file.path), std::string(file.contents)),
             errors, RuleOrigin::builtin);
  }
  if (errors.empty()) set.check_supersedes(errors);
  if (!errors.empty()) {
    const Diagnostic& first = errors.front();
    throw std::logic_error(fmt::format("built-in rule {}:{}:{}: {}", first.primary.file,
                                       first.primary.span.begin.line,
                                       first.primary.span.begin.column, first.message));
  }
  return set;
}

std::shared_ptr<const SourceFile> rule_source(const CompiledRule& rule) {
  if (rule.file) return rule.file;
  // A built-in rule compiled at build time: its file is made from the embedded text on first
  // request, once per rule file.
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const SourceFile>, std::less<>> files;
  const std::string path = rule.descriptor.origin.str();
  std::lock_guard lock(mutex);
  auto& file = files[path];
  if (!file) file = std::make_shared<const SourceFile>(path, std::string(embed::find(path)));
  return file;
}

RuleSet RuleSet::with_builtin() {
  RuleSet copy;
  copy.rules_ = builtin().rules_;
  copy.note_rules();
  return copy;
}

namespace {

/// Where a rule file sets the key at `path` ("id", "options.max_mfu"); 1:1 when it cannot tell.
Span span_at(const SourceFile& file, std::string_view path) {
  const TomlResult parsed = parse_toml(file.text(), file.path());
  if (parsed)
    if (const toml::node* node = parsed->at_path(path).node()) return detail::to_span(node->source(), file);
  return Span{{1, 1}, {1, 2}};
}

/// What an option's default holds, for a message: "bytes", "a plain number", "a string".
std::string option_kind(const expr::Value& value) {
  if (const units::Quantity* q = value.quantity())
    return q->dim.dimensionless() ? "a plain number" : units::describe(q->dim);
  if (value.text()) return "a string";
  return "a boolean";
}

bool same_kind(const expr::Value& a, const expr::Value& b) {
  if (a.data.index() != b.data.index()) return false;
  return !a.quantity() || a.quantity()->dim == b.quantity()->dim;
}

}  // namespace

bool RuleSet::load(std::shared_ptr<const SourceFile> file, std::vector<Diagnostic>& errors, RuleOrigin origin) {
  const std::size_t first_error = errors.size();
  std::optional<CompiledRule> rule = load_rule_file(file, errors, &let_nodes_left_, origin);
  if (!rule) {
    // The packs' node limit, once crossed, fails every let of every rule after it: one error
    // says so, not one per let (40 rules past it would print 236).
    const auto past_limit = [](const Diagnostic& d) { return d.message.ends_with(pack_node_limit_note); };
    for (auto it = errors.begin() + static_cast<std::ptrdiff_t>(first_error); it != errors.end();) {
      if (!past_limit(*it)) {
        ++it;
      } else if (pack_node_limit_reported_) {
        it = errors.erase(it);
      } else {
        pack_node_limit_reported_ = true;
        ++it;
      }
    }
    return false;
  }
  // --select, --ignore, --severity and suppressions take ids and groups alike (and `all`): a
  // name that is both would select, ignore or allow both.
  const auto name_clash = [&](std::string_view key, std::string message, std::string help) {
    Diagnostic& d = errors.emplace_back();
    d.rule = problem_kinds::invalid_rule;
    d.severity = Severity::error;
    d.message = std::move(message);
    d.primary = Location{file->path(), span_at(*file, key)};
    d.help = std::move(help);
    return false;
  };
  const RuleDescriptor& added = rule->descriptor;
  if (added.id == "all" || added.group == "all")
    return name_clash(added.id == "all" ? "id" : "group",
                      fmt::format("'all' cannot be a rule's {}: --select all, --ignore all and `allow all` mean "
                                  "every rule",
                                  added.id == "all" ? "id" : "group"),
                      "give it a name of its own");
  for (const auto& existing : rules_) {
    if (existing->descriptor.group == added.id)
      return name_clash("id",
                        fmt::format("rule id '{}' is the name of a group (rule {} is in it): --select {} would "
                                    "select the group's rules with it",
                                    added.id, existing->descriptor.id, added.id),
                        fmt::format("give the rule another id, such as '{}-check'", added.id));
    if (existing->descriptor.id == added.group)
      return name_clash("group",
                        fmt::format("group '{}' is the id of a rule: --select {} would select that rule with "
                                    "the group",
                                    added.group, added.group),
                        "name the group for what its rules check (memory, org, ...)");
  }
  for (const auto& existing : rules_) {
    if (existing->descriptor.id != rule->descriptor.id) continue;
    Diagnostic& d = errors.emplace_back();
    d.rule = problem_kinds::invalid_rule;
    d.severity = Severity::error;
    // A built-in rule's file is not on the user's disk: it is named as the built-in it is.
    d.message = existing->file ? fmt::format("rule id '{}' is defined twice: in {} and in {}", rule->descriptor.id,
                                             file->path(), existing->descriptor.origin.view())
                               : fmt::format("rule id '{}' is defined twice: in {} and by the built-in rule "
                                             "(`planlint explain {}`)",
                                             rule->descriptor.id, file->path(), rule->descriptor.id);
    d.primary = Location{file->path(), id_span(file.get())};
    const std::shared_ptr<const SourceFile> first = rule_source(*existing);
    d.related.push_back({Location{existing->descriptor.origin.str(), id_span(first.get())}, "first defined here"});
    d.help = "give the rule its own id; a pack cannot redefine a rule";
    return false;
  }
  // One [lint.options] entry sets every rule's option of its name: two rules that read one
  // name as different things could not both be configured.
  for (const auto& [name, value] : rule->options) {
    for (const auto& existing : rules_) {
      const auto other = existing->options.find(name);
      if (other == existing->options.end() || same_kind(value, other->second)) continue;
      const std::shared_ptr<const SourceFile> other_file = rule_source(*existing);
      const Span here = span_at(*file, "options." + name), there = span_at(*other_file, "options." + name);
      Diagnostic& d = errors.emplace_back();
      d.rule = problem_kinds::invalid_rule;
      d.severity = Severity::error;
      const std::string where = existing->file ? fmt::format("at {}:{}:{}", other_file->path(), there.begin.line,
                                                              there.begin.column)
                                               : fmt::format("(a built-in rule: `planlint explain {}`)",
                                                             existing->descriptor.id);
      d.message = fmt::format(
          "option '{}' of rule {} is {}, but rule {} declares '{}' as {} {}: options are global by "
          "name ([lint.options] {} sets both)",
          name, rule->descriptor.id, option_kind(value), existing->descriptor.id, name, option_kind(other->second),
          where, name);
      d.primary = Location{file->path(), here};
      d.related.push_back({Location{other_file->path(), there}, "declared here"});
      d.help = fmt::format("rename the option in one of the two rule files, options.{} in its expressions too", name);
      return false;
    }
  }
  // The time budget, before the rule can run: its expressions' nodes times the elements it
  // walks, against what the rules loaded before it leave.
  if (!cost_counted_) {
    evaluation_cost_left_ = max_rules_evaluation_cost;
    for (const auto& existing : rules_) evaluation_cost_left_ -= std::min(evaluation_cost_left_, evaluation_cost(*existing));
    cost_counted_ = true;
  }
  if (const std::uint64_t cost = evaluation_cost(*rule); cost > evaluation_cost_left_) {
    Diagnostic& d = errors.emplace_back();
    d.rule = problem_kinds::invalid_rule;
    d.severity = Severity::error;
    const std::size_t elements = max_elements(rule->each);
    d.message = fmt::format(
        "rule {} may evaluate {} expression nodes on one plan ({} nodes{}), more than the {} that the rules of a "
        "run have left of planlint's fixed budget of {}",
        rule->descriptor.id, cost, cost / elements,
        elements > 1 ? fmt::format(" for each of up to {} {}", elements, rule->each) : std::string(),
        evaluation_cost_left_, max_rules_evaluation_cost);
    d.primary = Location{file->path(), span_at(*file, rule->each.empty() ? "check" : "each")};
    d.help = "make its expressions smaller: a let used several times is written out at each use";
    return false;
  }
  evaluation_cost_left_ -= evaluation_cost(*rule);
  auto compiled = std::make_shared<const CompiledRule>(std::move(*rule));
  auto at = std::lower_bound(rules_.begin(), rules_.end(), compiled,
                             [](const auto& a, const auto& b) { return a->descriptor.id < b->descriptor.id; });
  rules_.insert(at, std::move(compiled));
  note_rules();
  return true;
}

bool RuleSet::load_path(const std::string& path, std::vector<Diagnostic>& errors) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> files;
  const bool folder = fs::is_directory(path, ec);
  std::size_t plans_passed_over = 0;
  bool ok = true;
  if (folder) {
    // A pack's folder may sit in a checkout that a pull request changes: a link in it is
    // followed only to a file inside the folder, never out of it (`policies/x.toml ->
    // /proc/self/environ`). Linked folders are not searched (the iterator's default).
    const fs::path root = fs::weakly_canonical(path, ec);
    for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code entry_ec;
      if (!is_toml_path(it->path().string()) || !it->is_regular_file(entry_ec)) continue;
      if (it->is_symlink(entry_ec)) {
        std::error_code link_ec;
        const fs::path target = fs::canonical(it->path(), link_ec);
        const fs::path inside = target.lexically_relative(root);
        if (link_ec || root.empty() || inside.empty() || *inside.begin() == "..") {
          Diagnostic& d = errors.emplace_back();
          d.rule = problem_kinds::invalid_rule;
          d.message = fmt::format("'{}' in rule pack '{}' is a symbolic link to '{}', outside the pack's folder; "
                                  "planlint follows a link in a pack only to a file inside it",
                                  it->path().string(), path, fs::read_symlink(it->path(), link_ec).string());
          d.primary = Location{it->path().string(), Span{}};
          ok = false;
          continue;
        }
      }
      files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  std::size_t rule_files = 0;
  for (const fs::path& file : files) {
    // The same file by another path (a config's pack named again with --rules, a folder and
    // one of its files) is loaded once: its rules are not a second definition.
    if (struct stat status {}; ::stat(file.c_str(), &status) == 0 &&
                               !loaded_files_.emplace(status.st_dev, status.st_ino).second)
      continue;
    Result<std::string> text = read_regular_file(file.string());
    if (!text) {
      Diagnostic& d = errors.emplace_back();
      d.rule = problem_kinds::invalid_rule;
      d.message = fmt::format("cannot read rule file: {}", text.error().message);
      d.primary = Location{file.string(), Span{}};
      ok = false;
      continue;
    }
    // A rule file has no [plan] table (it would be an unknown key): this is a test plan kept
    // with the rules it tests, which writing-rules.md suggests.
    if (folder && looks_like_plan(*text)) {
      ++plans_passed_over;
      continue;
    }
    ++rule_files;
    ok = load(std::make_shared<const SourceFile>(file.string(), std::move(*text)), errors) && ok;
  }
  // Files passed over as loaded before (the pack named twice) leave the count short: no error.
  if (folder && files.size() == plans_passed_over + rule_files && rule_files == 0 && ok) {
    Diagnostic& d = errors.emplace_back();
    d.rule = problem_kinds::invalid_rule;
    d.severity = Severity::error;
    d.message = plans_passed_over == 0
                    ? fmt::format("rule pack '{}' holds no rule file (*.toml)", path)
                    : fmt::format("rule pack '{}' holds no rule file, only {} plan{} (TOML files with a [plan] table)",
                                  path, plans_passed_over, plans_passed_over == 1 ? "" : "s");
    d.primary = Location{path, Span{}};
    return false;
  }
  return ok;
}

std::vector<RuleDescriptor> RuleSet::descriptors() const {
  std::vector<RuleDescriptor> out;
  for (const auto& rule : rules_) out.push_back(rule->descriptor);
  return out;
}

const RuleDescriptor* RuleSet::find(std::string_view id) const {
  for (const auto& rule : rules_)
    if (rule->descriptor.id == id) return &rule->descriptor;
  return nullptr;
}

void RuleSet::note_rules() {
  reads_metric_ranges_ = std::any_of(rules_.begin(), rules_.end(), [](const auto& rule) { return rule->reads_metric_ranges; });
  superseded_.clear();
  for (const auto& rule : rules_)
    for (std::string_view superseded : rule->supersedes) superseded_.emplace_back(rule->descriptor.id, superseded);
}

bool RuleSet::check_supersedes(std::vector<Diagnostic>& errors) const {
  bool ok = true;
  std::vector<std::string_view> ids;
  for (const auto& rule : rules_) ids.push_back(rule->descriptor.id);
  for (const auto& rule : rules_)
    for (std::string_view superseded : rule->supersedes) {
      if (find(superseded)) continue;
      ok = false;
      const std::shared_ptr<const SourceFile> file = rule_source(*rule);
      Diagnostic& d = errors.emplace_back();
      d.rule = problem_kinds::invalid_rule;
      d.severity = Severity::error;
      d.message = fmt::format("rule {} supersedes '{}', which is no rule of this run", rule->descriptor.id, superseded);
      if (auto suggestion = closest_match(superseded, ids)) d.message += fmt::format("; did you mean '{}'?", *suggestion);
      d.primary = Location{file->path(), span_at(*file, "supersedes")};
      d.help = "name the id of a built-in rule (`planlint rules`) or of a rule in the packs loaded";
    }
  return ok;
}

void RuleSet::apply_supersedes(std::vector<Diagnostic>& diagnostics) const {
  if (superseded_.empty() || diagnostics.size() < 2) return;
  const auto same_place = [](const Diagnostic& a, const Diagnostic& b) {
    return a.primary.span == b.primary.span && a.primary.file == b.primary.file;
  };
  const auto replaced = [&](const Diagnostic& d) {
    for (const auto& [winner, loser] : superseded_) {
      if (loser != d.rule) continue;
      for (const Diagnostic& other : diagnostics)
        if (other.rule == winner && same_place(other, d)) return true;
    }
    return false;
  };
  std::vector<bool> drop(diagnostics.size());
  bool any = false;
  for (std::size_t i = 0; i < diagnostics.size(); ++i) any |= drop[i] = replaced(diagnostics[i]);
  if (!any) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    if (drop[i]) continue;
    if (kept != i) diagnostics[kept] = std::move(diagnostics[i]);  // a self-move would empty it
    ++kept;
  }
  diagnostics.resize(kept);
}

}  // namespace planlint
