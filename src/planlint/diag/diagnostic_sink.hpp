#pragma once
/// Where a loader reports the problems it finds in its input (docs/development.md, "Results and
/// problems"): each as a Diagnostic at its place, in the order found, and the loader goes on,
/// so that one run shows every problem of a file rather than the first.
///
///     DiagnosticSink problems;
///     Result<Config> config = load_config(path, problems);
///     for (const Diagnostic& d : problems) std::cerr << error_line(d) << '\n';
///     if (!config) std::cerr << error_line(config.error()) << '\n';   // "invalid config '...'"
///
/// What the problems mean is the caller's: a config's are errors that stop the run, a plan's
/// are its findings. A step that runs several loaders (a run's settings: its config, rule
/// packs and catalog) reports their errors to its own sink as well, and its caller stops when
/// that sink holds any.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/result.hpp"

namespace planlint {

class DiagnosticSink {
 public:
  void report(Diagnostic diagnostic) { add(std::move(diagnostic)); }
  /// Reports a step's error as a problem of `kind` (problem_kinds): how a step that runs several
  /// loaders (a run's settings) passes on theirs.
  void report(const Error& error, std::string_view kind) {
    Diagnostic d;
    d.rule = std::string(kind);
    d.severity = Severity::error;
    d.message = error.message;
    d.primary = error.location;
    d.help = error.help;
    add(std::move(d));
  }
  /// Reports `diagnostic` and returns it, for a caller that adds notes, help or fixes (until
  /// it reports the next).
  Diagnostic& add(Diagnostic diagnostic) {
    if (reduce_ && diagnostics_.size() >= reduce_threshold_) {
      reduce_(diagnostics_);
      reduce_threshold_ = std::max(reduce_threshold_, 2 * diagnostics_.size());
    }
    diagnostics_.push_back(std::move(diagnostic));
    return diagnostics_.back();
  }
  /// Calls `reduce` on the problems reported so far whenever they reach `threshold` (or twice
  /// what the last call left), before the next is added: a caller that keeps only some of a
  /// file's findings (lint/findings_cap.hpp) bounds what a file of a million mistakes holds
  /// while it is read.
  void reduce_at(std::size_t threshold, std::function<void(std::vector<Diagnostic>&)> reduce) {
    reduce_threshold_ = threshold;
    reduce_ = std::move(reduce);
  }

  /// How many problems were reported so far: a loader compares it before and after a step.
  std::size_t size() const { return diagnostics_.size(); }
  bool empty() const { return diagnostics_.empty(); }
  auto begin() const { return diagnostics_.begin(); }
  auto end() const { return diagnostics_.end(); }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

  /// The problems, in place: a loader that reads a table in key order sorts its own into file
  /// order.
  std::vector<Diagnostic>& items() { return diagnostics_; }

  /// Every problem, leaving the sink empty.
  std::vector<Diagnostic> take() { return std::exchange(diagnostics_, {}); }

 private:
  std::vector<Diagnostic> diagnostics_;
  std::size_t reduce_threshold_ = 0;
  std::function<void(std::vector<Diagnostic>&)> reduce_;
};

}  // namespace planlint
