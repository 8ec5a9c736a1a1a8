#pragma once
/// A JSON document as planlint prints it (JSON, SARIF, the JSON report, a baseline): every
/// string's malformed UTF-8 bytes shown as \xNN (utf8_or_escaped: names that differ in them stay
/// distinct), and the invisible characters of planlint/diag/printable.hpp as JSON escapes.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace planlint {

/// `doc` dumped with `indent` (-1: one line), its strings (keys and values) made valid UTF-8 in
/// place first.
std::string json_text(nlohmann::ordered_json& doc, int indent = 2);

/// `text`, a JSON value dumped on its own, with every line after its first indented by `spaces`
/// more: the value as it sits inside a document written piece by piece (a SARIF result, a
/// JSON finding).
std::string json_indented(const std::string& text, std::size_t spaces);

}  // namespace planlint
