// The quantity syntax of plan-format.md ("Quantities"): parsing, resolution of the bare `B`,
// errors with columns, and the readable formats used in diagnostics and reports.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planlint/units/dimension.hpp"
#include "planlint/units/quantity.hpp"
#include "planlint/units/unit_atoms.hpp"

using namespace planlint::units;

namespace {

Quantity parsed(std::string_view text) {
  const auto result = parse_quantity(text);
  if (const auto* error = std::get_if<QuantityError>(&result))
    FAIL("'" << text << "' did not parse: column " << error->column << ": " << error->message);
  return std::get<Quantity>(result);
}

QuantityError rejected(std::string_view text) {
  const auto result = parse_quantity(text);
  if (const auto* quantity = std::get_if<Quantity>(&result))
    FAIL("'" << text << "' parsed as " << quantity->value << " " << describe(quantity->dim));
  return std::get<QuantityError>(result);
}

struct Parses {
  std::string_view text;
  double value;  // base units
  Dimension dim;
};

void check_parses(const std::vector<Parses>& cases) {
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const auto q = parsed(c.text);
    CHECK(q.value == Approx(c.value).epsilon(1e-12));
    CHECK(describe(q.dim) == describe(c.dim));
    CHECK(q.dim == c.dim);
  }
}

constexpr double hour = 3600, day = 86400;
const Dimension requests_per_second = dims::requests * dims::per_second;

}  // namespace

TEST_CASE("plain numbers parse with underscores, exponents, signs and no unit", "[quantity]") {
  check_parses({
      {"7", 7, dims::none},
      {"3.35", 3.35, dims::none},
      {"4.2e22", 4.2e22, dims::none},
      {"2E3", 2000, dims::none},
      {"1e-3", 1e-3, dims::none},
      {"1_000", 1000, dims::none},
      {"1_000_000.000_5", 1000000.0005, dims::none},
      {"-5", -5, dims::none},
      {"+5", 5, dims::none},
      {".5", 0.5, dims::none},
      {"007", 7, dims::none},
      {"  80  ", 80, dims::none},
      {"\t80", 80, dims::none},
  });
}

TEST_CASE("count suffixes scale a number by a thousand to a trillion, and % by a hundredth",
          "[quantity]") {
  check_parses({
      {"93.5K", 93.5e3, dims::none},
      {"4k", 4e3, dims::none},
      {"1.5M", 1.5e6, dims::none},
      {"7 G", 7e9, dims::none},
      {"1T", 1e12, dims::none},
      {"40%", 0.40, dims::none},
      {"12.5 %", 0.125, dims::none},
  });
  CHECK(parsed("40%").percent);
  CHECK_FALSE(parsed("0.4").percent);
}

TEST_CASE("bytes and bits take SI and binary prefixes and are different dimensions", "[quantity]") {
  check_parses({
      {"80 GB", 80e9, dims::bytes},   {"80GB", 80e9, dims::bytes},
      {"80   GB", 80e9, dims::bytes}, {"80GiB", 80.0 * 1024 * 1024 * 1024, dims::bytes},
      {"512KB", 512e3, dims::bytes},  {"512 kB", 512e3, dims::bytes},
      {"1TB", 1e12, dims::bytes},     {"2 MiB", 2.0 * 1024 * 1024, dims::bytes},
      {"1 KiB", 1024, dims::bytes},   {"3 PB", 3e15, dims::bytes},
      {"1 EB", 1e18, dims::bytes},    {"1 EiB", 1152921504606846976.0, dims::bytes},
      {"7 B", 7, dims::bytes},        {"16 bytes", 16, dims::bytes},
      {"1 byte", 1, dims::bytes},     {"400 Gb", 400e9, dims::bits},
      {"1 bit", 1, dims::bits},       {"8 bits", 8, dims::bits},
      {"1 Kib", 1024, dims::bits},    {"5 Mb", 5e6, dims::bits},
  });
}

