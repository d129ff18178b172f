#!/usr/bin/env python3
"""Waits for vmalert's first evaluation of the Network alerts and tells whether it restored the planted alert's
`for` state (alerts/multisite/test.sh, right after it starts vmalert).

vmalert (1.79) restores `for` state before a group's first evaluation, as pending alerts, and that evaluation
keeps a restored alert only if the alert's expression answers it then; otherwise the alert is dropped and starts
over, its `for:` clock reset. The planted HeadroomNetworkOverOnePeer net-live download reads the Network's load,
which leans on live-a's raw series. A scrape of live-a that failed just before (Prometheus then writes staleness
markers for all its series) leaves that one evaluation without live-a: the restore is lost without anything being
wrong with it. So this script reads, at the first evaluation's query time, what the alert's expression and its
inputs answered, and prints it; the caller restarts vmalert (bounded) only when that evaluation read no overload.

Usage: first_eval.py --vm URL --vmalert URL --end EPOCH --started EPOCH [--timeout 90]
Prints `# ...` lines (what the first evaluation read) and a last line; exits 0 when the planted alert was
restored (active since within the history), 2 when the first evaluation read net-live without its overload (the
seam: restart vmalert to restore again), 1 otherwise (the restore is broken).
"""
import argparse
import calendar
import sys
import time

from check_multisite import EVAL, http_json, query, hms

GROUP = "headroom.network.alerts"
ALERT = "HeadroomNetworkOverOnePeer"
WANT = {"network": "net-live", "direction": "download"}
# What the planted alert's expression leans on, down to live-a's raw series.
INPUTS = ['network:headroom_utilization:ratio_rate5m{network="net-live"}',
          'network:headroom_tunnel_bytes:rate5m{network="net-live"}',
          'instance:headroom_tunnel_bytes:rate5m{network="net-live"}',
          'headroom_peer_info{network="net-live"}',
          'up{instance=~"live-.:10170"}']


def epoch(rfc3339):
    """RFC 3339 (Go's time.Time in JSON) as epoch seconds; None for Go's zero time."""
    if not rfc3339 or rfc3339.startswith("0001-"):
        return None
    return calendar.timegm(time.strptime(rfc3339[:19], "%Y-%m-%dT%H:%M:%S"))


def group(vmalert):
    for g in http_json(vmalert + "/api/v1/rules", timeout=5)["data"]["groups"]:
        if g["name"] == GROUP:
            return g
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag in ("--vm", "--vmalert"):
        ap.add_argument(flag, required=True)
    ap.add_argument("--end", type=int, required=True, help="when the history ended")
    ap.add_argument("--started", type=float, required=True, help="when vmalert started")
    ap.add_argument("--timeout", type=float, default=90)
    a = ap.parse_args()

    # The group starts within one interval (a phase from its name and file), then evaluates: poll its
    # lastEvaluation, bounded.
    until, g, first = time.time() + a.timeout, None, None
    while time.time() < until:
        try:
            g = group(a.vmalert)
        except (OSError, ValueError, KeyError):
            g = None
        first = epoch(g.get("lastEvaluation")) if g else None
        if first:
            break
        time.sleep(0.5)
    if not first:
        print(f"vmalert did not evaluate {GROUP} within {a.timeout:.0f}s of its start")
        return 1
    rule = next((r for r in g["rules"] if r["name"] == ALERT), None)
    alert = next((al for al in (rule or {}).get("alerts") or []
                  if all(al["labels"].get(k) == v for k, v in WANT.items())), None)
    active_at = epoch(alert["activeAt"]) if alert else None
    print(f"# vmalert started {hms(a.started)}; first evaluation of {GROUP} at {hms(first)}; "
          f"{ALERT} net-live download: " + (f"{alert['state']}, active since {hms(active_at)}, restored "
                                           f"{alert.get('restored')}" if alert else "absent"))
    if active_at is not None and active_at <= a.end:
        print(f"vmalert restored {ALERT} net-live download from the history (active since {hms(active_at)}, "
              f"history ended {hms(a.end)})")
        return 0

    # The evaluation that dropped or never had the alert: the first, or, when the poll came a round late and the
    # alert is back as new, the one before it. vmalert queries at that evaluation's time aligned down to the
    # interval (-datasource.queryTimeAlignment).
    ev = first
    if active_at is not None:
        ev = active_at - EVAL if active_at - EVAL >= a.started - 1 else active_at
    at = ev - ev % EVAL
    read = {}
    for expr in [f'last_over_time(ALERTS_FOR_STATE{{alertname="{ALERT}",network="net-live"}}[1h])'] + INPUTS:
        try:
            read[expr] = query(a.vm, expr, at)
        except (OSError, ValueError, RuntimeError) as e:
            read[expr] = e
        print(f"#   {expr} at {hms(at)}: " + (str(read[expr]) if isinstance(read[expr], Exception) else
              "; ".join(f"{dict(k)} {v:g}" for k, v in sorted(read[expr].items(), key=str)) or "no series"))
    overload = read[INPUTS[0]]
    overloaded = not isinstance(overload, Exception) and any(
        v > 1 and all(dict(k).get(n) == w for n, w in WANT.items()) for k, v in overload.items())
    if not overloaded:
        print(f"vmalert's first evaluation at {hms(ev)} read net-live download at no overload: its inputs "
              "lacked a live peer then (a missed scrape); the restored alert was dropped with nothing wrong in "
              "the restore")
        return 2
    print(f"vmalert's first evaluation at {hms(ev)} read net-live download over one peer, yet {ALERT} is "
          + (f"active only since {hms(active_at)}" if alert else "absent") + ": the restore did not happen")
    return 1


if __name__ == "__main__":
    sys.exit(main())
