#!/usr/bin/env python3
"""A hostile HTTP(S) server for the tests of SecKit's HTTP authentication (issue #27): it answers
every request with a 401 of one FORM and never lets a client in.

  hostile_auth_server.py FORM --log FILE [--cert PEM --key PEM]

It listens on 127.0.0.1 on a port the kernel picks, prints "listening on 127.0.0.1:PORT" once it
accepts connections, and appends one JSON line per request to FILE before answering it:
{"path": "/x", "authorization": "Digest ..."} (null when the request had no Authorization).

FORM, the loops a client must bound:
  stale              Digest with a new nonce each time, stale=true on every answer to an answer
  new-realm          Digest with a new realm (and nonce) each time
  two-realms         Digest, realms "A" and "B" alternating
  downgrade          Digest, then Basic, alternating in one realm
and the challenges a client cannot answer:
  unknown-algorithm  Digest algorithm=SHA-1024
  no-realm           Digest without a realm
  auth-int           Digest offering only qop="auth-int"
  bearer             Bearer only
"""
import argparse
import http.server
import json
import secrets
import signal
import ssl
import sys
import threading

FORMS = ["stale", "new-realm", "two-realms", "downgrade", "unknown-algorithm", "no-realm", "auth-int", "bearer"]


def digest(realm, stale=False, algorithm="SHA-256", qop="auth"):
    parameters = [] if realm is None else [f'realm="{realm}"']
    parameters += [f'nonce="{secrets.token_hex(16)}"', f'qop="{qop}"', f"algorithm={algorithm}"]
    if stale:
        parameters.append("stale=true")
    return "Digest " + ", ".join(parameters)


class Challenger:
    """The challenge of each request, by FORM; the count is over every request of the server."""

    def __init__(self, form):
        self.form = form
        self.count = 0
        self.lock = threading.Lock()

    def challenge(self, authorization):
        with self.lock:
            number = self.count
            self.count += 1
        form = self.form
        if form == "stale":
            return digest("hostile", stale=authorization is not None)
        if form == "new-realm":
            return digest(f"realm {number}")
        if form == "two-realms":
            return digest("A" if number % 2 == 0 else "B")
        if form == "downgrade":
            return digest("hostile") if number % 2 == 0 else 'Basic realm="hostile"'
        if form == "unknown-algorithm":
            return digest("hostile", algorithm="SHA-1024")
        if form == "no-realm":
            return digest(None)
        if form == "auth-int":
            return digest("hostile", qop="auth-int")
        return 'Bearer realm="hostile"'


def handler(challenger, log, log_lock):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            authorization = self.headers.get("Authorization")
            with log_lock:
                log.write(json.dumps({"path": self.path, "authorization": authorization}) + "\n")
                log.flush()
            body = b"unauthorized\n"
            self.send_response(401)
            self.send_header("WWW-Authenticate", challenger.challenge(authorization))
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args):
            pass

    return Handler


def main():
    # The test process may block SIGTERM in the thread that started this one; stop() sends it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parser = argparse.ArgumentParser()
    parser.add_argument("form", choices=FORMS)
    parser.add_argument("--log", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    log = open(args.log, "a")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler(Challenger(args.form), log, threading.Lock()))
    server.daemon_threads = True
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
