// Catalog::load: a catalog file (rules/catalog/gpus.toml or a user's) into GpuSpecs, with a
// diagnostic at the offending TOML node for every problem.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "planlint/source/regular_file.hpp"
#include "planlint/catalog/catalog.hpp"
#include "planlint/catalog/gpu_names.hpp"
#include "planlint/diag/edit_distance.hpp"
#include "planlint/diag/native_rules.hpp"
#include "planlint/source/string_span.hpp"
#include "planlint/source/toml_limits.hpp"
#include "planlint/source/toml_span.hpp"
#include "planlint/units/quantity.hpp"
#include "planlint/units/unit_atoms.hpp"

namespace planlint {
namespace {

constexpr std::string_view rule_id = problem_kinds::invalid_catalog;
constexpr std::array<std::string_view, 1> root_keys = {"gpu"};
constexpr std::array<std::string_view, 16> entry_keys = {
    "id",      "name",          "aliases",         "hbm",           "hbm_bandwidth",
    "link_bandwidth", "host_bandwidth", "scale_up_link", "scale_up_domain", "gpus_per_node", "scale_out",
    "notes",   "sources",       "dense",           "sparse",        "price"};
/// The keys of an entry that describe its topology: a replacement that states none of one keeps
/// the replaced entry's (Catalog::load).
constexpr std::array<std::string_view, 4> topology_keys = {"scale_up_link", "scale_up_domain", "gpus_per_node",
                                                           "scale_out"};
constexpr std::array<std::string_view, 4> price_keys = {"low", "high", "source", "updated"};

/// The node's TOML type with its article: "an integer", "a table".
std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "a value";
}

template <typename Keys>
std::string join(const Keys& keys) {
  std::string out;
  for (std::string_view key : keys) {
    if (!out.empty()) out += ", ";
    out += key;
  }
  return out;
}

/// The closest of `candidates` to `word`, when it is close enough to be a likely typo.
template <typename Keys>
std::optional<std::string_view> did_you_mean(std::string_view word, const Keys& candidates) {
  std::optional<std::string_view> best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (std::string_view candidate : candidates)
    if (std::size_t d = edit_distance(word, candidate); d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  return best;
}

class Loader {
 public:
  Loader(const SourceFile& file, DiagnosticSink& errors) : file_(file), errors_(errors) {}

  /// Whether the entry `id` of the file states `key` (entries() read it).
  bool states(std::string_view id, std::string_view key) const {
    return std::find(stated_.begin(), stated_.end(), std::pair<std::string, std::string_view>(id, key)) !=
           stated_.end();
  }

  /// The entries of the file that are valid; reports the others.
  std::vector<GpuSpec> entries(const toml::table& root) {
    std::vector<GpuSpec> result;
    for (auto&& [key, node] : root)
      if (key.str() != "gpu") unknown_key(key, "", "at the top level of a catalog", root_keys);
    const toml::node* gpus = root.get("gpu");
    if (!gpus) return result;
    const toml::array* array = gpus->as_array();
    if (!array) {
      report(*gpus, "gpu", fmt::format("expected an array of [[gpu]] tables, found {}",
                                       type_name(*gpus)));
      return result;
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& node = *array->get(i);
      const std::string path = fmt::format("gpu[{}]", i);
      const toml::table* table = node.as_table();
      if (!table) {
        report(node, path, fmt::format("expected a [[gpu]] table, found {}", type_name(node)));
        continue;
      }
      std::optional<GpuSpec> gpu = entry(*table, path);
      if (!gpu) continue;
      auto same_id = [&](const GpuSpec& g) { return g.id == gpu->id; };
      if (auto earlier = std::find_if(result.begin(), result.end(), same_id);
          earlier != result.end()) {
        const toml::node& id = *table->get("id");
        Diagnostic& d = report(id, path + ".id",
                               fmt::format("duplicate id \"{}\": an id appears once per catalog "
                                           "file (a later file may override it)",
                                           gpu->id));
        d.related.push_back({earlier->location, "first defined here"});
        continue;
      }
      if (!names_one_entry(*table, path, *gpu)) continue;
      result.push_back(std::move(*gpu));
    }
    return result;
  }

  Diagnostic& report(const toml::source_region& region, std::string key_path,
                     std::string message) {
    Diagnostic d;
    d.rule = std::string(rule_id);
    d.severity = Severity::error;
    d.message = std::move(message);
    d.primary = location(region);
    d.key_path = std::move(key_path);
    return errors_.add(std::move(d));
  }

 private:
  Diagnostic& report(const toml::node& node, std::string key_path, std::string message) {
    return report(node.source(), std::move(key_path), std::move(message));
  }

  /// Whether every name of the entry (id, name, aliases) names it alone among the file's
  /// entries, up to gpu_name_key; reports each that names an earlier entry too. An alias
  /// that two entries share would make `cluster.gpu` ambiguous.
  bool names_one_entry(const toml::table& table, const std::string& path, const GpuSpec& gpu) {
    const std::size_t errors_before = errors_.size();
    std::vector<std::pair<const toml::node*, std::string>> names = {{table.get("id"), "id"},
                                                                     {table.get("name"), "name"}};
    if (const toml::array* aliases = table.get_as<toml::array>("aliases"))
      for (std::size_t i = 0; i < aliases->size(); ++i)
        names.emplace_back(aliases->get(i), fmt::format("aliases[{}]", i));
    std::vector<std::pair<std::string, std::string>> own;  // key → the name written
    for (const auto& [node, key] : names) {
      const std::string written = node->as_string()->get();
      const std::string name_key = gpu_name_key(written);
      own.emplace_back(name_key, written);
      const auto earlier = names_by_key_.find(name_key);
      if (earlier == names_by_key_.end() || earlier->second.first == gpu.id) continue;
      Diagnostic& d = report(*node, fmt::format("{}.{}", path, key),
                             fmt::format("'{}' names the entry \"{}\" too (as '{}'): an id, name or alias names "
                                         "one entry, up to case, separators and vendor words",
                                         written, earlier->second.first, earlier->second.second));
      d.help = "leave it out of one of the two entries";
    }
    if (errors_.size() != errors_before) return false;
    for (auto& [name_key, written] : own) names_by_key_.emplace(name_key, std::pair{gpu.id, written});
    return true;
  }

  /// `aliases`: other names of the part, non-empty strings.
  void aliases(const toml::table& table, const std::string& path, GpuSpec& gpu) {
    const toml::node* node = table.get("aliases");
    if (!node) return;
    const toml::array* array = node->as_array();
    if (!array) {
      report(*node, path + ".aliases",
             fmt::format("expected 'aliases' to be an array of strings, found {}", type_name(*node)));
      return;
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      if (const auto* text = element.as_string(); text && !gpu_name_key(text->get()).empty())
        gpu.aliases.push_back(text->get());
      else
        report(element, fmt::format("{}.aliases[{}]", path, i),
               text ? std::string("an alias needs a letter or digit")
                    : fmt::format("expected a string, found {}", type_name(element)));
    }
  }

  std::optional<GpuSpec> entry(const toml::table& table, const std::string& path) {
    const std::size_t errors_before = errors_.size();
    GpuSpec gpu;
    gpu.location = location(table.source());
    for (auto&& [key, node] : table)
      if (std::find(entry_keys.begin(), entry_keys.end(), key.str()) == entry_keys.end())
        unknown_key(key, path, "in a [[gpu]] entry", entry_keys);

    if (auto id = required_string(table, "id", path)) gpu.id = *id;
    if (auto name = required_string(table, "name", path)) gpu.name = *name;
    aliases(table, path, gpu);
    if (const toml::node* notes = table.get("notes")) {
      if (const auto* text = notes->as_string())
        gpu.notes = text->get();
      else
        report(*notes, path + ".notes",
               fmt::format("expected a string, found {}", type_name(*notes)));
    }
    sources(table, path, gpu);
    if (auto hbm = required_quantity(table, "hbm", path, units::dims::bytes, "80 GB"))
      gpu.hbm_bytes = *hbm;
    if (auto bw = required_quantity(table, "hbm_bandwidth", path, units::dims::bytes_per_second,
                                    "3.35 TB/s"))
      gpu.hbm_bandwidth_bytes_per_s = *bw;
    if (const toml::node* link = table.get("link_bandwidth"))
      gpu.link_bandwidth_bytes_per_s = quantity(*link, path + ".link_bandwidth",
                                                units::dims::bytes_per_second, "900 GB/s");
    if (const toml::node* host = table.get("host_bandwidth"))
      gpu.host_bandwidth_bytes_per_s = quantity(*host, path + ".host_bandwidth",
                                                units::dims::bytes_per_second, "128 GB/s");
    topology(table, path, gpu);
    if (const toml::node* dense = table.get("dense"))
      gpu.dense_peak_flops = peaks(*dense, path + ".dense");
    else
      missing(table, "dense", path, "a [gpu.dense] table of peaks, e.g. bf16 = \"989 TFLOPS\"");
    if (const toml::node* sparse = table.get("sparse"))
      gpu.sparse_peak_flops = peaks(*sparse, path + ".sparse");
    if (const toml::node* price_node = table.get("price")) gpu.price = price(*price_node, path + ".price");

    // fp16 tensor peaks equal bf16 on every accelerator that has both; entries may omit fp16.
    for (PeakTable* peaks : {&gpu.dense_peak_flops, &gpu.sparse_peak_flops})
      if (std::optional<double> bf16 = peaks->find(Precision::bf16)) peaks->set_if_absent(Precision::fp16, *bf16);

    if (errors_.size() != errors_before) return std::nullopt;
    return gpu;
  }

  /// The scale-up domain (its link's kind and size) and the host. `scale_out = "ici"`, which
  /// older catalogs write for a TPU, is the same as `scale_up_link = "ici"`.
  void topology(const toml::table& table, const std::string& path, GpuSpec& gpu) {
    for (std::string_view key : topology_keys)
      if (table.get(key)) stated_.emplace_back(gpu.id, key);
    if (const toml::node* link = table.get("scale_up_link")) {
      const auto* text = link->as_string();
      if (auto parsed = text ? parse_scale_up_link(text->get()) : std::nullopt)
        gpu.scale_up_link = *parsed;
      else
        report(*link, path + ".scale_up_link",
               fmt::format("{}: expected one of {}", text ? fmt::format("unknown scale_up_link '{}'", text->get())
                                                          : fmt::format("expected a string, found {}", type_name(*link)),
                           link_names()));
    }
    if (const toml::node* scale_out = table.get("scale_out")) {
      const auto* text = scale_out->as_string();
      if (!text || (text->get() != "nic" && text->get() != "ici"))
        report(*scale_out, path + ".scale_out",
               text ? fmt::format("unknown scale_out '{}': expected \"nic\" or \"ici\"; a scale-up link's kind is "
                                  "scale_up_link, one of {}",
                                  text->get(), link_names())
                    : fmt::format("expected scale_out to be \"nic\" or \"ici\", found {}", type_name(*scale_out)));
      else if (text->get() == "ici" && gpu.scale_up_link && *gpu.scale_up_link != ScaleUpLink::ici)
        report(*scale_out, path + ".scale_out",
               fmt::format("scale_out = \"ici\" says the chips connect by ICI, but scale_up_link says \"{}\": "
                           "write scale_up_link alone",
                           to_string(*gpu.scale_up_link)));
      else if (text->get() == "ici")
        gpu.scale_up_link = ScaleUpLink::ici;
    }
    gpu.scale_up_domain = accelerator_count(table, "scale_up_domain", path);
    gpu.gpus_per_node = accelerator_count(table, "gpus_per_node", path);
  }

  static std::string link_names() {
    std::string names;
    for (ScaleUpLink link : all_scale_up_links) names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", to_string(link));
    return names;
  }

  /// A count of accelerators: a positive integer.
  std::optional<double> accelerator_count(const toml::table& table, std::string_view key, const std::string& path) {
    const toml::node* node = table.get(key);
    if (!node) return std::nullopt;
    const auto* integer = node->as_integer();
    if (!integer || integer->get() < 1 || integer->get() > 1'000'000) {
      report(*node, fmt::format("{}.{}", path, key),
             integer ? fmt::format("'{}' is a count of accelerators: expected a whole number from 1 to 1000000", key)
                     : fmt::format("expected '{}' to be a whole number of accelerators, found {}", key,
                                   type_name(*node)));
      return std::nullopt;
    }
    return static_cast<double>(integer->get());
  }

  /// [gpu.price]: low and high per GPU-hour, the source and the date they were read.
  std::optional<PriceRange> price(const toml::node& node, const std::string& path) {
    const toml::table* table = node.as_table();
    if (!table) {
      report(node, path, fmt::format("expected a [gpu.price] table, found {}", type_name(node)));
      return std::nullopt;
    }
    for (auto&& [key, value] : *table)
      if (std::find(price_keys.begin(), price_keys.end(), key.str()) == price_keys.end())
        unknown_key(key, path, "in a [gpu.price] table", price_keys);
    PriceRange range;
    const auto low = required_quantity(*table, "low", path, units::dims::usd_per_gpu_second, "$1.5/GPU/h");
    const auto high = required_quantity(*table, "high", path, units::dims::usd_per_gpu_second, "$4/GPU/h");
    const auto source = required_string(*table, "source", path);
    const toml::node* updated = table->get("updated");
    if (!updated)
      missing(*table, "updated", path, "the date the prices were read, such as 2024-06-01");
    else if (!updated->as_date())
      report(*updated, path + ".updated",
             fmt::format("expected a date such as 2024-06-01, found {}", type_name(*updated)));
    if (!low || !high || !source || !updated || !updated->as_date()) return std::nullopt;
    if (*low > *high) {
      report(node, path, "the price's low is above its high");
      return std::nullopt;
    }
    const toml::date date = updated->as_date()->get();
    range.low = *low;
    range.high = *high;
    range.source = *source;
    range.updated = fmt::format("{:04}-{:02}-{:02}", date.year, date.month, date.day);
    return range;
  }

  std::optional<std::string> required_string(const toml::table& table, std::string_view key,
                                              const std::string& path) {
    const toml::node* node = table.get(key);
    if (!node) {
      missing(table, key, path, "a string");
      return std::nullopt;
    }
    const auto* text = node->as_string();
    if (!text || text->get().empty()) {
      report(*node, fmt::format("{}.{}", path, key),
             text ? fmt::format("'{}' must not be empty", key)
                  : fmt::format("expected '{}' to be a string, found {}", key, type_name(*node)));
      return std::nullopt;
    }
    return text->get();
  }

  void sources(const toml::table& table, const std::string& path, GpuSpec& gpu) {
    const toml::node* node = table.get("sources");
    if (!node) {
      missing(table, "sources", path,
              "a non-empty array of strings citing where the numbers come from");
      return;
    }
    const toml::array* array = node->as_array();
    if (!array || array->empty()) {
      report(*node, path + ".sources",
             array ? std::string("'sources' must cite at least one source")
                   : fmt::format("expected 'sources' to be an array of strings, found {}",
                                 type_name(*node)));
      return;
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      if (const auto* text = element.as_string(); text && !text->get().empty())
        gpu.sources.push_back(text->get());
      else
        report(element, fmt::format("{}.sources[{}]", path, i),
               fmt::format("expected a non-empty string, found {}", type_name(element)));
    }
  }

  std::optional<double> required_quantity(const toml::table& table, std::string_view key,
                                          const std::string& path, units::Dimension expected,
                                          std::string_view example) {
    const toml::node* node = table.get(key);
    if (!node) {
      missing(table, key, path,
              fmt::format("{} such as \"{}\"", units::describe(expected), example));
      return std::nullopt;
    }
    return quantity(*node, fmt::format("{}.{}", path, key), expected, example);
  }

  PeakTable peaks(const toml::node& node, const std::string& path) {
    PeakTable result;
    const toml::table* table = node.as_table();
    if (!table) {
      report(node, path,
             fmt::format("expected a table of peaks by precision, e.g. {{ bf16 = \"989 TFLOPS\" "
                         "}}, found {}",
                         type_name(node)));
      return result;
    }
    std::array<std::string_view, std::size(all_precisions)> names{};
    std::transform(std::begin(all_precisions), std::end(all_precisions), names.begin(),
                   [](Precision p) { return to_string(p); });
    for (auto&& [key, value] : *table) {
      const std::optional<Precision> precision = parse_precision(key.str());
      if (!precision) {
        unknown_key(key, path, "in " + path, names, "unknown precision", false);
        continue;
      }
      if (auto peak = quantity(value, fmt::format("{}.{}", path, key.str()),
                               units::dims::flop_per_second, "989 TFLOPS"))
        result.set(*precision, *peak);
    }
    return result;
  }

  /// A positive quantity of dimension `expected`: a string with a unit, or a number in base units.
  std::optional<double> quantity(const toml::node& node, const std::string& path,
                                 units::Dimension expected, std::string_view example) {
    const std::string expected_text =
        fmt::format("{} such as \"{}\"", units::describe(expected), example);
    double value = 0;
    if (const auto* integer = node.as_integer()) {
      value = static_cast<double>(integer->get());
    } else if (const auto* floating = node.as_floating_point()) {
      value = floating->get();
    } else if (const auto* text = node.as_string()) {
      const units::QuantityResult parsed = units::parse_quantity(text->get());
      if (const auto* error = std::get_if<units::QuantityError>(&parsed)) {
        Diagnostic& d = report(node, path,
                               fmt::format("invalid quantity \"{}\": {}; expected {}", text->get(),
                                           error->message, expected_text));
        point_inside_string(d, node, error->column);
        return std::nullopt;
      }
      const units::Quantity q = units::resolve(std::get<units::Quantity>(parsed), expected);
      if (q.dim != expected) {
        report(node, path,
               fmt::format("expected {}, found {} in \"{}\"", expected_text,
                           units::describe(q.dim), text->get()));
        return std::nullopt;
      }
      value = q.value;
    } else {
      report(node, path,
             fmt::format("expected {} (a string with a unit, or a number in base units), "
                         "found {}",
                         expected_text, type_name(node)));
      return std::nullopt;
    }
    if (!std::isfinite(value) || value <= 0) {
      report(node, path, fmt::format("expected a positive {}", expected_text));
      return std::nullopt;
    }
    return value;
  }

  void missing(const toml::table& table, std::string_view key, const std::string& path,
               std::string_view expected) {
    report(table, fmt::format("{}.{}", path, key),
           fmt::format("missing required key '{}' in a [[gpu]] entry: expected {}", key,
                       expected));
  }

  /// `parent` is the key path of the table holding `key` ("" at the top level).
  template <typename Keys>
  void unknown_key(const toml::key& key, const std::string& parent, std::string_view where,
                   const Keys& valid, std::string_view what = "unknown key",
                   bool suggest = true) {
    Diagnostic& d = report(key.source(),
                           parent.empty() ? std::string(key.str())
                                          : fmt::format("{}.{}", parent, key.str()),
                           fmt::format("{} '{}' {}; expected one of: {}", what, key.str(), where,
                                       join(valid)));
    // Precisions are short: "fp4" for "fp64" would be a guess, not a typo fix.
    if (auto suggestion = did_you_mean(key.str(), valid); suggestion && suggest)
      d.help = fmt::format("did you mean '{}'?", *suggestion);
  }

  /// Moves a diagnostic on a quoted string to `column` (1-based) of its value.
  void point_inside_string(Diagnostic& d, const toml::node& node, std::size_t column) {
    d.primary.span = span_in_string(file_, d.primary.span, node.as_string()->get(), column - 1);
  }

  Location location(const toml::source_region& region) const {
    Location result;
    result.file = file_.path();
    result.span.begin = detail::to_position(region.begin, file_);
    result.span.end = detail::to_position(region.end, file_);
    // A table's region runs to its last key; a diagnostic about it points at its header line.
    if (result.span.end.line > result.span.begin.line)
      result.span.end = {result.span.begin.line,
                         static_cast<std::uint32_t>(file_.line(result.span.begin.line).size() + 1)};
    if (!result.span.end.line) result.span.end = result.span.begin;
    return result;
  }

  const SourceFile& file_;
  DiagnosticSink& errors_;
  /// (entry id, topology key) for each topology key an entry states.
  std::vector<std::pair<std::string, std::string_view>> stated_;
  /// gpu_name_key of each id, name and alias of the file's entries so far → (id, the name written).
  std::map<std::string, std::pair<std::string, std::string>> names_by_key_;
};

}  // namespace

Result<void> Catalog::load(const SourceFile& file, DiagnosticSink& errors) {
  const std::size_t errors_before = errors.size();
  Loader loader(file, errors);
  auto root = parse_toml(file.text(), file.path());
  if (!root) {
    loader.report(root.error().source, "", fmt::format("invalid TOML: {}", root.error().description));
    return Error("invalid catalog");
  }
  for (GpuSpec& gpu : loader.entries(*root)) {
    // A later file overrides an entry of the same id in place, so listings keep their order.
    auto same_id = [&](const GpuSpec& g) { return g.id == gpu.id; };
    if (auto existing = std::find_if(gpus_.begin(), gpus_.end(), same_id); existing != gpus_.end()) {
      // A correction of an entry's figures that says nothing of its topology keeps the entry's
      // (a team's tpu-v5p with its measured bandwidth is still an ICI slice).
      if (!loader.states(gpu.id, "scale_up_link") && !loader.states(gpu.id, "scale_out"))
        gpu.scale_up_link = existing->scale_up_link;
      if (!loader.states(gpu.id, "scale_up_domain")) gpu.scale_up_domain = existing->scale_up_domain;
      if (!loader.states(gpu.id, "gpus_per_node")) gpu.gpus_per_node = existing->gpus_per_node;
      *existing = std::move(gpu);
    } else
      gpus_.push_back(std::move(gpu));
  }
  index_names();
  if (errors.size() != errors_before) return Error("invalid catalog");
  return {};
}

Result<void> Catalog::load_files(const std::vector<std::string>& paths, DiagnosticSink& errors) {
  const std::size_t before = errors.size();
  for (const std::string& path : paths) {
    Result<std::string> text = read_regular_file(path);
    if (!text) {
      Diagnostic d;
      d.rule = problem_kinds::catalog;
      d.message = fmt::format("cannot read the catalog: {}", text.error().message);
      d.primary = Location{path, {}};
      errors.report(std::move(d));
      continue;
    }
    (void)load(SourceFile(path, *std::move(text)), errors);
  }
  if (errors.size() != before) return Error("invalid catalog");
  return {};
}

}  // namespace planlint
