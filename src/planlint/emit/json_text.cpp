#include "planlint/emit/json_text.hpp"

#include "planlint/diag/printable.hpp"

namespace planlint {

namespace {

void make_utf8(nlohmann::ordered_json& value) {
  if (value.is_string()) {
    auto& text = value.get_ref<std::string&>();
    if (!is_printable(text)) text = utf8_or_escaped(text);
  } else if (value.is_array()) {
    for (auto& element : value) make_utf8(element);
  } else if (value.is_object()) {
    // A key cannot change in place: an object with a malformed key is rebuilt, in its order.
    bool keys_valid = true;
    for (auto& [key, element] : value.items()) {
      make_utf8(element);
      if (!is_printable(key) && utf8_or_escaped(key) != key) keys_valid = false;
    }
    if (!keys_valid) {
      nlohmann::ordered_json rebuilt = nlohmann::ordered_json::object();
      for (auto& [key, element] : value.items()) rebuilt[utf8_or_escaped(key)] = std::move(element);
      value = std::move(rebuilt);
    }
  }
}

}  // namespace

std::string json_text(nlohmann::ordered_json& doc, int indent) {
  make_utf8(doc);
  return json_invisibles_escaped(doc.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

std::string json_indented(const std::string& text, std::size_t spaces) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    out += c;
    if (c == '\n') out.append(spaces, ' ');
  }
  return out;
}

}  // namespace planlint
