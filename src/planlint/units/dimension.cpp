#include "planlint/units/dimension.hpp"

#include <string_view>

namespace planlint::units {
namespace {

struct NamedDimension {
  Dimension dimension;
  std::string_view name;
};

constexpr NamedDimension named_dimensions[] = {
    {dims::none, "dimensionless"},
    {dims::bytes, "bytes"},
    {dims::bits, "bits"},
    {dims::bytes_per_second, "bytes per second"},
    {dims::bits_per_second, "bits per second"},
    {dims::flop, "FLOP"},
    {dims::flop_per_second, "FLOP per second"},
    {dims::seconds, "seconds"},
    {dims::per_second, "per second"},
    {dims::usd, "USD"},
    {dims::usd_per_gpu_second, "USD per GPU-hour"},
    {dims::gpu_seconds, "GPU time"},
    {dims::tokens, "tokens"},
    {dims::tokens_per_second, "tokens per second"},
    {dims::gpus, "GPUs"},
    {dims::requests, "requests"},
    {dims::requests * dims::per_second, "requests per second"},
    {dims::sequences, "sequences"},
    {dims::bytes_per_token, "bytes per token"},
    {dims::flop / dims::tokens, "FLOP per token"},
    {dims::usd / dims::tokens, "USD per token"},
};

constexpr std::string_view base_symbols[base_count] = {"B",     "bit", "FLOP", "s",  "USD",
                                                       "token", "GPU", "req",  "seq"};

std::string superscript(int exponent) {
  static constexpr std::string_view digits[] = {"\u2070", "\u00B9", "\u00B2", "\u00B3", "\u2074",
                                                "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
  std::string out;
  if (exponent < 0) {
    out += "\u207B";
    exponent = -exponent;
  }
  const std::string decimal = std::to_string(exponent);
  for (char c : decimal) out += digits[c - '0'];
  return out;
}

}  // namespace

std::string describe(Dimension dimension) {
  for (const auto& named : named_dimensions)
    if (named.dimension == dimension) return std::string(named.name);
  return unit_symbol(dimension);
}

std::string unit_symbol(Dimension dimension) {
  if (dimension.dimensionless()) return "1";
  std::string out;
  const auto append = [&](std::size_t i) {
    const int exponent = dimension.exponents[i];
    if (!out.empty()) out += "\u00B7";
    out += base_symbols[i];
    if (exponent != 1) out += superscript(exponent);
  };
  for (std::size_t i = 0; i < base_count; ++i)
    if (dimension.exponents[i] > 0) append(i);
  for (std::size_t i = 0; i < base_count; ++i)
    if (dimension.exponents[i] < 0) append(i);
  return out;
}

}  // namespace planlint::units
