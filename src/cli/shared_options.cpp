#include "cli/shared_options.hpp"

#include <cstdlib>
#include <utility>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/option_checks.hpp"
#include "planlint/lint/findings_cap.hpp"
#include "planlint/markdown/markdown.hpp"
#include "planlint/source/limits.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint::cli {

namespace {

/// A size in the quantity syntax: "64MiB", "100 MB", "1.5G", or a plain number of bytes;
/// nullopt when it is not one.
std::optional<std::size_t> parse_byte_size(const std::string& text) {
  auto parsed = units::parse_quantity(text);
  const auto* quantity = std::get_if<units::Quantity>(&parsed);
  if (quantity == nullptr) return std::nullopt;
  const units::Quantity bytes = units::resolve(*quantity, units::dims::bytes);
  // 2^62 bytes bounds the cast; a limit that large is no limit.
  if (bytes.dim != units::dims::bytes || !(bytes.value >= 1) || bytes.value > 0x1p62) return std::nullopt;
  return static_cast<std::size_t>(bytes.value);
}

}  // namespace

void add_config_option(CLI::App& command, std::string& config, std::string_view applies,
                       std::string_view searched_from) {
  command
      .add_option("--config", config,
                  fmt::format("Config file{} (default: the nearest .planlint.toml up from {})", applies, searched_from))
      ->type_name("FILE")
      ->check(non_empty("a file path"));
}

void add_rule_packs_option(CLI::App& command, std::vector<std::string>& packs) {
  command.add_option("--rules", packs, "Add a rule pack: a rule file or a folder of them (repeatable)")
      ->type_name("PATH")
      ->allow_extra_args(false)
      ->check(non_empty("a rule file or folder"));
}

void add_today_option(CLI::App& command, std::string& today, std::string_view what) {
  command.add_option("--today", today, fmt::format("{}, YYYY-MM-DD (default: today; also: PLANLINT_TODAY)", what))
      ->type_name("DATE")
      ->check(non_empty("a date, YYYY-MM-DD"));
}

Result<std::optional<Date>> today_option(const std::string& option) {
  std::string text = option;
  if (text.empty())
    if (const char* variable = std::getenv("PLANLINT_TODAY")) text = variable;
  if (text.empty()) return std::optional<Date>();
  if (std::optional<Date> today = parse_date(text)) return today;
  return Error(fmt::format("{} '{}' is not a date (YYYY-MM-DD)", option.empty() ? "PLANLINT_TODAY" : "--today", text));
}

void add_format_option(CLI::App& command, std::string& format, const std::vector<std::string>& choices,
                       const std::string& help, const std::string& names) {
  command.add_option(names, format, help)->type_name("FORMAT")->check(CLI::IsMember(choices))->capture_default_str();
}

void add_output_option(CLI::App& command, std::string& output, const std::string& help) {
  command.add_option("-o,--output", output, help)->type_name("FILE")->check(non_empty("a file path"));
}

void add_output_follow_symlinks_option(CLI::App& command, bool& follow, std::string_view writers) {
  command.add_flag("--output-follow-symlinks", follow,
                   fmt::format("Let {} write through a symbolic link (refused by default)", writers));
}

void add_color_options(CLI::App& command, std::string& color, bool& no_color) {
  CLI::Option* choice =
      command.add_option("--color", color, "Colour the output: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), always or never")
          ->type_name("WHEN")
          ->check(CLI::IsMember({"auto", "always", "never"}))
          ->capture_default_str();
  command.add_flag("--no-color", no_color, "Never colour the output: --color never")->excludes(choice);
}

void add_fail_on_option(CLI::App& command, std::string& fail_on, std::string_view what) {
  command
      .add_option("--fail-on", fail_on,
                  fmt::format("Lowest level{} that makes the exit status 1 (default: the config's, else error)", what))
      ->type_name("LEVEL")
      ->check(CLI::IsMember({"error", "warning", "note"}));
}

