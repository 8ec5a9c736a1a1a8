// toml++'s implementation, compiled once into planlint (toml++'s documented "compiled library"
// mode: TOML_HEADER_ONLY=0 everywhere, set in CMakeLists.txt, and TOML_IMPLEMENTATION in this
// one translation unit). Every other file includes the declarations only, and no shared
// library of toml++'s is needed at run time.
#define TOML_IMPLEMENTATION 1
#include <toml++/toml.h>
