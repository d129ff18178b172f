#!/usr/bin/env bash
# The VM lab: headroom on Debian's own kernel under qemu. Two guest boots:
#   1. kernel datapath (scenarios 1-7): the wireguard-go lab's topology with kernel WireGuard tunnels, run by
#      guest-datapath.sh as the guest's PID 1;
#   2. systemd (scenarios 8-9): the host image's systemd as PID 1, the project's .deb installed and run as
#      headroom.service under its real sandbox (guest-systemd.sh, from a oneshot unit).
#   3. kernel datapath on 1 vCPU, scenario 7 alone: its cost ceiling against its own plateau, and (scenario 10,
#      on the host) the size table it learned, its kernel row for boot 1's vCPUs, against boot 1's plateau. Both
#      are reported, not judged: they pass when the figures were measured (docs/lab.md says why).
# Prints each boot's report (expected vs observed per scenario) and ends with `vm: N passed, M failed`.
# Needs root. Installs qemu-system-x86, busybox-static and cpio when missing; keeps the kernel and initramfs in
# $HR_VM_CACHE (default /var/cache/headroom-vm; vm.sh clean deletes it). See docs/lab.md, "VM lab".
#
#   sudo exporter/src/test/vm/run-vm.sh
#
# Env: HR_VM_OUT (reports, console logs; default exporter/target/vm-run), HEADROOM_JAR, HR_VM_ONLY (datapath or
#      systemd: one boot only; datapath includes the 1-vCPU boot), HR_VM_SCENARIOS (scenario numbers, e.g. "7" or
#      "3,7": the datapath boot runs only those of 1-7, the 1-vCPU boot and scenario 10 only when 7 is named; the
#      systemd boot runs, both 8 and 9, only when 8 or 9 is named), HR_VM_DATAPATH_LIMIT / HR_VM_SMALL_LIMIT /
#      HR_VM_SYSTEMD_LIMIT (seconds per boot), and vm.sh's (HR_VM_CPUS: the datapath and systemd boots' vCPUs).
set -uo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$VM_DIR/../../../.." && pwd)
OUT=${HR_VM_OUT:-$REPO/exporter/target/vm-run}
JAR=${HEADROOM_JAR:-$REPO/exporter/target/headroom.jar}
# Hard limits per boot, TCG on 2 busy cores included; the guest powers itself off well before them.
DATAPATH_LIMIT=${HR_VM_DATAPATH_LIMIT:-1020}
SYSTEMD_LIMIT=${HR_VM_SYSTEMD_LIMIT:-540}
SMALL_LIMIT=${HR_VM_SMALL_LIMIT:-480}
# The 1-vCPU boot: what a peer of this CPU carries at more cores is read from one with fewer.
SMALL_CPUS=1
ONLY=${HR_VM_ONLY:-}
SCENARIOS=${HR_VM_SCENARIOS:-}
passed=0 failed=0
. "$VM_DIR/vm.sh" # guest_path: where the guest sees a host file (the checkout is bound at a fixed path)

fail_all() {
  echo "vm: ERROR: $*" >&2
  echo "vm: 0 passed, 9 failed"
  exit 1
}

[[ $(id -u) -eq 0 ]] || fail_all "run as root (qemu with the host's / over 9p, apt-get download)"
. "$REPO/exporter/scripts/deps.sh"
need_packages "the VM lab" qemu-system-x86:qemu-system-x86_64 busybox-static: cpio:cpio \
  || fail_all "could not install the VM lab's packages"
for t in java python3 iperf3 wg ip tc prometheus promtool stress-ng curl systemd-analyze apt-get dpkg; do
  command -v "$t" >/dev/null || fail_all "missing tool: $t (./test installs the lab's packages)"
done

mkdir -p "$OUT"
if [[ ! -f $JAR ]] || ! ls "$REPO"/exporter/target/headroom_*_all.deb >/dev/null 2>&1; then
  echo "vm: building the jar and the .deb" >&2
  (cd "$REPO" && mvn -B -ntp -q -Dmaven.test.skip=true package) >"$OUT/build.log" 2>&1 \
    || fail_all "build failed, see $OUT/build.log"
