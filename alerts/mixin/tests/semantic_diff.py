#!/usr/bin/env python3
"""Compares two rule files or two dashboards by meaning, not by text.

Rule files (.yml): the same groups in the same order, the same rules in the same order, every field equal;
`expr` compared after collapsing whitespace. Dashboards (.json): the parsed JSON equal (key order ignored).
Used to prove that rendering alerts/mixin reproduces the hand-written files it replaced:

  semantic_diff.py OLD NEW            prints each difference; exit 1 when there is any
  git show REV:alerts/headroom-rules.yml >/tmp/old.yml && semantic_diff.py /tmp/old.yml alerts/headroom-rules.yml
"""
import json
import re
import sys

import yaml


def norm_rules(doc):
    out = []
    for g in doc["groups"]:
        rules = []
        for r in g["rules"]:
            r = dict(r)
            r["expr"] = re.sub(r"\s+", " ", str(r["expr"])).strip()
            rules.append(r)
        out.append({**g, "rules": rules})
    return out


def diff(a, b, path, out):
    if type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        out.append(f"{path}: {a!r} != {b!r}")
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'new' if k not in a else 'old'}")
            else:
                diff(a[k], b[k], f"{path}/{k}", out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items != {len(b)} items")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {a!r} != {b!r}")


def main(old, new):
    if old.endswith(".json"):
        a, b = json.load(open(old)), json.load(open(new))
        what = "dashboard"
    else:
        a, b = norm_rules(yaml.safe_load(open(old))), norm_rules(yaml.safe_load(open(new)))
        what = f"{sum(len(g['rules']) for g in a)} rules"
    out = []
    diff(a, b, "", out)
    for line in out:
        print(line)
    print(f"{new}: {len(out)} differences from {old} ({what})")
    return 1 if out else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
