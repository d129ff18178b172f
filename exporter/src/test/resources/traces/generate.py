#!/usr/bin/env python3
"""Writes the throughput traces the plateau tests read. Deterministic: fixed seeds, no clock.

Run from this directory: python3 generate.py
Each CSV has a header and one row per second: seconds since start, tunnel bytes per second.
Shapes follow what adding iperf3 streams to a peer looks like (facts: capacity is where throughput stops
rising as load is added):
  rising_then_flat.csv  0-60 s climbs from 0.5 to ~6.8 Gbps as streams are added (3 % noise), then holds
                        near 6.8 Gbps (the userspace plateau) for 60 s (3 % noise).
  noisy_flat.csv        120 s at ~2.3 Gbps with +-10 % noise (a small peer already at its limit).
  never_flat.csv        120 s climbing steadily from 0.2 to 6 Gbps (2 % noise): load never found the limit.
"""
import random

GBPS = 1e9 / 8


def write(name, rows):
    with open(name, "w") as f:
        f.write("seconds,bytes_per_second\n")
        for t, v in rows:
            f.write("%d,%d\n" % (t, round(v)))


def rising_then_flat():
    r = random.Random(1280)
    rows = []
    for t in range(1, 121):
        level = 0.5 + (6.8 - 0.5) * min(t, 60) / 60.0
        rows.append((t, level * GBPS * r.uniform(0.97, 1.03)))
    return rows


def noisy_flat():
    r = random.Random(2300)
    return [(t, 2.3 * GBPS * r.uniform(0.90, 1.10)) for t in range(1, 121)]


def never_flat():
    r = random.Random(6000)
    return [(t, (0.2 + 5.8 * t / 120.0) * GBPS * r.uniform(0.98, 1.02)) for t in range(1, 121)]


if __name__ == "__main__":
    write("rising_then_flat.csv", rising_then_flat())
    write("noisy_flat.csv", noisy_flat())
    write("never_flat.csv", never_flat())
