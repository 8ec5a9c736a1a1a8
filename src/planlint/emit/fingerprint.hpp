#pragma once
/// The stable identity of a finding, shared by the outputs that track findings from run to run:
/// SARIF's partialFingerprints."planlint/v1" and the JSON output's `fingerprint` (what GitLab's
/// Code Quality report needs). Built from where the file is in the repository, the rule and the
/// TOML key path, never from the line or the message: a finding keeps it when lines are added
/// above it, when its message changes ("641 d ago" the next day, a number edited), and
/// whichever folder planlint ran in and however the file was named.
///
///     // run in /repo/docs on ../plans/a.toml: the same fingerprints as in /repo on plans/a.toml
///     std::vector<std::string> ids = finding_fingerprints(report.diagnostics, "/repo", "/repo/docs");
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "planlint/diag/diagnostic.hpp"

namespace planlint {

/// A hash of file, rule, key path and the ordinal of the finding among those sharing the three
/// (so that identical findings, two unused `allow-file` comments of one rule, stay apart), as
/// 16 hex digits.
std::string finding_fingerprint(std::string_view file, std::string_view rule,
                                std::string_view key_path, std::size_t ordinal);

/// The fingerprint of each of `diagnostics` (in the report's order, which sets the ordinals),
/// the file named by its SARIF artifact URI: relative to `repository_root` when inside it
/// (artifact_uri in repository_path.hpp).
std::vector<std::string> finding_fingerprints(const std::vector<Diagnostic>& diagnostics,
                                              const std::string& repository_root,
                                              const std::string& working_directory);

}  // namespace planlint
