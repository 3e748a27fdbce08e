# How the build is made fast (issue 32; docs/DEVELOPING.md has the figures): a compiler cache, a
# faster linker, the test sources optimised for compile time and built as unity builds. Each
# piece can be switched off, and none changes what is compiled: the same sources with the same
# warnings and sanitizers. (Asio and Beast are compiled once: asio/CMakeLists.txt.)
#
# Precompiled headers were measured and left out: under GCC 12 a unit that loads a precompiled
# header of the standard library and nlohmann_json took 1-3 s longer than one that includes what
# it needs, and with Asio and Beast in it 10-13 s longer (net/address.cpp: 1.3 s without, 14 s
# with), since GCC emits every inline function the header used in each unit that loads it.

# ccache, when installed. The settings let a second checkout of the same commit (CI's clean clone
# after a developer's build, a worktree) reuse the objects: paths under the source tree are
# hashed as relative ones (base_dir), the working directory is left out of the hash even with -g
# (hash_dir), and a fresh checkout's new file times do not turn the direct mode off (sloppiness).
option(AMAZONS_CCACHE "Compile through ccache when it is installed" ON)
if(AMAZONS_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(AMAZONS_CCACHE_PROGRAM ccache)
  if(AMAZONS_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
        env "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" CCACHE_NOHASHDIR=1
        "CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime"
        ${AMAZONS_CCACHE_PROGRAM})
  endif()
endif()

# The linker: mold, else lld, else the compiler's default: both link in parallel, GNU ld does not,
# and an incremental build of a test suite is mostly its link.
set(AMAZONS_LINKER "auto" CACHE STRING "Linker: auto (mold, else lld), mold, lld or default")
set(_amazons_linker "")
if(EMSCRIPTEN OR WIN32)
  # Emscripten links with its own wasm-ld; MinGW with its GNU ld (mold makes no Windows programs).
elseif(AMAZONS_LINKER STREQUAL "auto")
  find_program(AMAZONS_MOLD mold)
  find_program(AMAZONS_LLD ld.lld)
  if(AMAZONS_MOLD)
    set(_amazons_linker mold)
  elseif(AMAZONS_LLD)
    set(_amazons_linker lld)
  endif()
elseif(NOT AMAZONS_LINKER STREQUAL "default")
  set(_amazons_linker ${AMAZONS_LINKER})
endif()
if(_amazons_linker)
  add_link_options(-fuse-ld=${_amazons_linker})
  message(STATUS "Linking with ${_amazons_linker}")
endif()

# The test sources are compiled at -O0 in every build: the code under test keeps the build's own
# optimisation (its libraries), and the tests' own code, mostly doctest's expression templates,
# JSON and Asio clients, costs compiler time and gains nothing from the optimiser. Measured on the
# release test suites, built as unity builds: 661 s of compiler time at -O1, 574 s at -O0 (and
# under the sanitizers -O0 took half the time of -O1: test_cluster_lobby 47 -> 26 s).
#
# MinGW's assembler is the exception: at -O0 a unit with the protocol's 40-alternative variants
# emits more COMDAT section names than a COFF string table holds (test_protocol.cpp: "string
# table overflow", even with -mbig-obj); at -O1 they are inlined away.
function(amazons_optimise_test_sources target)
  if(MINGW)
    target_compile_options(${target} PRIVATE -O1)
  else()
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()

# Unity builds: the units of a target compiled in batches of BATCH, each batch one unit, so the
# headers are read and their templates instantiated once a batch instead of once a file. Only for
# targets that nobody rebuilds file by file while working (the test suites): the libraries stay
# one unit a file, so touching one recompiles one.
#
# The batch files are written here rather than by CMake's UNITY_BUILD, whose files include each
# source by its absolute path: that path is in every clone's text (and in doctest's __FILE__), so
# a compiler cache could not serve a batch to a clone of the same commit in another folder (CI's
# clean clone after a developer's build; measured: every test unit missed). These include each
# source relative to the checkout's root, which every target has as an include directory, and
# are rewritten only when their text changes.
option(AMAZONS_UNITY "Build the test suites as unity builds" ON)
function(amazons_unity target batch)
  if(NOT AMAZONS_UNITY)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  get_target_property(binary_dir ${target} BINARY_DIR)
  set(kept "")
  set(batched "")
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cpp$" AND NOT source MATCHES "^\\$<")
      get_filename_component(absolute ${source} ABSOLUTE BASE_DIR ${source_dir})
      # A source with definitions or options of its own stays a unit of its own, as does one
      # marked SKIP_UNITY_BUILD_INCLUSION (CMake's own property for it; its file says why).
      get_source_file_property(defines ${absolute} DIRECTORY ${source_dir} COMPILE_DEFINITIONS)
      get_source_file_property(options ${absolute} DIRECTORY ${source_dir} COMPILE_OPTIONS)
      get_source_file_property(skip ${absolute} DIRECTORY ${source_dir}
                               SKIP_UNITY_BUILD_INCLUSION)
      if(defines OR options OR skip)
        list(APPEND kept ${source})
        continue()
      endif()
      file(RELATIVE_PATH relative ${PROJECT_SOURCE_DIR} ${absolute})
      list(APPEND batched ${relative})
    else()
      list(APPEND kept ${source})
    endif()
  endforeach()
  set(units "")
  set(text "")
  set(in_batch 0)
  list(LENGTH batched count)
  foreach(relative IN LISTS batched)
    string(APPEND text "#include \"${relative}\"\n")
    math(EXPR in_batch "${in_batch} + 1")
    math(EXPR count "${count} - 1")
    if(in_batch EQUAL batch OR count EQUAL 0)
      list(LENGTH units index)
      set(unit ${binary_dir}/${target}_unity/unity_${index}.cpp)
      file(CONFIGURE OUTPUT ${unit} CONTENT "// Generated by amazons_unity (cmake/BuildSpeed.cmake).\n${text}")
      list(APPEND units ${unit})
      set(text "")
      set(in_batch 0)
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${kept} ${units})
endfunction()

# The libraries as unity builds too, for the builds that nobody rebuilds file by file (the asan and
# fuzz presets: CI builds each once from scratch). Off elsewhere, so that touching one source of a
# library recompiles one. Called once every library is defined (the top CMakeLists.txt).
option(AMAZONS_UNITY_LIBRARIES "Build the libraries as unity builds too (asan, fuzz)" OFF)
function(amazons_unity_libraries batch)
  if(NOT AMAZONS_UNITY_LIBRARIES)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    if(TARGET ${target})
      amazons_unity(${target} ${batch})
    endif()
  endforeach()
endfunction()
