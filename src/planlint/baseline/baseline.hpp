#pragma once
/// Baselines (`--write-baseline FILE`, `--baseline FILE`): the findings a team has accepted,
/// keyed by file, rule and TOML key path rather than by line, so that edits elsewhere in a plan
/// keep them valid. A JSON file:
///
///     {"version": 1, "entries": [{"file": "plans/a.toml", "rule": "assumption-stale",
///       "key": "assumptions[id=mfu].updated", "digest": "3f2a9c1e", "count": 1, "message": "..."}]}
///
/// `file` is relative to the baseline's own folder; `key` is the finding's key path, which names
/// an element of an array of tables by its id, name, or metric and date (plan/element_keys.hpp)
/// and a suppression's own findings by the comment ("#allow(memory-fit)@1a2b3c4d"); `digest` is
/// a short hash of the message that tells apart findings sharing file, rule and key; `message`
/// is for people.
///
/// A finding matches an entry with the same file, rule, key and digest, else one with the same
/// file, rule and key when that key names its value: not empty and no index ("benchmarks[2]",
/// an element without a name). An index says where, not which: by the key alone such an entry
/// would accept whatever finding took the element's place. An older baseline's entries, keyed
/// by index ("assumptions[0].updated"), "" for a suppression's findings, or without the plan's
/// key in a Markdown doc of one plan, match the keys of FormerKeys. docs/cli.md, "Baselines".
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/source/limits.hpp"

namespace planlint {

struct BaselineEntry {
  std::string file;  ///< relative to the baseline's folder, '/'-separated
  std::string rule;
  std::string key;
  std::string digest;
  std::size_t count = 1;
  std::string message;
  /// The findings it accepted in this run (BaselineMatcher::apply); count is then what is left.
  std::size_t matched = 0;
};

struct Baseline {
  std::string path;
  std::vector<BaselineEntry> entries;
};

/// Maps a diagnostic's display path to the baseline's file key.
using BaselineFileKey = std::function<std::string(const std::string& display_path)>;

/// The file key of a baseline at `baseline_path`: a display path relative to the baseline's
/// folder, '/'-separated.
BaselineFileKey baseline_file_key(const std::string& baseline_path);

/// How older releases keyed a file's findings, for the baselines they wrote: made by the lint
/// of the file (lint/lint.hpp FileResult), read by BaselineMatcher::apply.
struct FormerKeys {
  /// A finding's key path → the one older releases gave it, matched with the message's digest:
  /// an element by its index before elements were named ("assumptions[id=mfu].updated" →
  /// "assumptions[0].updated"), and "" for the findings of a suppression, which shared one key.
  std::unordered_map<std::string, std::string> earlier;
  /// The key of a Markdown doc's only plan ("plans[name=a]"), or empty: its findings were keyed
  /// without it before every doc's plans were ("cluster.hbm"), and match those keys as their own.
  std::string only_plan_key;
};

/// 8 hex digits of a hash of `message`.
std::string message_digest(std::string_view message);

/// Entries for the findings that are not suppressed, merged (count) and sorted.
std::vector<BaselineEntry> baseline_entries(const std::vector<Diagnostic>& diagnostics,
                                            const BaselineFileKey& file_key);

/// The baseline file's text.
std::string baseline_text(const std::vector<BaselineEntry>& entries);

/// What a baseline may hold, so that reading one takes a bounded multiple of its size (about 10
/// times: an entry is read into about 200 bytes, and a baseline's JSON is never a tree).
struct BaselineLimits {
  /// The fewest bytes of the size limit an entry may take on average: a baseline planlint
  /// writes takes about 200 an entry, the least a valid one can is 22.
  static constexpr std::size_t bytes_per_entry = 64;

  explicit BaselineLimits(std::size_t max_file_bytes = default_max_file_bytes);

