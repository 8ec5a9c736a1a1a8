#pragma once
/// Findings' fixes as edits of a text, applied together, and the unified diff they make:
/// what `planlint check --fix` and `--diff` do to each file, and what an editor's code action
/// applies (docs/cli.md, "Fix findings").
///
///     FileFixes fixes = collect_fixes(source, diagnostics, fix_safety_of(rules), false);
///     std::string fixed = apply_edits(source.text(), fixes.edits);
///     std::cout << unified_diff(source.text(), fixes.edits, source.path());
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/rule_descriptor.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint::fix {

/// Replace text[begin, end) with `replacement`.
struct TextEdit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string replacement;
  friend bool operator==(const TextEdit&, const TextEdit&) = default;
};

/// A rule's fix safety by rule id (FixSafety::none for an id it does not know).
using SafetyOf = std::function<FixSafety(std::string_view rule)>;

/// The safety of each of `rules`' fixes, by id.
SafetyOf fix_safety_of(const std::vector<RuleDescriptor>& rules);

/// The edits of one file.
struct FileFixes {
  std::vector<TextEdit> edits;  ///< sorted by position, none overlapping another
  std::size_t fixed = 0;        ///< findings whose fixes the edits make
  std::size_t left = 0;         ///< findings with a fix that applies but overlaps an earlier one's
  std::size_t dropped = 0;      ///< findings whose fix would break the file (see `notes`)
  /// Why each dropped fix is not made, a line each: "plan.toml:26:1: the fixes of 'hmb' and
  /// 'hbn' are not made: ...", under the printable policy.
  std::vector<std::string> notes;
};

/// The edits that fix `diagnostics`, findings in `source`: those of findings that are not
/// suppressed, whose rule's fix is safe (or unsafe too, with `include_unsafe`), with every edit
/// in `source`. A finding's edits make one change: when one of them overlaps an edit already
/// taken, the finding is left whole (the next pass fixes it). A fix is made only when the file
/// still parses after all of them and it renames no key onto another (fix/validate.hpp);
/// conflicting renames of one key are all dropped, with a note. Nothing in a file with a
/// `toml-syntax` finding is fixed: a fix there could land anywhere.
FileFixes collect_fixes(const SourceFile& source, const std::vector<Diagnostic>& diagnostics,
                        const SafetyOf& safety, bool include_unsafe);

/// `text` with `edits` (sorted, not overlapping, inside the text) made.
std::string apply_edits(std::string_view text, const std::vector<TextEdit>& edits);

/// The edits of `text` that make what `first`, then `second` (edits of apply_edits(text,
/// first)) make: one list, sorted and not overlapping, for a diff of the two passes against
/// the text as it was. Edits of the two that touch are merged into one.
std::vector<TextEdit> compose_edits(std::string_view text, const std::vector<TextEdit>& first,
                                    const std::vector<TextEdit>& second);

/// The unified diff (`diff -u`, `patch -p0` applies it) that `edits` make to `text`, naming the
/// file `path` on both sides, with `context` unchanged lines around each change; "" without
/// edits. Its cost is linear in the text and the edits.
std::string unified_diff(std::string_view text, const std::vector<TextEdit>& edits, std::string_view path,
                         std::size_t context = 3);

}  // namespace planlint::fix
