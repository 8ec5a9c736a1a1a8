#pragma once
/// A rule file after loading: its descriptor and its expressions parsed and checked once.
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
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

/// A message with `{expr}`, `{expr:UNIT}` and `{expr:UNIT up|down}` placeholders, compiled.
struct MessageTemplate {
  struct Part {
    std::string_view literal;  ///< text before the placeholder (or the whole tail)
    expr::NodePtr expression;  ///< null for the tail
    std::string_view unit;     ///< "" (readable default), "GB", "%", ...
    Rounding rounding = Rounding::nearest;
  };
  std::vector<Part> parts;
  /// The texts the parts of a template compiled from a rule file view (shared by the
  /// template's copies); none for a built-in template, whose parts view the binary's
  /// constants: no copy of every rule's texts at each start.
  std::shared_ptr<const std::deque<std::string>> texts;
  bool empty() const { return parts.empty(); }
};

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
  /// The plan keys (or it / it.KEY) the finding may point at: the first the plan states wins,
  /// then the first that has a value ("at = ['training.tp', 'inference.tp']").
  std::vector<std::string> at;
  /// `at` with placeholders ("{if est.infer.ttft > inference.sla_ttft then 'inference.sla_ttft'
  /// else 'inference.sla_itl'}"): rendered per finding, it names the key to point at.
  std::optional<MessageTemplate> at_template;
  std::vector<std::string> related;
  MessageTemplate message, help;
  std::optional<MessageTemplate> fix;  ///< replacement text for the `at` value
  std::map<std::string, expr::Value> options;  ///< defaults, overridable in config
  /// Metrics the rule's check and message read (est.NAME), for the provenance notes.
  std::vector<std::string> metrics_used;
  /// Whether any of its expressions reads a metric's range (est.NAME.low or .high): a check
  /// whose rules read none skips computing the ranges (EstimateScope).
  bool reads_metric_ranges = false;
};

/// The rule's file: `rule.file`, or for a built-in rule the embedded file it was compiled from
/// (descriptor.origin), made on first use. Thread-safe.
std::shared_ptr<const SourceFile> rule_source(const CompiledRule& rule);

}  // namespace planlint
