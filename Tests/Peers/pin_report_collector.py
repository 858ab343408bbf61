#!/usr/bin/env python3
"""An RFC 7469 report collector for the pin-failure report tests (issue #31): it records every POST.

  pin_report_collector.py --log FILE [--cert PEM --key PEM]

It listens on 127.0.0.1 on a port the kernel picks (HTTPS when given a certificate), prints
"listening on 127.0.0.1:PORT" once it accepts connections, and for each request appends one JSON line
to FILE before answering 204: {"method": "POST", "path": "/r", "content_type": "application/json",
"body": "<the body as text>"}. The body is recorded as it came, parsed by the test, not here.
"""
import argparse
import http.server
import json
import signal
import ssl
import sys
import threading

arguments = argparse.ArgumentParser()
arguments.add_argument("--log", required=True)
arguments.add_argument("--cert")
arguments.add_argument("--key")
options = arguments.parse_args()
lock = threading.Lock()


class Collector(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def record(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        entry = {
            "method": self.command,
            "path": self.path,
            "content_type": self.headers.get("Content-Type"),
            "body": body.decode("utf-8", "replace"),
        }
        with lock:
            with open(options.log, "a") as log:
                log.write(json.dumps(entry) + "\n")
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = record
    do_PUT = record
    do_GET = record

    def log_message(self, *_):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
server.daemon_threads = True
if options.cert:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(options.cert, options.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
