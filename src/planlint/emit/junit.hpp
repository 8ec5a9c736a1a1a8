#pragma once
/// JUnit XML (`--format junit`) for the test tabs of Jenkins, GitLab and Azure Pipelines
/// (docs/integrations.md, "JUnit XML"), written file by file, valid against the Apache Ant JUnit
/// schema (tests/integrations/junit/JUnit.xsd).
#include <ostream>
#include <string>
#include <string_view>

#include "planlint/emit/emitter.hpp"
#include "planlint/emit/gitlab.hpp"

namespace planlint {

/// A <testsuites> with a <testsuite> per linted file (named by its path from the repository
/// root), and in it a <testcase> per rule with findings there, whose <failure> lists them as
/// `file:line:col: level: message` with their help; a file without findings has one passing
/// testcase, `planlint`.
class JunitEmitter final : public Emitter {
 public:
  /// `timestamp`: when the run started, YYYY-MM-DDTHH:MM:SS (UTC, as the schema has it, no zone).
  JunitEmitter(std::ostream& out, RepositoryPaths paths, std::string timestamp)
      : out_(out), paths_(std::move(paths)), timestamp_(std::move(timestamp)) {}
  void file(const std::shared_ptr<const SourceFile>& source, std::vector<Diagnostic>& diagnostics) override;
  void finish(const std::vector<RuleDescriptor>& rules) override;

 private:
  void open();

  std::ostream& out_;
  RepositoryPaths paths_;
  std::string timestamp_;
  std::size_t suites_ = 0;
  bool opened_ = false;
};

/// `text` as XML character data or an attribute value, on one line: the printable policy
/// (planlint/diag/printable.hpp: line breaks, controls, bidi characters and malformed UTF-8 shown
/// escaped, `\x1b`), then & < > " ' as entities.
std::string xml_escape(std::string_view text);

/// The current UTC time as JUnit's timestamp: 2026-12-04T01:30:00.
std::string junit_timestamp_now();

}  // namespace planlint
