#!/usr/bin/env python3
"""Checks headroom's Grafana dashboards: their structure, and every PromQL query they hold against a live
Prometheus that scrapes headroom exporters and evaluates alerts/headroom-rules.yml.

Usage:
  check_dashboards.py DASHBOARD.json ...                     structure only
  check_dashboards.py --url http://127.0.0.1:PORT --instance HOST:PORT --network NET --site SITE DASHBOARD.json ...
      [--netbird-active NET=PEER ... --netbird-single NET ... --netbird-past-one-peer NET ... --netbird-routers P,P]

Structure: unique panel ids, a unit on every data panel, a description on every panel, every $variable defined,
every datasource `${datasource}` (no pinned uid), stable dashboard uids, links that resolve, `$__rate_interval`
in every rate()/irate()/increase(). Queries: each panel target and each variable query, with the template
variables substituted, must return data (not only NaN) without error; a failure names the dashboard, the panel
and the query. With --netbird-*, the NetBird tables' answers are checked against what the stand-in NetBird
lists (active router per Network, the rules broken, every router scraped). Prints `ok - ...` / `FAIL - ...` lines and last `dashboards: N passed, M failed`.
"""
import argparse
import json
import math
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../..", "exporter", "scripts"))
from checks import Checks  # noqa: E402

# The uid each dashboard file must keep: links, bookmarks and provisioning depend on it.
STABLE_UIDS = {"headroom-peer.json": "headroom-peer", "headroom-fleet.json": "headroom-fleet"}
DS_REF = {"type": "prometheus", "uid": "${datasource}"}
BUILTINS = {"__rate_interval", "__interval", "__interval_ms", "__range", "__range_s", "__range_ms", "__from",
            "__to", "__data", "__value", "__field", "__series", "__dashboard", "__org", "__user", "__name",
            "__all", "__timeFilter"}
NON_DATA = {"row", "text"}
RATE_FUNCS = {"rate", "irate", "increase", "delta", "idelta", "deriv"}
# What Grafana would put in for its own variables (scrape interval 1s in the test Prometheus).
GRAFANA_VARS = {"__rate_interval": "15s", "__interval": "2s", "__interval_ms": "2000", "__range": "5m",
                "__range_s": "300", "__range_ms": "300000"}
RANGE_SECONDS = 120
STEP_SECONDS = 2

check = Checks("dashboards")


def all_panels(panels):
    for p in panels:
        yield p
        yield from all_panels(p.get("panels", []))


