#pragma once
/// Fixing the files of a report on disk (`planlint check --fix`, `--diff`): which files change
/// and how, and writing each atomically, never through a symbolic link.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "planlint/emit/lint_report.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/fix/edits.hpp"

namespace planlint::fix {

/// A linted file that its findings' fixes change.
struct FixedFile {
  std::string path;    ///< as linted
  std::string before;  ///< the text linted (without a byte order mark)
  std::vector<TextEdit> edits;
  std::size_t fixed = 0;  ///< findings fixed
  /// Why fixes were not made (FileFixes::notes), and whether the passes ran out.
  std::vector<std::string> notes;
};

/// The files of `report` that fixes change, in the report's order (collect_fixes per file).
/// `notes` gets the notes of the files no fix changes (every fix of theirs dropped).
std::vector<FixedFile> plan_fixes(const Report& report, const SafetyOf& safety, bool include_unsafe,
                                  std::vector<std::string>* notes = nullptr);

/// Lints `text` as the file `path` is linted (the run's config, rules and options): its
/// findings, or nullopt when it cannot be linted.
using Relint = std::function<std::optional<std::vector<Diagnostic>>(const std::string& path, const std::string& text)>;

/// The passes `--fix` and `--diff` make over a file, the first included (ruff's fix loop is
/// bounded the same way): a fix can bring another finding to light (a key renamed, then its
/// value read), and a fix left for overlapping another's waits for the next pass.
inline constexpr int max_fix_passes = 10;

/// Makes `file`'s fixes, lints the text they make and fixes that, pass after pass, until a pass
/// finds nothing to fix — so that a second `--fix` run changes nothing — or max_fix_passes
/// have run (then a note says so). `file.edits` become the edits of every pass, as edits of
/// `file.before`; `file.fixed` counts them all.
void fix_to_fixed_point(FixedFile& file, const Relint& relint, const SafetyOf& safety, bool include_unsafe);

/// Writes the fixed text over the file as every output is written (files/output_file.hpp, as
/// `--fix`): its folder resolved once and held, a temporary file there renamed over it, with
/// its permissions, keeping a byte order mark it had. Not written, with the reason, naming
/// --fix: a file that is a symbolic link or under a linked folder of the working directory
/// (what it names may be another's), not a regular file, or that no longer holds the text
/// linted (changed meanwhile).
Result<void> write_fixed(const FixedFile& file);

}  // namespace planlint::fix
