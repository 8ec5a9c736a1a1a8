// lsp_bench PLANLINT PLAN [RUNS]: what an editor waits for and what the server holds, measured
// through `planlint lsp` driven over pipes as an editor drives it (tests/lsp/lsp_client.hpp).
//
//   - first diagnostics: the time from writing didOpen of PLAN to reading its
//     publishDiagnostics, for the first document of a fresh server (settings made, catalog and
//     rules loaded) and for RUNS more documents (default 50) of the same server;
//   - memory: the server's resident memory after 100 and after 1,000 rapid didChange
//     notifications of PLAN (each a whole new text; no debounce: a lint of the latest version
//     starts whenever the previous lint ends, the most work an editor can cause),
//     each in a fresh server, once the last version's diagnostics arrived.
//
// The target (issue 32): first diagnostics within 50 ms of didOpen for a typical plan; 1,000
// changes hold no more memory than 100.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "lsp_client.hpp"

using namespace planlint::test;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<std::string> command(const std::string& planlint, const std::string& debounce) {
  return {planlint, "lsp", "--today", "2026-12-01", "--debounce", debounce};
}

/// Milliseconds from didOpen of `text` as `uri` to its diagnostics.
double first_diagnostics_ms(LspClient& server, const std::string& uri, const std::string& text) {
  const auto start = Clock::now();
  server.notify("textDocument/didOpen", opened(uri, text));
  if (!server.diagnostics_of(uri)) throw std::runtime_error("no diagnostics for " + uri);
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5)];
}

/// The resident memory of a fresh server after `count` changes of `text`, in KiB.
long rss_after(const std::string& planlint, const std::string& uri, const std::string& text, int count) {
  LspClient server(command(planlint, "0"));
  server.initialize();
  server.notify("textDocument/didOpen", opened(uri, text));
  if (!server.diagnostics_of(uri)) throw std::runtime_error("no diagnostics");
  // Two texts that differ in one figure, so that each version is a new lint with other findings.
  std::string other = text;
  other.append("\n# edited\n");
  const long rss = rss_after_changes(server, uri, {other, text}, 2, count);
  server.request("shutdown", nullptr);
  server.notify("exit", nullptr);
  return rss;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: lsp_bench PLANLINT PLAN [RUNS]\n");
    return 2;
  }
  const std::string planlint = argv[1];
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "lsp_bench: cannot read %s\n", argv[2]);
    return 2;
  }
  std::stringstream read;
  read << in.rdbuf();
  const std::string text = read.str();
  const int runs = argc > 3 ? std::max(1, std::atoi(argv[3])) : 50;
  const std::string folder = "/tmp/planlint-lsp-bench";

  try {
    LspClient server(command(planlint, "150"));
    server.initialize();
    const double cold = first_diagnostics_ms(server, "file://" + folder + "/cold.toml", text);
    std::vector<double> warm;
    for (int i = 0; i < runs; ++i)
      warm.push_back(first_diagnostics_ms(server, "file://" + folder + "/plan-" + std::to_string(i) + ".toml", text));
    server.request("shutdown", nullptr);
    server.notify("exit", nullptr);
    std::printf("first diagnostics after didOpen (%zu bytes)\n", text.size());
    std::printf("  first document of a fresh server   %8.2f ms\n", cold);
    std::printf("  %3d more documents: median         %8.2f ms\n", runs, percentile(warm, 0.5));
    std::printf("                      p95            %8.2f ms\n", percentile(warm, 0.95));
    std::printf("                      max            %8.2f ms\n", percentile(warm, 1.0));
    std::printf("  target: within 50 ms               %s\n",
                std::max(cold, percentile(warm, 0.95)) <= 50 ? "met" : "NOT MET");

    const std::string uri = "file://" + folder + "/edited.toml";
    const long small = rss_after(planlint, uri, text, 100);
    const long large = rss_after(planlint, uri, text, 1000);
    std::printf("resident memory after rapid didChange (no debounce)\n");
    std::printf("  100 changes                        %8.1f MiB\n", small / 1024.0);
    std::printf("  1,000 changes                      %8.1f MiB\n", large / 1024.0);
    std::printf("  growth                             %+8.1f MiB\n", (large - small) / 1024.0);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lsp_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
