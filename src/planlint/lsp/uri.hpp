#pragma once
/// `file:` URIs (RFC 8089) to paths and back: documents are named by URI in LSP, and linted
/// by path, as `planlint check` names a file.
#include <optional>
#include <string>
#include <string_view>

namespace planlint::lsp {

/// The local path of a `file:` URI ("file:///home/a/plan%20b.toml" → "/home/a/plan b.toml";
/// an empty or `localhost` authority); nullopt for another scheme (`untitled:`), another host,
/// a bad percent-escape or an escaped NUL or '/'.
std::optional<std::string> uri_to_path(std::string_view uri);

/// The `file:` URI of an absolute path (a relative one is made absolute first).
std::string path_to_uri(std::string_view path);

}  // namespace planlint::lsp
