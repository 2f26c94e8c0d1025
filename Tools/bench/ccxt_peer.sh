#!/usr/bin/env bash
# Times a peer, ccxt (Python, from PyPI), and agg on the same recordings served on a loopback
# server, whole process, and prints the median wall time, CPU time (user + system) and peak RSS
# of RUNS runs of each (default 11):
#   1. one ticker: ccxt's fetch_ticker('BTC/KRW') on Upbit (it loads Upbit's market list first,
#      as it always does) against `agg quote BTC --exchange upbit`;
#   2. a whole market: ccxt's fetch_tickers() on Bithumb's 480-coin ALL_KRW answer (it loads the
#      markets from the same answer first) against `agg quote --all --exchange bithumb`.
# ccxt is limited to Bithumb's KRW market, the one agg's --all asks for (ccxt's parser also
# fails on the recorded ALL_BTC answer, whose ADA entry is an empty string).
#   pip install ccxt && Tools/bench/ccxt_peer.sh [path/to/agg] [RUNS]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
agg="${1:-$root/.build/release/agg}"
runs="${2:-11}"
upbit_port=8767
bithumb_port=8768
# The interpreter itself, not a version manager's shim script, so that only Python is timed.
python="$(python3 -c 'import sys; print(sys.executable)')"
python3 "$root/Tools/bench/fixture_server.py" "$root/Fixtures/upbit" "$upbit_port" &
upbit_server=$!
python3 "$root/Tools/bench/fixture_server.py" "$root/Fixtures/bithumb" "$bithumb_port" &
bithumb_server=$!
work="$(mktemp -d)"
trap 'kill $upbit_server $bithumb_server; rm -rf "$work"' EXIT
sleep 1

cat > "$work/upbit.py" <<PY
import ccxt
exchange = ccxt.upbit()
exchange.urls['api'] = {'public': 'http://127.0.0.1:$upbit_port', 'private': 'http://127.0.0.1:$upbit_port'}
print(exchange.fetch_ticker('BTC/KRW')['last'])
PY
cat > "$work/bithumb.py" <<PY
import ccxt
# Version 1 of Bithumb's API, the one that serves ALL_KRW (ccxt 4.5 defaults to version 2).
exchange = ccxt.bithumb({'options': {'fetchMarkets': {'generation': 1}, 'fetchTickers': {'generation': 1}}})
exchange.options['quoteCurrencies'] = {'KRW': exchange.options['quoteCurrencies']['KRW']}
exchange.urls['api'] = {'public': 'http://127.0.0.1:$bithumb_port', 'private': 'http://127.0.0.1:$bithumb_port'}
tickers = exchange.fetch_tickers()
print(len(tickers), tickers['BTC/KRW']['last'])
PY
python3 "$work/upbit.py"
python3 "$work/bithumb.py"

cat > "$work/measure.py" <<'PY'
# Runs a command RUNS times and prints the median wall time, CPU time (user + system, from
# wait4, in microseconds) and peak RSS (GNU time's %M, in separate runs, as in agg-bench).
import os, statistics, subprocess, sys, tempfile, time
label, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
walls, cpus, peaks = [], [], []
null = os.open(os.devnull, os.O_WRONLY)
for _ in range(runs):
    start = time.perf_counter()
    pid = os.posix_spawn(command[0], command, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
    _, status, usage = os.wait4(pid, 0)
    walls.append(time.perf_counter() - start)
    cpus.append(usage.ru_utime + usage.ru_stime)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{label}: exit status {os.waitstatus_to_exitcode(status)}")
    with tempfile.NamedTemporaryFile() as report:
        subprocess.run(['/usr/bin/time', '-f', '%M', '-o', report.name] + command, stdout=null, check=True)
        peaks.append(int(open(report.name).read().split()[-1]) / 1024)
print(f"{label:<28} wall {statistics.median(walls) * 1000:7.1f} ms   CPU {statistics.median(cpus) * 1000:7.1f} ms"
      f"   peak RSS {statistics.median(peaks):5.1f} MB")
PY
measure() {
    local label=$1; shift
    python3 "$work/measure.py" "$label" "$runs" "$@"
}
echo "median of $runs runs"
measure "ccxt fetch_ticker (Upbit)" "$python" "$work/upbit.py"
AGG_HOME="$work/home" AGG_UPBIT_URL="http://127.0.0.1:$upbit_port" \
    measure "agg quote BTC -e upbit" "$agg" quote BTC --exchange upbit --format json
measure "ccxt fetch_tickers (Bithumb)" "$python" "$work/bithumb.py"
AGG_HOME="$work/home" AGG_BITHUMB_URL="http://127.0.0.1:$bithumb_port" \
    measure "agg quote --all -e bithumb" "$agg" quote --all --exchange bithumb --format json
