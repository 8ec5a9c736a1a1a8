#include "planlint/fix/files.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/printable.hpp"
#include "planlint/files/output_file.hpp"

namespace planlint::fix {

std::vector<FixedFile> plan_fixes(const Report& report, const SafetyOf& safety, bool include_unsafe,
                                  std::vector<std::string>* notes) {
  std::map<std::string_view, std::vector<Diagnostic>> by_file;
  for (const Diagnostic& d : report.diagnostics)
    if (!d.fixes.empty() || d.rule == native_rules::toml_syntax) by_file[d.primary.file].push_back(d);
  std::vector<FixedFile> files;
  for (const auto& source : report.files) {
    auto found = by_file.find(source->path());
    if (found == by_file.end()) continue;
    FileFixes fixes = collect_fixes(*source, found->second, safety, include_unsafe);
    by_file.erase(found);  // a file reached twice is fixed once
    if (fixes.edits.empty()) {
      if (notes) notes->insert(notes->end(), fixes.notes.begin(), fixes.notes.end());
      continue;
    }
    files.push_back({source->path(), source->text(), std::move(fixes.edits), fixes.fixed, std::move(fixes.notes)});
  }
  return files;
}

void fix_to_fixed_point(FixedFile& file, const Relint& relint, const SafetyOf& safety, bool include_unsafe) {
  for (int pass = 2; pass <= max_fix_passes; ++pass) {
    const std::string text = apply_edits(file.before, file.edits);
    const std::optional<std::vector<Diagnostic>> findings = relint(file.path, text);
    if (!findings) return;
    const SourceFile source(file.path, text);
    FileFixes fixes = collect_fixes(source, *findings, safety, include_unsafe);
    // The notes of the last pass: those of earlier ones were about a text that is gone, and a
    // fix dropped then is dropped again now.
    file.notes = std::move(fixes.notes);
    if (fixes.edits.empty()) return;
    file.edits = compose_edits(file.before, file.edits, fixes.edits);
    file.fixed += fixes.fixed;
  }
  const std::string text = apply_edits(file.before, file.edits);
  if (const std::optional<std::vector<Diagnostic>> findings = relint(file.path, text)) {
    const SourceFile source(file.path, text);
    if (!collect_fixes(source, *findings, safety, include_unsafe).edits.empty())
      file.notes.push_back(fmt::format("{}: fixes still change the file after {} passes; run --fix again to make "
                                       "the rest, and look at what they do",
                                       printable_path(file.path), max_fix_passes));
  }
}

Result<void> write_fixed(const FixedFile& file) {
  // One helper for every file planlint writes (files/output_file.hpp): the folder is resolved
  // once and held, so the file compared here is the one replaced, wherever its folder moves.
  Result<OutputFile> target = OutputFile::open(file.path, OutputTarget{"--fix", false, false});
  if (!target) return target.error();
  auto refuse = [&](std::string_view why) { return Error(fmt::format("--fix {}: {}", file.path, why)); };
  constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
  Result<std::string> now =
      target->read_regular(std::max(file.before.size() + byte_order_mark.size(), default_max_file_bytes));
  if (!now) return now.error().message.starts_with("--fix ") ? now.error() : refuse(now.error().message);
  std::string prefix;
  if (*now != file.before) {
    if (now->size() == file.before.size() + 3 && now->starts_with(byte_order_mark) &&
        std::string_view(*now).substr(3) == file.before)
      prefix = byte_order_mark;
    else
      return refuse("it changed since it was linted");
  }
  return target->write(prefix + apply_edits(file.before, file.edits));
}

}  // namespace planlint::fix
