#include "planlint/rules/run.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "planlint/metrics/metric_table.hpp"
#include "planlint/expr/eval.hpp"
#include "planlint/rules/compiled_rule.hpp"
#include "planlint/source/source_file.hpp"
#include "planlint/source/toml_value.hpp"

namespace planlint {

namespace {

/// Three significant figures ("22.7%", "0.5%"), but a percentage of 1000 or more in whole
/// numbers: "1200%", where {:.3g} writes "1.2e+03%".
std::string format_percent(double fraction) {
  const double percent = fraction * 100;
  if (std::isfinite(percent) && std::fabs(percent) >= 999.5) return fmt::format("{:.0f}%", percent);
  // to_chars in the general format is printf's %.3g, without a format string to parse; three
  // figures of any double, inf or nan fit in 32 characters ("-1.23e+308").
  char digits[32];
  char* end = std::to_chars(digits, digits + sizeof digits, percent, std::chars_format::general, 3).ptr;
  std::string out(digits, end);
  out += '%';
  return out;
}

/// The number a shown text reads as, in base units of `dim`, as a plan key of that dimension
/// reads it (units::resolve: "7.001B" is billions for a count); nullopt when it does not read
/// as one.
std::optional<double> read_back(const std::string& shown, units::Dimension dim) {
  const units::QuantityResult back = units::parse_quantity(shown);
  const units::Quantity* read = std::get_if<units::Quantity>(&back);
  if (!read) return std::nullopt;
  const units::Quantity resolved = units::resolve(*read, dim);
  if (resolved.dim != dim || !std::isfinite(resolved.value)) return std::nullopt;
  return resolved.value;
}

/// The steps to the next figure of `shown` at four and at three significant figures, in base
/// units, given the value `read` it reads as: 0.1 and 1 tokens/s for "187.9 tokens/s", 0.001B
/// and 0.01B for "7B" (a text drops its trailing zeros, so its digits do not tell the figures
/// it was rounded to); none for a number in exponent notation or a zero.
std::vector<double> next_figure_steps(const std::string& shown, double read) {
  const std::size_t first = shown.find_first_of("0123456789");
  if (first == std::string::npos) return {};
  std::size_t end = first;
  while (end < shown.size() && (std::isdigit(static_cast<unsigned char>(shown[end])) || shown[end] == '.')) ++end;
  if (end < shown.size() && (shown[end] == 'e' || shown[end] == 'E')) return {};
  double number = 0;
  if (std::from_chars(shown.data() + first, shown.data() + end, number).ec != std::errc() || number == 0)
    return {};
  const double scale = std::fabs(read / number);
  const double exponent = std::floor(std::log10(number));
  return {scale * std::pow(10.0, exponent - 3), scale * std::pow(10.0, exponent - 2)};
}

/// `show(q.value)`, or, when that reads as a number on the wrong side of the value, the text
/// nearest to it that reads as one on its side: not below it (`up`) or not above it (`down`):
/// "claim at most 187.8 tokens/s" for a bound of 187.87, where the nearest figures, 187.9,
/// would be above it. The text is read back with the plan's quantity syntax, which the formats
/// write (a fix is such a text), read as a key of the value's dimension reads it; a text that
/// does not read back (a unit with an exponent, "USD·token⁻¹") is left to the nearest.
template <typename Show>
std::string rounded(const units::Quantity& q, Rounding rounding, Show show) {
  std::string text = show(q.value);
  if (rounding == Rounding::nearest || !std::isfinite(q.value)) return text;
  const bool up = rounding == Rounding::up;
  // Whether `shown` reads as a number on the value's side; nullopt when it does not read back.
  auto on_side = [&](const std::string& shown) -> std::optional<bool> {
    std::optional<double> value = read_back(shown, q.dim);
    if (!value) return std::nullopt;
    return up ? *value >= q.value : *value <= q.value;
  };
  const std::optional<bool> nearest_ok = on_side(text);
  if (!nearest_ok || *nearest_ok) return text;
  // Usually the next figure does it, at the four or three significant figures the formats
  // show ("187.9 tokens/s" → 187.8, "10%" → 10.1%); a text whose figures change length there
  // (9.99 → 10) or that shows an exponent is left to the search below.
  const double read = *read_back(text, q.dim);
  for (const double step : next_figure_steps(text, read)) {
    std::string next = show(up ? read + step : read - step);
    if (on_side(next) == true) return next;
  }
  auto shown_at = [&](double step) { return show(up ? q.value + step : q.value - step); };
  // A step that reaches the side (doubling from the smallest the value can take), then the
  // least such step by bisection: the nearest text on the side.
  double far = std::max(std::fabs(q.value) * 1e-15, std::numeric_limits<double>::min());
  std::string best;
  for (int attempt = 0; attempt < 1100 && best.empty(); ++attempt, far *= 2) {
    const std::string candidate = shown_at(far);
    const std::optional<bool> ok = on_side(candidate);
    if (!ok || !std::isfinite(far)) return text;
    if (*ok) best = candidate;
  }
  if (best.empty()) return text;
  far /= 2;  // the loop doubled once more after the step that reached the side
  double near = 0;
  for (int halving = 0; halving < 60; ++halving) {
    const double middle = (near + far) / 2;
    const std::string candidate = shown_at(middle);
    const std::optional<bool> ok = on_side(candidate);
    if (!ok) break;
    if (*ok) {
      far = middle;
      best = candidate;
    } else {
      near = middle;
    }
  }
  return best;
}

/// Where the rule's finding is and what key it names.
struct Place {
  Span span;
  std::string key_path;
  const PlanValue* value = nullptr;  ///< the plan value at that place, when there is one
};

class RuleRunner {
 public:
  RuleRunner(const CompiledRule& rule, const RuleRun& run)
      : rule_(rule), run_(run), options_(merge_options()), environment_(run.inputs, options()) {}

