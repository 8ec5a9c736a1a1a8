#pragma once
/// A small SVG writer for the HTML report's charts: rectangles, lines and text in a fixed
/// view box, each text escaped for XML, written as one inline <svg> element (no script, no
/// external reference). Geometry only: what to draw is the caller's.
///
///     svg::Document chart(400, 60, "Memory per GPU");
///     chart.rect(0, 10, 120, 20, "part-0", "train.memory.states 28.7 GB");
///     chart.text(4, 50, "0 GB", "axis");
///     html += chart.str();
#include <string>
#include <string_view>

namespace planlint::svg {

/// `text` as XML character data or an attribute value: the printable policy
/// (planlint/diag/printable.hpp: controls, bidi characters and malformed UTF-8 shown as `\x1b`,
/// line feeds kept), then &, <, >, " and ' as entities.
std::string xml_text(std::string_view text);

enum class Anchor { start, middle, end };

class Document {
 public:
  /// A chart `width` × `height` user units wide and high, scaled to its container's width;
  /// `title` is its accessible name (<title>).
  Document(double width, double height, std::string_view title);

  /// A rectangle of the CSS class `css_class`; `tooltip` (may be empty) is its <title>.
  void rect(double x, double y, double width, double height, std::string_view css_class,
            std::string_view tooltip = {});
  void line(double x1, double y1, double x2, double y2, std::string_view css_class);
  void text(double x, double y, std::string_view text, std::string_view css_class = {},
            Anchor anchor = Anchor::start);

  /// The <svg> element.
  std::string str() const;

 private:
  double width_, height_;
  std::string title_;
  std::string body_;
};

}  // namespace planlint::svg
