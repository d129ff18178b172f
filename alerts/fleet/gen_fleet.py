#!/usr/bin/env python3
"""Writes a synthetic headroom fleet as OpenMetrics (for `promtool tsdb create-blocks-from openmetrics`)
and the alerts the rules must raise on it, as JSON.

Usage: gen_fleet.py --out fleet.om --expect expected.json [--peers 1000] [--networks 50] [--sites 10] [--end EPOCH]

Topology: `networks` Networks of peers/networks peers each; each Network spreads over two of the sites;
peer ceilings cycle through the kernel WireGuard reference sizes (1..16 vCPUs), so every Network's
smallest ceiling is 2 Gbps each way. Scenarios (by Network index, fixed so the result is checkable):
  OVER        load 2x one peer's ceiling (download; the last one also upload) -> HeadroomNetworkOverOnePeer
  ONE_TUNNEL  all but one peer have lost their tunnel interface                -> NoStandby warning
  ONE_SCRAPE  all but one exporter stopped answering 20 minutes ago            -> NoStandby warning
  NONE_UP     every exporter stopped answering 20 minutes ago                  -> NoStandby critical
Every other Network carries 0.5x one peer's ceiling download, 0.2x upload, on healthy peers.
The margins are wide because the data ends when it is generated: a 5-minute rate read a minute or two
later covers only part of its window and reads low.
"""
import argparse
import json
import sys
import time

STEP = 30                 # seconds between samples (the scrape interval)
SPAN = 30 * 60            # seconds of history (covers rate windows and the 20-minute outages)
OUTAGE = 20 * 60          # exporters in ONE_SCRAPE / NONE_UP stop answering this long before the end
SITES = 10
# (download Gbps, upload Gbps) for 1, 2, 4, 8, 16 vCPUs, kernel WireGuard, MTU 1280.
CEILINGS_GBPS = [(2, 2), (3, 3), (7, 4), (13, 11), (20, 15)]
VERDICTS = ["headroom", "cpu_bound", "link_bound", "single_tunnel_bound", "no_datapath"]
DATAPATHS = ["kernel", "userspace", "absent"]


def scenarios(networks):
    if networks < 10:
        sys.exit("gen_fleet.py: --networks must be at least 10 to place every scenario")
    pick = lambda frac: int(networks * frac)
    return {
        "OVER": [pick(0.06), pick(0.34), pick(0.58), pick(0.82)],
        "ONE_TUNNEL": [pick(0.16)],
        "ONE_SCRAPE": [pick(0.44)],
        "NONE_UP": [pick(0.70)],
    }


def gbps_to_bytes(g):
    return g * 1e9 / 8


def build(peers, networks, end, sites=SITES):
    """The fleet as data: its peers (dicts), the sample times, the scenarios and where the data ends.
    Every value is a function of time (see families()), so the same fleet can be written as history
    and served live after it (fleet_exporter.py) without a seam."""
    if peers % networks or peers // networks < len(CEILINGS_GBPS):
        sys.exit("gen_fleet.py: --peers must be a multiple of --networks with at least 5 peers per Network")
    if sites < 2:
        sys.exit("gen_fleet.py: --sites must be at least 2 (every Network spans two sites)")
    per_net = peers // networks
    sc = scenarios(networks)
    role = {}
    for name, nets in sc.items():
        for n in nets:
            role[n] = name
    end = end - end % STEP
    outage_from = end - OUTAGE

    fleet = []  # dicts describing each peer
    for n in range(networks):
        net = f"net-{n:02d}"
        r = role.get(n, "OK")
        min_dl = gbps_to_bytes(min(c[0] for c in CEILINGS_GBPS))
        min_ul = gbps_to_bytes(min(c[1] for c in CEILINGS_GBPS))
        dl_total = min_dl * (2.0 if r == "OVER" else 0.5)
        ul_total = min_ul * (2.0 if r == "OVER" and n == sc["OVER"][-1] else 0.2)
        # Uneven split (weights 1..3) so no two peers look alike; sums stay exact.
        weights = [1 + (j % 3) for j in range(per_net)]
        live = list(range(per_net))
        if r in ("ONE_TUNNEL", "ONE_SCRAPE"):
            live = [0]
        elif r == "NONE_UP":
            live = []
        wsum = sum(weights[j] for j in live) or 1
        for j in range(per_net):
            cd, cu = CEILINGS_GBPS[j % len(CEILINGS_GBPS)]
            carrying = j in live
            fleet.append(peer(
                f"peer-{n:02d}-{j:02d}:10170", net, f"site-{(n + j % 2) % sites:02d}",
                gbps_to_bytes(cd), gbps_to_bytes(cu),
                dl_total * weights[j] / wsum if carrying else 0.0,
                ul_total * weights[j] / wsum if carrying else 0.0,
                tunnel_up=0 if (r == "ONE_TUNNEL" and j != 0) else 1,
                scraped_until=outage_from if (r == "ONE_SCRAPE" and j != 0) or r == "NONE_UP" else None,
                datapath="userspace" if j % 7 == 3 else "kernel"))
    return {"peers": fleet, "times": list(range(end - SPAN, end + 1, STEP)), "end": end,
            "scenarios": sc, "networks": networks}


