#include "planlint/lsp/params.hpp"

#include <limits>

#include <fmt/format.h>

namespace planlint::lsp {

namespace {

[[noreturn]] void invalid(std::string_view where, std::string_view name, std::string_view expected) {
  throw RpcError{ErrorCode::invalid_params, fmt::format("{}.{} is not {}", where, name, expected)};
}

std::string joined(std::string_view where, std::string_view name) { return fmt::format("{}.{}", where, name); }

}  // namespace

const json& field(const json& object, std::string_view name, std::string_view where) {
  if (!object.is_object()) throw RpcError{ErrorCode::invalid_params, fmt::format("{} is not an object", where)};
  const auto it = object.find(name);
  if (it == object.end()) throw RpcError{ErrorCode::invalid_params, fmt::format("{}.{} is missing", where, name)};
  return *it;
}

std::string string_field(const json& object, std::string_view name, std::string_view where) {
  const json& value = field(object, name, where);
  if (!value.is_string()) invalid(where, name, "a string");
  return value.get<std::string>();
}

std::int64_t integer_field(const json& object, std::string_view name, std::string_view where) {
  const json& value = field(object, name, where);
  if (!value.is_number_integer()) invalid(where, name, "a whole number");
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    invalid(where, name, "a whole number in range");
  return value.get<std::int64_t>();
}

LspPosition position_field(const json& object, std::string_view name, std::string_view where) {
  const json& value = field(object, name, where);
  const std::string inside = joined(where, name);
  auto coordinate = [&](std::string_view key) {
    const std::int64_t number = integer_field(value, key, inside);
    if (number < 0 || number > std::numeric_limits<std::uint32_t>::max()) invalid(inside, key, "a uinteger");
    return static_cast<std::uint32_t>(number);
  };
  return {coordinate("line"), coordinate("character")};
}

LspRange range_field(const json& object, std::string_view name, std::string_view where) {
  const json& value = field(object, name, where);
  const std::string inside = joined(where, name);
  return {position_field(value, "start", inside), position_field(value, "end", inside)};
}

std::string document_uri(const json& params) {
  return string_field(field(params, "textDocument", "params"), "uri", "params.textDocument");
}

json to_json(LspPosition position) { return {{"line", position.line}, {"character", position.character}}; }

json to_json(const LspRange& range) { return {{"start", to_json(range.start)}, {"end", to_json(range.end)}}; }

}  // namespace planlint::lsp
