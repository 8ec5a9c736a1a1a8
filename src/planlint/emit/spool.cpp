#include "planlint/emit/spool.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace planlint {

Spool::Piece Spool::append(std::string_view text) {
  const Piece piece{size_, text.size()};
  size_ += text.size();
  if (!file_ && !failed_ && memory_.size() + text.size() > memory_limit) {
    // tmpfile(): made with O_EXCL (or O_TMPFILE) and unlinked at once, so nothing in the tree
    // can stand in its place, and it goes when the run ends however it ends.
    file_.reset(std::tmpfile());
    if (file_ && std::fwrite(memory_.data(), 1, memory_.size(), file_.get()) == memory_.size()) {
      std::string().swap(memory_);
    } else {
      file_.reset();
      failed_ = true;
    }
  }
  if (!file_) {
    memory_ += text;
  } else if (std::fwrite(text.data(), 1, text.size(), file_.get()) != text.size()) {
    throw std::runtime_error("cannot write the temporary file that holds the log's results (is the temp folder full?)");
  }
  return piece;
}

void Spool::copy(std::ostream& out, Piece piece) {
  if (!file_) {
    out.write(memory_.data() + piece.offset, static_cast<std::streamsize>(piece.size));
    return;
  }
  if (std::fseek(file_.get(), static_cast<long>(piece.offset), SEEK_SET) != 0)
    throw std::runtime_error("cannot read back the temporary file that holds the log's results");
  std::array<char, 1 << 16> buffer;
  for (std::uint64_t left = piece.size; left > 0;) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer.size()));
    const std::size_t got = std::fread(buffer.data(), 1, want, file_.get());
    if (got == 0) throw std::runtime_error("cannot read back the temporary file that holds the log's results");
    out.write(buffer.data(), static_cast<std::streamsize>(got));
    left -= got;
  }
}

}  // namespace planlint
