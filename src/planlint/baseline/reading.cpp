// Reading a baseline file: its entries taken from the JSON as it is read (nlohmann's SAX
// interface), never a tree of the whole file, within the limits of baseline.hpp.
#include <algorithm>
#include <array>
#include <optional>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "planlint/baseline/baseline.hpp"

namespace planlint {

namespace {

using json = nlohmann::json;

/// How many elements the top object's "entries" array holds (its last, if the key is given
/// twice), counted before they are read so that their vector is allocated once, at its size:
/// grown by doubling, it would take up to three times that while it grows.
class EntryCounter : public nlohmann::json_sax<json> {
 public:
  bool null() override { return element(); }
  bool boolean(bool) override { return element(); }
  bool number_integer(number_integer_t) override { return element(); }
  bool number_unsigned(number_unsigned_t) override { return element(); }
  bool number_float(number_float_t, const string_t&) override { return element(); }
  bool string(string_t&) override { return element(); }
  bool binary(binary_t&) override { return element(); }
  bool start_object(std::size_t) override { return open(); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    if (depth_ == 1 && key_ == "entries") counting_ = 0;
    return open();
  }
  bool end_array() override { return close(); }
  bool key(string_t& name) override {
    if (depth_ == 1) key_ = name;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const json::exception&) override { return false; }

  std::size_t count() const { return count_; }

 private:
  bool element() {
    if (depth_ == 2 && counting_) ++*counting_;
    return true;
  }
  bool open() {
    element();
    ++depth_;
    return depth_ <= 64;  // the reader says why a deeper text is refused
  }
  bool close() {
    if (--depth_ == 1 && counting_) {
      count_ = *counting_;
      counting_.reset();
    }
    return true;
  }

  std::size_t depth_ = 0;
  std::string key_;
  std::optional<std::size_t> counting_;
  std::size_t count_ = 0;
};

/// What the JSON of a baseline holds, read value by value. Levels: 1 is inside the top object,
/// 2 inside its "entries" array, 3 inside an entry; anything else is read through and not kept.
class BaselineReader : public nlohmann::json_sax<json> {
 public:
  BaselineReader(const BaselineLimits& limits, std::size_t entries) : limits_(limits), expected_(entries) {}

