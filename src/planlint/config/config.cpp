#include "planlint/config/config.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <span>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/files/held_folder.hpp"
#include "planlint/source/regular_file.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/source/repository.hpp"
#include "planlint/source/toml_limits.hpp"
#include "planlint/source/toml_span.hpp"

namespace planlint {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view lint_keys[] = {"select",  "ignore",  "severity", "rules",    "fail_on",
                                          "options", "catalog", "exclude",  "docs_url", "respect_gitignore"};
constexpr std::string_view tolerance_keys[] = {"capacity", "cost", "formula_vs_benchmark"};

class Reader {
 public:
  Reader(const SourceFile& file, DiagnosticSink& errors, ConfigOrigin origin)
      : file_(file), errors_(errors), origin_(origin) {}

  void error(const toml::source_region& region, std::string message,
             std::optional<std::string> help = std::nullopt) {
    Diagnostic d;
    d.rule = problem_kinds::config;
    d.severity = Severity::error;
    d.message = std::move(message);
    d.primary = Location{file_.path(), columns_.span(region)};
    d.help = std::move(help);
    errors_.report(std::move(d));
    failed_ = true;
  }

  void unknown(const toml::key& key, std::string_view where, std::span<const std::string_view> known) {
    std::vector<std::string_view> candidates(known.begin(), known.end());
    auto suggestion = closest_match(key.str(), candidates);
    error(key.source(), fmt::format("unknown key '{}' in {}", key.str(), where),
          suggestion ? std::optional(fmt::format("did you mean '{}'?", *suggestion)) : std::nullopt);
  }

