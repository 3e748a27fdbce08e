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
if(AMAZONS_LINKER STREQUAL "auto")
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
function(amazons_optimise_test_sources target)
  target_compile_options(${target} PRIVATE -O0)
endfunction()

# Unity builds: the units of a target compiled in batches of BATCH, each batch one unit, so the
# headers are read and their templates instantiated once a batch instead of once a file. Only for
# targets that nobody rebuilds file by file while working (the test suites and the benchmarks):
# the libraries stay one unit a file, so touching one recompiles one.
option(AMAZONS_UNITY "Build the test suites as unity builds" ON)
function(amazons_unity target batch)
  if(AMAZONS_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
  endif()
endfunction()