TEST_CASE("bandwidths parse as bytes or bits per second", "[quantity]") {
  check_parses({
      {"400 Gbps", 400e9, dims::bits_per_second},
      {"400 Gb/s", 400e9, dims::bits_per_second},
      {"100 Mbps", 100e6, dims::bits_per_second},
      {"3.35 TB/s", 3.35e12, dims::bytes_per_second},
      {"900 GB/s", 900e9, dims::bytes_per_second},
      {"50 GBps", 50e9, dims::bytes_per_second},
      {"2 TiB/s", 2.0 * 1099511627776.0, dims::bytes_per_second},
  });
}

TEST_CASE("FLOP and FLOPs are work, FLOPS and FLOP/s are rates, with prefixes up to Y",
          "[quantity]") {
  check_parses({
      {"4.2e22 FLOP", 4.2e22, dims::flop},
      {"42 ZFLOP", 4.2e22, dims::flop},
      {"1 YFLOP", 1e24, dims::flop},
      {"6e23 FLOPs", 6e23, dims::flop},
      {"5 PFLOPs", 5e15, dims::flop},
      {"989 TFLOPS", 989e12, dims::flop_per_second},
      {"1979 TFLOP/s", 1979e12, dims::flop_per_second},
      {"1.2 EFLOPS", 1.2e18, dims::flop_per_second},
      {"312 TFLOPS", 312e12, dims::flop_per_second},
  });
}

TEST_CASE("time units from microseconds to weeks parse into seconds", "[quantity]") {
  check_parses({
      {"14 d", 14 * day, dims::seconds},
      {"9.6 days", 9.6 * day, dims::seconds},
      {"1 day", day, dims::seconds},
      {"2 weeks", 14 * day, dims::seconds},
      {"1 week", 7 * day, dims::seconds},
      {"3 h", 3 * hour, dims::seconds},
      {"3 hours", 3 * hour, dims::seconds},
      {"1 hour", hour, dims::seconds},
      {"1 hr", hour, dims::seconds},
      {"30 min", 1800, dims::seconds},
      {"90 s", 90, dims::seconds},
      {"5 sec", 5, dims::seconds},
      {"1 second", 1, dims::seconds},
      {"10 seconds", 10, dims::seconds},
      {"13 ms", 0.013, dims::seconds},
      {"50 us", 50e-6, dims::seconds},
      {"50 \xC2\xB5s", 50e-6, dims::seconds},
  });
}

TEST_CASE("GPUs and GPU time parse in GPU and GPU-seconds", "[quantity]") {
  check_parses({
      {"128 GPUs", 128, dims::gpus},
      {"1 GPU", 1, dims::gpus},
      {"93.5K GPU*h", 93.5e3 * hour, dims::gpu_seconds},
      {"5 GPU\xC2\xB7h", 5 * hour, dims::gpu_seconds},
      {"5 GPU * h", 5 * hour, dims::gpu_seconds},
      {"10 GPU-h", 10 * hour, dims::gpu_seconds},
      {"5.6e8 GPU-s", 5.6e8, dims::gpu_seconds},
      {"560M GPU-seconds", 5.6e8, dims::gpu_seconds},
      {"1 GPU-hour", hour, dims::gpu_seconds},
      {"1.75e6 GPU-hours", 1.75e6 * hour, dims::gpu_seconds},
      {"2 GPU*d", 2 * day, dims::gpu_seconds},
  });
}

TEST_CASE("money is a $ prefix or a USD suffix, and prices divide by GPU time", "[quantity]") {
  check_parses({
      {"$3/GPU/h", 3 / hour, dims::usd_per_gpu_second},
      {"$ 3/GPU/h", 3 / hour, dims::usd_per_gpu_second},
      {"$2.49/GPU-hour", 2.49 / hour, dims::usd_per_gpu_second},
      {"3 USD/GPU-h", 3 / hour, dims::usd_per_gpu_second},
      {"3 $/GPU/h", 3 / hour, dims::usd_per_gpu_second},
      {"$1.2M", 1.2e6, dims::usd},
      {"$450K", 450e3, dims::usd},
      {"$7B", 7e9, dims::usd},
      {"$3", 3, dims::usd},
      {"1.3e6 USD", 1.3e6, dims::usd},
      {"$3K/GPU", 3e3, dims::usd / dims::gpus},
  });
  SECTION("a $ amount never has a bare B") { CHECK_FALSE(parsed("$7B").bare_b); }
}

