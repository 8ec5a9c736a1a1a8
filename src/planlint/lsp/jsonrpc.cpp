#include "planlint/lsp/jsonrpc.hpp"

#include <vector>

#include <fmt/format.h>

namespace planlint::lsp {

namespace {

/// nlohmann's parser recurses once per level of nesting: a message of a million `[` would
/// overflow the stack. LSP's deepest messages nest a dozen levels.
constexpr std::size_t max_json_depth = 256;

/// Whether `text` nests arrays and objects deeper than `max_depth` (strings skipped).
bool nests_deeper_than(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

bool usable_id(const json& id) { return id.is_number_integer() || id.is_string(); }

/// Reads a message's first bytes as far as they go, noting its id, method and document.
class HeadReader : public nlohmann::json_sax<json> {
 public:
  explicit HeadReader(MessageHead& head) : head_(head) {}

  bool null() override { return scalar(json()); }
  bool boolean(bool value) override { return scalar(value); }
  bool number_integer(number_integer_t value) override { return scalar(value); }
  bool number_unsigned(number_unsigned_t value) override { return scalar(value); }
  bool number_float(number_float_t value, const string_t&) override { return scalar(value); }
  bool string(string_t& value) override { return scalar(value); }
  bool binary(binary_t&) override { return scalar(json()); }
  bool start_object(std::size_t) override { return open(); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool key(string_t& name) override {
    if (!path_.empty()) path_.back() = name;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool open() {
    if (path_.size() == 8) return false;  // nothing planlint reads is deeper
    path_.emplace_back();
    return true;
  }
  bool close() {
    if (!path_.empty()) path_.pop_back();
    return true;
  }
  bool scalar(const json& value) {
    if (path_.size() == 1) {
      if (path_[0] == "id" && usable_id(value)) head_.id = value;
      if (path_[0] == "method" && value.is_string()) head_.method = value.get<std::string>();
    }
    if (path_.size() == 3 && path_[0] == "params" && path_[1] == "textDocument" && path_[2] == "uri" &&
        value.is_string())
      head_.document_uri = value.get<std::string>();
    return true;
  }

  MessageHead& head_;
  /// One entry per open object or array: the key being read in it ("" in an array).
  std::vector<std::string> path_;
};

Decoded invalid(const json& id, std::string_view why) {
  Decoded decoded;
  decoded.error_response = error_response(id, ErrorCode::invalid_request, why);
  return decoded;
}

}  // namespace

Decoded decode(std::string_view content) {
  Decoded decoded;
  if (nests_deeper_than(content, max_json_depth)) {
    decoded.error_response = error_response(
        nullptr, ErrorCode::parse_error, fmt::format("the message nests deeper than {} levels", max_json_depth));
    return decoded;
  }
  json message = json::parse(content, nullptr, false);
  if (message.is_discarded()) {
    // nlohmann's reason names the byte and what it expected; without exceptions it is lost, so
    // parse once more for it (only for a message that is not JSON).
    std::string why = "the message is not valid JSON";
    try {
      (void)json::parse(content);
    } catch (const json::parse_error& error) {
      why += fmt::format(" (byte {})", error.byte);
    }
    decoded.error_response = error_response(nullptr, ErrorCode::parse_error, why);
    return decoded;
  }
  if (message.is_array()) return invalid(nullptr, "a batch (a JSON array of messages) is not part of LSP: send each message on its own");
  if (!message.is_object()) return invalid(nullptr, "a message is a JSON object");
  const auto id = message.find("id");
  const bool has_id = id != message.end() && !id->is_null();
  if (has_id && !usable_id(*id)) return invalid(nullptr, "a message's id is a whole number or a string");
  const json reply_id = has_id ? *id : json();
  const auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0") return invalid(reply_id, "a message has \"jsonrpc\": \"2.0\"");

  Incoming incoming;
  if (has_id) incoming.id = *id;
  const auto method = message.find("method");
  if (method == message.end()) {
    const auto result = message.find("result");
    const auto error = message.find("error");
    if (!has_id || (result == message.end() && error == message.end()))
      return invalid(reply_id, "a message has a method (a request or notification), or an id with a result or an error (a response)");
    incoming.kind = Incoming::Kind::response;
    if (result != message.end()) incoming.result = std::move(*result);
    if (error != message.end()) incoming.error = std::move(*error);
    decoded.message = std::move(incoming);
    return decoded;
  }
  if (!method->is_string()) return invalid(reply_id, "a message's method is a string");
  incoming.kind = has_id ? Incoming::Kind::request : Incoming::Kind::notification;
  incoming.method = method->get<std::string>();
  // `"params": null` is taken as no params: clients send it for shutdown and exit.
  if (const auto params = message.find("params"); params != message.end() && !params->is_null()) {
    if (!params->is_object() && !params->is_array()) return invalid(reply_id, "a message's params are an object or an array");
    incoming.params = std::move(*params);
  }
  decoded.message = std::move(incoming);
  return decoded;
}

MessageHead read_head(std::string_view prefix) {
  MessageHead head;
  HeadReader reader(head);
  json::sax_parse(prefix.begin(), prefix.end(), &reader, nlohmann::detail::input_format_t::json, false);
  return head;
}

json response(const json& id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

json error_response(const json& id, ErrorCode code, std::string_view message) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error", {{"code", static_cast<int>(code)}, {"message", std::string(message)}}}};
}

json notification(std::string_view method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", std::string(method)}, {"params", std::move(params)}};
}

json request(const json& id, std::string_view method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", std::string(method)}, {"params", std::move(params)}};
}

std::string serialize(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace planlint::lsp
