#pragma once
/// The unit atoms of the quantity syntax ("GB", "TFLOPS", "GPU-h", "tokens") and their value in
/// base units. Header-only so that the grammar library (planlint_grammar) and the units code
/// share one table without a link cycle; it does not include Spirit.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/edit_distance.hpp"
#include "planlint/units/dimension.hpp"

namespace planlint::units {

/// One unit atom: `scale` base units of dimension `dim` ("GB" is 1e9 of dims::bytes).
struct UnitAtom {
  double scale = 1;
  Dimension dim;
};

namespace detail {

struct UnitPrefix {
  std::string_view symbol;
  double factor;
};

/// SI prefixes (powers of 1000); `K` is accepted as a common spelling of kilo.
inline constexpr UnitPrefix si_prefixes[] = {{"k", 1e3},  {"K", 1e3},  {"M", 1e6}, {"G", 1e9},
                                             {"T", 1e12}, {"P", 1e15}, {"E", 1e18}};
/// FLOP counts reach zetta and yotta (a frontier run is ~1e25 FLOP).
inline constexpr UnitPrefix flop_prefixes[] = {{"k", 1e3},  {"K", 1e3},  {"M", 1e6},
                                               {"G", 1e9},  {"T", 1e12}, {"P", 1e15},
                                               {"E", 1e18}, {"Z", 1e21}, {"Y", 1e24}};
inline constexpr UnitPrefix binary_prefixes[] = {
    {"Ki", 1024.0},          {"Mi", 1048576.0},          {"Gi", 1073741824.0},
    {"Ti", 1099511627776.0}, {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0}};

struct PlainAtom {
  std::string_view word;
  double scale;
  Dimension dim;
};

inline constexpr double minute_s = 60, hour_s = 3600, day_s = 86400;

/// Atoms that take no prefix.
inline constexpr PlainAtom plain_atoms[] = {
    {"s", 1, dims::seconds},
    {"sec", 1, dims::seconds},
    {"secs", 1, dims::seconds},
    {"second", 1, dims::seconds},
    {"seconds", 1, dims::seconds},
    {"ms", 1e-3, dims::seconds},
    {"us", 1e-6, dims::seconds},
    {"\xC2\xB5s", 1e-6, dims::seconds},
    {"ns", 1e-9, dims::seconds},
    {"min", minute_s, dims::seconds},
    {"mins", minute_s, dims::seconds},
    {"minute", minute_s, dims::seconds},
    {"minutes", minute_s, dims::seconds},
    {"h", hour_s, dims::seconds},
    {"hr", hour_s, dims::seconds},
    {"hrs", hour_s, dims::seconds},
    {"hour", hour_s, dims::seconds},
    {"hours", hour_s, dims::seconds},
    {"d", day_s, dims::seconds},
    {"day", day_s, dims::seconds},
    {"days", day_s, dims::seconds},
    {"week", 7 * day_s, dims::seconds},
    {"weeks", 7 * day_s, dims::seconds},
    {"year", 365 * day_s, dims::seconds},
    {"years", 365 * day_s, dims::seconds},
    {"GPU", 1, dims::gpus},
    {"GPUs", 1, dims::gpus},
    {"GPU-s", 1, dims::gpu_seconds},  // GPU-seconds, as train.gpu_seconds claims them
    {"GPU-sec", 1, dims::gpu_seconds},
    {"GPU-second", 1, dims::gpu_seconds},
    {"GPU-seconds", 1, dims::gpu_seconds},
    {"GPU-h", hour_s, dims::gpu_seconds},
    {"GPU-hr", hour_s, dims::gpu_seconds},
    {"GPU-hour", hour_s, dims::gpu_seconds},
    {"GPU-hours", hour_s, dims::gpu_seconds},
    {"GPU-d", day_s, dims::gpu_seconds},
    {"GPU-day", day_s, dims::gpu_seconds},
    {"GPU-days", day_s, dims::gpu_seconds},
    {"tok", 1, dims::tokens},  // "40 tok/s", as serving dashboards write it (like seq, req)
    {"toks", 1, dims::tokens},
    {"token", 1, dims::tokens},
    {"tokens", 1, dims::tokens},
    {"req", 1, dims::requests},
    {"reqs", 1, dims::requests},
    {"request", 1, dims::requests},
    {"requests", 1, dims::requests},
    {"seq", 1, dims::sequences},
    {"seqs", 1, dims::sequences},
    {"sequence", 1, dims::sequences},
    {"sequences", 1, dims::sequences},
    {"USD", 1, dims::usd},
    {"$", 1, dims::usd},
    {"%", 0.01, dims::none},
};

struct PrefixableAtom {
  std::string_view word;
  Dimension dim;
  bool binary;  ///< also takes Ki Mi Gi Ti Pi Ei
  bool flop;    ///< takes the SI prefixes through Z and Y
};

inline constexpr PrefixableAtom prefixable_atoms[] = {
    {"B", dims::bytes, true, false},
    {"byte", dims::bytes, true, false},
    {"bytes", dims::bytes, true, false},
    {"b", dims::bits, true, false},
    {"bit", dims::bits, true, false},
    {"bits", dims::bits, true, false},
    {"bps", dims::bits_per_second, false, false},
    {"Bps", dims::bytes_per_second, false, false},
    {"FLOP", dims::flop, false, true},
    {"FLOPs", dims::flop, false, true},
    {"FLOPS", dims::flop_per_second, false, true},
};

inline std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace detail

/// The atom spelled `word` ("GiB", "Gbps", "TFLOPS", "GPU-h"), if it is one. Case-sensitive:
/// `Gb` is gigabits, `GB` gigabytes.
inline std::optional<UnitAtom> find_unit_atom(std::string_view word) {
  for (const auto& atom : detail::plain_atoms)
    if (atom.word == word) return UnitAtom{atom.scale, atom.dim};
  for (const auto& atom : detail::prefixable_atoms) {
    if (!word.ends_with(atom.word)) continue;
    const auto prefix = word.substr(0, word.size() - atom.word.size());
    if (prefix.empty()) return UnitAtom{1, atom.dim};
    if (atom.flop) {
      for (const auto& p : detail::flop_prefixes)
        if (p.symbol == prefix) return UnitAtom{p.factor, atom.dim};
    } else {
      for (const auto& p : detail::si_prefixes)
        if (p.symbol == prefix) return UnitAtom{p.factor, atom.dim};
    }
    if (atom.binary)
      for (const auto& p : detail::binary_prefixes)
        if (p.symbol == prefix) return UnitAtom{p.factor, atom.dim};
  }
  return std::nullopt;
}

/// Every spelling find_unit_atom() accepts, for suggestions and documentation.
inline std::vector<std::string> unit_atom_spellings() {
  std::vector<std::string> out;
  for (const auto& atom : detail::plain_atoms) out.emplace_back(atom.word);
  for (const auto& atom : detail::prefixable_atoms) {
    out.emplace_back(atom.word);
    if (atom.flop) {
      for (const auto& p : detail::flop_prefixes) out.push_back(std::string(p.symbol) += atom.word);
    } else {
      for (const auto& p : detail::si_prefixes) out.push_back(std::string(p.symbol) += atom.word);
    }
    if (atom.binary)
      for (const auto& p : detail::binary_prefixes)
        out.push_back(std::string(p.symbol) += atom.word);
  }
  return out;
}

/// The multiplier of a count suffix written right after a number ("7B", "1.5M tokens", "93.5K").
inline std::optional<double> count_suffix(std::string_view word) {
  if (word == "K" || word == "k") return 1e3;
  if (word == "M") return 1e6;
  if (word == "G" || word == "B") return 1e9;
  if (word == "T") return 1e12;
  return std::nullopt;
}

/// For a word that spells FLOP in the wrong case ("flops", "Tflops", "TFlop"): the message that
/// explains the FLOP / FLOPS distinction, since a guess could be off by the run's duration.
inline std::optional<std::string> flop_case_error(std::string_view word) {
  const auto spells_flop = [](std::string_view w) {
    const auto l = detail::lower(w);
    return l == "flop" || l == "flops";
  };
  std::string prefix;
  if (!spells_flop(word)) {
    if (word.size() < 2 || !spells_flop(word.substr(1)) ||
        std::string_view("kKMGTPEZYmgtpezy").find(word.front()) == std::string_view::npos)
      return std::nullopt;
    const char p = word.front();
    prefix = (p == 'k' || p == 'K') ? std::string(1, p)
                                    : std::string(1, static_cast<char>(std::toupper(p)));
  }
  std::string message = "'";
  message.append(word).append("' is ambiguous: write ").append(prefix);
  message.append("FLOP (work) or ").append(prefix).append("FLOPS (rate)");
  return message;
}

/// A hint for an unknown unit word, e.g. " (did you mean 'GB/s'?)", or "" when none fits.
inline std::string unit_suggestion(std::string_view word) {
  std::vector<std::string> candidates;
  if (word.size() > 1 && word.back() == 's' && find_unit_atom(word.substr(0, word.size() - 1)))
    candidates.push_back(std::string(word.substr(0, word.size() - 1)) + "/s");
  if (word.size() > 3 && count_suffix(word.substr(0, 1)) && find_unit_atom(word.substr(1)))
    candidates.push_back(std::string(word.substr(0, 1)) + " " + std::string(word.substr(1)));
  if (candidates.empty()) {
    const auto lowered = detail::lower(word);
    for (const auto& spelling : unit_atom_spellings())
      if (detail::lower(spelling) == lowered && spelling != word) candidates.push_back(spelling);
  }
  // A typo of a word unit ("tokns", "secnds"): the spellings one edit away (two for long words).
  if (candidates.empty() && word.size() >= 4) {
    const std::size_t allowed = word.size() >= 7 ? 2 : 1;
    for (const auto& spelling : unit_atom_spellings())
      if (spelling.size() >= 3 && edit_distance(word, spelling) <= allowed) candidates.push_back(spelling);
  }
  if (candidates.empty()) return "";
  std::string hint = " (did you mean ";
  for (std::size_t i = 0; i < candidates.size() && i < 3; ++i) {
    if (i > 0) hint += i + 1 == candidates.size() || i == 2 ? " or " : ", ";
    hint += "'" + candidates[i] + "'";
  }
  return hint + "?)";
}

}  // namespace planlint::units
