# The libraries of the WebAssembly build (the `wasm` preset; docs/playground.md). Emscripten's
# toolchain finds packages in its own sysroot only, and the host's /usr/include as a whole would
# put glibc's headers before emscripten's libc. So the compiler gets a folder that holds links to
# the header folders of the five header-only libraries and nothing else, and each library is an
# imported target of the name its CMake package gives it: the rest of CMakeLists.txt is the
# native build's. fmt header-only and toml++ compiled once (source/toml_implementation.cpp), as
# there.
set(PLANLINT_WASM_HEADER_ROOT "/usr/include" CACHE PATH
    "Where the host's toml++, fmt, Boost, nlohmann/json and CLI11 headers are")
set(PLANLINT_WASM_HEADERS "${CMAKE_BINARY_DIR}/wasm-include")
file(MAKE_DIRECTORY "${PLANLINT_WASM_HEADERS}")
foreach(folder toml++ fmt boost nlohmann CLI)
  if(NOT EXISTS "${PLANLINT_WASM_HEADER_ROOT}/${folder}")
    message(FATAL_ERROR "${PLANLINT_WASM_HEADER_ROOT}/${folder} is missing: scripts/build-playground installs "
                        "the Debian packages of the native build, whose headers the WebAssembly build uses")
  endif()
  file(CREATE_LINK "${PLANLINT_WASM_HEADER_ROOT}/${folder}" "${PLANLINT_WASM_HEADERS}/${folder}" SYMBOLIC)
endforeach()

foreach(target tomlplusplus::tomlplusplus Boost::headers nlohmann_json::nlohmann_json CLI11::CLI11
               fmt::fmt-header-only)
  add_library(${target} INTERFACE IMPORTED)
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${PLANLINT_WASM_HEADERS}")
endforeach()
set_target_properties(fmt::fmt-header-only PROPERTIES INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)

# C++ exceptions (nlohmann/json and CLI11 report with them) as emscripten 3.1.6 has them, and
# the floating-point std::from_chars and std::to_chars its libc++ 13 lacks
# (src/wasm/charconv_float.hpp).
add_compile_options(-fexceptions "SHELL:-include ${CMAKE_SOURCE_DIR}/src/wasm/charconv_float.hpp")
add_link_options(-fexceptions)
