#pragma once
/// Shell completions for bash, zsh and fish from the command line's model: subcommands, every
/// option of each, the choices of an option that has them, files where a value is a file or a
/// folder, rule ids for `planlint explain`, rule ids and groups, joined by commas, for
/// `--select` and `--ignore`, and ID=LEVEL for `--severity`. As `planlint PATH...` runs `check`, the first
/// word completes to a subcommand, a file or an option of `check`.
#include <string>

#include "docgen/command_model.hpp"

namespace planlint::docgen {

/// share/bash-completion/completions/planlint (defines _planlint, completes `planlint`).
std::string bash_completion(const ProgramModel& program);
/// share/zsh/site-functions/_planlint (a #compdef function file).
std::string zsh_completion(const ProgramModel& program);
/// share/fish/vendor_completions.d/planlint.fish
std::string fish_completion(const ProgramModel& program);

}  // namespace planlint::docgen