  bool null() override { return value(Value{}); }
  bool boolean(bool) override { return value(Value{}); }
  bool number_integer(number_integer_t number) override {
    return value(Value{number == 1 ? Version::one : Version::other, number > 0 ? Count::positive : Count::not_positive,
                       static_cast<std::size_t>(number > 0 ? number : 0)});
  }
  bool number_unsigned(number_unsigned_t number) override {
    return value(Value{number == 1 ? Version::one : Version::other, number > 0 ? Count::positive : Count::not_positive,
                       static_cast<std::size_t>(number)});
  }
  bool number_float(number_float_t, const string_t&) override { return value(Value{}); }
  bool string(string_t& text) override {
    Value v;
    v.text = &text;
    return value(v);
  }
  bool binary(binary_t&) override { return value(Value{}); }
  bool start_object(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  bool key(string_t& name) override {
    if (depth_ == 1 || (depth_ == 3 && in_entries_)) key_ = name;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const json::exception& error) override {
    // nlohmann's message says where ("parse error at line 3, column 14: syntax error while
    // parsing object key - ..."); its "[json.exception.parse_error.101] " prefix is dropped.
    std::string what = error.what();
    if (what.starts_with("[json.exception"))
      if (auto bracket = what.find("] "); bracket != std::string::npos) what = what.substr(bracket + 2);
    stop_ = "not valid JSON: " + what;
    return false;
  }

  /// The baseline, or why the text is not one.
  Result<std::vector<BaselineEntry>> finish() {
    if (stop_) return Error(*stop_);
    if (!top_is_object_ || version_ != Version::one || !entries_is_array_)
      return Error("not a planlint baseline (expected {\"version\": 1, \"entries\": [...]})");
    if (entry_error_) return Error(*entry_error_);
    return std::move(entries_);
  }

 private:
  enum class Version { none, one, other };
  enum class Count { none, positive, not_positive };
  /// A value as the fields of a baseline read it.
  struct Value {
    Version version = Version::other;
    Count count = Count::not_positive;
    std::size_t number = 0;
    const std::string* text = nullptr;  ///< a string's
  };
  /// An entry's fields, read so far: a field read twice has its last value, as in a JSON
  /// object; a field that is not a string is absent.
  struct Fields {
    std::array<std::optional<std::string>, 5> text;  ///< file, rule, key, digest, message
    Count count = Count::none;
    std::size_t number = 1;
  };
  static constexpr std::array<std::string_view, 5> text_fields = {"file", "rule", "key", "digest", "message"};

  bool open(bool object) {
    if (++depth_ > limits_.max_depth) {
      stop_ = fmt::format("it nests deeper than {} levels, planlint's limit for a baseline (its entries are 3 deep)",
                          limits_.max_depth);
      return false;
    }
    if (depth_ == 1) {
      top_is_object_ = object;
    } else if (depth_ == 2 && key_ == "version") {
      version_ = Version::other;
    } else if (depth_ == 2 && top_is_object_ && key_ == "entries") {
      // A key given twice has its last value, as in a JSON object.
      entries_is_array_ = !object;
      in_entries_ = !object;
      entries_.clear();
      entries_.reserve(std::min(expected_, limits_.max_entries));
      entry_error_.reset();
      index_ = 0;
    } else if (depth_ == 3 && in_entries_) {
      if (!object) return element_not_object(true);
      fields_ = Fields{};
    } else if (depth_ == 4 && in_entries_) {
      field(Value{});  // an object or array where a field's value is
    }
    return true;
  }

  bool close() {
    if (depth_ == 3 && in_entries_ && !entry_failed_) {
      if (!add_entry()) return false;
    }
    if (depth_ == 3) entry_failed_ = false;
    if (depth_ == 2) in_entries_ = false;
    --depth_;
    return true;
  }

  bool value(const Value& v) {
    if (depth_ == 1 && key_ == "version") version_ = v.version;
    else if (depth_ == 1 && key_ == "entries") entries_is_array_ = false;
    else if (depth_ == 2 && in_entries_) return element_not_object(false);
    else if (depth_ == 3 && in_entries_) field(v);
    return true;
  }

  /// An entry that is not an object has no file.
  bool element_not_object(bool container) {
    if (!entry_error_) entry_error_ = fmt::format("entry {}: missing string 'file'", index_ + 1);
    ++index_;
    entry_failed_ = container;  // its values are read through until it closes
    return true;
  }

  void field(const Value& v) {
    for (std::size_t i = 0; i < text_fields.size(); ++i)
      if (key_ == text_fields[i]) fields_.text[i] = v.text ? std::optional<std::string>(*v.text) : std::nullopt;
    if (key_ == "count") {
      fields_.count = v.count;
      fields_.number = v.number;
    }
  }

  bool add_entry() {
    const std::size_t index = index_++;
    auto& [file, rule, key, digest, message] = fields_.text;
    if (entry_error_) return true;  // the first bad entry is the error; the rest is read through
    if (!file || !rule) {
      entry_error_ = fmt::format("entry {}: missing string '{}'", index + 1, file ? "rule" : "file");
      return true;
    }
    if (fields_.count == Count::not_positive) {
      entry_error_ = fmt::format("entry {}: 'count' must be a positive integer", index + 1);
      return true;
    }
    if (entries_.size() == limits_.max_entries) {
      stop_ = fmt::format("it holds more than {} entries: planlint reads one entry per {} bytes of the {} size limit "
                          "(raise it with --max-file-size)",
                          limits_.max_entries, BaselineLimits::bytes_per_entry, format_byte_size(limits_.max_file_bytes));
      return false;
    }
    entries_.push_back(BaselineEntry{std::move(*file), std::move(*rule), key.value_or(""), digest.value_or(""),
                                     fields_.count == Count::positive ? fields_.number : 1, message.value_or("")});
    return true;
  }

  const BaselineLimits& limits_;
  std::size_t expected_;  ///< the elements of "entries" (EntryCounter)
  std::size_t depth_ = 0;
  std::string key_;  ///< the key read last at level 1, or in an entry
  bool top_is_object_ = false;
  Version version_ = Version::none;
  bool entries_is_array_ = false;
  bool in_entries_ = false;  ///< inside the "entries" array now
  std::vector<BaselineEntry> entries_;
  std::size_t index_ = 0;  ///< the elements of "entries" read
  Fields fields_;
  bool entry_failed_ = false;  ///< the element read now is not an object
  std::optional<std::string> entry_error_;
  std::optional<std::string> stop_;  ///< a limit, or a syntax error: the reading stopped
};

}  // namespace

BaselineLimits::BaselineLimits(std::size_t max_file_bytes)
    : max_file_bytes(max_file_bytes), max_entries(max_file_bytes / bytes_per_entry) {}

Result<Baseline> parse_baseline(std::string path, std::string_view text, const BaselineLimits& limits) {
  EntryCounter counter;
  json::sax_parse(text.begin(), text.end(), &counter, json::input_format_t::json, true);
  BaselineReader reader(limits, counter.count());
  json::sax_parse(text.begin(), text.end(), &reader, json::input_format_t::json, true);
  Result<std::vector<BaselineEntry>> entries = reader.finish();
  if (!entries) return entries.error();
  return Baseline{std::move(path), *std::move(entries)};
}

}  // namespace planlint
