#include "planlint/baseline/baseline.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "planlint/source/regular_file.hpp"
#include "planlint/plan/element_keys.hpp"
#include "planlint/source/source_file.hpp"

namespace planlint {

namespace {

using json = nlohmann::ordered_json;

auto identity(const BaselineEntry& e) { return std::tie(e.file, e.rule, e.key, e.digest); }

/// A baseline is JSON, which holds only UTF-8: a file name with other bytes is recorded, and
/// matched, with each such byte replaced by U+FFFD.
std::string as_utf8(std::string text) {
  const bool ascii = std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; });
  if (ascii) return text;
  return json::parse(json(text).dump(-1, ' ', false, json::error_handler_t::replace)).get<std::string>();
}

}  // namespace

std::string message_digest(std::string_view message) { return text_digest(message); }

std::vector<BaselineEntry> baseline_entries(const std::vector<Diagnostic>& diagnostics,
                                            const BaselineFileKey& file_key) {
  std::vector<BaselineEntry> entries;
  // Identity → position in `entries`: merging by a scan of the entries made writing the
  // baseline of a large folder quadratic.
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::size_t> position;
  for (const Diagnostic& d : diagnostics) {
    if (d.suppression && d.suppression->kind == Suppression::Kind::inline_comment) continue;
    BaselineEntry entry{as_utf8(file_key(d.primary.file)), d.rule, d.key_path, message_digest(d.message), 1,
                        d.message};
    auto [same, added] = position.try_emplace({entry.file, entry.rule, entry.key, entry.digest}, entries.size());
    if (added) entries.push_back(std::move(entry));
    else ++entries[same->second].count;
  }
  std::sort(entries.begin(), entries.end(),
            [](const BaselineEntry& a, const BaselineEntry& b) { return identity(a) < identity(b); });
  return entries;
}

std::string baseline_text(const std::vector<BaselineEntry>& entries) {
  json list = json::array();
  for (const BaselineEntry& e : entries)
    list.push_back({{"file", e.file},
                    {"rule", e.rule},
                    {"key", e.key},
                    {"digest", e.digest},
                    {"count", e.count},
                    {"message", e.message}});
  json doc = {{"version", 1}, {"tool", "planlint"}, {"entries", std::move(list)}};
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";  // messages may quote bytes that are not UTF-8
}

BaselineMatcher::BaselineMatcher(const Baseline& baseline, BaselineFileKey file_key)
    : BaselineMatcher(Baseline(baseline), std::move(file_key)) {}

BaselineMatcher::BaselineMatcher(Baseline&& baseline, BaselineFileKey file_key)
    : file_key_(std::move(file_key)),
      accepted_{Suppression::Kind::baseline, fmt::format("accepted in the baseline {}", baseline.path),
                Location{baseline.path, {}}},
      left_(std::move(baseline.entries)) {
  for (std::size_t i = 0; i < left_.size(); ++i) {
    by_file_[left_[i].file].push_back(i);
    const std::string& key = left_[i].key;
    by_key_alone_.push_back(!key.empty() && !has_positional_index(key));
  }
}

