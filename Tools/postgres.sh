#!/usr/bin/env bash
# A throwaway PostgreSQL 15 on loopback, for the tests of the PostgreSQL store (Tools/test runs it).
#
#   Tools/postgres.sh start   installs PostgreSQL when initdb is missing, makes a cluster in a new
#                             temporary folder, starts it on a free loopback port with a database
#                             `agg_test`, and prints two shell lines to eval:
#                               export AGG_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/agg_test
#                               export AGG_TEST_POSTGRES_DIR=/tmp/agg-postgres.XXXXXX
#   Tools/postgres.sh stop DIR  stops that server and deletes its folder.
#
# The server trusts every local connection (a test cluster that lives for one run, on 127.0.0.1
# only). Its output goes to DIR/server.log, never to this script's stdout: a server holding the
# test runner's stdout would keep CI waiting for it. initdb refuses to run as root, so as root it
# runs as the `postgres` user the Debian package creates. Exits 69 (EX_UNAVAILABLE) when
# PostgreSQL is missing and cannot be installed, 70 (EX_SOFTWARE) when it is there but initdb or
# the server fails, 64 on a usage error.
set -euo pipefail

bin="${AGG_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}"

as_owner() { # runs a command as the cluster's owner
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start() {
    if [ ! -x "$bin/initdb" ]; then
        echo "agg postgres: installing PostgreSQL 15 (initdb is missing)" >&2
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >&2; then
            echo "agg postgres: could not install PostgreSQL; as root, run: apt-get install postgresql" >&2
            exit 69
        fi
    fi
    dir="$(mktemp -d /tmp/agg-postgres.XXXXXX)"
    chmod 755 "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    if ! as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C \
        >"$dir/initdb.log" 2>&1; then
        echo "agg postgres: initdb failed; see $dir/initdb.log" >&2
        exit 70
    fi
    # A port nobody answers on; pg_ctl fails when another process takes it first, so try a few.
    for _ in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 40000))
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
        if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
            -o "-p $port -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c max_connections=200" \
            start </dev/null >"$dir/pg_ctl.log" 2>&1; then
            if ! "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres agg_test >>"$dir/pg_ctl.log" 2>&1; then
                echo "agg postgres: createdb failed; see $dir/pg_ctl.log" >&2
                as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop </dev/null >/dev/null 2>&1 || true
                exit 70
            fi
            echo "export AGG_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/agg_test"
            echo "export AGG_TEST_POSTGRES_DIR=$dir"
            return 0
        fi
    done
    echo "agg postgres: the server did not start; see $dir/server.log" >&2
    exit 70
}

stop() {
    local dir="$1"
    case "$dir" in /tmp/agg-postgres.*) ;; *)
        echo "agg postgres: refusing to stop '$dir' (not a folder this script made)" >&2
        exit 64
        ;;
    esac
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop </dev/null >/dev/null 2>&1 || true
    rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:?usage: Tools/postgres.sh stop DIR}" ;;
    *)
        echo "usage: Tools/postgres.sh start | stop DIR" >&2
        exit 64
        ;;
esac
