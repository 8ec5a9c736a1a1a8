#pragma once
/// When each open document is linted again: a thread that lints a document once its edits
/// have paused for the debounce delay (or, while they go on, at most `longest_wait` after the
/// first one), so that a burst of keystrokes is one lint of the last text. The lint reads the
/// document's latest text when it starts; a lint that finishes after a newer edit publishes
/// nothing (Server::lint_document), so the last version always wins.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace planlint::lsp {

class LintScheduler {
 public:
  using Clock = std::chrono::steady_clock;
  using Lint = std::function<void(const std::string& uri)>;

  /// Starts the thread that calls `lint`.
  LintScheduler(Lint lint, Clock::duration debounce, Clock::duration longest_wait);
  ~LintScheduler();
  LintScheduler(const LintScheduler&) = delete;
  LintScheduler& operator=(const LintScheduler&) = delete;

  /// The document was edited: lint it after the debounce delay.
  void edited(const std::string& uri);
  /// Lint it as soon as the thread is free (opened, saved, its config changed).
  void now(const std::string& uri);
  /// It was closed: drop a pending lint.
  void forget(const std::string& uri);
  /// Ends the thread after the lint it is running, if any.
  void stop();

 private:
  struct Pending {
    Clock::time_point due;
    Clock::time_point first;  ///< the first edit since the last lint
  };
  void run();

  Lint lint_;
  Clock::duration debounce_, longest_wait_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Pending> pending_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace planlint::lsp