TEST_CASE("tokens, requests and sequences are counted in their own dimensions", "[quantity]") {
  check_parses({
      {"1T tokens", 1e12, dims::tokens},
      {"1.5M tokens", 1.5e6, dims::tokens},
      {"7B tokens", 7e9, dims::tokens},
      {"4k tokens", 4e3, dims::tokens},
      {"4096 tokens", 4096, dims::tokens},
      {"1 token", 1, dims::tokens},
      {"23.9 tokens/s", 23.9, dims::tokens_per_second},
      {"40 tok/s", 40, dims::tokens_per_second},
      {"8192 toks", 8192, dims::tokens},
      {"100 req", 100, dims::requests},
      {"3 requests", 3, dims::requests},
      {"1 request", 1, dims::requests},
      {"10 req/s", 10, requests_per_second},
      {"64 seq", 64, dims::sequences},
      {"32 sequences", 32, dims::sequences},
      {"1 sequence", 1, dims::sequences},
  });
}

TEST_CASE("compound units combine with /, * and the middle dot, a product after / dividing",
          "[quantity]") {
  check_parses({
      {"160 kB/token", 160e3, dims::bytes_per_token},
      {"1 USD/GPU/h", 1 / hour, dims::usd_per_gpu_second},
      {"$3/GPU*h", 3 / hour, dims::usd_per_gpu_second},
      {"$3/GPU\xC2\xB7h", 3 / hour, dims::usd_per_gpu_second},
      {"2 GB*s/GPU", 2e9, dims::bytes * dims::seconds / dims::gpus},
      {"2 GPU*h/d", 2 * hour / day, dims::gpus},
      {"6 FLOP/token", 6, dims::flop / dims::tokens},
      {"1 GB / s", 1e9, dims::bytes_per_second},
      {"10K/s", 1e4, dims::per_second},
      {"100/s", 100, dims::per_second},
  });
}

TEST_CASE("a B right after a number is flagged and resolved by the key's dimension", "[quantity]") {
  const auto seven_b = parsed("7B");
  CHECK(seven_b.bare_b);
  CHECK(seven_b.value == 7);
  CHECK(seven_b.dim == dims::bytes);

  SECTION("a key that counts things reads billions") {
    const auto params = resolve(seven_b, dims::none);
    CHECK(params.value == Approx(7e9));
    CHECK(params.dim == dims::none);
    CHECK_FALSE(params.bare_b);
    const auto tokens = resolve(parsed("300B"), dims::tokens);
    CHECK(tokens.value == Approx(300e9));
    CHECK(tokens.dim == dims::tokens);
  }
  SECTION("a key that holds bytes reads bytes") {
    const auto memory = resolve(parsed("512B"), dims::bytes);
    CHECK(memory.value == 512);
    CHECK(memory.dim == dims::bytes);
    CHECK_FALSE(memory.bare_b);
  }
  SECTION("a key with bytes in a compound dimension keeps bytes, for the caller to reject") {
    const auto bandwidth = resolve(seven_b, dims::bytes_per_second);
    CHECK(bandwidth.value == 7);
    CHECK(bandwidth.dim == dims::bytes);
  }
  SECTION("a spaced, prefixed or compound B is always bytes") {
    CHECK_FALSE(parsed("7 B").bare_b);
    CHECK_FALSE(parsed("7KB").bare_b);
    CHECK_FALSE(parsed("7B/s").bare_b);
    CHECK(resolve(parsed("7 B"), dims::none).dim == dims::bytes);
  }
  SECTION("a B followed by a unit is a count suffix") {
    const auto tokens = parsed("7B tokens");
    CHECK_FALSE(tokens.bare_b);
    CHECK(tokens.value == Approx(7e9));
    CHECK(tokens.dim == dims::tokens);
  }
}

