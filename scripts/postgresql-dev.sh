#!/usr/bin/env bash
# Starts or stops a private PostgreSQL server for the PostgreSQL store's tests: a cluster in a
# temporary directory, listening only on a Unix socket in that directory, trust authentication.
#
#   scripts/postgresql-dev.sh start   # prints: export MODELGRAPH_POSTGRESQL_URL=...
#   scripts/postgresql-dev.sh stop
#
# Needs the Debian package `postgresql` (initdb, pg_ctl) and `libpq5`. As root, the server runs
# as the `postgres` user (initdb refuses root). MODELGRAPH_PG_DIR overrides the directory.
set -euo pipefail
dir="${MODELGRAPH_PG_DIR:-/tmp/modelgraph-postgresql}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin" ]; then
  echo "postgresql-dev: no PostgreSQL server found; install it: apt-get install postgresql" >&2
  exit 1
fi
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "${1:-}" in
  start)
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      mkdir -p "$dir"
      if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$dir"; fi
      as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log"
    fi
    # Swift Testing runs a suite's tests at once, two connections per open container (saves
    # and the listener), and contexts dropped with unsaved changes or after a prefetch keep
    # their container open until the process ends (ContextLifetimeTests): a test process
    # peaked at about 220 connections, so 1,000 leaves room.
    # Checkpoints at most every 30 minutes or 4 GB of WAL (the defaults are 5 minutes and
    # 1 GB): a checkpoint syncs every file written since the last, a burst of disk work that
    # slows the commits it overlaps (the benchmark's and the tests' schemas make thousands of
    # files). Durability is PostgreSQL's default: fsync, synchronous_commit and
    # full_page_writes stay on, so a commit returns once its WAL is on disk; the longer
    # interval only means a longer replay after a crash.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-k $dir -c listen_addresses='' -c max_connections=1000 -c checkpoint_timeout=30min -c max_wal_size=4GB" \
      start >/dev/null
    as_owner "$bin/psql" -h "$dir" -U postgres -d postgres -qtAc \
      "SELECT 1 FROM pg_database WHERE datname = 'modelgraph'" | grep -q 1 \
      || as_owner "$bin/createdb" -h "$dir" -U postgres modelgraph
    encoded="$(printf '%s' "$dir" | sed 's|/|%2F|g')"
    echo "export MODELGRAPH_POSTGRESQL_URL=postgresql://postgres@/modelgraph?host=$encoded"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    fi
    if [ "${2:-}" = "--remove" ]; then rm -rf "$dir"; fi
    ;;
  *)
    echo "usage: $0 start|stop [--remove]" >&2
    exit 2
    ;;
esac
