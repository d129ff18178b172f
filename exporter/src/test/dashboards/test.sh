#!/usr/bin/env bash
# Proves the Grafana dashboards against a real Prometheus.
#
# 1. Structure of every dashboard JSON (check_dashboards.py): ids, units, variables, ${datasource}, uids,
#    $__rate_interval, links; and that the checker catches each of those mistakes in a broken copy.
# 2. Three headroom exporters in fixture mode on 127.0.0.1 (advance.py moves their counters each second):
#      busy    kernel peer,    Network net-a, site site-1, ~92 Mbit/s download against ceilings set to
#              10 Mbit/s: a 5-minute rate over seconds of history is diluted (rate divides by the whole
#              window), so only a peer far over its ceiling puts HeadroomPeerNearCeiling/AtCeiling into
#              pending within ~30 s, which the alert panels need
#      standby userspace peer, Network net-a, site site-1, idle
#      single  kernel peer,    Network net-b, site site-2, light load, no standby
#    busy and single learn their cost per packet after 5 s of load (the fleet's CPU-against-the-reference panel).
#    They listen on 127.0.0.2, .3 and .4, one port, as NetBird's routing peers do at their overlay IPs.
#    A real `headroom discover` reads a stand-in NetBird management API (exporter/src/test/discover/
#    netbird_standin.py, answers written by alerts/multisite/netbird_fleet.py) that lists them as the routers
#    of net-a (busy metric 100, standby 200) and net-b (single, alone), for the "Networks from NetBird" panels.
#    A real Prometheus (scrape and rule evaluation every 1s) scrapes the three and discover with
#    alerts/headroom-rules.yml, on a TSDB backfilled with two days of net-a's recorded daily peak (the forecast
#    panel needs a day).
# 3. Every panel query and every variable query, variables substituted ($instance = the busy peer,
#    $__rate_interval = 15s), must return data. A failure names the dashboard, panel and query.
# 4. The NetBird tables answer right: active router busy (net-a) and single (net-b), net-b breaks the
#    single-router rule, net-a is past one peer (busy at 9x its ceiling), every router scraped and up.
#
# Usage: bash exporter/src/test/dashboards/test.sh       (from anywhere; builds the jar if it is missing)
# Needs: java 17, python3, prometheus and promtool (Debian package: prometheus).
# Ends with "dashboards: N passed, M failed"; exits non-zero when anything failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
cd "$root"

