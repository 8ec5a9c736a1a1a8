#pragma once
/// Text written as TOML: a rule's fix text as the value it replaces a value with, and a name as
/// a TOML basic string.
#include <string>
#include <string_view>

namespace planlint {

/// `text` when it reads as one TOML value (`"3.5 GB"`, `0.45`, `true`, `2026-12-01`), else
/// `text` as a TOML basic string, quoted and escaped (`3.5 GB` → `"3.5 GB"`): a rule file's
/// fix template that leaves out the quotes must not write an invalid plan.
std::string as_toml_value(std::string_view text);

/// `text` as a TOML basic string: quoted, `"` and `\` escaped, a line break, tab or carriage
/// return as `\n`, `\t`, `\r`, any other control character or DEL as `\uXXXX`.
std::string toml_basic_string(std::string_view text);

}  // namespace planlint
