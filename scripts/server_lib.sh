# Sourced by the measurement scripts (loadtest.sh, soak.sh, abusetest.sh), which run from the
# repository root with a scratch directory in $work.

# start_server NAME DB CONFIG: starts the release amazons-server on a free port with that
# database and config, its stdout and stderr in $work; sets server_pid and port. When the server
# does not say its port within 10 s, prints its log and exits.
start_server() {
  local name=$1 db=$2 config=$3
  ./build/release/server/amazons-server --port 0 --db "$db" --config "$config" --quiet \
    >"$work/out.txt" 2>"$work/err.txt" &
  server_pid=$!
  port=
  for _ in $(seq 100); do
    port=$(grep -o 'listening on port [0-9]*' "$work/out.txt" | grep -o '[0-9]*$' || true)
    [[ -n $port ]] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "$name: the server did not start" >&2
  cat "$work/err.txt" >&2
  exit 1
}

# The server's own CPU time in clock ticks: what the work costs it, less disturbed than the
# wall-clock figures by other work on a shared machine.
server_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }

# load_config FILE GAMES: a server config for GAMES games played from loopback by one load
# generator: every connection from 127.0.0.1 admitted, request limits out of the way.
load_config() {
  cat >"$1" <<JSON
{"bind": "127.0.0.1", "discovery_port": -1, "threads": ${THREADS:-2},
 "limits": {"connections_per_address": $((2 * $2 + 100)), "requests_per_second": 1000,
            "requests_burst": 1000}}
JSON
}

# stored_moves DB: the moves in that SQLite file (0 when it cannot be read).
stored_moves() { sqlite3 "$1" 'SELECT COUNT(*) FROM moves' 2>/dev/null || echo 0; }
