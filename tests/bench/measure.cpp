// bench_measure RUNS COMMAND [ARGS...]: runs COMMAND RUNS times (output discarded) and prints
//     min_ms median_ms median_cpu_ms peak_rss_kib exit_status ci_low_ms ci_high_ms
// the wall time of each run from fork to exit (after one warm-up run), the CPU time (user +
// system) of the median run, the largest resident set of any run (getrusage via wait4), and a
// 95% confidence interval of the median wall time (as for --paired's ratios, below).
// CPU time is the steadier figure on a loaded machine. Used by scripts/bench.
//
// bench_measure --paired RUNS COMMAND_A... --versus COMMAND_B...: runs A and B alternately,
// RUNS times each (after one warm-up run of each), and prints
//     median_ratio min_ratio a_median_ms b_median_ms a_status b_status ci_low ci_high cpu_ratio
// where a ratio is the wall time of A over that of the B run next to it. A ratio of medians
// measured minutes apart moves with the machine's load between the two (this shared machine
// has run the same command at twice the speed ten minutes later); the median of paired ratios
// compares A and B under the same load. [ci_low, ci_high] is a 95% confidence interval of that
// median: two order statistics of the ratios, chosen with the binomial distribution, so it
// assumes nothing of the noise's shape beyond independent pairs (Conover, "Practical
// Nonparametric Statistics", 3rd ed., §3.2). cpu_ratio is the median paired ratio of CPU time
// (user + system), which leaves out the time the machine gave to other guests (steal).
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace {

struct Run {
  double ms = 0;
  double cpu_ms = 0;
  long rss_kib = 0;
  int status = 0;
};

Run run_once(char** argv) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execvp(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const auto end = std::chrono::steady_clock::now();
  auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
  return Run{std::chrono::duration<double, std::milli>(end - start).count(),
             ms(usage.ru_utime) + ms(usage.ru_stime), usage.ru_maxrss,
             WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// The 1-based ranks (k, n + 1 - k) of the order statistics that bound a confidence interval of
/// at least 95% for the median of n independent values: the largest k with
/// P(Binomial(n, 1/2) < k) <= 2.5%. With fewer than 6 values no such k exists; the interval is
/// then the whole range.
std::pair<std::size_t, std::size_t> median_interval_ranks(std::size_t n) {
  std::size_t k = 1;
  double below = 0;                                     // P(X <= j - 1) = P(X < j)
  double term = std::pow(0.5, static_cast<double>(n));  // P(X = j)
  for (std::size_t j = 0; j < n; ++j) {
    if (below + term > 0.025) break;
    below += term;  // P(X < j + 1)
    k = j + 1;
    term = term * static_cast<double>(n - j) / static_cast<double>(j + 1);
  }
  return {k, n + 1 - k};
}

int paired(int argc, char** argv) {
  // argv: --paired RUNS A... --versus B...
  int versus = 0;
  for (int i = 3; i < argc; ++i)
    if (std::strcmp(argv[i], "--versus") == 0) versus = i;
  if (argc < 5 || versus <= 3 || versus + 1 >= argc) {
    std::fprintf(stderr, "usage: bench_measure --paired RUNS COMMAND_A... --versus COMMAND_B...\n");
    return 2;
  }
  const int runs = std::max(1, std::atoi(argv[2]));
  argv[versus] = nullptr;  // ends A's argument list for execvp
  char** a = argv + 3;
  char** b = argv + versus + 1;
  const int a_status = run_once(a).status;
  const int b_status = run_once(b).status;
  std::vector<double> ratios, cpu_ratios, a_times, b_times;
  for (int i = 0; i < runs; ++i) {
    // Alternate which goes first, so that neither always follows the other's cache state.
    const Run first = run_once(i % 2 == 0 ? a : b);
    const Run second = run_once(i % 2 == 0 ? b : a);
    const Run& run_a = i % 2 == 0 ? first : second;
    const Run& run_b = i % 2 == 0 ? second : first;
    a_times.push_back(run_a.ms);
    b_times.push_back(run_b.ms);
    ratios.push_back(run_a.ms / run_b.ms);
    cpu_ratios.push_back(run_a.cpu_ms / run_b.cpu_ms);
  }
  std::vector<double> sorted = ratios;
  std::sort(sorted.begin(), sorted.end());
  const auto [low_rank, high_rank] = median_interval_ranks(sorted.size());
  std::printf("%.3f %.3f %.3f %.3f %d %d %.3f %.3f %.3f\n", median(ratios), sorted.front(), median(a_times),
              median(b_times), a_status, b_status, sorted[low_rank - 1], sorted[high_rank - 1], median(cpu_ratios));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--paired") == 0) return paired(argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_measure RUNS COMMAND [ARGS...]\n");
    return 2;
  }
  const int runs = std::max(1, std::atoi(argv[1]));
  char** command = argv + 2;
  Run warm_up = run_once(command);
  std::vector<double> times, cpu;
  long rss = warm_up.rss_kib;
  for (int i = 0; i < runs; ++i) {
    const Run run = run_once(command);
    times.push_back(run.ms);
    cpu.push_back(run.cpu_ms);
    rss = std::max(rss, run.rss_kib);
  }
  std::sort(times.begin(), times.end());
  std::sort(cpu.begin(), cpu.end());
  const auto [low_rank, high_rank] = median_interval_ranks(times.size());
  std::printf("%.3f %.3f %.3f %ld %d %.3f %.3f\n", times.front(), times[times.size() / 2], cpu[cpu.size() / 2],
              rss, warm_up.status, times[low_rank - 1], times[high_rank - 1]);
  return 0;
}
