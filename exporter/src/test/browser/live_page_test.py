"""End-to-end test of the live page in headless Chromium against the real daemon over a fixture tree.

The daemon runs from the jar in fixture mode (--path.sysfs/--path.procfs on a copy of the kernel fixture) on a
free loopback port; a driver thread moves the tunnel, underlay and CPU counters as a busy kernel-WireGuard peer
would; Chromium is driven over its DevTools protocol. Screenshots land in the output directory.

Usage: python3 live_page_test.py JAR FIXTURE_DIR OUT_DIR
"""
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Chromium  # noqa: E402

USER_HZ = 100
MODES = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"]


class Fixture:
    """The copied tree and the counters the driver moves (written atomically: the daemon reads concurrently)."""

    def __init__(self, root):
        self.root = root
        self.net = {}
        for iface in ("wt0", "eth0"):
            for stat in ("tx_bytes", "rx_bytes", "tx_packets", "rx_packets"):
                self.net[(iface, stat)] = float(self.read(self.stat_path(iface, stat)))
        self.cpu_lines, self.cpu = self.parse_stat()

    def stat_path(self, iface, stat):
        return os.path.join(self.root, "sys/class/net", iface, "statistics", stat)

    def read(self, path):
        with open(path) as f:
            return f.read().strip()

    def write(self, path, text):
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)

    def parse_stat(self):
        lines = open(os.path.join(self.root, "proc/stat")).read().splitlines()
        cpu = {}
        for line in lines:
            f = line.split()
            if f and f[0].startswith("cpu") and f[0] != "cpu":
                cpu[int(f[0][3:])] = [float(x) for x in f[1:]]
        return lines, cpu

    def flush(self):
        for (iface, stat), v in self.net.items():
            self.write(self.stat_path(iface, stat), f"{int(v)}\n")
        out = []
        total = [sum(t[i] for t in self.cpu.values()) for i in range(10)]
        for line in self.cpu_lines:
            name = line.split()[0] if line.split() else ""
            if name == "cpu":
                line = "cpu  " + " ".join(str(int(x)) for x in total)
            elif name.startswith("cpu"):
                line = name + " " + " ".join(str(int(x)) for x in self.cpu[int(name[3:])])
            out.append(line)
        self.write(os.path.join(self.root, "proc/stat"), "\n".join(out) + "\n")


class Driver(threading.Thread):
    """Moves the counters along a load profile: load(t) -> (download B/s, upload B/s, [per-core mode shares])."""

    def __init__(self, fixture):
        super().__init__(daemon=True)
        self.fx = fixture
        self.load = lambda t: (0.0, 0.0, [{"user": 0.02} for _ in fixture.cpu])
        self.stop = threading.Event()
        self.t0 = time.monotonic()

    def set_load(self, load):
        self.t0 = time.monotonic()
        self.load = load

    def run(self):
        if os.geteuid() == 0:
            # This thread alone: it must keep time on a loaded machine, or the bytes it writes arrive in lumps.
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -10)
        last = time.monotonic()
        while not self.stop.is_set():
            time.sleep(0.02)
            now = time.monotonic()
            dt, last = now - last, now
            down, up, cores = self.load(now - self.t0)
            n = self.fx.net
            # Download leaves by tunnel TX and underlay transmit (74 bytes of overhead per 1280-byte packet).
            n[("wt0", "tx_bytes")] += down * dt
            n[("wt0", "tx_packets")] += down * dt / 1280
            n[("wt0", "rx_bytes")] += up * dt
            n[("wt0", "rx_packets")] += up * dt / 1280
            n[("eth0", "tx_bytes")] += down * dt * 1354 / 1280
            n[("eth0", "tx_packets")] += down * dt / 1280
            n[("eth0", "rx_bytes")] += up * dt * 1354 / 1280
            n[("eth0", "rx_packets")] += up * dt / 1280
            for cpu, shares in zip(sorted(self.fx.cpu), cores):
                busy = sum(shares.values())
                ticks = self.fx.cpu[cpu]
                for mode, share in shares.items():
                    ticks[MODES.index(mode)] += share * USER_HZ * dt
                ticks[MODES.index("idle")] += max(0.0, 1 - busy) * USER_HZ * dt
            self.fx.flush()


class Results:
    def __init__(self):
        self.passed, self.failed = 0, 0

    def check(self, name, fn):
        try:
            detail = fn()
            self.passed += 1
            print(f"ok   {name}" + (f" ({detail})" if detail else ""), flush=True)
        except Exception as e:  # every failure is reported, the run goes on to the next check
            self.failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read()


def busy_core(hot):
    """Shares of a kernel-WireGuard peer's core: encryption in softirq, some user and system, a little steal."""
    return {"user": 0.12 * hot, "system": 0.10 * hot, "softirq": 0.70 * hot, "steal": 0.03}


