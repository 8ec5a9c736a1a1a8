#pragma once
/// Writing a report to a file (`-o FILE`) so that readers never see a half-written one: the
/// text goes to a temporary file in the same folder, which is then renamed over FILE.
#include <string>
#include <string_view>

namespace planlint {

/// Writes `contents` to `path` atomically. Returns false with `error` set ("cannot write
/// 'x/out.sarif': No such file or directory"); `path` is then untouched.
bool write_file_atomically(const std::string& path, std::string_view contents, std::string& error);

}  // namespace planlint
