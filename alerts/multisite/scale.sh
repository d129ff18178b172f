#!/usr/bin/env bash
# Scale figures of the multi-site topology, measured on this machine:
#   - series per peer: a real headroom daemon on the kernel fixture tree (4 cores): everything it serves,
#     and what a site Prometheus ships to the centre with the keep rule of alerts/multisite/test.sh
#     (`up|headroom_.*`);
#   - samples per second per 1,000 peers at a 15 s scrape, from that count (what one site replica writes;
#     an HA pair writes twice that before dedup);
#   - rule evaluation time on the central store: gen_fleet.py's fleet (1,000 and 10,000 peers, 20 per Network,
#     30 minutes of history) imported into a fresh VictoriaMetrics, vmalert evaluating headroom-rules.yml every
#     15 s; per group, the mean of vmalert_iteration_duration_seconds over the rounds after the first two, and
#     the CPU time VictoriaMetrics and vmalert spend per round.
#
# Usage: bash alerts/multisite/scale.sh [PEERS ...]     (default 1000 10000)
# Needs victoria-metrics (vmalert), prometheus-alertmanager, java 17, python3, curl. Takes 10 minutes or more for both sizes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1000 10000)
rounds=3

tmp=$(mktemp -d "${TMPDIR:-/tmp}/headroom-multisite-scale.XXXXXX")
pids=()
. "$here/lib.sh"
until_rounds() { # until_rounds N VMALERT_URL OUT: every group has completed N evaluations; its /metrics to OUT
  local i
  for i in $(seq 1 1200); do
    curl -sf "$2/metrics" >"$3" || true
    python3 - "$3" "$1" <<'PY' && return 0
import re, sys
counts = [float(v) for v in re.findall(r'^vmalert_iteration_duration_seconds_count\{group="[^"]+"[^}]*\} (\S+)$',
                                         open(sys.argv[1]).read(), re.M)]
sys.exit(0 if len(counts) == 4 and min(counts) >= int(sys.argv[2]) else 1)
PY
    sleep 1
  done
  echo "scale: vmalert did not complete $1 rounds in 20 minutes" >&2; return 1
}
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }   # utime + stime, clock ticks

# --- series per peer ------------------------------------------------------------------------------------------
jar=exporter/target/headroom.jar
[ -f "$jar" ] || mvn -q -B -ntp package -Dmaven.test.skip=true
cp -r exporter/src/test/resources/fixtures/kernel "$tmp/peer"
p=$(port)
java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" serve --web.listen-address="127.0.0.1:$p" \
  --path.sysfs="$tmp/peer/sys" --path.procfs="$tmp/peer/proc" --underlay.line-rate=10gbit >"$tmp/peer.log" 2>&1 &
pids+=($!)
python3 exporter/src/test/dashboards/advance.py "$tmp/peer:11500000:4000000" >/dev/null 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$p/-/ready" "${pids[0]}" 60 || { echo "scale: exporter did not start" >&2; exit 1; }
sleep 3
curl -sf "http://127.0.0.1:$p/metrics" | grep -v '^#' >"$tmp/page"
all=$(wc -l <"$tmp/page")
headroom=$(grep -c '^headroom_' "$tmp/page")
shipped=$((headroom + 1))                     # + up
per_k=$(python3 -c "print(f'{$shipped * 1000 / 15:.0f}')")
echo "scale: series per peer: $all served, $headroom headroom_*, $shipped shipped (headroom_* + up)"
echo "scale: samples/s per 1,000 peers at a 15 s scrape: $per_k per site replica, $((2 * ${per_k})) for an HA pair before dedup"

# --- rule evaluation on the central store -------------------------------------------------------------------------
# vmalert needs somewhere to send its alerts: an Alertmanager that delivers nowhere.
am=$(port)
printf 'route: {receiver: sink}\nreceivers: [{name: sink}]\n' >"$tmp/am.yml"
prometheus-alertmanager --config.file="$tmp/am.yml" --storage.path="$tmp/am" --web.listen-address="127.0.0.1:$am" \
  --cluster.listen-address= --log.level=warn >"$tmp/am.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$am/-/ready" "$!" 60 || { echo "scale: alertmanager did not start" >&2; exit 1; }
