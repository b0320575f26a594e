#!/usr/bin/env bash
# Make sure Debian's Chromium is at /usr/bin/chromium for the Board lab's end-to-end test.
# Idempotent: does nothing when it is already there. Needs root (CI and developer machines
# run as root); the browser comes from Debian's own packages, never from a browser download.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_browser: $CHROMIUM is missing and apt-get is not available; install Debian's 'chromium' package by hand" >&2
    exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "ensure_browser: $CHROMIUM is missing and installing it needs root: run 'apt-get install -y chromium' as root" >&2
    exit 1
fi

echo "ensure_browser: installing chromium with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; }; then
    echo "ensure_browser: 'apt-get install chromium' failed; the e2e test (pytest -m e2e) cannot run without $CHROMIUM" >&2
    exit 1
fi

if [ ! -x "$CHROMIUM" ]; then
    echo "ensure_browser: chromium was installed but $CHROMIUM is not there" >&2
    exit 1
fi
