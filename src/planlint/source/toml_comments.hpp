#pragma once
/// TOML comment bodies removed before toml++ parses a document (parse_toml):
///
///     std::optional<std::string> lean = without_comment_bodies(text);
///     toml::parse(lean ? *lean : text, path);  // the same table, the same positions
///
/// Why: toml++ reads a comment one code point at a time through its UTF-8 reader, and much of a
/// capacity plan is comments; skipping them here is a plain scan of the bytes.
#include <optional>
#include <string>
#include <string_view>

namespace planlint {

/// `text` with the body of each comment removed: the characters after a comment's '#' up to
/// its line break. Everything toml++ reports stays where it was (a body is the rest of its
/// line, so no line or column before or after it moves), and the '#' stays, so an error at a
/// comment still names it. nullopt when nothing would be removed.
///
/// Only what is certainly a valid comment is removed:
/// - a body without control characters but tabs (toml++ checks those bodies itself),
/// - that ends at "\n" or "\r\n" and is not on the text's last line, nor on the line before
///   when that one is empty (toml++ places the end of the file after the last character:
///   its end-of-file errors and the root table's region would move),
/// - in a document that is well-formed UTF-8 (where toml++'s decoder finds a malformed
///   sequence depends on how it buffers, so nothing in front of one may move; and a body
///   then holds no surrogate, the other thing TOML forbids in comments),
/// - in a document whose strings all close on their line (multi-line ones anywhere): on
///   anything else the lexing may disagree with toml++'s, and toml++ gets the text untouched.
std::optional<std::string> without_comment_bodies(std::string_view text);

/// The same into `lean` (its capacity reused: parse_toml keeps one buffer per thread); true
/// when something was removed, and `lean` then holds the text. `lean` must not alias `text`.
bool without_comment_bodies(std::string_view text, std::string& lean);

}  // namespace planlint
