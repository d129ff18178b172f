#!/usr/bin/env python3
"""Checks a render of alerts/mixin/tests/vpn-peers.libsonnet: none of the defaults that config overrides is left
in a rule or a dashboard.

  - the default job selector `.*headroom.*`: in no rule and no dashboard string (expressions and annotations)
  - the default docs / runbook base (github.com/headroom-dev): in no rule and no dashboard string
  - the default label names network / site: in no PromQL string (rule expr; dashboard expr, variable query,
    legend) and no table column; vpn_network / vpn_site instead
  - the near-ceiling threshold 0.85 (default 0.8) and `for: 20m` (default 15m), the at-ceiling threshold 0.97
    (default 0.95): in the alerts and in the dashboard thresholds that draw them

Usage: check_render.py DIR      (DIR holds headroom-rules.yml, headroom-peer.json, headroom-fleet.json)
Prints what is wrong and exits 1, or prints a summary and exits 0.
"""
import json
import os
import re
import sys

import yaml

LABEL = re.compile(r"(?<![\w:$.])(network|site)(?![\w:])")
PROMQL_KEYS = {"expr", "definition", "query", "legendFormat"}


def strings(node, key=None):
    """(key, string) for every string in a JSON/YAML tree, and (None, k) for every dict key."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield "__key__", k
            yield from strings(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v, key)
    elif isinstance(node, str):
        yield key, node


def steps(node):
    """Every thresholds.steps list of values."""
    if isinstance(node, dict):
        if isinstance(node.get("steps"), list) and node.get("mode") == "absolute":
            yield [s.get("value") for s in node["steps"]]
        for v in node.values():
            yield from steps(v)
    elif isinstance(node, list):
        for v in node:
            yield from steps(v)


def main(d):
    bad = []
    rules = yaml.safe_load(open(os.path.join(d, "headroom-rules.yml")))
    dashes = {n: json.load(open(os.path.join(d, n))) for n in ("headroom-peer.json", "headroom-fleet.json")}
    alerts = {}
    for g in rules["groups"]:
        for r in g["rules"]:
            name = r.get("record") or r["alert"]
            alerts.setdefault(name, r)
            for key, s in strings(r):
                if ".*headroom.*" in s:
                    bad.append(f"rule {name} {key}: still selects .*headroom.*: {s[:80]!r}")
                if "github.com/headroom-dev" in s:
                    bad.append(f"rule {name} {key}: still links the default docs: {s[:80]!r}")
            if LABEL.search(r["expr"]) or "$labels.network" in str(r) or "$labels.site" in str(r):
                bad.append(f"rule {name}: still uses the label network or site")
    for n, dash in dashes.items():
        for key, s in strings(dash):
            if ".*headroom.*" in s or "github.com/headroom-dev" in s:
                bad.append(f"{n} {key}: still holds a default: {s[:80]!r}")
            if key in PROMQL_KEYS and LABEL.search(s):
                bad.append(f"{n} {key}: still uses the label network or site: {s[:80]!r}")
            if key == "__key__" and s in ("network", "site"):
                bad.append(f"{n}: table column still named {s}")

    near, at = alerts["HeadroomPeerNearCeiling"], alerts["HeadroomPeerAtCeiling"]
    if not re.search(r">\s*0\.85\s*$", near["expr"]) or near["for"] != "20m":
        bad.append(f"HeadroomPeerNearCeiling: not `> 0.85` for 20m: {near['expr'][-20:]!r} for {near['for']}")
    if not re.search(r">\s*0\.97\s*$", at["expr"]):
        bad.append(f"HeadroomPeerAtCeiling: not `> 0.97`: {at['expr'][-20:]!r}")
    for name, r in alerts.items():
        if re.search(r"(?<![\d.])0\.(8|95)(?![\d])", r["expr"]) and name != "HeadroomUserspacePlateau":
            bad.append(f"rule {name}: still compares with a default ceiling threshold: {r['expr']!r}")
    # Dashboards: the ceiling alerts' lines are 0.85 / 0.97 (peer: two panels, fleet: most loaded peers);
    # 0.95 nowhere. 0.8 stays only where it is no alert's (peer underlay, fleet site utilization).
    all_steps = [s for dash in dashes.values() for s in steps(dash)]
    drawn = sum(1 for s in all_steps if 0.85 in s and 0.97 in s)
    if drawn != 3:
        bad.append(f"dashboards: {drawn} threshold sets at 0.85 / 0.97, want 3")
    if any(0.95 in s for s in all_steps):
        bad.append("dashboards: a threshold still at 0.95")
    if sum(1 for s in all_steps if 0.8 in s) != 2:
        bad.append(f"dashboards: 0.8 in {sum(1 for s in all_steps if 0.8 in s)} threshold sets, want 2 (underlay, site)")
    for line in bad:
        print(line)
    if bad:
        return 1
    print(f"{sum(len(g['rules']) for g in rules['groups'])} rules and 2 dashboards: no default selector, docs base, "
          "label name or ceiling threshold left")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
