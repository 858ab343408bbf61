#!/usr/bin/env python3
"""JWE compact-serialization peer for SecKit's interop tests, over joserfc.

  encrypt --alg ALG --enc ENC [--kid KID] [--p2c N]   stdin plaintext  -> stdout compact JWE
  decrypt                                              stdin compact JWE -> stdout plaintext
  header                                               stdin compact JWE -> stdout protected header JSON

Keys come from the environment, never argv: JOSE_KEY_HEX (raw oct key, for dir and AxxxKW),
JOSE_PASSWORD (PBES2), or JOSE_KEYSET_JSON (a JWK Set; the token's kid picks the key).
Any failure exits 1 with one line on stderr.
"""
import argparse
import json
import os
import sys
import warnings

from joserfc import jwe
from joserfc.errors import SecurityWarning
from joserfc.jwk import KeySet, OctKey
from joserfc.util import urlsafe_b64decode

ALGS = ["dir", "A128KW", "A192KW", "A256KW", "PBES2-HS256+A128KW", "PBES2-HS384+A192KW", "PBES2-HS512+A256KW"]
ENCS = ["A128CBC-HS256", "A192CBC-HS384", "A256CBC-HS512", "A128GCM", "A192GCM", "A256GCM"]

# Without an explicit list joserfc allows only its "recommended" algorithms, which leave out A192KW and PBES2-*.
REGISTRY = jwe.JWERegistry(algorithms=ALGS + ENCS)
# joserfc refuses a ciphertext segment over 64 KiB of base64url on decrypt; the peer should not impose that.
REGISTRY.max_ciphertext_length = 1 << 30


def key_from_env():
    env = os.environ
    if "JOSE_KEYSET_JSON" in env:
        return KeySet.import_key_set(json.loads(env["JOSE_KEYSET_JSON"]))
    if "JOSE_PASSWORD" in env:
        return OctKey.import_key(env["JOSE_PASSWORD"].encode())
    if "JOSE_KEY_HEX" in env:
        return OctKey.import_key(bytes.fromhex(env["JOSE_KEY_HEX"]))
    raise ValueError("set JOSE_KEY_HEX, JOSE_PASSWORD or JOSE_KEYSET_JSON")


def encrypt(args, data):
    protected = {"alg": args.alg, "enc": args.enc}
    if args.kid is not None:
        protected["kid"] = args.kid
    if args.p2c is not None:
        protected["p2c"] = args.p2c
    return jwe.encrypt_compact(protected, data, key_from_env(), registry=REGISTRY).encode()


def decrypt(args, data):
    return jwe.decrypt_compact(data.strip(), key_from_env(), registry=REGISTRY).plaintext


def header(args, data):
    return urlsafe_b64decode(data.strip().split(b".")[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    enc = commands.add_parser("encrypt")
    enc.add_argument("--alg", required=True, choices=ALGS)
    enc.add_argument("--enc", required=True, choices=ENCS)
    enc.add_argument("--kid")
    enc.add_argument("--p2c", type=int, help="PBES2 iteration count (joserfc's default: 2048)")
    enc.set_defaults(run=encrypt)
    commands.add_parser("decrypt").set_defaults(run=decrypt)
    commands.add_parser("header").set_defaults(run=header)
    args = parser.parse_args()

    # joserfc warns on short keys and p2c < 1000; tests use both on purpose.
    warnings.simplefilter("ignore", SecurityWarning)
    try:
        out = args.run(args, sys.stdin.buffer.read())
    except Exception as error:
        message = " ".join(f"{type(error).__name__}: {error}".split())
        print(f"jose_peer {args.command}: {message}", file=sys.stderr)
        sys.exit(1)
    sys.stdout.buffer.write(out)


if __name__ == "__main__":
    main()
