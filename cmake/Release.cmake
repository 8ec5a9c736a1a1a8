# What a release of planlint carries (docs/development.md, "Install and packages"):
#   planlint --version                     the version and the source commit it was built from
#   cmake --install build --prefix PREFIX  bin/planlint, the man page, bash, zsh and fish completions
#   cd build && cpack                      planlint_VERSION_amd64.deb and
#                                          planlint-VERSION-linux-x86_64.tar.gz (the static binary)
include(GNUInstallDirs)

# The source commit `planlint --version` prints beside the version: `git describe` of the
# checkout, taken at every build. cmake/SourceCommitScript.cmake rewrites
# generated/source_commit.cpp only when the description changes, so a new commit recompiles one
# small file and relinks. A tree without git metadata (a source tarball) says so; a packager
# can name the commit with -DPLANLINT_SOURCE_COMMIT=...
set(PLANLINT_SOURCE_COMMIT "" CACHE STRING "The source commit --version prints (default: git describe at build time)")
set(PLANLINT_SOURCE_COMMIT_CPP "${CMAKE_CURRENT_BINARY_DIR}/generated/source_commit.cpp")
set(PLANLINT_SOURCE_COMMIT_ARGS "-DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}" "-DOUTPUT=${PLANLINT_SOURCE_COMMIT_CPP}"
    "-DCOMMIT=${PLANLINT_SOURCE_COMMIT}" -P "${CMAKE_CURRENT_LIST_DIR}/SourceCommitScript.cmake")
# Once at configure time, so that the file exists before the first build.
execute_process(COMMAND "${CMAKE_COMMAND}" ${PLANLINT_SOURCE_COMMIT_ARGS})
add_custom_target(planlint_source_commit
  COMMAND "${CMAKE_COMMAND}" ${PLANLINT_SOURCE_COMMIT_ARGS}
  BYPRODUCTS "${PLANLINT_SOURCE_COMMIT_CPP}"
  COMMENT "Reading the source commit"
  VERBATIM)
target_sources(planlint_cli PRIVATE "${PLANLINT_SOURCE_COMMIT_CPP}")
add_dependencies(planlint_cli planlint_source_commit)
# The WebAssembly build (src/wasm/) is the playground's engine: no man page, install or package.
if(EMSCRIPTEN)
  return()
endif()

# The man page and the completions are generated from the command line's own CLI11 App
# (src/cli/app.hpp) by planlint_docgen, so they name every option the parser accepts. Building
# planlint builds them, so `cmake --install` works after scripts/quickstart.
add_executable(planlint_docgen src/docgen/planlint_docgen.cpp src/docgen/command_model.cpp
               src/docgen/man_page.cpp src/docgen/completions.cpp src/docgen/debian_package.cpp)
target_include_directories(planlint_docgen PRIVATE src)
target_link_libraries(planlint_docgen PRIVATE planlint_cli)
set(PLANLINT_DOCS_DIR "${CMAKE_CURRENT_BINARY_DIR}/generated/docs")
set(PLANLINT_DOCS "${PLANLINT_DOCS_DIR}/planlint.1" "${PLANLINT_DOCS_DIR}/planlint.bash"
    "${PLANLINT_DOCS_DIR}/_planlint" "${PLANLINT_DOCS_DIR}/planlint.fish"
    "${PLANLINT_DOCS_DIR}/package-description.txt")
add_custom_command(
  OUTPUT ${PLANLINT_DOCS}
  COMMAND planlint_docgen "${PLANLINT_DOCS_DIR}"
  DEPENDS planlint_docgen
  COMMENT "Writing the man page and the shell completions into ${PLANLINT_DOCS_DIR}"
  VERBATIM)
# The Debian package's man page, compressed as Debian's policy asks (gzip -9, no time stamp).
add_custom_command(
  OUTPUT "${PLANLINT_DOCS_DIR}/planlint.1.gz"
  COMMAND gzip -9 -n -k -f "${PLANLINT_DOCS_DIR}/planlint.1"
  DEPENDS "${PLANLINT_DOCS_DIR}/planlint.1"
  VERBATIM)
add_custom_target(planlint_docs ALL DEPENDS ${PLANLINT_DOCS} "${PLANLINT_DOCS_DIR}/planlint.1.gz")
add_dependencies(planlint planlint_docs)

# The Debian package's maintainer, who signs its changelog: a release sets its own with
# -DPLANLINT_DEBIAN_MAINTAINER="Name <address>".
set(PLANLINT_DEBIAN_MAINTAINER "planlint contributors <planlint@users.noreply.github.com>"
    CACHE STRING "The Debian package's Maintainer field, Name <address>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PLANLINT_DEBIAN_MAINTAINER}")