def show(t):
    """The load for the picture: a wave, a one-second burst, then a sustained push that saturates the CPU."""
    if t < 18:
        down = 8.0 if 12 <= t < 13 else 3.0 + 2.0 * (0.5 + 0.5 * math.sin(t / 3))
    else:
        down = min(6.6, 4.0 + (t - 18) * 1.3)
    up = 0.9 + 0.6 * (0.5 + 0.5 * math.sin(t / 2.5 + 1))
    hot = min(1.0, down / 6.4)
    cores = [busy_core(hot), busy_core(hot), busy_core(hot * 0.97),
             {"user": 0.25 * hot, "system": 0.10 * hot, "softirq": 0.45 * hot, "steal": 0.15}]
    return down * 1e9 / 8, up * 1e9 / 8, cores


def main():
    jar, fixture_src, out = sys.argv[1], sys.argv[2], sys.argv[3]
    # A stopped run still ends Chromium and the daemon (the finally below) instead of orphaning them.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="headroom-browser-")
    shutil.copytree(fixture_src, os.path.join(work, "kernel"))
    fx = Fixture(os.path.join(work, "kernel"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    state = os.path.join(work, "state")
    os.makedirs(state)
    log = open(os.path.join(out, "daemon.log"), "w")
    daemon = subprocess.Popen(["java", "-jar", jar, "serve", f"--web.listen-address=127.0.0.1:{port}",
                               f"--path.sysfs={fx.root}/sys", f"--path.procfs={fx.root}/proc",
                               "--sample.interval=500ms", f"--path.state={state}",
                               # Long enough that the first checks read the reference, short enough that the
                               # picture shows the ceiling this peer's cost per packet gives.
                               "--ceiling.cost-after=20s"], stdout=log, stderr=subprocess.STDOUT)
    driver = Driver(fx)
    chrome = None
    res = Results()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if fetch(base + "/-/ready")[0] == 200:
                    break
            except OSError:
                pass
            if daemon.poll() is not None or time.monotonic() > deadline:
                print(f"FAIL the daemon did not become ready (see {out}/daemon.log)")
                print("browser: 0 passed, 1 failed")
                return 1
            time.sleep(0.2)
        driver.start()

        def server_html():
            html = fetch(base + "/")[1].decode()
            for text in ("0.000</span> Gbps", "wt0 · kernel datapath · MTU 1280 · 4 cores", "cpu3",
                         'href="/metrics"', 'href="/api/v1/status"', "Tunnel wt0: kernel datapath"):
                assert text in html, f"{text!r} missing from the server-rendered page"
            assert "http://" not in html and "https://" not in html, "the page refers to another host"
        res.check("server-rendered page has the reading as text (no JS needed)", server_html)

        def small():
            sizes = {p: len(fetch(base + p)[1]) for p in ("/", "/static/live.js", "/static/live.css", "/metrics")}
            page = sizes["/"] + sizes["/static/live.js"] + sizes["/static/live.css"]
            assert page < 25000, f"page + JS + CSS is {page} bytes"
            return f"page+js+css {page} bytes uncompressed, /metrics {sizes['/metrics']}"
        res.check("page, script and style are small", small)

        chrome = Chromium.launch(os.path.join(work, "profile"), log=open(os.path.join(out, "chromium.log"), "w"))
        page = chrome.page()
        for domain in ("Runtime", "Log", "Network", "Page"):
            page.call(domain + ".enable")
        page.call("Emulation.setDeviceMetricsOverride", width=1200, height=900, deviceScaleFactor=1, mobile=False)
        page.call("Page.navigate", url=base + "/")

        def loads():
            page.wait_for("document.readyState === 'complete' && !!document.querySelector('#chart-download svg')",
                          20, "page loaded and drew its first chart")
            return page.eval("document.title")
        res.check("page loads and draws", loads)

        def text(key):
            return f"(document.querySelector('[data-k=\"{key}\"]')||{{}}).textContent"

        def near(key, want, tol):
            return f"Math.abs(parseFloat({text(key)}) - {want}) <= {tol}"

        # Steady 2 Gbps down, 0.5 Gbps up: the page must show those numbers.
        driver.set_load(lambda t: (2e9 / 8, 0.5e9 / 8, [busy_core(0.4)] * 4))

        def steady():
            page.wait_for(near("download.gbps", 2.0, 0.3) + " && " + near("upload.gbps", 0.5, 0.1), 20,
                          "download ~2.000 Gbps and upload ~0.500 Gbps on the page")
            return f"download {page.eval(text('download.gbps'))}, upload {page.eval(text('upload.gbps'))} Gbps"
        res.check("page shows the Gbps the counters move at", steady)

        def headroom():
            page.wait_for(f"{text('download.verdict')} === 'Headroom' && {text('upload.verdict')} === 'Headroom'",
                          15, "both directions judged 'Headroom' at 2 / 0.5 Gbps on 4 kernel cores")
            page.wait_for(f"/of 7.000 ceiling \\(reference; 683,594 packets\\/s of 1,280 bytes\\)/"
                          f".test({text('download.ceiling')})", 5,
                          "the 4-core kernel reference ceiling of 7 Gbps download")
            # 2/7 + 0.5/4 of the CPU in use (about 0.4, the cores say as much): about 4 of 7 Gbps download left.
            page.wait_for(f"(m => m && m[1] >= 3.2 && m[1] <= 4.6)(/^Room for ([0-9.]+) Gbps more download now/"
                          f".exec({text('download.spare')}))", 10, "room for ~4 Gbps more download")
            # Before the cost is learned there is no figure of this CPU, and its section is not shown.
            assert not json.loads(fetch(base + "/api/v1/status")[1])["this_cpu"]["learned"]
            assert page.eval("!document.querySelector('#this-cpu table') && "
                             "getComputedStyle(document.querySelector('#this-cpu')).display === 'none'")
            return page.eval(f"{text('download.ceiling')} + ' / ' + {text('download.util')}")
        res.check("page shows the verdict and the ceiling in words", headroom)

        def softirq():
            # The driver gives each core 0.70 x 0.4 = 28 % softirq and 3 % steal.
            page.wait_for("(m => m && Math.abs(m[1] - 28) <= 6)(/softirq (\\d+)%/.exec("
                          "document.querySelector('#cores .core .now').textContent))", 15, "cpu0 softirq ~28 %")
            return page.eval("document.querySelector('#cores .core .now').textContent")
        res.check("per-core softirq share is shown", softirq)

        # The counters speed up: the page follows without a reload.
        seq0 = page.eval(text("updated"))
        driver.set_load(lambda t: (4e9 / 8, 1.5e9 / 8, [busy_core(0.6)] * 4))

        def follows():
            page.wait_for(near("download.gbps", 4.0, 0.5) + " && " + near("upload.gbps", 1.5, 0.25), 20,
                          "download ~4 Gbps, upload ~1.5 Gbps after the counters sped up")
            assert page.eval(text("updated")) != seq0, "sample number did not change"
            return f"download {page.eval(text('download.gbps'))} Gbps"
        res.check("page updates when the counters move", follows)

        driver.set_load(show)

        def cpu_bound():
            page.wait_for(f"{text('download.verdict')} === 'CPU-bound' && "
                          "/Scale up/.test(document.querySelector('#advice').textContent)", 40,
                          "download judged CPU-bound with 'Scale up' advice once the cores saturate")
            page.wait_for(f"{text('upload.verdict')} === 'CPU-bound: the CPU is shared'", 10,
                          "upload shares the saturated CPU: no longer a green 'Headroom'")
            assert page.eval(f"/^No room for more upload now/.test({text('upload.spare')})"), page.eval(text("upload.spare"))
            assert page.eval("document.querySelector('[data-dir=download]').getAttribute('data-verdict')") == "cpu_bound"
            time.sleep(3)  # a few more samples of the saturated plateau for the picture
            return page.eval("document.querySelector('#advice li').textContent")[:90]
        res.check("verdict turns CPU-bound and the advice says scale up", cpu_bound)

        def cost():
            # By now the peer has carried load for more than --ceiling.cost-after: its ceiling is its own cost's.
            page.wait_for(f"/ceiling \\(cost; [0-9,]+ packets\\/s of 1,280 bytes\\)/.test({text('download.ceiling')})",
                          30, "the download ceiling read from this peer's cost per packet")
            page.wait_for(f"/^cost: /.test({text('download.basis')})", 5, "the basis names the cost")
            return page.eval(text("download.ceiling"))
        res.check("the ceiling turns to the cost the peer learned, in bytes and packets", cost)

        def sizes():
            # With the cost learned: this CPU against the reference, and the guide's sizes of this CPU, as the status
            # gives them (a kernel peer: one datapath, 7 sizes, a download and an upload column each).
            page.wait_for("document.querySelectorAll('#this-cpu table.sizes tbody tr').length === 7", 10,
                          "the size table once this_cpu.learned")
            st = json.loads(fetch(base + "/api/v1/status")[1])["this_cpu"]
            assert st["learned"], st
            words = page.eval(text("this_cpu"))
            down = st["speed_vs_reference"]["download"]
            m = re.match(r"^This CPU: ([0-9.]+)x the reference \(download\), ([0-9.]+)x \(upload\), from ", words)
            assert m and abs(float(m.group(1)) - down) <= 0.05 * down + 0.01, f"{words!r} against {down}"
            heads = page.eval("Array.from(document.querySelectorAll('#this-cpu th')).map(h => h.textContent)")
            assert heads == ["vCPUs", "kernel download", "kernel upload"], heads
            cells = page.eval("Array.from(document.querySelectorAll('#this-cpu tbody tr'))"
                              ".map(r => Array.from(r.cells).map(c => c.textContent))")
            want = {r["cores"]: r["download"]["gbps"] for r in st["sizes"] if r["datapath"] == "kernel"}
            assert [int(c[0]) for c in cells] == [1, 2, 4, 8, 16, 32, 64], cells
            for c in cells:
                got = float(c[1].rstrip("*"))
                assert abs(got - want[int(c[0])]) <= 0.05 * want[int(c[0])] + 0.1, f"{c} against {want}"
            return f"{words[:60]}...; 16 vCPUs: {cells[4][1]} / {cells[4][2]} Gbps"
        res.check("this CPU's speed and size table appear once the cost is learned", sizes)

        def chart():
            n = page.eval("document.querySelectorAll('#chart-download path.line, #chart-upload path.line').length")
            assert n == 2, f"{n} chart lines"
            peak = page.eval("(document.querySelector('#chart-download text.peak-t')||{}).textContent")
            assert peak and peak.startswith("peak "), f"no peak label ({peak!r})"
            assert float(peak.split()[1]) > 7.2, f"the 1-second burst to 8 Gbps is not the peak: {peak}"
            return peak
        res.check("charts draw both directions and mark the burst as the peak", chart)

        def strips():
            painted = page.eval("""Array.from(document.querySelectorAll('#cores canvas')).map(c => {
                const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
                for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })""")
            assert len(painted) == 4 and all(p > 100 for p in painted), f"painted pixels per core strip: {painted}"
            return f"painted pixels {painted}"
        res.check("heat strips paint every core", strips)

        def history():
            h = json.loads(fetch(base + "/api/v1/history")[1])
            seqs = [p["sequence"] for p in h["points"]]
            assert len(seqs) > 40 and seqs == sorted(seqs), f"{len(seqs)} points"
            after = json.loads(fetch(base + f"/api/v1/history?after={seqs[-3]}")[1])["points"]
            assert 2 <= len(after) <= 4 and all(p["sequence"] > seqs[-3] for p in after), [p["sequence"] for p in after]
            return f"{len(seqs)} points, after= returns only newer ones"
        res.check("history API serves ordered points and only new ones after a sequence", history)

        def shot(name, width, height):
            page.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                      mobile=width < 600)
            time.sleep(1.5)  # one redraw at the new width
            size = page.call("Page.getLayoutMetrics")["cssContentSize"]
            png = page.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                            clip={"x": 0, "y": 0, "width": width, "height": math.ceil(size["height"]), "scale": 1})
            path = os.path.join(out, name)
            with open(path, "wb") as f:
                f.write(__import__("base64").b64decode(png["data"]))
            return path

        def desktop():
            p = shot("live-page.png", 1200, 900)
            assert os.path.getsize(p) > 20000, f"{p} is only {os.path.getsize(p)} bytes"
            return p
        res.check("desktop screenshot saved", desktop)

        def phone():
            p = shot("live-page-phone.png", 390, 844)
            overflow = page.eval("document.documentElement.scrollWidth")
            assert overflow <= 390, f"page is {overflow} px wide on a 390 px phone"
            return p
        res.check("readable on a phone: no sideways scrolling", phone)

        def clean():
            errors = []
            for e in page.events:
                m, p = e["method"], e.get("params", {})
                if m == "Runtime.exceptionThrown":
                    errors.append("exception: " + json.dumps(p["exceptionDetails"])[:300])
                elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning", "assert"):
                    errors.append(f"console.{p['type']}: " + json.dumps(p["args"])[:300])
                elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                    errors.append(f"log {p['entry']['level']}: {p['entry']['text']} {p['entry'].get('url', '')}")
            assert not errors, "; ".join(errors)
        res.check("no console errors, warnings or exceptions", clean)

        def offline():
            urls = {e["params"]["request"]["url"] for e in page.events if e["method"] == "Network.requestWillBeSent"}
            foreign = [u for u in urls if not u.startswith(base + "/") and not u.startswith("data:")]
            assert not foreign, f"requests beyond the daemon: {foreign}"
            return f"{len(urls)} distinct URLs, all on the daemon"
        res.check("every request goes to the daemon (works offline)", offline)
    finally:
        driver.stop.set()
        if chrome:
            chrome.close()
        daemon.terminate()
        try:
            daemon.wait(10)
        except subprocess.TimeoutExpired:
            daemon.kill()
        shutil.rmtree(work, ignore_errors=True)
    print(f"browser: {res.passed} passed, {res.failed} failed")
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
