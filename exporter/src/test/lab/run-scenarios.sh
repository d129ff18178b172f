#!/usr/bin/env bash
# Proves headroom on a real wireguard-go tunnel: builds the lab (lab.sh up), then runs the scenarios
# (scenarios.py) inside the peer's namespace against a live headroom and a live Prometheus, prints the report
# and ends with the line `lab: N passed, M failed`. Exits non-zero when a scenario failed or the lab could not
# be built. Needs root. See docs/lab.md.
#
#   sudo exporter/src/test/lab/run-scenarios.sh
#
# Env: HEADROOM_JAR (default exporter/target/headroom.jar, built with mvn when missing),
#      HR_LAB_RULES (default alerts/headroom-rules.yml, else the lab's stand-in rules),
#      HR_LAB_OUT (report and logs, default lab-run/ at the repository root),
#      HR_LAB_ONLY (scenario numbers to run, e.g. "9"; default all), HR_LAB_NS (namespace prefix, default hr).
set -uo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$LAB_DIR/../../../.." && pwd)
OUT=${HR_LAB_OUT:-$REPO/lab-run}
JAR=${HEADROOM_JAR:-$REPO/exporter/target/headroom.jar}
SCENARIOS=18
PY_PID=

fail_all() {
  echo "lab: ERROR: $*" >&2
  echo "lab: 0 passed, $SCENARIOS failed"
  exit 1
}

# Every exit path: the runner and whatever it started (recorded PIDs), then the lab itself.
cleanup() {
  local rc=$? f pid
  trap - EXIT INT TERM
  if [[ -n $PY_PID ]] && kill -0 "$PY_PID" 2>/dev/null; then
    kill -TERM "$PY_PID" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$PY_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$PY_PID" 2>/dev/null
  fi
  for f in "$OUT"/pids/*.pid; do
    [[ -e $f ]] || continue
    pid=$(cat "$f")
    if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null
      for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$pid" 2>/dev/null
    fi
    rm -f "$f"
  done
  "$LAB_DIR/lab.sh" down >/dev/null 2>&1 || echo "lab: warning: lab.sh down failed" >&2
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

[[ $(id -u) -eq 0 ]] || fail_all "run as root (network namespaces, wireguard-go, tc)"
for t in java python3 prometheus promtool iperf3 stress-ng taskset tc wireguard-go wg; do
  command -v "$t" >/dev/null || fail_all "missing tool: $t (Debian packages: see docs/lab.md)"
done

# One lab per machine (global namespace names): wait, bounded, for another run to finish, then hold the lock.
LOCK=${HR_LAB_LOCK:-/run/headroom-lab.lock}
exec 9>"$LOCK"
flock -w "${HR_LAB_LOCK_WAIT:-420}" 9 || fail_all "another lab run still holds $LOCK"
export HR_LAB_LOCK_HELD=1

mkdir -p "$OUT/pids"
rm -rf "$OUT"/pids/*.pid "$OUT/report.txt" "$OUT"/*.log "$OUT"/prometheus-*

if [[ ! -f $JAR ]]; then
  echo "lab: building $JAR" >&2
  (cd "$REPO" && mvn -q -B package -Dmaven.test.skip=true) >"$OUT/build.log" 2>&1 || fail_all "build failed, see $OUT/build.log"
  [[ -f $JAR ]] || fail_all "build did not produce $JAR"
fi

RULES=${HR_LAB_RULES:-$REPO/alerts/headroom-rules.yml}
if [[ ! -f $RULES ]]; then
  RULES=$LAB_DIR/stand-in-rules.yml
  echo "lab: alerts/headroom-rules.yml not in this tree; using the stand-in $RULES" >&2
fi
promtool check rules "$RULES" >"$OUT/promtool.log" 2>&1 || fail_all "promtool check rules $RULES failed, see $OUT/promtool.log"

started=$SECONDS
"$LAB_DIR/lab.sh" up >"$OUT/lab-up.log" 2>&1 || { cat "$OUT/lab-up.log" >&2; fail_all "the lab could not be built"; }

# The scenarios run inside the peer's namespace, as headroom and Prometheus do: they reach both on the
# namespace's loopback and read the tunnel's own sysfs counters there.
ip netns exec "${HR_LAB_NS:-hr}-peer" python3 "$LAB_DIR/scenarios.py" --jar "$JAR" --rules "$RULES" --out "$OUT" \
  --lab "$LAB_DIR/lab.sh" &
PY_PID=$!
wait "$PY_PID"
rc=$?
PY_PID=
echo "lab: runtime $((SECONDS - started)) s (lab up included)" >&2
if [[ ! -f $OUT/report.txt ]]; then
  fail_all "the scenarios ended without a report (exit $rc)"
fi
cat "$OUT/report.txt"
exit "$rc"
