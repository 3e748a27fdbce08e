#!/usr/bin/env bash
# Refreshes docs/screenshots/tui-zh-*.png: the terminal client in Simplified Chinese (LANG=zh_CN.UTF-8)
# at 80x24 in tmux (the menu, a game against the computer choosing the arrow, the lobby of a real
# server with a game waiting), captured with its colours (capture-pane -e) and drawn to PNG by
# scripts/terminal_png.py; the game also at 120x40. Needs tmux and chromium; uses the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${AMAZONS_BINARY_DIR:-$PWD/build/release}
out=docs/screenshots
work=$(mktemp -d)
sock="$work/tmux.sock"
server_pid=
cleanup() {
  tmux -S "$sock" kill-server 2>/dev/null || true
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work" 2>/dev/null || true  # the client may still be saving as it goes
}
trap cleanup EXIT

# Waits (up to 20 s) until the screen shows $1 (a fixed text; with -E first, a regular expression).
wait_for() {
  local mode=-F
  if [ "$1" = -E ]; then mode=-E; shift; fi
  for _ in $(seq 200); do
    tmux -S "$sock" capture-pane -p -t t | grep -q "$mode" -- "$1" && return 0
    sleep 0.1
  done
  echo "tui_screenshots.sh: timed out waiting for '$1'" >&2
  tmux -S "$sock" capture-pane -p -t t >&2
  return 1
}
keys() { tmux -S "$sock" send-keys -t t "$@"; }
cols=80 rows=24  # the terminal's size for the next tui
shot() {
  tmux -S "$sock" capture-pane -e -p -N -t t >"$work/$1.ansi"
  python3 scripts/terminal_png.py "$work/$1.ansi" "$out/$1.png" "$cols" "$rows"
  echo "wrote $out/$1.png"
}
tui() {
  tmux -S "$sock" kill-session -t t 2>/dev/null || true
  tmux -S "$sock" -f /dev/null new-session -d -s t -x "$cols" -y "$rows" \
    "env -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8 TERM=xterm-256color $bin/tui/amazons-tui \
     --config-dir $work/config --data-dir $work/data $*; sleep 600"
}

tui
wait_for "两人在本终端对弈"
shot tui-zh-menu

# Against the computer: one move each, then a queen moved and its arrow to choose.
keys 1
wait_for "选择对手的强度"
keys Enter
wait_for "选一个你的皇后。"
keys -l "d1-d7/g7"
keys Enter
wait_for -E "1\.   d1-d7/g7 +[a-j]"
keys -l "j4-h4"
wait_for "向带圈的格子放箭"
shot tui-zh-game

# The same game at 120x40, where a square is 7 cells by 3, resumed from the menu.
cols=120 rows=40
tui
wait_for "继续未下完的对局"
keys 1
wait_for "选一个你的皇后。"
keys -l "j4-h4"
wait_for "向带圈的格子放箭"
shot tui-zh-game-wide
cols=80 rows=24

# Online: a real server, the lobby with a game waiting for an opponent.
"$bin/server/amazons-server" --port 0 --db "$work/server.db" --bind 127.0.0.1 \
  --discovery-port -1 --no-tls >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do grep -q "listening on port" "$work/server.out" && break; sleep 0.1; done
port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$work/server.out")
tui --server "127.0.0.1:$port" --connect --name Li
wait_for "大厅"
keys c
wait_for "（x：取消）"
shot tui-zh-lobby
