#pragma once
/// Commented plan templates (`planlint new training|inference`): templates/<kind>.toml,
/// compiled into the binary. Each is a whole plan that lints with warnings only for what the
/// writer must supply (the assumptions' sources), so the first `planlint` run says what to do.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "planlint/plan/plan.hpp"

namespace planlint {

/// The kinds there is a template for: "training", "inference".
std::span<const std::string_view> template_kinds();

/// The template of `kind` with its review dates (`updated`) set to `today`; nullopt for a kind
/// without one.
std::optional<std::string> plan_template(std::string_view kind, Date today);

}  // namespace planlint