  std::optional<std::vector<std::string>> strings(const toml::node& node, std::string_view name) {
    const toml::array* array = node.as_array();
    if (!array) {
      error(node.source(), fmt::format("{} must be an array of strings", name));
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (const toml::node& item : *array) {
      if (!item.is_string()) {
        error(item.source(), fmt::format("{} must be an array of strings", name));
        return std::nullopt;
      }
      out.push_back(std::string(*item.value<std::string_view>()));
    }
    return out;
  }

  std::optional<std::string> string(const toml::node& node, std::string_view name) {
    if (!node.is_string()) {
      error(node.source(), fmt::format("{} must be a string", name));
      return std::nullopt;
    }
    return std::string(*node.value<std::string_view>());
  }

  /// A number, or a quantity string ("90 d", "10%").
  std::optional<units::Quantity> quantity(const toml::node& node, std::string_view name) {
    if (node.is_integer() || node.is_floating_point()) {
      const double value = *node.value<double>();
      // NaN passes every comparison as false: a NaN tolerance turned estimate-mismatch off.
      if (!std::isfinite(value)) {
        error(node.source(), fmt::format("{} must be a finite number", name));
        return std::nullopt;
      }
      return units::Quantity{value, units::dims::none};
    }
    if (!node.is_string()) {
      error(node.source(), fmt::format("{} must be a number or a quantity string", name));
      return std::nullopt;
    }
    std::string_view text = *node.value<std::string_view>();
    units::QuantityResult parsed = units::parse_quantity(text);
    if (const auto* problem = std::get_if<units::QuantityError>(&parsed)) {
      error(node.source(), fmt::format("{} = \"{}\" is not a quantity: {}", name, text, problem->message));
      return std::nullopt;
    }
    if (!std::isfinite(std::get<units::Quantity>(parsed).value)) {
      error(node.source(), fmt::format("{} = \"{}\" must be finite", name, text));
      return std::nullopt;
    }
    return std::get<units::Quantity>(parsed);
  }

  std::string relative_to_config(const std::string& path) const {
    fs::path p(path);
    if (p.is_absolute()) return p.lexically_normal().string();
    fs::path folder = fs::path(file_.path()).parent_path();
    return (folder / p).lexically_normal().string();
  }

  /// relative_to_config(written), or nullopt after an error at `node` when a discovered config
  /// names a file outside its repository: a pull request can add a `.planlint.toml`, and it
  /// must not make planlint read `/proc/self/environ`, `../../secrets` or `/dev/tty`. The
  /// check resolves symbolic links (a link in the tree to a file outside is outside).
  std::optional<std::string> confined(const std::string& written, const toml::node& node, std::string_view key) {
    std::string resolved = relative_to_config(written);
    if (origin_ == ConfigOrigin::command_line) return resolved;
    std::error_code ec;
    if (root_.empty()) {
      const fs::path folder = fs::absolute(fs::path(file_.path()), ec).lexically_normal().parent_path();
      root_ = fs::weakly_canonical(repository_root(folder.string()), ec);
    }
    const fs::path real = fs::weakly_canonical(fs::absolute(resolved, ec), ec);
    const fs::path inside = real.lexically_relative(root_);
    if (!ec && !inside.empty() && *inside.begin() != ".." && !inside.is_absolute()) return resolved;
    error(node.source(),
          fmt::format("{} = \"{}\" names a file outside the repository ('{}'): a .planlint.toml found beside "
                      "the linted files names only files inside it",
                      key, written, root_.string()),
          "keep the file in the repository, or name it on the command line (--config, --rules), which may name any");
    return std::nullopt;
  }

  void read_lint(const toml::table& lint, Config& config) {
    for (const auto& [key, node] : lint) {
      const std::string_view name = key.str();
      if (name == "select" || name == "ignore") {
        const std::string where = fmt::format("lint.{}", name);
        auto list = strings(node, where);  // an array of strings when not nullopt
        if (list)
          for (std::size_t i = 0; i < list->size(); ++i)
            config.names.push_back({where, (*list)[i], columns_.span((*node.as_array())[i].source())});
        (name == "select" ? config.select : config.ignore) = std::move(list);
      }
      else if (name == "rules") {
        if (auto list = strings(node, "lint.rules"))
          for (std::size_t i = 0; i < list->size(); ++i)
            if (auto resolved = confined((*list)[i], (*node.as_array())[i], "lint.rules"))
              config.rules.push_back({(*list)[i], *resolved, columns_.span((*node.as_array())[i].source())});
      } else if (name == "catalog") {
        // One file, or a list of them (docs/catalog.md: `[lint] catalog = [...]`).
        if (node.is_string()) {
          if (auto resolved = confined(std::string(*node.value<std::string_view>()), node, "lint.catalog"))
            config.catalogs.push_back(*resolved);
        } else if (node.is_array()) {
          if (auto list = strings(node, "lint.catalog"))
            for (std::size_t i = 0; i < list->size(); ++i)
              if (auto resolved = confined((*list)[i], (*node.as_array())[i], "lint.catalog"))
                config.catalogs.push_back(*resolved);
        } else {
          error(node.source(), "lint.catalog must be a file name or an array of them");
        }
      } else if (name == "docs_url") {
        if (auto url = string(node, "lint.docs_url")) {
          if (url->starts_with("https://") || url->starts_with("http://")) config.docs_url = std::move(*url);
          else error(node.source(), fmt::format("lint.docs_url = \"{}\": expected an http:// or https:// URL", *url));
        }
      } else if (name == "exclude") {
        if (auto list = strings(node, "lint.exclude")) config.exclude = std::move(*list);
      } else if (name == "respect_gitignore") {
        if (const std::optional<bool> respect = node.value_exact<bool>()) config.respect_gitignore = *respect;
        else error(node.source(), "lint.respect_gitignore must be true or false");
      } else if (name == "fail_on") {
        if (auto level = string(node, "lint.fail_on")) {
          config.fail_on = parse_severity(*level);
          if (!config.fail_on) error(node.source(), fmt::format("lint.fail_on = \"{}\": expected error, warning or note", *level));
        }
      } else if (name == "severity") {
        read_severity(node, config);
      } else if (name == "options") {
        const toml::table* options = node.as_table();
        if (!options) {
          error(node.source(), "lint.options must be a table");
          continue;
        }
        for (const auto& [option, value] : *options) {
          config.names.push_back({"lint.options", std::string(option.str()), columns_.span(option.source())});
          if (auto q = quantity(value, fmt::format("lint.options.{}", option.str())))
            config.options[std::string(option.str())] = *q;
        }
      } else {
        unknown(key, "[lint]", lint_keys);
      }
    }
  }

  void read_severity(const toml::node& node, Config& config) {
    const toml::table* table = node.as_table();
    if (!table) {
      error(node.source(), "lint.severity must be a table of rule id = level");
      return;
    }
    for (const auto& [rule, value] : *table) {
      config.names.push_back({"lint.severity", std::string(rule.str()), columns_.span(rule.source())});
      auto level = string(value, fmt::format("lint.severity.{}", rule.str()));
      if (!level) continue;
      if (*level != "off" && !parse_severity(*level)) {
        error(value.source(), fmt::format("lint.severity.{} = \"{}\": expected error, warning, note or off",
                                          rule.str(), *level));
        continue;
      }
      config.severity[std::string(rule.str())] = *level;
    }
  }

  void read_tolerances(const toml::table& table, Config& config) {
    for (const auto& [key, node] : table) {
      const std::string_view name = key.str();
      if (std::find(std::begin(tolerance_keys), std::end(tolerance_keys), name) == std::end(tolerance_keys)) {
        unknown(key, "[tolerances]", tolerance_keys);
        continue;
      }
      auto q = quantity(node, fmt::format("tolerances.{}", name));
      if (!q) continue;
      if (q->dim != units::dims::none || q->value < 0 || q->value > max_tolerance) {
        error(node.source(), fmt::format("tolerances.{} must be a fraction such as \"10%\" or 0.1", name));
        continue;
      }
      config.tolerances[std::string(name)] = q->value;
    }
  }

  void read_guardrails(const toml::table& table, Config& config) {
    std::vector<std::string_view> names;
    for (const GuardrailKey& key : guardrail_keys()) names.push_back(key.name);
    for (const auto& [key, node] : table) {
      const GuardrailKey* guardrail = find_guardrail_key(key.str());
      if (!guardrail) {
        unknown(key, "[guardrails]", names);
        continue;
      }
      GuardrailValue value;
      if (node.is_boolean()) {
        value.boolean = *node.value<bool>();
      } else if (guardrail->takes != GuardrailKey::Takes::boolean && (node.is_number() || node.is_string())) {
        value.quantity = quantity(node, fmt::format("guardrails.{}", key.str()));
        if (!value.quantity) continue;
        value.written_as_percent = node.is_string() && node.value<std::string_view>()->find('%') != std::string_view::npos;
      }
      if (std::optional<std::string> problem = set_guardrail(*guardrail, value, config.guardrails))
        error(node.source(), *problem);
    }
  }

  bool failed() const { return failed_; }

 private:
  const SourceFile& file_;
  DiagnosticSink& errors_;
  bool failed_ = false;
  ConfigOrigin origin_;
  fs::path root_;  ///< the repository a discovered config is confined to (canonical), once asked
  /// One converter for the file: a 2 MB `ignore` list on one line is converted in one pass.
  detail::ColumnConverter columns_{file_};
};

}  // namespace

Result<Config> parse_config(const SourceFile& file, DiagnosticSink& errors, ConfigOrigin origin, Config* partial) {
  const std::size_t first_error = errors.size();
  const Error invalid(fmt::format("invalid config '{}'", file.path()));
  Reader reader(file, errors, origin);
  auto root = parse_toml(file.text(), file.path());
  if (!root) {
    reader.error(root.error().source, fmt::format("invalid TOML: {}", root.error().description));
    return invalid;
  }
  Config config;
  config.path = file.path();
  constexpr std::string_view sections[] = {"lint", "tolerances", "guardrails"};
  for (const auto& [key, node] : *root) {
    if (key.str() == "lint" && node.is_table()) reader.read_lint(*node.as_table(), config);
    else if (key.str() == "tolerances" && node.is_table()) reader.read_tolerances(*node.as_table(), config);
    else if (key.str() == "guardrails" && node.is_table()) reader.read_guardrails(*node.as_table(), config);
    else if (key.str() == "lint" || key.str() == "tolerances" || key.str() == "guardrails")
      reader.error(node.source(), fmt::format("{} must be a table", key.str()));
    else
      reader.unknown(key, "the config file", sections);
  }
  if (reader.failed()) {
    // toml++ tables iterate in key order; report in file order.
    std::vector<Diagnostic>& reported = errors.items();
    std::stable_sort(reported.begin() + static_cast<std::ptrdiff_t>(first_error), reported.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.primary.span < b.primary.span; });
    if (partial) {
      std::stable_sort(config.names.begin(), config.names.end(),
                       [](const ConfigName& a, const ConfigName& b) { return a.span < b.span; });
      *partial = std::move(config);
    }
    return invalid;
  }
  std::stable_sort(config.names.begin(), config.names.end(),
                   [](const ConfigName& a, const ConfigName& b) { return a.span < b.span; });  // file order
  return config;
}

