# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE): the components each package
# holds (cmake/Release.cmake). The .deb puts zsh's completion where Debian's zsh reads it and
# has Debian's own files (copyright, changelog, compressed man page, lintian overrides); the
# tarball keeps zsh's usual folder and has LICENSE and README.md at its top.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_COMPONENTS_ALL runtime debian)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_COMPONENT_INCLUDE_TOPLEVEL_DIRECTORY OFF)
  # Written at build time by planlint_docgen, after CPack's configure-time variables.
  file(READ "${CPACK_PLANLINT_DESCRIPTION_FILE}" CPACK_DEBIAN_PACKAGE_DESCRIPTION)
else()
  set(CPACK_COMPONENTS_ALL runtime zsh_site_functions outside_debian tarball)
endif()