void add_jobs_option(CLI::App& command, unsigned& jobs) {
  command.add_option("-j,--jobs", jobs, "Files linted in parallel (0: one per core); output order is fixed")
      ->type_name("N")
      ->check(whole_number<unsigned>(0, "a whole number, 0 (one per core) or more"));
}

void add_byte_size_option(CLI::App& command, const std::string& name, std::string& size, const std::string& help) {
  command.add_option(name, size, help)->type_name("SIZE")->check(non_empty("a size, such as 64MiB"));
}

void add_max_file_size_option(CLI::App& command, std::string& size, std::string_view what,
                              std::string_view beyond) {
  add_byte_size_option(command, "--max-file-size", size,
                       fmt::format("Largest {}, e.g. 64MiB (default {}); {}", what, size_in_help(default_max_file_bytes),
                                   beyond));
}

Result<std::optional<std::size_t>> byte_size_option(std::string_view name, const std::string& text) {
  if (text.empty()) return std::optional<std::size_t>();
  if (std::optional<std::size_t> bytes = parse_byte_size(text)) return bytes;
  return Error(fmt::format("{} {}: expected a size in bytes, such as 64MiB or 100MB", name, text));
}

std::string size_in_help(std::size_t bytes) {
  for (const auto& [shift, unit] : {std::pair{30, "GiB"}, std::pair{20, "MiB"}, std::pair{10, "KiB"}})
    if (bytes != 0 && bytes % (std::size_t{1} << shift) == 0) return fmt::format("{}{}", bytes >> shift, unit);
  return fmt::format("{}B", bytes);
}

void add_max_plans_option(CLI::App& command, std::size_t& max, std::string_view beyond) {
  command
      .add_option("--max-plans-per-file", max,
                  fmt::format("Most plan blocks in one Markdown doc (default {}); {}", default_max_markdown_plans, beyond))
      ->type_name("N")
      ->check(whole_number<std::size_t>(1, "a whole number, 1 or more"));
}

void add_max_findings_option(CLI::App& command, std::size_t& max) {
  command
      .add_option("--max-findings-per-file", max,
                  fmt::format("Most findings shown for one file, the most severe (default {}; 0: all); a note "
                              "says how many more there are",
                              default_max_findings_per_file))
      ->type_name("N")
      ->check(whole_number<std::size_t>(0, "a whole number, 0 (no limit) or more"));
}

std::optional<Config> load_config_and_catalog(const std::string& config_path, ConfigOrigin origin, Catalog& catalog,
                                              std::ostream& err) {
  DiagnosticSink problems;
  Result<Config> loaded = load_config(config_path, problems, origin);
  if (loaded) (void)catalog.load_files(loaded->catalogs, problems);
  if (loaded && problems.empty()) return *std::move(loaded);
  for (const Diagnostic& d : problems) err << error_line(d) << '\n';
  err << error_line(loaded ? Error(fmt::format("invalid config '{}'", config_path)) : loaded.error()) << '\n';
  return std::nullopt;
}

Result<PlanText> one_plan_text(const SourceFile& source, std::size_t block) {
  const std::string& path = source.path();
  if (!is_markdown_path(path)) {
    if (block > 0) return Error(fmt::format("--block: {} is not a Markdown doc", path));
    return PlanText{source.text(), 1};
  }
  const std::vector<PlanBlock> blocks = plan_blocks(source.text());
  if (blocks.empty())
    return Error(fmt::format("{}: no plan found: the doc holds no ```toml block with a [plan] table", path));
  if (block > blocks.size() || (block == 0 && blocks.size() > 1)) {
    std::vector<std::string> lines;
    for (const PlanBlock& found : blocks) lines.push_back(std::to_string(found.first_line - 1));  // the fences
    return Error(fmt::format("{}: the doc holds {} plans (```toml blocks at lines {}): name one with --block 1 to "
                             "--block {}",
                             path, blocks.size(), fmt::join(lines, ", "), blocks.size()));
  }
  const PlanBlock& chosen = blocks[block == 0 ? 0 : block - 1];
  return PlanText{block_text(source.text(), chosen), chosen.first_line};
}

}  // namespace planlint::cli
