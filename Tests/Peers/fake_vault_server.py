#!/usr/bin/env python3
"""A fake OpenBao/Vault server for the tests of SecKit's OpenBao store (issue #28): it answers every
request with one FORM of redirect, failure or garbage, as a real cluster, a broken proxy or a
hostile server might.

  fake_vault_server.py FORM --log FILE --cert PEM --key PEM [--target URL]

It listens on 127.0.0.1 on a port the kernel picks, prints "listening on 127.0.0.1:PORT" once it
accepts connections, and appends one JSON line per request to FILE before answering it:
{"method": "POST", "path": "/v1/...", "body": "...", "token": true}.

FORM:
  redirect       307 to --target + the same path (a standby sending the client to the active node)
  redirect-loop  307 to itself
  redirect-http  307 to http://127.0.0.1:PORT + the same path (a downgrade)
  failover       307 to --target + the same path on the first request (a standby naming the active node
                 that has just died), then the KV answer (the standby has become the active node)
  flaky          503, 503, 412, then a KV version 2 answer with the secret "after retries"
  always-500     500 on every request
  sealed         503 {"errors": ["Vault is sealed"]}
  uninitialized  501
  html           200 with an HTML page
  truncated      200 whose body ends before its Content-Length
  huge-headers   200 after 2 MB of header lines
  stall          accepts and never answers
"""
import argparse
import http.server
import json
import signal
import ssl
import sys
import threading
import time

FORMS = ["redirect", "redirect-loop", "redirect-http", "failover", "flaky", "always-500", "sealed", "uninitialized", "html",
         "truncated", "huge-headers", "stall"]

KV_ANSWER = json.dumps({"data": {"data": {"secret": "after retries"},
                                 "metadata": {"custom_metadata": None, "version": 1}}}).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def answer(self):
        server = self.server
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        with server.lock:
            number = server.count
            server.count += 1
            with open(server.log, "a") as log:
                log.write(json.dumps({"method": self.command, "path": self.path, "body": body,
                                      "token": self.headers.get("X-Vault-Token") is not None}) + "\n")
        form = server.form
        if form == "redirect":
            return self.send(307, b"", [("Location", server.target + self.path)])
        if form == "redirect-loop":
            return self.send(307, b"", [("Location", f"https://127.0.0.1:{server.server_port}{self.path}")])
        if form == "redirect-http":
            return self.send(307, b"", [("Location", f"http://127.0.0.1:{server.server_port}{self.path}")])
        if form == "failover":
            if number == 0:
                return self.send(307, b"", [("Location", server.target + self.path)])
            return self.send(200, KV_ANSWER)
        if form == "flaky":
            if number < 2:
                return self.send(503, b'{"errors":["upstream connect error"]}')
            if number == 2:
                return self.send(412, b'{"errors":["required index state not present"]}')
            return self.send(200, KV_ANSWER)
        if form == "always-500":
            return self.send(500, b'{"errors":["internal error"]}')
        if form == "sealed":
            return self.send(503, b'{"errors":["Vault is sealed"]}')
        if form == "uninitialized":
            return self.send(501, b'{"errors":["Vault is not initialized"]}')
        if form == "html":
            return self.send(200, b"<html><body><h1>Welcome to nginx!</h1></body></html>", content_type="text/html")
        if form == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(KV_ANSWER)))
            self.end_headers()
            self.wfile.write(KV_ANSWER[: len(KV_ANSWER) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if form == "huge-headers":
            self.send_response(200)
            padding = "x" * 1000
            for index in range(2048):
                self.send_header(f"X-Padding-{index}", padding)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(KV_ANSWER)))
            self.end_headers()
            self.wfile.write(KV_ANSWER)
            return
        if form == "stall":
            time.sleep(3600)

    def send(self, status, body, headers=(), content_type="application/json"):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = do_LIST = answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("form", choices=FORMS)
    parser.add_argument("--log", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--target", default="")
    options = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.form, server.log, server.target = options.form, options.log, options.target
    server.count, server.lock = 0, threading.Lock()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(options.cert, options.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"listening on 127.0.0.1:{server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
