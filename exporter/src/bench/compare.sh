#!/usr/bin/env bash
# Whole-process cost of headroom next to node_exporter, measured in the same run on this machine.
#
# Starts both on loopback ports (node_exporter with only the cpu, netdev and netclass collectors, the ones
# that see what headroom sees), then reports for each, and the ratio headroom / node_exporter:
#   - time from process start to ready (headroom: first 200 on /-/ready; node_exporter: first 200 on /metrics)
#   - CPU seconds per hour with one-second sampling, from /proc/PID/stat utime+stime over a measured window:
#     headroom samples itself every second and is scraped every 15 s; node_exporter is scraped every second,
#     the only way it sees one-second peaks
#   - steady RSS (median VmRSS over the window, after warm-up) and peak RSS (VmHWM at the end of the run)
#   - CPU in a second window of the same length where headroom too is scraped every second, after
#     --each-second-warmup seconds (default: --warmup) of it scraped each second, unmeasured
#     (every scraper keeps its connection alive, as Prometheus and vmagent do; --new-connection-per-scrape
#     opens one per scrape instead, as a scraper without keep-alive does)
#   - scrape latency p50/p99 under wrk (-t1 -c4 by default), one exporter at a time in alternating rounds
#     (median over rounds), and CPU per 1000 scrapes
#   - headroom's RSS while --conns keep-alive connections (64) scrape it, 4 from each of 16 loopback source
#     addresses (127.0.0.2...), so each client stays within the per-client cap of 4 requests in flight
#   - with --census LIST: headroom's CPU and RSS (deployed mode, next to node_exporter scraped each second in
#     the same window) with each count of synthetic tunnels served by a UAPI socket (fake_uapi.py), as a table
# It asserts no targets; it counts its own checks (processes started, numbers produced) and ends with
# "bench: N passed, M failed". Exit 0 when every check passed.
#
# Usage: exporter/src/bench/compare.sh [--duration SECONDS] [--smoke] [--warmup SECONDS] [--wrk-duration SECONDS]
#          [--wrk-rounds 3] [--wrk-args "-t1 -c4"] [--java-opts "..."] [--jar PATH] [--tunnel.interface lo] [--json FILE]
#          [--nmt] [--no-cds] [--conns 64] [--census 0,1000,3000,10000] [--census-duration SECONDS]
#          [--new-connection-per-scrape] [--each-second-warmup SECONDS]
#        --smoke: a few seconds of everything (CI runs it so this script cannot rot).
#        --no-cds: without the class-data archive the packaged service uses (made for --jar if missing).
#        --nmt: adds -XX:NativeMemoryTracking=summary to headroom and prints where its memory goes (costs RSS).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

duration=300
warmup=30
wrk_duration=20
wrk_warmup=5
wrk_rounds=3
wrk_args="-t1 -c4"
tunnel=lo
jar="$root/exporter/target/headroom.jar"
json_out=""
smoke=0
nmt=0
cds=1
conns=64
conns_duration=10
reconnect=0
each_second_warmup=""  # default: as long as --warmup
census_list=""
census_duration=60
census_warmup=11  # two censuses (every 5 s) before the window, so it sees rates for every tunnel
# The service's JVM flags, read from the packaged launcher the unit runs; --java-opts compares others.
java_opts="$(sed -n 's/^: "${JAVA_OPTS:=\(.*\)}"$/\1/p' "$root/exporter/src/deb/bin/headroom")"
[ -n "$java_opts" ] || { echo "compare.sh: cannot read JAVA_OPTS from exporter/src/deb/bin/headroom" >&2; exit 1; }
node_exporter="${NODE_EXPORTER:-prometheus-node-exporter}"

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "compare.sh: $*" >&2; exit 2; }

