#!/bin/sh
# Regenerates docs/commands.md from the command specs (the same ones --help, usage lines and
# the completion scripts come from), docs/configuration.md's table of settings (SettingsTests, from
# the `Settings` declarations), and the command samples marked
# `<!-- generated: agg ... (Tools/update-docs.sh) -->` in docs/*.md (DocSamplesTests). The tests
# fail while a committed file is stale; this script runs them in writing mode.
set -eu
cd "$(dirname "$0")/.."
AGG_UPDATE_DOCS=1 swift test --filter "CommandReferenceTests|DocSamplesTests|SettingsTests" "$@"
git --no-pager diff --stat -- docs/
