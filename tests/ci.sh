#!/usr/bin/env bash
# Installs what the suite needs on a fresh Debian machine with Node 20 (bun from npm, Chromium
# from apt) and runs the whole test suite: unit, API and Playwright end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium >/dev/null
fi

npx -y bun@1.4.4 install --frozen-lockfile
exec node_modules/.bin/bun tests/run.ts