. "$here/lib.sh"
split_options "$@"; set -- "${OPTIONS[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="${2:?--duration needs seconds}"; shift 2 ;;
    --warmup) warmup="${2:?--warmup needs seconds}"; shift 2 ;;
    --wrk-duration) wrk_duration="${2:?}"; shift 2 ;;
    --wrk-rounds) wrk_rounds="${2:?}"; shift 2 ;;
    --wrk-args) wrk_args="${2:?}"; shift 2 ;;
    --java-opts) java_opts="${2?}"; shift 2 ;;
    --jar) jar="${2:?}"; shift 2 ;;
    --tunnel.interface) tunnel="${2:?}"; shift 2 ;;
    --json) json_out="${2:?}"; shift 2 ;;
    --smoke) smoke=1; shift ;;
    --nmt) nmt=1; shift ;;
    --no-cds) cds=0; shift ;;
    --conns) conns="${2:?}"; shift 2 ;;
    --new-connection-per-scrape) reconnect=1; shift ;;
    --each-second-warmup) each_second_warmup="${2:?--each-second-warmup needs seconds}"; shift 2 ;;
    --census) census_list="${2:?}"; shift 2 ;;
    --census-duration) census_duration="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
if [ "$smoke" = 1 ]; then
  duration=4; warmup=2; each_second_warmup=2; wrk_duration=2; wrk_warmup=1; wrk_rounds=1; conns_duration=2
  census_list="${census_list:-100}"; census_duration=3; census_warmup=1
