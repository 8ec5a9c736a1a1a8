#pragma once
/// schemas/plan.schema.json, generated from the plan format's data (plan/schema.cpp and
/// metrics/metric_table.cpp) so that editors (taplo, Even Better TOML, a `#:schema` line) complete
/// and check exactly the keys planlint reads. A test keeps the committed file equal to it.
#include <string>

namespace planlint {

/// The JSON Schema (draft-07) of a plan file, as pretty-printed JSON text.
std::string plan_json_schema();

}  // namespace planlint
