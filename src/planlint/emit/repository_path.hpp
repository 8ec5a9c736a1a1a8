#pragma once
/// Where a reported file sits in the repository, for the outputs that a code host resolves
/// against its checkout: SARIF's %SRCROOT%-relative URIs, GitHub's annotations and the JSON
/// output's `repository_file` (what GitLab's Code Quality report needs).
#include <optional>
#include <string>
#include <string_view>

namespace planlint {

/// `display_path` (as the report shows it: relative to `working_directory`, or absolute) as a
/// path from `root`, "plans/a.toml"; nullopt when the file is outside `root` or `root` is empty.
std::optional<std::string> path_in_repository(const std::string& display_path, const std::string& root,
                                              const std::string& working_directory);

/// Percent-encodes what may not appear in a URI path (RFC 3986 pchar plus '/'): "a b" → "a%20b".
std::string encode_uri_path(std::string_view path);

/// A file as SARIF's artifactLocation names it: relative to %SRCROOT% (`root`) when inside it
/// ("plans/llama%207b.toml"), else an absolute file:// URI (a relative one when neither the
/// path nor `working_directory` is absolute).
struct ArtifactUri {
  std::string uri;
  bool relative = false;  ///< relative to `root`: the location's uriBaseId is %SRCROOT%
};
ArtifactUri artifact_uri(const std::string& display_path, const std::string& root,
                         const std::string& working_directory);

}  // namespace planlint
