#include "planlint/lsp/framing.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <optional>

#include <fmt/format.h>

namespace planlint::lsp {

namespace {

constexpr std::size_t read_chunk_bytes = 64 * 1024;
constexpr std::string_view content_length = "content-length";

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

/// Where "Content-Length:" starts in `line`, in any case; npos when it does not.
std::size_t find_content_length(std::string_view line) {
  for (std::size_t at = 0; at + content_length.size() < line.size(); ++at)
    if (iequals(line.substr(at, content_length.size()), content_length) && line[at + content_length.size()] == ':')
      return at;
  return std::string_view::npos;
}

}  // namespace

bool MessageReader::fill() {
  if (ended_) return false;
  if (at_ == buffer_.size()) {
    buffer_.clear();
    at_ = 0;
  }
  const std::size_t size = buffer_.size();
  buffer_.resize(size + read_chunk_bytes);
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.data() + size, read_chunk_bytes);
    if (n > 0) {
      buffer_.resize(size + static_cast<std::size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    buffer_.resize(size);
    ended_ = true;
    return false;
  }
}

bool MessageReader::read_line(std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  for (;;) {
    if (at_ == buffer_.size() && !fill()) return !line.empty() || too_long;
    const std::string_view rest(buffer_.data() + at_, buffer_.size() - at_);
    const std::size_t newline = rest.find('\n');
    const std::string_view piece = rest.substr(0, newline);
    if (!too_long) {
      const std::size_t room = max_header_line_bytes + 1 - std::min(line.size(), max_header_line_bytes + 1);
      line.append(piece.substr(0, room));
      if (line.size() > max_header_line_bytes) {
        too_long = true;
        line.resize(max_header_line_bytes);
      }
    }
    if (newline == std::string_view::npos) {
      at_ = buffer_.size();
      continue;
    }
    at_ += newline + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }
}

std::size_t MessageReader::read_bytes(std::size_t count, std::string* out, std::size_t keep) {
  std::size_t done = 0;
  while (done < count) {
    if (at_ == buffer_.size() && !fill()) break;
    const std::size_t take = std::min(count - done, buffer_.size() - at_);
    if (out && out->size() < keep) out->append(buffer_, at_, std::min(take, keep - out->size()));
    at_ += take;
    done += take;
  }
  // A large message read through: the buffer holds at most one chunk past it.
  if (at_ == buffer_.size()) {
    buffer_.clear();
    buffer_.shrink_to_fit();
    at_ = 0;
  }
  return done;
}

Frame MessageReader::read() {
  Frame frame;
  std::string line;
  bool too_long = false;
  bool any_header = false;
  std::optional<std::size_t> length;
  std::string problem;
  for (;;) {
    if (!read_line(line, too_long)) {
      frame.kind = Frame::Kind::end;
      if (any_header) frame.problem = "the input ended inside a message's header";
      return frame;
    }
    if (line.empty() && !too_long) {
      if (!any_header) continue;  // blank lines between messages
      break;
    }
    any_header = true;
    if (too_long) {
      if (problem.empty()) problem = fmt::format("a header line is over {} bytes", max_header_line_bytes);
      continue;
    }
    std::string_view field(line);
    const std::size_t colon = field.find(':');
    std::string_view name = colon == std::string_view::npos ? std::string_view() : trim(field.substr(0, colon));
    if (!iequals(name, content_length)) {
      // What follows a message whose Content-Length was too short: the rest of its content,
      // then the next header. The error that content made has been answered already.
      if (const std::size_t at = find_content_length(field); at != std::string_view::npos) {
        field.remove_prefix(at);
        name = content_length;
      } else if (colon == std::string_view::npos || name.empty()) {
        if (problem.empty()) problem = "a header line is not `Name: value`";
        continue;
      } else {
        continue;  // Content-Type, or another header: nothing planlint needs
      }
    }
    const std::string_view value = trim(field.substr(field.find(':') + 1));
    std::size_t bytes = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), bytes);
    if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
      if (problem.empty())
        problem = fmt::format("Content-Length is not a whole number of bytes: '{}'", value.substr(0, 40));
      continue;
    }
    if (length && *length != bytes && problem.empty()) problem = "two Content-Length headers disagree";
    length = bytes;
  }
  if (!problem.empty() || !length) {
    frame.kind = Frame::Kind::bad_header;
    frame.problem = problem.empty() ? "the header has no Content-Length" : problem;
    return frame;
  }
  frame.declared_bytes = *length;
  const bool fits = *length <= max_content_bytes_;
  if (fits) frame.content.reserve(*length);
  const std::size_t keep = fits ? *length : kept_prefix_bytes;
  if (read_bytes(*length, &frame.content, keep) < *length) {
    frame.kind = Frame::Kind::end;
    frame.content.clear();
    frame.problem = fmt::format("the input ended inside a message of {} bytes", *length);
    return frame;
  }
  frame.kind = fits ? Frame::Kind::message : Frame::Kind::too_large;
  return frame;
}

bool MessageWriter::write(std::string_view content) {
  std::string frame = fmt::format("Content-Length: {}\r\n\r\n", content.size());
  frame.append(content);
  std::lock_guard lock(mutex_);
  if (broken_) return false;
  std::size_t done = 0;
  while (done < frame.size()) {
    const ssize_t n = ::write(fd_, frame.data() + done, frame.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    broken_ = true;
    return false;
  }
  return true;
}

}  // namespace planlint::lsp
