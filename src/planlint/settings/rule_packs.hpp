#pragma once
/// The rules of a run: the built-in ones, the packs of the config (`[lint] rules`) and those of
/// the command line (`--rules`). `check`, `rules` and `explain` load them the same way.
///
///     DiagnosticSink problems;
///     auto rules = load_rule_packs(&config, {"extra/"}, problems);
///     if (!problems.empty()) ...               // exit 2: the problems, then rules.error() if any
///     const RuleSet& set = *rules ? **rules : RuleSet::builtin();
#include <memory>
#include <string>
#include <vector>

#include "planlint/config/config.hpp"
#include "planlint/diag/diagnostic_sink.hpp"
#include "planlint/diag/result.hpp"
#include "planlint/rules/rule_set.hpp"

namespace planlint {

/// The built-in rules with the packs of `config` (none when null) and then `extra` added: null
/// when there are no packs, and RuleSet::builtin() applies. A rule file reached twice (a folder
/// in the config and again on the command line, or a folder and one of its files) is loaded
/// once. Problems are reported to `problems`: a config's pack that does not exist at the
/// config's line and column, with the closest name in its folder, and a command line's without
/// a place; a rule that does not load at its rule file's, and then the result is the error
/// "invalid rule pack". A pack that does not exist is passed over: the caller stops when
/// `problems` holds any.
Result<std::unique_ptr<RuleSet>> load_rule_packs(const Config* config, const std::vector<std::string>& extra,
                                                 DiagnosticSink& problems);

}  // namespace planlint
