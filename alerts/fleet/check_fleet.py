#!/usr/bin/env python3
"""Checks a Prometheus that evaluates headroom-rules.yml over a generated fleet: exactly the expected
alerts are active (pending or firing), the recording rules cover the fleet, and how long each rule
group takes to evaluate.

Usage: check_fleet.py --url http://127.0.0.1:PORT --expect expected.json

Prints one `ok - ...` or `FAIL - ...` line per check, the evaluation times, and last
`fleet-checks: P passed, F failed`. Exits 1 when a check failed.
"""
import argparse
import json
import os
import statistics
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", "exporter", "scripts"))
from checks import Checks  # noqa: E402

KEYS = {
    "HeadroomNetworkOverOnePeer": ("network", "direction"),
    "HeadroomNetworkNoStandby": ("network", "severity"),
    "HeadroomTunnelDown": ("instance",),
    "HeadroomExporterAbsent": ("instance",),
}
SETTLE_EVALS = 3     # peer rules -> Network rules -> Network alerts: up to three rounds until records reach alerts
SAMPLE_EVALS = 8     # evaluations per group whose duration is measured


def get(url, path, **params):
    q = ("?" + urllib.parse.urlencode(params)) if params else ""
    with urllib.request.urlopen(url + path + q, timeout=30) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError(f"{path}: {body}")
    return body["data"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--expect", required=True)
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--pid", type=int, help="Prometheus PID: also report its CPU time per evaluation round")
    a = ap.parse_args()
    exp = json.load(open(a.expect))
    meta = exp["meta"]
    check = Checks("fleet-checks")

    def query(q):
        return get(a.url, "/api/v1/query", query=q)["result"]

    def check_alerts_and_records(groups):
        bad = [(g["name"], r["name"], r.get("lastError")) for g in groups for r in g["rules"]
               if r.get("health") != "ok"]
        check(not bad, "every rule evaluates without error", str(bad))
        # The data ends when it was generated; rates and instant selectors look back 5 minutes, and a
        # rate over a window the data only partly covers reads low. Read early.
        age = time.time() - meta["end"]
        check(age < 150, f"alerts read {age:.0f}s after the last sample (rates still cover most of 5m)",
              "the machine is too slow for this fleet size; the series aged before the rules settled")
        alerts = get(a.url, "/api/v1/alerts")["alerts"]
        got = {}
        for al in alerts:
            name = al["labels"]["alertname"]
            keys = KEYS.get(name, ("instance", "network", "direction"))
            got.setdefault(name, set()).add(",".join(f"{k}={al['labels'].get(k, '')}" for k in keys))
        for name, want in exp["alerts"].items():
            have = got.get(name, set())
            want = set(want)
            check(have == want, f"{name}: exactly {len(want)} expected ({', '.join(sorted(want)[:5])}"
                  f"{', ...' if len(want) > 5 else ''})",
                  f"missing {sorted(want - have)}, unexpected {sorted(have - want)}")
        extra = {n: sorted(v)[:5] for n, v in got.items() if n not in exp["alerts"]}
        check(not extra, "no other alert is active anywhere in the fleet", str(extra))

        down = len(exp["alerts"]["HeadroomExporterAbsent"])
        n = query("count(instance:headroom_tunnel_bytes:rate5m)")
        want = 2 * (meta["peers"] - down)
        check(n and float(n[0]["value"][1]) == want,
              f"instance:headroom_tunnel_bytes:rate5m has {want} series (2 directions x peers answering)",
              str(n))
        per_net = meta["peers"] // meta["networks"]
        n = query("count(network:headroom_peers:count == %d)" % per_net)
        check(n and float(n[0]["value"][1]) == meta["networks"],
              f"network:headroom_peers:count remembers all {per_net} peers of each of the "
              f"{meta['networks']} Networks", str(n))
        n = query("count(site:headroom_tunnel_bytes:rate5m)")
        check(n and float(n[0]["value"][1]) == 20,
              "site:headroom_tunnel_bytes:rate5m has 10 sites x 2 directions", str(n))

    # Watch the groups evaluate; keep each distinct evaluation's duration. Check the alerts as soon as
    # every group has settled, then keep measuring.
    def cpu_seconds():
        if not a.pid:
            return None
        with open(f"/proc/{a.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime + stime

    seen = {}
    checked = False
    cpu_start = None
    deadline = time.time() + a.timeout
    while True:
        groups = get(a.url, "/api/v1/rules")["groups"]
        for g in groups:
            last = g.get("lastEvaluation", "")
            if last and not last.startswith("0001"):
                seen.setdefault(g["name"], {})[last] = (g["evaluationTime"], len(g["rules"]))
        evals = lambda k: groups and all(len(seen.get(g["name"], {})) >= k for g in groups)
        if not checked and evals(SETTLE_EVALS):
            check_alerts_and_records(groups)
            checked = True
            cpu_start, rounds_start = cpu_seconds(), min(len(v) for v in seen.values())
        if checked and evals(SETTLE_EVALS + SAMPLE_EVALS):
            cpu_end, rounds_end = cpu_seconds(), min(len(v) for v in seen.values())
            break
        if time.time() > deadline:
            print(f"FAIL - rule groups did not evaluate {SETTLE_EVALS + SAMPLE_EVALS} times within "
                  f"{a.timeout:.0f}s: {({k: len(v) for k, v in seen.items()})}")
            check.failed += 1
            return check.finish()
        time.sleep(1)

    # Durations: skip the settling evaluations, keep the rest.
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"fleet: {meta['peers']} peers, {meta['networks']} Networks, "
          f"{meta['peers'] * meta['series_per_peer']} input series; evaluation interval 15s; "
          f"load average {load} on {os.cpu_count()} CPUs")
    totals = []
    per_group = {}
    for name, evals in seen.items():
        ordered = [evals[k][0] for k in sorted(evals)][SETTLE_EVALS:]
        per_group[name] = ordered
        print(f"fleet: group {name}: {evals[sorted(evals)[-1]][1]} rules, evaluation "
              f"median {statistics.median(ordered) * 1000:.1f} ms, max {max(ordered) * 1000:.1f} ms "
              f"over {len(ordered)} evaluations")
    total_median = sum(statistics.median(v) for v in per_group.values())
    total_max = sum(max(v) for v in per_group.values())
    print(f"fleet: all groups: median {total_median * 1000:.1f} ms, max {total_max * 1000:.1f} ms per evaluation")
    if cpu_start is not None and rounds_end > rounds_start:
        # Prometheus scrapes nothing here, so its CPU time is rule evaluation plus this script's polling.
        print(f"fleet: Prometheus CPU time per evaluation round of all groups: "
              f"{(cpu_end - cpu_start) / (rounds_end - rounds_start) * 1000:.0f} ms "
              f"over {rounds_end - rounds_start} rounds")
    rules = sorted(((r.get("evaluationTime", 0), r["name"]) for g in groups for r in g["rules"]), reverse=True)
    print("fleet: slowest rules in the last evaluation: " +
          ", ".join(f"{n} {t * 1000:.0f} ms" for t, n in rules[:4]))
    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
