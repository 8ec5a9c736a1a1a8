#pragma once
/// The files a run writes (-o, --write-baseline) told apart from the files it reads, before
/// anything is linted: a run must not replace the plan it reads, nor the baseline it applies,
/// with its report.
#include <optional>
#include <string>
#include <vector>

#include "planlint/diag/result.hpp"

namespace planlint {

struct WrittenFiles {
  std::optional<std::string> output;          ///< -o FILE
  std::optional<std::string> write_baseline;  ///< --write-baseline FILE
  std::optional<std::string> baseline;        ///< --baseline FILE, which -o would overwrite
};

/// Whether `files` can be written: -o and --write-baseline each need a file of their own (the
/// same inode, hard and symbolic links included, or the same resolved path for a file not
/// there yet; a device such as /dev/null is written into, and may be shared), -o must not be
/// --baseline's file, and neither may be a file of `linted` (named, or found in a folder).
/// One error for each clash.
std::vector<Error> check_written_files(const WrittenFiles& files, const std::vector<std::string>& linted);

/// Whether check_written_files has anything to check: a run that writes no file passes over
/// building the list of linted files.
inline bool writes_files(const WrittenFiles& files) { return files.output || files.write_baseline; }

}  // namespace planlint
