#pragma once
/// toml++ document → typed Plan, with the native structure checks: toml-syntax, unknown-key,
/// bad-quantity, bad-value, missing-required, unknown-gpu.
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "planlint/catalog/catalog.hpp"
#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/plan/plan.hpp"

namespace planlint {

/// The most entries planlint reads in one array of tables ([[assumptions]], [[targets]],
/// [[benchmarks]]). A plan states a few dozen; each entry read costs its values and can cost a
/// finding of several hundred bytes, so 93,000 entries on one 2.8 MB line took 4 s and 58 MB of
/// text. It bounds what an `each` rule walks, too (rules/rule_cost.hpp). Fixed, as the TOML
/// nesting limit is (docs/hardening.md, "Input limits").
inline constexpr std::size_t max_array_entries = 10000;
/// The most [[stages]] a plan may hold: each is the plan again, estimated and checked.
inline constexpr std::size_t max_stages = 64;
/// The most [[capacity]] slices a plan may hold: every stage carries the plan's mix, and each
/// slice is a term of the blended price and goodput, so the slices times the stages stay small.
inline constexpr std::size_t max_capacity_slices = 64;

/// Parses and validates one plan file, reporting its findings (toml-syntax, unknown-key,
/// bad-quantity, bad-value, missing-required, unknown-gpu) to `findings`. The plan, unless the
/// text is not valid TOML; a plan with structure errors is still returned (bad values are left
/// out) so that later checks can run on what is valid. `catalog` resolves cluster.gpu and its
/// defaults. `toml_text`, when given, is parsed instead of the source's text: the source's lines
/// from `first_line` on (a Markdown block's, block_text); spans and diagnostics name `source`
/// at its own lines and columns. Findings about the plan as a whole, a missing section, point
/// at `first_line`'s first character.
Result<Plan> load_plan(std::shared_ptr<const SourceFile> source, const Catalog& catalog, DiagnosticSink& findings,
                       std::optional<std::string_view> toml_text = std::nullopt, std::uint32_t first_line = 1);

/// True when `text` is a TOML document with a top-level [plan] table (used to pick plan files
/// out of a folder). Never throws.
bool looks_like_plan(std::string_view text);

}  // namespace planlint
