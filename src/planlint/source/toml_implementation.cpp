// toml++'s implementation, compiled once into planlint instead of loaded from Debian's
// libtomlplusplus.so (TOML_HEADER_ONLY=0 everywhere, set in CMakeLists.txt). Every shared
// library costs the dynamic loader symbol lookups at each start; for a one-plan lint that was
// more than the lint itself (docs/performance.md, "Start-up").
#define TOML_IMPLEMENTATION 1
#include <toml++/toml.h>

#include "planlint/source/toml_ascii.hpp"

#include <algorithm>
#include <cstddef>

// parse_ascii_toml: toml++'s own parser, fed by a reader of ASCII text. toml++ reads a
// document through utf8_reader, which decodes UTF-8 32 bytes at a time: it clears a block of
// 32 code points (768 bytes), copies the bytes, tests them for ASCII, then writes each code
// point and, in a second loop, its line and column. That was 47 instructions a character, a
// tenth of a corpus run's. For text known to be ASCII (parse_toml tests it anyway), every byte
// is a code point and none is an error, so the same code points, positions and end of input
// come from one loop. The parser, its errors and the document it builds are toml++'s: only
// where the characters come from differs (test_toml_ascii.cpp parses every ASCII document of
// toml-test both ways and compares the documents and the errors).
//
// The reader implements toml++ 3.3's internal interface (parser.inl: utf8_reader_interface,
// utf8_codepoint, do_parse), visible only in this translation unit. Another toml++ version
// falls back to toml::parse.
#if TOML_LIB_MAJOR == 3 && TOML_LIB_MINOR == 3 && TOML_EXCEPTIONS && !TOML_HEADER_ONLY

namespace {

class AsciiReader final : public utf8_reader_interface {
 public:
  AsciiReader(std::string_view text, std::string_view path) : text_(text) {
    if (!path.empty()) path_ = std::make_shared<const std::string>(path);
  }

  const source_path_ptr& source_path() const noexcept override { return path_; }

  // As utf8_reader::read_next: a code point stays where it is until 32 more have been read
  // (the parser's history keeps copies, not pointers).
  const utf8_codepoint* read_next() override {
    if (next_cp_ == filled_end_) {
      if (next_byte_ == text_.size()) return nullptr;
      fill_block();
    }
    return next_cp_++;
  }

  // As utf8_byte_stream<std::string_view>::peek_eof: whether every byte has been read into a
  // block (the parser asks only before its first read, of an empty document).
  bool peek_eof() const override { return next_byte_ == text_.size(); }

 private:
  static constexpr std::size_t block_size = 32;

  void fill_block() noexcept {
    const std::size_t count = std::min(block_size, text_.size() - next_byte_);
    const char* bytes = text_.data() + next_byte_;
    toml::source_position position = position_;
    for (std::size_t i = 0; i < count; ++i) {
      const char c = bytes[i];
      block_[i] = utf8_codepoint{static_cast<char32_t>(static_cast<unsigned char>(c)), {c, 0, 0, 0}, 1, position};
      if (c == '\n') {
        ++position.line;
        position.column = 1;
      } else {
        ++position.column;
      }
    }
    position_ = position;
    next_byte_ += count;
    next_cp_ = block_;
    filled_end_ = block_ + count;
  }

  std::string_view text_;
  std::size_t next_byte_ = 0;  // the first byte not yet in a block
  toml::source_position position_{1, 1};
  utf8_codepoint block_[block_size];
  const utf8_codepoint* next_cp_ = block_;  // the next code point read_next returns
  const utf8_codepoint* filled_end_ = block_;
  source_path_ptr path_;
};

}  // namespace

toml::table planlint::parse_ascii_toml(std::string_view text, std::string_view path) {
  return do_parse(AsciiReader(text, path));
}

#else

toml::table planlint::parse_ascii_toml(std::string_view text, std::string_view path) {
  return toml::parse(text, path);
}

#endif
