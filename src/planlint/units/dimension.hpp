#pragma once
/// Physical dimensions of plan quantities: a vector of exponents over planlint's base units.
/// Bits and bytes are distinct base units on purpose (a 400 Gb/s NIC is not 400 GB/s); convert
/// with 8 explicitly.
#include <array>
#include <cstdint>
#include <string>

namespace planlint::units {

/// Base units. Every Quantity value is stored in these: B, bit, FLOP, s, USD, token, GPU,
/// request, sequence.
enum class Base : std::uint8_t { byte, bit, flop, second, usd, token, gpu, request, sequence };
inline constexpr std::size_t base_count = 9;

struct Dimension {
  std::array<std::int8_t, base_count> exponents{};

  static constexpr Dimension of(Base base, std::int8_t power = 1) {
    Dimension d;
    d.exponents[static_cast<std::size_t>(base)] = power;
    return d;
  }
  constexpr bool dimensionless() const {
    for (auto e : exponents)
      if (e != 0) return false;
    return true;
  }
  constexpr std::int8_t operator[](Base base) const {
    return exponents[static_cast<std::size_t>(base)];
  }
  friend constexpr Dimension operator*(Dimension a, Dimension b) {
    for (std::size_t i = 0; i < base_count; ++i) a.exponents[i] += b.exponents[i];
    return a;
  }
  friend constexpr Dimension operator/(Dimension a, Dimension b) {
    for (std::size_t i = 0; i < base_count; ++i) a.exponents[i] -= b.exponents[i];
    return a;
  }
  /// Raises to an integer power.
  constexpr Dimension pow(int power) const {
    Dimension d = *this;
    for (auto& e : d.exponents) e = static_cast<std::int8_t>(e * power);
    return d;
  }
  friend constexpr bool operator==(const Dimension&, const Dimension&) = default;
};

/// The dimensions plan keys and metrics use.
namespace dims {
inline constexpr Dimension none{};
inline constexpr Dimension bytes = Dimension::of(Base::byte);
inline constexpr Dimension bits = Dimension::of(Base::bit);
inline constexpr Dimension seconds = Dimension::of(Base::second);
inline constexpr Dimension per_second = Dimension::of(Base::second, -1);
inline constexpr Dimension bytes_per_second = bytes * per_second;
inline constexpr Dimension bits_per_second = bits * per_second;
inline constexpr Dimension flop = Dimension::of(Base::flop);
inline constexpr Dimension flop_per_second = flop * per_second;
inline constexpr Dimension usd = Dimension::of(Base::usd);
inline constexpr Dimension tokens = Dimension::of(Base::token);
inline constexpr Dimension tokens_per_second = tokens * per_second;
inline constexpr Dimension gpus = Dimension::of(Base::gpu);
inline constexpr Dimension gpu_seconds = gpus * seconds;
inline constexpr Dimension usd_per_gpu_second = usd / gpu_seconds;
inline constexpr Dimension requests = Dimension::of(Base::request);
inline constexpr Dimension sequences = Dimension::of(Base::sequence);
inline constexpr Dimension bytes_per_token = bytes / tokens;
}  // namespace dims

/// A reader's name for a dimension: "bytes", "bits per second", "USD per GPU-hour"; a
/// symbolic form ("B·s⁻¹") for combinations without a name.
std::string describe(Dimension dimension);

/// The symbolic form of a dimension: "B·s⁻¹", "USD·GPU⁻¹·s⁻¹", "1" for none. Symbols: B, bit,
/// FLOP, s, USD, token, GPU, req, seq; positive exponents first.
std::string unit_symbol(Dimension dimension);

}  // namespace planlint::units