namespace {

/// The text of a config found beside the linted files: a regular file inside its repository
/// (the folder tree up to the repository root, links resolved), read through a descriptor of
/// that root with no link followed (files/held_folder.hpp), so that nothing swapped in after
/// the check is read. A `.planlint.toml` that a pull request makes a link to `/etc/passwd` or
/// `~/.ssh/config` is an error that names it and quotes nothing of what it points at.
Result<std::string> read_discovered_config(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec).lexically_normal();
  const fs::path root = fs::canonical(repository_root(absolute.parent_path().string()), ec);
  if (ec) return Error(ec.message());
  const fs::path real = fs::canonical(absolute, ec);
  if (ec) return Error(ec.message());
  const fs::path inside = real.lexically_relative(root);
  if (inside.empty() || *inside.begin() == ".." || inside.is_absolute())
    return Error(fmt::format("it leads, through a symbolic link, to '{}', outside the repository ('{}'); a "
                             ".planlint.toml found beside the linted files must be a file inside it",
                             real.string(), root.string()),
                 Location{}, "put the config itself in the repository, or name it on the command line (--config)");
  std::variant<Descriptor, int> held = open_folder(root.string());
  if (int* code = std::get_if<int>(&held)) return Error(std::strerror(*code));
  std::variant<Descriptor, BeneathFailure> opened =
      open_beneath(std::get<Descriptor>(held).get(), inside.string(), O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (BeneathFailure* failed = std::get_if<BeneathFailure>(&opened))
    return Error(failed->link.empty() ? std::string(std::strerror(failed->code))
                                      : fmt::format("'{}' in the repository became a symbolic link while it was read",
                                                    failed->link));
  return read_regular_descriptor(std::get<Descriptor>(opened).get(), path);
}

}  // namespace

