#!/usr/bin/env bash
# The build's speed options each change the build they name (docs/DEVELOPING.md): configures the
# source tree into throwaway directories with each option on and off, and reads the generated
# Ninja files. Configures only; compiles nothing.
# Usage: check_options.sh SOURCE_DIR
set -euo pipefail
src=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/amazons-build-options.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAILED: $*" >&2; failures=$((failures + 1)); }

# configure NAME [CMAKE ARGS...]: a Ninja configuration of the source tree in $work/NAME.
configure() {
  local name=$1
  shift
  cmake -S "$src" -B "$work/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAMAZONS_BUILD_BENCH=OFF \
    "$@" >"$work/$name.log" 2>&1 || { cat "$work/$name.log" >&2; exit 1; }
}
ninja_files() { echo "$work/$1/build.ninja" "$work/$1/CMakeFiles/rules.ninja"; }

configure on
configure off -DAMAZONS_UNITY=OFF -DAMAZONS_CCACHE=OFF -DAMAZONS_LINKER=default \
  -DAMAZONS_BUILD_WEB=OFF

# AMAZONS_UNITY: the test suites are compiled as unity units, and not without it.
grep -q 'tests/server_unity/unity_0.cpp' "$work/on/build.ninja" ||
  fail "AMAZONS_UNITY=ON: the server suite is not a unity build"
grep -q '_unity/unity_' "$work/off/build.ninja" && fail "AMAZONS_UNITY=OFF: a unity unit remains"

# AMAZONS_UNITY_LIBRARIES (on in the asan and fuzz presets): the libraries are unity units too, with
# the sources marked SKIP_UNITY_BUILD_INCLUSION and those with definitions of their own apart; off,
# the libraries keep one unit a file.
configure unitylibs -DAMAZONS_UNITY_LIBRARIES=ON -DAMAZONS_BUILD_WEB=OFF
grep -q 'amazons_server_core_unity/unity_0.cpp' "$work/unitylibs/build.ninja" ||
  fail "AMAZONS_UNITY_LIBRARIES=ON: the server core is not a unity build"
grep -q 'amazons_server_storage.dir/sqlite_storage.cpp' "$work/unitylibs/build.ninja" ||
  fail "AMAZONS_UNITY_LIBRARIES=ON: sqlite_storage.cpp (SKIP_UNITY_BUILD_INCLUSION) was batched"
grep -q 'amazons_ai.dir/levels.cpp' "$work/unitylibs/build.ninja" ||
  fail "AMAZONS_UNITY_LIBRARIES=ON: levels.cpp (definitions of its own) was batched"
grep -q 'amazons_server_core_unity' "$work/on/build.ninja" &&
  fail "AMAZONS_UNITY_LIBRARIES=OFF: a library is a unity build"

# AMAZONS_CCACHE: compiles go through ccache when it is installed, with the checkout as base_dir.
if command -v ccache >/dev/null; then
  grep -q "CCACHE_BASEDIR=$src .*ccache" $(ninja_files on) ||
    fail "AMAZONS_CCACHE=ON: the compiler is not launched through ccache"
fi
grep -q 'ccache' $(ninja_files off) && fail "AMAZONS_CCACHE=OFF: ccache is still used"

# AMAZONS_LINKER: auto picks mold (else lld) when installed; default passes no -fuse-ld.
if command -v mold >/dev/null; then
  grep -q -- '-fuse-ld=mold' "$work/on/build.ninja" || fail "AMAZONS_LINKER=auto: not linking with mold"
fi
grep -q -- '-fuse-ld=' "$work/off/build.ninja" && fail "AMAZONS_LINKER=default: a -fuse-ld remains"

# AMAZONS_BUILD_WEB: the web client and its suites are there, and not without it.
grep -q 'web/dist/index.html' "$work/on/build.ninja" || fail "AMAZONS_BUILD_WEB=ON: no web client"
grep -q 'web/dist/index.html' "$work/off/build.ninja" && fail "AMAZONS_BUILD_WEB=OFF: the web client remains"