fi
[[ -z "$census_list" || "$census_list" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--census must be a comma-separated list of tunnel counts, got '$census_list'"
each_second_warmup="${each_second_warmup:-$warmup}"
for v in duration warmup each_second_warmup wrk_duration wrk_rounds conns census_duration; do
  [[ "${!v}" =~ ^[0-9]+$ ]] && [ "${!v}" -gt 0 -o "$v" = warmup -o "$v" = each_second_warmup ] || die "--${v//_/-} must be a positive whole number of seconds, got '${!v}'"
done

# Prerequisites fail loudly, naming what is missing.
for tool in java python3 wrk "$node_exporter"; do
  command -v "$tool" >/dev/null 2>&1 || die "needs '$tool' on PATH (Debian: openjdk-17-jre-headless, python3, wrk, prometheus-node-exporter)"
done
if [ "$nmt" = 1 ]; then
  command -v jcmd >/dev/null 2>&1 || die "--nmt needs jcmd (Debian: openjdk-17-jdk-headless)"
  java_opts="$java_opts -XX:NativeMemoryTracking=summary"
fi
[ -f "$jar" ] || die "no $jar: build it first with 'mvn -q -B -o package -Dmaven.test.skip=true'"
if [ "$cds" = 1 ]; then
  java_opts="$java_opts $(cds_opts "$jar" "$java_opts")"
fi
[ -d "/sys/class/net/$tunnel" ] || die "no interface '$tunnel' to stand in for the tunnel (try --tunnel.interface lo)"

tmp="$(mktemp -d -t headroom-bench.XXXXXX)"
hr_pid=""; ne_pid=""; fake_pid=""
cleanup() {
  local p
  for p in $hr_pid $ne_pid $fake_pid; do stop_pid "$p"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

hr_port="$(free_port)"; ne_port="$(free_port)"
while [ "$ne_port" = "$hr_port" ]; do ne_port="$(free_port)"; done

# node_exporter first, then headroom once it is ready: each start is timed alone, not fighting the other for
# the two cores. Start time is taken just before the fork.
ne_start_ns="$(date +%s%N)"
"$node_exporter" --collector.disable-defaults --collector.cpu --collector.netdev --collector.netclass \
  --web.listen-address="127.0.0.1:$ne_port" >"$tmp/node_exporter.log" 2>&1 &
ne_pid=$!
python3 "$here/measure.py" wait-ready --url "http://127.0.0.1:$ne_port/metrics" --start-ns "$ne_start_ns" \
  --pid "$ne_pid" --out "$tmp/ne_ready" || true

hr_start_ns="$(date +%s%N)"
# shellcheck disable=SC2086  # java_opts is a list of flags
java $java_opts -jar "$jar" serve --web.listen-address="127.0.0.1:$hr_port" --tunnel.interface="$tunnel" \
  >"$tmp/headroom.log" 2>&1 &
hr_pid=$!
python3 "$here/measure.py" wait-ready --url "http://127.0.0.1:$hr_port/-/ready" --start-ns "$hr_start_ns" \
  --pid "$hr_pid" --out "$tmp/hr_ready" || true

status=0
python3 "$here/measure.py" run \
  --hr-pid "$hr_pid" --hr-port "$hr_port" --hr-ready "$tmp/hr_ready" \
  --ne-pid "$ne_pid" --ne-port "$ne_port" --ne-ready "$tmp/ne_ready" \
  --duration "$duration" --warmup "$warmup" --wrk-duration "$wrk_duration" --wrk-warmup "$wrk_warmup" --wrk-rounds "$wrk_rounds" \
  --wrk-args "$wrk_args" --java-opts "$java_opts" --tunnel "$tunnel" --jar "$jar" \
  --node-exporter "$node_exporter" ${json_out:+--json "$json_out"} $([ "$nmt" = 1 ] && echo --nmt) \
  --conns "$conns" --conns-duration "$conns_duration" $([ "$reconnect" = 1 ] && echo --new-connection-per-scrape) \
  --each-second-warmup "$each_second_warmup" || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- headroom log (tail)"; tail -n 20 "$tmp/headroom.log" || true
  echo "--- node_exporter log (tail)"; tail -n 20 "$tmp/node_exporter.log" || true
fi

# Census rows: a fresh headroom per tunnel count, reading a UAPI socket that serves that many synthetic
# tunnels (the census needs a userspace datapath: lo reads as one, having no WireGuard devtype).
if [ -n "$census_list" ]; then
  stop_pid "$hr_pid"; hr_pid=""
  rows=()
  for n in ${census_list//,/ }; do
    run_dir="$tmp/run-$n"
    python3 "$here/fake_uapi.py" --rundir "$run_dir" --iface "$tunnel" --tunnels "$n" >"$tmp/fake-$n.log" 2>&1 &
    fake_pid=$!
    for _ in $(seq 1 100); do [ -S "$run_dir/wireguard/$tunnel.sock" ] && break; sleep 0.05; done
    hr_port="$(free_port)"
    # shellcheck disable=SC2086
    java $java_opts -jar "$jar" serve --web.listen-address="127.0.0.1:$hr_port" --tunnel.interface="$tunnel" \
      --path.rundir="$run_dir" >"$tmp/headroom-census-$n.log" 2>&1 &
    hr_pid=$!
    python3 "$here/measure.py" wait-ready --url "http://127.0.0.1:$hr_port/-/ready" --start-ns "$(date +%s%N)" \
      --pid "$hr_pid" --out "$tmp/census-ready-$n" || true
    if python3 "$here/measure.py" census --hr-pid "$hr_pid" --hr-port "$hr_port" --ne-pid "$ne_pid" --ne-port "$ne_port" \
        --duration "$census_duration" --warmup "$census_warmup" --tunnels "$n" --out "$tmp/census-$n.json"; then
      echo "ok   census with $n tunnels measured"
    else
      echo "FAIL census with $n tunnels measured"; tail -n 5 "$tmp/headroom-census-$n.log"; status=1
    fi
    rows+=("$tmp/census-$n.json")
    stop_pid "$hr_pid"; hr_pid=""
    stop_pid "$fake_pid"; fake_pid=""
  done
  echo
  echo "# cost against census size: headroom sampling every 1 s, census every 5 s, scraped every 15 s; node_exporter scraped each second; ${census_duration} s windows"
  python3 "$here/measure.py" census-table "${rows[@]}" || status=1
  echo "census: $([ "$status" = 0 ] && echo passed || echo failed)"
fi
exit "$status"
