#pragma once
/// schemas/config.schema.json, generated from the config keys (config/config_keys.hpp) so that
/// editors (taplo, Even Better TOML, a `#:schema` line) check exactly what planlint's config
/// reader accepts. A test keeps the committed file equal to it.
#include <string>

namespace planlint {

/// The JSON Schema (draft-07) of `.planlint.toml`, as pretty-printed JSON text.
std::string config_json_schema();

}  // namespace planlint
