// `report --format html --compare-to BASE`: the page holds what `planlint diff BASE PATH...`
// finds, as well-formed XHTML, and --compare-to is refused where it does not apply.
#include "diff_support.hpp"
#include "xpath.hpp"

using namespace planlint::test;

namespace {

/// The cells of the comparison's row of plan `name`, as text.
std::vector<std::string> row_of(const fs::path& page, const std::string& name) {
  const std::string row = "//*[local-name()='table'][@class='comparison']/*[local-name()='tbody']/*[local-name()='tr']"
                          "[*[local-name()='td'][1] = '" + name + "']";
  std::vector<std::string> cells;
  for (int i = 1; i <= 9; ++i) cells.push_back(xpath(page, fmt::format("string({}/*[local-name()='td'][{}])", row, i)));
  return cells;
}

}  // namespace

TEST_CASE("report --format html --compare-to adds the change since BASE to the page", "[diff][report][html]") {
  const ChangedRepository changed;
  InDirectory here(changed.repo.dir.path);
  const CliRun run = run_cli({"report", "--format", "html", "--compare-to", "git:HEAD~1",
                              "-o", "page.xhtml", "plans/", "docs/"});
  INFO(run.err);
  CHECK(run.status == 1);  // the edited plan's errors, as without --compare-to
  const fs::path page = changed.repo.dir.path / "page.xhtml";
  std::string output;
  CHECK(run_command(system_tool("xmllint", "libxml2-utils") + " --noout --nonet " + quote(page.string()), output) == 0);
  INFO(output);
  const std::string section = "//*[local-name()='section'][@id='comparison']";
  CHECK(xpath(page, "string(" + section + "/*[local-name()='h2'])") == "Compared with git:HEAD~1");
  CHECK(xpath(page, "string(" + section + "/*[local-name()='p'])") ==
        "5 plans changed (2 changed, 1 added, 1 renamed, 1 removed); 1 plan unchanged.");
  CHECK(xpath(page, "count(" + section + "//*[local-name()='tbody']/*[local-name()='tr'])") == "5");

  // plan, change, cost before, after, days before, after, GPUs before, after, what moved
  const std::vector<std::string> edited = row_of(page, "edited-plan");
  CHECK(edited[1] == "changed");
  CHECK(edited[2].starts_with("$98.3K"));
  CHECK(edited[3].starts_with("$157.3K"));
  CHECK(edited[6] == "64");  // unchanged, shown on both sides
  CHECK(edited[7] == "64");
  CHECK(edited[8].find("cost +$59K (+60%)") == 0);
  const std::vector<std::string> added = row_of(page, "added-plan");
  CHECK(added[1] == "added");
  CHECK(added[6] == "—");
  CHECK(added[7] == "512");
  const std::vector<std::string> removed = row_of(page, "removed-plan");
  CHECK(removed[1] == "removed");
  CHECK(removed[6] == "32");
  CHECK(removed[7] == "—");
  CHECK(row_of(page, "renamed-plan")[1] == "renamed");
  CHECK(row_of(page, "chat-serving")[7] == "16");

  // The totals over the plans of the change, and the edited plan's two guardrails.
  const std::string foot = section + "//*[local-name()='tfoot']/*[local-name()='tr']/*[local-name()='td']";
  CHECK(xpath(page, "string((" + foot + ")[7])") == "232");
  CHECK(xpath(page, "string((" + foot + ")[8])") == "720");
  CHECK(xpath(page, "count(" + section + "//*[local-name()='ul'][@class='guardrails']/*[local-name()='li'])") == "2");
}

TEST_CASE("report --compare-to is refused outside --format html, and a base git does not know is exit 2",
          "[diff][report]") {
  const ChangedRepository changed;
  InDirectory here(changed.repo.dir.path);
  const CliRun text = run_cli({"report", "--compare-to", "git:HEAD~1", "plans/edited.toml"});
  CHECK(text.status == 2);
  CHECK(text.err.find("--compare-to: applies to --format html, not --format text") != std::string::npos);
  const CliRun missing =
      run_cli({"report", "--format", "html", "--compare-to", "git:no-such-branch", "-o", "page.xhtml", "plans/"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("git:no-such-branch: fatal: ") != std::string::npos);
  CHECK_FALSE(fs::exists(changed.repo.dir.path / "page.xhtml"));
}
