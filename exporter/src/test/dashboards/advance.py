#!/usr/bin/env python3
"""Moves the counters of fixture trees once a second, as a live routing peer would, so that rates are not 0.

Usage: advance.py TREE:DOWN_BPS:UP_BPS [TREE:DOWN_BPS:UP_BPS ...]
  TREE      a copy of a fixture tree (holds sys/ and proc/)
  DOWN_BPS  download bytes per second (tunnel tx_bytes; underlay tx_bytes carries 74 bytes more per packet)
  UP_BPS    upload bytes per second (tunnel rx_bytes; underlay rx_bytes)
A tree with traffic also gets busy cores in proc/stat (softirq and steal included, cpu0 hottest) and CPU time
on its datapath threads or process. Files are replaced atomically (write, then rename) so that the exporter
never reads half a number. Runs until killed.
"""
import os
import sys
import time

PACKET = 1200          # mean inner packet size, bytes
OVERHEAD = 74          # WireGuard 32 + UDP 8 + IPv4 20 + Ethernet 14
TICKS = 100            # USER_HZ: ticks per core per second
# Ticks per second per core by /proc/stat column: user nice system idle iowait irq softirq steal
BUSY = [20, 0, 10, 42, 0, 0, 25, 3]
HOT = [20, 0, 10, 27, 0, 0, 40, 3]     # cpu0: one core hotter than the rest
IDLE = [1, 0, 1, 98, 0, 0, 0, 0]


def replace(path, text):
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def add(path, delta):
    with open(path) as f:
        v = int(f.read().strip())
    replace(path, f"{v + delta}\n")


def step_stat(path, busy):
    lines = open(path).read().splitlines()
    out, total = [], None
    cores = [i for i, l in enumerate(lines) if l.startswith("cpu") and l[3:4].isdigit()]
    sums = [0] * 10
    for i, line in enumerate(lines):
        if i in cores:
            parts = line.split()
            vals = [int(x) for x in parts[1:]]
            inc = HOT if (busy and parts[0] == "cpu0") else (BUSY if busy else IDLE)
            for k, d in enumerate(inc):
                vals[k] += d
            for k, v in enumerate(vals):
                sums[k] += v
            lines[i] = " ".join([parts[0]] + [str(v) for v in vals])
        elif line.startswith("cpu "):
            total = i
    if total is not None:
        lines[total] = "cpu  " + " ".join(str(v) for v in sums[:len(lines[total].split()) - 1])
    replace(path, "\n".join(lines) + "\n")


def step_pid(path, ticks):
    s = open(path).read().strip()
    head, rest = s[:s.rfind(")") + 1], s[s.rfind(")") + 2:].split()
    rest[12] = str(int(rest[12]) + ticks)       # field 15: stime
    replace(path, head + " " + " ".join(rest) + "\n")


def datapath_stats(proc):
    """stat files of the datapath: kernel wg-crypt / napi threads or the netbird / wireguard-go process."""
    out = []
    for pid in os.listdir(proc):
        if pid.isdigit():
            comm = open(os.path.join(proc, pid, "comm")).read().strip()
            if "wg-crypt" in comm or comm.startswith("napi/") or comm in ("netbird", "wireguard-go"):
                out.append(os.path.join(proc, pid, "stat"))
    return out


def main(argv):
    peers = []
    for arg in argv:
        tree, down, up = arg.rsplit(":", 2)
        peers.append((tree, int(float(down)), int(float(up))))
    while True:
        start = time.monotonic()
        for tree, down, up in peers:
            net = os.path.join(tree, "sys/class/net")
            busy = down + up > 0
            if busy:
                for iface_dir in ("wt0",):
                    st = os.path.join(net, iface_dir, "statistics")
                    if os.path.isdir(st):
                        add(os.path.join(st, "tx_bytes"), down)
                        add(os.path.join(st, "tx_packets"), down // PACKET)
                        add(os.path.join(st, "rx_bytes"), up)
                        add(os.path.join(st, "rx_packets"), up // PACKET)
                st = os.path.join(net, "eth0/statistics")
                add(os.path.join(st, "tx_bytes"), down + down // PACKET * OVERHEAD)
                add(os.path.join(st, "tx_packets"), down // PACKET)
                add(os.path.join(st, "rx_bytes"), up + up // PACKET * OVERHEAD)
                add(os.path.join(st, "rx_packets"), up // PACKET)
                for stat in datapath_stats(os.path.join(tree, "proc")):
                    step_pid(stat, 20)
            step_stat(os.path.join(tree, "proc/stat"), busy)
        time.sleep(max(0.0, 1.0 - (time.monotonic() - start)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
