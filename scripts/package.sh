#!/usr/bin/env bash
# Makes the Debian packages (amazons-common, -server, -client, -tui, -bot; packaging/README.md)
# into build/packages/ with CPack from a release build, then prints their sizes and what lintian
# says of them. Builds the programs first (scripts/build.sh PRESET amazons-programs) unless
# --no-build.
# Usage: scripts/package.sh [--no-build] [--preset PRESET] [--build-dir DIR] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=release build_dir= out=build/packages build=1
while (($#)); do
  case $1 in
    --no-build) build=0 ;;
    --preset) preset=$2; shift ;;
    --build-dir) build_dir=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "usage: scripts/package.sh [--no-build] [--preset P] [--build-dir DIR] [--out DIR]" >&2
       exit 2 ;;
  esac
  shift
done
build_dir=${build_dir:-build/$preset}
((build)) && scripts/build.sh "$preset" amazons-programs
[[ -f $build_dir/CPackConfig.cmake ]] || {
  echo "package.sh: no $build_dir/CPackConfig.cmake: build first (scripts/build.sh $preset)" >&2
  exit 1
}

start=$SECONDS
mkdir -p "$out"
rm -f "$out"/amazons-*.deb
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
# CPack writes its staging trees beside the packages: keep them out of $out.
cpack --config "$build_dir/CPackConfig.cmake" -B "$staging" >"$staging/cpack.log" 2>&1 || {
  cat "$staging/cpack.log" >&2
  exit 1
}
mv "$staging"/amazons-*.deb "$out"/
echo "package.sh: $(ls "$out"/amazons-*.deb | wc -l) packages in $out in $((SECONDS - start)) s" >&2
for deb in "$out"/amazons-*.deb; do
  printf '%-40s %6s KiB  installed %6s KiB  Depends: %s\n' "$(basename "$deb")" \
    "$(( $(stat -c %s "$deb") / 1024 ))" "$(dpkg-deb -f "$deb" Installed-Size)" \
    "$(dpkg-deb -f "$deb" Depends)"
done
if command -v lintian >/dev/null; then
  # Every tag, the informational (I:) and the overridden (O:, each with its reason in
  # packaging/lintian/) included; an error (E:) or a warning (W:) fails.
  report=$(lintian --display-info --show-overrides --fail-on none "$out"/amazons-*.deb 2>&1 |
             grep -v '^running with root privileges')
  echo "lintian:"
  echo "${report:-(nothing)}"
  if grep -q '^[EW]:' <<<"$report"; then
    echo "package.sh: lintian found errors or warnings" >&2
    exit 1
  fi
  echo "lintian: no error, no warning"
else
  echo "package.sh: lintian is not installed (scripts/setup.sh installs it): not checked" >&2
fi
