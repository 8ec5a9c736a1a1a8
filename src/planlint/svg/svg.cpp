#include "planlint/svg/svg.hpp"

#include <fmt/format.h>

namespace planlint::svg {

namespace {

/// The length of the well-formed UTF-8 sequence at `text[i]`, 0 when it is malformed.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  char32_t code = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) length = 2, code = lead & 0x1F;
  else if ((lead & 0xF0) == 0xE0) length = 3, code = lead & 0x0F;
  else if ((lead & 0xF8) == 0xF0) length = 4, code = lead & 0x07;
  else return 0;
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates, beyond U+10FFFF, and the two non-characters XML excludes.
  static constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < least[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF || code == 0xFFFE ||
      code == 0xFFFF)
    return 0;
  return length;
}

/// A number as an SVG coordinate: two decimals at most, no exponent.
std::string number(double value) {
  std::string text = fmt::format("{:.2f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

}  // namespace

std::string xml_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&#39;"; ++i; continue;
      default: break;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    const std::size_t length = utf8_length(text, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

Document::Document(double width, double height, std::string_view title)
    : width_(width), height_(height), title_(title) {}

void Document::rect(double x, double y, double width, double height, std::string_view css_class,
                    std::string_view tooltip) {
  body_ += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" class="{}")", number(x), number(y),
                       number(width < 0 ? 0 : width), number(height < 0 ? 0 : height), xml_text(css_class));
  if (tooltip.empty()) body_ += "/>";
  else body_ += fmt::format("><title>{}</title></rect>", xml_text(tooltip));
}

void Document::line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  body_ += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" class="{}"/>)", number(x1), number(y1), number(x2),
                       number(y2), xml_text(css_class));
}

void Document::text(double x, double y, std::string_view text, std::string_view css_class, Anchor anchor) {
  const std::string_view anchored = anchor == Anchor::start ? "start" : anchor == Anchor::middle ? "middle" : "end";
  body_ += fmt::format(R"(<text x="{}" y="{}" text-anchor="{}")", number(x), number(y), anchored);
  if (!css_class.empty()) body_ += fmt::format(R"( class="{}")", xml_text(css_class));
  body_ += fmt::format(">{}</text>", xml_text(text));
}

std::string Document::str() const {
  return fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="100%" role="img"><title>{}</title>{}</svg>)",
      number(width_), number(height_), xml_text(title_), body_);
}

}  // namespace planlint::svg
