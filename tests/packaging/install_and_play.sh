#!/usr/bin/env bash
# The Debian packages installed into a throwaway root play a game: dpkg -i of every package in
# DEBS (maintainer scripts and all) into a copy-on-write overlay of this machine's root, chrooted,
# with the checkout hidden; then the server started by its unit's ExecStart line as the unit's
# user, with the packaged /etc/amazons/server.json (only the port, the address and discovery
# changed: a loopback port the kernel picks), serves the packaged web client and referees a game
# between two packaged amazons-bot processes to its end; then the packages are removed and
# purged. The overlay is a tmpfs in a mount namespace of its own: nothing reaches this machine.
# Needs root (mounts, chroot); exits 77 (skipped) without it.
# Usage: install_and_play.sh DEBS_DIR CHECKOUT [BUILD_DIR]
set -euo pipefail
debs=$(cd "$1" && pwd) checkout=$2 build=${3:-}

if [[ -z ${AMAZONS_PACKAGE_NAMESPACE:-} ]]; then
  if [[ $(id -u) -ne 0 ]] || ! command -v unshare >/dev/null; then
    echo "SKIP: needs root and unshare (mount namespace, overlay, chroot)"
    exit 77
  fi
  export AMAZONS_PACKAGE_NAMESPACE=1
  exec unshare --mount --propagation private bash "$0" "$@"
fi

fail() { echo "FAIL: $*"; exit 1; }
step() { echo "== $*"; }

top=$(mktemp -d /tmp/amazons-package-XXXXXX)
# A container without the right to mount cannot run this: skipped, not failed.
if ! mount -t tmpfs -o size=1g amazons-package "$top"; then
  rmdir "$top"
  echo "SKIP: cannot mount a tmpfs here"
  exit 77
fi
mkdir "$top/upper" "$top/work" "$top/root"
if ! mount -t overlay amazons-package -o "lowerdir=/,upperdir=$top/upper,workdir=$top/work" \
  "$top/root"; then
  umount "$top" && rmdir "$top"
  echo "SKIP: cannot mount an overlay of / here"
  exit 77
fi
root=$top/root
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
# The programs must find everything at the packaged paths: the checkout (and a build tree in it
# or beside it) is an empty directory in there.
for dir in "$checkout" "$build"; do
  [[ -n $dir && -d $root$dir ]] && mount -t tmpfs -o size=1m,ro hidden "$root$dir"
done

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  umount -R "$top" 2>/dev/null || umount -lR "$top" || true
  rmdir "$top"
}
trap cleanup EXIT
in_root() { chroot "$root" "$@"; }

step "dpkg -i in a throwaway root"
for package in amazons-common amazons-server amazons-tui amazons-bot; do
  ls "$debs"/${package}_*.deb >/dev/null 2>&1 || fail "no $package package in $debs"
done
mkdir "$root/tmp/debs"
cp "$debs"/*.deb "$root/tmp/debs/"
in_root sh -c 'dpkg -i /tmp/debs/*.deb' || fail "dpkg -i failed"
in_root dpkg-query -W -f='${Package} ${Version} ${Status}\n' 'amazons-*'

step "the system user, the state directory, the conffile"
user=$(in_root getent passwd amazons) || fail "no user amazons after postinst"
echo "$user"
[[ $user == *:/var/lib/amazons:* ]] || fail "amazons's home is not /var/lib/amazons"
state=$(in_root stat -c '%U:%G %a' /var/lib/amazons) || fail "no /var/lib/amazons"
[[ $state == "amazons:amazons 750" ]] || fail "/var/lib/amazons is $state"
in_root dpkg-query --showformat='${Conffiles}\n' --show amazons-server | grep -q /etc/amazons/server.json ||
  fail "/etc/amazons/server.json is not a conffile"
[[ -L $root/etc/systemd/system/multi-user.target.wants/amazons-server.service ]] ||
  fail "postinst did not enable amazons-server.service"

step "every program runs (its libraries are there)"
for program in /usr/bin/amazons-server /usr/games/amazons-{client,tui,watch,record,bot,engine,match}; do
  [[ -x $root$program ]] || continue  # amazons-client only in builds with the desktop client
  in_root "$program" --help >/dev/null || fail "$program --help failed"
  in_root man -w "$(basename "$program")" >/dev/null 2>&1 || fail "no manual page for $program"
done
echo "ok"

step "the server, as its unit starts it"
unit=/lib/systemd/system/amazons-server.service
exec_start=$(sed -n 's/^ExecStart=//p' "$root$unit")
run_as=$(sed -n 's/^User=//p' "$root$unit")
work_dir=$(sed -n 's/^WorkingDirectory=//p' "$root$unit")
[[ $exec_start == "/usr/bin/amazons-server --config /etc/amazons/server.json" ]] ||
  fail "unexpected ExecStart: $exec_start"
server_log=$top/server.log
# Made here: the redirect below makes it only once the background job runs, and the loop may
# read it first (sed fails on a missing file, which ends this script).
: >"$server_log"
# shellcheck disable=SC2086  # ExecStart is a command line
chroot --userspec="$run_as:$run_as" "$root" sh -c "cd $work_dir && exec $exec_start \
  --port 0 --bind 127.0.0.1 --discovery-port -1" >"$server_log" 2>&1 &
pids+=($!)
server_pid=$!
port=
for _ in $(seq 1 300); do
  port=$(sed -n 's/.*listening on port \([0-9][0-9]*\).*/\1/p' "$server_log" | head -1)
  [[ -n $port ]] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$server_log"; fail "the server exited"; }
  sleep 0.1
