#!/usr/bin/env python3
"""Checks the running multi-site topology of alerts/multisite/test.sh through the components' HTTP APIs.

1. Both replicas of both sites ship to VictoriaMetrics; it holds every series once (no `replica` label, the
   same series count as the one-site Prometheus) and has deduplicated samples.
2. vmalert evaluates every rule without error, and its Network and site answers (the recorded network:* and
   site:* series) and its active alerts equal the one-site Prometheus's for the same peers.
0. Each site-00 replica restored the planted alerts' `for` state: active since within the history, not
   since its restart.
3. The planted alerts are the expected ones; the restored `for` state is real (activeAt 15+ minutes back).
4. A site replica killed (SIGKILL) mid-run changes no Network answer.
5. A peer stays within its cardinality budget: a bounded series count, no label that grows with users or tunnels.
6. The page reaches the webhook through Alertmanager with the example routing, from vmalert and separately
   from the site Prometheus servers: alert name, severity, network/site labels, the figure in the summary,
   runbook_url to an anchor of docs/runbooks.md, the exporter's advice.

Stores are compared at one explicit time both have ingested, each difference over ROUNDS rounds; every wait
polls a condition with a bound. Where a seam is inherent (a live peer's missed scrape, the reference's PromQL
rate extrapolation), the check allows it only on evidence read from the stores and says so in its line.

Prints `ok - ...` / `FAIL - ...` per check and last `checks: P passed, F failed`; exits 1 when one failed.
"""
import argparse
import calendar
import json
import os
import re
import signal
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..", "exporter", "scripts"))
from checks import Checks  # noqa: E402

RECORDS = ["network:headroom_peers:count", "network:headroom_peers_up:sum", "network:headroom_tunnel_bytes:rate5m",
           "network:headroom_ceiling_bytes_per_second:min", "network:headroom_utilization:ratio_rate5m",
           "site:headroom_tunnel_bytes:rate5m", "site:headroom_ceiling_bytes_per_second:sum",
           "site:headroom_utilization:ratio_rate5m", "site:headroom_peers_up:sum"]
KEYS = {"HeadroomNetworkOverOnePeer": ("network", "direction"), "HeadroomNetworkNoStandby": ("network", "severity"),
        "HeadroomTunnelDown": ("instance",), "HeadroomExporterAbsent": ("instance",)}
EVAL = 15          # evaluation and scrape interval, seconds
# A live peer's scrape that fails writes staleness markers for every series of that peer (in the scraping
# Prometheus, and through remote_write in the centre): the peer then reads absent in that one store until its
# next scrape, a round later. So an answer that differs between the stores is asked again at a newer time both
# have ingested, ROUNDS times a round apart: one missed scrape passes, a real difference (a peer shipped per
# replica, a peer never shipped, a wrong record) differs every round and fails.
ROUNDS = 4
LIVE = "live-.:10170"  # the live Network's peers (a regex of their instance labels)
# Counts and ceilings must agree exactly. The generated peers' counters are exact lines stamped with the time
# they were computed for: rates agree to rounding. The live daemons' counters restart when history hands over to
# them, their samples carry the scrape's time, and Prometheus extrapolates a rate to the window's edges where
# MetricsQL does not: a Network or site holding one agrees within 15 %.
TOL_EXACT = 1e-9
TOL_RATE = 1e-5
TOL_LIVE = 0.15


# Cardinality budget of one peer, headroom_* families (what a site ships besides `up`). Per core: 8 modes of
# headroom_cpu_seconds_total, headroom_cpu_busy_ratio, headroom_cpu_online. Everything else is a fixed set;
# the budget leaves room for the census and NetBird families the fixture tree cannot produce (~70 series).
BUDGET_FIXED = 200
# What vmalert must have loaded: every record and alert of the rules file the suite gave it.
RULES_IN_FILE = len(re.findall(r"^\s*- (?:record|alert):", open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                          "..", "headroom-rules.yml")).read(), re.M))
BUDGET_PER_CORE = 10
# Every label a headroom_* series may carry, and how many values it may take on one peer. None of them grows
# with users or tunnels: enumerations, the peer's cores, its two interfaces, the operator's placement.
# source: the sampled sources (tunnel, underlay, cpu, datapath_cpu, census, cpu_quota, netbird_status, state, ...) and
# the ceilings' (profile, config, observed, reference) together; a fixed list in the code. reason: the dropped deltas'
# (too_fast, went_back) and the web layer's refusals (11, an enum in serve/web/Refusals.java) together.
LABELS = {"direction": 4, "verdict": 8, "advice": 8, "datapath": 4, "source": 16, "mode": 8, "window": 2,
          "state": 4, "connection": 4, "line_rate_source": 3, "reason": 16, "le": 32, "interface": 2, "network": 1, "site": 1,
          "version": 1, "cpu": None}


def cardinality(page):
    """(headroom_* series, cores, problems) of one /metrics page."""
    values, n, problems = {}, 0, []
    for line in page.splitlines():
        if not line.startswith("headroom_"):
            continue
        n += 1
        for k, v in re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]):
            values.setdefault(k, set()).add(v)
    cores = len(values.get("cpu", ()))
    for k, vs in values.items():
        if k not in LABELS:
            problems.append(f"label {k} is not in the budget ({sorted(vs)[:3]})")
        elif LABELS[k] is not None and len(vs) > LABELS[k]:
            problems.append(f"label {k} has {len(vs)} values, budget {LABELS[k]}")
    if n > BUDGET_FIXED + BUDGET_PER_CORE * cores:
        problems.append(f"{n} series > {BUDGET_FIXED} + {BUDGET_PER_CORE} x {cores} cores")
    return n, cores, problems


