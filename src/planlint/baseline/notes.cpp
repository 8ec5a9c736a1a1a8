// What a run with --baseline says about the baseline when it ends.
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "planlint/baseline/baseline.hpp"

namespace planlint {

std::vector<std::string> baseline_notes(const BaselineMatcher& matcher, const std::string& path) {
  std::vector<std::string> notes;
  for (const BaselineEntry* stale : matcher.stale_entries()) {
    const BaselineEntry& entry = *stale;
    const std::string where = fmt::format("{} [{}]{}{}", entry.file, entry.rule, entry.key.empty() ? "" : " at ", entry.key);
    // An entry of several findings that still accepts some: say how many went, not that the
    // entry matches nothing.
    if (entry.matched > 0)
      notes.push_back(fmt::format(
          "planlint: note: baseline entry matches fewer findings: {}: {} of its {} no longer found ({})", where,
          entry.count, entry.count + entry.matched, path));
    else
      notes.push_back(fmt::format("planlint: note: baseline entry no longer matches: {}{} ({})", where,
                                  entry.count > 1 ? fmt::format(", {} findings", entry.count) : "", path));
  }
  // Entries of a file that is gone (renamed with `git mv`, deleted) match nothing again and
  // were never named: one line a file, whatever this run lints.
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::absolute(path, ec).lexically_normal().parent_path();
  struct Gone {
    std::size_t entries = 0;
    std::size_t findings = 0;  // an entry of identical findings records their count
  };
  std::map<std::string, Gone> gone;
  std::map<std::string, bool, std::less<>> is_gone;  // a file of many entries is looked up once
  for (const BaselineEntry* entry : matcher.stale_entries([&](const std::string& file) {
         auto [it, added] = is_gone.try_emplace(file, false);
         if (added) {
           std::error_code missing;
           it->second = !std::filesystem::exists(folder / file, missing) && !missing;
         }
         return it->second;
       })) {
    Gone& of_file = gone[entry->file];
    ++of_file.entries;
    of_file.findings += entry->count;
  }
  // Entries are what --write-baseline drops; the findings they cover are named too when an
  // entry holds several (the sum alone read as "4 entries" for two).
  for (const auto& [file, count] : gone) {
    std::string entries = count.entries == 1 ? "an entry" : fmt::format("{} entries", count.entries);
    if (count.findings > count.entries) entries += fmt::format(" ({} findings)", count.findings);
    notes.push_back(fmt::format(
        "planlint: note: the baseline has {} for a file that no longer exists: {} ({}); rewrite the baseline with "
        "--write-baseline to drop {}",
        entries, file, path, count.entries == 1 ? "it" : "them"));
  }
  return notes;
}

}  // namespace planlint
