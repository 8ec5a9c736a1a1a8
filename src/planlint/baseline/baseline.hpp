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
/// by index ("assumptions[0].updated") and "" for a suppression's findings, match a finding's
/// Diagnostic::legacy_key_path, with the digest. docs/cli.md, "Baselines".
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "planlint/diag/diagnostic.hpp"

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

/// 8 hex digits of a hash of `message`.
std::string message_digest(std::string_view message);

/// Entries for the findings that are not suppressed, merged (count) and sorted.
std::vector<BaselineEntry> baseline_entries(const std::vector<Diagnostic>& diagnostics,
                                            const BaselineFileKey& file_key);

/// The baseline file's text.
std::string baseline_text(const std::vector<BaselineEntry>& entries);

/// Parses a baseline file's text; nullopt with `error` set when it is not one.
std::optional<Baseline> parse_baseline(std::string path, std::string_view text, std::string& error);

/// Applies a baseline file by file, as a run delivers them: the entries' counts are used up as
/// findings match, and what is left over is stale.
class BaselineMatcher {
 public:
  BaselineMatcher(const Baseline& baseline, BaselineFileKey file_key);

  /// Marks the findings the baseline accepts (Suppression kind baseline). An entry matches first
  /// a finding with the same file, rule, key and digest, then, when its key names its value (not
  /// empty, no index), one with the same file, rule and key (so a message whose numbers changed
  /// stays accepted). An entry can match only the findings of its own file, so applying the
  /// findings file by file marks what applying them all at once would.
  void apply(std::vector<Diagnostic>& diagnostics);

  /// Notes that the file of `display_path` was linted (stale() reports its entries).
  void linted(const std::string& display_path);

  /// The entries, with the count left over, that matched nothing in a file for which
  /// `linted(file key)` is true.
  std::vector<BaselineEntry> stale(const std::function<bool(const std::string&)>& linted) const;
  /// The same for the files noted with linted(display_path).
  std::vector<BaselineEntry> stale() const;

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

/// Marks the findings the baseline accepts, as BaselineMatcher::apply does. Returns the entries, with the count
/// left over, that matched nothing in a file for which `linted(file key)` is true.
std::vector<BaselineEntry> apply_baseline(std::vector<Diagnostic>& diagnostics, const Baseline& baseline,
                                          const BaselineFileKey& file_key,
                                          const std::function<bool(const std::string&)>& linted);

}  // namespace planlint
