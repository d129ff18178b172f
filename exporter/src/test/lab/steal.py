#!/usr/bin/env python3
"""The host's steal, for both labs: the share of the host's CPU the hypervisor ran something else on while this
guest wanted to run (/proc/stat's steal column). A scenario that compares rates with the CPU the datapath had
measures nothing while a share of the machine is elsewhere, so a step that failed under steal runs again once the
host is quiet.

As a module (the wireguard-go lab): host_steal(), steal_share(), wait_for_little_steal().
As a command (the VM lab, in bash):
    steal.py ticks                  prints "ALL STEAL", the host's ticks since boot
    steal.py share "A S" "A S"      prints the steal between two readings in % (a whole number)
    steal.py again "A S" "A S"      exits 0 when that steal calls for running a failed step again
    steal.py wait SECONDS           exits 0 once the host is quiet, 1 when SECONDS pass first
"""
import sys
import time

# A step that fails while the hypervisor took more than this share of the host's CPU runs again.
STEAL_AGAIN = 0.10
# A window with more steal than this is not quiet: a rate window of the wireguard-go lab's scenario 13 with more is
# measured again, and a step runs again only after STEAL_QUIET seconds in a row this quiet, waited for at most
# STEAL_WAIT seconds. Steal comes in episodes of minutes on a shared host: a few quiet seconds inside one
# predict nothing, half a minute does better.
STEAL_WINDOW = 0.05
STEAL_WAIT, STEAL_QUIET, STEAL_POLL = 600.0, 30.0, 5.0


def host_steal():
    """(all ticks, steal ticks) of the whole host since boot, from /proc/stat's first line."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return sum(v), v[7]


def steal_share(before, after):
    return (after[1] - before[1]) / (after[0] - before[0]) if after[0] > before[0] else 0.0


def wait_for_little_steal(limit=STEAL_WAIT):
    """Seconds until STEAL_QUIET seconds in a row with host steal at most STEAL_WINDOW in every STEAL_POLL, or
    None after `limit`."""
    start = quiet_since = time.monotonic()
    last = host_steal()
    while time.monotonic() - start < limit:
        time.sleep(STEAL_POLL)
        now, ticks = time.monotonic(), host_steal()
        if steal_share(last, ticks) > STEAL_WINDOW:
            quiet_since = now
        elif now - quiet_since >= STEAL_QUIET:
            return now - start
        last = ticks
    return None


def _reading(text):
    a, s = text.split()
    return int(a), int(s)


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "ticks":
        print(*host_steal())
    elif cmd == "share":
        print(int(steal_share(_reading(sys.argv[2]), _reading(sys.argv[3])) * 100))
    elif cmd == "again":
        sys.exit(0 if steal_share(_reading(sys.argv[2]), _reading(sys.argv[3])) > STEAL_AGAIN else 1)
    elif cmd == "wait":
        sys.exit(0 if wait_for_little_steal(min(STEAL_WAIT, float(sys.argv[2]))) is not None else 1)
    else:
        sys.exit("usage: steal.py ticks | share A B | again A B | wait SECONDS")
