"""A minimal Chrome DevTools Protocol client on the Python standard library (RFC 6455 client framing).

Usage: page = Chromium.launch(tmpdir).page(); page.call("Page.navigate", url="http://...")
"""
import base64
import json
import os
import socket
import struct
import subprocess
import time
import urllib.request


class WebSocket:
    def __init__(self, url, timeout=30):
        assert url.startswith("ws://"), url
        hostport, path = url[5:].split("/", 1)
        host, port = hostport.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError("websocket handshake refused: " + head.decode(errors="replace"))

    def _exact(self, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("websocket closed")
            buf += chunk
        return bytes(buf)

    def send(self, text):
        data = text.encode()
        n = len(data)
        head = bytes([0x81])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self):
        message = bytearray()
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exact(8))[0]
            payload = self._exact(n)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise ConnectionError("websocket closed by peer")
            if opcode in (0x9, 0xA):  # ping/pong: Chromium does not ping clients, ignore either
                continue
            message += payload
            if b0 & 0x80:
                return message.decode()


class Page:
    """One page target: call() waits for the answer; events are kept in self.events."""

    def __init__(self, ws_url):
        self.ws = WebSocket(ws_url)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def eval(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"page threw evaluating {expression!r}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expression, timeout, what):
        """Polls a page expression until it is truthy; the failure names what never happened and the last value."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            last = self.eval(expression)
            if last:
                return last
            time.sleep(0.2)
        raise AssertionError(f"{what}: not seen within {timeout} s (last value {last!r})")


class Chromium:
    FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-default-apps", "--hide-scrollbars", "--mute-audio", "--remote-debugging-port=0"]

    def __init__(self, proc, port, profile):
        self.proc, self.port, self.profile = proc, port, profile

    @classmethod
    def launch(cls, profile, binary="chromium", log=None):
        proc = subprocess.Popen([binary, *cls.FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                stdout=log or subprocess.DEVNULL, stderr=log or subprocess.DEVNULL)
        active = os.path.join(profile, "DevToolsActivePort")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"chromium exited with status {proc.returncode} before DevTools came up")
            if os.path.exists(active):
                lines = open(active).read().split()
                if lines:
                    return cls(proc, int(lines[0]), profile)
            time.sleep(0.1)
        proc.kill()
        raise RuntimeError("chromium did not open its DevTools port within 30 s")

    def page(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=10) as r:
            targets = json.load(r)
        pages = [t for t in targets if t.get("type") == "page"]
        if not pages:
            raise RuntimeError(f"chromium has no page target: {targets}")
        return Page(pages[0]["webSocketDebuggerUrl"])

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
