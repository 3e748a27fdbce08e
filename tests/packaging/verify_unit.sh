#!/usr/bin/env bash
# packaging/amazons-server.service passes `systemd-analyze verify` with the built binary in
# ExecStart's place (verify checks that the program exists), with no warning at all; a copy
# with a mistake in it fails, so the check is known to bite. Usage: verify_unit.sh UNIT SERVER
set -euo pipefail
unit=$1 server=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed "s|/usr/bin/amazons-server|$server|" "$unit" >"$work/amazons-server.service"
out=$(systemd-analyze verify "$work/amazons-server.service" 2>&1) || {
  echo "FAIL: systemd-analyze verify: $out"
  exit 1
}
if [[ -n "$out" ]]; then
  echo "FAIL: systemd-analyze verify warns: $out"
  exit 1
fi
for key in 'Restart=on-failure' 'ExecReload=/bin/kill -HUP $MAINPID' 'User=amazons' \
           'StateDirectory=amazons' 'NoNewPrivileges=yes' 'ProtectSystem=strict'; do
  grep -qxF "$key" "$work/amazons-server.service" || { echo "FAIL: the unit lacks $key"; exit 1; }
done
# The same check on a unit whose program is missing and whose key is misspelt must fail.
sed -e "s|$server|$work/no-such-server|" -e 's|^Restart=|Restrat=|' \
  "$work/amazons-server.service" >"$work/broken.service"
if systemd-analyze verify "$work/broken.service" >/dev/null 2>&1; then
  echo "FAIL: systemd-analyze verify accepted a broken unit"
  exit 1
fi
echo "ok: the unit verifies cleanly"
