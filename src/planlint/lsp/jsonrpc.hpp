#pragma once
/// JSON-RPC 2.0 as the Language Server Protocol uses it: requests (with an id), notifications
/// (without), responses, and the protocol's error codes.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace planlint::lsp {

using json = nlohmann::json;

/// The error codes of JSON-RPC 2.0 and LSP 3.17 that planlint answers with.
enum class ErrorCode : int {
  parse_error = -32700,
  invalid_request = -32600,
  method_not_found = -32601,
  invalid_params = -32602,
  internal_error = -32603,
  server_not_initialized = -32002,
  request_failed = -32803,
};

/// A protocol error, thrown by a handler and answered as the request's error response.
struct RpcError {
  ErrorCode code;
  std::string message;
};

/// One decoded message.
struct Incoming {
  enum class Kind { request, notification, response };
  Kind kind = Kind::notification;
  json id;             ///< a number or a string (requests and responses)
  std::string method;  ///< requests and notifications
  json params;         ///< null when absent
  json result;         ///< responses
  std::optional<json> error;  ///< a response's error
};

/// What a message's first bytes say about it: its id and method when they came before the
/// cut (clients write them first), and the document it is about.
struct MessageHead {
  std::optional<json> id;
  std::optional<std::string> method;
  std::optional<std::string> document_uri;  ///< params.textDocument.uri
};
MessageHead read_head(std::string_view prefix);

/// How much of a message planlint builds: nlohmann's tree of a JSON text can take 20 times the
/// text (`[{},{},…]`), so the text is read once without building it (its SAX interface), and
/// the tree is built only when it nests at most `max_depth` levels and its estimated size is
/// at most `tree_bytes_per_byte` times the text (a real message's is 1 to 12 times: a
/// document's text, or the small objects of its capabilities and edits), or `min_tree_bytes`.
struct JsonLimits {
  std::size_t max_depth = 256;  ///< LSP's deepest messages nest a dozen levels
  std::size_t tree_bytes_per_byte = 15;
  std::size_t min_tree_bytes = 64 * 1024;
};

/// A message the limits refuse: what its text says of it, and why, for the caller to answer
/// as it answers a message over the size limit.
struct Refused {
  MessageHead head;
  std::string why;
};

/// A message's content decoded, or the error response it gets: ParseError for text that is not
/// JSON, InvalidRequest for JSON that is not a JSON-RPC 2.0 message (its id, when it has a
/// usable one, else null), or for one over the limits (then `refused` says why too).
struct Decoded {
  std::optional<Incoming> message;
  std::optional<json> error_response;
  std::optional<Refused> refused;
};
Decoded decode(std::string_view content, const JsonLimits& limits = {});

json response(const json& id, json result);
json error_response(const json& id, ErrorCode code, std::string_view message);
json notification(std::string_view method, json params);
json request(const json& id, std::string_view method, json params);

/// The text to send: compact, with invalid UTF-8 (from a file on disk) replaced, never thrown.
std::string serialize(const json& message);

}  // namespace planlint::lsp
