#!/usr/bin/env python3
"""HTTP Digest peer for SecHTTPAuth's interop tests, over requests.auth.HTTPDigestAuth.

  authorize --user USER --method METHOD --uri URI [--requests N]
      stdin: the challenge's parameters as a JSON object (realm, nonce, qop, algorithm, opaque)
      stdout: the Authorization value requests builds for each of N requests (default 1), one a line

The password comes from the environment: DIGEST_PASSWORD. requests picks its own client nonce;
the tests read it from the header and give it to SecHTTPAuth. Bad arguments exit 2.
"""
import argparse
import json
import os
import sys

from requests.auth import HTTPDigestAuth


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["authorize"])
    parser.add_argument("--user", required=True)
    parser.add_argument("--method", required=True)
    parser.add_argument("--uri", required=True)
    parser.add_argument("--requests", type=int, default=1)
    args = parser.parse_args()
    password = os.environ.get("DIGEST_PASSWORD")
    if password is None:
        print("digest_peer: DIGEST_PASSWORD is not set", file=sys.stderr)
        sys.exit(2)
    challenge = json.load(sys.stdin)
    auth = HTTPDigestAuth(args.user, password)
    auth.init_per_thread_state()
    auth._thread_local.chal = challenge
    for _ in range(args.requests):
        header = auth.build_digest_header(args.method, "http://peer.invalid" + args.uri)
        if header is None:
            print("digest_peer: requests cannot answer this challenge", file=sys.stderr)
            sys.exit(1)
        print(header)


if __name__ == "__main__":
    main()