def http_json(url, data=None, timeout=20):
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    with urllib.request.urlopen(url, data=body, timeout=timeout) as r:
        return json.load(r)


def http_text(url, timeout=20):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def query(base, expr, at=None):
    """Instant query, at now or at epoch `at`: {frozenset(labels without __name__): value}."""
    params = {"query": expr}
    if at is not None:
        params["time"] = f"{at:.3f}"
    d = http_json(base + "/api/v1/query", params)
    if d.get("status") != "success":
        raise RuntimeError(f"{base}: {expr}: {d}")
    return {frozenset((k, v) for k, v in r["metric"].items() if k != "__name__"): float(r["value"][1])
            for r in d["data"]["result"]}


def scalar(base, expr, at=None):
    r = query(base, expr, at)
    return next(iter(r.values())) if r else None


def ingested(base, selector):
    """The newest time at which `base` holds every series of `selector` whole: the oldest of the series' newest
    samples. Samples of one series arrive in order (remote_write keeps a series on one shard), so at that time
    or earlier the store's answer no longer changes. None when it holds no series."""
    return scalar(base, f"min(timestamp({selector}))")


def common_time(stores, selector):
    """A time every store in `stores` has ingested for `selector` (the oldest of their ingested() times):
    the two stores answer a query at that `time=` from the same samples, not one of them a scrape behind."""
    ts = [ingested(b, selector) for b in stores]
    return None if None in ts else min(ts)


def wait_until(cond, bound, every=2):
    """Polls cond() until it answers something other than None/False, or `bound` seconds pass; an error
    (a store not answering for a moment) counts as not yet. Returns (answer or None, seconds waited)."""
    start = time.time()
    while True:
        try:
            value = cond()
        except (OSError, ValueError, KeyError, RuntimeError):
            value = None
        if (value is not None and value is not False) or time.time() - start >= bound:
            return (None if value is False else value), time.time() - start
        time.sleep(every)


def newer(t, than):
    """t when it is a time newer than `than`, else None (for wait_until)."""
    return t if t is not None and t > than else None


def metric_sum(text, name):
    """Sum of a family's samples on a /metrics page."""
    total, seen = 0.0, False
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            total += float(line.rsplit(" ", 1)[1])
            seen = True
    return total if seen else None


def active_since(alert):
    """An alert's activeAt (RFC 3339, UTC) as epoch seconds, to the second."""
    return calendar.timegm(time.strptime(alert["activeAt"][:19], "%Y-%m-%dT%H:%M:%S"))


def hms(epoch):
    return time.strftime("%H:%M:%S", time.gmtime(epoch))


def missed_scrapes(base, instances, start, end):
    """When a scrape of a peer matching the regex `instances` failed between start and end, as `base` holds it:
    the times of its `up` samples at 0. A failed scrape writes staleness markers for all the peer's series, which
    then read absent for a round; a scraper's own restart leaves a gap but no `up` at 0, and does not count. For
    VictoriaMetrics, what its deduplication kept of both replicas' samples: what vmalert read. [] when none, or
    when `base` does not answer (a killed replica)."""
    try:
        d = http_json(base + "/api/v1/query", {"query": f'up{{instance=~"{instances}"}}[{int(end - start) + 1}s]',
                                               "time": f"{end:.3f}"}, timeout=10)
    except (OSError, ValueError):
        return []
    return sorted({float(t) for r in d.get("data", {}).get("result", []) for t, v in r.get("values", [])
                   if float(v) == 0})


def times(ts):
    return ", ".join(hms(t) for t in ts[:5]) + (f" and {len(ts) - 5} more" if len(ts) > 5 else "")


