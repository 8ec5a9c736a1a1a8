#pragma once
/// A rule file after loading: its descriptor and its expressions parsed and checked once.
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/rule_descriptor.hpp"
#include "planlint/expr/syntax.hpp"
#include "planlint/expr/value.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

/// Which way a placeholder's number is rounded to the figures it is shown with: to the
/// nearest (the default), or `up` / `down` (`{expr:UNIT up}`, `{expr:down}`), so that a bound a
/// help suggests, or a figure a message compares with a limit, stays on its side of it.
enum class Rounding : std::uint8_t { nearest, up, down };

/// A message with `{expr}`, `{expr:UNIT}` and `{expr:UNIT up|down}` placeholders and
/// `{if C}…{else if C}…{else}…{/if}` sections, compiled. Its parts view constants for a
/// built-in rule (generated code: no copy of every rule's templates at each start) or `owned`
/// for a template compiled from a rule file.
struct MessageTemplate {
  struct Part {
    /// What follows the part's literal: a placeholder (none for the tail), or a section's
    /// `{if C}`, `{else if C}`, `{else}` or `{/if}`.
    enum class Kind : std::uint8_t { placeholder, if_, else_if, else_, end_if };
    std::string_view literal;                ///< text before the placeholder (or the whole tail)
    const expr::Node* expression = nullptr;  ///< the placeholder's value or the branch's condition; null for the tail
    std::string_view unit;                   ///< "" (readable default), "GB", "%", ...
    Rounding rounding = Rounding::nearest;
    Kind kind = Kind::placeholder;
    /// A branch's (if_, else_if, else_): the part of its section's next branch or `{/if}`, where
    /// a false condition goes, and of its `{/if}`, where the branch goes when it has run.
    std::uint32_t next = 0, end = 0;
  };
  /// What the parts of a template compiled from a rule file view: its texts, its parts and
  /// their expression trees.
  struct Owned {
    std::deque<std::string> texts;  // a deque never moves its strings
    std::vector<Part> parts;
    std::vector<expr::NodePtr> trees;
  };
  std::span<const Part> parts;
  /// Shared by the template's copies; null for a built-in template.
  std::shared_ptr<const Owned> owned;
  bool empty() const { return parts.empty(); }
};

/// The names a rule lists (plan keys for `at` and `related`, metric names for
/// `metrics_used`): views of constants for a built-in rule, of CompiledRule::owned_names for
/// a rule compiled from a file.
using NameList = std::span<const std::string_view>;

struct CompiledRule {
  RuleDescriptor descriptor;
  /// The rule file; null for a built-in rule, which was compiled at build time (rule_source()
  /// makes its file from the embedded text when it is needed).
  std::shared_ptr<const SourceFile> file;
  /// "" (once per plan), or the collection the rule iterates: "targets", "assumptions",
  /// "estimates", "benchmarks"; the element is `it`.
  std::string each;
  expr::NodePtr applies;  ///< optional precondition
  expr::NodePtr check;    ///< must hold; the rule fires when it is false
  /// Optional: where it holds, a finding is an error rather than the rule's severity (a figure
  /// far off its expected value, not just past the tolerance).
  expr::NodePtr error_when;
  /// The plan keys (or it / it.KEY) the finding may point at: the first the plan states wins,
  /// then the first that has a value ("at = ['training.tp', 'inference.tp']").
  NameList at;
  /// `at` with placeholders ("{if est.infer.ttft > inference.sla_ttft then 'inference.sla_ttft'
  /// else 'inference.sla_itl'}"): rendered per finding, it names the key to point at.
  std::optional<MessageTemplate> at_template;
  NameList related;
  /// The rules whose finding at the place of this rule's finding is left out (`supersedes`):
  /// this rule names the cause of what they report (unit-slip of estimate-mismatch's).
  NameList supersedes;
  MessageTemplate message, help;
  std::optional<MessageTemplate> fix;  ///< replacement text for the `at` value
  std::map<std::string, expr::Value> options;  ///< defaults, overridable in config
  /// Metrics the rule's check and message read (est.NAME), for the provenance notes.
  NameList metrics_used;
  /// Whether any of its expressions reads a metric's range (est.NAME.low or .high): a check
  /// whose rules read none skips computing the ranges (EstimateScope).
  bool reads_metric_ranges = false;

  /// What `at`, `related`, `supersedes` and `metrics_used` view for a rule compiled from a file, shared by
  /// the rule's copies; null for a built-in rule.
  struct OwnedNames {
    std::deque<std::string> texts;
    std::vector<std::string_view> at, related, supersedes, metrics_used;
  };
  std::shared_ptr<const OwnedNames> owned_names;
  /// Sets `at`, `related`, `supersedes` and `metrics_used` to views of copies of these lists.
  void own_names(const std::vector<std::string>& at_keys, const std::vector<std::string>& related_keys,
                 const std::vector<std::string>& superseded_ids, const std::vector<std::string>& metric_names);
};

/// The rule's file: `rule.file`, or for a built-in rule the embedded file it was compiled from
/// (descriptor.origin), made on first use. Thread-safe.
std::shared_ptr<const SourceFile> rule_source(const CompiledRule& rule);

}  // namespace planlint
