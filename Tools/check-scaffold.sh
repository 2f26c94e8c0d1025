#!/usr/bin/env bash
# Proves that Tools/scaffold-adapter.sh makes an adapter that builds and passes its tests, without
# touching this checkout: copies the package (everything but .build, .swiftpm and .git) to a
# temporary folder, scaffolds an adapter there, builds only the new test target and what it
# depends on, then runs the new tests.
#
# Usage: Tools/check-scaffold.sh [--name Name] [--keep]
set -euo pipefail

name="ScaffoldCheck"
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --name) [ $# -ge 2 ] || { echo "usage: $0 [--name Name] [--keep]" >&2; exit 64; }; name="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        *) echo "usage: $0 [--name Name] [--keep]" >&2; exit 64 ;;
    esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/agg-scaffold-check.XXXXXX")"
if [ "$keep" -eq 1 ]; then
    echo "check-scaffold: working in $work (kept)"
else
    trap 'rm -rf "$work"' EXIT
fi

seconds() { date +%s; }
start=$(seconds)
(cd "$root" && tar --exclude=./.build --exclude=./.swiftpm --exclude=./.git -cf - .) | (cd "$work" && tar -xf -)

"$work/Tools/scaffold-adapter.sh" --name "$name" --root "$work" > /dev/null
cd "$work"

swift build --target "${name}Tests" 2>&1 | tail -n 3
built=$(seconds)

output="$(swift test --filter "${name}Tests" 2>&1)" || { echo "$output" | tail -n 40; exit 1; }
tested=$(seconds)
summary="$(echo "$output" | grep -E 'Test run with [1-9][0-9]* tests? .*passed' || true)"
[ -n "$summary" ] || { echo "$output" | tail -n 40; echo "check-scaffold: no ${name}Tests ran" >&2; exit 1; }

echo "$summary"
echo "check-scaffold: $name built in $((built - start)) s, its tests ran in $((tested - built)) s"
