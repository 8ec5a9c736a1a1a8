#pragma once
/// Helpers of the estimates and report tests: plans built from a few key overrides, fixtures
/// of tests/data/estimates/, and comparison to 3 significant figures.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "planlint/estimate/estimates.hpp"
#include "planlint/metrics/metric_table.hpp"
#include "support.hpp"

namespace planlint::test {

/// A plan and its estimates.
struct Estimated {
  LoadResult loaded;
  Estimates estimates;

  const Plan& plan() const { return *loaded.plan; }
  /// The metric, or a failed REQUIRE naming it.
  const MetricValue& operator[](std::string_view name) const {
    const MetricValue* metric = estimates.find(name);
    INFO("metric " << name);
    REQUIRE(metric != nullptr);
    return *metric;
  }
};

inline Estimated estimate_loaded(LoadResult loaded) {
  INFO(render(loaded.diagnostics));
  REQUIRE(loaded.plan.has_value());
  for (const Diagnostic& d : loaded.diagnostics) CHECK(d.severity != Severity::error);
  Estimates estimates = estimate(*loaded.plan, Catalog::builtin());
  return Estimated{std::move(loaded), std::move(estimates)};
}

inline Estimated estimate_text(std::string toml) { return estimate_loaded(load_text(std::move(toml))); }

/// tests/data/estimates/<name>
inline std::string estimates_fixture(std::string_view name) {
  return data_path("data/estimates/" + std::string(name));
}
inline Estimated estimate_fixture(std::string_view name) {
  return estimate_loaded(load_fixture("estimates/" + std::string(name)));
}

/// The fixtures holding the worked examples of docs/estimates.md: each states the example's
/// inputs, and its [estimates] section the example's expected values.
inline const std::vector<std::string> vector_fixtures = {
    "7b-pretrain.toml",    "70b-15t.toml",    "13b-1t.toml",          "13b-zero3.toml",
    "llama2-7b-kv.toml",   "13b-decode.toml", "70b-decode.toml",      "70b-decode-int4.toml",
    "7b-a100.toml",        "gpt3-v100.toml"};

/// `x` rounded to 3 significant figures.
inline double round3(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double unit = std::pow(10.0, std::floor(std::log10(std::fabs(x))) - 2);
  return std::round(x / unit) * unit;
}

/// Whether `actual` reproduces `expected` to 3 significant figures, both in the metric's
/// reading unit (days for *days, GPU-hours for *_hours, else the base unit).
inline bool same_3sf(std::string_view metric, double actual, double expected) {
  const MetricSpec* known = find_metric(metric);
  const double scale = known ? known->plain.scale : 1;
  const double a = round3(actual / scale), e = round3(expected / scale);
  return std::fabs(a - e) <= 1e-9 * std::fabs(e);
}

/// A training plan (a 7B dense model on 128 H100 SXM) with keys replaced: {"training.zero",
/// "3"} sets a key, {"model.layers", ""} removes it. Values are TOML.
inline std::string training_plan(const std::map<std::string, std::string>& changes = {}) {
  std::map<std::string, std::string> keys = {
      {"plan.name", "\"p\""},          {"plan.kind", "\"training\""},
      {"model.params", "\"7B\""},       {"model.layers", "32"},
      {"model.hidden", "4096"},         {"model.heads", "32"},
      {"training.tokens", "\"1T\""},    {"training.seq_len", "4096"},
      {"training.micro_batch", "1"},    {"training.global_batch", "1024"},
      {"training.mfu", "\"40%\""},      {"training.goodput", "\"90%\""},
      {"cluster.gpu", "\"h100-sxm\""},  {"cluster.count", "128"},
      {"cluster.inter_node_bandwidth", "\"400 Gbps\""},
  };
  for (const auto& [key, value] : changes) {
    if (value.empty()) keys.erase(key);
    else keys[key] = value;
  }
  std::string toml;
  for (std::string_view section : {"plan", "model", "training", "inference", "cluster"}) {
    std::string body;
    for (const auto& [key, value] : keys)
      if (key.starts_with(section) && key.size() > section.size() && key[section.size()] == '.')
        body += fmt::format("{} = {}\n", key.substr(section.size() + 1), value);
    if (!body.empty()) toml += fmt::format("[{}]\n{}\n", section, body);
  }
  return toml;
}

/// An inference plan (Llama-2-70B shape on 4 H100 SXM) with keys replaced, as training_plan.
inline std::string inference_plan(std::map<std::string, std::string> changes = {}) {
  std::map<std::string, std::string> keys = {
      {"plan.kind", "\"inference\""},       {"training.tokens", ""},
      {"training.seq_len", ""},             {"training.micro_batch", ""},
      {"training.global_batch", ""},        {"training.mfu", ""},
      {"training.goodput", ""},             {"model.params", "\"70B\""},
      {"model.layers", "80"},               {"model.hidden", "8192"},
      {"model.heads", "64"},                {"model.kv_heads", "8"},
      {"inference.context", "\"4096 tokens\""}, {"inference.prompt_tokens", "3072"},
      {"inference.concurrency", "\"32 seq\""},  {"inference.tp", "4"},
      {"cluster.count", "4"},
  };
  for (auto& [key, value] : changes) keys[key] = value;
  return training_plan(keys);
}

}  // namespace planlint::test
