#pragma once
/// Where planlint's documentation lives, for links to it: SARIF's tool.driver.informationUri
/// and each rule's helpUri, the language server's rule links.
#include <string>
#include <string_view>

namespace planlint {

/// The project's home page.
inline constexpr std::string_view project_url = "https://github.com/planlint/planlint";

/// The base URL of the documentation this build describes, ending in '/': the CMake cache
/// variable PLANLINT_DOCS_URL, by default the release tag's docs/ folder on GitHub. A config's
/// `[lint] docs_url` replaces it (a mirror inside a company's network).
std::string_view build_docs_url();

/// The page of the built-in rule `rule` under `docs_url` (build_docs_url() or a config's):
/// "<docs_url>rules/<rule>.md". A base without a final '/' gets one.
std::string rule_docs_url(std::string_view docs_url, std::string_view rule);

}  // namespace planlint
