#include "planlint/config/config.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <span>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "planlint/config/config_keys.hpp"
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

/// A string of an array (or a lone file name) and where it is written.
struct ConfigString {
  std::string text;
  Span span;
};

/// An entry of a table of names ([lint.severity], [lint.options]): its name and where, and its
/// value when it passed its check (the name is recorded either way).
struct ConfigEntry {
  std::string name;
  Span span;
  std::optional<std::string> choice;
  std::optional<units::Quantity> quantity;
};

/// A value that passed its key's check; the member of its key's type is set.
struct ConfigValue {
  std::vector<ConfigString> strings;  ///< strings, files
  std::string text;                   ///< choice, url
  bool boolean = false;               ///< boolean
  double number = 0;                  ///< tolerance, share, usd, gpu_count, duration: in the key's unit
  std::vector<ConfigEntry> entries;   ///< choice_table, quantity_table
};

bool allowed(const ConfigKeySpec& spec, std::string_view text) {
  return std::find(spec.choices.begin(), spec.choices.end(), text) != spec.choices.end();
}

/// A limit of `type` from a quantity, in the key's unit (a fraction, USD, GPUs, seconds), or
/// nullopt when the quantity is not one.
std::optional<double> limit_of(ConfigType type, const units::Quantity& q, bool written_as_percent) {
  if (!std::isfinite(q.value) || q.value < 0) return std::nullopt;
  switch (type) {
    case ConfigType::tolerance:
      if (q.dim != units::dims::none || q.value > max_tolerance) return std::nullopt;
      return q.value;
    case ConfigType::share:
      // "20%" or 0.2; a plain 20 would be 2000%, the slip a percentage without its sign is.
      if (q.dim != units::dims::none || (!written_as_percent && q.value > 1)) return std::nullopt;
      return q.value;
    case ConfigType::usd:
      if (q.dim != units::dims::usd && q.dim != units::dims::none) return std::nullopt;
      return q.value;
    case ConfigType::gpu_count:
      if ((q.dim != units::dims::none && q.dim != units::dims::gpus) || written_as_percent ||
          q.value != std::floor(q.value))
        return std::nullopt;
      return q.value;
    case ConfigType::duration:
      if (q.dim == units::dims::none && !written_as_percent) return q.value * 86400;  // days
      if (q.dim != units::dims::seconds) return std::nullopt;
      return q.value;
    case ConfigType::strings:
    case ConfigType::files:
    case ConfigType::boolean:
    case ConfigType::choice:
    case ConfigType::url:
    case ConfigType::text:
    case ConfigType::choice_table:
    case ConfigType::quantity_table: return std::nullopt;
  }
  return std::nullopt;
}

class Reader {
 public:
  Reader(const SourceFile& file, DiagnosticSink& errors, ConfigOrigin origin)
      : file_(file), errors_(errors), origin_(origin) {}

  void error(const Span& span, std::string message, std::optional<std::string> help = std::nullopt) {
    Diagnostic d;
    d.rule = problem_kinds::config;
    d.severity = Severity::error;
    d.message = std::move(message);
    d.primary = Location{file_.path(), span};
    d.help = std::move(help);
    errors_.report(std::move(d));
    failed_ = true;
  }

  void error(const toml::source_region& region, std::string message, std::optional<std::string> help = std::nullopt) {
    error(columns_.span(region), std::move(message), std::move(help));
  }

  void unknown(const toml::key& key, std::string_view where, const std::vector<std::string_view>& known) {
    auto suggestion = closest_match(key.str(), known);
    error(key.source(), fmt::format("unknown key '{}' in {}", key.str(), where),
          suggestion ? std::optional(fmt::format("did you mean '{}'?", *suggestion)) : std::nullopt);
  }

  /// Reads a table of the file (`[lint]`): each key checked against its spec, then set.
  void read_table(const ConfigTableSpec& table_spec, const toml::table& table, Config& config) {
    for (const auto& [key, node] : table) {
      const ConfigKeySpec* spec = find_config_key(table_spec.name, key.str());
      if (!spec) {
        std::vector<std::string_view> known;
        for (const ConfigKeySpec& candidate : config_keys())
          if (candidate.table == table_spec.name) known.push_back(candidate.name);
        unknown(key, fmt::format("[{}]", table_spec.name), known);
        continue;
      }
      if (std::optional<ConfigValue> checked = value(*spec, node)) set(*spec, *std::move(checked), config);
    }
  }

