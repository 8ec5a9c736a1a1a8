#pragma once
/// A pool of worker threads whose results are handed over in order:
///
///     parallel_in_order(batches, jobs,
///                       [&](std::size_t i) { return lint_batch(i); },       // on any worker
///                       [&](std::size_t i, Outputs out) { deliver(out); });  // in order of i
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace planlint {

/// Runs `work(i)` for i in [0, count) on up to `jobs` threads and hands each result to
/// `deliver(i, result)` in the order of i, one call at a time, as soon as the results of 0..i
/// are all in: the output's order never depends on scheduling, and a result is let go once
/// delivered rather than held to the end. With one job everything runs on the caller's thread
/// (the caller resolves --jobs 0 to the cores, as it sizes its batches by the count).
template <typename Work, typename Deliver>
void parallel_in_order(std::size_t count, unsigned jobs, Work work, Deliver deliver) {
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, count));
  if (jobs <= 1) {
    for (std::size_t i = 0; i < count; ++i) deliver(i, work(i));
    return;
  }
  using Result = decltype(work(std::size_t{0}));
  std::mutex mutex;
  std::vector<std::optional<Result>> waiting(count);  // done, not yet delivered
  std::size_t delivered = 0;
  std::atomic<std::size_t> next{0};
  // Joined on the way out as std::jthread would be (the WebAssembly build's libc++ 13 has no
  // jthread), also when starting a thread fails after others started.
  std::vector<std::thread> workers;
  struct JoinAll {
    std::vector<std::thread>& threads;
    ~JoinAll() {
      for (std::thread& thread : threads) thread.join();
    }
  } join_all{workers};
  for (unsigned j = 0; j < jobs; ++j)
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < count; i = next++) {
        Result result = work(i);
        std::lock_guard lock(mutex);
        waiting[i] = std::move(result);
        for (; delivered < count && waiting[delivered]; ++delivered) {
          deliver(delivered, std::move(*waiting[delivered]));
          waiting[delivered].reset();
        }
      }
    });
}

}  // namespace planlint
