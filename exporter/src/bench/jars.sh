#!/usr/bin/env bash
# Two builds of the shaded jar side by side, in alternating rounds of the same run: what a jar's contents cost a
# running exporter. The JVM keeps every open jar's central directory on the heap, so entries count even when
# their classes never load. For each jar, per round:
#   - entries and size of the jar
#   - time from process start to the first 200 on /-/ready
#   - steady RSS: median VmRSS over --window seconds, after --settle seconds of serving (sampling each second,
#     scraped each second)
#   - heap used after a full GC (jcmd GC.run, then the generations' "used" in GC.heap_info)
# with the packaged launcher's JVM flags and its class-data archive (made for each jar if missing, as compare.sh
# does). Prints one line per jar and round, then a table of ranges (min-max over rounds). Asserts no targets;
# counts its own checks and ends with "bench: N passed, M failed".
#
# Usage: exporter/src/bench/jars.sh --before JAR --after JAR [--rounds 3] [--settle 20] [--window 10]
#          [--tunnel.interface lo] [--no-cds] [--smoke]
#        --smoke: one short round (CI runs it so this script cannot rot).
# Example, main against this tree:
#   git archive main | tar -x -C /tmp/before && (cd /tmp/before/exporter && mvn -q -B -o package -Dmaven.test.skip=true)
#   exporter/src/bench/jars.sh --before /tmp/before/exporter/target/headroom.jar --after exporter/target/headroom.jar
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
. "$here/lib.sh"

before=""; after=""; rounds=3; settle=20; window=10; tunnel=lo; cds=1
usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "jars.sh: $*" >&2; exit 2; }
split_options "$@"; set -- "${OPTIONS[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --before) before="${2:?}"; shift 2 ;;
    --after) after="${2:?}"; shift 2 ;;
    --rounds) rounds="${2:?}"; shift 2 ;;
    --settle) settle="${2:?}"; shift 2 ;;
    --window) window="${2:?}"; shift 2 ;;
    --tunnel.interface) tunnel="${2:?}"; shift 2 ;;
    --no-cds) cds=0; shift ;;
    --smoke) rounds=1; settle=2; window=2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$after" ] || after="$root/exporter/target/headroom.jar"
[ -n "$before" ] || before="$after"
for v in rounds settle window; do
  [[ "${!v}" =~ ^[0-9]+$ ]] && [ "${!v}" -gt 0 ] || die "--$v must be a positive whole number, got '${!v}'"
done
for j in "$before" "$after"; do [ -f "$j" ] || die "no jar at $j"; done
for tool in java jcmd unzip python3 curl; do
  command -v "$tool" >/dev/null 2>&1 || die "needs '$tool' on PATH (Debian: openjdk-17-jdk-headless, unzip, python3, curl)"
done
[ -d "/sys/class/net/$tunnel" ] || die "no interface '$tunnel' to stand in for the tunnel (try --tunnel.interface lo)"
java_opts="$(sed -n 's/^: "${JAVA_OPTS:=\(.*\)}"$/\1/p' "$root/exporter/src/deb/bin/headroom")"
[ -n "$java_opts" ] || die "cannot read JAVA_OPTS from exporter/src/deb/bin/headroom"

tmp="$(mktemp -d -t headroom-jars.XXXXXX)"
pid=""
trap 'stop_pid "$pid"; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
passed=0; failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }

declare -A opts
for name in before after; do
  jar="${!name}"
  opts[$name]="$java_opts"
  [ "$cds" = 1 ] && opts[$name]="$java_opts $(cds_opts "$jar" "$java_opts")"
done

# measure NAME JAR: one start; appends "name entries size_kib ready_s rss_kib heap_kib" to $tmp/rows.
measure() {
  local name="$1" jar="$2" port start ready rss heap entries size
  entries="$(unzip -Z1 "$jar" | wc -l)"
  size="$(( $(stat -c %s "$jar") / 1024 ))"
  port="$(free_port)"
  start="$(date +%s%N)"
  # shellcheck disable=SC2086  # the flags are a list
  java ${opts[$name]} -jar "$jar" serve --web.listen-address="127.0.0.1:$port" --tunnel.interface="$tunnel" \
    >"$tmp/$name.log" 2>&1 &
  pid=$!
  python3 "$here/measure.py" wait-ready --url "http://127.0.0.1:$port/-/ready" --start-ns "$start" --pid "$pid" \
    --out "$tmp/ready" || true
  ready="$(cat "$tmp/ready")"
  if [[ "$ready" == fail* ]]; then bad "$name: $ready"; sed 's/^/     /' "$tmp/$name.log" | tail -20; stop_pid "$pid"; pid=""; return; fi
  ok
  local samples=() i
  for ((i = 0; i < settle + window; i++)); do
    curl -fsS --max-time 5 -o /dev/null "http://127.0.0.1:$port/metrics" || true
    [ "$i" -ge "$settle" ] && samples+=("$(sed -n 's/^VmRSS:\s*\([0-9]*\) kB/\1/p' "/proc/$pid/status")")
    sleep 1
  done
  rss="$(printf '%s\n' "${samples[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')"
  jcmd "$pid" GC.run >/dev/null 2>&1 || true
  heap="$(jcmd "$pid" GC.heap_info 2>/dev/null | sed -n 's/.*generation.*used \([0-9]*\)K.*/\1/p' | awk '{s+=$1} END{print s+0}')"
  if grep -qE 'ClassNotFound|NoClassDefFound|LinkageError' "$tmp/$name.log"; then bad "$name: class loading failed in its log"; else ok; fi
  [ "$heap" -gt 0 ] && ok || bad "$name: no heap figure from jcmd GC.heap_info"
  [ -n "$rss" ] && ok || bad "$name: no RSS samples"
  stop_pid "$pid"; pid=""
  echo "$name round $r: entries $entries, ${size} KiB, ready ${ready} s, steady RSS $((rss / 1024)).$(( (rss % 1024) * 10 / 1024 )) MiB, heap after full GC ${heap} KiB"
  echo "$name $entries $size $ready $rss $heap" >>"$tmp/rows"
}

echo "before: $before"; echo "after:  $after"
echo "flags: ${opts[after]}"
for ((r = 1; r <= rounds; r++)); do
  # Alternate which goes first, so drift on a shared machine falls on both.
  if [ $((r % 2)) -eq 1 ]; then measure before "$before"; measure after "$after"
  else measure after "$after"; measure before "$before"; fi
done

[ -s "$tmp/rows" ] && python3 - "$tmp/rows" <<'EOF'
import sys
rows = {}
for line in open(sys.argv[1]):
    n, *v = line.split()
    rows.setdefault(n, []).append([float(x) for x in v])
def rng(vals, f):
    lo, hi = min(vals), max(vals)
    return f(lo) if lo == hi else f(lo) + "-" + f(hi)
cols = [("jar entries", 0, lambda x: "%d" % x), ("jar size (KiB)", 1, lambda x: "%d" % x),
        ("ready (s)", 2, lambda x: "%.2f" % x), ("steady RSS (MiB)", 3, lambda x: "%.1f" % (x / 1024)),
        ("heap used after full GC (MiB)", 4, lambda x: "%.2f" % (x / 1024))]
print("| measure | before | after |")
print("|---|---|---|")
for label, i, f in cols:
    print("| %s | %s | %s |" % (label, *(rng([r[i] for r in rows.get(k, [[0] * 5])], f) for k in ("before", "after"))))
EOF
echo "bench: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
