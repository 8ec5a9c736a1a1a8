#include "planlint/settings/rule_packs.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/suggest.hpp"

namespace planlint {

namespace {

namespace fs = std::filesystem;

/// `written` with its last component replaced by the closest entry of the folder it names,
/// when there is one ("../org/polices/" → "../org/policies/"); nullopt otherwise.
std::optional<std::string> closest_sibling(const std::string& written, const std::string& resolved) {
  fs::path missing = fs::path(resolved).lexically_normal();
  if (missing.filename().empty()) missing = missing.parent_path();  // "policies/"
  const fs::path folder = missing.parent_path().empty() ? fs::path(".") : missing.parent_path();
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) || it->path().extension() == ".toml") names.push_back(it->path().filename().string());
  const std::vector<std::string_view> candidates(names.begin(), names.end());
  const auto match = closest_match(missing.filename().string(), candidates);
  if (!match) return std::nullopt;
  std::string_view head = written;
  const bool slash = head.ends_with('/');
  if (slash) head.remove_suffix(1);
  const std::size_t cut = head.rfind('/');
  head = cut == std::string_view::npos ? std::string_view() : head.substr(0, cut + 1);
  return fmt::format("{}{}{}", head, *match, slash ? "/" : "");
}

}  // namespace

Result<std::unique_ptr<RuleSet>> load_rule_packs(const Config* config, const std::vector<std::string>& extra,
                                                 DiagnosticSink& problems) {
  const bool config_packs = config != nullptr && !config->rules.empty();
  if (!config_packs && extra.empty()) return std::unique_ptr<RuleSet>();
  auto rules = std::make_unique<RuleSet>(RuleSet::with_builtin());
  std::vector<Diagnostic> pack_errors;
  auto missing = [&](std::string message, Location where) {
    Diagnostic d;
    d.rule = where.file.empty() ? problem_kinds::invalid_rule : problem_kinds::config;
    d.message = std::move(message);
    d.primary = std::move(where);
    problems.report(std::move(d));
  };
  if (config_packs) {
    for (const ConfigPath& pack : config->rules) {
      std::error_code ec;
      if (fs::exists(pack.resolved, ec)) {
        rules->load_path(pack.resolved, pack_errors);
        continue;
      }
      std::string message = fmt::format(
          "lint.rules names '{}', which does not exist (a pack is a rule file or folder, relative to the config's "
          "folder)",
          pack.written);
      if (auto suggestion = closest_sibling(pack.written, pack.resolved))
        message += fmt::format("; did you mean '{}'?", *suggestion);
      missing(std::move(message), Location{config->path, pack.span});
    }
  }
  for (const std::string& pack : extra) {
    std::error_code ec;
    if (!fs::exists(pack, ec)) {
      missing(fmt::format("cannot read rule pack '{}': No such file or directory", pack), Location{});
      continue;
    }
    rules->load_path(pack, pack_errors);
  }
  // A pack's rule may supersede a rule of a pack loaded after it: checked once all are in.
  if (pack_errors.empty()) rules->check_supersedes(pack_errors);
  for (Diagnostic& d : pack_errors) problems.report(std::move(d));
  if (!pack_errors.empty()) return Error("invalid rule pack");
  return rules;
}

}  // namespace planlint
