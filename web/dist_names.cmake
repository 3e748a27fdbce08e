# Puts the bundled app.js and style.css into the web client's files under content-hashed names,
# and index.html there with its references to them rewritten:
#   cmake -DSTAGE=DIR -DDIST=DIR -DINDEX=FILE -P dist_names.cmake
# STAGE holds app.js and style.css as esbuild wrote them. Each becomes NAME.HASH.EXT in DIST,
# HASH the first 16 hex digits of the SHA-256 of its content: the name changes exactly when the
# content does, so the server may let browsers keep it for a year (server/web_files.h does, for a
# name whose digest it finds equal to its own of the content). Earlier builds' hashed copies are
# removed, so DIST holds one version.
# Every file is written beside its final name and renamed into place, since a running server may
# be reading DIST while it is rebuilt.
cmake_minimum_required(VERSION 3.21)
foreach(var STAGE DIST INDEX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "dist_names.cmake: ${var} is not set")
  endif()
endforeach()

# The length of the digest in a name: 64 bits, ample against an accidental collision between two
# builds of one file.
set(digest_length 16)

file(READ ${INDEX} index)
foreach(file app.js style.css)
  string(REGEX MATCH "^(.*)\\.([a-z]+)$" _ ${file})
  set(stem ${CMAKE_MATCH_1})
  set(ext ${CMAKE_MATCH_2})
  file(SHA256 ${STAGE}/${file} digest)
  string(SUBSTRING ${digest} 0 ${digest_length} digest)
  set(hashed ${stem}.${digest}.${ext})
  # The reference must be there to rewrite: an index.html that names the file otherwise would
  # load a name the build no longer writes.
  string(FIND "${index}" "\"${file}\"" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "dist_names.cmake: ${INDEX} does not reference \"${file}\"")
  endif()
  string(REPLACE "\"${file}\"" "\"${hashed}\"" index "${index}")

  file(GLOB old ${DIST}/${stem}.*.${ext} ${DIST}/${stem}.*.${ext}.gz ${DIST}/${stem}.*.${ext}.br
       ${DIST}/${file} ${DIST}/${file}.gz ${DIST}/${file}.br)
  foreach(path ${old})
    get_filename_component(name ${path} NAME)
    if(NOT name MATCHES "^${hashed}")
      file(REMOVE ${path})
    endif()
  endforeach()
  if(NOT EXISTS ${DIST}/${hashed})
    file(COPY_FILE ${STAGE}/${file} ${DIST}/${hashed}.tmp)
    file(RENAME ${DIST}/${hashed}.tmp ${DIST}/${hashed})
  endif()
endforeach()

# Unchanged content keeps the file's time, so the server and the compression step see no change.
set(old_index "")
if(EXISTS ${DIST}/index.html)
  file(READ ${DIST}/index.html old_index)
endif()
if(NOT old_index STREQUAL index)
  file(WRITE ${DIST}/index.html.tmp "${index}")
  file(RENAME ${DIST}/index.html.tmp ${DIST}/index.html)
endif()
