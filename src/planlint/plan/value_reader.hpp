#pragma once
/// Reads one TOML value into a PlanValue according to its KeySpec, reporting bad-quantity and
/// bad-value findings. Internal to the plan loader.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "planlint/diag/diagnostic.hpp"
#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/plan/plan.hpp"
#include "planlint/plan/schema.hpp"
#include "planlint/source/toml_span.hpp"

namespace planlint::detail {

/// Reports the loader's findings for one file to its sink.
class Findings {
 public:
  /// `first_line`: the source's line where the parsed text starts (ColumnConverter).
  Findings(const SourceFile& source, DiagnosticSink& sink, std::uint32_t first_line = 1)
      : source_(source), sink_(sink), columns_(source, first_line) {}

  Diagnostic& add(std::string_view rule, Span span, std::string key_path, std::string message);
  const SourceFile& source() const { return source_; }
  /// Where the findings go.
  DiagnosticSink& sink() { return sink_; }
  /// A toml++ region of the file as a span (byte columns).
  Span span(const toml::source_region& region) { return columns_.span(region); }
  /// The parsed text was ASCII (parse_toml): toml++'s columns are byte columns.
  void assume_ascii(bool ascii) { columns_.assume_ascii(ascii); }

 private:
  const SourceFile& source_;
  DiagnosticSink& sink_;
  ColumnConverter columns_;
};

/// The dimensions a quantity may have and what a plain TOML number means.
/// Views only: a context is made for every quantity the loader reads, so it points at the
/// schema's static data (or at the caller's) instead of copying it.
struct QuantityContext {
  std::span<const units::Dimension> dims;  ///< accepted; empty: any dimension
  double plain_number_scale = 1;
  bool plain_number_allowed = true;
  std::string_view base_unit;  ///< for messages: "bytes"; "fraction" marks a value percent
};

QuantityContext context_of(const KeySpec& spec);

/// A key's dotted path ("cluster.hbm", "targets[0].max") in its two parts. The loader names
/// every key it reads, but only a finding shows the path: it is joined then (str(), or fmt).
struct KeyPath {
  std::string_view prefix;  ///< "cluster", "targets[0]", "estimates.train.days"
  std::string_view key;     ///< "hbm"
  std::string str() const;  ///< prefix + "." + key
};

class ValueReader {
 public:
  explicit ValueReader(Findings& findings) : findings_(findings) {}

  /// Reads `node` as the value of `spec` at `path` ("cluster.hbm"). Nullopt after reporting
  /// a finding (or for a kind that needs a context: use read_quantity).
  std::optional<PlanValue> read(const toml::node& node, const toml::key& key, const KeySpec& spec,
                                const KeyPath& path);

  /// Reads a quantity in `context`; range checks use `spec` when given.
  std::optional<PlanValue> read_quantity(const toml::node& node, const toml::key& key,
                                         const QuantityContext& context, const KeySpec* spec,
                                         const KeyPath& path);

  /// The table whose keys are being read, for helps that name a sibling's value (a price per
  /// hour divided by the table's gpus_per_node); null outside one.
  void set_section(const toml::table* table) { section_ = table; }

 private:
  void bad_value(const toml::node& node, const KeyPath& path, std::string message,
                 std::optional<std::string> help = std::nullopt);

  Findings& findings_;
  const toml::table* section_ = nullptr;
};

/// `written` with its "/node" unit ("$14/node/h", "14 USD/Node-hour") as "/GPU", or "" when it
/// names no node: a price per node, which the loader reads per GPU (node-price).
std::string node_price_as_gpu_price(const std::string& written);

/// "training.mfu = 140%" style rendering of the value's source text, for messages.
std::string source_text(const SourceFile& source, Span span);

}  // namespace planlint::detail

template <>
struct fmt::formatter<planlint::detail::KeyPath> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(const planlint::detail::KeyPath& path, Context& context) const {
    return fmt::formatter<std::string_view>::format(path.str(), context);
  }
};
