#!/usr/bin/env python3
"""The receiver behind Alertmanager's webhook_configs: appends every notification, with the path it came to
(/page, /ticket, /chat in alerts/alertmanager.yml) and the time it came (epoch seconds), as one JSON line to a file.

Usage: webhook.py --listen 127.0.0.1:PORT --out received.jsonl     (runs until killed)
"""
import argparse
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fleet"))
from quiet_http import QuietHandler, serve  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--listen", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    lock = threading.Lock()

    class Handler(QuietHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                payload = json.loads(body)
            except ValueError:
                payload = {"unparsable": body.decode(errors="replace")}
            with lock, open(a.out, "a") as f:
                f.write(json.dumps({"path": self.path, "at": time.time(), "payload": payload}) + "\n")
            self.reply(200)

        def do_GET(self):      # readiness
            self.reply(200)

    serve(a.listen, Handler)


if __name__ == "__main__":
    main()
