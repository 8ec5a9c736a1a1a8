#pragma once
/// Reading a message's params: a missing or mistyped field is the request's InvalidParams
/// error (RpcError), naming the field.
#include <cstdint>
#include <string>
#include <string_view>

#include "planlint/lsp/jsonrpc.hpp"
#include "planlint/lsp/text_document.hpp"

namespace planlint::lsp {

/// params[name] of an object; InvalidParams when `object` is not one or has no such field.
const json& field(const json& object, std::string_view name, std::string_view where);
std::string string_field(const json& object, std::string_view name, std::string_view where);
std::int64_t integer_field(const json& object, std::string_view name, std::string_view where);
LspPosition position_field(const json& object, std::string_view name, std::string_view where);
LspRange range_field(const json& object, std::string_view name, std::string_view where);
/// params.textDocument.uri.
std::string document_uri(const json& params);

json to_json(LspPosition position);
json to_json(const LspRange& range);

}  // namespace planlint::lsp