def main():
    ap = argparse.ArgumentParser()
    for flag in ("--expect", "--vm", "--vmalert", "--ref", "--am-central", "--am-site", "--received",
                 "--live-a", "--runbooks", "--kill"):
        ap.add_argument(flag, required=True)
    ap.add_argument("--site", action="append", required=True, help="NAME=URL of a site Prometheus")
    ap.add_argument("--timeout", type=float, default=200)
    ap.add_argument("--restarted", type=int, required=True, help="when the site replicas restarted with every rule")
    ap.add_argument("--vmalert-started", type=int, required=True, help="when the vmalert under test started")
    a = ap.parse_args()
    exp = json.load(open(a.expect))
    meta = exp["meta"]
    end = meta["end"]
    sites = dict(s.split("=", 1) for s in a.site)
    kill_name, kill_pid = a.kill.split("=")
    live_nets = {p["network"] for p in meta["live"]}
    check = Checks("checks")
    finish = check.finish

    # --- each site-00 replica restored the planted alerts' `for` state ---------------------------------------
    # Active since within the history, not since its restart. Prometheus restores after a group's second
    # evaluation, so within two intervals and a bit; a minute at most.
    want = ("HeadroomPeerAtCeiling", "HeadroomNetworkOverOnePeer")
    restores = {}
    for name, base in sites.items():
        if not name.startswith("site-00-"):
            continue
        until = time.time() + 60
        while True:
            seen = {}
            try:
                for al in http_json(base + "/api/v1/alerts", timeout=5)["data"]["alerts"]:
                    lab = al["labels"]
                    if lab.get("network") == "net-live" and lab.get("direction") == "download" and lab["alertname"] in want:
                        seen[lab["alertname"]] = active_since(al)
            except (OSError, ValueError, KeyError):
                pass  # not answering yet, or a partial answer: asked again
            restored = all(seen.get(n, end + 1) <= end for n in want)
            if restored or time.time() > until:
                break
            time.sleep(2)
        restores[name] = (restored, ", ".join(f"{n} since {hms(seen[n]) if n in seen else 'never'}" for n in want))
    for name, (restored, since) in restores.items():
        what = f"{name} restored the planted alerts' `for` state from the history ({since}; history ended {hms(end)})"
        if restored:
            check(True, what)
            continue
        # Prometheus restores only the alerts active at the group's second evaluation. A scrape of live-a
        # that failed just before it leaves that evaluation without live-a: the replica then starts the
        # `for:` over, rightly. Allowed when the replica's own data shows the missed scrape and its pair
        # restored: the restore itself is proven there; with no missed scrape, or neither replica, it fails.
        missed = missed_scrapes(sites[name], LIVE, a.restarted - 180, time.time())
        pair = [n for n, (ok, _) in restores.items() if n != name and ok]
        if missed and pair:
            check(True, f"{name} holds the planted alerts only since its restart ({since}), not from the history: "
                  f"allowed, a scrape of a live peer failed there (`up` 0 at {times(missed)}) and "
                  f"{', '.join(pair)} restored them")
        else:
            check(False, what, f"not restored; restarted {hms(a.restarted)}; missed scrapes of net-live there: "
                  f"{times(missed) or 'none'}; restored by {', '.join(pair) or 'no other replica'}")

    deadline = time.time() + a.timeout

    # --- live data reached the centre from every replica -----------------------------------------------------
    answering = None
    while time.time() < deadline:
        try:
            fresh = scalar(a.vm, "min(timestamp(headroom_peer_info))")
            answering = scalar(a.ref, "count(headroom_peer_info)")
            shipped = {n: metric_sum(http_text(u + "/metrics"), "prometheus_remote_storage_samples_total")
                       for n, u in sites.items()}
            if fresh and fresh > end and all(shipped.values()):
                break
        except OSError:
            pass
        time.sleep(2)
    else:
        check(False, "every site replica's scrapes reached VictoriaMetrics within the timeout",
              f"oldest headroom_peer_info sample {fresh}, history ended {end}, shipped {shipped}")
        return finish()
    check(True, f"all 4 site replicas remote-write to VictoriaMetrics ({', '.join(f'{n} {v:.0f}' for n, v in shipped.items())}"
          " samples) and every answering peer has a sample scraped after the history")
    failed_samples = {n: metric_sum(http_text(u + "/metrics"), "prometheus_remote_storage_samples_failed_total")
                      for n, u in sites.items()}
    check(not any(failed_samples.values()), "no remote_write sample failed", failed_samples)
    live_at = time.time()

    # --- dedup --------------------------------------------------------------------------------------------------
    with_replica = query(a.vm, '{__name__=~"up|headroom_.+", replica=~".+"}')
    check(not with_replica, "no series in VictoriaMetrics carries the `replica` label (dropped on ingestion)",
          list(with_replica)[:3])
    for family, expr in (("headroom_peer_info", "count(headroom_peer_info)"), ("up", "count(up)"),
                         ("headroom_tunnel_bytes_total", "count(headroom_tunnel_bytes_total)")):
        rounds, t, c_vm, c_ref = [], live_at - EVAL, None, None
        for _ in range(ROUNDS):
            t, _ = wait_until(lambda: newer(common_time([a.vm, a.ref], family), t + EVAL), 4 * EVAL)
            if t is None:
                break
            c_vm, c_ref = scalar(a.vm, expr, t), scalar(a.ref, expr, t)
            rounds.append(f"{hms(t)}: {c_vm} against {c_ref}")
            if c_vm is not None and c_vm == c_ref:
                break
        check(t is not None and c_vm is not None and c_vm == c_ref,
              f"{expr}: {c_vm} in VictoriaMetrics, {c_ref} in the one-site Prometheus (each peer once, not per "
              f"replica), at a time both had ingested; {len(rounds)} round(s), one missed scrape allowed",
              "; ".join(rounds) if t is not None else
              f"no time both stores had ingested {family} at, newer than {hms(live_at)}; {rounds}")
    dedup = metric_sum(http_text(a.vm + "/metrics"), "vm_deduplicated_samples_total")
    check(dedup and dedup > 0, f"VictoriaMetrics deduplicated {dedup:.0f} samples of the replica pairs", dedup)

    # --- vmalert: healthy, and the same answers as one Prometheus --------------------------------------------
    def rule_errors():
        groups = http_json(a.vmalert + "/api/v1/rules")["data"]["groups"]
        return (sum(len(g["rules"]) for g in groups),
                {(g["name"], r["name"]): r.get("lastError") for g in groups for r in g["rules"] if r.get("lastError")},
                min(active_since({"activeAt": g["lastEvaluation"]}) for g in groups))
    read_at = int(time.time())
    n_rules, errors, _ = rule_errors()
    if errors:
        # A query that timed out on a starved host is one evaluation's error; a broken rule errs every round.
        # Read again once every group has evaluated since (bounded).
        again, _ = wait_until(lambda: (lambda r: r if r[2] > read_at else None)(rule_errors()), 3 * EVAL)
        if again:
            n_rules, errors = again[0], {k: v for k, v in again[1].items() if k in errors}
    check(n_rules == RULES_IN_FILE and not errors, f"vmalert evaluates all {n_rules} rules of headroom-rules.yml without error "
          "(an error must hold two rounds)", list(errors.items()))

    def answers(base, at):
        return {name: query(base, name, at) for name in RECORDS}

    def differences(got, want, low=0.0):
        # low: how far below the central rates the reference's may read at this time (ref_late), as a ratio.
        bad = []
        for name in RECORDS:
            g, w = got[name], want[name]
            if set(g) != set(w):
                bad.append(f"{name}: series differ: only central {sorted(map(dict, set(g) - set(w)), key=str)[:3]}, "
                           f"only reference {sorted(map(dict, set(w) - set(g)), key=str)[:3]}")
                continue
            for k, v in w.items():
                lab = dict(k)
                if lab.get("network") in live_nets or "site" in lab:
                    tol = TOL_LIVE
                else:
                    tol = TOL_RATE if ("bytes:" in name or "ratio" in name) else TOL_EXACT
                slack = low if tol == TOL_RATE else 0.0
                if v - g[k] > tol * max(abs(v), 1e-9) or g[k] - v > (tol + slack) * max(abs(g[k]), 1e-9):
                    bad.append(f"{name}{lab}: {g[k]} against {v}")
        return bad

    def ref_late(t):
        """How much lower than the centre the reference's generated rates may read at t, and why. PromQL's rate
        extrapolates to the window's end only when the newest sample lies within 1.1 average intervals of
        it, else by half an interval: a reference whose newest scrape of a peer came late (a starved host,
        a scrape that timed out) reads that peer's rate low by up to (age - interval/2) / 5m. The age is
        measured, at the reference's evaluation that the query at t returns, over the peers that answer."""
        e = scalar(a.ref, "max(timestamp(network:headroom_tunnel_bytes:rate5m))", t)
        age = e is not None and scalar(
            a.ref, f'max({e:.3f} - timestamp(headroom_tunnel_bytes_total{{instance!~"{LIVE}"}}) '
                   f'and on (instance) (up == 1))', e)
        if not age or age <= 1.1 * EVAL:
            return 0.0, ""
        return (age - EVAL / 2) / 300, f"; the reference's newest scrape of a peer was {age:.0f}s old at its " \
            f"evaluation {hms(e)}, so its rates may read up to {100 * (age - EVAL / 2) / 300:.1f}% low there"

    def evaluated(base):
        # The newest time by which `base` holds a whole evaluation of every record: the oldest of the records'
        # newest evaluations (one group writes them all, each evaluation stamped with its time), less a second,
        # so that a query at it reads an evaluation older than the newest, which may still be arriving.
        ts = [scalar(base, f"max(timestamp({r}))") for r in RECORDS]
        return None if None in ts else min(ts) - 1

    # The one-site Prometheus holds the history up to `end` and its own scrapes from a little later on (it
    # starts before the history is moved in, and its first scrape of each target comes within a round or two
    # of that, later on a loaded host). An evaluation whose 5-minute rate window starts in that gap sees live
    # samples only, the first of them well after the window's start, and PromQL extrapolates less: the
    # reference's rates read a few per cent low for as long as the gap lasted, five minutes on (MetricsQL does
    # not extrapolate; the centre is exact). That stretch is the reference's seam, not a difference: compared
    # times skip it, from end + 5m to the last target's first scrape + 5m + a round.
    try:
        first_live = scalar(a.ref, f"max(min_over_time((timestamp(up) > {end})[{int(time.time() - end) + EVAL}s:1s]))")
    except (OSError, ValueError, RuntimeError):
        first_live = None
    seam = (end + 300, (first_live or end) + 300 + EVAL)

    # The history steps 30 s (gen_fleet.py), the scrapes 15 s. While a reference window still starts in the
    # history, its first sample lies 0-30 s after the window's start; PromQL extrapolates to the start only if
    # that is under 1.1 average intervals (about 17-22 s, the window mixing both steps), else by half an
    # interval: on one of the two 15 s phases the reference reads its rates up to ~6 % low, until five minutes
    # after the history's end. The other phase is exact, so rounds read consecutive evaluations (next_times)
    # and a real difference still holds on both.
    skipped = []

    def next_times(prev):
        # Both rulers' evaluation times to read (vmalert's, the reference's), each newer than in `prev`: every
        # round reads a new evaluation of each, so consecutive rounds fall on alternate phases of the history's
        # 30 s step (see above). The query time is the older of the two.
        ev = (evaluated(a.vm), evaluated(a.ref))
        if None in ev or not all(e > p for e, p in zip(ev, prev)):
            return None
        if seam[0] < min(ev) < seam[1]:
            skipped.append(min(ev))
            return None
        return ev

    def compare(what, after):
        """The central records against the one-site Prometheus's, both read at one `time=` by which both rulers
        have evaluated every record (evaluated), more than a round after `after`: each ruler has then
        evaluated every record on data from after `after`, the centre's own remote_write lag included (its
        records are stamped when vmalert evaluated, on whatever had arrived by then). A difference must hold
        over ROUNDS such times to count (one missed scrape of a live peer moves a Network's answer for one
        round). Returns (central answers, reference answers, time) of the last round."""
        ev, t, g, w, bad, tried, notes = (after + EVAL, after + EVAL), after, None, None, [], [], []
        for _ in range(ROUNDS):
            ev, waited = wait_until(lambda: next_times(ev), 5 * EVAL + (seam[1] - seam[0]))
            if ev is None:
                bad = [f"no new evaluation of every record by both rulers after {hms(tried[-1] if tried else after)}"
                       f" within {waited:.0f}s"]
                break
            t = min(ev)
            g, w = answers(a.vm, t), answers(a.ref, t)
            low, why = ref_late(t)
            bad = differences(g, w, low)
            tried.append(t)
            notes.append(why)
            if not bad:
                break
        n = sum(len(x) for x in w.values()) if w else 0
        skip = bool(skipped)
        skipped.clear()
        check(not bad and n > 0, f"{what}: all {n} network:* and site:* answers equal at "
              f"{', '.join(map(hms, tried)) or 'no common time'} (a time both stores had ingested; "
              f"a difference must hold {ROUNDS} rounds)" + (f"; {hms(seam[0])}-{hms(seam[1])} skipped, where the "
              "reference's rate windows start between its history and its first scrapes" if skip else "")
              + (notes[-1] if notes else ""), bad[:6] + notes[:-1])
        return g, w, t

    central, reference, compared_at = compare(
        "central store (vmalert over VictoriaMetrics) against the one-site Prometheus", live_at)
    if reference is None:
        return finish()
    nets = {dict(k)["network"] for k in reference["network:headroom_peers:count"]}
    spanning = query(a.ref, "count by (network) (count by (network, site) (last_over_time(headroom_peer_info[1h]))) > 1")
    check(len(nets) == meta["networks"] + len(live_nets) and len(spanning) == len(nets),
          f"{len(nets)} Networks answered, {len(spanning)} of them with peers in both sites", sorted(nets))

    def alerts_vmalert():
        out = {}
        for al in http_json(a.vmalert + "/api/v1/alerts")["data"]["alerts"]:
            lab = dict(al["labels"], alertname=al["name"])
            out[frozenset(lab.items())] = al
        return out

    def alerts_prom(base):
        return {frozenset(al["labels"].items()): al for al in http_json(base + "/api/v1/alerts")["data"]["alerts"]}

    def without_site_on_absent(keys):
        # `up` has no `site` in a one-site Prometheus; on the central store it carries the site's external label.
        return {frozenset((k, v) for k, v in key if not (k == "site" and dict(key)["alertname"] == "HeadroomExporterAbsent"))
                for key in keys}

    # The two rulers evaluate on their own clocks, and the centre sees a sample a remote_write later: an alert
    # that turns pending in one shows in the other within a round or two. Compare until they agree, bounded.
    agree_by = time.time() + 3 * EVAL + 10
    while True:
        va, ra = alerts_vmalert(), alerts_prom(a.ref)
        gv, gr = without_site_on_absent(va), without_site_on_absent(ra)
        if gv == gr or time.time() >= agree_by:
            break
        time.sleep(2)
    check(gv == gr, f"vmalert's {len(gv)} active alerts are the one-site Prometheus's (pending or firing)",
          f"only central {[dict(x) for x in list(gv - gr)[:4]]}, only reference {[dict(x) for x in list(gr - gv)[:4]]}")
    got = {}
    for key in va:
        lab = dict(key)
        if lab["alertname"] in KEYS:
            got.setdefault(lab["alertname"], set()).add(",".join(f"{k}={lab.get(k, '')}" for k in KEYS[lab["alertname"]]))
    for name, want in exp["alerts"].items():
        have = got.get(name, set())
        check(have == set(want), f"central {name}: exactly the {len(want)} planted "
              f"({', '.join(sorted(want)[:4])}{', ...' if len(want) > 4 else ''})",
              f"missing {sorted(set(want) - have)}, unexpected {sorted(have - set(want))}")
    planted = [al for key, al in va.items() if dict(key).get("network") == "net-live"
               and dict(key)["alertname"] == "HeadroomNetworkOverOnePeer" and dict(key).get("direction") == "download"]
    if check(len(planted) == 1, "vmalert has HeadroomNetworkOverOnePeer for net-live download", len(planted)):
        al = planted[0]
        active_at = active_since(al)
        what = (f"its 15-minute `for:` elapsed in the data: firing, active since {(time.time() - active_at) / 60:.1f} "
                "min (restored from the replay's ALERTS_FOR_STATE)")
        if al["state"] == "firing" and time.time() - active_at >= 15 * 60:
            check(True, what)
        else:
            # first_eval.py saw vmalert keep the restored alert at its first evaluation. A scrape of live-a that
            # failed since leaves one evaluation without the Network's overload, and the alert starts over,
            # rightly: allowed when it is younger than that first evaluation and vmalert's data shows the gap.
            missed = missed_scrapes(a.vm, LIVE, a.vmalert_started, time.time())
            if missed and active_at > a.vmalert_started + EVAL:
                check(True, f"vmalert's restored HeadroomNetworkOverOnePeer net-live started over at "
                      f"{hms(active_at)} ({al['state']}): allowed, a scrape of a live peer failed (`up` 0 at "
                      f"{times(missed)}) after its first evaluation kept the restored state")
            else:
                check(False, what, f"{al['state']} since {al['activeAt']}; vmalert started {hms(a.vmalert_started)}; "
                      f"missed scrapes of net-live in VictoriaMetrics: {times(missed) or 'none'}")

    # --- a replica dies ------------------------------------------------------------------------------------------
    os.kill(int(kill_pid), signal.SIGKILL)
    killed_at = time.time()
    print(f"# killed {kill_name} (pid {kill_pid}) with SIGKILL")
    # Samples stamped after the kill can only come from the surviving replica: wait until every site-00 peer has
    # one from two scrapes after it.
    survived, waited = wait_until(
        lambda: newer(ingested(a.vm, 'headroom_peer_info{site="site-00"}'), killed_at + 2 * EVAL), 6 * EVAL)
    check(survived is not None, f"site-00 peers still arrive at the centre through the surviving replica (every "
          f"site-00 peer has a sample scraped {(survived or killed_at) - killed_at:.0f}s after the kill; waited "
          f"{waited:.0f}s)", f"none scraped {2 * EVAL}s after the kill within {waited:.0f}s")
    after, _, after_at = compare(f"after {kill_name} died: central store against the one-site Prometheus",
                                 survived or killed_at + 2 * EVAL)
    if after is not None:
        bad = differences(after, central)
        check(not bad, f"after {kill_name} died: central store at {hms(after_at)} against itself at "
              f"{hms(compared_at)}: all {sum(len(x) for x in central.values())} answers equal", bad[:6])

    live_a_site = next(p["site"] for p in meta["live"] if p["instance"].startswith("live-a"))

    # --- cardinality budget of a peer -------------------------------------------------------------------------
    n, cores, problems = cardinality(http_text(a.live_a + "/metrics"))
    check(not problems, f"cardinality budget: live-a serves {n} headroom_* series on {cores} cores "
          f"(budget {BUDGET_FIXED} + {BUDGET_PER_CORE} per core), every label from a bounded set", problems)
    # Once, and all of them: the centre holds the same series of live-a as the site replica that scrapes it, at
    # a time both ingested (`site` aside: the replica's external label, added on shipping). Not the page's count
    # now: some families are absent while a sampling interval saw no traffic (headroom_cpu_seconds_per_gigabyte),
    # so the set may change from one scrape to the next, and a store may be a scrape behind; a difference must
    # hold over ROUNDS times a round apart.
    # Each store's newest scrape of live-a is its `up` sample; a second before it, the scrape before is whole.
    # The series of a scrape are those with a sample in the 20 s before (raw samples keep their names; the
    # history's own live-a series, older, stay out).
    scraper = next(u for nm, u in sites.items() if nm.startswith(live_a_site) and nm != kill_name)

    def series(base, at):
        d = http_json(base + "/api/v1/query", {"query": '{__name__=~"headroom_.+|up", instance="live-a:10170"}[20s]',
                                               "time": f"{at:.3f}"})
        return {frozenset((k, v) for k, v in r["metric"].items() if k != "site") for r in d["data"]["result"]}

    def scraped_by_both():
        ts = [ingested(b, 'up{instance="live-a:10170"}') for b in (a.vm, scraper)]
        return None if None in ts else min(ts) - 1
    t, rounds, held, scraped = killed_at, [], set(), set()
    for _ in range(ROUNDS):
        t, _ = wait_until(lambda: newer(scraped_by_both(), t + EVAL - 2), 4 * EVAL)
        if t is None:
            break
        held, scraped = series(a.vm, t), series(scraper, t)
        rounds.append(f"{hms(t)}: {len(held)} against {len(scraped)}")
        if held == scraped:
            break
    check(t is not None and held == scraped and len(held) > n // 2,
          f"the centre holds {len(held)} series of live-a, the same as the site replica scraping it "
          f"(its headroom_* series and `up`, once), at a time both had ingested",
          f"{'; '.join(rounds)}; only central {[dict(x).get('__name__') for x in held - scraped][:5]}, only "
          f"the replica {[dict(x).get('__name__') for x in scraped - held][:5]}")

    # --- the page, end to end --------------------------------------------------------------------------------
    headings = {re.sub(r"[^a-z0-9-]", "", h.strip().lower().replace(" ", "-"))
                for h in re.findall(r"^#+ (.*)$", open(a.runbooks).read(), re.M)}
    advice = [m.group(1) for m in re.finditer(r'^headroom_advice\{advice="([^"]+)"\} 1(\.0)?$',
                                                http_text(a.live_a + "/metrics"), re.M)]
    check(len(advice) == 1, f"live-a's exporter gives one advice: {advice}")
    live_a = next(p for p in meta["live"] if p["instance"].startswith("live-a"))
    want_pct = {"download": 100 * live_a["dl"] / live_a["ceil_dl"], "upload": 100 * live_a["ul"] / live_a["ceil_ul"]}
    legs = {"vmalert": (a.am_central, a.vmalert), "site Prometheus": (a.am_site, None)}
    targets = [("HeadroomNetworkOverOnePeer", "/ticket", "warning", {"network": "net-live", "direction": "download"}),
               ("HeadroomPeerAtCeiling", "/page", "critical",
                {"instance": live_a["instance"], "network": "net-live", "site": live_a["site"], "direction": "download"})]

    def find(am, name, labels):
        if not os.path.exists(a.received):
            return None
        for line in open(a.received):
            n = json.loads(line)
            if n["payload"].get("externalURL", "").rstrip("/") != am.rstrip("/"):
                continue
            for al in n["payload"].get("alerts", []):
                if al["labels"].get("alertname") == name and al.get("status") == "firing" and \
                        all(al["labels"].get(k) == v for k, v in labels.items()):
                    return n, al
        return None

    found = {}
    page_deadline = max(deadline, time.time() + 90)
    while time.time() < page_deadline and len(found) < len(legs) * len(targets):
        for leg, (am, _) in legs.items():
            for name, _, _, labels in targets:
                if (leg, name) not in found:
                    r = find(am, name, labels)
                    if r:
                        found[(leg, name)] = r
        time.sleep(2)
    site_senders = {n: u for n, u in sites.items() if n.startswith(live_a["site"])}

    def sender_alerts(source, name, labels):
        """The sender's own view of the alert now: [(sender, state, activeAt, annotations)]."""
        out = []
        for sender, url in ({"vmalert": source} if source else site_senders).items():
            try:
                if source:
                    got = [dict(al, labels=dict(al["labels"], alertname=al["name"]))
                           for al in http_json(url + "/api/v1/alerts", timeout=5)["data"]["alerts"]]
                else:
                    got = http_json(url + "/api/v1/alerts", timeout=5)["data"]["alerts"]
            except (OSError, ValueError, KeyError):
                out.append((sender, "not answering", None, {}))
                continue
            out += [(sender, al["state"], al.get("activeAt"), al.get("annotations", {})) for al in got
                    if al["labels"].get("alertname") == name and all(al["labels"].get(k) == v for k, v in labels.items())]
        return out

    def am_alerts(am, name, labels):
        """The active (not silenced, not inhibited) alerts an Alertmanager holds with that name and labels."""
        try:
            got = http_json(am + "/api/v2/alerts?active=true&silenced=false&inhibited=false", timeout=5)
        except (OSError, ValueError):
            return []
        return [al for al in got if al["labels"].get("alertname") == name and al.get("status", {}).get("state") == "active"
                and all(al["labels"].get(k) == v for k, v in labels.items())]

    def missed_live(source, start, stop, instances="live-a:10170"):
        # What the sender read: vmalert reads VictoriaMetrics, a site replica its own TSDB (a killed one no
        # longer answers; VictoriaMetrics holds what it shipped).
        stores = [a.vm] if source else list(site_senders.values()) + [a.vm]
        return sorted({t for st in stores for t in missed_scrapes(st, instances, start, stop)})

    for leg, (am, source) in legs.items():
        for name, path, severity, labels in targets:
            what = f"{leg} -> Alertmanager -> webhook {path}: {name} {labels.get('network')}"
            if (leg, name) not in found and not source and ("vmalert", name) in found:
                # A scrape of live-a that fails resets the site's `for:` (the rules join headroom_peer_info at
                # the instant): if that came between the restore and Alertmanager's group_wait, the site pair
                # holds the alert pending again for its whole `for:`, rightly, and sends nothing meanwhile.
                # Allowed when the site's data shows that failed scrape, the sender holds the alert pending
                # since after it, and the same alert reached the webhook from vmalert with every field.
                missed = missed_live(None, a.restarted - 180, time.time())
                reset = [x for x in sender_alerts(None, name, labels) if x[1] == "pending" and x[2] and missed
                         and active_since({"activeAt": x[2]}) > missed[0]]
                if reset:
                    check(True, f"{what}: not received: allowed, a scrape of live-a failed ({times(missed)}) and "
                          f"reset the site's `for:` before Alertmanager sent it ({reset[0][0]} pending since "
                          f"{hms(active_since({'activeAt': reset[0][2]}))}, summary {reset[0][3].get('summary')!r}); "
                          "the same alert reached the webhook from vmalert")
                    continue
                # Or the reset hit one replica only, after it had sent the alert and before group_wait ended:
                # Alertmanager saw it resolve, skipped the notification, and the other replica's firing copy
                # goes out at the next group_interval (5 minutes on). Allowed when Alertmanager holds the
                # alert active from a site replica on the right receiver, with its figure.
                held = [al for al in am_alerts(a.am_site, name, labels)
                        if any(al.get("generatorURL", "").startswith(u) for u in site_senders.values())]
                receiver = {"/page": "pager", "/ticket": "ticket"}[path]
                if missed and held and receiver in [r.get("name") for r in held[0].get("receivers", [])]:
                    check(True, f"{what}: not received: allowed, a scrape of live-a failed ({times(missed)}), the "
                          "alert resolved at Alertmanager before its group_wait ended and the next notification "
                          f"waits for group_interval; Alertmanager holds it active for {receiver} "
                          f"(summary {held[0].get('annotations', {}).get('summary')!r}); the same alert reached the "
                          "webhook from vmalert")
                    continue
            if not check((leg, name) in found, f"{what} received",
                         f"nothing from {am} after {time.time() - killed_at:.0f}s; the sender now: "
                         f"{[x[:3] for x in sender_alerts(source, name, labels)] or 'no such alert'}; missed "
                         f"scrapes of live-a: {times(missed_live(source, a.restarted - 180, time.time())) or 'none'}"):
                continue
            n, al = found[(leg, name)]
            lab, ann = al["labels"], al.get("annotations", {})
            check(n["path"] == path and lab.get("severity") == severity,
                  f"{what}: severity {severity}, routed to {path} by alerts/alertmanager.yml", (n["path"], lab.get("severity")))
            site_want = live_a["site"] if (name == "HeadroomPeerAtCeiling" or leg == "site Prometheus") else None
            check(lab.get("network") == "net-live" and lab.get("site") == site_want and "replica" not in lab,
                  f"{what}: labels network=net-live, site={site_want}, no replica label", lab)
            m = re.search(r"\(([0-9.]+)%\)", ann.get("summary", ""))
            pct = float(m.group(1)) if m else None
            planted_pct = want_pct["download"]
            # Within 25 %: live-a's counter restarts where the history hands over to the daemon.
            check(pct is not None and abs(pct - planted_pct) <= 0.25 * planted_pct,
                  f"{what}: summary carries the figure ({ann.get('summary')!r}; planted {planted_pct:.0f}%)",
                  ann.get("summary"))
            url = ann.get("runbook_url", "")
            anchor = url.rsplit("#", 1)[-1] if "#" in url else ""
            check("docs/runbooks.md#" in url and anchor in headings,
                  f"{what}: runbook_url resolves to #{anchor} in docs/runbooks.md", url)
            gen = al.get("generatorURL", "")
            from_ok = gen.startswith(source) if source else any(gen.startswith(sites[s]) for s in sites
                                                                 if s.startswith(live_a["site"]))
            check(from_ok, f"{what}: generatorURL names the sender", gen)
            if name == "HeadroomPeerAtCeiling":
                desc, wanted = ann.get("description", ""), f"Exporter advice: {advice[0] if advice else '?'}."
                what_advice = f"{what}: description carries the exporter's advice ({advice[0] if advice else '?'})"
                if wanted in desc:
                    check(True, what_advice)
                elif advice and "Exporter advice: unknown." in desc:
                    # The description asks for headroom_advice when the sender evaluates: a scrape of live-a that
                    # had just failed answers `unknown` then, rightly, and Alertmanager keeps the first
                    # notification. Allowed when the sender's data shows that missed scrape before the
                    # notification and the sender's annotation now carries the advice (the template works).
                    sent = n.get("at", time.time())
                    missed = missed_live(source, sent - 120, sent)
                    now = [x for x in sender_alerts(source, name, labels) if wanted in x[3].get("description", "")]
                    if missed and now:
                        check(True, f"{what}: notified with advice unknown: allowed, a scrape of live-a failed "
                              f"before it (`up` 0 at {times(missed)}); {now[0][0]}'s annotation now carries "
                              f"{advice[0]}")
                    else:
                        check(False, what_advice, f"{desc!r}; missed scrapes of live-a before it: "
                              f"{times(missed) or 'none'}; the sender's annotation now: "
                              f"{[x[3].get('description', '')[-60:] for x in sender_alerts(source, name, labels)]}")
                else:
                    check(False, what_advice, desc)
            else:
                # The centre sees both of net-live's peers; a site Prometheus only its own half.
                peers = 2 if source else 1
                desc = ann.get("description", "")
                what_peers = f"{what}: description carries the Network's load over the {peers} peers up it sees"
                wanted = rf"carries [0-9.]+ Gbps download over its {peers} peers up"
                if re.search(wanted, desc):
                    check(True, what_peers)
                else:
                    # The description counts the peers up when the sender evaluates: a scrape of a net-live peer
                    # that had just failed counts one fewer then, rightly, and Alertmanager keeps the first
                    # notification. Allowed when the sender's data shows that failed scrape before the
                    # notification and the sender's annotation now counts them all.
                    sent = n.get("at", time.time())
                    missed = missed_live(source, sent - 120, sent, LIVE)
                    now = [x for x in sender_alerts(source, name, labels) if re.search(wanted, x[3].get("description", ""))]
                    if missed and now:
                        check(True, f"{what}: notified counting fewer peers up ({desc[:60]!r}...): allowed, a scrape "
                              f"of a net-live peer failed before it (`up` 0 at {times(missed)}); {now[0][0]}'s "
                              f"annotation now counts {peers}")
                    else:
                        check(False, what_peers, f"{desc!r}; missed scrapes of net-live before it: "
                              f"{times(missed) or 'none'}; the sender's annotation now: "
                              f"{[x[3].get('description', '')[:80] for x in sender_alerts(source, name, labels)]}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
