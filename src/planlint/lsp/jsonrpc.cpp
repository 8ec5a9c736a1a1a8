#include "planlint/lsp/jsonrpc.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "planlint/source/limits.hpp"  // format_byte_size

namespace planlint::lsp {

namespace {

bool usable_id(const json& id) { return id.is_number_integer() || id.is_string(); }

/// Reads a message's JSON without building it: its id, method and document where a message has
/// them, how deep it nests and an estimate of the bytes its tree would take, stopping at the
/// first limit it crosses (none when `limits` is null: a too-large message's first bytes).
class MessageScan : public nlohmann::json_sax<json> {
 public:
  MessageScan(MessageHead& head, const JsonLimits* limits, std::size_t text_bytes)
      : head_(head),
        limits_(limits),
        max_tree_bytes_(limits ? std::max(limits->min_tree_bytes, limits->tree_bytes_per_byte * text_bytes) : 0) {}

  bool null() override { return scalar(json()); }
  bool boolean(bool value) override { return scalar(value); }
  bool number_integer(number_integer_t value) override { return scalar(value); }
  bool number_unsigned(number_unsigned_t value) override { return scalar(value); }
  bool number_float(number_float_t value, const string_t&) override { return scalar(value); }
  bool string(string_t& value) override {
    tree_bytes_ += slot_bytes + string_bytes + heap_bytes(value.size());
    if (at_top("id")) head_.id = value;
    else if (at_top("method")) head_.method = value;
    else if (at_document_uri()) head_.document_uri = value;
    return within();
  }
  bool binary(binary_t&) override { return scalar(json()); }
  bool start_object(std::size_t) override { return open(object_bytes); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(array_bytes); }
  bool end_array() override { return close(); }
  bool key(string_t& name) override {
    // The rest of an object's node: its key, and the tree node that holds it.
    tree_bytes_ += member_bytes + heap_bytes(name.size());
    if (depth_ <= head_depth) keys_[depth_ - 1] = name;
    return within();
  }
  bool parse_error(std::size_t position, const std::string&, const json::exception&) override {
    error_at_ = position;
    return false;
  }

  /// Why the scan stopped early: the text nests too deep, its tree would be too large, or it
  /// is not JSON (at that byte).
  bool too_deep() const { return too_deep_; }
  const std::optional<std::string>& too_large() const { return too_large_; }
  std::optional<std::size_t> error_at() const { return error_at_; }

 private:
  // The bytes a value takes in nlohmann's tree (64-bit): its 16-byte slot, twice over for an
  // array's growth; an object's map, an array's vector and a string's header are allocated
  // apart (malloc rounds each up to 16 bytes and adds its own); an object's member is a map
  // node with its key; a string or key over 15 bytes has its characters on the heap too.
  static constexpr std::size_t slot_bytes = 32, object_bytes = 64, array_bytes = 32, string_bytes = 48,
                               member_bytes = 64;
  static std::size_t heap_bytes(std::size_t characters) { return characters > 15 ? characters + 32 : 0; }
  /// The levels the head is read from: params.textDocument.uri is three deep.
  static constexpr std::size_t head_depth = 3;

  bool open(std::size_t bytes) {
    tree_bytes_ += slot_bytes + bytes;
    ++depth_;
    if (depth_ <= head_depth) keys_[depth_ - 1].clear();
    if (limits_ && depth_ > limits_->max_depth) {
      too_deep_ = true;
      return false;
    }
    return within();
  }
  bool close() {
    if (depth_ > 0) --depth_;
    return true;
  }
  bool scalar(const json& value) {
    tree_bytes_ += slot_bytes;
    if (at_top("id") && usable_id(value)) head_.id = value;
    return within();
  }
  bool within() {
    if (!limits_ || tree_bytes_ <= max_tree_bytes_) return true;
    too_large_ = fmt::format(
        "the message's JSON would take more than {} as a tree, over planlint lsp's limit of {} times its size "
        "(its values are too many and too small for a message of this size)",
        format_byte_size(max_tree_bytes_), limits_->tree_bytes_per_byte);
    return false;
  }
  bool at_top(std::string_view name) const { return depth_ == 1 && keys_[0] == name; }
  /// Whether the value read now is params.textDocument.uri.
  bool at_document_uri() const {
    return depth_ == head_depth && keys_[0] == "params" && keys_[1] == "textDocument" && keys_[2] == "uri";
  }

  MessageHead& head_;
  const JsonLimits* limits_;
  std::size_t max_tree_bytes_;
  std::size_t tree_bytes_ = 0;
  std::size_t depth_ = 0;
  /// The key being read at each of the first levels.
  std::string keys_[head_depth];
  bool too_deep_ = false;
  std::optional<std::string> too_large_;
  std::optional<std::size_t> error_at_;
};

Decoded invalid(const json& id, std::string_view why) {
  Decoded decoded;
  decoded.error_response = error_response(id, ErrorCode::invalid_request, why);
  return decoded;
}

}  // namespace

Decoded decode(std::string_view content, const JsonLimits& limits) {
  Decoded decoded;
  MessageHead head;
  MessageScan scan(head, &limits, content.size());
  json::sax_parse(content.begin(), content.end(), &scan, json::input_format_t::json, true);
  if (scan.error_at()) {
    // nlohmann reports the byte after the one that ended the parse.
    decoded.error_response = error_response(
        nullptr, ErrorCode::parse_error, fmt::format("the message is not valid JSON (byte {})", *scan.error_at()));
    return decoded;
  }
  if (scan.too_deep()) {
    decoded.error_response = error_response(
        nullptr, ErrorCode::parse_error, fmt::format("the message nests deeper than {} levels", limits.max_depth));
    return decoded;
  }
  if (scan.too_large()) {
    decoded.error_response = error_response(head.id.value_or(nullptr), ErrorCode::invalid_request, *scan.too_large());
    decoded.refused = Refused{std::move(head), *scan.too_large()};
    return decoded;
  }
  json message = json::parse(content, nullptr, false);
  if (message.is_discarded()) {  // the scan read it whole: not expected
    decoded.error_response = error_response(nullptr, ErrorCode::parse_error, "the message is not valid JSON");
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
  MessageScan scan(head, nullptr, prefix.size());
  json::sax_parse(prefix.begin(), prefix.end(), &scan, json::input_format_t::json, false);
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