# AMAZONS_BUILD_WASM: with Emscripten installed, the web client's files include the engine as
# WebAssembly, built as a project of its own; not without the option.
if command -v emcc >/dev/null; then
  configure nowasm -DAMAZONS_BUILD_WASM=OFF -DAMAZONS_BUILD_TESTS=OFF
  grep -q 'amazons-engine-wasm' "$work/on/build.ninja" ||
    fail "AMAZONS_BUILD_WASM=ON: the WebAssembly engine is not built"
  grep -q 'amazons-engine-wasm' "$work/nowasm/build.ninja" &&
    fail "AMAZONS_BUILD_WASM=OFF: the WebAssembly engine is still built"
fi

# The parts the Windows build leaves out (docs/DEVELOPING.md, "Windows"), each off on its own:
# AMAZONS_BUILD_REDIS (hiredis, or redis_absent.cpp), AMAZONS_BUILD_CLIENTS (the clients' logic
# and the terminal client), and with either off AMAZONS_BUILD_NETWORK_TESTS (the socket suites).
configure noredis -DAMAZONS_BUILD_REDIS=OFF -DAMAZONS_BUILD_WEB=OFF
grep -q 'cluster/CMakeFiles/amazons_cluster.dir/redis_connection.cpp' "$work/on/build.ninja" ||
  fail "AMAZONS_BUILD_REDIS=ON: no hiredis connection"
grep -q 'amazons_cluster.dir/redis_absent.cpp' "$work/on/build.ninja" &&
  fail "AMAZONS_BUILD_REDIS=ON: the stand-in without Redis is built"
grep -q 'amazons_cluster.dir/redis_absent.cpp' "$work/noredis/build.ninja" ||
  fail "AMAZONS_BUILD_REDIS=OFF: no stand-in without Redis"
grep -q 'redis_connection.cpp\|hiredis' "$work/noredis/build.ninja" &&
  fail "AMAZONS_BUILD_REDIS=OFF: hiredis is still built or linked"
grep -q 'build tests/cluster_nodes ' "$work/on/build.ninja" ||
  fail "AMAZONS_BUILD_NETWORK_TESTS=ON: no socket suite"
grep -q 'build tests/cluster_nodes ' "$work/noredis/build.ninja" &&
  fail "AMAZONS_BUILD_NETWORK_TESTS (off without Redis): the socket suites remain"
configure noclients -DAMAZONS_BUILD_CLIENTS=OFF -DAMAZONS_BUILD_WEB=OFF -DAMAZONS_BUILD_DESKTOP=OFF
grep -q 'build tui/amazons-tui:' "$work/on/build.ninja" || fail "AMAZONS_BUILD_CLIENTS=ON: no tui"
grep -q 'build tui/amazons-tui:' "$work/noclients/build.ninja" &&
  fail "AMAZONS_BUILD_CLIENTS=OFF: the terminal client remains"
grep -q 'build server/amazons-server:' "$work/noclients/build.ninja" ||
  fail "AMAZONS_BUILD_CLIENTS=OFF: the server is gone too"

# amazons-programs (what run.sh builds): the programs, and no test suite.
programs=$(ninja -C "$work/on" -t query amazons-programs)
for p in server/amazons-server bot/amazons-bot ai/amazons-engine client/amazons-watch tui/amazons-tui; do
  grep -q "$p" <<<"$programs" || fail "amazons-programs does not build $p"
done
grep -q 'tests/' <<<"$programs" && fail "amazons-programs builds a test suite"

# Asio and Beast are compiled separately, in every unit.
grep -q 'BOOST_ASIO_SEPARATE_COMPILATION' "$work/on/build.ninja" ||
  fail "Asio is not compiled separately"

if ((failures)); then
  echo "check_options: $failures failed" >&2
  exit 1
fi
echo "check_options: every option changes the build it names"
