#!/bin/bash
# PID 1 of the kernel datapath guest: loads the kernel's WireGuard, builds the lab's namespaces with kernel
# tunnels (lab.sh, HR_LAB_WG=kernel), runs datapath_scenarios.py in the peer's namespace (only the scenarios
# HR_VM_SCENARIOS names, when it names any), writes the report to /hr-results and powers off. Settings come from
# /hr-results/env, written by the host (run-vm.sh).
VM_DIR=$(cd "$(dirname "$0")" && pwd)
. "$VM_DIR/guest-common.sh"
OUT=/hr-results
. "$OUT/env"
exec > >(tee -a "$OUT/guest.log") 2>&1
echo "guest: $(uname -r), $(nproc) cpus, $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) MiB"
for m in wireguard veth sch_tbf; do
  busybox modprobe "$m" || echo "guest: modprobe $m failed"
done
# ping(8) is not on every host image; busybox's is (the lab falls back to a python echo, slow when emulated).
if ! command -v ping >/dev/null; then
  mkdir -p /run/hr-bin && ln -sf "$(command -v busybox)" /run/hr-bin/ping && export PATH=/run/hr-bin:$PATH
fi
export HR_LAB_WG=kernel HR_LAB_STATE=/run/headroom-lab HR_LAB_LOCK=/run/headroom-lab.lock
LAB=$VM_DIR/../lab/lab.sh
t0=$SECONDS
if "$LAB" up >"$OUT/lab-up.log" 2>&1; then
  echo "guest: lab up in $((SECONDS - t0)) s"
  # The scenarios' own directory is on the guest's tmpfs: Prometheus mmaps its files, which 9p cannot do.
  work=/run/hr-out
  mkdir -p "$work/pids"
  HR_LAB_ONLY=${HR_VM_SCENARIOS:-} HR_VM_REPORTED=${HR_VM_REPORTED:-0} ip netns exec hr-peer timeout -k 10 "$HR_VM_SCENARIO_LIMIT" python3 "$VM_DIR/datapath_scenarios.py" \
    --jar "$HR_VM_JAR" --rules "$HR_VM_RULES" --out "$work" --lab "$LAB"
  echo "guest: scenarios ended (exit $?) after $((SECONDS - t0)) s"
  cp "$work"/*.log "$work"/*.txt "$OUT"/ 2>/dev/null
else
  echo "guest: lab.sh up failed:"; tail -20 "$OUT/lab-up.log"
fi
"$LAB" down >/dev/null 2>&1
guest_poweroff
