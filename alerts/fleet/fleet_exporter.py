#!/usr/bin/env python3
"""Serves a generated fleet live: every peer of gen_fleet.py's model as its own scrape target, with the values
the model gives at the moment of the scrape (and that moment as the samples' timestamp), so that live scrapes
continue the backfilled history seamlessly.

Usage: fleet_exporter.py --listen 127.0.0.1:PORT --end EPOCH [--peers 200] [--networks 10] [--sites 2]
  GET /peers/<instance>/metrics   that peer's page (Prometheus text format); 503 once the model says the
                                  exporter stopped answering (the scenarios ONE_SCRAPE and NONE_UP)
`--end` must be the one gen_fleet.py (or history.py) was given: the fleet, its scenarios and its counters'
origin follow from it. Runs until killed.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_fleet  # noqa: E402
from quiet_http import QuietHandler, serve  # noqa: E402


def page(p, families, t):
    out = []
    for name, typ, series in families:
        sample = name + "_total" if typ == "counter" else name
        lines = []
        for labels, fn, owner in series:
            if owner is not p:
                continue
            v = fn(p, t)
            if v is None:
                continue
            # job and instance are the target's labels, set by Prometheus; the page carries only the rest.
            lab = ",".join(f'{k}="{val}"' for k, val in labels.items() if k not in ("job", "instance"))
            ms = round(t * 1000)
            lines.append(f"{sample}{{{lab}}} {v!r} {ms}" if lab else f"{sample} {v!r} {ms}")
        if lines:
            out.append(f"# TYPE {name} {typ}")
            out.extend(lines)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--listen", required=True)
    ap.add_argument("--end", type=int, required=True)
    ap.add_argument("--peers", type=int, default=200)
    ap.add_argument("--networks", type=int, default=10)
    ap.add_argument("--sites", type=int, default=2)
    a = ap.parse_args()
    fleet = gen_fleet.build(a.peers, a.networks, a.end, a.sites)
    origin = fleet["times"][0]
    # Per peer, its own slice of the families (built once: a scrape only evaluates value functions).
    by_name = {}
    for p in fleet["peers"]:
        fams = [(n, t, [s for s in series if s[2] is p])
                for n, t, series in gen_fleet.families([p], origin, with_up=False)]
        by_name[p["instance"].split(":")[0]] = (p, fams)

    class Handler(QuietHandler):
        def do_GET(self):
            parts = self.path.strip("/").split("/")
            if len(parts) == 3 and parts[0] == "peers" and parts[2] == "metrics" and parts[1] in by_name:
                p, fams = by_name[parts[1]]
                # Values carry the time they were computed for (ms, as the exposition format has it), so a
                # rate over them is the model's slope exactly, however late the scrape was served.
                t = round(time.time(), 3)
                if t > p["scraped_until"]:
                    return self.reply(503, b"exporter stopped (fleet scenario)\n", "text/plain")
                return self.reply(200, page(p, fams, t).encode(), "text/plain; version=0.0.4")
            self.reply(404, b"no such path\n", "text/plain")

    serve(a.listen, Handler)


if __name__ == "__main__":
    main()
