#pragma once
// Included before every file of the WebAssembly build (src/wasm/CMakeLists.txt): Debian 12's
// emscripten 3.1.6 ships libc++ 13, whose <charconv> converts integers only (floating point
// came in libc++ 14 for to_chars, 20 for from_chars). This adds what planlint calls:
// - from_chars for float and double with the standard's contract (C++17 [charconv.from.chars]):
//   no leading whitespace nor '+', no "0x" prefix in the general format, the value left alone
//   and result_out_of_range when it does not fit. musl's strtod reads the digits; it rounds
//   correctly, as the native from_chars does, so both builds read every number the same.
// - to_chars for double with a format and a precision, which the standard defines as printf's
//   (%.*f, %.*e, %.*g, %.*a): musl's snprintf, exact as glibc's is.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
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

inline to_chars_result to_chars(char* first, char* last, double value, chars_format format, int precision) {
  const char* spec = format == chars_format::fixed        ? "%.*f"
                     : format == chars_format::scientific ? "%.*e"
                     : format == chars_format::hex        ? "%.*a"
                                                          : "%.*g";
  const std::size_t room = static_cast<std::size_t>(last - first);
  const int written = std::snprintf(nullptr, 0, spec, precision, value);
  if (written < 0 || static_cast<std::size_t>(written) > room) return {last, errc::value_too_large};
  std::string text(static_cast<std::size_t>(written) + 1, '\0');
  std::snprintf(text.data(), text.size(), spec, precision, value);
  for (int i = 0; i < written; ++i) first[i] = text[static_cast<std::size_t>(i)];
  return {first + written, errc()};
}

}  // namespace std
#endif