fi
DEB=$(ls -t "$REPO"/exporter/target/headroom_*_all.deb 2>/dev/null | head -1)
[[ -f $JAR && -f $DEB ]] || fail_all "no jar or .deb in exporter/target"
RULES=$REPO/alerts/headroom-rules.yml
[[ -f $RULES ]] || RULES=$REPO/exporter/src/test/lab/stand-in-rules.yml
# The guest's /tmp is its own: a file there outside the checkout is out of the guest's sight.
for f in "$JAR" "$DEB" "$RULES"; do
  [[ $(guest_path "$f") == /tmp/* ]] && fail_all "$f is under /tmp outside the checkout, where the guest cannot see it: move it into the checkout or out of /tmp"
done

started=$SECONDS
"$VM_DIR/vm.sh" prepare || fail_all "could not prepare the kernel and initramfs"
echo "vm: kernel and initramfs ready after $((SECONDS - started)) s" >&2

# The host's steal, judged as the wireguard-go lab judges it (lab/steal.py: thresholds and the quiet wait).
steal() { python3 "$VM_DIR/../lab/steal.py" "$@"; }

# boot_once NAME INIT LIMIT SCENARIOS [UNIT]: one guest of $BOOT_CPUS vCPUs (vm.sh's default when empty) running
# $BOOT_SCENARIOS (HR_VM_SCENARIOS when empty), its ceilings only reported when $BOOT_REPORTED is 1; sets b_passed
# and b_failed from its report (a guest that gave no report fails all its scenarios and shows the console's last
# lines).
BOOT_CPUS= BOOT_SCENARIOS= BOOT_REPORTED=
boot_once() {
  local name=$1 init=$2 limit=$3 count=$4 unit=${5:-} res=$OUT/$1 t0=$SECONDS rc line=
  rm -rf "$res"; mkdir -p "$res"
  printf 'HR_VM_JAR=%q\nHR_VM_DEB=%q\nHR_VM_RULES=%q\nHR_VM_SCENARIO_LIMIT=%q\nHR_VM_SCENARIOS=%q\nHR_VM_REPORTED=%q\n' \
    "$(guest_path "$JAR")" "$(guest_path "$DEB")" "$(guest_path "$RULES")" "$((limit - 60))" \
    "${BOOT_SCENARIOS:-$SCENARIOS}" "${BOOT_REPORTED:-0}" >"$res/env"
  if [[ -n $unit ]]; then
    "$unit" >"$res/hr-vm.service"
    printf '[Unit]\nDescription=headroom VM lab\nRequires=basic.target hr-vm.service\nAfter=basic.target hr-vm.service\nAllowIsolate=yes\n' \
      >"$res/hr-vm.target"
  fi
  HR_VM_CPUS=${BOOT_CPUS:-$CPUS} "$VM_DIR/vm.sh" boot "$res" "$init" "$limit"; rc=$?
  echo "vm: $name boot took $((SECONDS - t0)) s (limit $limit s, qemu exit $rc)" >&2
  if [[ -f $res/report.txt ]]; then
    cat "$res/report.txt"
    line=$(grep -E '^vm-[a-z]+: [0-9]+ passed, [0-9]+ failed' "$res/report.txt" | tail -1)
  fi
  if [[ -n $line ]]; then
    b_passed=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")
    b_failed=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
  else
    echo "FAIL the $name guest gave no report (qemu exit $rc$([[ $rc == 124 ]] && echo ": ended at its ${limit} s limit")); console's last lines:"
    tail -40 "$res/console.log" 2>/dev/null | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/^/  | /'
    b_passed=0 b_failed=$count
  fi
}

# boot NAME INIT LIMIT SCENARIOS [UNIT]: boot_once, and once more when scenarios failed under steal (TCG then
# runs several times slower and every rate and limit is off), once the host is quiet (steal.py wait), and only
# when the run's deadline (HEADROOM_TEST_DEADLINE, set by ./test) leaves room for another boot as long as this
# one. The counts are the second boot's; both reports are printed.
boot() {
  local t0=$SECONDS s0 s1 took spare=600
  s0=$(steal ticks)
  boot_once "$@"
  s1=$(steal ticks) took=$((SECONDS - t0))
  echo "vm: $1 boot: host steal $(steal share "$s0" "$s1") % over it" >&2
  if ((b_failed > 0)) && steal again "$s0" "$s1"; then
    [[ -n ${HEADROOM_TEST_DEADLINE:-} ]] && spare=$((HEADROOM_TEST_DEADLINE - $(date +%s) - took))
    if ((spare <= 0)); then
      echo "vm: $1: $b_failed failed under steal; no time left to boot it again" >&2
    else
      echo "vm: $1: $b_failed failed under steal: booting it again once the host is quiet" >&2
      steal wait "$spare" || echo "vm: $1: the host is still not quiet: booting it now" >&2
      echo "== $1 boot again (the first had $(steal share "$s0" "$s1") % steal and $b_failed failed)"
      s0=$(steal ticks)
      boot_once "$@"
      echo "vm: $1 boot again: host steal $(steal share "$s0" "$(steal ticks)") % over it" >&2
    fi
  fi
  passed=$((passed + b_passed)) failed=$((failed + b_failed))
}

# The oneshot unit the systemd guest runs (the initramfs installs it with hr-vm.target, the unit systemd
# boots into): the scenarios, then poweroff.
systemd_unit() {
  cat <<EOF
[Unit]
Description=headroom VM lab scenarios 8-9
After=basic.target
[Service]
Type=oneshot
ExecStart=/bin/bash $(guest_path "$VM_DIR/guest-systemd.sh")
TimeoutStartSec=$((SYSTEMD_LIMIT - 60))
StandardOutput=journal+console
StandardError=journal+console
ExecStopPost=/bin/systemctl --no-block poweroff
EOF
}

# picked FIRST LAST: how many of scenarios FIRST..LAST HR_VM_SCENARIOS names (all of them when it is empty).
picked() {
  local n=0 i
  for ((i = $1; i <= $2; i++)); do
    [[ -z $SCENARIOS || ,${SCENARIOS//[[:space:]]/,}, == *,$i,* ]] && n=$((n + 1))
  done
  echo "$n"
}
if [[ -z $ONLY || $ONLY == datapath ]] && (($(picked 1 7) > 0)); then
  boot datapath "$VM_DIR/guest-datapath.sh" "$DATAPATH_LIMIT" "$(picked 1 7)"
fi
if [[ -z $ONLY || $ONLY == datapath ]] && (($(picked 7 7) > 0)); then
  # Reported, not judged: one 1-vCPU boot's ceiling against its own plateau passes when it was measured.
  BOOT_CPUS=$SMALL_CPUS BOOT_SCENARIOS=7 BOOT_REPORTED=1 boot_once "datapath-${SMALL_CPUS}cpu" \
    "$VM_DIR/guest-datapath.sh" "$SMALL_LIMIT" 1
  passed=$((passed + b_passed)) failed=$((failed + b_failed))
  # Scenario 10: the sizes the small boot learned against the plateau the default boot carried.
  python3 "$VM_DIR/datapath_scenarios.py" size-check "$OUT/datapath-${SMALL_CPUS}cpu" "$OUT/datapath" >"$OUT/sizes.txt"
  cat "$OUT/sizes.txt"
  line=$(grep -E '^vm-sizes: [0-9]+ passed' "$OUT/sizes.txt" | tail -1)
  passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"${line:-x: 0 passed}")))
  failed=$((failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"${line:-x: 1 failed}")))
fi
if [[ -z $ONLY || $ONLY == systemd ]] && (($(picked 8 9) > 0)); then
  boot systemd /lib/systemd/systemd "$SYSTEMD_LIMIT" 2 systemd_unit
fi
echo "vm: runtime $((SECONDS - started)) s" >&2
echo "vm: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
