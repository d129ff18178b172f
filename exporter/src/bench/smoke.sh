#!/usr/bin/env bash
# CI's short run of the benchmark harnesses, so none can rot: the whole-process comparison with
# node_exporter (--smoke: a few seconds of each measure and one small census, no targets asserted), the
# sampler's lateness under stress-ng (--smoke: 4 s), the jar and start-up harnesses (one start each), two flag variants side by side for a minute, and every JMH benchmark for one brief iteration. Ends with "bench: N passed, M failed".
set -uo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$root"
passed=0; failed=0
check() { # check NAME COMMAND...
  if "${@:2}" >"/tmp/headroom-bench-$1.log" 2>&1; then
    echo "ok   $1"; passed=$((passed + 1))
  else
    echo "FAIL $1 (log: /tmp/headroom-bench-$1.log)"; tail -15 "/tmp/headroom-bench-$1.log"; failed=$((failed + 1))
  fi
}
check compare bash exporter/src/bench/compare.sh --smoke
grep -E '^\|' /tmp/headroom-bench-compare.log | head -20
check lateness bash exporter/src/bench/lateness.sh --smoke
grep -E '^\|' /tmp/headroom-bench-lateness.log | head -10
check jars bash exporter/src/bench/jars.sh --smoke
grep -E '^\|' /tmp/headroom-bench-jars.log | head -10
check startup bash exporter/src/bench/startup.sh --smoke
grep -E '^\|' /tmp/headroom-bench-startup.log | head -10
check side-by-side python3 exporter/src/bench/side_by_side.py --smoke
grep -E '^\|' /tmp/headroom-bench-side-by-side.log | head -5
check jmh-run bash exporter/src/bench/jmh.sh -f 1 -wi 0 -i 1 -r 200ms -prof gc
grep -E '^(Benchmark|[A-Z][A-Za-z]+Bench\.[a-zA-Z]+ )' /tmp/headroom-bench-jmh-run.log | grep -v ':·' | head -20
echo "bench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
