#pragma once
/// The builder of schema.cpp's key table: a row's KeySpec with the parts most rows leave out
/// set by name, and the common shapes of a row (a count, a degree, a fraction, an amount).
///
///     count("model", "layers", "transformer layers L"),
///     degree("training", "tp", "tensor parallel degree").doc("tensor-parallel degree t").fixed(1),
#include <string_view>
#include <utility>
#include <vector>

#include "planlint/plan/schema.hpp"

namespace planlint::key_rows {

using namespace units::dims;
using K = ValueKind;

constexpr double huge = 1e300;

/// A row of the key table: its KeySpec, with the parts most rows leave out set by name.
struct Row {
  KeySpec spec;

  Row& required() {
    spec.required = true;
    return *this;
  }
  /// What the key means beyond its `description` (plan-format.md's "meaning" column).
  Row& doc(std::string_view text) {
    spec.doc = text;
    return *this;
  }
  /// A fixed default, which apply_defaults() sets wherever the key's section applies.
  Row& fixed(double value) {
    spec.by_default.fixed = value;
    return *this;
  }
  Row& fixed_choice(std::string_view value) {
    spec.by_default.fixed = value;
    return *this;
  }
  Row& fixed_flag(bool value) {
    spec.by_default.fixed = value;
    return *this;
  }
  /// The condition of a fixed default that apply_defaults() sets only under it.
  Row& when(std::string_view condition) {
    spec.by_default.how = condition;
    return *this;
  }
  /// A default that follows from other keys (`how`, computed from `sources`), or what the
  /// estimates take when the key is not stated.
  Row& derived(std::string_view how, std::vector<std::string_view> sources = {}) {
    spec.by_default.how = how;
    spec.by_default.sources = std::move(sources);
    return *this;
  }
  /// A batch or a concurrency: whole sequences (value_reader.cpp).
  Row& whole_sequences() {
    spec.whole_sequences = true;
    return *this;
  }
  operator KeySpec() const { return spec; }
};

// The common shapes of a row.
inline Row count(std::string_view s, std::string_view k, std::string_view d, std::string_view unit = "count") {
  return {KeySpec{s, k, K::whole, d, {none}, unit, 1, {}, false, 0, huge, true}};
}
inline Row degree(std::string_view s, std::string_view k, std::string_view d) {
  return {KeySpec{s, k, K::whole, d, {none}, "count", 1, {}, false, 1, huge}};
}
inline Row whole_number(std::string_view s, std::string_view k, std::string_view d, std::string_view unit, double max) {
  return {KeySpec{s, k, K::whole, d, {none}, unit, 1, {}, false, 0, max}};
}
inline Row fraction(std::string_view s, std::string_view k, std::string_view d, bool zero_allowed = false) {
  return {KeySpec{s, k, K::quantity, d, {none}, "fraction", 1, {}, false, 0, 1, !zero_allowed}};
}
inline Row factor(std::string_view s, std::string_view k, std::string_view d, double max = huge) {
  return {KeySpec{s, k, K::quantity, d, {none}, "factor", 1, {}, false, 1, max}};
}
inline Row amount(std::string_view s, std::string_view k, std::string_view d, std::vector<units::Dimension> dims,
           std::string_view unit) {
  return {KeySpec{s, k, K::quantity, d, std::move(dims), unit, 1, {}, false, 0, huge, true}};
}
inline Row time(std::string_view s, std::string_view k, std::string_view d) {
  return amount(s, k, d, {seconds}, "seconds");
}
inline Row bandwidth(std::string_view s, std::string_view k, std::string_view d) {
  return amount(s, k, d, {bytes_per_second, bits_per_second}, "bytes/s");
}
/// A price per GPU-hour: a plain number is USD per GPU-hour (cluster.price, a [[capacity]] slice's).
inline Row price(std::string_view s, std::string_view d) {
  return {KeySpec{s, "price", K::quantity, d, {usd_per_gpu_second}, "USD per GPU-hour", 1.0 / 3600, {}, false, 0, huge}};
}
inline Row choice(std::string_view s, std::string_view k, std::string_view d, std::vector<std::string_view> choices) {
  return {KeySpec{s, k, K::choice, d, {}, {}, 1, std::move(choices)}};
}
inline Row text(std::string_view s, std::string_view k, std::string_view d) { return {KeySpec{s, k, K::string, d}}; }
inline Row flag(std::string_view s, std::string_view k, std::string_view d) { return {KeySpec{s, k, K::boolean, d}}; }
inline Row date(std::string_view s, std::string_view k, std::string_view d) { return {KeySpec{s, k, K::date, d}}; }
inline Row of_kind(std::string_view s, std::string_view k, ValueKind kind, std::string_view d) {
  return {KeySpec{s, k, kind, d}};
}

}  // namespace planlint::key_rows
