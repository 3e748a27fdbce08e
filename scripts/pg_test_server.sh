#!/usr/bin/env bash
# A throwaway PostgreSQL 15 for tests, on a loopback port, in a directory of its own.
#   pg_test_server.sh start DIR PORT [WATCH_PID]   prints "ready" once it accepts connections
#   pg_test_server.sh stop DIR                     stops it and removes DIR
# The superuser is "amazons" (trusted from 127.0.0.1); any other user must give a password, so
# tests can see authentication fail. As root it runs as the user amazons-test (created here if
# scripts/setup.sh has not), because PostgreSQL refuses to run as root. Built for speed, not
# safety: fsync off, small buffers, one initdb cached per machine and copied for each server.
# In memory (/dev/shm) when there is one: copying the template there takes 0.3 s, not 4.
# With WATCH_PID, the server is also stopped when that process ends (a test that crashed).
# AMAZONS_PG_DURABLE=1 (for measurements, scripts/cluster_loadtest.sh): fsync and full page
# writes on, 128 MB of buffers and 400 connections, as a real server would run.
set -euo pipefail

BIN=${AMAZONS_PG_BIN:-/usr/lib/postgresql/15/bin}
TEST_USER=amazons-test
TEMPLATE_VERSION=3  # bump when the template's settings change
PREMADE_DATABASES=3  # test1..test3 exist from the start: CREATE DATABASE costs 0.5 s

as_user() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u "$TEST_USER" -- "$@"
  else
    "$@"
  fi
}

ensure_user() {
  [[ $(id -u) -eq 0 ]] || return 0
  id "$TEST_USER" >/dev/null 2>&1 ||
    useradd --system --no-create-home --shell /usr/sbin/nologin "$TEST_USER" 2>/dev/null ||
    id "$TEST_USER" >/dev/null  # another test created it meanwhile
}

# One initialised cluster per user and template version; each test server copies it.
ensure_template() {
  local owner
  owner=$([[ $(id -u) -eq 0 ]] && echo "$TEST_USER" || id -un)
  local base=${TMPDIR:-/tmp}
  [[ -d /dev/shm && -w /dev/shm ]] && base=/dev/shm
  TEMPLATE=${AMAZONS_PG_TEMPLATE_DIR:-$base}/amazons-pg-template-$TEMPLATE_VERSION-$owner
  [[ -f $TEMPLATE/ready ]] && return 0
  exec 9>"$TEMPLATE.lock"
  flock 9
  if [[ ! -f $TEMPLATE/ready ]]; then
    rm -rf "$TEMPLATE" "$TEMPLATE.tmp"
    mkdir -p "$TEMPLATE.tmp"
    [[ $(id -u) -eq 0 ]] && chown "$TEST_USER" "$TEMPLATE.tmp"
    as_user "$BIN/initdb" -D "$TEMPLATE.tmp/data" -U amazons --auth-local=trust \
      --auth-host=scram-sha-256 --no-sync --wal-segsize=1 -E UTF8 --locale=C >"$TEMPLATE.tmp/initdb.log" 2>&1 || {
      cat "$TEMPLATE.tmp/initdb.log" >&2
      exit 1
    }
    as_user sh -c "printf '%s\n' 'local all all trust' 'host all amazons 127.0.0.1/32 trust' \
      'host all all 127.0.0.1/32 scram-sha-256' > '$TEMPLATE.tmp/data/pg_hba.conf'"
    local port=$((20000 + RANDOM % 20000))
    as_user "$BIN/pg_ctl" -D "$TEMPLATE.tmp/data" -l "$TEMPLATE.tmp/log" -w -t 30 -s \
      -o "-p $port -c listen_addresses= -k $TEMPLATE.tmp -c fsync=off -c min_wal_size=2MB -c max_wal_size=8MB" start >/dev/null 2>&1 || {
      cat "$TEMPLATE.tmp/log" >&2
      exit 1
    }
    for i in $(seq 1 $PREMADE_DATABASES); do
      as_user psql -X -q -h "$TEMPLATE.tmp" -p "$port" -U amazons postgres \
        -c "CREATE DATABASE test$i" >/dev/null
    done
    as_user psql -X -q -h "$TEMPLATE.tmp" -p "$port" -U amazons postgres -c CHECKPOINT >/dev/null
    as_user "$BIN/pg_ctl" -D "$TEMPLATE.tmp/data" -m fast -s -w stop >/dev/null
    as_user touch "$TEMPLATE.tmp/ready"
    mv "$TEMPLATE.tmp" "$TEMPLATE"
  fi
  exec 9>&-
}

case ${1:-} in
  start)
    DIR=$2 PORT=$3 WATCH=${4:-}
    [[ -x $BIN/postgres ]] || { echo "no PostgreSQL server at $BIN (apt-get install postgresql-15)" >&2; exit 1; }
    ensure_user
    ensure_template
    mkdir -p "$DIR"
    [[ $(id -u) -eq 0 ]] && chown "$TEST_USER" "$DIR"
    as_user cp -a "$TEMPLATE/data" "$DIR/data"
    settings="-c fsync=off -c full_page_writes=off -c shared_buffers=16MB -c max_connections=50 -c min_wal_size=2MB -c max_wal_size=8MB"
    [[ ${AMAZONS_PG_DURABLE:-0} == 1 ]] &&
      settings="-c fsync=on -c full_page_writes=on -c shared_buffers=128MB -c max_connections=400 -c max_wal_size=1GB"
    if ! as_user "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w -t 30 -s \
        -o "-p $PORT -c listen_addresses=127.0.0.1 -k $DIR -c logging_collector=off $settings" \
        start >/dev/null 2>&1; then
      echo "PostgreSQL did not start on port $PORT:" >&2
      tail -20 "$DIR/log" >&2 || true
      exit 1
    fi
    if [[ -n $WATCH ]]; then
      # Stops the server if the test process dies without calling stop.
      (
        while kill -0 "$WATCH" 2>/dev/null && [[ -d $DIR/data ]]; do sleep 1; done
        [[ -d $DIR/data ]] && as_user "$BIN/pg_ctl" -D "$DIR/data" -m immediate -s stop
        rm -rf "$DIR"
      ) </dev/null >/dev/null 2>&1 &
      disown
    fi
    echo ready
    ;;
  stop)
    DIR=$2
    if [[ -d $DIR/data ]]; then
      as_user "$BIN/pg_ctl" -D "$DIR/data" -m immediate -s -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: $0 start DIR PORT [WATCH_PID] | stop DIR" >&2
    exit 2
    ;;
esac