Result<Config> load_config(const std::string& path, DiagnosticSink& errors, ConfigOrigin origin, Config* partial) {
  Result<std::string> text = origin == ConfigOrigin::discovered ? read_discovered_config(path) : read_regular_file(path);
  if (!text) {
    Diagnostic d;
    d.rule = problem_kinds::config;
    d.message = fmt::format("cannot read config file: {}", text.error().message);
    d.primary = Location{path, {}};
    d.help = text.error().help;
    errors.report(std::move(d));
    return Error(fmt::format("invalid config '{}'", path));
  }
  return parse_config(SourceFile(path, *std::move(text)), errors, origin, partial);
}

std::optional<std::string> discover_config(const std::string& linted_file) {
  // One walk up, the same as a run's; a fresh discovery remembers nothing between calls.
  return ConfigDiscovery().find(linted_file);
}

std::optional<std::string> discover_folder_config(const std::string& folder) {
  // A file of the folder, which need not exist: its folder is where the walk starts.
  return ConfigDiscovery().find((fs::path(folder) / config_file_name).string());
}

const std::string& ConfigDiscovery::governing(const std::string& folder) {
  if (auto it = by_folder_.find(folder); it != by_folder_.end()) return it->second;
  std::error_code ec;
  const fs::path path(folder);
  std::string found;
  if (fs::path candidate = path / config_file_name; fs::is_regular_file(candidate, ec)) {
    found = candidate.string();
  } else if (!is_repository_root(folder) && path.has_parent_path() && path.parent_path() != path) {
    found = governing(path.parent_path().string());  // not a repository root: look further up
  }
  return by_folder_.emplace(folder, std::move(found)).first->second;
}

std::optional<std::string> ConfigDiscovery::find(const std::string& linted_file) {
  // The folder as written: "" for a file named without one, "/" kept for a file at the root
  // (which is not relative).
  const std::size_t slash = linted_file.rfind('/');
  const std::string_view written_folder =
      slash == std::string::npos ? std::string_view() : std::string_view(linted_file).substr(0, slash + 1);
  if (auto it = by_written_folder_.find(written_folder); it != by_written_folder_.end()) return it->second;
  std::optional<std::string> found = find_uncached(linted_file);
  by_written_folder_.emplace(written_folder, found);
  return found;
}

std::optional<std::string> ConfigDiscovery::find_uncached(const std::string& linted_file) {
  std::error_code ec;
  const fs::path folder = fs::absolute(linted_file, ec).lexically_normal().parent_path();
  if (ec) return std::nullopt;
  const std::string& config = governing(folder.string());
  if (config.empty()) return std::nullopt;
  // Name it as the linted file is named: relative when that was relative.
  if (!fs::path(linted_file).is_relative()) return config;
  auto it = relative_.find(config);
  if (it == relative_.end()) {
    // Lexically: fs::relative() would resolve a `.planlint.toml` that is a link into the path
    // of what it names, and the config would no longer be the one found beside the files.
    fs::path relative = fs::path(config).lexically_relative(fs::current_path(ec));
    it = relative_.emplace(config, ec || relative.empty() ? config : relative.string()).first;
  }
  return it->second;
}

}  // namespace planlint