  bool failed() const { return failed_; }

 private:
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

  /// `node` as a value of `spec`'s type, or nullopt after an error at it ("lint.exclude must
  /// be an array of strings", "lint.fail_on = \"sometimes\": expected error, warning or note").
  std::optional<ConfigValue> value(const ConfigKeySpec& spec, const toml::node& node) {
    const std::string key = fmt::format("{}.{}", spec.table, spec.name);
    auto wrong = [&](const toml::node& at) -> std::optional<ConfigValue> {
      error(at.source(), fmt::format("{} must be {}", key, expected_value(spec)));
      return std::nullopt;
    };
    ConfigValue checked;
    switch (spec.type) {
      case ConfigType::strings:
      case ConfigType::files: {
        if (spec.type == ConfigType::files && node.is_string()) {
          checked.strings.push_back({std::string(*node.value<std::string_view>()), columns_.span(node.source())});
          return checked;
        }
        const toml::array* array = node.as_array();
        if (!array) return wrong(node);
        for (const toml::node& item : *array) {
          if (!item.is_string()) return wrong(item);
          checked.strings.push_back({std::string(*item.value<std::string_view>()), columns_.span(item.source())});
        }
        return checked;
      }
      case ConfigType::boolean:
        if (const std::optional<bool> boolean = node.value_exact<bool>()) {
          checked.boolean = *boolean;
          return checked;
        }
        return wrong(node);
      case ConfigType::text:
        if (!node.is_string()) return wrong(node);
        checked.text = *node.value<std::string_view>();
        return checked;
      case ConfigType::choice:
      case ConfigType::url: {
        if (!node.is_string()) return wrong(node);
        checked.text = *node.value<std::string_view>();
        const bool good = spec.type == ConfigType::choice
                              ? allowed(spec, checked.text)
                              : checked.text.starts_with("https://") || checked.text.starts_with("http://");
        if (good) return checked;
        error(node.source(), fmt::format("{} = \"{}\": expected {}", key, checked.text, expected_value(spec)));
        return std::nullopt;
      }
      case ConfigType::choice_table:
      case ConfigType::quantity_table: {
        const toml::table* table = node.as_table();
        if (!table) return wrong(node);
        for (const auto& [name, item] : *table) {
          ConfigEntry entry{std::string(name.str()), columns_.span(name.source()), std::nullopt, std::nullopt};
          const std::string entry_key = fmt::format("{}.{}", key, name.str());
          if (spec.type == ConfigType::quantity_table) entry.quantity = quantity(item, entry_key);
          else if (!item.is_string()) error(item.source(), fmt::format("{} must be {}", entry_key, expected_entry(spec)));
          else if (std::string_view level = *item.value<std::string_view>(); !allowed(spec, level))
            error(item.source(), fmt::format("{} = \"{}\": expected {}", entry_key, level, expected_entry(spec)));
          else entry.choice = std::string(level);
          checked.entries.push_back(std::move(entry));
        }
        return checked;
      }
      case ConfigType::tolerance:
      case ConfigType::share:
      case ConfigType::usd:
      case ConfigType::gpu_count:
      case ConfigType::duration: {
        if (!node.is_number() && !node.is_string()) return wrong(node);
        const std::optional<units::Quantity> q = quantity(node, key);
        if (!q) return std::nullopt;
        const bool percent = node.is_string() && node.value<std::string_view>()->find('%') != std::string_view::npos;
        const std::optional<double> limit = limit_of(spec.type, *q, percent);
        if (!limit) return wrong(node);
        checked.number = *limit;
        return checked;
      }
    }
    return std::nullopt;
  }

