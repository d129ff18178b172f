#!/usr/bin/env bash
# Installs the built .deb on this machine, runs the installed program the way the systemd unit does
# (user headroom, no capabilities, no new privileges, the unit's flags and environment file) on a free
# loopback port against the real /sys and /proc, scrapes /metrics, then purges the package and checks
# that nothing is left. Needs root, dpkg, curl and a Java 17+ runtime. Builds the package if missing.
# Usage: exporter/src/test/packaging/test-deb.sh
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
passed=0
failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }
check() { # description, command...
  local what="$1"; shift
  if "$@" >/dev/null; then ok "$what"; else bad "$what"; fi
}
finish() {
  echo "packaging: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

if [ "$(id -u)" -ne 0 ]; then bad "must run as root (dpkg -i)"; finish; fi
for tool in dpkg curl setpriv python3; do
  command -v "$tool" >/dev/null || { bad "missing tool: $tool"; finish; }
done

deb="$(ls -t "$repo"/exporter/target/headroom_*_all.deb 2>/dev/null | head -1)"
if [ -z "$deb" ]; then
  echo "building the package (mvn package, tests left to the test command)"
  (cd "$repo" && mvn -q -B -pl exporter package -Dmaven.test.skip=true) || { bad "mvn package failed"; finish; }
  deb="$(ls -t "$repo"/exporter/target/headroom_*_all.deb | head -1)"
fi
echo "package: $deb"

if dpkg-query -W -f='${Status}' headroom 2>/dev/null | grep -q installed; then
  echo "purging an earlier headroom install first"
  dpkg --purge headroom >/dev/null
fi

# --- install -----------------------------------------------------------------------------------------
log="$(mktemp)"
work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill "$server"; wait "$server" 2>/dev/null; fi
  rm -rf "$work" "$log"
}
trap cleanup EXIT

if dpkg -i "$deb" >"$work/dpkg.log" 2>&1; then ok "dpkg -i"; else bad "dpkg -i: $(cat "$work/dpkg.log")"; finish; fi
for f in /usr/share/headroom/headroom.jar /usr/bin/headroom /lib/systemd/system/headroom.service \
         /etc/headroom/headroom.yml /etc/default/headroom /usr/share/headroom/systemd/tunnel-census.conf \
         /usr/share/doc/headroom/examples/web.yml /lib/systemd/system/headroom-discover.service \
         /etc/default/headroom-discover; do
  check "installed $f" test -e "$f"
done
check "the discover unit passes systemd-analyze verify as installed" \
  sh -c 'out="$(systemd-analyze verify /lib/systemd/system/headroom-discover.service 2>&1)" && [ -z "$out" ] || { echo "$out"; false; }'
check "/etc/default/headroom-discover is a conffile" sh -c 'dpkg-query -W -f="\${Conffiles}" headroom | grep -q /etc/default/headroom-discover'
check "the launcher runs discover (its help names the token file)" sh -c '/usr/bin/headroom discover --help | grep -q -- --netbird.token-file'
check "discover without a token file: one line, exit 2" \
  sh -c 'out="$(/usr/bin/headroom discover --netbird.token-file=/etc/headroom/netbird-token 2>&1)"; [ $? -eq 2 ] && [ "$out" = "headroom discover: --netbird.token-file /etc/headroom/netbird-token: no such file" ]'
check "headroom-discover not enabled at install" test ! -e /etc/systemd/system/multi-user.target.wants/headroom-discover.service
# postinst's class-data archive, for this JVM and jar path; the launcher uses it only when the JVM accepts it.
check "postinst wrote the class-data archive" test -s /usr/share/headroom/headroom.jsa
check "the launcher starts with the archive and prints nothing of it" \
  sh -c '[ "$(/usr/bin/headroom --version 2>&1)" = "$(java -Xshare:off -jar /usr/share/headroom/headroom.jar --version 2>&1)" ] && java -XX:SharedArchiveFile=/usr/share/headroom/headroom.jsa -Xshare:on -jar /usr/share/headroom/headroom.jar --version >/dev/null 2>&1'
if [ -d "$repo/alerts" ]; then
  check "alert rules in /usr/share/headroom/alerts" test -e /usr/share/headroom/alerts/headroom-rules.yml
