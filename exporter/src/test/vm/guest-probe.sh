#!/bin/bash
# PID 1 of the accelerator probe: reaching this line is the proof that the guest boots.
. "$(dirname "$0")/guest-common.sh"
echo HR-PROBE-OK "$(uname -r)" "$(nproc) cpus" >/hr-results/probe.txt
guest_poweroff
