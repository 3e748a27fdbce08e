#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages in scripts/debian-packages.txt that are missing.
# Does nothing (and needs no privileges) when everything is there. As root it also creates the
# unprivileged user amazons-test for the PostgreSQL tests.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

# The PostgreSQL tests run their server as this user when run as root, since PostgreSQL refuses
# to run as root (scripts/pg_test_server.sh creates it too when this has not run).
if [[ $(id -u) -eq 0 ]] && ! id amazons-test >/dev/null 2>&1; then
  useradd --system --no-create-home --shell /usr/sbin/nologin amazons-test
fi

# The npm packages, each folder's pinned by its lock file: the web client's (web/package.json:
# intl-messageformat, bundled into the page) and the browser tests' (tests/browser/package.json:
# axe-core, which test_accessibility.py loads into the page).
install_test_node_modules() {
  local web="$here/../web" dir="$here/../tests/browser"
  if [[ ! -f "$web/node_modules/intl-messageformat/package.json" ]] && command -v npm >/dev/null; then
    echo "setup: npm ci in web (intl-messageformat)" >&2
    npm ci --prefix "$web" --no-audit --no-fund --loglevel=error >&2
  fi
  if [[ ! -f "$dir/node_modules/axe-core/axe.min.js" ]] && command -v npm >/dev/null; then
    echo "setup: npm ci in tests/browser (axe-core)" >&2
    npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >&2
  fi
}

mapfile -t wanted < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/debian-packages.txt")
missing=()
for pkg in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]} == 0)); then
  install_test_node_modules
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "setup: these packages are missing and I am not root and have no sudo: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_test_node_modules
