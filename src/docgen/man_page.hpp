#pragma once
/// planlint(1), the man page, in roff (groff's man macros) from the command line's model.
#include <string>

#include "docgen/command_model.hpp"

namespace planlint::docgen {

std::string man_page(const ProgramModel& program);

/// `text` for a roff text line: backslashes as \e, hyphens as \- (which man renders as the
/// ASCII hyphen-minus, so that an option copied from the page works; a bare - is a typographic
/// hyphen), and a leading dot or quote escaped so it is not read as a request.
std::string roff_text(const std::string& text);

}  // namespace planlint::docgen