# Its changelog (changelog.gz), from CHANGELOG.md at every build, like the source commit: the
# entry is dated by the commit (cmake/DebianChangelogScript.cmake).
set(PLANLINT_DEBIAN_CHANGELOG "${PLANLINT_DOCS_DIR}/changelog.gz")
add_custom_target(planlint_debian_changelog ALL
  COMMAND "${CMAKE_COMMAND}" "-DDOCGEN=$<TARGET_FILE:planlint_docgen>" "-DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}"
          "-DMAINTAINER=${CPACK_DEBIAN_PACKAGE_MAINTAINER}" "-DOUTPUT=${PLANLINT_DEBIAN_CHANGELOG}"
          -P "${CMAKE_CURRENT_LIST_DIR}/DebianChangelogScript.cmake"
  BYPRODUCTS "${PLANLINT_DEBIAN_CHANGELOG}"
  DEPENDS planlint_docgen
  COMMENT "Writing the Debian changelog from CHANGELOG.md"
  VERBATIM)
add_dependencies(planlint_debian_changelog planlint_docs)
add_dependencies(planlint planlint_debian_changelog)  # scripts/package builds the planlint target

# Where each shell looks: bash-completion and fish read <prefix>/share (bash-completion 2 and
# fish also /usr/local/share); zsh reads site-functions under /usr/local, and Debian's zsh
# reads /usr/share/zsh/vendor-completions, where the Debian package puts it.
install(TARGETS planlint RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
install(FILES "${PLANLINT_DOCS_DIR}/planlint.bash" RENAME planlint
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" COMPONENT runtime)
install(FILES "${PLANLINT_DOCS_DIR}/planlint.fish"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d" COMPONENT runtime)
install(FILES README.md CHANGELOG.md DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime)
# The script that posts `planlint diff --format markdown` as a merge-request note (docs/integrations.md).
install(PROGRAMS scripts/lib/planlint_review_comment.py DESTINATION "${CMAKE_INSTALL_DATADIR}/planlint" COMPONENT runtime)
install(FILES "${PLANLINT_DOCS_DIR}/_planlint" DESTINATION "${CMAKE_INSTALL_DATADIR}/zsh/site-functions"
        COMPONENT zsh_site_functions)
# Only in `cmake --install` and the tarball: the man page as it is, and the licence as LICENSE.
install(FILES "${PLANLINT_DOCS_DIR}/planlint.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT outside_debian)
install(FILES LICENSE DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT outside_debian)
# Only in the Debian package, as Debian's policy and lintian ask: zsh's vendor folder, the
# compressed man page, the licence as the copyright file, the changelog, and the lintian
# override that says why the binary is static (cmake/debian/lintian-overrides).
install(FILES "${PLANLINT_DOCS_DIR}/_planlint" DESTINATION "${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions"
        COMPONENT debian EXCLUDE_FROM_ALL)
install(FILES "${PLANLINT_DOCS_DIR}/planlint.1.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1"
        COMPONENT debian EXCLUDE_FROM_ALL)
install(FILES LICENSE RENAME copyright DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT debian EXCLUDE_FROM_ALL)
install(FILES "${PLANLINT_DEBIAN_CHANGELOG}" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT debian EXCLUDE_FROM_ALL)
install(FILES cmake/debian/lintian-overrides RENAME planlint DESTINATION "${CMAKE_INSTALL_DATADIR}/lintian/overrides"
        COMPONENT debian EXCLUDE_FROM_ALL)
# Only in the tarball: the licence and the README at its top.
install(FILES LICENSE README.md DESTINATION . COMPONENT tarball EXCLUDE_FROM_ALL)

# The tarball is meant to run on any x86-64 Linux: that takes the static link of CMakeLists.txt.
get_target_property(PLANLINT_LINK_OPTIONS planlint LINK_OPTIONS)
if("-static" IN_LIST PLANLINT_LINK_OPTIONS)
  set(PLANLINT_STATIC_LINK ON)
else()
  set(PLANLINT_STATIC_LINK OFF)
  message(STATUS "planlint is not linked statically: its tarball runs only where its shared libraries are")
endif()

# CPack: one package per generator, each with the components cmake/CPackProjectConfig.cmake
# gives it.
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_NAME planlint)
set(CPACK_PACKAGE_VENDOR "planlint contributors")
set(CPACK_PACKAGE_CONTACT "${CPACK_DEBIAN_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/planlint/planlint" CACHE STRING "planlint's home page, in the packages")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "linter for AI compute capacity plans")
# The Debian package's extended description is planlint_docgen's, read when cpack runs
# (cmake/CPackProjectConfig.cmake): it lists the commands and formats of this build.
set(CPACK_PLANLINT_DESCRIPTION_FILE "${PLANLINT_DOCS_DIR}/package-description.txt")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_CURRENT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_FILE_NAME "planlint-${PROJECT_VERSION}-linux-x86_64")
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_ARCHIVE_COMPONENT_INSTALL ON)
# The tarball unpacks into planlint-VERSION-linux-x86_64/.
set(CPACK_COMPONENT_INCLUDE_TOPLEVEL_DIRECTORY ON)
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/CPackProjectConfig.cmake")
# The Debian package: /usr, no Depends (the binary is static), named as apt expects; the bash
# completion works with bash-completion, and the merge-request script runs with python3.
set(CPACK_DEBIAN_PACKAGE_NAME planlint)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS bash-completion)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS python3)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
include(CPack)
