// bench_measure RUNS COMMAND [ARGS...]: runs COMMAND RUNS times (output discarded) and prints
//     min_ms median_ms median_cpu_ms peak_rss_kib exit_status
// the wall time of each run from fork to exit (after one warm-up run), the CPU time (user +
// system) of the median run, and the largest resident set of any run (getrusage via wait4).
// CPU time is the steadier figure on a loaded machine. Used by scripts/bench.
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

}  // namespace

int main(int argc, char** argv) {
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
  std::printf("%.3f %.3f %.3f %ld %d\n", times.front(), times[times.size() / 2], cpu[cpu.size() / 2],
              rss, warm_up.status);
  return 0;
}