done
[[ -n $port ]] || { cat "$server_log"; fail "the server did not say its port"; }
echo "listening on 127.0.0.1:$port"
[[ -f $root/var/lib/amazons/amazons.db ]] || fail "no database in /var/lib/amazons"
[[ -f $root/var/lib/amazons/amazons-tls-cert.pem ]] || fail "no TLS certificate in /var/lib/amazons"
index=$(curl -skf "https://127.0.0.1:$port/") || fail "GET / failed"
[[ $index == *"<html"* ]] || fail "GET / is not the web client's page"
web_files=$(find "$root/usr/share/amazons/web" -type f | wc -l)
echo "GET / serves the packaged web client (/usr/share/amazons/web, $web_files files)"

step "two packaged bots play a game"
for name in alpha beta; do
  in_root env HOME=/root /usr/games/amazons-bot --server "127.0.0.1:$port" --name "$name" --level beginner \
    --seek 300+5 --no-join --no-challenges --games 1 >"$top/$name.log" 2>&1 &
  pids+=($!)
done
bots=("${pids[@]:1}")
deadline=$((SECONDS + 120))
for pid in "${bots[@]}"; do
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || { tail -n 5 "$top"/*.log; fail "the game took over 120 s"; }
    sleep 0.2
  done
  status=0
  wait "$pid" || status=$?
  ((status == 0)) || { tail -n 5 "$top"/*.log; fail "a bot exited with status $status"; }
done
grep -h 'event=game_end' "$top/alpha.log" "$top/beta.log" || fail "no game_end in the bots' logs"
grep -q 'event=game_end.*result=win' "$top"/alpha.log "$top"/beta.log || fail "nobody won"
grep -q 'event=game_end.*result=loss' "$top"/alpha.log "$top"/beta.log || fail "nobody lost"
in_root sqlite3 -readonly /var/lib/amazons/amazons.db \
  "SELECT 'stored: game ' || id || ', ' || rules || ', ' || white || ' (white) v ' || black ||
          ', winner ' || winner || ' by ' || reason || ', ' ||
          (SELECT count(*) FROM moves WHERE game = games.id) || ' moves'
   FROM games WHERE reason IS NOT NULL" | tee "$top/stored"
[[ -s $top/stored ]] || fail "the server stored no finished game"

step "SIGTERM stops the server cleanly"
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
((status == 0)) || { tail -n 5 "$server_log"; fail "the server exited with status $status"; }
pids=()

step "remove and purge"
mapfile -t installed < <(in_root dpkg-query -W -f='${Package}\n' 'amazons-*')
in_root dpkg --remove "${installed[@]}" || fail "dpkg --remove failed"
# What is left after a remove: the packages with conffiles.
mapfile -t left < <(in_root dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'amazons-*' |
                      awk '$1 == "rc" { print $2 }')
echo "left with their conffiles: ${left[*]}"
in_root dpkg --purge "${left[@]}" || fail "dpkg --purge failed"
[[ -f $root/var/lib/amazons/amazons.db ]] || fail "purge deleted the database"
[[ ! -e $root/usr/bin/amazons-server && ! -e $root/etc/amazons/server.json ]] ||
  fail "purge left the program or its conffile"
echo "ok: installed, played a game to its end, removed and purged"
