#pragma once
/// What emitters and `planlint rules` know of a rule: plain data, no rule engine.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/diagnostic.hpp"

namespace planlint {

/// A text that every copy of its holder shares. A rule's docs are kilobytes, and a run copies
/// every descriptor several times (rule set, settings, the run's rule list); the built-in
/// rules' docs are compiled-in data, viewed without any copy.
class SharedText {
 public:
  SharedText() = default;
  SharedText(std::string text)  // NOLINT: a text is a SharedText
      : owner_(std::make_shared<const std::string>(std::move(text))), view_(*owner_) {}
  SharedText(const char* text) : SharedText(std::string(text)) {}  // NOLINT
  /// Text that lives as long as the program (compiled-in data, a string literal).
  static SharedText of_static(std::string_view text) {
    SharedText shared;
    shared.view_ = text;
    return shared;
  }

  std::string_view view() const { return view_; }
  std::string str() const { return std::string(view_); }
  bool empty() const { return view_.empty(); }
  bool operator==(const SharedText& other) const { return view_ == other.view_; }

 private:
  std::shared_ptr<const std::string> owner_;  ///< null for static text
  std::string_view view_;                     ///< *owner_, or the static text
};

struct RuleDescriptor {
  std::string id;       ///< "memory-fit"
  std::string group;    ///< "memory"
  Severity severity = Severity::error;  ///< default level
  SharedText summary;   ///< one line
  SharedText docs;      ///< Markdown: What it does / Why is this bad? / Example / Use instead / References
  bool native = false;  ///< implemented in C++ rather than as an expression
  SharedText origin;    ///< the rule file it came from ("rules/memory/memory-fit.toml")
  FixSafety fix = FixSafety::none;  ///< none: the rule's findings carry no fix
};

}  // namespace planlint