def walk(node, path=""):
    """Yields (path, key, value) for every key of every dict in the JSON tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path, k, v
            yield from walk(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}[{i}]")


def strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


VAR_RE = re.compile(r"\$(?:\{([A-Za-z_][\w.]*)(?::[\w]+)?\}|\[\[([A-Za-z_]\w*)\]\]|([A-Za-z_]\w*))")


def var_refs(s):
    for m in VAR_RE.finditer(s):
        name = m.group(1) or m.group(2) or m.group(3)
        yield name.split(".")[0]


def enclosing_function(expr, pos):
    """Name of the function whose parentheses enclose position pos of expr, or ''."""
    depth = 0
    for i in range(pos - 1, -1, -1):
        c = expr[i]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                m = re.search(r"([A-Za-z_]\w*)\s*$", expr[:i])
                return m.group(1) if m else ""
            depth -= 1
    return ""


def variable_query(v):
    q = v.get("query")
    if isinstance(q, dict):
        q = q.get("query", "")
    return q or v.get("definition", "")


def panel_queries(dash):
    """(panel title, refId, expr, instant) for every target of every panel."""
    for p in all_panels(dash.get("panels", [])):
        for t in p.get("targets", []):
            if t.get("expr"):
                yield p.get("title", "?"), t.get("refId", "?"), t["expr"], bool(t.get("instant")) and not t.get("range")


def check_structure(name, dash, uids):
    d = name
    uid = dash.get("uid")
    check(uid == STABLE_UIDS.get(os.path.basename(name)), f"{d}: stable uid {uid!r}",
          f"expected {STABLE_UIDS.get(os.path.basename(name))!r}")
    check(isinstance(dash.get("schemaVersion"), int) and 36 <= dash["schemaVersion"] <= 41,
          f"{d}: schemaVersion {dash.get('schemaVersion')} is Grafana 10/11's")
    check("id" not in dash or dash["id"] is None, f"{d}: no instance-specific dashboard id")
    check("__inputs" not in dash, f"{d}: no __inputs (an 'export for sharing' pins a datasource)")

    panels = list(all_panels(dash.get("panels", [])))
    ids = [p.get("id") for p in panels]
    dup = sorted({i for i in ids if ids.count(i) > 1 or i is None}, key=str)
    check(not dup, f"{d}: {len(ids)} panels with unique ids", f"duplicate or missing ids {dup}")

    no_unit = [p.get("title") for p in panels if p.get("type") not in NON_DATA
               and not p.get("fieldConfig", {}).get("defaults", {}).get("unit")]
    check(not no_unit, f"{d}: a unit on every data panel", f"no unit: {no_unit}")
    no_desc = [p.get("title") for p in panels if p.get("type") != "row" and not p.get("description")]
    check(not no_desc, f"{d}: a description on every panel", f"no description: {no_desc}")
    no_title = [p.get("id") for p in panels if not p.get("title")]
    check(not no_title, f"{d}: a title on every panel", f"untitled ids: {no_title}")

    # Datasources: every reference is the ${datasource} variable; only Grafana's built-in annotation differs.
    bad_ds = []
    for path, k, v in walk(dash):
        if k == "datasource":
            if v == DS_REF or v == "${datasource}":
                continue
            if isinstance(v, dict) and v.get("type") == "grafana" and path.startswith("/annotations"):
                continue
            bad_ds.append(f"{path}: {v}")
    check(not bad_ds, f"{d}: every datasource is ${{datasource}}", "; ".join(bad_ds))
    data_panels_without_ds = [p.get("title") for p in panels
                              if p.get("type") not in NON_DATA and p.get("datasource") != DS_REF]
    check(not data_panels_without_ds, f"{d}: every data panel names ${{datasource}}", str(data_panels_without_ds))
    variables = dash.get("templating", {}).get("list", [])
    dsvar = [v for v in variables if v.get("name") == "datasource"]
    check(len(dsvar) == 1 and dsvar[0].get("type") == "datasource" and dsvar[0].get("query") == "prometheus",
          f"{d}: a Prometheus datasource variable named datasource")

    defined = {v.get("name") for v in variables}
    undefined = sorted({r for s in strings(dash) for r in var_refs(s)} - defined - BUILTINS)
    check(not undefined, f"{d}: every $variable referenced is defined", f"undefined: {undefined}")
    # A variable is used by a panel, or by another variable's query (site -> network -> instance).
    unused = sorted(n for n in defined - {"datasource"}
                    if not any(n in set(var_refs(s)) for s in strings(
                        [dash.get("panels", [])] + [v for v in variables if v.get("name") != n])))
    check(not unused, f"{d}: every variable is used", f"unused: {unused}")

    fixed = []
    for title, ref, expr, _ in panel_queries(dash):
        for m in re.finditer(r"\[([^\]]+)\]", expr):
            fn = enclosing_function(expr, m.start())
            if fn in RATE_FUNCS and m.group(1) != "$__rate_interval":
                fixed.append(f"{title} [{ref}]: {fn}(...[{m.group(1)}])")
    check(not fixed, f"{d}: rate windows are $__rate_interval", "; ".join(fixed))

    bad_links = []
    for link in dash.get("links", []):
        m = re.match(r"^/d/([\w-]+)", link.get("url", ""))
        if m and m.group(1) not in uids:
            bad_links.append(link["url"])
    for s in strings(dash.get("panels", [])):
        for m in re.finditer(r"/d/([\w-]+)", s):
            if m.group(1) not in uids:
                bad_links.append(s)
    check(not bad_links, f"{d}: links to dashboards resolve", str(bad_links))
    others = uids - {uid}
    check(all(any(l.get("url", "").startswith(f"/d/{o}") for l in dash.get("links", [])) for o in others),
          f"{d}: links to the other dashboards")
    check(any("docs/runbooks.md" in l.get("url", "") for l in dash.get("links", [])), f"{d}: links to the runbooks")


def self_test(name, dash, uids):
    """Breaks a copy of a dashboard in each way the structure checks exist for; each must be caught."""
    import contextlib
    import copy
    import io

    def first(pred):
        return next(p for p in all_panels(dash_copy["panels"]) if pred(p))

    def data_panel(p):
        return p.get("type") not in NON_DATA

    def pin(d):
        first(data_panel)["datasource"] = {"type": "prometheus", "uid": "P1809F7CD0C75ACF3"}

    def fixed(d):
        t = first(lambda p: p.get("targets"))["targets"][0]
        t["expr"] = "sum(rate(headroom_tunnel_bytes_total[5m])) * 8"

    def unit(d):
        del first(data_panel)["fieldConfig"]["defaults"]["unit"]

    def undefined(d):
        first(data_panel)["description"] += " on $nosuch"

    def dup(d):
        ps = [p for p in all_panels(d["panels"])]
        ps[1]["id"] = ps[0]["id"]

    def uid(d):
        d["uid"] = "Xy12abC"

    cases = [("a pinned datasource uid", pin, "every datasource is"),
             ("a fixed rate window", fixed, "rate windows are $__rate_interval"),
             ("a data panel without unit", unit, "a unit on every data panel"),
             ("an undefined variable", undefined, "every $variable referenced is defined"),
             ("a duplicate panel id", dup, "unique ids"),
             ("a changed dashboard uid", uid, "stable uid")]
    for what, mutate, expect in cases:
        dash_copy = copy.deepcopy(dash)
        mutate(dash_copy)
        saved = check.passed, check.failed
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            check_structure(name, dash_copy, uids)
        check.passed, check.failed = saved
        caught = [l for l in out.getvalue().splitlines() if l.startswith("FAIL") and expect in l]
        check(bool(caught), f"self-test: {name} with {what} is caught", "the structure checks passed it")


# ------------------------------------------------------------------------------------------------ queries
def api(url, path, params):
    q = urllib.parse.urlencode(params, doseq=True)
    try:
        with urllib.request.urlopen(f"{url}{path}?{q}", timeout=30) as r:
            body = json.load(r)
    except urllib.error.HTTPError as e:
        try:
            body = json.load(e)
        except Exception:
            return None, f"HTTP {e.code}"
    if body.get("status") != "success":
        return None, f"{body.get('errorType')}: {body.get('error')}"
    return body["data"], None


def substitute(s, values):
    def repl(m):
        name = m.group(1) or m.group(2) or m.group(3)
        if name in values:
            return values[name]
        return m.group(0)
    return VAR_RE.sub(repl, s)


def run_query(url, expr, instant):
    now = time.time()
    if instant:
        data, err = api(url, "/api/v1/query", {"query": expr, "time": f"{now:.3f}"})
    else:
        data, err = api(url, "/api/v1/query_range", {"query": expr, "start": f"{now - RANGE_SECONDS:.3f}",
                                                     "end": f"{now:.3f}", "step": STEP_SECONDS})
    if err:
        return f"error {err}"
    res = data.get("result", [])
    if not res:
        return "no data"
    vals = []
    for s in res:
        if "value" in s:
            vals.append(s["value"][1])
        vals += [v[1] for v in s.get("values", [])]
    if vals and all(math.isnan(float(v)) for v in vals if v not in ("+Inf", "-Inf")):
        return "only NaN"
    return None


def run_variable(url, query):
    m = re.match(r"^\s*label_values\((.*),\s*([A-Za-z_]\w*)\s*\)\s*$", query, re.S)
    if m:
        data, err = api(url, f"/api/v1/label/{m.group(2)}/values", {"match[]": m.group(1).strip(),
                                                                  "start": f"{time.time() - 3600:.0f}"})
        if err:
            return f"error {err}", []
        return (None if data else "no values"), data
    m = re.match(r"^\s*query_result\((.*)\)\s*$", query, re.S)
    if m:
        err = run_query(url, m.group(1), True)
        return err, []
    return f"unsupported variable query {query!r}", []


def check_queries(url, name, dash, values, label, deadline):
    """Runs every variable and target; retries failures until the deadline (alerts go pending, rules settle)."""
    jobs = []
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") == "query":
            jobs.append(("variable", f"${v['name']}", substitute(variable_query(v), values), None))
    for title, ref, expr, instant in panel_queries(dash):
        jobs.append(("panel", f"{title} [{ref}]", substitute(expr, values), instant))
    print(f"# {name} ({label}): {len(jobs)} queries")
    results = {}
    while True:
        for i, (kind, what, q, instant) in enumerate(jobs):
            if results.get(i, "x") is None:
                continue
            if kind == "variable":
                err, vals = run_variable(url, q)
                want = {"site": values.get("site"), "network": values.get("network"),
                        "instance": values.get("instance")}.get(what[1:])
                if not err and want and want != ".*" and want not in vals:
                    err = f"{want!r} not among {vals}"
            else:
                err = run_query(url, q, instant)
            results[i] = err
        if all(e is None for e in results.values()) or time.time() > deadline:
            break
        time.sleep(2)
    for i, (kind, what, q, instant) in enumerate(jobs):
        err = results[i]
        one_line = " ".join(q.split())
        check(err is None, f"{name} ({label}) {kind} {what}", f"{err}: {one_line}" if err else "")


def netbird_answers(url, dash, values, deadline, active, single, past, routers):
    """The "Networks from NetBird" and "Routers from NetBird" tables answer what NetBird and headroom say: each
    Network's active router (`active`: Network -> peer, the lowest metric that is up), the single-router rule
    broken exactly in the Networks `single`, past one peer exactly in `past`, every router in `routers` scraped and up. Retried until the
    deadline (the inventory and the first scrapes settle)."""
    panels = {p.get("title"): p for p in all_panels(dash.get("panels", []))}
    nets, table = panels.get("Networks from NetBird"), panels.get("Routers from NetBird")
    if not check(nets is not None and table is not None, "headroom-fleet.json: the NetBird panels exist"):
        return

    def by(panel, ref, *labels):
        q = substitute(next(t["expr"] for t in panel["targets"] if t["refId"] == ref), values)
        data, err = api(url, "/api/v1/query", {"query": q})
        if err:
            return {"error": err}
        return {tuple(s["metric"].get(l, "") for l in labels): float(s["value"][1]) for s in data["result"]}

    want = [
        ("Networks from NetBird: the active router of each Network is its lowest metric that is up",
         lambda: set(by(nets, "C", "network", "netbird_peer")), set(active.items())),
        ("Networks from NetBird: the single-router rule is broken where NetBird lists one router, only there",
         lambda: by(nets, "E", "network"), {(n,): (1.0 if n in single else 0.0) for n in active}),
        ("Networks from NetBird: past one peer (load above the active peer's ceiling) exactly where it is",
         lambda: by(nets, "F", "network"), {(n,): (1.0 if n in past else 0.0) for n in active}),
        ("Routers from NetBird: every router is scraped and up",
         lambda: by(table, "D", "netbird_peer"), {(p,): 1.0 for p in routers}),
        ("Routers from NetBird: the active routers are marked active, the others standby",
         lambda: by(table, "E", "netbird_peer"), {(p,): (1.0 if p in active.values() else 0.0) for p in routers}),
    ]
    for what, get, expected in want:
        while True:
            got = get()
            if got == expected:
                check(True, what)
                break
            if time.time() > deadline:
                check(False, what, f"got {got}, want {expected}")
                break
            time.sleep(2)


def wait_for_data(url, instances, timeout):
    """Until every exporter is scraped, rate windows hold samples, and the rule groups have run."""
    deadline = time.time() + timeout
    # A 1 s scrape on a busy machine misses now and then (timeout = interval): count what answered lately.
    need = {"up": 'count(max_over_time(up{job="headroom"}[30s]) == 1)',
            "info": "count(last_over_time(headroom_peer_info[30s]))",
            "rate": 'count(rate(headroom_tunnel_bytes_total[15s]) > 0)',
            "records": "count(network:headroom_peers_up:sum)"}
    while time.time() < deadline:
        ok = True
        for k, q in need.items():
            data, err = api(url, "/api/v1/query", {"query": q})
            n = float(data["result"][0]["value"][1]) if data and data["result"] else 0
            if k in ("up", "info") and n < instances or n < 1:
                ok = False
        if ok:
            return True
        time.sleep(1)
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dashboards", nargs="+")
    ap.add_argument("--url")
    ap.add_argument("--instance", help="a peer (host:port) that carries traffic")
    ap.add_argument("--network")
    ap.add_argument("--site")
    ap.add_argument("--instances", type=int, default=1, help="exporters the Prometheus scrapes")
    ap.add_argument("--timeout", type=float, default=120, help="seconds to wait for data, then for queries")
    ap.add_argument("--netbird-active", action="append", default=[], metavar="NETWORK=PEER",
                    help="the router NetBird's inventory makes active in NETWORK (checks the NetBird panels)")
    ap.add_argument("--netbird-single", action="append", default=[], metavar="NETWORK",
                    help="a Network NetBird lists with one router")
    ap.add_argument("--netbird-past-one-peer", action="append", default=[], metavar="NETWORK",
                    help="a Network whose load is above its active peer's ceiling")
    ap.add_argument("--netbird-routers", default="", help="every router peer NetBird lists, comma-separated")
    a = ap.parse_args()

    dashes = {}
    for path in a.dashboards:
        try:
            with open(path) as f:
                dashes[path] = json.load(f)
            check(True, f"{os.path.basename(path)}: valid JSON")
        except (OSError, ValueError) as e:
            check(False, f"{os.path.basename(path)}: valid JSON", str(e))
    uids = {d.get("uid") for d in dashes.values()}
    n_expr = 0
    for path, dash in dashes.items():
        check_structure(os.path.basename(path), dash, uids)
        n_expr += sum(1 for _ in panel_queries(dash)) + sum(
            1 for v in dash.get("templating", {}).get("list", []) if v.get("type") == "query")
    print(f"# {n_expr} PromQL expressions in {len(dashes)} dashboards")
    for path, dash in dashes.items():
        self_test(os.path.basename(path), dash, uids)

    if a.url:
        if not check(wait_for_data(a.url, a.instances, a.timeout),
                     f"Prometheus at {a.url} scrapes {a.instances} exporters and evaluates the rules"):
            return check.finish()
        deadline = time.time() + a.timeout
        for path, dash in dashes.items():
            name = os.path.basename(path)
            contexts = [("one peer", {"datasource": "", "instance": a.instance, "network": a.network,
                                      "site": a.site})]
            if not any(v.get("name") == "instance" for v in dash["templating"]["list"]):
                contexts = [("All", {"datasource": "", "network": ".*", "site": ".*"}),
                            (f"{a.network}/{a.site}", {"datasource": "", "network": a.network, "site": a.site})]
            for label, values in contexts:
                values = dict(values, **GRAFANA_VARS)
                check_queries(a.url, name, dash, values, label, deadline)
            if name == "headroom-fleet.json" and a.netbird_active:
                netbird_answers(a.url, dash, dict(contexts[0][1], **GRAFANA_VARS), deadline,
                                dict(x.split("=", 1) for x in a.netbird_active), set(a.netbird_single), set(a.netbird_past_one_peer),
                                [p for p in a.netbird_routers.split(",") if p])

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
