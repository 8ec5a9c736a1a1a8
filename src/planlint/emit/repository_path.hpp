#pragma once
/// Where a reported file sits in the repository, for the outputs that a code host resolves
/// against its checkout: SARIF's %SRCROOT%-relative URIs and GitHub's annotations.
#include <optional>
#include <string>

namespace planlint {

/// `display_path` (as the report shows it: relative to `working_directory`, or absolute) as a
/// path from `root`, "plans/a.toml"; nullopt when the file is outside `root` or `root` is empty.
std::optional<std::string> path_in_repository(const std::string& display_path, const std::string& root,
                                              const std::string& working_directory);

}  // namespace planlint
