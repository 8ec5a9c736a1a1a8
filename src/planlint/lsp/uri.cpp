#include "planlint/lsp/uri.hpp"

#include <cctype>
#include <filesystem>

#include "planlint/emit/repository_path.hpp"

namespace planlint::lsp {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool starts_with_scheme(std::string_view uri, std::string_view scheme) {
  if (uri.size() < scheme.size() + 1 || uri[scheme.size()] != ':') return false;
  for (std::size_t i = 0; i < scheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(uri[i])) != scheme[i]) return false;
  return true;
}

}  // namespace

std::optional<std::string> uri_to_path(std::string_view uri) {
  if (!starts_with_scheme(uri, "file")) return std::nullopt;
  std::string_view rest = uri.substr(5);
  // Neither the query nor the fragment is part of the path.
  rest = rest.substr(0, rest.find_first_of("?#"));
  if (rest.substr(0, 2) == "//") {
    rest.remove_prefix(2);
    const std::size_t slash = rest.find('/');
    const std::string_view authority = rest.substr(0, slash);
    if (!authority.empty() && authority != "localhost") return std::nullopt;
    if (slash == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(slash);
  }
  if (rest.empty() || rest.front() != '/') return std::nullopt;
  std::string path;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] != '%') {
      path += rest[i];
      continue;
    }
    if (i + 2 >= rest.size()) return std::nullopt;
    const int high = hex_digit(rest[i + 1]), low = hex_digit(rest[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    const char c = static_cast<char>(high * 16 + low);
    if (c == '\0' || c == '/') return std::nullopt;  // not a name a file system holds
    path += c;
    i += 2;
  }
  return path;
}

std::string path_to_uri(std::string_view path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(std::filesystem::path(path), ec);
  if (ec) absolute = std::filesystem::path(path);
  return "file://" + encode_uri_path(absolute.lexically_normal().generic_string());
}

}  // namespace planlint::lsp
