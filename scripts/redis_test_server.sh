#!/usr/bin/env bash
# A throwaway Redis 7 for tests, on a loopback port, in a directory of its own, with no
# persistence at all (no RDB snapshots, no AOF): a restart comes back empty, which is what the
# tests of "Redis lost its contents" need.
#   redis_test_server.sh start DIR PORT [WATCH_PID]   prints "ready" once it answers PING
#   redis_test_server.sh kill DIR                     SIGKILL, as a crash would; keeps DIR
#   redis_test_server.sh stop DIR                     stops it and removes DIR
# Start again on the same DIR and PORT after a kill to get the same address back, empty.
# Every wait is bounded (5 s to answer PING, 5 s to exit). With WATCH_PID, the server is also
# killed when that process ends (a test that crashed). DEBUG is allowed from loopback (the tests
# make Redis stall with DEBUG SLEEP). Redis does not refuse to run as root, so
# it runs as whoever calls this.
set -euo pipefail

SERVER=${AMAZONS_REDIS_SERVER:-redis-server}
CLI=${AMAZONS_REDIS_CLI:-redis-cli}
WAIT_STEPS=250  # x 20 ms

pid_of() { [[ -f $1/redis.pid ]] && cat "$1/redis.pid" 2>/dev/null || true; }

# Running, and not a zombie: a daemon's exit is reaped by init, which may take a second.
alive() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $state && $state != Z ]]
}

kill_server() {  # DIR SIGNAL
  local pid
  pid=$(pid_of "$1")
  [[ -n $pid ]] || return 0
  kill "-$2" "$pid" 2>/dev/null || true
  for _ in $(seq 1 $WAIT_STEPS); do
    alive "$pid" || break
    sleep 0.02
  done
  alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
  rm -f "$1/redis.pid"
}

case ${1:-} in
  start)
    DIR=$2 PORT=$3 WATCH=${4:-}
    command -v "$SERVER" >/dev/null || { echo "no $SERVER (apt-get install redis-server)" >&2; exit 1; }
    mkdir -p "$DIR"
    rm -f "$DIR/redis.pid"
    # --save "" and --appendonly no: nothing is ever written to disk.
    if ! "$SERVER" --port "$PORT" --bind 127.0.0.1 --protected-mode yes --dir "$DIR" \
        --save "" --appendonly no --daemonize yes --pidfile "$DIR/redis.pid" \
        --logfile "$DIR/log" --databases 1 --maxclients 200 --loglevel warning \
        --enable-debug-command local >/dev/null 2>&1; then
      echo "redis-server did not start on port $PORT:" >&2
      tail -20 "$DIR/log" >&2 2>/dev/null || true
      exit 1
    fi
    for _ in $(seq 1 $WAIT_STEPS); do
      if [[ $("$CLI" -h 127.0.0.1 -p "$PORT" ping 2>/dev/null) == PONG ]] && [[ -n $(pid_of "$DIR") ]]; then
        if [[ -n $WATCH ]]; then
          # Kills the server if the test process dies without calling stop.
          (
            pid=$(pid_of "$DIR")
            while kill -0 "$WATCH" 2>/dev/null && alive "$pid"; do sleep 1; done
            alive "$pid" && kill -KILL "$pid" 2>/dev/null || true
          ) </dev/null >/dev/null 2>&1 &
          disown
        fi
        echo ready
        exit 0
      fi
      sleep 0.02
    done
    echo "redis-server on port $PORT did not answer PING within 5 s:" >&2
    tail -20 "$DIR/log" >&2 2>/dev/null || true
    kill_server "$DIR" KILL
    exit 1
    ;;
  kill)
    kill_server "$2" KILL
    ;;
  stop)
    kill_server "$2" TERM
    rm -rf "$2"
    ;;
  *)
    echo "usage: $0 start DIR PORT [WATCH_PID] | kill DIR | stop DIR" >&2
    exit 2
    ;;
esac
