// toml++'s implementation, compiled once into planlint instead of loaded from Debian's
// libtomlplusplus.so (TOML_HEADER_ONLY=0 everywhere, set in CMakeLists.txt). Every shared
// library costs the dynamic loader symbol lookups at each start; for a one-plan lint that was
// more than the lint itself (docs/performance.md, "Start-up").
#define TOML_IMPLEMENTATION 1
#include <toml++/toml.h>
