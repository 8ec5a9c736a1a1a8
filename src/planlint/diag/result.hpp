#pragma once
/// How a step of planlint says it failed (docs/development.md, "Results and problems"):
///
///     Result<Config> config = load_config(path, problems);  // problems: a DiagnosticSink
///     if (!config) return config.error();                    // an Error: what, and where
///     use(*config);
///
/// A function that can fail returns Result<T>: its value, or the Error that kept it from making
/// one. A parser of one string (a quantity, an expression) returns Result<T, TextError>, whose
/// place is an offset in that string; its caller knows where the string sits in a file. No
/// exception crosses a library function for bad input: toml++ throws none (TOML_EXCEPTIONS=0,
/// parse_toml returns a TomlResult), and nlohmann's is caught where that library is called.
#include <cassert>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "planlint/diag/diagnostic.hpp"

namespace planlint {

/// What went wrong, and where: a file and, when known, the span in it. An error of the run as
/// a whole (an option, the output) has no file.
///
///     Error{"invalid config '.planlint.toml'"}
///     Error{"unknown key 'selct' in [lint]", Location{".planlint.toml", span}, "did you mean 'select'?"}
struct Error {
  Error() = default;
  explicit Error(std::string message, Location location = {}, std::optional<std::string> help = std::nullopt)
      : message(std::move(message)), location(std::move(location)), help(std::move(help)) {}

  std::string message;
  Location location;                ///< file "": no file; span unknown: the file as a whole
  std::optional<std::string> help;  ///< what to change, when the message alone does not say
};

/// The error as a line for stderr (exit status 2): "file:line:col: error: message (help)" at a
/// known place, "planlint: error: file: message" for a file as a whole, "planlint: error:
/// message" without a file.
std::string error_line(const Error& error);

/// An error in a string that a parser was given: the byte offset where it is, from 0.
struct TextError {
  TextError() = default;
  TextError(std::size_t offset, std::string message) : offset(offset), message(std::move(message)) {}

  std::size_t offset = 0;
  std::string message;
};

/// A value of T, or the error E that kept it from being made (std::expected's shape, in C++20).
///
///     Result<std::string> text = read_file(path);
///     if (!text) return Error{fmt::format("cannot read '{}': {}", path, text.error().message)};
template <typename T, typename E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: a value is a result
  Result(E error) : data_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: so is an error

  bool has_value() const { return data_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return checked(); }
  const T& value() const& {
    assert(has_value());
    return std::get<0>(data_);
  }
  T&& value() && { return std::move(checked()); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(checked()); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// The value, or `fallback` when there is an error.
  template <typename U>
  T value_or(U&& fallback) const& {
    return has_value() ? value() : static_cast<T>(std::forward<U>(fallback));
  }

  /// The error; only when !has_value().
  const E& error() const& {
    assert(!has_value());
    return std::get<1>(data_);
  }
  E& error() & {
    assert(!has_value());
    return std::get<1>(data_);
  }
  E&& error() && { return std::move(error()); }

 private:
  T& checked() {
    assert(has_value());
    return std::get<0>(data_);
  }

  std::variant<T, E> data_;
};

/// The result of a step that makes nothing but may fail (writing a file).
///
///     Result<void> written = write_file_atomically(path, text);
///     if (!written) ... written.error() ...
template <typename E>
class [[nodiscard]] Result<void, E> {
 public:
  Result() = default;
  Result(E error) : error_(std::move(error)) {}  // NOLINT: an error is a result

  bool has_value() const { return !error_; }
  explicit operator bool() const { return has_value(); }

  const E& error() const& {
    assert(!has_value());
    return *error_;
  }
  E& error() & {
    assert(!has_value());
    return *error_;
  }

 private:
  std::optional<E> error_;
};

}  // namespace planlint
