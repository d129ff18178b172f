#!/usr/bin/env python3
"""Checks the NetBird-discovered centre of alerts/multisite/test.sh: a VictoriaMetrics that finds the fleet's
routing peers through a real `headroom discover` (http_sd_configs, the README's relabelling plus a `keep` on the
peer group `headroom`) and scrapes discover's inventory; vmalert evaluating alerts/headroom-rules-netbird.yml
over it; the central Alertmanager and the webhook.

What the stand-in NetBird lists (test.sh, netbird_fleet.py), and what must follow:
  net-02  peer-02-01 (metric 100, ceiling 3 Gbps), peer-02-00 (200, 2 Gbps), peer-02-02 (300, not in group
          `headroom`: the scrape drops it)  -> 3 routers; active peer-02-01, the Network measured against its
                                               3 Gbps, not the smallest 2; peer-02-02 HeadroomNetBirdRouterUnscraped
  net-04  peer-04-01 (metric 50, its exporter answers 503 in the fleet's scenario), peer-04-00 (100, 2 Gbps)
                                            -> 2 routers, no NoStandby; active peer-04-00, not the lowest metric
  net-06  peer-06-00 alone (2 Gbps)         -> 1 router: HeadroomNetworkNoStandby (pending or firing)
(Ceilings: gen_fleet.py's model gives peer j of a Network the j-th reference size, 2 Gbps, 3 Gbps, ... each way.)

Usage: check_netbird.py --vm URL --vmalert URL --received FILE --targets N --rules N --timeout SECONDS
Prints `ok - ...` / `FAIL - ...` per check and last `netbird-checks: P passed, F failed`; exits 1 when one failed.
"""
import argparse
import json
import os
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", "exporter", "scripts"))
from checks import Checks  # noqa: E402

check = Checks("netbird-checks")


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def query(vm, expr):
    body = get(f"{vm}/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
    return body["data"]["result"]


def by(vm, expr, *labels):
    return {tuple(s["metric"].get(l, "") for l in labels): float(s["value"][1]) for s in query(vm, expr)}


def until(deadline, what, get_value, want, detail=lambda got: f"got {got}"):
    """Polls get_value() every 2 s until it equals want (or want(value) is true) or the deadline passes."""
    got = None
    while True:
        try:
            got = get_value()
        except Exception as e:  # a store still starting answers with an error: poll on
            got = f"error {e}"
        ok = want(got) if callable(want) else got == want
        if ok or time.time() > deadline:
            try:
                why = "" if ok else detail(got)
            except Exception as e:  # the detail's own query failed: say so instead of stopping the checks
                why = f"got {got} ({e})"
            return check(ok, what, why)
        time.sleep(2)


def vmalert_alerts(vmalert):
    return [a for a in get(f"{vmalert}/api/v1/alerts")["data"]["alerts"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vm", required=True)
    ap.add_argument("--vmalert", required=True)
    ap.add_argument("--received", required=True)
    ap.add_argument("--targets", type=int, required=True, help="routers the scrape must keep (in group headroom)")
    ap.add_argument("--rules", type=int, required=True, help="rules in the file vmalert loaded (promtool's count)")
    ap.add_argument("--timeout", type=float, default=180)
    a = ap.parse_args()
    deadline = time.time() + a.timeout

    until(deadline, f"VictoriaMetrics found {a.targets} routing peers through discover's /sd and scrapes them "
          "under NetBird's Network names",
          lambda: by(a.vm, 'count by (network) (up{job="headroom"})', "network"),
          {("net-02",): 2.0, ("net-04",): 2.0, ("net-06",): 1.0})
    until(deadline, "the scrape dropped peer-02-02 (not in group headroom): no up series carries it",
          lambda: by(a.vm, 'count(up{job="headroom",netbird_peer="peer-02-02"}) or vector(0)'), {(): 0.0})
    until(deadline, "network:headroom_netbird_routers:max counts the routers NetBird lists, scraped or not",
          lambda: by(a.vm, "network:headroom_netbird_routers:max", "network"),
          {("net-02",): 3.0, ("net-04",): 2.0, ("net-06",): 1.0})
    until(deadline, "network_router:headroom_netbird_active:min: the lowest metric that is up "
          "(net-04: peer-04-00, its metric-50 router answers 503)",
          lambda: by(a.vm, "network_router:headroom_netbird_active:min", "network", "netbird_peer"),
          {("net-02", "peer-02-01"): 100.0, ("net-04", "peer-04-00"): 100.0, ("net-06", "peer-06-00"): 100.0})
    gbps = 1e9 / 8
    until(deadline, "network:headroom_ceiling_bytes_per_second:active is the active peer's ceiling (net-02: 3 Gbps, "
          "its smallest 2)",
          lambda: by(a.vm, 'network:headroom_ceiling_bytes_per_second:active{direction="download"}', "network"),
          {("net-02",): 3 * gbps, ("net-04",): 2 * gbps, ("net-06",): 2 * gbps})
    until(deadline, "network:headroom_utilization:ratio_rate5m divides the Network's load by the active peer's ceiling",
          lambda: by(a.vm, 'round(network:headroom_utilization:ratio_rate5m{direction="download"} * '
                     'network:headroom_ceiling_bytes_per_second:active{direction="download"} / '
                     'network:headroom_tunnel_bytes:rate5m{direction="download"}, 0.001)', "network"),
          {("net-02",): 1.0, ("net-04",): 1.0, ("net-06",): 1.0})

    def rule_errors():
        groups = get(f"{a.vmalert}/api/v1/rules")["data"]["groups"]
        rules = [r for g in groups for r in g["rules"]]
        return len(rules), [(r["name"], r.get("lastError")) for r in rules if r.get("lastError")]
    until(deadline, f"vmalert evaluates all {a.rules} rules of headroom-rules-netbird.yml without error",
          lambda: rule_errors() == (a.rules, []), True,
          lambda got: f"rules with errors: {rule_errors()}")

    def no_standby():
        return sorted({x["labels"].get("network") for x in vmalert_alerts(a.vmalert)
                       if x["labels"].get("alertname") == "HeadroomNetworkNoStandby"})
    until(deadline, "HeadroomNetworkNoStandby counts NetBird's routers: net-06 (one router) only, not net-04 "
          "(two in NetBird, one answering)", no_standby, ["net-06"])

    def unscraped_firing():
        return sorted((x["labels"].get("network"), x["labels"].get("netbird_peer"), x["state"])
                      for x in vmalert_alerts(a.vmalert)
                      if x["labels"].get("alertname") == "HeadroomNetBirdRouterUnscraped")
    until(deadline, "vmalert fires HeadroomNetBirdRouterUnscraped for peer-02-02 alone", unscraped_firing,
          [("net-02", "peer-02-02", "firing")])

    def paged():
        if not os.path.exists(a.received):
            return None
        for line in open(a.received):
            n = json.loads(line)
            for alert in n.get("payload", {}).get("alerts", []):
                if alert["labels"].get("alertname") == "HeadroomNetBirdRouterUnscraped":
                    return n.get("path"), alert["labels"].get("severity"), alert["labels"].get("netbird_peer"), \
                        alert["labels"].get("network"), "runbooks.md#headroomnetbirdrouterunscraped" in \
                        alert["annotations"].get("runbook_url", ""), "peer-02-02" in alert["annotations"].get("summary", "")
        return None
    until(deadline, "the page for the unscraped router reaches the webhook through Alertmanager (/page, critical, "
          "network, netbird_peer, runbook, the peer in the summary)", paged,
          ("/page", "critical", "peer-02-02", "net-02", True, True))
    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
