#!/usr/bin/env python3
"""AEAD peer for SecKit's interop tests, over cryptography's AESGCM and ChaCha20Poly1305.

  batch aes-gcm|chacha20-poly1305
           stdin: JSON {"open": [{"nonce", "aad", "ct", "tag"}...], "seal": [{"nonce", "aad", "msg"}...]}
           stdout: JSON {"opened": [plaintext or null when the tag does not verify...],
                         "sealed": [{"ct", "tag"}...]}

All byte strings are hex. The key comes from the environment: AEAD_KEY_HEX (AES-GCM: 16, 24 or 32
bytes; ChaCha20-Poly1305: 32). Bad arguments or a bad key exit 2.
"""
import json
import os
import sys

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

ALGORITHMS = {"aes-gcm": AESGCM, "chacha20-poly1305": ChaCha20Poly1305}


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "batch" or sys.argv[2] not in ALGORITHMS:
        print("usage: aead_peer.py batch aes-gcm|chacha20-poly1305", file=sys.stderr)
        sys.exit(2)
    try:
        aead = ALGORITHMS[sys.argv[2]](bytes.fromhex(os.environ.get("AEAD_KEY_HEX", "")))
    except ValueError as error:
        print(f"aead_peer: AEAD_KEY_HEX: {error}", file=sys.stderr)
        sys.exit(2)
    request = json.load(sys.stdin)
    opened = []
    for item in request.get("open", []):
        data = bytes.fromhex(item["ct"]) + bytes.fromhex(item["tag"])
        try:
            opened.append(aead.decrypt(bytes.fromhex(item["nonce"]), data, bytes.fromhex(item["aad"])).hex())
        except InvalidTag:
            opened.append(None)
    sealed = []
    for item in request.get("seal", []):
        out = aead.encrypt(bytes.fromhex(item["nonce"]), bytes.fromhex(item["msg"]), bytes.fromhex(item["aad"]))
        sealed.append({"ct": out[:-16].hex(), "tag": out[-16:].hex()})
    json.dump({"opened": opened, "sealed": sealed}, sys.stdout)


if __name__ == "__main__":
    main()
