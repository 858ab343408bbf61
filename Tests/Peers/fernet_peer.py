#!/usr/bin/env python3
"""Fernet peer for SecKit's interop tests, over cryptography.fernet.

  encrypt [--time UNIX]            stdin plaintext -> stdout token
  decrypt [--ttl N [--time UNIX]]  stdin token     -> stdout plaintext
  rotate                           stdin token     -> stdout token re-encrypted under the primary key
  generate-key                                     -> stdout a new key

Keys come from the environment: FERNET_KEY (one base64url key) or FERNET_KEYS
(comma-separated, the first is primary: it encrypts, and any of them decrypts).
Nothing is added to the output. An invalid token exits 1 with "invalid token" on stderr;
a bad or missing key or bad arguments exit 2.
"""
import argparse
import os
import sys

from cryptography.fernet import Fernet, InvalidToken, MultiFernet


def fernet_from_env():
    keys = os.environ.get("FERNET_KEYS") or os.environ.get("FERNET_KEY") or ""
    try:
        return MultiFernet([Fernet(key) for key in keys.split(",")])
    except ValueError as error:
        print(f"fernet_peer: FERNET_KEY/FERNET_KEYS: {error}", file=sys.stderr)
        sys.exit(2)


def encrypt(args, data):
    if args.time is None:
        return fernet_from_env().encrypt(data)
    return fernet_from_env().encrypt_at_time(data, args.time)


def decrypt(args, data):
    if args.time is None:
        return fernet_from_env().decrypt(data, args.ttl)
    return fernet_from_env().decrypt_at_time(data, args.ttl, args.time)


def rotate(args, data):
    return fernet_from_env().rotate(data)


def generate_key(args, data):
    return Fernet.generate_key()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    enc = commands.add_parser("encrypt")
    enc.add_argument("--time", type=int, help="token timestamp, seconds since the epoch")
    enc.set_defaults(run=encrypt)
    dec = commands.add_parser("decrypt")
    dec.add_argument("--ttl", type=int, help="reject tokens older than N seconds")
    dec.add_argument("--time", type=int, help="the current time for the --ttl check")
    dec.set_defaults(run=decrypt)
    commands.add_parser("rotate").set_defaults(run=rotate)
    commands.add_parser("generate-key").set_defaults(run=generate_key)
    args = parser.parse_args()
    if args.command == "decrypt" and args.time is not None and args.ttl is None:
        parser.error("decrypt --time needs --ttl (without a ttl Fernet checks no time)")

    data = b"" if args.command == "generate-key" else sys.stdin.buffer.read()
    try:
        out = args.run(args, data)
    except InvalidToken:
        sys.exit("invalid token")
    sys.stdout.buffer.write(out)


if __name__ == "__main__":
    main()
