#!/usr/bin/env bash
# Fleet test: 1,000 synthetic peers in 50 Networks, backfilled into a throwaway TSDB, evaluated by a real
# Prometheus on 127.0.0.1 with headroom-rules.yml. Checks that exactly the Networks made overloaded or
# left without standby are flagged, and measures each rule group's evaluation time.
#
# Usage: bash alerts/fleet/fleet-test.sh [peers] [networks]
# Needs: python3, promtool, prometheus (Debian package: prometheus).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
rules=$(cd "$here/.." && pwd)/headroom-rules.yml
peers=${1:-1000}
networks=${2:-50}

for tool in python3 promtool prometheus; do
  command -v "$tool" >/dev/null || { echo "fleet-test: $tool not found (Debian: apt-get install prometheus)" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/headroom-fleet.XXXXXX")
prom_pid=""
cleanup() {
  if [ -n "$prom_pid" ] && kill -0 "$prom_pid" 2>/dev/null; then
    kill "$prom_pid" 2>/dev/null || true
    wait "$prom_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Data ends now: Prometheus refuses samples older than its newest block, so the blocks must lie in the past
# and the rules must run within the 5-minute lookback that follows.
python3 "$here/gen_fleet.py" --out "$tmp/fleet.om" --expect "$tmp/expected.json" \
  --peers "$peers" --networks "$networks"
promtool tsdb create-blocks-from openmetrics "$tmp/fleet.om" "$tmp/data" >"$tmp/backfill.log" 2>&1 \
  || { echo "fleet-test: backfill failed:" >&2; tail -5 "$tmp/backfill.log" >&2; exit 1; }
rm -f "$tmp/fleet.om"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$tmp/prometheus.yml" <<YAML
global:
  evaluation_interval: 15s
rule_files:
  - "$rules"
YAML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
  --storage.tsdb.retention.time=30d --web.listen-address="127.0.0.1:$port" \
  --log.level=warn >"$tmp/prometheus.log" 2>&1 &
prom_pid=$!

ready=""
for _ in $(seq 1 60); do
  if ! kill -0 "$prom_pid" 2>/dev/null; then break; fi
  if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/-/ready', timeout=2)" 2>/dev/null; then
    ready=1; break
  fi
  sleep 0.5
done
if [ -z "$ready" ]; then
  echo "fleet-test: prometheus did not become ready on 127.0.0.1:$port; its log:" >&2
  tail -20 "$tmp/prometheus.log" >&2
  exit 1
fi

python3 "$here/check_fleet.py" --url "http://127.0.0.1:$port" --expect "$tmp/expected.json" --pid "$prom_pid"
