#!/usr/bin/env python3
"""A stand-in for NetBird's management REST API, for the tests of `headroom discover`: serves the list endpoints
(GET /api/networks, /api/networks/routers, /api/routes, /api/peers, /api/groups) from the JSON fixtures in
exporter/src/test/resources/fixtures/netbird-api, built from the fields of NetBird's schema
(shared/management/http/api/openapi.yml). Answers 401 to a request without `Authorization: Token <token>`, 405 to
anything but GET.

Usage: netbird_standin.py --fixtures DIR --token-file FILE [--peer-ip 127.0.0.1] [--port 0] [--tls-cert F --tls-key F]
Prints "port N" once listening; --peer-ip replaces every peer's overlay IP (so a real exporter on this host is
the discovered target)."""
import argparse
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ENDPOINTS = {"/api/networks": "networks", "/api/networks/routers": "routers", "/api/routes": "routes",
             "/api/peers": "peers", "/api/groups": "groups"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--token-file", required=True)
    ap.add_argument("--peer-ip")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--tls-cert")
    ap.add_argument("--tls-key")
    a = ap.parse_args()
    token = open(a.token_file).read().strip()
    bodies = {}
    for path, name in ENDPOINTS.items():
        doc = json.load(open(os.path.join(a.fixtures, name + ".json")))
        if name == "peers" and a.peer_ip:
            for p in doc:
                p["ip"] = a.peer_ip
        bodies[path] = json.dumps(doc).encode()
    counts = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body, ctype="application/json"):
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/-/counts":  # the test's own view: requests per path
                return self.answer(200, json.dumps(counts).encode())
            counts[path] = counts.get(path, 0) + 1
            if self.headers.get("Authorization") != "Token " + token:
                return self.answer(401, b'{"message":"token invalid","code":401}')
            if path not in bodies:
                return self.answer(404, b'{"message":"not found","code":404}')
            self.answer(200, bodies[path])

        def refuse(self):
            self.answer(405, b'{"message":"method not allowed","code":405}')

        do_POST = do_PUT = do_DELETE = do_PATCH = refuse

    server = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    if a.tls_cert:
        import ssl
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.tls_cert, a.tls_key)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    print("port", server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
