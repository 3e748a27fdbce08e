#!/usr/bin/env bash
# Cross-builds the programs for 64-bit Windows with Debian's MinGW-w64 into build/windows
# (docs/DEVELOPING.md, "Windows"). First the libraries Debian ships only for Linux are built for
# MinGW from Debian's own source packages (apt-get source, with a deb-src line given to that
# command only) into build/windows-deps/prefix, each once: a stamp names the source version built.
# The header-only libraries (Boost's Asio and Beast, nlohmann_json, CLI11, doctest) are Debian's,
# seen through build/windows-deps/include, which holds nothing else.
# Usage: scripts/build-windows.sh [--deps-only | --zip] [TARGET...]
#   --zip: then build/windows/amazons-windows-x64.zip (the programs, the DLLs they need beyond
#   Windows's own, config/, i18n/, the web client's files from the Linux build, README-windows.txt)
# Installs what it needs with apt-get (as root or through sudo): the cross compiler, Wine (the
# test suites run under it: scripts/test-windows.sh) and what the dependencies' builds run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
deps=$root/build/windows-deps
prefix=$deps/prefix
host=x86_64-w64-mingw32
jobs=$(nproc)
deps_only=0
zip=0
if [[ ${1:-} == --deps-only ]]; then
  deps_only=1
  shift
elif [[ ${1:-} == --zip ]]; then
  zip=1
  shift
fi

