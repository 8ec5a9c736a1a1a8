#pragma once
/// What writes one output format (emit/formats.hpp): the run hands it the files as a
/// ReportSink; a format that writes one document (SARIF, JSON) holds them until finish().
#include <string>
#include <vector>

#include "planlint/emit/report_sink.hpp"

namespace planlint {

class Emitter : public ReportSink {
 public:
  /// Lines for stderr about what was written, after finish(): SARIF's results left out over
  /// --sarif-max-results.
  virtual std::vector<std::string> warnings() const { return {}; }
};

}  // namespace planlint
