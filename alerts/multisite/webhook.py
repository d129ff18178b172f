#!/usr/bin/env python3
"""The receiver behind Alertmanager's webhook_configs: appends every notification, with the path it came to
(/page, /ticket, /chat in alerts/alertmanager.yml), as one JSON line to a file.

Usage: webhook.py --listen 127.0.0.1:PORT --out received.jsonl     (runs until killed)
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--listen", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                payload = json.loads(body)
            except ValueError:
                payload = {"unparsable": body.decode(errors="replace")}
            with lock, open(a.out, "a") as f:
                f.write(json.dumps({"path": self.path, "payload": payload}) + "\n")
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self):      # readiness
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    host, port = a.listen.rsplit(":", 1)
    ThreadingHTTPServer((host, int(port)), Handler).serve_forever()


if __name__ == "__main__":
    main()
