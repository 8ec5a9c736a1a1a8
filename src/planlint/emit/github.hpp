#pragma once
/// GitHub Actions workflow commands (cli.md `--format github`): one annotation per finding,
///
///     ::error file=plans/a.toml,line=11,col=1,endLine=11,endColumn=3,title=unknown-key::unknown key 'hmb' ...
///
/// `warning` for warnings, `notice` for note-level findings; notes and help follow the message
/// on lines of their own. Suppressed findings are not shown.
#include <ostream>
#include <string>
#include <string_view>

#include "planlint/diag/report.hpp"

namespace planlint {

void emit_github(std::ostream& out, const Report& report);

/// The runner's escaping of a command's message: % CR LF.
std::string github_escape_data(std::string_view text);
/// The runner's escaping of a property value: % CR LF : and ,.
std::string github_escape_property(std::string_view text);

}  // namespace planlint
