#!/usr/bin/env bash
# Reliability of the real daemon (from the jar, fixture mode, free loopback ports, the service's JVM flags):
# 64 hammering connections with a fresh-scrape latency, log-size and RSS check, 200 idle sockets, the
# connection cap, a wrong-password flood and the unknown-vs-known user timing, an XSS probe, CSP/nosniff,
# 405s, the refusal counters by reason after each of those, SIGHUP reloads (valid and invalid), SIGTERM's
# exit status, an expired certificate; then `headroom discover` (against the stand-in NetBird API): 64
# connections on /sd, hostile requests, basic auth and TLS.
# Ends with "reliability: N passed, M failed"; exits non-zero on any failure. About 2-3 minutes.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
cd "$repo"
. exporter/scripts/deps.sh
if ! need_packages "the reliability test" wrk:wrk python3:python3 openssl:openssl; then
  echo "reliability: 0 passed, 1 failed (Debian packages missing)"
  exit 1
fi
need_build_tools || { echo "reliability: 0 passed, 1 failed (no JDK/Maven)"; exit 1; }
jar="$(suite_jar reliability)" || exit 1
work="$(mktemp -d /tmp/headroom-reliability.XXXXXX)"
# Logs stay for a failed run; a passing run cleans up.
if timeout 360 python3 "$here/reliability.py" "$jar" exporter/src/test/resources/fixtures/kernel "$work" \
    systemd/headroom.service; then
  rm -rf "$work"
else
  rc=$?
  echo "reliability: daemon logs kept in $work"
  [ "$rc" -eq 124 ] && echo "reliability: 0 passed, 1 failed (timed out after 360 s)"
  exit 1
fi