  std::size_t max_file_bytes;  ///< --max-file-size, which the file was read with
  std::size_t max_entries;     ///< max_file_bytes / bytes_per_entry
  std::size_t max_depth = 64;  ///< levels of nesting: planlint writes 3
};

/// Parses a baseline file's text, entry by entry as it is read (reading.cpp); the error says
/// why it is not one ("not valid JSON: ...") or the limit it is over.
Result<Baseline> parse_baseline(std::string path, std::string_view text, const BaselineLimits& limits = BaselineLimits());

/// Applies a baseline file by file, as a run delivers them: the entries' counts are used up as
/// findings match, and what is left over is stale.
class BaselineMatcher {
 public:
  BaselineMatcher(const Baseline& baseline, BaselineFileKey file_key);
  BaselineMatcher(Baseline&& baseline, BaselineFileKey file_key);

  /// Marks the findings the baseline accepts (Suppression kind baseline). An entry matches first
  /// a finding with the same file, rule, key and digest, then, when its key names its value (not
  /// empty, no index), one with the same file, rule and key (so a message whose numbers changed
  /// stays accepted). An entry can match only the findings of its own file, so applying the
  /// findings file by file marks what applying them all at once would.
  /// `former` is how older releases keyed the file's findings.
  void apply(std::vector<Diagnostic>& diagnostics, const FormerKeys& former = {});

  /// Notes that the file of `display_path` was linted (stale() reports its entries).
  void linted(const std::string& display_path);

  /// The entries, with the count left over, that matched nothing in a file for which
  /// `linted(file key)` is true.
  std::vector<BaselineEntry> stale(const std::function<bool(const std::string&)>& linted) const;
  /// The same for the files noted with linted(display_path).
  std::vector<BaselineEntry> stale() const;
  /// stale(), without copies of the entries: they live as long as the matcher.
  std::vector<const BaselineEntry*> stale_entries(const std::function<bool(const std::string&)>& linted) const;
  std::vector<const BaselineEntry*> stale_entries() const;

 private:
  BaselineFileKey file_key_;
  Suppression accepted_;
  std::vector<BaselineEntry> left_;
  /// By position in left_: whether the entry may match a finding by file, rule and key alone.
  std::vector<bool> by_key_alone_;
  /// File key → the positions in left_ of its entries, in the baseline's order.
  std::unordered_map<std::string, std::vector<std::size_t>> by_file_;
  std::unordered_set<std::string> linted_;  ///< file keys
};

/// --baseline FILE: the file read (at most `max_file_bytes`, --max-file-size) and parsed, its
/// entries keyed with baseline_file_key. The error names the file and says why it cannot be
/// used, or the limit it is over.
Result<BaselineMatcher> load_baseline(const std::string& path, std::size_t max_file_bytes = default_max_file_bytes);

/// The notes a run with --baseline `path` ends with (lines for stderr): each entry of a linted
/// file that no longer matches, or matches fewer findings, and the entries of each file that is
/// gone (renamed, deleted), which --write-baseline would drop.
std::vector<std::string> baseline_notes(const BaselineMatcher& matcher, const std::string& path);

/// --write-baseline `path`: the baseline of the findings of `files` (each file's findings, in
/// the report's order), to be written with baseline_text().
Baseline record_baseline(const std::string& path, std::span<std::vector<Diagnostic>* const> files);

/// After `recorded` is written: marks the findings of `files` it records accepted, as
/// --baseline will from now on. Returns the line for stderr ("planlint: wrote 3 findings to
/// the baseline b.json").
std::string accept_recorded(const Baseline& recorded, std::span<std::vector<Diagnostic>* const> files);

/// Marks the findings the baseline accepts, as BaselineMatcher::apply does. Returns the entries, with the count
/// left over, that matched nothing in a file for which `linted(file key)` is true.
std::vector<BaselineEntry> apply_baseline(std::vector<Diagnostic>& diagnostics, const Baseline& baseline,
                                          const BaselineFileKey& file_key,
                                          const std::function<bool(const std::string&)>& linted);

}  // namespace planlint
