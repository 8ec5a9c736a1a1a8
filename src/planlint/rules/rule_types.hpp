#pragma once
/// The names a rule expression may use, with their static types: plan keys, est.METRIC
/// (and .low / .high), it.FIELD inside `each`, options.NAME.
#include <map>
#include <string>

#include "planlint/expr/environment.hpp"

namespace planlint {

class RuleTypeEnvironment : public expr::TypeEnvironment {
 public:
  RuleTypeEnvironment(std::string each, const std::map<std::string, expr::Value>& options)
      : each_(std::move(each)), options_(options) {}

  std::optional<expr::Type> path_type(std::string_view path, std::string& error) const override;

 private:
  std::string each_;
  const std::map<std::string, expr::Value>& options_;
};

/// The fields of an element of an `each` collection and their types.
const std::map<std::string, expr::Type>& element_fields(std::string_view collection);

/// The static type of a value.
expr::Type type_of(const expr::Value& value);

}  // namespace planlint
