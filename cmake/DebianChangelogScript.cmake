# cmake -DDOCGEN=... -DSOURCE_DIR=... -DMAINTAINER=... -DOUTPUT=.../changelog.gz -P DebianChangelogScript.cmake
# Writes OUTPUT, the Debian package's changelog (usr/share/doc/planlint/changelog.gz), from
# SOURCE_DIR/CHANGELOG.md with `planlint_docgen --debian-changelog`, compressed as Debian's
# policy asks (gzip -9, no name or time stamp in the header). Dated $SOURCE_DATE_EPOCH, else the
# time of the checkout's commit, else CHANGELOG.md's: the same source gives the same package.
# OUTPUT is left alone when the text is unchanged.
set(changelog "${SOURCE_DIR}/CHANGELOG.md")
if(DEFINED ENV{SOURCE_DATE_EPOCH})
  set(seconds "$ENV{SOURCE_DATE_EPOCH}")
else()
  find_program(GIT_EXECUTABLE git)
  if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
    execute_process(
      COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" log -1 --format=%ct
      OUTPUT_VARIABLE seconds
      OUTPUT_STRIP_TRAILING_WHITESPACE
      ERROR_QUIET
      RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      set(seconds "")
    endif()
  endif()
  if(NOT seconds)
    file(TIMESTAMP "${changelog}" seconds "%s" UTC)
  endif()
endif()
execute_process(
  COMMAND "${DOCGEN}" --debian-changelog "${changelog}" "${MAINTAINER}" "${seconds}"
  OUTPUT_VARIABLE text
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "planlint_docgen could not write the Debian changelog from ${changelog}")
endif()
get_filename_component(folder "${OUTPUT}" DIRECTORY)
set(plain "${folder}/changelog")
if(EXISTS "${plain}")
  file(READ "${plain}" old)
endif()
if(NOT old STREQUAL text OR NOT EXISTS "${OUTPUT}")
  file(WRITE "${plain}" "${text}")
  execute_process(COMMAND gzip -9 -n -k -f "${plain}" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip could not compress ${plain}")
  endif()
endif()
