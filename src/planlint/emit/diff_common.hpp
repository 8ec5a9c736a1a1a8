#pragma once
/// Helpers shared by the diff renderers (diff_text.cpp, diff_markdown.cpp, diff_json.cpp).
#include <optional>
#include <ostream>
#include <string>

#include "planlint/emit/diff_report.hpp"

namespace planlint::detail {

/// A figure's value as reports show it: "$7.69M", "12.1 d", "2048".
std::string figure_value(const FigureChange& figure, double value);
/// One side of a figure: "$7.69M ($6.10M–$9.80M)", "79.1 GB of 80 GB"; "—" without a value.
std::string figure_side(const FigureChange& figure, bool head);
/// "+$1.41M (+18.3%)", "−2.2 d (−15.4%)"; "new" for a figure only the head has, "gone" for one
/// only the base has; "" when unchanged.
std::string figure_change(const FigureChange& figure);
/// The signed change of a total: "+$2.10M (+17.1%)"; "" when equal.
std::string total_change(double base, double head, const FigureChange& like);
/// A total before → after with its change: "$15.7M → $28.1M +$12.4M (+78.8%)"; "—" when no
/// plan on either side has the figure (`counted` false: serving plans have no cost or
/// GPU-hours, their cost is a month's, shown per plan). `value` formats each side (a Markdown
/// cell escapes it).
std::string total_transition(const FigureChange& like, double base, double head, bool counted,
                             std::string (*value)(std::string_view) = nullptr);

/// What a plan's change comes to in a few words: "cost +$1.41M (+18.3%), days +2.2 d, 1 new
/// error, 2 fixed"; an added or removed plan's headline figures ("new: cost $7.95M, 2048
/// GPUs"); "no figure moved" when none did.
std::string plan_gist(const PlanDiff& plan);

/// Which side's figures are computed once its findings' fixes are applied, and with what: "the
/// after figures are computed once cluster.peak is 989 TFLOPS (sparse-peak's fix)"; "" when
/// neither side's are.
std::string corrections_note(const PlanDiff& plan);

/// "4 plans changed (2 changed, 1 added, 1 removed)", or "no change".
std::string change_count(const DiffReport& report);

/// A target as `planlint report` names it: "'training time' (train.days at most 14 d)".
std::string target_text(const TargetFlip& target);
/// The fields an edited or re-ranged assumption changed, " (value, source)"; "" for the others.
std::string changed_fields(const AssumptionChange& change);
/// "met", "not met", "not computed".
std::string_view met_text(const std::optional<bool>& met);

/// A figure that stands for a total row's value (its spec and dimension), for figure_value.
FigureChange total_figure(std::string_view name);

/// The renderers.
void render_diff_text(std::ostream& out, const DiffReport& report, const DiffStyle& style);
void render_diff_markdown(std::ostream& out, const DiffReport& report, const DiffStyle& style);
void render_diff_json(std::ostream& out, const DiffReport& report);

}  // namespace planlint::detail