  void run(std::vector<Diagnostic>& out) {
    const Plan& plan = run_.inputs.plan;
    if (rule_.each.empty()) {
      if (fires()) out.push_back(diagnostic(""));
      return;
    }
    // The element's path is only built for a finding.
    if (rule_.each == "estimates") {
      for (const Claim& claim : plan.estimates) {
        environment_.set_element(nullptr, &claim);
        claim_ = &claim;
        if (fires()) out.push_back(diagnostic("estimates." + claim.metric));
      }
      return;
    }
    const std::vector<PlanTable>& elements = rule_.each == "targets"       ? plan.targets
                                             : rule_.each == "assumptions" ? plan.assumptions
                                             : rule_.each == "capacity"    ? plan.capacity
                                                                           : plan.benchmarks;
    const SectionSpec* section = elements.empty() ? nullptr : find_section(rule_.each);
    for (std::size_t i = 0; i < elements.size(); ++i) {
      environment_.set_element(&elements[i], nullptr, section);
      element_ = &elements[i];
      if (fires()) out.push_back(diagnostic(fmt::format("{}[{}]", rule_.each, i)));
    }
  }

 private:
  /// The rule's options with the config's overrides; nullopt when no override applies, so that
  /// the rule's own map is used without a copy (the usual case: one copy per rule per plan).
  std::optional<std::map<std::string, expr::Value>> merge_options() const {
    std::optional<std::map<std::string, expr::Value>> merged;
    if (run_.option_overrides.empty()) return merged;
    for (const auto& [name, value] : rule_.options)
      if (auto o = run_.option_overrides.find(name); o != run_.option_overrides.end())
        if (!value.quantity() || value.quantity()->dim == o->second.dim) {
          if (!merged) merged = rule_.options;
          merged->at(name) = expr::Value{o->second};
        }
    return merged;
  }
  const std::map<std::string, expr::Value>& options() const {
    return options_ ? *options_ : rule_.options;
  }

