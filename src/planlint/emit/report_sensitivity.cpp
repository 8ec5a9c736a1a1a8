/// The report's sensitivity sections: which assumption moves each metric most (a one-at-a-time
/// tornado, as sensitivity() computed it) and which end of an assumption breaks a hard target.
#include <fmt/format.h>

#include "planlint/diag/printable.hpp"
#include "planlint/emit/report_common.hpp"
#include "planlint/estimate/engine.hpp"

namespace planlint::detail {

namespace {

/// "training.mfu 30% → 50% (assumption mfu)".
std::string assumption_text(const SensitivityBar& bar) {
  const std::string ends = fmt::format("{} {} → {}", bar.key, show_plan_value(bar.key, bar.key_low, bar.key_dim),
                                       show_plan_value(bar.key, bar.key_high, bar.key_dim));
  return bar.assumption.empty() ? ends : fmt::format("{} (assumption {})", ends, bar.assumption);
}

/// The metric's effect column: "12.8 d → 7.68 d, swing 5.12 d".
std::string effect_text(const MetricSpec& metric, const SensitivityBar& bar) {
  return fmt::format("{} → {}, swing {}", show_metric_value(metric, bar.at_low), show_metric_value(metric, bar.at_high),
                     show_metric_value(metric, bar.swing()));
}

std::string pad_to(std::string text, std::size_t width) {
  const std::size_t shown = display_width(text);
  if (shown < width) text.append(width - shown, ' ');
  return text;
}

}  // namespace

std::string target_break_text(const TargetBreak& broken) {
  const std::string end = fmt::format("{} {}, its {} end", broken.key,
                                      show_plan_value(broken.key, broken.key_value, broken.key_dim),
                                      broken.at_high ? "high" : "low");
  return fmt::format("'{}' ({} {} {}) breaks at {}{}: {}{}", broken.target, broken.metric->name,
                     broken.is_max ? "at most" : "at least", show_metric_value(*broken.metric, broken.bound), end,
                     broken.assumption.empty() ? "" : fmt::format(" (assumption {})", broken.assumption),
                     show_metric_value(*broken.metric, broken.metric_value),
                     broken.broken_at_value ? " (broken at the plan's values too)" : "");
}

std::string unranged_text(const MetricSensitivity& entry) {
  if (entry.unranged.empty()) return "";
  return "no range: " + join(entry.unranged);
}

void render_sensitivity_text(std::ostream& out, const ReportInput& input) {
  if (!input.sensitivity || input.sensitivity->metrics.empty()) return;
  const Sensitivity& sensitivity = *input.sensitivity;
  std::size_t name_width = 0, assumption_width = 0;
  for (const MetricSensitivity& entry : sensitivity.metrics) {
    name_width = std::max(name_width, entry.spec->name.size());
    for (const SensitivityBar& bar : entry.bars)
      assumption_width = std::max(assumption_width, display_width(assumption_text(bar)));
  }
  out << "\nSensitivity: each assumption from its low to its high end, the others at the plan's values\n";
  for (const MetricSensitivity& entry : sensitivity.metrics) {
    std::string name = pad_to(std::string(entry.spec->name), name_width);
    for (const SensitivityBar& bar : entry.bars) {
      out << "  " << name << "  " << pad_to(assumption_text(bar), assumption_width) << "  "
          << effect_text(*entry.spec, bar) << '\n';
      name = std::string(name_width, ' ');
    }
    if (!entry.unranged.empty()) out << "  " << name << "  " << unranged_text(entry) << '\n';
  }
  if (sensitivity.target_breaks.empty()) return;
  out << "\nHard targets an assumption's end breaks\n";
  for (const TargetBreak& broken : sensitivity.target_breaks) out << "  " << target_break_text(broken) << '\n';
}

void render_sensitivity_markdown(std::ostream& out, const ReportInput& input) {
  if (!input.sensitivity || input.sensitivity->metrics.empty()) return;
  const Sensitivity& sensitivity = *input.sensitivity;
  out << "\n**Sensitivity**: each assumption from its low to its high end, the others at the plan's values.\n\n";
  out << "| metric | assumption | low end → high end | metric at low → at high | swing |\n|---|---|---|---|---|\n";
  for (const MetricSensitivity& entry : sensitivity.metrics) {
    bool first = true;
    const auto name = [&] { return first ? fmt::format("`{}`", entry.spec->name) : std::string(); };
    for (const SensitivityBar& bar : entry.bars) {
      out << fmt::format("| {} | {}{} | {} → {} | {} → {} | {} |\n", name(), markdown_code_span(bar.key),
                         bar.assumption.empty() ? "" : fmt::format(" ({})", cell(bar.assumption)),
                         show_plan_value(bar.key, bar.key_low, bar.key_dim),
                         show_plan_value(bar.key, bar.key_high, bar.key_dim), show_metric_value(*entry.spec, bar.at_low),
                         show_metric_value(*entry.spec, bar.at_high), show_metric_value(*entry.spec, bar.swing()));
      first = false;
    }
    if (!entry.unranged.empty()) {
      std::vector<std::string> keys;
      for (const std::string& key : entry.unranged) keys.push_back(markdown_code_span(key));
      out << fmt::format("| {} | no range: {} | | | |\n", name(), join(keys));
    }
  }
  if (sensitivity.target_breaks.empty()) return;
  out << "\n**Hard targets an assumption's end breaks**\n\n";
  for (const TargetBreak& broken : sensitivity.target_breaks) out << "- " << cell(target_break_text(broken)) << '\n';
}

}  // namespace planlint::detail
