#!/usr/bin/env bash
# The live page end to end: the real daemon (from the jar, fixture mode, a free loopback port) whose counters
# the test moves, in real headless Chromium driven over the DevTools protocol (python3 standard library).
# Screenshots: exporter/target/browser/live-page.png (desktop) and live-page-phone.png.
# Ends with "browser: N passed, M failed"; exits non-zero on any failure.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
cd "$repo"
. exporter/scripts/deps.sh
if ! need_packages "the browser test" chromium:chromium python3:python3; then
  echo "browser: 0 passed, 1 failed (Debian package chromium is missing)"
  exit 1
fi
need_build_tools || { echo "browser: 0 passed, 1 failed (no JDK/Maven)"; exit 1; }
jar="$(suite_jar browser)" || exit 1
out=exporter/target/browser
rm -rf "$out"; mkdir -p "$out"
python3 "$here/live_page_test.py" "$jar" exporter/src/test/resources/fixtures/kernel "$out"