  /// Whether the rule applies to the current element and its check fails. The metrics the
  /// check reads, and only those, are the finding's notes: they decide it.
  bool fires() {
    if (rule_.applies && expr::evaluate_condition(*rule_.applies, environment_) != true) return false;
    environment_.reset_metrics_read();
    const bool fired = expr::evaluate_condition(*rule_.check, environment_) == false;
    environment_.stop_recording();
    return fired;
  }

  Place resolve(std::string_view path, const std::string& element_path) const {
    const Plan& plan = run_.inputs.plan;
    if (path == "it" || path.starts_with("it.")) {
      const std::string_view field = path == "it" ? std::string_view() : path.substr(3);
      if (claim_) {
        const std::optional<PlanValue>& part = field == "low"    ? claim_->low
                                               : field == "high" ? claim_->high
                                                                 : claim_->value;
        if (part && field != "metric") return {part->span, element_path, &*part};
        return {claim_->key_span, element_path, nullptr};
      }
      if (element_) {
        if (const PlanValue* value = field.empty() ? nullptr : element_->find(field))
          if (value->origin == Origin::plan) return {value->span, fmt::format("{}.{}", element_path, field), value};
        return {element_->header, element_path, nullptr};
      }
    }
    if (!path.empty()) {
      if (const PlanValue* value = plan.find(path); value && value->span.known())
        return {value->span, std::string(path), value->origin == Origin::plan ? value : nullptr};
      const std::string_view section = path.substr(0, path.find('.'));
      if (plan.section(section).present) return {plan.section(section).header, std::string(path), nullptr};
    }
    if (!element_path.empty() && claim_) return {claim_->key_span, element_path, nullptr};
    if (element_) return {element_->header, element_path, nullptr};
    return {Span{{1, 1}, {1, 2}}, std::string(path), nullptr};
  }

  /// The first candidate the plan states, else the first with a known place.
  Place resolve_first(NameList candidates,
                      const std::string& element_path) const {
    if (candidates.empty()) return resolve("", element_path);
    for (std::string_view path : candidates)
      if (Place place = resolve(path, element_path); place.value) return place;
    for (std::string_view path : candidates)
      if (path.starts_with("it") || run_.inputs.plan.find(path)) return resolve(path, element_path);
    return resolve(candidates.front(), element_path);
  }

