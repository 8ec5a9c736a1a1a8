#include "planlint/units/unit_slip.hpp"

#include <cmath>
#include <string_view>

#include <fmt/format.h>

namespace planlint::units {

namespace {

/// A time conversion slip of `ratio` (claimed / computed) within 3%, or empty.
std::string time_slip(double ratio) {
  auto near = [&](double target) { return std::abs(ratio / target - 1) <= 0.03; };
  if (near(3.6)) return "3.6× too large: seconds divided by 1000 instead of 3600 (the s → h conversion)";
  if (near(1 / 3.6)) return "3.6× too small: hours multiplied by 1000 instead of 3600 (the h → s conversion)";
  if (near(3600)) return "3600× too large: seconds given as hours";
  if (near(1 / 3600.0)) return "3600× too small: hours given as seconds";
  if (near(24)) return "24× too large: hours given as days";
  if (near(1 / 24.0)) return "24× too small: days given as hours";
  return {};
}

}  // namespace

std::string describe_slip(double claimed, double computed, Dimension dim, double goodput, double margin) {
  if (claimed <= 0 || computed <= 0) return {};
  const double ratio = claimed / computed;
  // The slips of a time conversion only for a figure derived from a time: bytes or FLOPs 3.6×
  // off are an ordinary mismatch, not hours multiplied by 1000.
  const bool from_time = dim[Base::second] != 0 || dim[Base::usd] != 0;
  if (from_time) {
    if (std::string slip = time_slip(ratio); !slip.empty()) return slip;
    // The same slips in a claim that accounts for the goodput or the schedule margin otherwise
    // than planlint's figure: ideal time where planlint counts wall time (× G), committed time
    // where it counts wall time (× M), or the reverse. Only realistic G and M: each factor
    // widens what is called a slip.
    const bool g = goodput > 0.5 && goodput < 1, m = margin > 1 && margin <= 2;
    const std::string g_text = fmt::format("{:.3g}%", goodput * 100), m_text = fmt::format("{:.3g}", margin);
    const struct {
      bool valid;
      double factor;
      std::string how;
    } accountings[] = {
        {g, goodput, fmt::format("on the ideal time, without the {} goodput", g_text)},
        {g, 1 / goodput, fmt::format("with the {} goodput divided in once more", g_text)},
        {m, margin, fmt::format("with the × {} schedule margin multiplied in", m_text)},
        {m, 1 / margin, fmt::format("without the × {} schedule margin", m_text)},
        {g && m, goodput * margin,
         fmt::format("on the ideal time with the × {} schedule margin, without the {} goodput", m_text, g_text)},
    };
    for (const auto& accounting : accountings)
      if (accounting.valid)
        if (std::string slip = time_slip(ratio / accounting.factor); !slip.empty())
          return fmt::format("{}, {}", slip, accounting.how);
  }
  // A time (days, hours, seconds) is written without an SI prefix, and no two of d, h, min
  // and s are 1000 apart: the 1000 slipped in a figure it was computed from, not in its unit
  // ("90 d" right for 15T tokens reads 1000× off when computed from "15B").
  const bool plain_time = dim == dims::seconds;
  const std::string_view cause =
      plain_time ? "no two of d, h, min and s are 1000 apart, so an SI prefix (k/M/G/T/P/E/Z "
                   "differ by 1000) slipped in a figure it was computed from"
                 : "an SI prefix slip (k/M/G/T/P/E/Z differ by 1000)";
  // Most claims are near no factor: the prefix is formatted only for the one that is.
  auto slipped = [&](int k, std::string_view direction) {
    const std::string prefix = k == 1 ? "1000×" : fmt::format("1000^{}×", k);
    return fmt::format("{} too {}: {}", prefix, direction, cause);
  };
  // A binary prefix step (KiB, MiB, GiB, TiB: 1024 apart) is 2.4% from the decimal one at
  // 1024, 4.9% at 1024², so both are looked for and the nearer one names the slip.
  auto binary_slipped = [&](int k, std::string_view direction) {
    const std::string prefix = k == 1 ? "1024×" : fmt::format("1024^{}×", k);
    return fmt::format("{} too {}: a binary prefix slip (Ki, Mi, Gi and Ti differ by 1024, where k, M, G and T "
                       "differ by 1000)",
                       prefix, direction);
  };
  const auto off = [&](double target) { return std::abs(ratio / target - 1); };
  double factor = 1, binary = 1;
  for (int k = 1; k <= 4; ++k) {
    factor *= 1000.0;
    binary *= 1024.0;
    for (const bool larger : {true, false}) {
      const double si = larger ? factor : 1 / factor, bin = larger ? binary : 1 / binary;
      const std::string_view direction = larger ? "large" : "small";
      if (off(bin) <= 0.03 && off(bin) < off(si)) return binary_slipped(k, direction);
      if (off(si) <= 0.03) return slipped(k, direction);
    }
  }
  return {};
}

}  // namespace planlint::units
