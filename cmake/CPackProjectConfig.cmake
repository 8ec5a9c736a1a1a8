# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE): the components each package
# holds (cmake/Release.cmake). The .deb puts zsh's completion where Debian's zsh reads it and
# adds the copyright file; the tarball keeps zsh's usual folder and has LICENSE and README.md
# at its top.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_COMPONENTS_ALL runtime debian)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_COMPONENT_INCLUDE_TOPLEVEL_DIRECTORY OFF)
else()
  set(CPACK_COMPONENTS_ALL runtime zsh_site_functions tarball)
endif()