# What this script and the Windows tests need, kept out of scripts/debian-packages.txt: the
# Linux setup does not grow by a cross compiler and Wine.
wanted=(g++-mingw-w64-x86-64-posix mingw-w64-tools wine wine64 dpkg-dev debian-archive-keyring
        tcl make perl cmake ninja-build pkgconf autoconf automake libtool)
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$pkg")
done
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
if ((${#missing[@]})); then
  echo "build-windows: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

mkdir -p "$deps/src" "$deps/stamps" "$prefix/lib/cmake" "$deps/include"

# --- The header-only libraries, from Debian's /usr/include -----------------------------------
# Each is linked into build/windows-deps/include, and a CMake package file names it there, so
# find_package finds them without /usr (the toolchain file keeps it out of every search).
for dir in boost nlohmann CLI doctest; do
  ln -sfn "/usr/include/$dir" "$deps/include/$dir"
done
# header_only_package NAME VERSION BODY: NAMEConfig.cmake with BODY, and a version file that
# accepts any request up to VERSION.
header_only_package() {
  local dir=$prefix/lib/cmake/$1
  mkdir -p "$dir"
  printf '%s\n' "# Written by scripts/build-windows.sh: Debian's headers of $1 for MinGW." "$3" \
    >"$dir/$1Config.cmake"
  cat >"$dir/$1ConfigVersion.cmake" <<EOF
set(PACKAGE_VERSION $2)
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
EOF
}
include_dir=$deps/include
header_only_package nlohmann_json 3.11.2 "
if(NOT TARGET nlohmann_json::nlohmann_json)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json INTERFACE $include_dir)
endif()"
header_only_package CLI11 2.1.2 "
if(NOT TARGET CLI11::CLI11)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE $include_dir)
endif()"
header_only_package doctest 2.4.9 "
list(APPEND CMAKE_MODULE_PATH /usr/lib/cmake/doctest)  # doctest.cmake: doctest_discover_tests
if(NOT TARGET doctest::doctest)
  add_library(doctest::doctest INTERFACE IMPORTED)
  target_include_directories(doctest::doctest INTERFACE $include_dir)
endif()"
# Boost.System is header-only since 1.69; Asio on Windows needs Winsock (ws2_32, mswsock).
header_only_package Boost 1.74.0 "
set(Boost_VERSION 1.74.0)
if(NOT TARGET Boost::headers)
  add_library(Boost::headers INTERFACE IMPORTED)
  target_include_directories(Boost::headers INTERFACE $include_dir)
  add_library(Boost::system INTERFACE IMPORTED)
  target_link_libraries(Boost::system INTERFACE Boost::headers ws2_32 mswsock)
endif()
foreach(c IN LISTS Boost_FIND_COMPONENTS)
  set(Boost_\${c}_FOUND TRUE)
endforeach()"

# --- Debian's source packages ------------------------------------------------------------------
# A deb-src line for apt-get alone: the system's sources stay as they are. Dir::Cache is ours
# too, so that the system's package cache is not rebuilt from these lists.
apt_dir=$deps/apt
apt_options=(-o "Dir::Etc::SourceParts=$apt_dir" -o Dir::Etc::SourceList=/dev/null
             -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")
apt_updated=0
fetch_source() {  # fetch_source PKG: unpacks Debian's source of PKG; prints its folder
  local pkg=$1
  if ((!apt_updated)); then
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    cat >"$apt_dir/debian-src.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get "${apt_options[@]}" update -qq >&2
    apt_updated=1
  fi
  (cd "$deps/src" && apt-get "${apt_options[@]}" source -qq "$pkg" >&2)
}
source_dir() {  # source_dir PKG: the unpacked folder of PKG's Debian source, fetched if need be
  local dir
  dir=$(find "$deps/src" -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -1)
  if [[ -z $dir ]]; then
    fetch_source "$1"
    dir=$(find "$deps/src" -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -1)
  fi
  echo "$dir"
}

# build_dep PKG FUNCTION: runs FUNCTION in a fresh copy of PKG's source unless the stamp of that
# source version is there; prints and records how long it took.
build_dep() {
  local pkg=$1 build=$2 src name stamp start
  src=$(source_dir "$pkg")
  name=$(basename "$src")
  stamp=$deps/stamps/$name
  [[ -f $stamp ]] && return 0
  echo "build-windows: building $name for $host" >&2
  start=$SECONDS
  rm -rf "$deps/work/$name"
  mkdir -p "$deps/work"
  cp -a "$src" "$deps/work/$name"
  # Not `( ... ) || ...`: bash would then ignore errors inside the build function.
  local status=0
  set +e
  (set -e; cd "$deps/work/$name"; "$build") >"$deps/work/$name.log" 2>&1
  status=$?
  set -e
  if ((status)); then
    tail -40 "$deps/work/$name.log" >&2
    echo "build-windows: $name failed; the log: $deps/work/$name.log" >&2
    exit 1
  fi
  echo "$((SECONDS - start)) s" >"$stamp"
  echo "build-windows: $name built in $((SECONDS - start)) s" >&2
}

build_sqlite() {
  # The amalgamation (one sqlite3.c, as SQLite recommends embedding it), made by the source
  # tree's own tools on this machine, then compiled for Windows: the cross build of the whole
  # tree would build its shell and Tcl pieces, which nothing here uses.
  ./configure --disable-tcl >/dev/null
  make -j"$jobs" sqlite3.c
  "$host-gcc-posix" -O2 -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_JSON1 \
    -DSQLITE_OMIT_LOAD_EXTENSION -c sqlite3.c -o sqlite3.o
  "$host-ar" rcs libsqlite3.a sqlite3.o
  install -D -m 644 sqlite3.h "$prefix/include/sqlite3.h"
  install -D -m 644 sqlite3ext.h "$prefix/include/sqlite3ext.h"
  install -D -m 644 libsqlite3.a "$prefix/lib/libsqlite3.a"
}

build_sodium() {
  autoreconf -fi  # Debian's source has no configure script: its packaging runs dh_autoreconf
  ./configure --host="$host" --prefix="$prefix" --disable-shared --enable-static \
    CC="$host-gcc-posix"
  make -j"$jobs"
  make install
}

build_openssl() {
  # Static libraries only (no-shared), without the test programs (no-tests).
  ./Configure mingw64 no-tests no-shared --cross-compile-prefix="$host-" \
    --prefix="$prefix" --libdir=lib CC=gcc-posix CXX=g++-posix
  make -j"$jobs" build_libs
  make install_dev
}

build_icu() {
  # ICU's cross build runs the tools of a build for this machine to make its data: first that
  # build (tools and data only), then the libraries for Windows with the data as a static library.
  cd source
  local options=(--disable-tests --disable-samples --disable-extras --disable-layoutex)
  mkdir native cross
  (cd native && ../configure "${options[@]}" && make -j"$jobs")
  cd cross
  ../configure --host="$host" --with-cross-build="$PWD/../native" --prefix="$prefix" \
    --enable-static --disable-shared --disable-tools --with-data-packaging=static \
    "${options[@]}" CC="$host-gcc-posix" CXX="$host-g++-posix"
  make -j"$jobs"
  make install
  # The data library that install leaves is ICU's stub (736 bytes: no data). The data file of
  # the source, as an object for MinGW, by the native build's genccode: icudt72_dat.
  local version
  version=$(basename ../data/in/icudt*l.dat l.dat)
  LD_LIBRARY_PATH=../native/lib ../native/bin/genccode -a gcc-mingw64 -d . -e "$version" \
    "../data/in/${version}l.dat"
  "$host-gcc-posix" -c "${version}l_dat.S" -o "${version}l_dat.o"
  rm -f "$prefix/lib/libsicudt.a"
  "$host-ar" rcs "$prefix/lib/libsicudt.a" "${version}l_dat.o"
}

build_dep sqlite3 build_sqlite
build_dep libsodium build_sodium
build_dep openssl build_openssl
build_dep icu build_icu
# ICU names its static libraries sicu*; CMake's FindICU looks for them so only with MSVC.
for lib in uc in dt; do ln -sfn "libsicu$lib.a" "$prefix/lib/libicu$lib.a"; done

((deps_only)) && exit 0

# --- The project --------------------------------------------------------------------------------
start=$SECONDS
# What is not built for Windows yet (docs/DEVELOPING.md, "Windows", says why): the clients
# (AMAZONS_BUILD_CLIENTS), the cluster mode's Redis client, PostgreSQL, the web client (the Linux
# build makes it), the benchmarks, jemalloc, and the suites on sockets, whose harnesses are POSIX
# (AMAZONS_BUILD_NETWORK_TESTS follows the first two).
cmake -S . -B build/windows -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$host.cmake" \
  -DAMAZONS_WINDOWS_DEPS="$deps" -DCMAKE_BUILD_TYPE=Release \
  -DAMAZONS_BUILD_NETWORK=ON -DAMAZONS_BUILD_REDIS=OFF -DAMAZONS_BUILD_CLIENTS=OFF \
  -DAMAZONS_BUILD_SERVER_CORE="${AMAZONS_WINDOWS_SERVER_CORE:-ON}" \
  -DAMAZONS_BUILD_POSTGRES=OFF -DAMAZONS_BUILD_DESKTOP=OFF -DAMAZONS_BUILD_WEB=OFF \
  -DAMAZONS_BUILD_BENCH=OFF -DAMAZONS_JEMALLOC=OFF >/dev/null
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build build/windows --parallel "$jobs" "${targets[@]}"
echo "build-windows: build/windows built in $((SECONDS - start)) s" >&2

((zip)) || exit 0

# --- The zip ------------------------------------------------------------------------------------
# The layout of an installed tree (common/shipped_files.h): the programs in bin/ find their data
# in share/amazons/ beside it. The web client is the same files on every platform: the Linux
# build's (AMAZONS_WEB_DIST, default build/release/web/dist).
programs=(amazons-server amazons-bot amazons-engine amazons-match amazons-record)
web_dist=${AMAZONS_WEB_DIST:-$root/build/release/web/dist}
if [[ ! -f $web_dist/index.html ]]; then
  echo "build-windows: no web client in $web_dist: ./scripts/build.sh release amazons-web" >&2
  exit 1
fi
program_targets=()
for program in "${programs[@]}"; do program_targets+=(--target "$program"); done
cmake --build build/windows --parallel "$jobs" "${program_targets[@]}"
stage=$root/build/windows/zip/amazons-windows-x64
rm -rf "$root/build/windows/zip"
mkdir -p "$stage/bin" "$stage/share/amazons"
for program in "${programs[@]}"; do
  exe=$(find build/windows -name "$program.exe" -not -path '*/zip/*' | head -1)
  [[ -n $exe ]] || { echo "build-windows: $program.exe was not built" >&2; exit 1; }
  install -m 755 "$exe" "$stage/bin/"
  "$host-strip" "$stage/bin/$program.exe"
done
# Everything is linked statically (the toolchain file): a DLL that is neither Windows's own nor
# here is a mistake in the link, named rather than shipped broken.
system_dlls='^(kernel32|user32|advapi32|ws2_32|mswsock|iphlpapi|crypt32|bcrypt|shell32|ole32|msvcrt|ucrtbase|api-ms-win-.*)\.dll$'
for exe in "$stage"/bin/*.exe; do
  while read -r dll; do
    if ! grep -qiE "$system_dlls" <<<"$dll"; then
      found=$(find "/usr/lib/gcc/$host" "/usr/$host" "$prefix" -iname "$dll" 2>/dev/null | head -1)
      [[ -n $found ]] || { echo "build-windows: $(basename "$exe") needs $dll" >&2; exit 1; }
      install -m 644 "$found" "$stage/bin/"
    fi
  done < <("$host-objdump" -p "$exe" | sed -n 's/^\s*DLL Name: //p')
done
cp -r config "$stage/share/amazons/config"
cp -r i18n "$stage/share/amazons/i18n"
cp -r "$web_dist" "$stage/share/amazons/web"
# Windows's own tools read CRLF line ends.
sed 's/$/\r/' packaging/README-windows.txt >"$stage/README-windows.txt"
zip_file=$root/build/windows/amazons-windows-x64.zip
rm -f "$zip_file"
(cd "$root/build/windows/zip" && zip -qr9 "$zip_file" amazons-windows-x64)
echo "build-windows: $zip_file ($(du -k "$zip_file" | cut -f1) KiB)" >&2
