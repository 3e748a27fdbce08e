# Cross-compiling for 64-bit Windows with Debian's MinGW-w64, POSIX-threads variant (package
# g++-mingw-w64-x86-64-posix: std::thread and std::mutex need it; the win32 variant has neither).
# scripts/build-windows.sh configures build/windows with this file; it also builds, into
# AMAZONS_WINDOWS_DEPS (build/windows-deps), what Debian ships only for Linux (SQLite, libsodium,
# OpenSSL) and stages there the header-only libraries this build may take from Debian.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(triple x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${triple}-gcc-posix)
set(CMAKE_CXX_COMPILER ${triple}-g++-posix)
set(CMAKE_RC_COMPILER ${triple}-windres)

# The test suites run as .exe under Wine: ctest and doctest's test discovery go through this.
# wine64 is the name of Debian's 64-bit loader when only wine64 is installed; `wine` when both
# are.
find_program(AMAZONS_WINE NAMES wine64 wine /usr/lib/wine/wine64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${AMAZONS_WINE})

if(NOT AMAZONS_WINDOWS_DEPS)
  get_filename_component(AMAZONS_WINDOWS_DEPS "${CMAKE_CURRENT_LIST_DIR}/../../build/windows-deps"
                         ABSOLUTE)
endif()
set(AMAZONS_WINDOWS_DEPS "${AMAZONS_WINDOWS_DEPS}" CACHE PATH "Windows dependencies")

# Libraries and their CMake and pkg-config files only from MinGW's own tree and the dependencies
# built for it: never Linux's /usr. The header-only libraries are reached through
# AMAZONS_WINDOWS_DEPS/prefix, where build-windows.sh links Debian's boost/, nlohmann/, CLI/ and
# doctest/ and writes the CMake package files that name them, so that Linux's other headers stay
# out of sight.
set(CMAKE_FIND_ROOT_PATH /usr/${triple} ${AMAZONS_WINDOWS_DEPS}/prefix)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_FIND_PACKAGE_PREFER_CONFIG ON)
set(ENV{PKG_CONFIG_LIBDIR} "${AMAZONS_WINDOWS_DEPS}/prefix/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")
set(OPENSSL_ROOT_DIR "${AMAZONS_WINDOWS_DEPS}/prefix")
# Static OpenSSL: FindOpenSSL then links what it needs of Windows (crypt32 for the CryptoAPI
# engine's certificate stores, ws2_32).
set(OPENSSL_USE_STATIC_LIBS TRUE)

# The dependencies are static libraries: their headers must not declare DLL imports.
# -mbig-obj: a unity batch of test sources has more sections than COFF allows by default.
set(CMAKE_CXX_FLAGS_INIT "-DSODIUM_STATIC -DU_STATIC_IMPLEMENTATION -Wa,-mbig-obj")
set(CMAKE_C_FLAGS_INIT "-DSODIUM_STATIC -DU_STATIC_IMPLEMENTATION")

# Everything linked statically into each .exe (the C and C++ runtimes, winpthreads and the
# dependencies): a program runs from any folder, without MinGW's DLLs beside it.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
