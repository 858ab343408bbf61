#!/usr/bin/env python3
"""A payment server for the SecKit envelope example: it accepts a money transfer sealed as a
compact JWE (dir + A256GCM) in the body of POST /transfer, opens it with joserfc, and answers with
a receipt sealed the same way. The shared key is a JWK in the environment variable TRANSFER_KEY
(`seccli keygen --format jwe-oct`). It listens on 127.0.0.1 only and prints its port on the first
line of standard output.

    TRANSFER_KEY="$(cat transfer.jwk)" python3 Examples/transfer-server/transfer_server.py [PORT]
"""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from joserfc import jwe
from joserfc.jwk import OctKey

KEY = OctKey.import_key(json.loads(os.environ["TRANSFER_KEY"]))
FIELDS = ("toAccount", "fromAccount", "amount", "transferDate")


class TransferHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path != "/transfer":
            return self.reply(404, b"unknown path\n", "text/plain")
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            transfer = json.loads(jwe.decrypt_compact(body.strip(), KEY).plaintext)
            missing = [name for name in FIELDS if name not in transfer]
            if missing:
                raise ValueError("missing " + ", ".join(missing))
        except Exception as error:  # a wrong key or any altered byte ends here
            return self.reply(400, f"rejected: {type(error).__name__}\n".encode(), "text/plain")
        receipt = {"status": "accepted", "amount": transfer["amount"], "toAccount": transfer["toAccount"]}
        sealed = jwe.encrypt_compact({"alg": "dir", "enc": "A256GCM"}, json.dumps(receipt).encode(), KEY)
        self.reply(200, sealed.encode(), "application/jose")

    def reply(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # keep the example's output to what matters
        pass


if __name__ == "__main__":
    server = HTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), TransferHandler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
