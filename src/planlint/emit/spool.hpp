#pragma once
/// Text a document format writes before it can write what comes first (SARIF's rules list,
/// JSON's `files`): put aside file by file as the run delivers it, in memory up to a MiB and
/// then in an unnamed temporary file, so that a log of 10,000 files holds only offsets in
/// memory, as the text output holds nothing (docs/performance.md).
///
///     Spool results;
///     const Spool::Piece piece = results.append(result_json);  // as each file comes
///     results.copy(out, piece);                                  // at finish()
#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace planlint {

class Spool {
 public:
  struct Piece {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
  };

  /// Puts `text` aside; where it is.
  Piece append(std::string_view text);
  /// Writes a piece put aside, or `size` bytes from `offset` (several pieces in a row).
  void copy(std::ostream& out, Piece piece);
  std::uint64_t size() const { return size_; }

 private:
  struct Close {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };
  std::string memory_;  ///< everything, until it outgrows memory_limit
  std::unique_ptr<std::FILE, Close> file_;
  std::uint64_t size_ = 0;
  bool failed_ = false;  ///< no temporary file could be made: everything stays in memory
  static constexpr std::size_t memory_limit = std::size_t{1} << 20;
};

}  // namespace planlint
