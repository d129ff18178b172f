#!/usr/bin/env bash
# Where a start's time goes: for each start of `serve` (the packaged launcher's JVM flags and class-data archive,
# --tunnel.interface lo, plus --extra flags), the JVM uptime at which milestone classes load (from
# -Xlog:class+load with uptime) and the time from process start to the first 200 on /-/ready. Milestones: the
# entry point, the end of the command-line parse (the daemon's class), the sampler's first CPU state, Javalin,
# Jetty's connector. The log costs time itself: compare starts of one run, not runs. Prints one line per start
# and the medians; asserts no targets; ends with "bench: N passed, M failed".
#
# Usage: exporter/src/bench/startup.sh [--jar PATH] [--starts 3] [--extra "JVM FLAGS"] [--smoke]
#   e.g. --extra "-XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0" (docs/benchmarks.md, "Tried and not taken")
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
. "$here/lib.sh"
jar="$root/exporter/target/headroom.jar" starts=3 extra=""
split_options "$@"; set -- "${OPTIONS[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jar="$2"; shift 2 ;;
    --starts) starts="$2"; shift 2 ;;
    --extra) extra="$2"; shift 2 ;;
    --smoke) starts=1; shift ;;
    *) echo "startup.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -r "$jar" ] || { echo "startup.sh: no jar at $jar (mvn -q package -Dmaven.test.skip=true)" >&2; exit 2; }
java_opts="$(sed -n 's/^: "${JAVA_OPTS:=\(.*\)}"$/\1/p' "$root/exporter/src/deb/bin/headroom")"
[ -n "$java_opts" ] || { echo "startup.sh: cannot read JAVA_OPTS from exporter/src/deb/bin/headroom" >&2; exit 2; }
opts="$java_opts $(cds_opts "$jar" "$java_opts") $extra"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
milestones="dev.headroom.cmd.Main dev.headroom.daemon.Daemon dev.headroom.sample.CpuState io.javalin.Javalin org.eclipse.jetty.server.ServerConnector"
passed=0 failed=0
echo "# flags: $opts"
for s in $(seq 1 "$starts"); do
  port="$(free_port)"
  start_ns="$(date +%s%N)"
  # shellcheck disable=SC2086  # the flags are words on purpose, as in the launcher
  java $opts -Xlog:class+load:file="$tmp/classes.txt":uptime -jar "$jar" serve --tunnel.interface=lo \
    --web.listen-address="127.0.0.1:$port" >"$tmp/serve.log" 2>&1 &
  pid=$!
  python3 "$here/measure.py" wait-ready --url "http://127.0.0.1:$port/-/ready" --start-ns "$start_ns" --pid "$pid" \
    --out "$tmp/ready" || true
  stop_pid "$pid"
  ready="$(cat "$tmp/ready")"
  line="start $s: ready $ready s"
  ok=1
  for c in $milestones; do
    t="$(awk -v c="$c" '$2 == c {gsub(/[\[\]s]/, "", $1); print $1; exit}' "$tmp/classes.txt")"
    [ -n "$t" ] || ok=0
    line="$line, ${c##*.} ${t:-missing}"
    echo "${c##*.} ${t:-nan}" >>"$tmp/rows"
  done
  echo "ready $ready" >>"$tmp/rows"
  echo "$line"
  if [ "$ok" = 1 ] && [[ "$ready" != fail* ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
python3 - "$tmp/rows" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    k, v = line.split()
    try:
        rows.setdefault(k, []).append(float(v))
    except ValueError:
        pass
print("| milestone | median uptime (s) |\n|---|---|")
for k, vs in rows.items():
    print(f"| {k} | {statistics.median(vs):.3f} |")
EOF
echo "bench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
