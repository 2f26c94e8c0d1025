#!/usr/bin/env bash
# Times a peer, ccxt (Python, from PyPI), and agg fetching the same Upbit BTC/KRW ticker from
# the same recordings on a loopback server; prints the median wall time and peak RSS of 7 runs
# of each whole process (ccxt also loads Upbit's market list first, as it always does).
#   pip install ccxt && Tools/bench/ccxt_peer.sh [path/to/agg]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
agg="${1:-$root/.build/release/agg}"
port=8767
python3 "$root/Tools/bench/fixture_server.py" "$root/Fixtures/upbit" "$port" &
server=$!
trap 'kill $server' EXIT
sleep 1
script="$(mktemp --suffix .py)"
cat > "$script" <<PY
import ccxt
exchange = ccxt.upbit()
exchange.urls['api'] = {'public': 'http://127.0.0.1:$port', 'private': 'http://127.0.0.1:$port'}
print(exchange.fetch_ticker('BTC/KRW')['last'])
PY
python3 "$script"
measure() {
    local label=$1; shift
    local log; log=$(mktemp)
    for _ in 1 2 3 4 5 6 7; do /usr/bin/time -o "$log" -a -f "%e %M" "$@" >/dev/null; done
    printf '%-6s wall %6.0f ms   peak RSS %5.1f MB\n' "$label" \
        "$(awk '{print $1*1000}' "$log" | sort -n | sed -n 4p)" "$(awk '{print $2/1024}' "$log" | sort -n | sed -n 4p)"
}
measure ccxt python3 "$script"
AGG_HOME="$(mktemp -d)" AGG_UPBIT_URL="http://127.0.0.1:$port" measure agg "$agg" quote BTC --exchange upbit --format json
