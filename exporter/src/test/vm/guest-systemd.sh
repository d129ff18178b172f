#!/bin/bash
# Runs under systemd as PID 1 in the guest (the oneshot hr-vm.service the host stages): installs the project's
# .deb, starts headroom.service under its real sandbox against a kernel wt0, scores the live unit, toggles the
# census drop-in, restarts and stops it, reads its journal and purges it. Writes /hr-results/report.txt ending
# `vm-systemd: N passed, M failed`, then powers the guest off.
set -uo pipefail
OUT=/hr-results
. "$OUT/env"
exec > >(tee -a "$OUT/guest.log") 2>&1
REPORT=$OUT/report.txt
PORT=10170
METRICS=http://127.0.0.1:$PORT/metrics
# apt without the package lists: it knows the installed packages and the .deb, which is all an offline
# install needs, and it does not spend minutes of emulated CPU building a cache of the whole archive.
mkdir -p /run/hr-apt-lists/partial
APT=(apt-get -y -q -o Dir::State::Lists=/run/hr-apt-lists -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
# Emulated CPUs start a JVM slowly; the waits are bounds, not expectations.
START_WAIT=240
declare -a LINES=()
passed=0 failed=0
sc_ok=1 sc_lines=()

# check DESCRIPTION EXPECTED OBSERVED OK(0/1): one line of the scenario being built.
check() {
  local what=$1 expected=$2 observed=$3 good=$4
  if [[ $good == 1 ]]; then sc_lines+=("  ok   $what: expected $expected; observed $observed")
  else sc_lines+=("  FAIL $what: expected $expected; observed $observed"); sc_ok=0; fi
  echo "guest: ${sc_lines[-1]}"
}
scenario_end() { # NUMBER TITLE
  if [[ $sc_ok == 1 ]]; then LINES+=("PASS $1. $2"); passed=$((passed + 1))
  else LINES+=("FAIL $1. $2"); failed=$((failed + 1)); fi
  LINES+=("${sc_lines[@]}" "")
  sc_ok=1 sc_lines=()
}
write_report() {
  {
    echo "headroom VM lab, systemd ($(date -u '+%Y-%m-%d %H:%M:%S'), kernel $(uname -r), systemd $(systemctl --version | awk 'NR==1 {print $2}'))"
    echo
    printf '%s\n' "${LINES[@]}"
    echo "vm-systemd: $passed passed, $failed failed"
  } >"$REPORT"
}
finish() {
  write_report
  systemctl --no-block poweroff
  exit 0
}
trap finish EXIT
b() { [[ $1 == 0 ]] && echo 1 || echo 0; }

scrape() { curl -fsS --max-time 5 "$METRICS" 2>/dev/null; }
metric() { # NAME{LABELS} -> value of the first matching line
  scrape | awk -v m="$1" 'index($0, m" ") == 1 {print $2; exit}'
}
wait_metric() { # NAME{LABELS} VALUE SECONDS
  local deadline=$((SECONDS + $3)) v
  while ((SECONDS < deadline)); do
    v=$(metric "$1")
    [[ -n $v ]] && python3 -c "import sys; sys.exit(0 if float('$v') == float('$2') else 1)" && return 0
    sleep 1
  done
  return 1
}
exposure() { systemd-analyze security headroom.service 2>/dev/null | sed -n 's/.*Overall exposure level for headroom.service: \([0-9.]*\).*/\1/p'; }
main_pid() { systemctl show -p MainPID --value headroom.service; }
unit_state() { systemctl show -p ActiveState,SubState,NRestarts,Result --value headroom.service | tr '\n' ' '; }

echo "guest: systemd $(systemctl --version | head -1), $(nproc) cpus"
# headroom's journal streams to the host as it is written: readable even when the guest is ended at its limit.
journalctl -u headroom.service -f --no-pager -o short-monotonic >"$OUT/headroom-journal.log" 2>&1 &
# No `is-system-running --wait`: the boot is complete only when this unit is done.

# A kernel wt0 in the root namespace, where the service runs, with two peers for the census.
busybox modprobe wireguard
ip link add wt0 type wireguard
umask 077
wg genkey >/run/hr-peer.key
wg set wt0 listen-port 51820 private-key /run/hr-peer.key \
  peer "$(wg genkey | wg pubkey)" allowed-ips 10.199.2.2/32 \
  peer "$(wg genkey | wg pubkey)" allowed-ips 10.199.2.3/32
ip addr add 10.199.2.1/24 dev wt0
ip link set wt0 up
umask 022
grep -q DEVTYPE=wireguard /sys/class/net/wt0/uevent && echo "guest: kernel wt0 up, $(wg show wt0 peers | wc -l) peers"

# ---------------------------------------------------------------- 8. install, sandbox, kernel wt0, census drop-in
deb=$HR_VM_DEB
cp "$deb" /root/ && deb=/root/$(basename "$deb")
t_inst=$SECONDS
inst_log=$(DEBIAN_FRONTEND=noninteractive "${APT[@]}" install --no-install-recommends "$deb" 2>&1); rc=$?
check "apt-get install ./$(basename "$deb")" "exit 0 (no network in the guest: every dependency already present)" \
  "exit $rc after $((SECONDS - t_inst)) s$( [[ $rc != 0 ]] && echo ": $(tail -3 <<<"$inst_log" | tr '\n' ' ')")" "$(b $rc)"
systemctl daemon-reload
t0=$SECONDS
systemctl start headroom.service; rc=$?
up=0
for _ in $(seq $START_WAIT); do scrape | grep -q '^headroom_datapath' && { up=1; break; }; sleep 1; done
check "systemctl start headroom; /metrics on 127.0.0.1:$PORT" "started and serving" \
  "start exit $rc, $( ((up)) && echo "serving after $((SECONDS - t0)) s" || echo "no /metrics in $START_WAIT s: $(unit_state)")" \
  "$(( rc == 0 && up == 1 ))"
pid=$(main_pid)
user=$(ps -o user= -p "$pid" 2>/dev/null | tr -d ' ')
caps=$(sed -n 's/^CapEff:\s*//p' "/proc/$pid/status" 2>/dev/null)
check "sandbox user and capabilities" "user headroom, CapEff 0" "user '$user', CapEff $caps" \
  "$([[ $user == headroom && $caps == 0000000000000000 ]] && echo 1 || echo 0)"
ro=$(nsenter -t "$pid" -m sh -c 'touch /usr/hr-probe 2>&1; touch /etc/hr-probe 2>&1' | grep -c 'Read-only file system')
check "read-only system (ProtectSystem=strict)" "/usr and /etc read-only in the unit's mount namespace" \
  "$ro of 2 writes refused as read-only" "$(( ro == 2 ))"
dp=$(metric 'headroom_datapath{datapath="kernel"}'); tun=$(metric headroom_tunnel_up)
check "reads the kernel wt0" 'headroom_datapath{datapath="kernel"} 1, headroom_tunnel_up 1' \
  "datapath kernel ${dp:-absent}, tunnel_up ${tun:-absent}" "$([[ $dp == 1* && $tun == 1* ]] && echo 1 || echo 0)"
score=$(exposure)
check "systemd-analyze security on the live unit" "exposure <= 2.0" "${score:-no score}" \
  "$(python3 -c "print(1 if '$score' and float('$score') <= 2.0 else 0)")"
wait_metric 'headroom_source_up{source="census"}' 0 60; c_down=$?
tunnels_off=$(metric 'headroom_tunnels{state="total"}')
errs=$(metric 'headroom_source_errors_total{source="census"}')
others_down=$(scrape | grep '^headroom_source_up{' | grep -v 'source="census"' | grep -c ' 0$')
check "census without the drop-in" 'headroom_source_up{source="census"} 0 (wg has no CAP_NET_ADMIN), every other source up' \
  "census up $(metric 'headroom_source_up{source="census"}'), errors ${errs:-absent}, tunnels ${tunnels_off:-absent}, other sources down $others_down, datapath kernel $(metric 'headroom_datapath{datapath="kernel"}')" \
  "$(( c_down == 0 && others_down == 0 ))"
mkdir -p /etc/systemd/system/headroom.service.d
cp /usr/share/headroom/systemd/tunnel-census.conf /etc/systemd/system/headroom.service.d/
systemctl daemon-reload && systemctl restart headroom.service
wait_metric 'headroom_tunnels{state="total"}' 2 $START_WAIT; c_up=$?
score_dropin=$(exposure)
check "census with the drop-in" 'headroom_source_up{source="census"} 1, headroom_tunnels{state="total"} 2 (the kernel wt0 has 2 peers)' \
  "census up $(metric 'headroom_source_up{source="census"}'), tunnels $(metric 'headroom_tunnels{state="total"}'), exposure with the drop-in ${score_dropin:-?}$( ((c_up)) && echo "; unit $(unit_state); last journal lines: $(journalctl -u headroom.service -n 3 --no-pager -o cat | tr '\n' ' ')")" \
  "$(( c_up == 0 ))"
keys=$(wg show wt0 peers; wg show wt0 public-key)
page=$(scrape)
leak=0
while read -r k; do [[ -n $k ]] && grep -qF "${k:0:8}" <<<"$page" && leak=1; done <<<"$keys"
check "no key in /metrics" "a /metrics page with no public key (8-character prefix) in it" \
  "$([[ -z $page ]] && echo 'no page' || { [[ $leak == 0 ]] && echo 'page without keys' || echo 'a key prefix found'; })" \
  "$([[ -n $page && $leak == 0 ]] && echo 1 || echo 0)"
rm -rf /etc/systemd/system/headroom.service.d
systemctl daemon-reload
scenario_end 8 "The .deb under systemd: sandbox, kernel wt0, security score, census drop-in"

# ---------------------------------------------------------------- 9. restart, stop, journal, purge
old=$(main_pid)
t0=$(date +%s.%N)
systemctl restart headroom.service; rc=$?
took=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')")
new=$(main_pid)
wait_metric 'headroom_tunnel_up' 1 $START_WAIT; back=$?
check "systemctl restart" "exit 0 within 20 s, a new main PID, serving again" \
  "exit $rc after $took s, PID $old -> $new, $([[ $back == 0 ]] && echo serving || echo 'not serving in '$START_WAIT' s')" \
  "$(python3 -c "print(1 if $rc == 0 and $took <= 20 and '$old' != '$new' and $back == 0 else 0)")"
t0=$(date +%s.%N)
systemctl stop headroom.service; rc=$?
took=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')")
left=$(pgrep -u headroom | wc -l)
state=$(systemctl is-active headroom.service)
result=$(systemctl show -p Result --value headroom.service)
check "systemctl stop" "exit 0 within 20 s, inactive, result success, no process of user headroom left" \
  "exit $rc after $took s, $state, result $result, $left processes left" \
  "$(python3 -c "print(1 if $rc == 0 and $took <= 20 and '$state' == 'inactive' and '$result' == 'success' and $left == 0 else 0)")"
journal=$(journalctl -u headroom.service --no-pager -o cat 2>/dev/null)
starts=$(grep -c 'serving /metrics on' <<<"$journal")
traces=$(grep -cE '^\s+at [a-zA-Z_$][a-zA-Z0-9_$.]*\(|Exception in thread|^[a-z]+(\.[a-zA-Z_$]+)+(Exception|Error)\b' <<<"$journal")
check "journal" "the start line ('serving /metrics on') once per start (3), no stack trace" \
  "$starts start lines, $traces stack-trace lines$( ((traces)) && echo ": $(grep -m2 -E 'Exception|^\s+at ' <<<"$journal" | tr '\n' ' ')")" \
  "$(( starts >= 3 && traces == 0 ))"
purge_log=$(DEBIAN_FRONTEND=noninteractive "${APT[@]}" purge headroom 2>&1); rc=$?
leftover=""
for p in /usr/share/headroom /usr/bin/headroom /lib/systemd/system/headroom.service /etc/headroom /var/lib/headroom; do
  [[ -e $p ]] && leftover+=" $p"
done
getent passwd headroom >/dev/null && leftover+=" user:headroom"
check "apt-get purge headroom" "exit 0, files, state and user gone" \
  "exit $rc$( [[ $rc != 0 ]] && echo ": $(tail -2 <<<"$purge_log" | tr '\n' ' ')"), left:${leftover:- nothing}" \
  "$([[ $rc == 0 && -z $leftover ]] && echo 1 || echo 0)"
scenario_end 9 "Restart and stop clean, journal, purge"
