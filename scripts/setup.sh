#!/usr/bin/env bash
# Installs everything this project needs: `bash scripts/setup.sh`.
#
# 1. Ledger support (optional): hardhat-ledger's USB module compiles against libusb and libudev. As root
#    with apt, they are installed; otherwise the install goes on without Ledger support (npm drops the
#    optional dependency) and says so.
# 2. Chromium (optional for the plugin, needed by the report's browser tests): Debian's chromium package at
#    /usr/bin/chromium, which playwright-core drives (no browser is downloaded). As root with apt, it is
#    installed; otherwise the install goes on and says how to install it.
# 3. The npm packages, installed by npm running on Node 24.21.0 from the npm registry: Hardhat 3 needs
#    Node >= 22.13, and npm on an older Node silently skips the simulated network's native package.
set -euo pipefail
cd "$(dirname "$0")/.."

have_ledger_headers() {
  command -v dpkg >/dev/null 2>&1 && dpkg -s libusb-1.0-0-dev libudev-dev >/dev/null 2>&1
}

if ! have_ledger_headers; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing libusb-1.0-0-dev and libudev-dev (Debian) for Ledger support"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libusb-1.0-0-dev libudev-dev >/dev/null; }; then
      echo "setup: could not install them; continuing without Ledger support"
    fi
  else
    echo "setup: Ledger support needs libusb-1.0-0-dev and libudev-dev (sudo apt-get install libusb-1.0-0-dev libudev-dev);"
    echo "setup: continuing without it. Install them and run this script again to sign with a Ledger."
  fi
fi

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing chromium (Debian) for the report's browser tests"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }; then
      echo "setup: could not install chromium; test/e2e/report-browser.test.ts fails until it is installed"
    fi
  else
    echo "setup: the report's browser tests need Debian's chromium at /usr/bin/chromium (sudo apt-get install chromium);"
    echo "setup: continuing without it. Install it to run test/e2e/report-browser.test.ts."
  fi
fi

npx -y -p node@24.21.0 -- npm install --no-audit --no-fund

# 4. The build: the contracts (solc-js from npm, nothing downloaded) and the TypeChain bindings the tasks
#    import, so that `npx hardhat rehearse` runs on a fresh clone before any test has built them.
npx hardhat build

if [ -d node_modules/@nomicfoundation/hardhat-ledger ]; then
  echo "setup: done, with Ledger support"
else
  echo "setup: done, without Ledger support"
fi
