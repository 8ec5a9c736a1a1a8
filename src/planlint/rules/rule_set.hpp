#pragma once
/// Rule packs: rule files (docs/writing-rules.md) parsed and their expressions compiled once
/// per run. The built-in rules (rules/<group>/<id>.toml) are compiled at build time by the same
/// code that loads a user's pack (src/gen/planlint_gen.cpp); a run only builds their data.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/rule_descriptor.hpp"
#include "planlint/expr/bindings.hpp"
#include "planlint/rules/rule_file.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

struct CompiledRule;  // defined in rules/compiled_rule.hpp

class RuleSet {
 public:
  RuleSet();
  ~RuleSet();
  RuleSet(RuleSet&&) noexcept;
  RuleSet& operator=(RuleSet&&) noexcept;
  RuleSet(const RuleSet&) = delete;

  /// The built-in rules (built once from the data generated at build time, thread-safe).
  static const RuleSet& builtin();
  /// The built-in rules parsed and compiled from the embedded rule files, as a user's pack is:
  /// what the generator writes out, and what tests compare builtin() with. Throws
  /// std::logic_error naming the first problem when a built-in rule file is invalid.
  static RuleSet from_embedded_text();
  /// A copy of the built-in rules that user packs can be added to.
  static RuleSet with_builtin();

  /// Adds the rules of one rule file. Problems (bad TOML, a missing field, an expression that
  /// does not parse or whose dimensions do not agree, an id used by another file, an option
  /// another rule declares with another dimension) are appended to `errors` with
  /// file:line:col; returns false when there was any. Options are global by name: one
  /// `[lint.options]` entry sets every rule's option of that name, so rules that share a name
  /// must agree on what it holds. A rule id must not be a group's name or `all`, nor a group a
  /// rule's id: `--select memory` would take both.
  bool load(std::shared_ptr<const SourceFile> file, std::vector<Diagnostic>& errors,
            RuleOrigin origin = RuleOrigin::pack);
  /// Adds a rule file, or every *.toml under a folder (sorted; `.TOML` too), but a TOML file that
  /// holds a top-level [plan] table (a test plan kept beside the rules). A file this set loaded
  /// before (the same file by any path: a folder and one of its files, a pack named twice) is
  /// passed over. A folder with no rule file in it is an error: the run would go on without
  /// the rules it was asked for.
  bool load_path(const std::string& path, std::vector<Diagnostic>& errors);

  /// Every rule, sorted by id, as plain data for emitters and `planlint rules`.
  std::vector<RuleDescriptor> descriptors() const;
  const RuleDescriptor* find(std::string_view id) const;

  const std::vector<std::shared_ptr<const CompiledRule>>& rules() const { return rules_; }

  /// Whether any rule reads a metric's range (est.NAME.low / .high).
  bool reads_metric_ranges() const { return reads_metric_ranges_; }

  /// An error at the rule file's `supersedes` for each id there that no loaded rule has (with a
  /// did-you-mean): a rule may supersede one of a pack loaded after it, so this runs once every
  /// pack is loaded. Returns false when there was any.
  bool check_supersedes(std::vector<Diagnostic>& errors) const;
  /// Leaves out each finding that a finding of a rule superseding its rule replaces: one in the
  /// same file at the same place (`supersedes`, docs/writing-rules.md). A rule yields only to
  /// findings that `diagnostics` holds, so a superseding rule that is not selected hides nothing.
  void apply_supersedes(std::vector<Diagnostic>& diagnostics) const;

 private:
  /// Sets reads_metric_ranges_ and superseded_ from rules_, whenever they change: a check asks
  /// for each plan.
  void note_rules();

  std::vector<std::shared_ptr<const CompiledRule>> rules_;
  bool reads_metric_ranges_ = false;
  /// (superseding rule, superseded rule) for every `supersedes` entry: views of rules_' ids.
  std::vector<std::pair<std::string_view, std::string_view>> superseded_;
  /// What the rules loaded so far leave of the nodes their lets may copy (bindings.hpp).
  std::size_t let_nodes_left_ = expr::max_substituted_pack_nodes;
  bool pack_node_limit_reported_ = false;  ///< load() reports the packs' node limit once
  /// What the rules loaded so far leave of the evaluation cost the rules of a run share
  /// (rule_cost.hpp).
  std::uint64_t evaluation_cost_left_ = 0;
  bool cost_counted_ = false;  ///< whether evaluation_cost_left_ counts rules_
  std::set<std::pair<std::uint64_t, std::uint64_t>> loaded_files_;  ///< (device, inode) of load_path's files
};

}  // namespace planlint
