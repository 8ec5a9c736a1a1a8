#pragma once
/// What emitters and `planlint rules` know of a rule: plain data, no rule engine.
#include <string>
#include <vector>

#include "planlint/diag/diagnostic.hpp"

namespace planlint {

struct RuleDescriptor {
  std::string id;       ///< "memory-fit"
  std::string group;    ///< "memory"
  Severity severity = Severity::error;  ///< default level
  std::string summary;  ///< one line
  std::string docs;     ///< Markdown: What it does / Why is this bad? / Example / Use instead / References
  bool native = false;  ///< implemented in C++ rather than as an expression
  std::string origin;   ///< the rule file it came from ("rules/memory/memory-fit.toml")
};

}  // namespace planlint
