#pragma once
/// The base protocol of the Language Server Protocol: messages framed by a `Content-Length`
/// header, over a pair of file descriptors (stdin and stdout for `planlint lsp`).
///
///     Content-Length: 52\r\n
///     \r\n
///     {"jsonrpc":"2.0","id":1,"method":"shutdown"}
///
/// The reader never holds more than `max_content_bytes` of a message: a larger one is read
/// through and dropped, and the caller gets its first bytes to answer it (framing stays in
/// step, since the header said how long the content is).
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace planlint::lsp {

/// What MessageReader::read found.
struct Frame {
  enum class Kind {
    message,    ///< `content` is the whole content
    too_large,  ///< over the limit: `content` holds its first bytes, `declared_bytes` its length
    bad_header, ///< a header block without a valid Content-Length (`problem` says why)
    end,        ///< the input ended (between messages, or inside one: `problem` says so)
  };
  Kind kind = Kind::end;
  std::string content;
  std::size_t declared_bytes = 0;
  std::string problem;
};

class MessageReader {
 public:
  /// The most bytes of a too-large message's start that read() keeps, for its id and method.
  static constexpr std::size_t kept_prefix_bytes = 64 * 1024;
  /// A header line longer than this is a bad header (a real one is a few dozen bytes).
  static constexpr std::size_t max_header_line_bytes = 1024;

  MessageReader(int fd, std::size_t max_content_bytes) : fd_(fd), max_content_bytes_(max_content_bytes) {}

  /// The next frame; blocks until one is complete or the input ends. Errors of read(2) other
  /// than EINTR end the input.
  Frame read();

 private:
  /// The next line of a header block, without its CR LF (a bare LF ends one too); false at the
  /// end of the input. Sets `too_long` and reads through the rest of a line over the limit.
  bool read_line(std::string& line, bool& too_long);
  /// Appends up to `count` bytes to `out` (when `out` is not null, else drops them); the
  /// number of bytes read, fewer only at the end of the input.
  std::size_t read_bytes(std::size_t count, std::string* out, std::size_t keep);
  bool fill();

  int fd_;
  std::size_t max_content_bytes_;
  std::string buffer_;
  std::size_t at_ = 0;  ///< the next unread byte of buffer_
  bool ended_ = false;
};

/// Writes whole frames to a file descriptor, one at a time from any thread.
class MessageWriter {
 public:
  explicit MessageWriter(int fd) : fd_(fd) {}

  /// Writes `content` with its header; false when the descriptor no longer takes it (the client
  /// went away), and every later write is false too.
  bool write(std::string_view content);

 private:
  int fd_;
  std::mutex mutex_;
  bool broken_ = false;
};

}  // namespace planlint::lsp