def peer(instance, network, site, ceil_dl, ceil_ul, dl, ul, tunnel_up=1, scraped_until=None,
         datapath="kernel"):
    """One peer: ceilings and steady load in bytes/s; scraped_until None means it still answers."""
    return {"instance": instance, "network": network, "site": site, "ceil_dl": ceil_dl, "ceil_ul": ceil_ul,
            "dl": dl, "ul": ul, "tunnel_up": tunnel_up,
            "scraped_until": float("inf") if scraped_until is None else scraped_until, "datapath": datapath}


def verdict(p):
    """Every generated peer has room; one whose tunnel is gone has no datapath to judge."""
    return "headroom" if p["tunnel_up"] else "no_datapath"


def spare(p, ceiling_key):
    """(1 - download/its ceiling - upload/its ceiling) of the direction's ceiling, as the exporter models it."""
    return max(0.0, 1 - p["dl"] / p["ceil_dl"] - p["ul"] / p["ceil_ul"]) * p[ceiling_key]


def families(fleet_peers, origin, with_up=True):
    """Yields (family, type, [(labels, value function of (peer, t) or None when absent, peer), ...]).
    `origin` is the time the byte counters started from 1e6. The exporter serves all but `up`."""
    def base(p, **extra):
        return dict({"job": "headroom", "instance": p["instance"]}, **extra)

    live = lambda p, t: t <= p["scraped_until"]
    if with_up:
        yield "up", "gauge", [(base(p), lambda p, t: 1 if live(p, t) else 0, p) for p in fleet_peers]
    yield "headroom_peer_info", "gauge", [
        (base(p, network=p["network"], site=p["site"]), lambda p, t: 1 if live(p, t) else None, p)
        for p in fleet_peers]
    yield "headroom_tunnel_up", "gauge", [
        (base(p), lambda p, t: p["tunnel_up"] if live(p, t) else None, p) for p in fleet_peers]
    yield "headroom_last_sample_timestamp_seconds", "gauge", [
        (base(p), lambda p, t: t - 0.5 if live(p, t) else None, p) for p in fleet_peers]
    yield "headroom_tunnel_bytes", "counter", [
        (base(p, direction=d), (lambda key: lambda p, t: round(p[key] * (t - origin) + 1e6)
                                if live(p, t) else None)(k), p)
        for p in fleet_peers for d, k in (("download", "dl"), ("upload", "ul"))]
    yield "headroom_ceiling_bytes_per_second", "gauge", [
        (base(p, direction=d), (lambda key: lambda p, t: p[key] if live(p, t) else None)(k), p)
        for p in fleet_peers for d, k in (("download", "ceil_dl"), ("upload", "ceil_ul"))]
    yield "headroom_verdict", "gauge", [
        (base(p, direction=d, verdict=v),
         (lambda v: lambda p, t: (1 if v == verdict(p) else 0) if live(p, t) else None)(v), p)
        for p in fleet_peers for d in ("download", "upload") for v in VERDICTS]
    # The exporter's spare: the ceiling fractions add on one CPU; absent without a tunnel.
    yield "headroom_spare_bytes_per_second", "gauge", [
        (base(p, direction=d), (lambda key: lambda p, t: spare(p, key) if live(p, t) and p["tunnel_up"] else None)(k),
         p)
        for p in fleet_peers for d, k in (("download", "ceil_dl"), ("upload", "ceil_ul"))]
    yield "headroom_datapath", "gauge", [
        (base(p, datapath=dp),
         (lambda dp: lambda p, t: (1 if p["datapath"] == dp else 0) if live(p, t) else None)(dp), p)
        for p in fleet_peers for dp in DATAPATHS]