  Diagnostic diagnostic(const std::string& element_path) {
    const SourceFile& file = *run_.inputs.plan.source;
    Diagnostic d;
    d.rule = rule_.descriptor.id;
    d.severity = rule_.descriptor.severity;
    if (rule_.error_when && expr::evaluate_condition(*rule_.error_when, environment_) == true)
      d.severity = Severity::error;
    d.message = render(rule_.message, environment_);
    // A rendered `at` template goes in front of the rule's `at` list (views of both).
    Place place;
    if (rule_.at_template) {
      const std::string rendered = render(*rule_.at_template, environment_);
      std::vector<std::string_view> at{rendered};
      at.insert(at.end(), rule_.at.begin(), rule_.at.end());
      place = resolve_first(at, element_path);
    } else {
      place = resolve_first(rule_.at, element_path);
    }
    d.primary = Location{file.path(), place.span};
    d.key_path = place.key_path;
    if (!rule_.help.empty()) d.help = render(rule_.help, environment_);
    if (rule_.fix && place.value)
      if (std::optional<std::string> replacement = render_fix(*rule_.fix, environment_))
        d.fixes.push_back(FixEdit{Location{file.path(), place.span}, as_toml_value(*replacement)});

    for (std::string_view related : rule_.related) {
      if (place.key_path == related) continue;
      Place where = resolve(related, element_path);
      if (where.value) {
        std::string note = where.key_path;  // "training.tp = 8"
        note += " = ";
        note += value_excerpt(file, where.span);
        d.related.push_back({Location{file.path(), where.span}, std::move(note)});
      } else if (const PlanValue* value = related.starts_with("it") ? nullptr : run_.inputs.plan.find(related)) {
        const std::string shown = to_value_text(*value);
        d.notes.push_back(value->origin == Origin::catalog
                              ? fmt::format("{} = {} (from the catalog entry of cluster.gpu)", related, shown)
                              : fmt::format("{} = {} (default)", related, shown));
      }
    }
    // How planlint computed the numbers the rule used.
    // The rule's declared metrics, then those it read that it did not declare (metrics_read()
    // holds each name once), without copying either list.
    // A catalog figure (gpu.*) is shown in the message and has no arithmetic to note. A metric
    // that is one term (a dense model's weights read: "26 GB") stands for the metric it is, whose
    // arithmetic is noted instead. Each metric, and each arithmetic, is noted once.
    std::vector<std::string_view> noted;
    auto note_one = [&](auto& self, std::string_view name) -> void {
      const MetricValue* m = run_.inputs.estimates.find(name);
      if (!m || m->arithmetic.empty() || (m->spec && m->spec->section == ReportSection::hardware)) return;
      if (std::find(noted.begin(), noted.end(), m->name) != noted.end()) return;
      noted.push_back(m->name);
      const std::string arithmetic = m->arithmetic.str();
      if (arithmetic.find(" = ") == std::string::npos) {
        for (const MetricInput& input : m->inputs)
          if (input.is_metric) self(self, input.name);
        return;
      }
      // A bound that is the metric itself for this plan (an MoE bound of a dense model) is
      // noted under the metric's name, the one earlier in the metric table.
      const std::string suffix = ": " + arithmetic;
      std::string note = std::string(name) + suffix;  // "train.days: 4.42M GPU·h / 2048 / 24 = 90.0 d"
      for (std::string& other : d.notes)
        if (other.ends_with(suffix)) {
          const MetricSpec* earlier = find_metric(std::string_view(other).substr(0, other.size() - suffix.size()));
          if (m->spec && earlier && m->spec->id < earlier->id) other = std::move(note);
          return;
        }
      d.notes.push_back(std::move(note));
    };
    auto note_arithmetic = [&](std::string_view name) { note_one(note_one, name); };
    const NameList used = rule_.metrics_used;
    for (std::string_view name : used)
      if (const MetricSpec* metric = find_metric(name); metric && environment_.read_path(*metric)) note_arithmetic(name);
    for (const std::string& name : environment_.metrics_read())
      if (std::find(used.begin(), used.end(), name) == used.end()) note_arithmetic(name);
    return d;
  }

  static std::string to_value_text(const PlanValue& value) {
    return expr::format_value(to_value(value.value));
  }

