#pragma once
/// Reading a file that configures the run: a config, a catalog, a rule pack, a baseline.
#include <cstddef>
#include <string>

#include "planlint/diag/result.hpp"
#include "planlint/source/limits.hpp"

namespace planlint {

/// read_file() (source_file.hpp) for a file that configures the run: only a regular file is
/// read. A device, FIFO, socket or folder is the error "is not a regular file (a FIFO); ..." at
/// once: it is opened without blocking (O_NONBLOCK, cleared before the read), so `catalog =
/// "/dev/tty"` or a FIFO nobody writes cannot stall a run. The null device reads as empty
/// (`--config /dev/null`: no config).
Result<std::string> read_regular_file(const std::string& path, std::size_t max_bytes = default_max_file_bytes);

/// read_regular_file() of a file open as `descriptor` (which stays open), named `path` in its
/// errors: a file opened relative to a held folder (files/held_folder.hpp). Open it with
/// O_NONBLOCK, as read_regular_file does, so that a FIFO cannot stall the open.
Result<std::string> read_regular_descriptor(int descriptor, const std::string& path,
                                            std::size_t max_bytes = default_max_file_bytes);

}  // namespace planlint
