"""The small HTTP servers the alert suites run (fleet_exporter.py's scrape targets, multisite/webhook.py's
Alertmanager receiver): a handler that answers with one call and keeps the suite's output free of access
logs, and a threaded server on HOST:PORT.

Usage:
    class Handler(QuietHandler):
        def do_GET(self):
            self.reply(200, b"ok\\n", "text/plain")
    serve("127.0.0.1:9100", Handler)
"""
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietHandler(BaseHTTPRequestHandler):
    def reply(self, code, body=b"", ctype=None):
        self.send_response(code)
        if ctype:
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve(listen, handler):
    """Serves until killed; listen is HOST:PORT."""
    host, port = listen.rsplit(":", 1)
    ThreadingHTTPServer((host, int(port)), handler).serve_forever()
