#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests, on 127.0.0.1 only, in its own directory.
#   tests/peers/postgres.sh start DIR   -> prints postgresql://sqe@127.0.0.1:PORT/sqe_test
#   tests/peers/postgres.sh stop DIR
# Uses Debian's postgresql package (scripts/install-deps.sh). As root the server runs as
# the `postgres` user (PostgreSQL refuses to run as root); DIR is handed to that user.
set -euo pipefail
cmd="${1:?usage: postgres.sh start|stop DIR}"
dir="${2:?usage: postgres.sh start|stop DIR}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[[ -x "$bin/initdb" ]] || { echo "postgres.sh: PostgreSQL is not installed (scripts/install-deps.sh)" >&2; exit 1; }
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$cmd" in
  start)
    mkdir -p "$dir"
    [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    as_owner "$bin/initdb" -D "$dir/data" -U sqe -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=100" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U sqe sqe_test
    echo "$port" >"$dir/port"
    echo "postgresql://sqe@127.0.0.1:$port/sqe_test"
    ;;
  stop)
    [[ -d "$dir/data" ]] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    ;;
  *) echo "postgres.sh: unknown command '$cmd' (start or stop)" >&2; exit 2 ;;
esac
