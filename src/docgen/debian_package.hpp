#pragma once
/// The Debian package's texts that come from planlint itself: the extended description of its
/// control file and its changelog (usr/share/doc/planlint/changelog.gz, in Debian's format),
/// so that neither drifts from the program or from CHANGELOG.md.
#include <cstdint>
#include <string>
#include <string_view>

#include "docgen/command_model.hpp"

namespace planlint::docgen {

/// The extended description (the lines after the summary): what planlint does, its commands,
/// and every output format of `check` and `report` as their tables list them. Paragraphs are
/// separated by an empty line; lines are at most 79 characters, as the control file indents
/// each by one space and Debian's limit is 80.
std::string package_description(const ProgramModel& program);

/// What the changelog entry is made from.
struct ChangelogEntrySource {
  std::string package;         ///< "planlint"
  std::string version;         ///< "0.2.0"
  std::string maintainer;      ///< "Name <address>"
  std::int64_t date_seconds;   ///< the entry's time, Unix seconds
};

/// The Debian changelog of the package, one entry for `source.version`, from CHANGELOG.md's
/// text: the items of its "## Unreleased" section when it has any (distribution UNRELEASED:
/// the build holds changes no release has), else those of "## VERSION" (distribution
/// unstable). Each "- " item or paragraph of the section is one "  * " item, wrapped at 80
/// columns; a last item points to CHANGELOG.md for the earlier versions (apt-listchanges shows
/// the new entries on an upgrade). Throws std::runtime_error when neither section has items.
std::string debian_changelog(std::string_view changelog_markdown, const ChangelogEntrySource& source);

}  // namespace planlint::docgen
