# planlint_embed_files(OUTPUT file.cpp BASE dir FILES f...)
# Generates a C++ source defining planlint::embed::files(): every file's repository-relative
# path and bytes. The generation runs at build time and re-runs when any embedded file changes.
function(planlint_embed_files)
  cmake_parse_arguments(ARG "" "OUTPUT;BASE" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT "${ARG_OUTPUT}"
    COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${ARG_OUTPUT}" "-DBASE=${ARG_BASE}"
            "-DFILES=${ARG_FILES}" -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedFilesScript.cmake"
    DEPENDS ${ARG_FILES} "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedFilesScript.cmake"
    COMMENT "Embedding ${CMAKE_CURRENT_LIST_DIR} data files"
    VERBATIM)
endfunction()
