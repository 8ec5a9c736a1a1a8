#include "planlint/lsp/lint_scheduler.hpp"

#include <algorithm>
#include <vector>

namespace planlint::lsp {

LintScheduler::LintScheduler(Lint lint, Clock::duration debounce, Clock::duration longest_wait)
    : lint_(std::move(lint)), debounce_(debounce), longest_wait_(longest_wait), thread_([this] { run(); }) {}

LintScheduler::~LintScheduler() { stop(); }

void LintScheduler::edited(const std::string& uri) {
  const Clock::time_point at = Clock::now();
  {
    std::lock_guard lock(mutex_);
    auto [it, added] = pending_.try_emplace(uri, Pending{at + debounce_, at});
    if (!added) it->second.due = std::min(at + debounce_, it->second.first + longest_wait_);
  }
  wake_.notify_one();
}

void LintScheduler::now(const std::string& uri) {
  const Clock::time_point at = Clock::now();
  {
    std::lock_guard lock(mutex_);
    auto [it, added] = pending_.try_emplace(uri, Pending{at, at});
    if (!added) it->second.due = at;
  }
  wake_.notify_one();
}

void LintScheduler::forget(const std::string& uri) {
  std::lock_guard lock(mutex_);
  pending_.erase(uri);
}

void LintScheduler::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void LintScheduler::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (pending_.empty()) {
      wake_.wait(lock);
      continue;
    }
    const Clock::time_point now = Clock::now();
    auto earliest = std::min_element(pending_.begin(), pending_.end(),
                                     [](const auto& a, const auto& b) { return a.second.due < b.second.due; });
    if (earliest->second.due > now) {
      wake_.wait_until(lock, earliest->second.due);
      continue;
    }
    std::vector<std::string> due;
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->second.due <= now) {
        due.push_back(it->first);
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
    lock.unlock();
    for (const std::string& uri : due) lint_(uri);
    lock.lock();
  }
}

}  // namespace planlint::lsp