SERIES_PER_PEER = 1 + 1 + 1 + 1 + 2 + 2 + 10 + 2 + 3     # the families above, per peer


def openmetrics_lines(fleet_peers, times):
    """OpenMetrics sample lines (with `# TYPE`, without `# EOF`), counters from times[0]."""
    for name, typ, series in families(fleet_peers, times[0]):
        yield f"# TYPE {name} {typ}\n"
        sample = name + "_total" if typ == "counter" else name
        for labels, fn, p in series:
            lab = ",".join(f'{k}="{v}"' for k, v in labels.items())
            for t in times:
                v = fn(p, t)
                if v is not None:
                    yield f"{sample}{{{lab}}} {v!r} {t}\n"


def write_openmetrics(path, fleet_peers, times):
    """History for `promtool tsdb create-blocks-from openmetrics`."""
    with open(path, "w") as f:
        f.writelines(openmetrics_lines(fleet_peers, times))
        f.write("# EOF\n")


def expected(fleet):
    """The alerts the rules must raise on the generated peers, and what the fleet is."""
    sc, end = fleet["scenarios"], fleet["end"]
    expect = {"HeadroomNetworkOverOnePeer": [], "HeadroomNetworkNoStandby": [],
              "HeadroomTunnelDown": [], "HeadroomExporterAbsent": []}
    for n in sc["OVER"]:
        expect["HeadroomNetworkOverOnePeer"].append(f"network=net-{n:02d},direction=download")
    expect["HeadroomNetworkOverOnePeer"].append(f"network=net-{sc['OVER'][-1]:02d},direction=upload")
    for n in sc["ONE_TUNNEL"] + sc["ONE_SCRAPE"]:
        expect["HeadroomNetworkNoStandby"].append(f"network=net-{n:02d},severity=warning")
    for n in sc["NONE_UP"]:
        expect["HeadroomNetworkNoStandby"].append(f"network=net-{n:02d},severity=critical")
    for p in fleet["peers"]:
        if p["scraped_until"] < end:
            expect["HeadroomExporterAbsent"].append(f"instance={p['instance']}")
        elif p["tunnel_up"] == 0:
            expect["HeadroomTunnelDown"].append(f"instance={p['instance']}")
    meta = {"peers": len(fleet["peers"]), "networks": fleet["networks"], "end": end,
            "series_per_peer": SERIES_PER_PEER,
            "scenarios": {k: [f"net-{n:02d}" for n in v] for k, v in sc.items()}}
    return {"meta": meta, "alerts": {k: sorted(v) for k, v in expect.items()}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--expect", required=True)
    ap.add_argument("--peers", type=int, default=1000)
    ap.add_argument("--networks", type=int, default=50)
    ap.add_argument("--sites", type=int, default=SITES)
    ap.add_argument("--end", type=int, default=int(time.time()))
    a = ap.parse_args()
    fleet = build(a.peers, a.networks, a.end, a.sites)
    write_openmetrics(a.out, fleet["peers"], fleet["times"])
    with open(a.expect, "w") as f:
        json.dump(expected(fleet), f, indent=1)


if __name__ == "__main__":
    main()
