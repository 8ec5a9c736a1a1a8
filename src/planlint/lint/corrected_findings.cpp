#include "planlint/lint/corrected_findings.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"

namespace planlint {

namespace {

bool is_native(const Diagnostic& d) {
  return std::find(native_rules::all.begin(), native_rules::all.end(), d.rule) != native_rules::all.end();
}

/// Whether `d` is a finding that carries one of the corrections.
bool carries_correction(const Diagnostic& d, const CorrectedInputs& corrected) {
  return std::any_of(corrected.corrections.begin(), corrected.corrections.end(), [&](const InputCorrection& c) {
    return c.rule == d.rule && c.finding_key == d.key_path;
  });
}

/// Whether `d` points at a corrected key: what the corrected plan says of that key is about a
/// value the plan does not hold.
bool at_corrected_key(const Diagnostic& d, const CorrectedInputs& corrected) {
  return std::any_of(corrected.corrections.begin(), corrected.corrections.end(),
                     [&](const InputCorrection& c) { return c.finding_key == d.key_path; });
}

}  // namespace

void merge_corrected_findings(std::vector<Diagnostic>& findings, std::vector<Diagnostic> corrected_findings,
                              const CorrectedInputs& corrected) {
  const std::string once = fmt::format(" (once {})", once_text(corrected.corrections));
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  // Each finding's counterpart: the corrected plan's finding of its rule at its place.
  std::vector<std::size_t> counterpart(findings.size(), none);
  std::vector<bool> matched(corrected_findings.size(), false);
  for (std::size_t f = 0; f < findings.size(); ++f) {
    const Diagnostic& d = findings[f];
    if (is_native(d) || carries_correction(d, corrected)) continue;
    for (std::size_t i = 0; i < corrected_findings.size(); ++i)
      if (!matched[i] && corrected_findings[i].rule == d.rule && corrected_findings[i].key_path == d.key_path) {
        counterpart[f] = i;
        matched[i] = true;
        break;
      }
  }
  for (std::size_t f = 0; f < findings.size(); ++f) {
    Diagnostic& d = findings[f];
    if (is_native(d) || carries_correction(d, corrected)) continue;
    if (counterpart[f] != none) {
      Diagnostic& c = corrected_findings[counterpart[f]];
      if (c.message != d.message) d.message = c.message + once;
      if (c.help != d.help) d.help = c.help ? std::optional<std::string>(*c.help + once) : std::nullopt;
      d.notes = std::move(c.notes);
      d.fixes = std::move(c.fixes);
      continue;
    }
    // Another rule's finding at its place once the inputs are corrected, which no finding of
    // its own rule had (a claim 7200× off that is a 3600× unit slip once the peak is dense),
    // takes its place: it is added below.
    bool replaced = false;
    for (std::size_t i = 0; i < corrected_findings.size(); ++i)
      replaced = replaced || (!matched[i] && corrected_findings[i].key_path == d.key_path);
    if (replaced) {
      d.rule.clear();  // erased below
      continue;
    }
    // The finding follows from the wrong input: the fix that corrects it clears it, and a
    // figure its own fix or help suggests is computed from that input.
    d.help = fmt::format("{} clears this: it no longer holds once {}", fixes_text(corrected.corrections),
                         once_text(corrected.corrections));
    d.fixes.clear();
  }
  std::erase_if(findings, [](const Diagnostic& d) { return d.rule.empty(); });
  for (std::size_t i = 0; i < corrected_findings.size(); ++i) {
    Diagnostic& c = corrected_findings[i];
    if (matched[i] || at_corrected_key(c, corrected)) continue;
    c.message += once;
    if (c.help) *c.help += once;
    findings.push_back(std::move(c));
  }
}

}  // namespace planlint
