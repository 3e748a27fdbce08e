# One place for the warning set; applied PRIVATE to every target we own so that
# third-party headers included through PUBLIC dependencies are not affected.
function(amazons_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wshadow -Wconversion
      -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual)
    # GCC 12 reports -Wrestrict inside libstdc++ for `"literal" + std::string` at -O2
    # (GCC bug 105329), a false positive we cannot fix at the call site.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
      target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    # Clang's -Wconversion also turns on -Wsign-conversion, which GCC's does not: the set is
    # GCC's, so clang (the fuzz preset) warns about the same things.
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      target_compile_options(${target} PRIVATE -Wno-sign-conversion)
    endif()
    if(AMAZONS_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
