#!/bin/sh
# Regenerates docs/commands.md from the command specs (the same ones --help, usage lines and
# the completion scripts come from). The test "docs/commands.md is generated from the specs"
# fails while the committed file is stale; this script runs that test in writing mode.
set -eu
cd "$(dirname "$0")/.."
AGG_UPDATE_DOCS=1 swift test --filter "CommandReferenceTests" "$@"
git --no-pager diff --stat -- docs/commands.md
