#!/usr/bin/env bash
# Times a peer, ccxt (Python, from PyPI), and agg on the same recordings served on a loopback
# server, whole process, and prints the median wall time, CPU time (user + system) and peak RSS
# of RUNS runs of each (default 11), run in pairs, and the median of the pairs' ratios:
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
# Runs a peer's command and agg's in pairs, RUNS pairs, the order alternating from pair to pair
# so that a slower moment of a shared machine weighs on both, and prints each one's median wall
# time, CPU time (user + system, from wait4) and peak RSS (GNU time's %M, in separate runs, as in
# agg-bench), then the median of the pairs' ratios (peer / agg), wall and CPU.
#   measure.py RUNS PEER_LABEL AGG_LABEL PEER_COMMAND... -- AGG_COMMAND...
# agg's command runs with the environment variables given before it as NAME=value words.
import os, statistics, subprocess, sys, tempfile, time
runs, labels = int(sys.argv[1]), sys.argv[2:4]
rest = sys.argv[4:]
split = rest.index('--')
peer, agg = rest[:split], rest[split + 1:]
agg_env = dict(os.environ)
while agg and '=' in agg[0] and not agg[0].startswith('/'):
    name, value = agg.pop(0).split('=', 1)
    agg_env[name] = value
commands = [(peer, dict(os.environ)), (agg, agg_env)]
null = os.open(os.devnull, os.O_WRONLY)
def run(command, env):
    start = time.perf_counter()
    pid = os.posix_spawn(command[0], command, env, file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{command}: exit status {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime
def peak(command, env):
    with tempfile.NamedTemporaryFile() as report:
        subprocess.run(['/usr/bin/time', '-f', '%M', '-o', report.name] + command, env=env, stdout=null, check=True)
        return int(open(report.name).read().split()[-1]) / 1024
times = [[], []]
for pair in range(runs):
    order = [0, 1] if pair % 2 == 0 else [1, 0]
    for which in order:
        times[which].append(run(*commands[which]))
peaks = [[peak(*commands[which]) for _ in range(min(runs, 5))] for which in (0, 1)]
for which in (0, 1):
    walls = [wall for wall, _ in times[which]]
    cpus = [cpu for _, cpu in times[which]]
    print(f"{labels[which]:<28} wall {statistics.median(walls) * 1000:7.1f} ms   CPU {statistics.median(cpus) * 1000:7.1f} ms"
          f"   peak RSS {statistics.median(peaks[which]):5.1f} MB")
wall_ratio = statistics.median(p[0] / a[0] for p, a in zip(*times))
cpu_ratio = statistics.median(p[1] / a[1] for p, a in zip(*times))
print(f"{'  agg faster, paired':<28} wall {wall_ratio:7.1f} ×    CPU {cpu_ratio:7.1f} ×")
PY
echo "median of $runs paired runs"
python3 "$work/measure.py" "$runs" "ccxt fetch_ticker (Upbit)" "agg quote BTC -e upbit" \
    "$python" "$work/upbit.py" -- \
    AGG_HOME="$work/home" AGG_UPBIT_URL="http://127.0.0.1:$upbit_port" \
    "$agg" quote BTC --exchange upbit --format json
python3 "$work/measure.py" "$runs" "ccxt fetch_tickers (Bithumb)" "agg quote --all -e bithumb" \
    "$python" "$work/bithumb.py" -- \
    AGG_HOME="$work/home" AGG_BITHUMB_URL="http://127.0.0.1:$bithumb_port" \
    "$agg" quote --all --exchange bithumb --format json
