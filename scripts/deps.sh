#!/bin/bash
# Install the tools kolo needs when they are missing. Arguments: command:package
# pairs, where a "command" that starts with / is a file the package installs
# (headers, specs). Uses apt-get (as root, or through sudo when available).
set -euo pipefail
have() { case $1 in /*) [ -e "$1" ] ;; *) command -v "$1" >/dev/null 2>&1 ;; esac; }
missing=()
for pair in "$@"; do
    cmd=${pair%%:*}; pkg=${pair#*:}
    have "$cmd" || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
pkgs=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
echo "deps: installing $pkgs"
if [ "$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else
    echo "deps: missing $pkgs and not root (no sudo): install them with apt-get" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $pkgs
for pair in "$@"; do
    cmd=${pair%%:*}
    have "$cmd" || { echo "deps: $cmd still missing after apt-get" >&2; exit 1; }
done