for tool in prometheus:prometheus promtool:prometheus java:default-jre-headless python3:python3; do
  cmd=${tool%%:*}; pkg=${tool#*:}
  if ! command -v "$cmd" >/dev/null 2>&1; then
    echo "dashboards: $cmd not found; install the Debian package: apt-get install --no-install-recommends $pkg" >&2
    echo "dashboards: 0 passed, 1 failed"
    exit 1
  fi
done

started=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/headroom-dashboards.XXXXXX")
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

jar=exporter/target/headroom.jar
if [ ! -f "$jar" ]; then
  echo "# building $jar"
  mvn -q -B -ntp package -Dmaven.test.skip=true >"$tmp/mvn.log" 2>&1 || {
    echo "dashboards: building the exporter failed:" >&2; tail -20 "$tmp/mvn.log" >&2
    echo "dashboards: 0 passed, 1 failed"; exit 1; }
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# One port free on every peer address (127.0.0.2-4): discover serves every target at --discover.target-port.
peer_port=$(python3 -c '
import socket
while True:
    s = socket.socket(); s.bind(("127.0.0.2", 0)); p = s.getsockname()[1]
    try:
        for a in ("127.0.0.3", "127.0.0.4"):
            socket.socket().bind((a, p))
        print(p); break
    except OSError:
        continue')
wait_http() { # wait_http URL PID SECONDS
  local i
  for i in $(seq 1 $(( $3 * 2 ))); do
    kill -0 "$2" 2>/dev/null || return 1
    python3 -c "import urllib.request; urllib.request.urlopen('$1', timeout=2)" 2>/dev/null && return 0
    sleep 0.5
  done
  return 1
}

# name address fixture network site extra-flags...
start_peer() {
  local name=$1 address=$2 fixture=$3 network=$4 site=$5; shift 5
  cp -r "exporter/src/test/resources/fixtures/$fixture" "$tmp/$name"
  java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" serve \
    --web.listen-address="$address:$peer_port" --path.sysfs="$tmp/$name/sys" --path.procfs="$tmp/$name/proc" \
    --sample.interval=1s --underlay.line-rate=10gbit --labels.network="$network" --labels.site="$site" "$@" \
    >"$tmp/$name.log" 2>&1 &
  pids+=($!)
  eval "${name}_addr=$address:$peer_port ${name}_pid=$!"
}

# The busy peer's census reads a stand-in `wg` (two tunnels, one relayed) for the panels of who is on the peer.
mkdir -p "$tmp/bin" && cp "$here/wg-stand-in.sh" "$tmp/bin/wg"
# busy and single learn their cost per packet within seconds, for the fleet's "CPU against the reference" panel.
PATH="$tmp/bin:$PATH" start_peer busy 127.0.0.2 kernel net-a site-1 --ceiling.download=10mbit --ceiling.upload=10mbit \
  --ceiling.cost-after=5s
start_peer standby 127.0.0.3 userspace net-a site-1
start_peer single 127.0.0.4 kernel net-b site-2 --ceiling.cost-after=5s
# busy: 11.5 MB/s down (9x its ceiling), 4 MB/s up; single: 2 MB/s down, 1 MB/s up; standby idle.
python3 "$here/advance.py" "$tmp/busy:11500000:4000000" "$tmp/single:2000000:1000000" "$tmp/standby:0:0" \
  >"$tmp/advance.log" 2>&1 &
pids+=($!)
for name in busy standby single; do
  addr_var=${name}_addr pid_var=${name}_pid
  if ! wait_http "http://${!addr_var}/-/ready" "${!pid_var}" 60; then
    echo "dashboards: exporter '$name' did not become ready on ${!addr_var}; its log:" >&2
    tail -20 "$tmp/$name.log" >&2
    echo "dashboards: 0 passed, 1 failed"; exit 1
  fi
done

# NetBird's inventory: the stand-in management API and a real headroom discover reading it.
python3 alerts/multisite/netbird_fleet.py --out "$tmp/netbird-api" \
  --peer busy 127.0.0.2 headroom 1 --peer standby 127.0.0.3 headroom 1 --peer single 127.0.0.4 headroom 1 \
  --router net-a busy 100 1 --router net-a standby 200 1 --router net-b single 100 1 >/dev/null
head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$tmp/netbird-token"
api_port=$(free_port) discover_port=$(free_port)
python3 exporter/src/test/discover/netbird_standin.py --fixtures "$tmp/netbird-api" --token-file "$tmp/netbird-token" \
  --port "$api_port" >"$tmp/netbird-api.log" 2>&1 &
pids+=($!)
java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" discover --netbird.api-url="http://127.0.0.1:$api_port" \
  --netbird.token-file="$tmp/netbird-token" --web.listen-address="127.0.0.1:$discover_port" \
  --discover.target-port="$peer_port" --netbird.refresh-interval=5s >"$tmp/discover.log" 2>&1 &
discover_pid=$!
pids+=($discover_pid)
if ! wait_http "http://127.0.0.1:$discover_port/-/ready" "$discover_pid" 60; then
  echo "dashboards: headroom discover did not become ready on 127.0.0.1:$discover_port; its log:" >&2
  tail -20 "$tmp/discover.log" >&2
  echo "dashboards: 0 passed, 1 failed"; exit 1
fi

python3 "$here/backfill.py" "$tmp/history.om" net-a
if ! promtool tsdb create-blocks-from openmetrics "$tmp/history.om" "$tmp/data" >"$tmp/backfill.log" 2>&1; then
  echo "dashboards: backfill failed:" >&2; tail -5 "$tmp/backfill.log" >&2
  echo "dashboards: 0 passed, 1 failed"; exit 1
fi

prom_port=$(free_port)
cat >"$tmp/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - "$root/alerts/headroom-rules.yml"
scrape_configs:
  - job_name: headroom
    static_configs:
      - targets: ["$busy_addr", "$standby_addr", "$single_addr"]
  - job_name: headroom_discover
    static_configs:
      - targets: ["127.0.0.1:$discover_port"]
YAML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
  --storage.tsdb.retention.time=30d --web.listen-address="127.0.0.1:$prom_port" \
  --log.level=warn >"$tmp/prometheus.log" 2>&1 &
prom_pid=$!
pids+=($prom_pid)
if ! wait_http "http://127.0.0.1:$prom_port/-/ready" "$prom_pid" 60; then
  echo "dashboards: prometheus did not become ready on 127.0.0.1:$prom_port; its log:" >&2
  tail -20 "$tmp/prometheus.log" >&2
  echo "dashboards: 0 passed, 1 failed"; exit 1
fi
echo "# exporters busy=$busy_addr standby=$standby_addr single=$single_addr, discover 127.0.0.1:$discover_port," \
     "prometheus 127.0.0.1:$prom_port"

python3 "$here/check_dashboards.py" --url "http://127.0.0.1:$prom_port" --instances 3 \
  --instance "$busy_addr" --network net-a --site site-1 --timeout "${DASHBOARDS_TIMEOUT:-120}" \
  --netbird-active net-a=busy --netbird-active net-b=single --netbird-single net-b --netbird-past-one-peer net-a \
  --netbird-routers busy,standby,single \
  dashboards/*.json
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "# prometheus log (last lines):"; tail -5 "$tmp/prometheus.log"
  echo "# rules not healthy, and active alerts:"
  python3 - "http://127.0.0.1:$prom_port" <<'PY'
import json, sys, urllib.request
url = sys.argv[1]
for g in json.load(urllib.request.urlopen(url + "/api/v1/rules"))["data"]["groups"]:
    for r in g["rules"]:
        if r.get("health") != "ok":
            print(f"#   {g['name']} / {r['name']}: {r.get('health')} {r.get('lastError', '')}")
for a in json.load(urllib.request.urlopen(url + "/api/v1/alerts"))["data"]["alerts"]:
    print(f"#   {a['state']} {a['labels']}")
PY
fi
# DASHBOARDS_HOLD=SECONDS keeps everything running that long after the checks, to look at it by hand.
if [ -n "${DASHBOARDS_HOLD:-}" ]; then
  echo "# holding ${DASHBOARDS_HOLD}s: prometheus http://127.0.0.1:$prom_port"; sleep "$DASHBOARDS_HOLD"
fi
echo "# runtime $(( $(date +%s) - started ))s"
exit "$rc"
