#include "planlint/fix/files.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "planlint/diag/native_rules.hpp"
#include "planlint/emit/output_file.hpp"

namespace planlint::fix {

std::vector<FixedFile> plan_fixes(const Report& report, const SafetyOf& safety, bool include_unsafe) {
  std::map<std::string_view, std::vector<Diagnostic>> by_file;
  for (const Diagnostic& d : report.diagnostics)
    if (!d.fixes.empty() || d.rule == native_rules::toml_syntax) by_file[d.primary.file].push_back(d);
  std::vector<FixedFile> files;
  for (const auto& source : report.files) {
    auto found = by_file.find(source->path());
    if (found == by_file.end()) continue;
    FileFixes fixes = collect_fixes(*source, found->second, safety, include_unsafe);
    if (fixes.edits.empty()) continue;
    files.push_back({source->path(), source->text(), std::move(fixes.edits), fixes.fixed});
    by_file.erase(found);  // a file reached twice is fixed once
  }
  return files;
}

Result<void> write_fixed(const FixedFile& file) {
  auto refuse = [&](std::string_view why) {
    return Error(fmt::format("cannot fix '{}': {}", file.path, why));
  };
  struct stat status {};
  if (::lstat(file.path.c_str(), &status) != 0) return refuse(std::strerror(errno));
  if (S_ISLNK(status.st_mode)) return refuse("it is a symbolic link; fix the file it names");
  if (!S_ISREG(status.st_mode)) return refuse("not a regular file");
  constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
  const auto size = static_cast<std::size_t>(status.st_size);
  if (size != file.before.size() && size != file.before.size() + byte_order_mark.size())
    return refuse("it changed since it was linted");
  Result<std::string> now = read_file(file.path, std::max<std::size_t>(size, 1));
  if (!now) return refuse(now.error().message);
  std::string prefix;
  if (*now != file.before) {
    if (now->size() == file.before.size() + 3 && now->starts_with(byte_order_mark) &&
        std::string_view(*now).substr(3) == file.before)
      prefix = byte_order_mark;
    else
      return refuse("it changed since it was linted");
  }
  return write_file_atomically(file.path, prefix + apply_edits(file.before, file.edits));
}

}  // namespace planlint::fix
