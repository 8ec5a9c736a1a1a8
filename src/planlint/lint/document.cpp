#include "planlint/lint/document.hpp"

#include <span>

namespace planlint {

FileOutput lint_document(const std::string& path, std::string text, const Settings& settings,
                         const BatchLimits& limits) {
  FileTask task;
  task.path = &path;
  task.text = std::move(text);
  task.settings = &settings;
  task.keep_plans = true;
  return std::move(lint_batch(std::span(&task, 1), limits).front());
}

}  // namespace planlint