  /// Sets what a checked value of `spec` configures.
  void set(const ConfigKeySpec& spec, ConfigValue checked, Config& config) {
    const std::string key = fmt::format("{}.{}", spec.table, spec.name);
    // The strings themselves, moved out (a list may be most of a large file).
    auto texts = [&checked] {
      std::vector<std::string> list;
      list.reserve(checked.strings.size());
      for (ConfigString& string : checked.strings) list.push_back(std::move(string.text));
      return list;
    };
    switch (spec.key) {
      case ConfigKey::lint_select:
      case ConfigKey::lint_ignore:
        for (const ConfigString& name : checked.strings) config.names.push_back({key, name.text, name.span});
        (spec.key == ConfigKey::lint_select ? config.select : config.ignore) = texts();
        return;
      case ConfigKey::lint_severity:
      case ConfigKey::lint_options:
        for (ConfigEntry& entry : checked.entries) {
          config.names.push_back({key, entry.name, entry.span});
          if (entry.choice) config.severity[entry.name] = *entry.choice;
          if (entry.quantity) config.options[entry.name] = *entry.quantity;
        }
        return;
      case ConfigKey::lint_rules:
        for (const ConfigString& pack : checked.strings)
          if (auto resolved = confined(pack.text, pack.span, key)) config.rules.push_back({pack.text, *resolved, pack.span});
        return;
      case ConfigKey::lint_catalog:
        for (const ConfigString& catalog : checked.strings)
          if (auto resolved = confined(catalog.text, catalog.span, key)) config.catalogs.push_back(*resolved);
        return;
      case ConfigKey::lint_exclude: config.exclude = texts(); return;
      case ConfigKey::lint_respect_gitignore: config.respect_gitignore = checked.boolean; return;
      case ConfigKey::lint_docs_url: config.docs_url = std::move(checked.text); return;
      case ConfigKey::lint_fail_on: config.fail_on = parse_severity(checked.text); return;
      case ConfigKey::tolerances_capacity:
      case ConfigKey::tolerances_cost:
      case ConfigKey::tolerances_formula_vs_benchmark: config.tolerances[std::string(spec.name)] = checked.number; return;
      case ConfigKey::guardrails_cost_increase: config.guardrails.cost_increase = checked.number; return;
      case ConfigKey::guardrails_cost_increase_amount: config.guardrails.cost_increase_amount = checked.number; return;
      case ConfigKey::guardrails_gpus_increase: config.guardrails.gpus_increase = checked.number; return;
      case ConfigKey::guardrails_days_increase: config.guardrails.days_increase = checked.number; return;
      case ConfigKey::guardrails_memory_headroom: config.guardrails.memory_headroom = checked.number; return;
      case ConfigKey::guardrails_new_errors: config.guardrails.new_errors = checked.boolean; return;
      case ConfigKey::solve_vary: config.solve.vary = std::move(checked.text); return;
      case ConfigKey::solve_gpus: config.solve.gpus = std::move(checked.text); return;
      case ConfigKey::solve_count: config.solve.count = std::move(checked.text); return;
      case ConfigKey::solve_keep: config.solve.keep = std::move(checked.text); return;
    }
  }

  std::string relative_to_config(const std::string& path) const {
    fs::path p(path);
    if (p.is_absolute()) return p.lexically_normal().string();
    fs::path folder = fs::path(file_.path()).parent_path();
    return (folder / p).lexically_normal().string();
  }

  /// relative_to_config(written), or nullopt after an error at `span` when a discovered config
  /// names a file outside its repository: a pull request can add a `.planlint.toml`, and it
  /// must not make planlint read `/proc/self/environ`, `../../secrets` or `/dev/tty`. The
  /// check resolves symbolic links (a link in the tree to a file outside is outside).
  std::optional<std::string> confined(const std::string& written, const Span& span, std::string_view key) {
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
    error(span,
          fmt::format("{} = \"{}\" names a file outside the repository ('{}'): a .planlint.toml found beside "
                      "the linted files names only files inside it",
                      key, written, root_.string()),
          "keep the file in the repository, or name it on the command line (--config, --rules), which may name any");
    return std::nullopt;
  }

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
  std::vector<std::string_view> tables;
  for (const ConfigTableSpec& table : config_tables()) tables.push_back(table.name);
  for (const auto& [key, node] : *root) {
    const std::string_view name = key.str();
    const auto table = std::find_if(config_tables().begin(), config_tables().end(),
                                    [name](const ConfigTableSpec& spec) { return spec.name == name; });
    if (table == config_tables().end()) reader.unknown(key, "the config file", tables);
    else if (!node.is_table()) reader.error(node.source(), fmt::format("{} must be a table", key.str()));
    else reader.read_table(*table, *node.as_table(), config);
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
  // One line says it all: "invalid config" after it would repeat the file's name.
  if (!text)
    return Error(fmt::format("cannot read config file: {}", text.error().message), Location{path, {}},
                 text.error().help);
  return parse_config(SourceFile(path, *std::move(text)), errors, origin, partial);
}

}  // namespace planlint
