#!/usr/bin/env bash
# Builds the libFuzzer target for AggJSON and runs it for SECONDS (default 60) on the fixtures.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${TMPDIR:-/tmp}/agg-fuzz"
mkdir -p "$out/corpus"
cp "$root"/Fixtures/*/*.json "$out/corpus/"
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name AggJSON \
    "$root"/Sources/AggJSON/*.swift "$root/Tools/fuzz/FuzzJSON.swift" -o "$out/fuzz-json"
"$out/fuzz-json" -max_total_time="${1:-60}" -max_len=65536 "$out/corpus"
