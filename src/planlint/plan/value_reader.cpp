#include "planlint/plan/value_reader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/diag/suggest.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "planlint/plan/assumed_keys.hpp"
#include "planlint/source/string_span.hpp"

namespace planlint::detail {

Diagnostic& Findings::add(std::string_view rule, Span span, std::string key_path,
                          std::string message) {
  Diagnostic& d = sink_.add(Diagnostic{});
  d.rule = std::string(rule);
  d.severity = Severity::error;
  d.message = std::move(message);
  d.primary = Location{source_.path(), span};
  d.key_path = std::move(key_path);
  return d;
}

std::string KeyPath::str() const {
  std::string path;
  path.reserve(prefix.size() + 1 + key.size());
  path.append(prefix).append(1, '.').append(key);
  return path;
}

QuantityContext context_of(const KeySpec& spec) {
  return QuantityContext{spec.dims, spec.plain_number_scale, true, spec.base_unit};
}

std::string source_text(const SourceFile& source, Span span) { return value_excerpt(source, span, 80); }

namespace {

std::string describe_dims(std::span<const units::Dimension> dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += i + 1 == dims.size() ? " or " : ", ";
    out += units::describe(dims[i]);
  }
  return out;
}

std::string describe_number(double value, const units::Dimension& dim, std::string_view base) {
  if (dim.dimensionless() && base == "fraction") return fmt::format("{:g}%", value * 100);
  return units::format(value, dim);
}

/// The help line of a quantity that could not be used.
std::string how_to_write(const KeyPath& path, const QuantityContext& context) {
  if (context.dims.size() == 1 && context.dims.front().dimensionless())
    return fmt::format("{} takes a plain number; a string may add K, M, B, T or %", path);
  return fmt::format("{} takes {}: a plain number in {}, or a string with a unit", path,
                     describe_dims(context.dims), context.base_unit);
}

/// Dollars as a plan writes them: cents at most, no exponent ("113.93", "12345", "28.48").
std::string dollars(double value) {
  std::string text = fmt::format("{:.2f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

/// The help of a price per hour that names no GPU ("$98.32/h"): both readings, one GPU's rate
/// or the node's (of the table's gpus_per_node GPUs, else the key's default).
std::string price_per_gpu_help(const std::string& written, double usd_per_hour, const toml::table* cluster) {
  auto node_gpus = static_cast<std::int64_t>(*find_key("cluster", "gpus_per_node")->by_default.number());
  if (cluster)
    if (auto stated = (*cluster)["gpus_per_node"].value<std::int64_t>(); stated && *stated > 1) node_gpus = *stated;
  return fmt::format("a price per GPU-hour names the GPU: if {0} is one GPU's rate, write \"${1}/GPU/h\"; if "
                     "it is a node's, divide it by the node's GPUs (a node of {2} at {0} is \"${3}/GPU/h\")",
                     written, dollars(usd_per_hour), node_gpus,
                     dollars(usd_per_hour / static_cast<double>(node_gpus)));
}

/// The magnitudes a key's value takes in practice, for a plain number that falls outside them:
/// `peak = 989` is 989 FLOP/s as written, a value no accelerator has, where "989 TFLOPS" is an
/// H100's. The ranges span the catalog's parts (rules/catalog/gpus.toml: peaks from 8 TFLOPS to
/// 20 PFLOPS, 16–288 GB of HBM at 0.3–8 TB/s, links of 16–1800 GB/s) and published plans with
/// room on both sides; `units` are the spellings tried, in order, for the help.
struct PlausibleMagnitude {
  std::string_view path;
  double low, high;  ///< base units
  /// Up to three; an empty spelling ends the list.
  std::array<std::pair<double, std::string_view>, 3> units;
};

constexpr double plausible_hour = 3600;
const PlausibleMagnitude plausible_magnitudes[] = {
    {"cluster.peak", 1e12, 1e17, {{{1e12, "TFLOPS"}, {1e15, "PFLOPS"}}}},
    {"cluster.hbm", 4e9, 2e12, {{{1e9, "GB"}, {1e12, "TB"}}}},
    {"cluster.hbm_bandwidth", 1e11, 5e13, {{{1e9, "GB/s"}, {1e12, "TB/s"}}}},
    {"cluster.intra_node_bandwidth", 5e9, 2e13, {{{1e9, "GB/s"}, {1e12, "TB/s"}}}},
    // NICs are quoted in bits: "400 Gbps" is 50 GB/s.
    {"cluster.inter_node_bandwidth", 1e9, 2e12, {{{1e9 / 8, "Gbps"}, {1e9, "GB/s"}}}},
    {"cluster.node_mtbf", 86400, 3e9, {{{plausible_hour, "h"}, {86400, "d"}}}},
    // Serving objectives are quoted in milliseconds: a P99 TTFT of 50 ms to a minute, an
    // inter-token latency of 1 ms to a second.
    {"inference.sla_ttft", 0.01, 120, {{{1e-3, "ms"}}}},
    {"inference.sla_itl", 1e-3, 1, {{{1e-3, "ms"}}}},
    // Checkpoints are written every few minutes to a few hours (a day at most), and one write
    // stalls for seconds to tens of minutes.
    {"training.checkpoint_interval", 60, 86400, {{{plausible_hour, "h"}, {60, "min"}}}},
    {"training.checkpoint_write_time", 1, 7200, {{{60, "min"}, {1e-3, "ms"}}}},
    {"training.activation_memory", 1e8, 2e12, {{{1e9, "GB"}, {1e6, "MB"}}}},
    {"model.params", 1e6, 1e14, {{{1e9, "B"}, {1e6, "M"}, {1e12, "T"}}}},
    {"model.active_params", 1e6, 1e14, {{{1e9, "B"}, {1e6, "M"}, {1e12, "T"}}}},
};

/// The help of a plain number outside its key's magnitudes, naming the unit that makes it
/// plausible (`peak = "989 TFLOPS"`); nullopt when the number is plausible as written or no unit
/// makes it so.
std::optional<std::string> implausible_plain_number(const KeyPath& path, double number, const SourceFile& source,
                                                    Span span) {
  for (const PlausibleMagnitude& magnitude : plausible_magnitudes) {
    if (path.prefix.size() + 1 + path.key.size() != magnitude.path.size() ||
        !magnitude.path.starts_with(path.prefix) || !magnitude.path.ends_with(path.key) ||
        magnitude.path[path.prefix.size()] != '.')
      continue;
    if (number <= 0 || (number >= magnitude.low && number <= magnitude.high)) return std::nullopt;
    for (const auto& [scale, unit] : magnitude.units) {
      if (unit.empty()) break;
      const double value = number * scale;
      if (value < magnitude.low || value > magnitude.high) continue;
      const bool count = unit == "B" || unit == "M" || unit == "T";
      return fmt::format("write {} = \"{}{}{}\"", path.key, source_text(source, span), count ? "" : " ", unit);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// "128 x 8", "128×8", "16 * 8 GPUs": a product where a count belongs; nullopt for anything else.
std::optional<double> written_product(std::string_view text) {
  double product = 1;
  int factors = 0;
  std::size_t at = 0;
  const auto skip_spaces = [&] {
    while (at < text.size() && text[at] == ' ') ++at;
  };
  while (true) {
    skip_spaces();
    const std::size_t start = at;
    while (at < text.size() && (std::isdigit(static_cast<unsigned char>(text[at])) || text[at] == '.')) ++at;
    if (start == at) return std::nullopt;
    // from_chars, not stod: ".", ".." and "1.2.3" are text a plan may hold; they are no factor.
    double factor = 0;
    const char* const first = text.data() + start;
    const char* const last = text.data() + at;
    const auto [end, error] = std::from_chars(first, last, factor);
    if (error != std::errc{} || end != last) return std::nullopt;
    product *= factor;
    ++factors;
    skip_spaces();
    if (text.substr(at).starts_with("GPUs")) at += 4;
    else if (text.substr(at).starts_with("GPU")) at += 3;
    skip_spaces();
    if (at == text.size()) break;
    if (text[at] == 'x' || text[at] == 'X' || text[at] == '*') ++at;
    else if (text.substr(at).starts_with("\xC3\x97")) at += 2;  // ×
    else return std::nullopt;
  }
  if (factors < 2) return std::nullopt;
  return product;
}

std::string join(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += ", ";
    out += words[i];
  }
  return out;
}

}  // namespace

void ValueReader::bad_value(const toml::node& node, const KeyPath& path, std::string message,
                            std::optional<std::string> help) {
  Diagnostic& d = findings_.add(native_rules::bad_value, findings_.span(node.source()), path.str(), std::move(message));
  d.help = std::move(help);
}

std::optional<PlanValue> ValueReader::read(const toml::node& node, const toml::key& key,
                                           const KeySpec& spec, const KeyPath& path) {
  // A quantity makes its PlanValue in read_quantity, in the context its spec gives.
  if (spec.kind == ValueKind::quantity || spec.kind == ValueKind::whole)
    return read_quantity(node, key, context_of(spec), &spec, path);
  if (spec.kind == ValueKind::any_quantity)
    return read_quantity(node, key, QuantityContext{}, nullptr, path);
  PlanValue out;
  out.span = findings_.span(node.source());
  out.key_span = findings_.span(key.source());
  switch (spec.kind) {
    case ValueKind::string:
    case ValueKind::choice:
    case ValueKind::metric:
    case ValueKind::plan_key: {
      if (!node.is_string()) {
        bad_value(node, path, fmt::format("{} must be a string", path));
        return std::nullopt;
      }
      const std::string& text = node.as_string()->get();
      if (spec.kind == ValueKind::choice &&
          std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end()) {
        auto suggestion = closest_match(text, spec.choices);
        bad_value(node, path,
                  fmt::format("{} = \"{}\" is not one of {}", path, text, join(spec.choices)),
                  suggestion ? std::optional(fmt::format("did you mean \"{}\"?", *suggestion))
                             : std::nullopt);
        return std::nullopt;
      }
      if (spec.kind == ValueKind::metric && !find_metric(text)) {
        auto suggestion = closest_match(text, metric_name_list());
        bad_value(node, path, fmt::format("{} = \"{}\" is not a metric planlint computes", path, text),
                  suggestion ? fmt::format("did you mean \"{}\"?", *suggestion)
                             : std::string("see `planlint report` for the metric names"));
        return std::nullopt;
      }
      // A slice's price or goodput ("capacity[kind=preemptible].price") is checked against the
      // plan's slices once they are read (Loader::check_required).
      if (spec.kind == ValueKind::plan_key && !find_value_key(text) && !is_slice_field_key(text)) {
        // A field of each [[targets]] entry names no one value for an assumption to justify.
        if (const std::string refusal = element_field_refusal(text); !refusal.empty()) {
          bad_value(node, path, fmt::format("{} = \"{}\" names {}", path, text, refusal),
                    std::string("an assumption justifies a value of a table such as \"training.mfu\" or "
                                "\"cluster.price\", or one [[capacity]] slice's price or goodput, "
                                "\"capacity[kind=preemptible].price\""));
          return std::nullopt;
        }
        const std::vector<std::string>& all = value_key_paths();
        std::vector<std::string_view> views(all.begin(), all.end());
        auto suggestion = closest_match(text, views);
        bad_value(node, path, fmt::format("{} = \"{}\" is not a plan key", path, text),
                  suggestion ? std::optional(fmt::format("did you mean \"{}\"?", *suggestion))
                             : std::nullopt);
        return std::nullopt;
      }
      out.value = text;
      return out;
    }
    case ValueKind::boolean:
      if (!node.is_boolean()) {
        bad_value(node, path, fmt::format("{} must be true or false", path));
        return std::nullopt;
      }
      out.value = node.as_boolean()->get();
      return out;
    case ValueKind::date: {
      if (!node.is_date()) {
        bad_value(node, path, fmt::format("{} must be a TOML date, e.g. 2026-11-01 (no quotes)", path));
        return std::nullopt;
      }
      const toml::date& date = node.as_date()->get();
      out.value = Date{date.year, date.month, date.day};
      return out;
    }
    case ValueKind::quantity:
    case ValueKind::whole:
    case ValueKind::any_quantity:
      break;  // read above
  }
  return std::nullopt;
}

std::optional<PlanValue> ValueReader::read_quantity(const toml::node& node, const toml::key& key,
                                                    const QuantityContext& context,
                                                    const KeySpec* spec, const KeyPath& path) {
  const SourceFile& source = findings_.source();
  PlanValue out;
  out.span = findings_.span(node.source());
  out.key_span = findings_.span(key.source());
  const units::Dimension base = context.dims.empty() ? units::dims::none : context.dims.front();
  units::Quantity quantity;

  if (node.is_integer() || node.is_floating_point()) {
    double number = node.is_integer() ? static_cast<double>(node.as_integer()->get())
                                      : node.as_floating_point()->get();
    if (!std::isfinite(number)) {
      findings_.add(native_rules::bad_quantity, out.span, path.str(),
                    fmt::format("{} = {} is not a finite number", path, source_text(source, out.span)));
      return std::nullopt;
    }
    if (!context.plain_number_allowed) {
      Diagnostic& d = findings_.add(
          native_rules::bad_quantity, out.span, path.str(),
          fmt::format("{} = {} has no unit; expected {}", path, source_text(source, out.span),
                      describe_dims(context.dims)));
      d.help = fmt::format("write the unit in a string, e.g. \"{}\"",
                           units::format(number * context.plain_number_scale, base));
      return std::nullopt;
    }
    quantity = units::Quantity{number * context.plain_number_scale, base};
    if (spec && path.prefix == spec->section && path.key == spec->key)
      if (auto help = implausible_plain_number(path, quantity.value, source, out.span)) {
        Diagnostic& d = findings_.add(
            native_rules::bad_quantity, out.span, path.str(),
            fmt::format("{} = {} has no unit: a plain number is in the key's base unit, and {} is far from any real "
                        "value of it",
                        path, source_text(source, out.span), units::format(quantity.value, base)));
        d.help = std::move(help);
        return std::nullopt;
      }
  } else if (node.is_string()) {
    const std::string& written = node.as_string()->get();
    // A price per node ("$14/node/h": cloud price lists quote instances) reads as the node's
    // price per GPU-hour here; the loader divides it by gpus_per_node once that is known.
    std::string per_gpu_text;
    if (base == units::dims::usd_per_gpu_second && path.key == "price" &&
        (path.prefix == "cluster" || path.prefix.starts_with("capacity[")))
      per_gpu_text = node_price_as_gpu_price(written);
    const std::string& text = per_gpu_text.empty() ? written : per_gpu_text;
    units::QuantityResult parsed = units::parse_quantity(text);
    if (auto* error = std::get_if<units::QuantityError>(&parsed)) {
      // The character the error is at, or the last one (an error past the end is the value's).
      Span at = span_in_string(source, out.span, text, std::min(error->column - 1, std::max<std::size_t>(text.size(), 1) - 1));
      Diagnostic& d = findings_.add(native_rules::bad_quantity, at, path.str(),
                                    fmt::format("{} = {}: {}", path, source_text(source, out.span), error->message));
      if (const auto product = written_product(text); product && base == units::dims::gpus)
        d.help = fmt::format("{} is a number of GPUs: write {} = {:.15g} ({})", path, path.key, *product, text);
      else if (!context.dims.empty())
        d.help = how_to_write(path, context);
      return std::nullopt;
    }
    quantity = units::resolve(std::get<units::Quantity>(parsed), base);
    // A dimensionless string ("1T") for a key with a unit is in the key's base unit; a
    // resolved count keeps the key's plain-number scale too ("$3" for price is per GPU-hour).
    if (std::get<units::Quantity>(parsed).dim.dimensionless() && !base.dimensionless())
      quantity.value *= context.plain_number_scale;
  } else {
    findings_.add(native_rules::bad_quantity, out.span, path.str(),
                  fmt::format("{} must be a number or a quantity string such as \"80 GB\"", path));
    return std::nullopt;
  }

  // Network bandwidths are quoted in bits ("400 Gbps"); the plan model keeps bytes.
  if (quantity.dim == units::dims::bits_per_second && base == units::dims::bytes_per_second &&
      std::find(context.dims.begin(), context.dims.end(), quantity.dim) != context.dims.end()) {
    quantity = units::Quantity{quantity.value / 8, base};
    out.in_bits = true;
  }
  if (!std::isfinite(quantity.value)) {
    findings_.add(native_rules::bad_quantity, out.span, path.str(),
                  fmt::format("{} = {} is out of range", path, source_text(source, out.span)));
    return std::nullopt;
  }
  if (!context.dims.empty() &&
      std::find(context.dims.begin(), context.dims.end(), quantity.dim) == context.dims.end()) {
    Diagnostic& d = findings_.add(
        native_rules::bad_quantity, out.span, path.str(),
        fmt::format("{} = {} has the wrong dimension: expected {}, found {}", path,
                    source_text(source, out.span), describe_dims(context.dims),
                    units::describe(quantity.dim)));
    if (quantity.dim == units::dims::bits_per_second && base == units::dims::bytes_per_second)
      d.help = fmt::format("bits and bytes differ by 8: {} is {}", source_text(source, out.span),
                           units::format(quantity.value / 8, base));
    else if (quantity.dim == units::dims::seconds && base == units::dims::gpu_seconds)
      // GPU-seconds are often written "5.6e8 s": GPU time is GPUs × time, so a time alone
      // could be either the run's wall time or the GPUs' sum.
      d.help = fmt::format("GPU time is GPUs × time: if {} is summed over the GPUs, write it as "
                           "\"{} GPU-s\" ({}); a run's duration is train.days",
                           source_text(source, out.span), units::format(quantity.value, units::dims::none),
                           units::format(quantity.value, units::dims::gpu_seconds));
    else if (quantity.dim == units::dims::usd * units::dims::per_second &&
             base == units::dims::usd_per_gpu_second)
      // Cloud price lists quote instances: "$98.32/h" is an 8-GPU node's hour as often as
      // one GPU's. Which it is, only the writer knows; show both readings.
      d.help = price_per_gpu_help(source_text(source, out.span), quantity.value * 3600, section_);
    else if (quantity.dim * units::dims::per_second == base)
      // A near miss: "989 TFLOP" for a rate, "3.35 TB" for a bandwidth.
      d.help = fmt::format("{} is a rate, per second: {} = \"{}\"", path, path.key,
                           units::format(quantity.value, base));
    else
      d.help = how_to_write(path, context);
    return std::nullopt;
  }
  if (spec) {
    const double v = quantity.value / (spec->plain_number_scale);
    const bool below = spec->min_exclusive ? v <= spec->min : v < spec->min;
    if (below || v > spec->max) {
      std::string bound =
          spec->max < 1e299
              ? fmt::format("{} {} and at most {}", spec->min_exclusive ? "greater than" : "at least",
                            describe_number(spec->min, quantity.dim, spec->base_unit),
                            describe_number(spec->max, quantity.dim, spec->base_unit))
              : fmt::format("{} {}", spec->min_exclusive ? "greater than" : "at least",
                            describe_number(spec->min, quantity.dim, spec->base_unit));
      Diagnostic& d = findings_.add(native_rules::bad_quantity, out.span, path.str(),
                                    fmt::format("{} = {} is out of physical range: it must be {}", path,
                                                source_text(source, out.span), bound));
      // A percentage written as a plain number: mfu = 40 is 4000%.
      if (spec->base_unit == "fraction" && quantity.dim.dimensionless() && node.is_number() && v > 1 && v <= 100)
        d.help = fmt::format("a plain number is a fraction (0.4 = 40%): write {} = \"{:g}%\" or {} = {:g}", path.key,
                             v, path.key, v / 100);
      return std::nullopt;
    }
    // "16.4B" is 16399999999.999998 in binary floating point: whole within rounding.
    const double nearest = std::round(quantity.value);
    if (spec->kind == ValueKind::whole &&
        std::abs(quantity.value - nearest) <= 1e-9 * std::max(1.0, std::abs(nearest)))
      quantity.value = nearest;
    if (spec->kind == ValueKind::whole && std::floor(quantity.value) != quantity.value) {
      findings_.add(native_rules::bad_quantity, out.span, path.str(),
                    fmt::format("{} = {} must be a whole number", path, source_text(source, out.span)));
      return std::nullopt;
    }
    // A batch or a concurrency counts whole sequences ("1023.5 sequences" would print as
    // "1.02K sequences" and divide into micro-batches that do not exist); the plausible range
    // an [[assumptions]] entry gives the key need not be whole.
    if (spec->whole_sequences && quantity.dim == units::dims::sequences && path.prefix == spec->section &&
        path.key == spec->key &&
        std::abs(quantity.value - nearest) > 1e-9 * std::max(1.0, std::abs(nearest))) {
      findings_.add(native_rules::bad_quantity, out.span, path.str(),
                    fmt::format("{} = {} must be a whole number of sequences", path, source_text(source, out.span)));
      return std::nullopt;
    }
  }
  // A fraction (mfu, goodput, a claim of train.comm.fraction) is shown as a percentage in
  // findings, however it was written: "75%", not "0.75" (render in rules/run.cpp).
  if (context.base_unit == "fraction" && quantity.dim.dimensionless()) quantity.percent = true;
  out.value = quantity;
  return out;
}

std::string node_price_as_gpu_price(const std::string& written) {
  std::string lower = written;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::size_t slash = lower.find('/');
  while (slash != std::string::npos) {
    std::size_t word = lower.find_first_not_of(' ', slash + 1);
    if (word != std::string::npos && lower.compare(word, 4, "node") == 0 &&
        (word + 4 == lower.size() || !std::isalpha(static_cast<unsigned char>(lower[word + 4]))))
      return written.substr(0, word) + "GPU" + written.substr(word + 4);
    slash = lower.find('/', slash + 1);
  }
  return {};
}

}  // namespace planlint::detail
