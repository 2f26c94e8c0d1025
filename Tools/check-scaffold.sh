#!/usr/bin/env bash
# Proves that Tools/scaffold-adapter.sh adds a venue that passes the whole suite with no other
# edit, without touching this checkout: copies the package (everything but .build, .swiftpm and
# .git) to a temporary folder, scaffolds a venue there, checks that it touched only the new
# venue's files, Package.swift and Sources/AggVenues/StandardVenues.swift, then builds and runs
# every test of the copy (the contract checker over every venue, the CLI tests, the new venue's
# own tests).
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
id="$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]')"

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/agg-scaffold-check.XXXXXX")"
if [ "$keep" -eq 1 ]; then
    echo "check-scaffold: working in $work (kept)"
else
    trap 'rm -rf "$work"' EXIT
fi

seconds() { date +%s; }
start=$(seconds)
mkdir "$work/before" "$work/package"
(cd "$root" && tar --exclude=./.build --exclude=./.swiftpm --exclude=./.git -cf - .) | (cd "$work/before" && tar -xf -)
(cd "$work/before" && tar -cf - .) | (cd "$work/package" && tar -xf -)

"$work/package/Tools/scaffold-adapter.sh" --name "$name" --root "$work/package" > /dev/null

# What the scaffold touched: new files and changed ones, relative to the package root.
touched="$(cd "$work" && { diff -rq before package || true; } | sed -e "s|^Only in package/\(.*\): \(.*\)$|added \1/\2|" \
    -e "s|^Only in package: \(.*\)$|added \1|" -e "s|^Files before/\(.*\) and package/.* differ$|changed \1|" | sort)"
echo "check-scaffold: the scaffold touched"
echo "$touched" | sed 's/^/  /'
expected="$(printf '%s\n' "added Fixtures/$id" "added Plugins/$name" \
    "changed Package.swift" "changed Sources/AggVenues/StandardVenues.swift" | sort)"
if [ "$touched" != "$expected" ]; then
    echo "check-scaffold: expected exactly:" >&2
    echo "$expected" | sed 's/^/  /' >&2
    exit 1
fi

cd "$work/package"
# The copy's end-to-end tests drive its own binary.
unset AGG_BINARY
# Every step has a deadline, so that a hang in the copy fails the check with a message instead of
# holding CI until its own limit: the build (about 3 minutes on two quiet cores) gets 25, each
# half of the suite (under a minute) 10.
within() { # within MINUTES command...: the command, killed when it overruns
    local minutes="$1"; shift
    timeout --kill-after=30s "${minutes}m" "$@"
}
status=0
build="$(within 25 swift build --build-tests 2>&1)" || status=$?
if [ "$status" -ne 0 ]; then
    tail -n 40 <<< "$build"
    [ "$status" -eq 124 ] && echo "check-scaffold: the copy's build did not finish in 25 minutes" >&2
    echo "check-scaffold: the copy does not build" >&2
    exit 1
fi
tail -n 1 <<< "$build"
built=$(seconds)
echo "check-scaffold: the copy built in $((built - start)) s; running its suite"

# A new venue is listed by `agg exchanges` and `agg config show`, whose output docs/usage.md and
# docs/configuration.md show as generated samples: regenerate them, as docs/adding-a-venue.md
# tells a developer to (Tools/update-docs.sh), so that the suite checks the copy's own docs.
docs="$(within 10 env AGG_UPDATE_DOCS=1 swift test --skip-build --filter DocSamplesTests 2>&1)" || true
grep -qE 'Test run with [1-9]' <<< "$docs" || { tail -n 20 <<< "$docs"; echo "check-scaffold: could not regenerate the doc samples" >&2; exit 1; }

# As Tools/test runs it: everything but the wall-clock suites, then those on their own. The
# browser's suites (Tools/alone-suites) are left out: they test serve's page, which a new venue
# does not change, and Tools/test runs them on the real tree.
timing="$(cat Tools/timing-suites)"
alone="$(cat Tools/alone-suites)"
failed() { # failed OUTPUT: the copy's failures, then the verdict (a run killed at its deadline says so)
    grep -E '✘|error:' <<< "$1" | head -n 40 || true
    tail -n 5 <<< "$1"
    echo "check-scaffold: the copy's suite failed" >&2
    exit 1
}
output="$(within 10 swift test --skip-build --skip "$timing|$alone" 2>&1)" || failed "$output"
timed="$(within 10 swift test --skip-build --filter "$timing" 2>&1)" || failed "$timed"
tested=$(seconds)
# Here-strings, not `echo | grep -q`: with pipefail, grep -q leaving early would fail the pipe.
summary="$(grep -E 'Test run with [1-9][0-9]* tests? .*passed' <<< "$output" || true)"
timedSummary="$(grep -E 'Test run with [1-9][0-9]* tests? .*passed' <<< "$timed" || true)"
{ [ -n "$summary" ] && [ -n "$timedSummary" ]; } || failed "$output$timed"
for test in "registration → $id to \"declared capabilities answer" "registration → $id to \"each case"; do
    grep -qF -- "$test" <<< "$output" || { echo "check-scaffold: no test '$test' ran" >&2; exit 1; }
done

echo "$summary"
echo "$timedSummary"
echo "check-scaffold: $name built in $((built - start)) s, the whole suite ran in $((tested - built)) s"
