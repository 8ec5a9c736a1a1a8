#pragma once
/// The edits of a plan's text that write a training layout over the plan's own: what `planlint
/// solve --apply` writes and what a finding's layout fix (layout_fixes.hpp) writes.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/estimate/layout_kernel.hpp"
#include "planlint/fix/edits.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::solve {

/// The line after the last key line of the plan's `table` ([training], [cluster]; its header's
/// line when it has none): where keys the plan does not state are written.
std::size_t insert_offset(const SourceFile& source, const Plan& plan, std::string_view table);

/// `edits` in the order of their places in the text.
void sort_edits(std::vector<fix::TextEdit>& edits);

/// The edits of `source`'s text that write `to` over the plan's layout `from` (the keys that
/// differ, and those a default would now read differently), and a line for each change.
std::vector<fix::TextEdit> layout_edits(const SourceFile& source, const Plan& plan, const layout::TrainingLayout& from,
                                        const layout::TrainingLayout& to, std::vector<std::string>& changes);

/// A layout's figure of a metric; NaN where it has none.
using FigureOf = std::function<double(Metric)>;

/// The edits that bring the plan's [estimates] claims of the figures a layout changes
/// (`layout_metric`) from their values with the plan's layout (`before`) to those with the new
/// one (`after`), so that the plan it writes does not claim the old layout's memory; a line for
/// each in `changes`.
std::vector<fix::TextEdit> claim_edits(const SourceFile& source, const Plan& plan, const FigureOf& before,
                                       const FigureOf& after, std::vector<std::string>& changes,
                                       bool (*layout_metric)(Metric));

}  // namespace planlint::solve
