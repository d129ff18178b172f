#!/usr/bin/env python3
"""History and scrape targets for the multi-site fleet test: one fleet (gen_fleet.py's model, sites site-00 and
site-01, plus the live headroom daemons), cut the way each component of the topology would have stored it.

Usage:
  history.py prepare --dir DIR --end EPOCH --exporter HOST:PORT [--peers 200] [--networks 10]
                     --live NAME,NETWORK,SITE,CEIL_DL,CEIL_UL,DL,UL,HOST:PORT [--live ...]
      DIR/reference.om        every peer, for the one-site Prometheus (promtool backfill)
      DIR/<site>.om           that site's peers, for both replicas of the site
      DIR/vm-import.jsonl     every site's peers once per replica, with the external labels site and replica
                              that remote_write adds (VictoriaMetrics /api/v1/import)
      DIR/targets-<site>.json, DIR/targets-all.json   file_sd targets (the daemons and the fleet exporter)
      DIR/expected.json       the alerts the rules must raise (gen_fleet's plus the live Network's)
  history.py vm-import --out FILE --end EPOCH --peers N --networks M [--sites 10]
      A fleet of gen_fleet.py's model alone, as the central store holds it after dedup (no replica label);
      prints gen_fleet's expected alerts as JSON (alerts/multisite/scale.sh)
  history.py for-state --dir DIR < export.jsonl
      Writes DIR/for-state.om: the ALERTS_FOR_STATE series exported from VictoriaMetrics (as vmalert's replay
      wrote them), for backfilling into a site Prometheus, which restores from them the `for` state the replay
      computed over the same history when it starts.
Live peers: NAME is the instance label (NAME:10170), ceilings and load in bytes/s, HOST:PORT the daemon.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fleet"))
import gen_fleet  # noqa: E402

SITES = 2
REPLICAS = ("1", "2")


def write_vm_import(path, peers, times, replicas):
    """VictoriaMetrics /api/v1/import lines (one per series and replica), with the external labels a site
    Prometheus adds: `site` where the series has none, and `replica` unless replicas is empty."""
    with open(path, "w") as f:
        for name, typ, series in gen_fleet.families(peers, times[0]):
            sample = name + "_total" if typ == "counter" else name
            for labels, fn, p in series:
                pts = [(t, fn(p, t)) for t in times]
                pts = [(t, v) for t, v in pts if v is not None]
                if not pts:
                    continue
                for replica in replicas or (None,):
                    metric = dict({"__name__": sample}, **labels)
                    metric.setdefault("site", p["site"])
                    if replica:
                        metric["replica"] = replica
                    f.write(json.dumps({"metric": metric, "values": [v for _, v in pts],
                                        "timestamps": [t * 1000 for t, _ in pts]}) + "\n")


def prepare(a):
    fleet = gen_fleet.build(a.peers, a.networks, a.end, SITES)
    times = fleet["times"]
    live = []
    for spec in a.live:
        name, network, site, cdl, cul, dl, ul, addr = spec.split(",")
        p = gen_fleet.peer(f"{name}:10170", network, site, float(cdl), float(cul), float(dl), float(ul))
        p["address"] = addr
        live.append(p)
    peers = fleet["peers"] + live
    sites = sorted({p["site"] for p in peers})
    os.makedirs(a.dir, exist_ok=True)

    with open(os.path.join(a.dir, "reference.om"), "w") as f:
        f.writelines(gen_fleet.openmetrics_lines(peers, times))
        f.write("# EOF\n")
    for site in sites:
        with open(os.path.join(a.dir, f"{site}.om"), "w") as f:
            f.writelines(gen_fleet.openmetrics_lines([p for p in peers if p["site"] == site], times))
            f.write("# EOF\n")

    # What remote_write would have delivered: each replica's copy, external labels added where absent.
    write_vm_import(os.path.join(a.dir, "vm-import.jsonl"), peers, times, REPLICAS)

    def targets(group):
        out = [{"targets": [a.exporter], "labels": {"__metrics_path__": f"/peers/{p['instance'].split(':')[0]}/metrics",
                                                     "instance": p["instance"]}}
               for p in group if "address" not in p]
        out += [{"targets": [p["address"]], "labels": {"instance": p["instance"]}} for p in group if "address" in p]
        return out
    for site in sites:
        with open(os.path.join(a.dir, f"targets-{site}.json"), "w") as f:
            json.dump(targets([p for p in peers if p["site"] == site]), f)
    with open(os.path.join(a.dir, "targets-all.json"), "w") as f:
        json.dump(targets(peers), f)

    exp = gen_fleet.expected(fleet)
    exp["meta"]["peers"] = len(peers)
    exp["meta"]["sites"] = sites
    exp["meta"]["live"] = [{k: p[k] for k in ("instance", "network", "site", "ceil_dl", "ceil_ul", "dl", "ul")}
                           for p in live]
    # The live Network: its load against its smallest ceiling, per direction.
    for net in sorted({p["network"] for p in live}):
        members = [p for p in live if p["network"] == net]
        for d, load, ceil in (("download", "dl", "ceil_dl"), ("upload", "ul", "ceil_ul")):
            if sum(p[load] for p in members) > min(p[ceil] for p in members):
                exp["alerts"]["HeadroomNetworkOverOnePeer"].append(f"network={net},direction={d}")
    exp["alerts"]["HeadroomNetworkOverOnePeer"].sort()
    with open(os.path.join(a.dir, "expected.json"), "w") as f:
        json.dump(exp, f, indent=1)


def for_state(a):
    lines = []
    for raw in sys.stdin:
        if not raw.strip():
            continue
        s = json.loads(raw)
        m = s["metric"]
        lab = ",".join(f'{k}="{v}"' for k, v in sorted(m.items()) if k != "__name__")
        for v, t in zip(s["values"], s["timestamps"]):
            lines.append(f"ALERTS_FOR_STATE{{{lab}}} {v!r} {t / 1000}\n")
    if not lines:
        sys.exit("history.py for-state: no ALERTS_FOR_STATE series in the export (did the replay write any?)")
    with open(os.path.join(a.dir, "for-state.om"), "w") as f:
        f.write("# TYPE ALERTS_FOR_STATE gauge\n")
        f.writelines(lines)
        f.write("# EOF\n")
    print(f"history.py: {len(lines)} ALERTS_FOR_STATE samples written")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--dir", required=True)
    p.add_argument("--end", type=int, required=True)
    p.add_argument("--exporter", required=True)
    p.add_argument("--peers", type=int, default=200)
    p.add_argument("--networks", type=int, default=10)
    p.add_argument("--live", action="append", default=[])
    f = sub.add_parser("for-state")
    f.add_argument("--dir", required=True)
    v = sub.add_parser("vm-import")
    v.add_argument("--out", required=True)
    v.add_argument("--end", type=int, required=True)
    v.add_argument("--peers", type=int, required=True)
    v.add_argument("--networks", type=int, required=True)
    v.add_argument("--sites", type=int, default=10)
    a = ap.parse_args()
    if a.cmd == "prepare":
        prepare(a)
    elif a.cmd == "for-state":
        for_state(a)
    else:
        fleet = gen_fleet.build(a.peers, a.networks, a.end, a.sites)
        write_vm_import(a.out, fleet["peers"], fleet["times"], ())
        json.dump(gen_fleet.expected(fleet), sys.stdout)


if __name__ == "__main__":
    main()