  const CompiledRule& rule_;
  const RuleRun& run_;
  std::optional<std::map<std::string, expr::Value>> options_;
  PlanEnvironment environment_;
  const PlanTable* element_ = nullptr;
  const Claim* claim_ = nullptr;
};

}  // namespace

namespace {

/// Renders `message`; an absent placeholder, or a section whose condition is absent, is "?",
/// or stops the rendering (nullopt) when `for_fix`. A fix's text replaces a value in the plan,
/// so a fraction stays a number there ("0.75"), where a message shows a percentage written so,
/// or a fraction key's value, as one ("75%").
/// The most bytes of a rendered message, help or fix (4 KiB): longer is cut, and marked "…".
constexpr std::size_t max_rendered_bytes = 4096;

std::optional<std::string> render_parts(const MessageTemplate& message, const expr::Environment& environment,
                                        bool for_fix) {
  using Kind = MessageTemplate::Part::Kind;
  std::string out;
  // A part reached by a jump (a false condition, or the end of a branch that ran) skips its
  // literal, the text of a branch that does not run.
  bool jumped = false;
  for (std::size_t i = 0; i < message.parts.size();) {
    // Rendering stops past the cap (cut below): 10,000 `{plan.name}` of a 100 KB name would
    // otherwise make a 1 GB message; a fix that long is no fix.
    if (out.size() > max_rendered_bytes) {
      if (for_fix) return std::nullopt;
      break;
    }
    const MessageTemplate::Part& part = message.parts[i];
    if (!jumped) out += part.literal;
    const bool arrived_by_jump = std::exchange(jumped, false);
    if (part.kind != Kind::placeholder) {
      // `{else if}` and `{else}` reached from the branch before them, which ran: on to `{/if}`.
      const bool branch_ran = !arrived_by_jump && (part.kind == Kind::else_if || part.kind == Kind::else_);
      if (part.kind == Kind::end_if || (part.kind == Kind::else_ && !branch_ran)) {
        ++i;
        continue;
      }
      if (branch_ran) {
        i = part.end;
        jumped = true;
        continue;
      }
      const std::optional<bool> condition = expr::evaluate_condition(*part.expression, environment);
      if (!condition) {
        if (for_fix) return std::nullopt;
        out += "?";
        i = part.end;
      } else {
        i = *condition ? i + 1 : part.next;
      }
      jumped = !condition || !*condition;
      continue;
    }
    ++i;
    if (!part.expression) continue;
    // A picked string literal is appended without a copy through a Value.
    const expr::Node* node = expr::chosen_branch(*part.expression, environment);
    if (node && node->kind == expr::Node::Kind::string) {
      out += node->text;
      continue;
    }
    auto value = node ? expr::evaluate(*node, environment) : std::nullopt;
    if (!value) {
      if (for_fix) return std::nullopt;
      out += "?";
      continue;
    }
    const units::Quantity* q = value->quantity();
    if (q && (part.unit == "%" || (part.unit.empty() && !for_fix && q->percent && q->dim.dimensionless()))) {
      out += rounded(*q, part.rounding, [](double x) { return format_percent(x); });
    } else if (std::string formatted = q && !part.unit.empty() ? units::format_in(q->value, q->dim, part.unit) : "";
               !formatted.empty()) {
      out += part.rounding == Rounding::nearest
                 ? formatted
                 : rounded(*q, part.rounding, [&](double x) { return units::format_in(x, q->dim, part.unit); });
    } else if (q) {
      out += rounded(*q, part.rounding, [&](double x) {
        units::Quantity shown = *q;
        shown.value = x;
        return expr::format_value(expr::Value{shown});
      });
    } else {
      out += expr::format_value(*value);
    }
  }
  if (out.size() > max_rendered_bytes) {
    if (for_fix) return std::nullopt;
    // At a character's first byte, never inside one.
    std::size_t keep = max_rendered_bytes;
    while (keep > 0 && (static_cast<unsigned char>(out[keep]) & 0xC0) == 0x80) --keep;
    out.resize(keep);
    out += "\u2026";
  }
  return out;
}

}  // namespace

std::string render(const MessageTemplate& message, const expr::Environment& environment) {
  return *render_parts(message, environment, false);
}

std::optional<std::string> render_fix(const MessageTemplate& fix, const expr::Environment& environment) {
  return render_parts(fix, environment, true);
}

std::vector<Diagnostic> run_rules(const RuleSet& rules, const RuleRun& run) {
  std::vector<Diagnostic> out;
  for (const auto& rule : rules.rules()) {
    if (rule->descriptor.native || !rule->check) continue;
    if (run.selected && !run.selected(rule->descriptor)) continue;
    RuleRunner(*rule, run).run(out);
  }
  return out;
}

void run_rules(const RuleSet& rules, std::span<const RuleRun* const> runs, std::span<std::vector<Diagnostic>> out) {
  for (const auto& rule : rules.rules()) {
    if (rule->descriptor.native || !rule->check) continue;
    const void* asked_for = nullptr;  // the selection_key of the last answer
    bool answer = true;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const RuleRun& run = *runs[i];
      if (run.selected && (!run.selection_key || run.selection_key != asked_for)) {
        answer = run.selected(rule->descriptor);
        asked_for = run.selection_key;
      }
      if (run.selected && !answer) continue;
      RuleRunner(*rule, run).run(out[i]);
    }
  }
}

}  // namespace planlint
