#pragma once
// Included before every file of the WebAssembly build (src/wasm/CMakeLists.txt): Debian 12's
// emscripten 3.1.6 ships libc++ 13, whose <charconv> has std::from_chars for integers only
// (floating point came in libc++ 20). This adds it for float and double with the standard's
// contract (C++17 [charconv.from.chars]): no leading whitespace nor '+', no "0x" prefix in the
// general format, the value left alone and result_out_of_range when it does not fit. The
// digits are read by musl's strtod, which rounds correctly as the native from_chars does, so
// both builds read every number the same.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <system_error>

#if defined(__EMSCRIPTEN__) && defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 20000
namespace std {  // NOLINT(cert-dcl58-cpp): the standard library's missing overloads

inline from_chars_result planlint_from_chars_floating(const char* first, const char* last, double& value,
                                                      chars_format format) {
  const from_chars_result invalid{first, errc::invalid_argument};
  if (first == last || *first == '+' || *first == ' ' || (*first >= '\t' && *first <= '\r')) return invalid;
  // strtod reads "0x..." as hexadecimal: in the general format that is the number 0 and "x..."
  // is left, as from_chars reads it. chars_format::hex (no prefix) is not used by planlint.
  const char* digits = first + (*first == '-' ? 1 : 0);
  const bool hex_prefix = format != chars_format::hex && last - digits >= 2 && digits[0] == '0' &&
                          (digits[1] == 'x' || digits[1] == 'X');
  const std::string text(first, hex_prefix ? digits + 1 : last);  // strtod needs its terminator
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return invalid;
  const char* stop = first + (end - text.c_str());
  if (errno == ERANGE && (std::isinf(parsed) || parsed == 0)) return {stop, errc::result_out_of_range};
  value = parsed;
  return {stop, errc()};
}

inline from_chars_result from_chars(const char* first, const char* last, double& value,
                                    chars_format format = chars_format::general) {
  return planlint_from_chars_floating(first, last, value, format);
}

inline from_chars_result from_chars(const char* first, const char* last, float& value,
                                    chars_format format = chars_format::general) {
  double wide = 0;
  from_chars_result result = planlint_from_chars_floating(first, last, wide, format);
  if (result.ec == errc()) {
    if (std::isinf(static_cast<float>(wide)) && !std::isinf(wide)) return {result.ptr, errc::result_out_of_range};
    value = static_cast<float>(wide);
  }
  return result;
}

}  // namespace std
#endif
