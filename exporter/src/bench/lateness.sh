#!/usr/bin/env bash
# The sampler on a saturated peer: headroom runs at the unit's Nice= (systemd/headroom.service) while
# stress-ng holds every core at 100 % for --duration seconds (default 60); the script reads headroom's own
# lateness histogram (headroom_sample_lateness_seconds) and skipped-sample counter before and after, and
# reports over the stressed window: samples taken, skipped, the bucket that holds the p99 lateness, the share
# of samples no later than 100 ms, and how busy the cores really were (from /proc/stat).
# It asserts no target; it counts its own checks and ends with "bench: N passed, M failed".
#
# Usage: exporter/src/bench/lateness.sh [--duration 60] [--nice N] [--java-opts "..."] [--jar PATH]
#          [--tunnel.interface lo] [--smoke]
#        --nice: the niceness headroom runs at (default: the unit's Nice=); --smoke: 4 s of stress (CI).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
duration=60
tunnel=lo
jar="$root/exporter/target/headroom.jar"
java_opts="$(sed -n 's/^: "${JAVA_OPTS:=\(.*\)}"$/\1/p' "$root/exporter/src/deb/bin/headroom")"
nice_level="$(sed -n 's/^Nice=\(-\{0,1\}[0-9]*\)$/\1/p' "$root/systemd/headroom.service")"
die() { echo "lateness.sh: $*" >&2; exit 2; }
[ -n "$java_opts" ] || die "cannot read JAVA_OPTS from exporter/src/deb/bin/headroom"
[ -n "$nice_level" ] || die "cannot read Nice= from systemd/headroom.service"
. "$here/lib.sh"
split_options "$@"; set -- "${OPTIONS[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="${2:?}"; shift 2 ;;
    --nice) nice_level="${2:?}"; shift 2 ;;
    --java-opts) java_opts="${2?}"; shift 2 ;;
    --jar) jar="${2:?}"; shift 2 ;;
    --tunnel.interface) tunnel="${2:?}"; shift 2 ;;
    --smoke) duration=4; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$duration" =~ ^[0-9]+$ && "$duration" -gt 0 ]] || die "--duration must be a positive whole number of seconds, got '$duration'"
[[ "$nice_level" =~ ^-?[0-9]+$ ]] || die "--nice must be a whole number, got '$nice_level'"
for tool in java python3 stress-ng nice; do
  command -v "$tool" >/dev/null 2>&1 || die "needs '$tool' on PATH (Debian: openjdk-17-jre-headless, python3, stress-ng, coreutils)"
done
[ -f "$jar" ] || die "no $jar: build it first with 'mvn -q -B -o package -Dmaven.test.skip=true'"
java_opts="$java_opts $(cds_opts "$jar" "$java_opts")"

tmp="$(mktemp -d -t headroom-lateness.XXXXXX)"
hr_pid=""; stress_pid=""
cleanup() {
  local p
  for p in $stress_pid $hr_pid; do stop_pid "$p"; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port="$(free_port)"
# shellcheck disable=SC2086  # java_opts is a list of flags
nice -n "$nice_level" java $java_opts -jar "$jar" serve --web.listen-address="127.0.0.1:$port" \
  --tunnel.interface="$tunnel" --netbird.interval=0s >"$tmp/headroom.log" 2>&1 &
hr_pid=$!
python3 "$here/measure.py" wait-ready --url "http://127.0.0.1:$port/-/ready" --start-ns "$(date +%s%N)" \
  --pid "$hr_pid" --out "$tmp/ready" || { cat "$tmp/ready"; tail -20 "$tmp/headroom.log"; exit 1; }
sleep 3
status=0
python3 "$here/measure.py" lateness --pid "$hr_pid" --port "$port" --duration "$duration" --nice "$nice_level" \
  --stress "stress-ng --cpu $(nproc) --timeout ${duration}s --quiet" || status=$?
[ "$status" -eq 0 ] || tail -20 "$tmp/headroom.log"
exit "$status"
