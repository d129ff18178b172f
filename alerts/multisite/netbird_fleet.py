#!/usr/bin/env python3
"""Writes a NetBird management API answer set for a test fleet: networks.json, routers.json, routes.json,
peers.json and groups.json in DIR, with the fields of NetBird's schema (shared/management/http/api/openapi.yml:
Network, NetworkRouter, Route, PeerBatch, Group) that `headroom discover` reads. The stand-in API
(exporter/src/test/discover/netbird_standin.py --fixtures DIR) serves them to a real `headroom discover`.

Usage:
  netbird_fleet.py --out DIR --peer NAME IP GROUPS CONNECTED ... --router NETWORK PEER METRIC ENABLED ...
    GROUPS     comma-separated group names of the peer ("-" for none)
    CONNECTED  1 or 0: NetBird's `connected` for the peer
    ENABLED    1 or 0: the router's `enabled`
  Each Network gets id "nw-<name>", each router id "r-<network>-<peer>" and names its peer by id (`peer`).
"""
import argparse
import json
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--peer", nargs=4, action="append", default=[], metavar=("NAME", "IP", "GROUPS", "CONNECTED"))
    ap.add_argument("--router", nargs=4, action="append", default=[],
                    metavar=("NETWORK", "PEER", "METRIC", "ENABLED"))
    a = ap.parse_args()
    names = {p[0] for p in a.peer}
    for network, peer, metric, enabled in a.router:
        if peer not in names:
            sys.exit(f"netbird_fleet.py: router of {network} names peer {peer!r}, which no --peer defines")
        if not 1 <= int(metric) <= 9999:
            sys.exit(f"netbird_fleet.py: router metric {metric} is outside NetBird's 1..9999")

    group_names = sorted({g for p in a.peer for g in p[2].split(",") if g and g != "-"})
    group_id = {g: "g-" + g for g in group_names}
    peers = []
    for name, ip, groups, connected in a.peer:
        mine = [g for g in groups.split(",") if g and g != "-"]
        peers.append({
            "id": "p-" + name, "name": name, "ip": ip, "dns_label": name + ".netbird.cloud",
            "connected": connected == "1", "hostname": name + ".lan", "os": "Debian GNU/Linux 12 (bookworm)",
            "version": "0.36.5", "last_seen": "2026-12-07T05:00:26.420578Z", "ssh_enabled": False,
            "login_expiration_enabled": False, "approval_required": False, "accessible_peers_count": len(a.peer) - 1,
            "groups": [{"id": group_id[g], "name": g, "peers_count": sum(g in p[2].split(",") for p in a.peer),
                        "resources_count": 0, "issued": "api"} for g in mine],
        })
    groups = [{"id": group_id[g], "name": g, "peers_count": 0, "resources_count": 0, "issued": "api",
               "peers": [{"id": "p-" + p[0], "name": p[0]} for p in a.peer if g in p[2].split(",")],
               "resources": []} for g in group_names]
    for g in groups:
        g["peers_count"] = len(g["peers"])
    routers, networks = [], {}
    for network, peer, metric, enabled in a.router:
        rid = f"r-{network}-{peer}"
        routers.append({"id": rid, "peer": "p-" + peer, "metric": int(metric), "masquerade": True,
                        "enabled": enabled == "1"})
        networks.setdefault(network, []).append(rid)
    nets = [{"id": "nw-" + n, "name": n, "description": "", "routers": rids, "routing_peers_count": len(rids),
             "resources": [], "policies": []} for n, rids in networks.items()]
    os.makedirs(a.out, exist_ok=True)
    for name, doc in (("networks", nets), ("routers", routers), ("routes", []), ("peers", peers),
                      ("groups", groups)):
        with open(os.path.join(a.out, name + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
    print(f"{len(nets)} Networks, {len(routers)} routers, {len(peers)} peers in {a.out}")


if __name__ == "__main__":
    main()