TEST_CASE("a dimensionless value takes the base unit of the key it is given to", "[quantity]") {
  const auto tokens = resolve(parsed("1T"), dims::tokens);
  CHECK(tokens.value == Approx(1e12));
  CHECK(tokens.dim == dims::tokens);

  const auto gpus = resolve(Quantity{128, dims::none}, dims::gpus);
  CHECK(gpus.value == 128);
  CHECK(gpus.dim == dims::gpus);

  SECTION("a fraction stays a fraction") {
    CHECK(resolve(parsed("40%"), dims::none).value == Approx(0.4));
    CHECK(resolve(parsed("10%"), dims::bytes).dim == dims::none);
  }
  SECTION("a value with a unit is left for the caller to check") {
    const auto memory = resolve(parsed("80 GB"), dims::tokens);
    CHECK(memory.dim == dims::bytes);
    CHECK(memory.value == Approx(80e9));
  }
}

TEST_CASE("units of the wrong kind keep a dimension the caller rejects by name", "[quantity]") {
  const auto nic = parsed("80 Gbps");
  CHECK(nic.dim != dims::bytes);
  CHECK(nic.dim != dims::bytes_per_second);
  CHECK(describe(nic.dim) == "bits per second");

  CHECK(parsed("400 GB/s").dim != dims::bits_per_second);
  CHECK(parsed("3.35 TB/s").dim != dims::bytes);
  CHECK(parsed("80 Gb").dim != dims::bytes);
  CHECK(describe(parsed("80 Gb").dim) == "bits");

  // FLOPs (lower-case s) is work, not a rate: a plan's peak must be FLOPS.
  CHECK(parsed("989 TFLOPs").dim != dims::flop_per_second);
  CHECK(describe(parsed("989 TFLOPs").dim) == "FLOP");
  CHECK(parsed("1979 TFLOPS").dim != dims::flop);

  CHECK(describe(parsed("14 d").dim) == "seconds");
  CHECK(parsed("14 d").dim != dims::gpu_seconds);
  CHECK(parsed("93.5K GPU*h").dim != dims::seconds);
  CHECK(describe(parsed("$3/GPU/h").dim) == "USD per GPU-hour");
  CHECK(parsed("$3/GPU/h").dim != dims::usd);
  CHECK(parsed("1T tokens").dim != dims::none);
}

TEST_CASE("dimensions have reader names, or a symbolic form", "[quantity]") {
  CHECK(describe(dims::none) == "dimensionless");
  CHECK(describe(dims::bytes) == "bytes");
  CHECK(describe(dims::bits) == "bits");
  CHECK(describe(dims::bytes_per_second) == "bytes per second");
  CHECK(describe(dims::bits_per_second) == "bits per second");
  CHECK(describe(dims::flop) == "FLOP");
  CHECK(describe(dims::flop_per_second) == "FLOP per second");
  CHECK(describe(dims::seconds) == "seconds");
  CHECK(describe(dims::usd) == "USD");
  CHECK(describe(dims::usd_per_gpu_second) == "USD per GPU-hour");
  CHECK(describe(dims::gpu_seconds) == "GPU time");
  CHECK(describe(dims::tokens) == "tokens");
  CHECK(describe(dims::tokens_per_second) == "tokens per second");
  CHECK(describe(dims::gpus) == "GPUs");
  CHECK(describe(dims::requests) == "requests");
  CHECK(describe(dims::sequences) == "sequences");
  CHECK(describe(dims::bytes_per_token) == "bytes per token");

  CHECK(describe(dims::usd / dims::gpus) == "USD\u00B7GPU\u207B\u00B9");
  CHECK(describe(dims::bytes * dims::seconds) == "B\u00B7s");
  CHECK(describe(dims::bytes / dims::seconds.pow(2)) == "B\u00B7s\u207B\u00B2");
  CHECK(unit_symbol(dims::bytes_per_second) == "B\u00B7s\u207B\u00B9");
  CHECK(unit_symbol(dims::none) == "1");
}

