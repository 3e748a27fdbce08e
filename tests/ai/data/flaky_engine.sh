#!/bin/sh
# An engine that crashes once, for the restart tests:
#   flaky_engine.sh MARKER N PATTERN COMMAND...
# The first time it runs (no file MARKER yet) it passes its input on to COMMAND, the real engine,
# and dies when the Nth input line matching PATTERN (a shell pattern, e.g. 'go*' or '*') arrives.
# Every later time, MARKER exists and it simply is COMMAND.
marker=$1
n=$2
pattern=$3
shift 3
if [ -e "$marker" ]; then exec "$@"; fi
: > "$marker"
fifo="$marker.fifo"
rm -f "$fifo"
mkfifo "$fifo"
"$@" < "$fifo" &
engine=$!
exec 3> "$fifo"
count=0
while IFS= read -r line; do
  case "$line" in
    $pattern)
      count=$((count + 1))
      if [ "$count" -ge "$n" ]; then
        kill -9 "$engine"
        exit 3
      fi
      ;;
  esac
  printf '%s\n' "$line" >&3
done
