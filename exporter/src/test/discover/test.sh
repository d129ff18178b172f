#!/usr/bin/env bash
# headroom discover against a real Prometheus: the jar's `discover` reads a stand-in NetBird management API
# (netbird_standin.py, the fixtures in exporter/src/test/resources/fixtures/netbird-api, every peer at 127.0.0.1),
# Debian's prometheus finds the routing peers through http_sd_configs at /sd with the README's relabelling, and
# scrapes one real `headroom serve` (fixture mode) as each discovered target. Checks through Prometheus's API that
# every Network NetBird lists is scraped under its NetBird name, that NetBird's name wins over the exporter's own
# --labels.network, and that the inventory metrics join the scraped targets as the rules join them.
# Ends with "discover: N passed, M failed"; exits non-zero on any failure. About a minute.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
cd "$repo"
. exporter/scripts/deps.sh
if ! need_packages "the discover test" prometheus:prometheus python3:python3 openssl:openssl; then
  echo "discover: 0 passed, 1 failed (Debian packages missing)"
  exit 1
fi
need_build_tools || { echo "discover: 0 passed, 1 failed (no JDK/Maven)"; exit 1; }
jar="$(suite_jar discover)" || exit 1
work="$(mktemp -d /tmp/headroom-discover.XXXXXX)"
if timeout 240 python3 "$here/discover_prometheus.py" "$jar" "$work"; then
  rm -rf "$work"
else
  rc=$?
  echo "discover: logs kept in $work"
  [ "$rc" -eq 124 ] && echo "discover: 0 passed, 1 failed (timed out after 240 s)"
  exit 1
fi