rows=""
for n in "${sizes[@]}"; do
  nets=$((n / 20))
  vm=$(port) va=$(port)
  # The history runs 15 minutes past now, so every 5-minute window the rules read stays full while they are
  # measured (VictoriaMetrics accepts samples from the near future; queries at now see none of them).
  end=$(( $(date +%s) + 900 ))
  python3 "$here/history.py" vm-import --out "$tmp/fleet.jsonl" --end "$end" --peers "$n" --networks "$nets" >"$tmp/expected.json"
  victoria-metrics -storageDataPath="$tmp/vm-$n" -httpListenAddr="127.0.0.1:$vm" -retentionPeriod=1 \
    -dedup.minScrapeInterval=15s -search.latencyOffset=2s -loggerLevel=WARN >"$tmp/vm-$n.log" 2>&1 &
  vm_pid=$!; pids+=($vm_pid)
  wait_http "http://127.0.0.1:$vm/health" "$vm_pid" 60
  t0=$(date +%s.%N)
  curl -sf --data-binary "@$tmp/fleet.jsonl" "http://127.0.0.1:$vm/api/v1/import"
  curl -sf "http://127.0.0.1:$vm/internal/force_flush" >/dev/null
  import_s=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.0f}')")
  series=$(wc -l <"$tmp/fleet.jsonl")
  rm -f "$tmp/fleet.jsonl"
  vmalert -rule=alerts/headroom-rules.yml -datasource.url="http://127.0.0.1:$vm" -remoteWrite.url="http://127.0.0.1:$vm" \
    -notifier.url="http://127.0.0.1:$am" -evaluationInterval=15s -disableAlertgroupLabel \
    -httpListenAddr="127.0.0.1:$va" -loggerLevel=WARN >"$tmp/va-$n.log" 2>&1 &
  va_pid=$!; pids+=($va_pid)
  wait_http "http://127.0.0.1:$va/-/healthy" "$va_pid" 60
  # Two rounds to settle (records feed the next group), then $rounds measured. A round longer than the 15 s
  # interval makes vmalert skip ticks, so wait for completed rounds, not for time.
  until_rounds 2 "http://127.0.0.1:$va" "$tmp/m0"
  c0=$(( $(cpu "$vm_pid") + $(cpu "$va_pid") ))
  until_rounds $((2 + rounds)) "http://127.0.0.1:$va" "$tmp/m1"
  c1=$(( $(cpu "$vm_pid") + $(cpu "$va_pid") ))
  row=$(python3 - "$tmp/m0" "$tmp/m1" "$n" "$nets" "$series" "$import_s" "$c0" "$c1" "$(getconf CLK_TCK)" <<'PY'
import re, sys
m0, m1, n, nets, series, imp, c0, c1, tck = sys.argv[1:]
def fam(path, name):
    out = {}
    for line in open(path):
        m = re.match(name + r'\{group="([^"]+)"[^}]*\} (\S+)', line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out
s0, s1 = fam(m0, "vmalert_iteration_duration_seconds_sum"), fam(m1, "vmalert_iteration_duration_seconds_sum")
k0, k1 = fam(m0, "vmalert_iteration_duration_seconds_count"), fam(m1, "vmalert_iteration_duration_seconds_count")
short = {"headroom.peer.rules": "peer rules", "headroom.network.rules": "Network rules",
         "headroom.peer.alerts": "peer alerts", "headroom.network.alerts": "Network alerts"}
cells, total, rounds = [], 0.0, []
for g in short:
    d = k1.get(g, 0) - k0.get(g, 0)
    ms = (s1[g] - s0[g]) / d * 1000 if d else float("nan")
    total += ms
    rounds.append(d)
    cells.append(f"{ms:.0f} ms")
r = min(rounds) or 1
cpu_ms = (int(c1) - int(c0)) / int(tck) / r * 1000
with open("/proc/loadavg") as f:
    load = f.read().split()[0]
print(f"| {int(n):,} | {int(nets):,} | {int(series):,} | {imp} s | " + " | ".join(cells) +
      f" | {total:.0f} ms | {cpu_ms:.0f} ms | {load} |")
PY
)
  echo "scale: $row"
  rows="$rows$row"$'\n'
  kill "$va_pid" "$vm_pid"; wait "$va_pid" "$vm_pid" 2>/dev/null || true
  rm -rf "$tmp/vm-$n"
done

block=$(cat <<MD
Series per peer (a real daemon on the 4-core kernel fixture): **$all** served, **$headroom** \`headroom_*\`;
a site Prometheus ships **$shipped** per peer to the centre (\`headroom_*\` + \`up\`). At a 15 s scrape that is
**$per_k samples/s per 1,000 peers** per site replica, $((2 * per_k)) for an HA pair before VictoriaMetrics
drops the duplicate.

Rule evaluation on the central store (VictoriaMetrics $(dpkg-query -W -f='${Version}' victoria-metrics 2>/dev/null) single node + vmalert, every 15 s, the generated
fleet's 19 series per peer, $rounds rounds after two to settle; load average at the end of the run; 2 shared vCPUs):

| peers | Networks | series imported | import | peer rules | Network rules | peer alerts | Network alerts | all groups | CPU per round (VM + vmalert) | load |
|---|---|---|---|---|---|---|---|---|---|---|
${rows%$'\n'}
MD
)
echo "$block"
