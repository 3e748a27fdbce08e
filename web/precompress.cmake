# Writes a compressed copy beside each text and WebAssembly file of the web client, which the
# server sends to a browser that accepts it (server/web_files.h):
#   cmake -DDIST=DIR -DGZIP=PROGRAM [-DBROTLI=PROGRAM] -P precompress.cmake
# FILE.gz by `gzip -9 -n` (no name or time inside, so the same file compresses to the same bytes)
# and FILE.br by `brotli -q 11` when Debian's brotli is installed. A copy is written only when the
# file is newer than it, and kept only when it is smaller than the file. Copies whose file is
# gone are removed. Runs with every build, after the engine's builds, which write into DIST too;
# it costs a look at each file's time when nothing changed.
cmake_minimum_required(VERSION 3.21)
if(NOT DEFINED DIST OR NOT DEFINED GZIP)
  message(FATAL_ERROR "precompress.cmake: DIST and GZIP must be set")
endif()

set(encoders gz)
set(gz_command ${GZIP} -9 -n -c)
if(BROTLI)
  list(APPEND encoders br)
  set(br_command ${BROTLI} -q 11 -c)
endif()

file(GLOB_RECURSE files LIST_DIRECTORIES false
     ${DIST}/*.html ${DIST}/*.js ${DIST}/*.css ${DIST}/*.wasm ${DIST}/*.json ${DIST}/*.svg
     ${DIST}/*.txt ${DIST}/*.map)
foreach(file ${files})
  file(SIZE ${file} size)
  foreach(encoder ${encoders})
    set(copy ${file}.${encoder})
    if(EXISTS ${copy} AND NOT ${file} IS_NEWER_THAN ${copy})
      continue()
    endif()
    execute_process(COMMAND ${${encoder}_command} ${file} OUTPUT_FILE ${copy}.tmp
                    RESULT_VARIABLE failed)
    if(failed)
      message(FATAL_ERROR "precompress.cmake: ${${encoder}_command} ${file} failed: ${failed}")
    endif()
    file(SIZE ${copy}.tmp compressed)
    if(compressed LESS size)
      file(RENAME ${copy}.tmp ${copy})
    else()
      # Not worth sending (a tiny file): the server sends the file itself.
      file(REMOVE ${copy}.tmp ${copy})
    endif()
  endforeach()
endforeach()

file(GLOB_RECURSE copies LIST_DIRECTORIES false ${DIST}/*.gz ${DIST}/*.br)
foreach(copy ${copies})
  string(REGEX REPLACE "\\.(gz|br)$" "" file ${copy})
  if(NOT EXISTS ${file} OR NOT BROTLI AND copy MATCHES "\\.br$")
    file(REMOVE ${copy})
  endif()
endforeach()
