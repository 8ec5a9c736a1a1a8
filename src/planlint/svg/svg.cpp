#include "planlint/svg/svg.hpp"

#include <fmt/format.h>

#include "planlint/diag/printable.hpp"

namespace planlint::svg {

namespace {

/// A number as an SVG coordinate: two decimals at most, no exponent.
std::string number(double value) {
  std::string text = fmt::format("{:.2f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

}  // namespace

std::string xml_text(std::string_view text) {
  // The printable policy first, as every format (planlint/diag/printable.hpp): controls, bidi
  // characters and malformed UTF-8 show as \x1b, \u202e, \xff; line feeds stay. What is left is
  // valid UTF-8 that XML allows, and needs only its five entities.
  const std::string shown = printable_lines(text);
  std::string out;
  out.reserve(shown.size());
  for (const char c : shown) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
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
