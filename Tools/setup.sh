#!/usr/bin/env bash
# Installs the Debian packages agg builds against, when any is missing. Both README commands
# (Tools/agg and Tools/test) run it first, so a fresh machine needs no third step.
#
# As root it runs apt-get itself; otherwise through sudo when sudo is there; otherwise it prints
# the exact command to run and exits 69 (EX_UNAVAILABLE). A failed install also exits 69.
#
# Environment (for tests of this script): AGG_SETUP_PACKAGES replaces the package list;
# AGG_SETUP_PRIVILEGE=root|sudo|none replaces the detection of how to install.
set -euo pipefail

packages=(${AGG_SETUP_PACKAGES:-libcurl4-openssl-dev libsqlite3-dev libpq-dev zlib1g-dev libwslay-dev libssl-dev})

# `Tools/setup.sh --browser` (Tools/test only): instead, what the board page's browser tests
# need (and a Korean font for the page's Korean labels), so that building agg never pulls a browser
# (AGG_SETUP_BROWSER_PACKAGES replaces that list).
[ "${1:-}" = "--browser" ] && packages=(${AGG_SETUP_BROWSER_PACKAGES:-chromium chromium-driver python3-venv fonts-nanum})

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

privilege="${AGG_SETUP_PRIVILEGE:-}"
if [ -z "$privilege" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        privilege=root
    elif command -v sudo >/dev/null 2>&1; then
        privilege=sudo
    else
        privilege=none
    fi
fi

install="apt-get update && apt-get install -y ${missing[*]}"
case "$privilege" in
    root) prefix=() ;;
    sudo) prefix=(sudo) ;;
    *)
        echo "agg setup: missing Debian packages: ${missing[*]}; as root, run: $install" >&2
        exit 69
        ;;
esac

echo "agg setup: installing ${missing[*]}" >&2
if ! { "${prefix[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${prefix[@]}" apt-get install -y -qq "${missing[@]}"; } >&2; then
    echo "agg setup: could not install ${missing[*]}; as root, run: $install" >&2
    exit 69
fi