fi
check "launcher is executable" test -x /usr/bin/headroom
check "system user headroom exists" getent passwd headroom
check "headroom has no login shell" sh -c 'getent passwd headroom | grep -Eq ":(/usr/sbin/nologin|/sbin/nologin|/bin/false)$"'
check "/var/lib/headroom belongs to headroom" sh -c '[ "$(stat -c %U:%G:%a /var/lib/headroom)" = headroom:headroom:750 ]'
check "/etc/headroom readable by the headroom group only" sh -c '[ "$(stat -c %U:%G:%a /etc/headroom)" = root:headroom:750 ]'
check "config files are conffiles" sh -c 'dpkg-query -W -f="\${Conffiles}" headroom | grep -q /etc/headroom/headroom.yml && dpkg-query -W -f="\${Conffiles}" headroom | grep -q /etc/default/headroom'
check "nothing enabled at install" test ! -e /etc/systemd/system/multi-user.target.wants/headroom.service

# --- run it the way the unit does ---------------------------------------------------------------------
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
unit=/lib/systemd/system/headroom.service
exec_line="$(sed -n 's/^ExecStart=//p' "$unit")"
check "unit ExecStart is the launcher with the config file" test "$exec_line" = '/usr/bin/headroom serve --config.file=/etc/headroom/headroom.yml $ARGS'
# EnvironmentFile=-/etc/default/headroom, then ARGS as systemd splits it; the test only adds the port.
(
  set -a
  # shellcheck disable=SC1091
  . /etc/default/headroom
  set +a
  ARGS="${ARGS:-} --web.listen-address=127.0.0.1:$port"
  cd /var/lib/headroom || exit 1
  umask 0077
  # User=headroom, NoNewPrivileges=yes, CapabilityBoundingSet= and AmbientCapabilities= (empty).
  # shellcheck disable=SC2086
  exec setpriv --reuid=headroom --regid=headroom --init-groups --no-new-privs \
    --inh-caps=-all --ambient-caps=-all --bounding-set=-all \
    /usr/bin/headroom serve --config.file=/etc/headroom/headroom.yml $ARGS
) >"$log" 2>&1 &
server=$!

metrics=""
for _ in $(seq 1 120); do
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  metrics="$(curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics" 2>/dev/null)" && break
  sleep 0.5
done
if [ -n "$metrics" ]; then ok "scraped /metrics on 127.0.0.1:$port"; else bad "no /metrics; log:"; sed 's/^/     /' "$log"; fi
check "/metrics has headroom_build_info" grep -q '^headroom_build_info' <<<"$metrics"
check "/metrics has per-core CPU from the real /proc" grep -q '^headroom_cpu' <<<"$metrics"
check "/-/healthy answers" curl -fsS --max-time 5 -o /dev/null "http://127.0.0.1:$port/-/healthy"
java_pid="$(pgrep -P "$server" java || echo "$server")"
user="$(ps -o user= -p "$java_pid" 2>/dev/null | tr -d ' ')"
check "runs as user headroom (got '$user')" test "$user" = headroom
caps="$(sed -n 's/^CapEff:\s*//p' "/proc/$java_pid/status" 2>/dev/null)"
check "runs with no effective capabilities (CapEff $caps)" test "$caps" = 0000000000000000
for _ in $(seq 1 10); do curl -fsS --max-time 5 -o /dev/null "http://127.0.0.1:$port/metrics"; done
rss_kib="$(sed -n 's/^VmRSS:\s*\([0-9]*\) kB/\1/p' "/proc/$java_pid/status" 2>/dev/null)"
echo "     resident memory after scrapes: $((rss_kib / 1024)) MiB (unit: MemoryHigh=160M, MemoryMax=256M)"
check "resident memory below the unit's MemoryHigh (160 MiB)" test "${rss_kib:-999999}" -lt $((160 * 1024))
state_files="$(find /var/lib/headroom -mindepth 1 ! -user headroom 2>/dev/null)"
check "state directory holds only headroom's files" test -z "$state_files"
kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; server=""

# --- purge ----------------------------------------------------------------------------------------------
if dpkg --purge headroom >"$work/dpkg.log" 2>&1; then ok "dpkg --purge"; else bad "dpkg --purge: $(cat "$work/dpkg.log")"; fi
for p in /usr/share/headroom /usr/bin/headroom /lib/systemd/system/headroom.service /etc/headroom \
         /lib/systemd/system/headroom-discover.service /etc/default/headroom-discover \
         /etc/default/headroom /var/lib/headroom /usr/share/doc/headroom; do
  check "purge removed $p" test ! -e "$p"
done
check "purge removed user headroom" sh -c '! getent passwd headroom >/dev/null'
check "purge removed group headroom" sh -c '! getent group headroom >/dev/null'
check "dpkg forgot the package" sh -c '! dpkg-query -W -f="\${Status}" headroom 2>/dev/null | grep -q installed'

finish