TEST_CASE("malformed quantities report the column of the offending character", "[quantity]") {
  struct Rejects {
    std::string_view text;
    std::size_t column;
    std::string_view message;
  };
  const std::vector<Rejects> cases = {
      {"", 1, "expected a number, found an empty string"},
      {"   ", 1, "expected a number, found an empty string"},
      {"abc", 1, "expected a number"},
      {"GB", 1, "expected a number"},
      {"$", 2, "expected a number"},
      {"  x", 3, "expected a number"},
      {"80 GBs", 4, "unknown unit 'GBs' (did you mean 'GB/s'?)"},
      {"3.35 TB/", 9, "expected a unit after '/'"},
      {"3.35 TB/ ", 10, "expected a unit after '/'"},
      {"5 GB//s", 6, "expected a unit after '/'"},
      {"5 GPU*", 7, "expected a unit after '*'"},
      {"5 GPU\xC2\xB7", 8, "expected a unit after '\xC2\xB7'"},
      {"1__0", 3, "expected a digit after '_'"},
      {"1_", 3, "expected a digit after '_'"},
      {"1.", 3, "expected a digit after '.'"},
      {"1e400", 1, "number out of range"},
      {"-1e400", 1, "number out of range"},
      {"1e-400", 1, "number out of range"},
      {"1e306 TB", 1, "number out of range"},
      {"5 flops", 3, "'flops' is ambiguous: write FLOP (work) or FLOPS (rate)"},
      {"5 flop", 3, "'flop' is ambiguous: write FLOP (work) or FLOPS (rate)"},
      {"989 Tflops", 5, "'Tflops' is ambiguous: write TFLOP (work) or TFLOPS (rate)"},
      {"1 TFlop/s", 3, "'TFlop' is ambiguous: write TFLOP (work) or TFLOPS (rate)"},
      {"1,000", 2, "unexpected ','; write 1000 or 1_000 (no thousands separators)"},
      {"1.2.3", 4, "unexpected '.3'"},
      {"80 (GB)", 4, "unexpected '(GB)'"},
      {"80 GB extra", 7, "unexpected 'extra' after 'GB'; join units with '*', '/' or '\xC2\xB7'"},
      {"5 GPU h", 7, "unexpected 'h' after 'GPU'; join units with '*', '/' or '\xC2\xB7'"},
      {"1.5M tokens more", 13,
       "unexpected 'more' after 'tokens'; join units with '*', '/' or "
       "'\xC2\xB7'"},
      {"1.5Mtokens", 4, "unknown unit 'Mtokens' (did you mean 'M tokens'?)"},
      {"3 ZB", 3, "unknown unit 'ZB'"},
      {"1 Ts", 3, "unknown unit 'Ts'"},
      {"5e", 2, "unknown unit 'e'"},
      {"$3/GPU/parsec", 8, "unknown unit 'parsec'"},
      {"$3 USD", 4,
       "the amount is already in USD ('$' prefix); write '$3/GPU/h' or "
       "'3 USD/GPU/h', not both"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    const auto error = rejected(c.text);
    CHECK(error.column == c.column);
    CHECK(error.message == c.message);
  }
  SECTION("a lower-case unit suggests the spellings it could mean") {
    const auto error = rejected("80 gb");
    CHECK(error.column == 4);
    CHECK(error.message == "unknown unit 'gb' (did you mean 'GB' or 'Gb'?)");
  }
}

TEST_CASE("every unit spelling parses after a number", "[quantity]") {
  for (const auto& spelling : unit_atom_spellings()) {
    CAPTURE(spelling);
    const auto q = parsed("2 " + spelling);
    CHECK(q.value == Approx(2 * find_unit_atom(spelling)->scale));
  }
}

TEST_CASE("format prints values in the unit a reader expects", "[quantity]") {
  struct Formats {
    double value;
    Dimension dim;
    std::string_view text;
  };
  const std::vector<Formats> cases = {
      {127.4e9, dims::bytes, "127.4 GB"},
      {524.3e3, dims::bytes, "524.3 kB"},
      {80e9, dims::bytes, "80 GB"},
      {112e9, dims::bytes, "112 GB"},
      {512, dims::bytes, "512 B"},
      {0, dims::bytes, "0 B"},
      {999.96e9, dims::bytes, "1 TB"},
      {3.35e12, dims::bytes_per_second, "3.35 TB/s"},
      {400e9, dims::bits_per_second, "400 Gb/s"},
      {400e9, dims::bits, "400 Gb"},
      {160e3, dims::bytes_per_token, "160 kB/token"},
      {4.2e22, dims::flop, "4.2e22 FLOP"},
      {3.15e23, dims::flop, "3.15e23 FLOP"},
      {9.996e22, dims::flop, "1e23 FLOP"},
      {989e12, dims::flop_per_second, "989 TFLOPS"},
      {1979e12, dims::flop_per_second, "1979 TFLOPS"},
      {126.6e15, dims::flop_per_second, "126.6 PFLOPS"},
      {19.5e12, dims::flop_per_second, "19.5 TFLOPS"},
      {829383, dims::seconds, "9.6 d"},
      {0.013, dims::seconds, "13 ms"},
      {1e-5, dims::seconds, "10 \u00B5s"},
      {45, dims::seconds, "45 s"},
      {119, dims::seconds, "119 s"},
      {600, dims::seconds, "10 min"},
      {3 * hour, dims::seconds, "3 h"},
      {36 * hour, dims::seconds, "36 h"},
      {9.6e18 * 24 * hour, dims::seconds, "9.6e18 d"},  // not 9600000000000000000 d
      {1.3e6, dims::usd, "$1.3M"},
      {450e3, dims::usd, "$450K"},
      {3, dims::usd, "$3.00"},
      {-3, dims::usd, "-$3.00"},
      {2.4e9, dims::usd, "$2.4B"},
      {3 / hour, dims::usd_per_gpu_second, "$3/GPU\u00B7h"},
      {2.49 / hour, dims::usd_per_gpu_second, "$2.49/GPU\u00B7h"},
      {4.42e6 * hour, dims::gpu_seconds, "4.42M GPU\u00B7h"},
      {93.5e3 * hour, dims::gpu_seconds, "93.5K GPU\u00B7h"},
      {1e12, dims::tokens, "1T tokens"},
      {4e6, dims::tokens, "4M tokens"},
      {4096, dims::tokens, "4096 tokens"},
      {1, dims::tokens, "1 token"},
      {23.9, dims::tokens_per_second, "23.9 tokens/s"},
      {128, dims::gpus, "128 GPUs"},
      {1, dims::gpus, "1 GPU"},
      {12, dims::requests, "12 requests"},
      {64, dims::sequences, "64 sequences"},
      {0.4, dims::none, "0.4"},
      {7e9, dims::none, "7B"},
      {4096, dims::none, "4096"},
      {1.54e5, dims::none, "154K"},
      {12345, dims::none, "12.3K"},
      {2.5e15, dims::none, "2.5e15"},
      {3.2e5, dims::bytes * dims::gpus, "320000 B\u00B7GPU"},
      {3.2e7, dims::bytes * dims::gpus, "3.2e7 B\u00B7GPU"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.value, describe(c.dim));
    CHECK(format(c.value, c.dim) == c.text);
  }
}

TEST_CASE("formatted quantities parse back to the value they print", "[quantity]") {
  const std::vector<std::pair<double, Dimension>> values = {
      {127.4e9, dims::bytes},
      {3.35e12, dims::bytes_per_second},
      {400e9, dims::bits_per_second},
      {4.2e22, dims::flop},
      {989e12, dims::flop_per_second},
      {829383, dims::seconds},
      {0.013, dims::seconds},
      {1.3e6, dims::usd},
      {3 / hour, dims::usd_per_gpu_second},
      {4.42e6 * hour, dims::gpu_seconds},
      {1e12, dims::tokens},
      {128, dims::gpus},
      {7e9, dims::none},
      {0.4, dims::none},
  };
  for (const auto& [value, dim] : values) {
    const auto text = format(value, dim);
    CAPTURE(text);
    const auto back = resolve(parsed(text), dim);
    CHECK(back.dim == dim);
    CHECK(back.value == Approx(value).epsilon(0.005));
  }
}

TEST_CASE("format_in prints a value in the unit a message names", "[quantity]") {
  CHECK(format_in(127.4e9, dims::bytes, "GB") == "127.4 GB");
  CHECK(format_in(127.44e9, dims::bytes, "GB") == "127.4 GB");
  CHECK(format_in(80.0 * 1024 * 1024 * 1024, dims::bytes, "GiB") == "80 GiB");
  CHECK(format_in(3.35e12, dims::bytes_per_second, "TB/s") == "3.35 TB/s");
  CHECK(format_in(400e9, dims::bits_per_second, "Gbps") == "400 Gbps");
  CHECK(format_in(1979e12, dims::flop_per_second, "TFLOPS") == "1979 TFLOPS");
  CHECK(format_in(4.2e22, dims::flop, "ZFLOP") == "42 ZFLOP");
  CHECK(format_in(829383, dims::seconds, "d") == "9.599 d");
  CHECK(format_in(3 / hour, dims::usd_per_gpu_second, "$/GPU/h") == "$3/GPU/h");
  CHECK(format_in(3 / hour, dims::usd_per_gpu_second, "USD/GPU-h") == "3 USD/GPU-h");
  CHECK(format_in(7e9, dims::none, "B") == "7B");
  CHECK(format_in(0.4, dims::none, "%") == "40%");
  CHECK(format_in(1.5e6, dims::tokens, "tokens") == "1.5M tokens");
  CHECK(format_in(32768, dims::tokens, "tokens") == "32768 tokens");  // where format() scales it
  CHECK(format(32768, dims::tokens) == "32.8K tokens");
  // From a million a count in its own unit is scaled, as its default form is.
  CHECK(format_in(15e12, dims::tokens, "tokens") == "15T tokens");
  CHECK(format_in(999999, dims::tokens, "tokens") == "999999 tokens");
  CHECK(format_in(2.5e7, dims::tokens_per_second, "tokens/s") == "25M tokens/s");
  CHECK(format_in(16384, dims::gpus, "GPUs") == "16384 GPUs");
  CHECK(format_in(15e12, dims::tokens, "T tokens") == "15 T tokens");  // a scale named in the unit stays
  CHECK(format_in(0.4, dims::none, "") == "0.4");

  SECTION("dollars and GPU-hours without a count suffix print the scaled default form") {
    // A message's {est.cost.total:$} printed "$1824000" where {est.cost.total} prints "$1.82M".
    CHECK(format_in(1824000, dims::usd, "$") == "$1.82M");
    CHECK(format_in(1824000, dims::usd, "$") == format(1824000, dims::usd));
    CHECK(format_in(450, dims::usd, "$") == "$450.00");
    CHECK(format_in(-2.5e9, dims::usd, "$") == "-$2.5B");
    CHECK(format_in(1824000, dims::usd, "USD") == "1.82M USD");
    CHECK(format_in(589800 * hour, dims::gpu_seconds, "GPU*h") == "589.8K GPU*h");
    CHECK(format_in(589800 * hour, dims::gpu_seconds, "GPU·h") == format(589800 * hour, dims::gpu_seconds));
    CHECK(format_in(4096 * hour, dims::gpu_seconds, "GPU-h") == "4096 GPU-h");
    // A count suffix after '$' names the scale, as "$1.2M" does in a plan.
    CHECK(format_in(1824000, dims::usd, "$M") == "$1.824M");
    CHECK(format_in(1824000, dims::usd, "$K") == "$1824K");
    CHECK(format_in(3.2e9, dims::usd, "$B") == "$3.2B");
    CHECK(format_in(3e3 / hour, dims::usd_per_gpu_second, "$K/GPU/h") == "$3K/GPU/h");
    CHECK(format_in(1824000, dims::usd, "$X") == "");
  }

  SECTION("a unit of another dimension or an unknown unit gives an empty string") {
    CHECK(format_in(127.4e9, dims::bits, "GB") == "");
    CHECK(format_in(400e9, dims::bits_per_second, "GB/s") == "");
    CHECK(format_in(1e9, dims::bytes, "GBs") == "");
    CHECK(format_in(1e9, dims::bytes, "") == "");
    CHECK(format_in(0.4, dims::bytes, "%") == "");
  }
}
