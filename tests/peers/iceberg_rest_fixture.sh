#!/usr/bin/env bash
# Iceberg's Java REST catalog test server (RESTCatalogAdapter + RESTCatalogServlet from
# iceberg-core's test jar over a JdbcCatalog; tests/peers/java/.../RestFixture.java) on
# 127.0.0.1, for interop tests of SQE's REST client.
#   tests/peers/iceberg_rest_fixture.sh start [PORT] [WAREHOUSE]  -> prints http://127.0.0.1:PORT
#   tests/peers/iceberg_rest_fixture.sh stop [PORT]
# PORT defaults to a free one; WAREHOUSE to a new temporary directory (the catalog is a SQLite
# file in it). Waits until GET /v1/config answers; the pid file is
# ${SQE_REST_FIXTURE_DIR:-/tmp}/sqe-iceberg-rest-fixture-PORT.pid and the log is beside it.
# CATALOG_* environment variables configure the backend catalog as in Iceberg's fixture.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cmd="${1:?usage: iceberg_rest_fixture.sh start|stop [PORT] [WAREHOUSE]}"
port="${2:-}"
state="${SQE_REST_FIXTURE_DIR:-/tmp}"
case "$cmd" in
  start)
    command -v java >/dev/null || { echo "iceberg_rest_fixture.sh: java not found" >&2; exit 1; }
    [[ -n "$port" ]] || port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "iceberg_rest_fixture.sh: port $port on 127.0.0.1 is already in use; pick another (or stop what listens there)" >&2
      exit 1
    fi
    warehouse="${3:-$(mktemp -d /tmp/sqe-rest-fixture-wh.XXXXXX)}"
    classpath="${SQE_JAVA_PEER_CLASSPATH:-$(bash "$here/java/build.sh")}"
    pidfile="$state/sqe-iceberg-rest-fixture-$port.pid"
    log="$state/sqe-iceberg-rest-fixture-$port.log"
    java -cp "$classpath" dev.sqe.peers.RestFixture "$port" "$warehouse" >"$log" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$pidfile"
    for _ in $(seq 1 600); do
      if ! kill -0 "$pid" 2>/dev/null; then
        cat "$log" >&2
        echo "iceberg_rest_fixture.sh: the server exited before answering (log above)" >&2
        rm -f "$pidfile"
        exit 1
      fi
      if curl -sf -o /dev/null "http://127.0.0.1:$port/v1/config"; then
        echo "http://127.0.0.1:$port"
        exit 0
      fi
      sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    rm -f "$pidfile"
    echo "iceberg_rest_fixture.sh: no answer from http://127.0.0.1:$port/v1/config in 60 s (log: $log)" >&2
    exit 1
    ;;
  stop)
    [[ -n "$port" ]] || { echo "iceberg_rest_fixture.sh: stop needs the PORT given to start" >&2; exit 2; }
    pidfile="$state/sqe-iceberg-rest-fixture-$port.pid"
    [[ -f "$pidfile" ]] || exit 0
    pid="$(cat "$pidfile")"
    if kill "$pid" 2>/dev/null; then
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
    ;;
  *) echo "iceberg_rest_fixture.sh: unknown command '$cmd' (start or stop)" >&2; exit 2 ;;
esac