void BaselineMatcher::apply(std::vector<Diagnostic>& diagnostics, const FormerKeys& former) {
  // Each finding's entries (those of its file); findings of a file the baseline does not name
  // have none and are passed over.
  std::vector<const std::vector<std::size_t>*> entries_of(diagnostics.size(), nullptr);
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    if (diagnostics[i].suppression) continue;
    auto it = by_file_.find(as_utf8(file_key_(diagnostics[i].primary.file)));
    if (it != by_file_.end()) entries_of[i] = &it->second;
  }
  // The keys older releases gave a finding: its earlier key (an element by index, or "" for a
  // suppression's findings), matched with the digest, and its key without the plan's in a doc
  // of one plan, matched as its own key.
  auto earlier_key = [&](const Diagnostic& d) -> const std::string* {
    auto it = former.earlier.find(d.key_path);
    return it == former.earlier.end() ? nullptr : &it->second;
  };
  auto unprefixed_key = [&](const Diagnostic& d) -> std::optional<std::string> {
    if (former.only_plan_key.empty()) return std::nullopt;
    return key_outside_block(former.only_plan_key, d.key_path);
  };
  // Pass 1: the same rule and digest, and the same key, or a key an older planlint gave the
  // finding. Pass 2: the same rule and key alone, for a key that says which value it is (so a
  // message whose numbers changed stays accepted); an empty key, or one with an index, would
  // accept whatever finding took its place.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < diagnostics.size(); ++i) {
      Diagnostic& d = diagnostics[i];
      if (d.suppression || entries_of[i] == nullptr) continue;
      const std::string digest = pass == 0 ? message_digest(d.message) : std::string();
      const std::string* earlier = pass == 0 ? earlier_key(d) : nullptr;
      const std::optional<std::string> unprefixed = unprefixed_key(d);
      for (std::size_t index : *entries_of[i]) {
        BaselineEntry& entry = left_[index];
        if (entry.count == 0 || entry.rule != d.rule) continue;
        const bool same_key = entry.key == d.key_path || entry.key == unprefixed;
        if (pass == 0) {
          if (entry.digest != digest) continue;
          if (!same_key && !(earlier && entry.key == *earlier)) continue;
        } else if (!by_key_alone_[index] || !same_key) {
          continue;
        }
        --entry.count;
        ++entry.matched;
        d.suppression = accepted_;
        break;
      }
    }
  }
}

void BaselineMatcher::linted(const std::string& display_path) { linted_.insert(file_key_(display_path)); }

std::vector<BaselineEntry> BaselineMatcher::stale() const {
  return stale([this](const std::string& file) { return linted_.count(file) > 0; });
}

std::vector<BaselineEntry> BaselineMatcher::stale(const std::function<bool(const std::string&)>& linted) const {
  std::vector<BaselineEntry> stale;
  for (const BaselineEntry* entry : stale_entries(linted)) stale.push_back(*entry);
  return stale;
}

std::vector<const BaselineEntry*> BaselineMatcher::stale_entries(
    const std::function<bool(const std::string&)>& linted) const {
  std::vector<const BaselineEntry*> stale;
  for (const BaselineEntry& entry : left_)
    if (entry.count > 0 && linted(entry.file)) stale.push_back(&entry);
  return stale;
}

std::vector<const BaselineEntry*> BaselineMatcher::stale_entries() const {
  return stale_entries([this](const std::string& file) { return linted_.count(file) > 0; });
}

std::vector<BaselineEntry> apply_baseline(std::vector<Diagnostic>& diagnostics, const Baseline& baseline,
                                          const BaselineFileKey& file_key,
                                          const std::function<bool(const std::string&)>& linted) {
  BaselineMatcher matcher(baseline, file_key);
  matcher.apply(diagnostics);
  return matcher.stale(linted);
}

BaselineFileKey baseline_file_key(const std::string& baseline_path) {
  std::error_code ec;
  std::filesystem::path folder = std::filesystem::absolute(baseline_path, ec).lexically_normal().parent_path();
  return [folder](const std::string& display_path) {
    std::error_code ec;
    std::filesystem::path file = std::filesystem::absolute(display_path, ec).lexically_normal();
    std::filesystem::path relative = file.lexically_relative(folder);
    return (relative.empty() ? file : relative).generic_string();
  };
}

Result<BaselineMatcher> load_baseline(const std::string& path, std::size_t max_file_bytes) {
  Result<Baseline> baseline = Error("");
  {
    Result<std::string> text = read_regular_file(path, max_file_bytes);
    baseline = text ? parse_baseline(path, *text, BaselineLimits(max_file_bytes)) : Result<Baseline>(text.error());
  }  // the text is not held beside its entries
  if (!baseline) return Error(fmt::format("cannot read baseline '{}': {}", path, baseline.error().message));
  return BaselineMatcher(*std::move(baseline), baseline_file_key(path));
}

}  // namespace planlint
